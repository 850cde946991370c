"""A RobotGame bot that guards with every robot (an empty action list) until turn 5, then
crashes: a bug only a whole smoke game finds."""
import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("type") == "turn":
        if msg["turn"] >= 5:
            print("bot bug at turn 5", file=sys.stderr, flush=True)
            raise RuntimeError("bot bug at turn 5")
        print(json.dumps({"turn": msg["turn"], "actions": []}), flush=True)
    elif msg.get("type") == "game_over":
        break
