"""Well behaved and long-lived: turns on the spot (the first rotation card of its hand,
else card 0) and echoes the turn, so it usually survives a whole game."""
from common import card0, log, messages, send

answered = 0
for msg in messages():
    if msg["type"] == "turn":
        hand = msg["hand"]
        i = next((i for i, c in enumerate(hand) if c["move"] in ("L", "R", "U")), 0)
        send({"card": i, "turn": msg["turn"]})
        answered += 1
    elif msg["type"] == "start":
        send(card0(msg))
        answered += 1
log("answered", answered)
