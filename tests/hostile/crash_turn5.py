"""Plays well until turn 5, then crashes: a bug a short smoke game would miss."""
from common import card0, log, messages, send

for msg in messages():
    if msg["type"] == "turn" and msg["turn"] >= 5:
        log("crashing at turn 5")
        raise RuntimeError("bot bug at turn 5")
    if msg["type"] in ("start", "turn"):
        send(card0(msg))
