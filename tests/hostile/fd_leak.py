"""Looks for descriptors it did not open (inherited from the organiser's shell through the
runner) and writes to them; answers with garbage if it found any, else plays card 0."""
import os
from common import log, messages, send, card0

found = []
for fd in range(3, 4096):
    try:
        os.fstat(fd)
    except OSError:
        continue
    found.append(fd)
    try:
        os.write(fd, b"written by a bot\n")
    except OSError:
        pass
try:
    with open("/proc/self/fd/7", "a") as f:
        f.write("written by a bot through /proc/self/fd/7\n")
    found.append("/proc/self/fd/7")
except OSError as e:
    log("proc fd 7:", e)
log("inherited:", found)
for msg in messages():
    if msg["type"] in ("start", "turn"):
        send({"card": "leak"} if found else card0(msg))
