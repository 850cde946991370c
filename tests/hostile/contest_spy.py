"""Tries to read the contest's files named in argv (the tournament file with its seed,
another team's folder, the database): logs `SEEN path` for each one it could read or list
and `HIDDEN path` for the others, then plays card 0."""
import os
import sys
from common import log, play_card0

for path in sys.argv[1:]:
    try:
        if os.path.isdir(path):
            names = os.listdir(path)
            log(("SEEN " if names else "HIDDEN ") + path, names)
        else:
            with open(path, "rb") as f:
                data = f.read(200)
            log(("SEEN " if data else "HIDDEN ") + path, data[:60])
    except OSError as e:
        log("HIDDEN " + path, type(e).__name__)
play_card0()
