"""Answers every query with a 10 MB line (valid JSON padded with spaces)."""
import sys
from common import card0, messages
import json

PAD = b" " * (10 * 1024 * 1024)
for msg in messages():
    if msg["type"] in ("start", "turn"):
        text = json.dumps(card0(msg)).encode()
        sys.stdout.buffer.write(text[:-1] + PAD + b"}\n")
        sys.stdout.flush()
