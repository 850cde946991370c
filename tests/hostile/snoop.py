"""Tries to list another team's directory (argv[1]) and read its secret, then plays card 0."""
import os
import sys
from common import log, play_card0

target = sys.argv[1]
try:
    log("list:", os.listdir(target))
except OSError as e:
    log("list: denied:", e)
try:
    with open(os.path.join(target, "secret.txt")) as f:
        log("read: got", f.read())
except OSError as e:
    log("read: denied:", e)
play_card0()
