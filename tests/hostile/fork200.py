"""Forks 200 sleeping children, then plays card 0."""
import os
import time
from common import log, play_card0

forked = 0
for _ in range(200):
    try:
        pid = os.fork()
    except OSError as e:
        log("fork failed:", e)
        break
    if pid == 0:
        time.sleep(300)
        os._exit(0)
    forked += 1
log("forked", forked, "of 200")
play_card0()
