"""Answers the first three queries well, then crashes."""
from common import card0, log, messages, send

answered = 0
for msg in messages():
    if msg["type"] in ("start", "turn"):
        if answered == 3:
            log("crashing now")
            raise RuntimeError("bot bug")
        send(card0(msg))
        answered += 1
