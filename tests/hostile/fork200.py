"""Forks N (argv[1], default 200) sleeping children, then plays card 0."""
import os
import sys
import time
from common import log, play_card0

count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
forked = 0
for _ in range(count):
    try:
        pid = os.fork()
    except OSError as e:
        log("fork failed:", e)
        break
    if pid == 0:
        time.sleep(300)
        os._exit(0)
    forked += 1
log("forked", forked, "of", count)
play_card0()
