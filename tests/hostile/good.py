"""Well behaved: says hello back (the protocol allows any reply to hello), then plays the
first option facing north and always card 0."""
import sys
from common import card0, log, messages, send

log("good bot started with", sys.argv[1:])
for msg in messages():
    if msg["type"] == "hello":
        send({"hello": "ready", "seat": msg["seat"]})
    elif msg["type"] in ("start", "turn"):
        send(card0(msg))
log("good bot done")
