"""Helpers shared by the test bots (standard library only)."""
import json
import sys


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def messages():
    """Yields every message from stdin until game_over or end of input."""
    for line in sys.stdin:
        msg = json.loads(line)
        yield msg
        if msg["type"] == "game_over":
            return


def card0(msg):
    """The well-behaved answer: the first option facing north, or card 0."""
    if msg["type"] == "start":
        x, y = msg["options"][0]
        return {"x": x, "y": y, "facing": "N"}
    return {"card": 0}


def play_card0():
    for msg in messages():
        if msg["type"] in ("start", "turn"):
            send(card0(msg))
