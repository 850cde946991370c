"""Plays Last Robot Standing with card 0, and may play a whole set in one process.

Every game it writes `process TOKEN game N` to stderr: TOKEN is drawn when the process
starts, N counts the games this process played. Arguments:
- `series`: says `"series": true` in its answers and reads on after `game_over`;
- `junk`: prints a line between games (after `game_over`), which answers nothing;
- `exit-after-N`: exits after the `game_over` of its N-th game;
- `crash-in-N`: exits at the first `turn` question of its N-th game (after answering
  `start`).
Without `series` it exits after `game_over`, as a bot of one game does."""
import json
import os
import sys
from common import card0, log, send

mode = sys.argv[1:]
token = os.urandom(6).hex()
games = 0
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        games += 1
        log("process", token, "game", games)
    elif kind in ("start", "turn"):
        if kind == "turn" and "crash-in-%d" % games in mode:
            sys.exit(3)
        answer = card0(msg)
        if "series" in mode:
            answer["series"] = True
        send(answer)
    elif kind == "game_over":
        if "junk" in mode:
            print("between games", flush=True)
        if "exit-after-%d" % games in mode or "series" not in mode:
            sys.exit(0)
