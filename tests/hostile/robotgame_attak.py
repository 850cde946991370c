"""A RobotGame bot with a typo in its action name: every answer is read, and every one is
refused by the rules."""
import json
import sys

me = None
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("type") == "hello":
        me = msg["seat"]
    elif msg.get("type") == "turn":
        actions = [
            {"id": r["id"], "action": "attak", "to": [r["x"], r["y"] + 1]}
            for r in msg["robots"]
            if r["seat"] == me
        ]
        print(json.dumps({"turn": msg["turn"], "actions": actions}), flush=True)
    elif msg.get("type") == "game_over":
        break
