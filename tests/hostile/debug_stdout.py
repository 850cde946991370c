"""Prints a debug line to stdout at its first turn of each game (the classic first-bot
mistake), then answers card 0 like a good bot."""
import sys
from common import card0, messages, send

told = False
for msg in messages():
    if msg["type"] == "turn" and not told:
        sys.stdout.write("DEBUG got turn %d\n" % msg["turn"])
        sys.stdout.flush()
        told = True
    if msg["type"] in ("start", "turn"):
        send(card0(msg))
