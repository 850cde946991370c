"""Makes a directory 50,000 levels deep (mkdir, chdir, repeat) until it cannot (or for at
most 4 s: under Landlock every step checks the whole path up, so deep levels are slow),
reports the depth, then plays card 0."""
import os
import time
from common import log, play_card0

depth, error = 0, None
top = os.open(".", os.O_RDONLY)
try:
    deadline = time.monotonic() + 4
    while depth < 50000 and time.monotonic() < deadline:
        os.mkdir("d")
        os.chdir("d")
        depth += 1
except OSError as e:
    error = e
os.fchdir(top)
log("depth %d error %s after %.1f s" % (depth, error, time.monotonic() - deadline + 4))
play_card0()
