"""Answers turn queries of even turns after the deadline (with card 99, which would be an
invalid answer if it were taken for the next query), every other query at once (card 0)."""
import time
from common import card0, log, messages, send

limit = 1.0
for msg in messages():
    if msg["type"] == "hello":
        limit = msg["time_limit_ms"] / 1000.0
    elif msg["type"] == "turn" and msg["turn"] % 2 == 0:
        time.sleep(limit + 0.1)
        send({"card": 99})
        log("late", msg["turn"])
    elif msg["type"] in ("start", "turn"):
        send(card0(msg))
        log("on time", msg["type"], msg["turn"])
