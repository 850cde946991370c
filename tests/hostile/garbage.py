"""Answers every query with garbage of some kind."""
import sys
from common import messages

GARBAGE = [
    b"hello world",
    b'{"foo": 1}',
    b"[0, 1]",
    b'{"card": "zero"}',
    b'{"card": 1.5}',
    b'{"card": -1}',
    b"\xff\xfe\xfd not utf-8",
    b'{"x": "a", "y": null, "facing": 7}',
    b"",
]
n = 0
for msg in messages():
    if msg["type"] in ("start", "turn"):
        sys.stdout.buffer.write(GARBAGE[n % len(GARBAGE)] + b"\n")
        sys.stdout.flush()
        n += 1
