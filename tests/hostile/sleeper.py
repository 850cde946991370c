"""Takes ten minutes over its first answer, then plays card 0: with a long time limit, its
game holds the tournament unfinished for as long as a test needs."""
import time

from common import card0, messages, send

first = True
for msg in messages():
    if msg["type"] in ("start", "turn"):
        if first:
            first = False
            time.sleep(600)
        send(card0(msg))
