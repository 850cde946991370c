"""Forks 8 children that spin forever, then plays card 0."""
import os
from common import play_card0

for _ in range(8):
    if os.fork() == 0:
        while True:
            pass
play_card0()
