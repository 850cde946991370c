"""Writes terminal escapes to stderr and stdout: a clipboard write (OSC 52), a window
title, a clear screen, a C1 control and a carriage return that overwrites the line with a
fake verdict; answers every query with such a line, then crashes on its third query."""
import sys
from common import messages

ESCAPES = (
    "\x1b]52;c;cm0gLXJmIH4K\x07"  # OSC 52: put `rm -rf ~` in the clipboard
    "\x1b]0;PWNED-TITLE\x07"  # window title
    "\x1b[2J\x1b[H"  # clear the screen, cursor home
    "\u009b31m"  # C1 CSI: red text
    "\rok: FAKE.toml is valid"  # overwrite the line with a fake verdict
)

n = 0
for msg in messages():
    if msg["type"] in ("start", "turn"):
        sys.stderr.write(ESCAPES + "\n")
        sys.stderr.flush()
        n += 1
        if n == 3:
            raise SystemExit(3)
        sys.stdout.write(ESCAPES + "\n")
        sys.stdout.flush()
