#!/usr/bin/env python3
"""A RobotGame starter bot: JSON lines on stdin and stdout (docs/robotgame.md, RG7).

Each turn it answers one line with an action for every robot of its seat:
attack an adjacent enemy, else step towards the nearest enemy, else guard.
Change `choose` to make it smarter. Print debugging to stderr, never to stdout:
stdout is for answers only. An error in `choose` is written to stderr (`lrs-tourney play`
shows it) and every robot guards that turn.
"""
import json
import sys
import traceback

DIRS = [(0, -1), (1, 0), (0, 1), (-1, 0)]


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def choose(robot, me, robots, walkable):
    """The action of one of my robots."""
    x, y = robot["x"], robot["y"]
    enemies = [r for r in robots if r["seat"] != me]
    occupied = {(r["x"], r["y"]) for r in robots}
    for dx, dy in DIRS:
        for e in enemies:
            if (e["x"], e["y"]) == (x + dx, y + dy):
                return {"id": robot["id"], "action": "attack", "to": [x + dx, y + dy]}
    if not enemies:
        return {"id": robot["id"], "action": "guard"}
    target = min(enemies, key=lambda e: abs(e["x"] - x) + abs(e["y"] - y))
    best = None
    for dx, dy in DIRS:
        nx, ny = x + dx, y + dy
        if (nx, ny) not in walkable or (nx, ny) in occupied:
            continue
        d = abs(target["x"] - nx) + abs(target["y"] - ny)
        if best is None or d < best[0]:
            best = (d, nx, ny)
    if best is None:
        return {"id": robot["id"], "action": "guard"}
    return {"id": robot["id"], "action": "move", "to": [best[1], best[2]]}


def main():
    me = None
    walkable = set()
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            me = msg["seat"]
            size = msg["arena"]["size"]
            blocked = {tuple(p) for p in msg["arena"]["obstacles"]}
            walkable = {(x, y) for x in range(size) for y in range(size)} - blocked
            log("playing seat", me)
        elif kind == "turn":
            robots = msg["robots"]
            mine = [r for r in robots if r["seat"] == me]
            try:
                actions = [choose(r, me, robots, walkable) for r in mine]
            except Exception:
                # A bug in our strategy must not cost us the game: say it, and guard.
                log(traceback.format_exc())
                actions = [{"id": r["id"], "action": "guard"} for r in mine]
            # "series": we play every game of our set in this process (docs/bots.md).
            answer = {"turn": msg["turn"], "actions": actions, "series": True}
            print(json.dumps(answer), flush=True)
        elif kind == "game_over":
            # Not the end: the next game of the set may follow (a hello).
            log("final scores", msg["scores"])


if __name__ == "__main__":
    main()
