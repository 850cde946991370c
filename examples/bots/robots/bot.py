#!/usr/bin/env python3
"""A Robots starter bot: JSON lines on stdin and stdout (docs/robots.md, RB6).

Each turn it sends up to 8 moves: steps (or passes) to squares no robot can reach on its
next step, preferring squares far from the robots, each planned against where the robots
will be after the moves before it; when no square is safe, it teleports. There are also
blasts and a last stand: see the rules. Print debugging to stderr, never to stdout: stdout
is for answers only.
"""
import json
import sys

STEPS = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
         "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1), "P": (0, 0)}


def sign(v):
    return (v > 0) - (v < 0)


def step_robots(robots, heaps, px, py):
    """The robots after one step towards (px, py): collisions make heaps (the rules, RB3)."""
    moved = [(rx + sign(px - rx), ry + sign(py - ry)) for rx, ry in robots]
    count = {}
    for r in moved:
        count[r] = count.get(r, 0) + 1
    heaps = set(heaps) | {r for r, c in count.items() if c > 1}
    alive = [r for r in moved if count[r] == 1 and r not in heaps]
    return alive, heaps


def plan(msg, width, height):
    """Up to 8 safe moves for this turn, each checked against where the robots will be."""
    x, y = msg["you"]
    robots = [tuple(r) for r in msg["robots"]]
    heaps = {tuple(h) for h in msg["heaps"]}
    moves = []
    while len(moves) < 8 and robots:
        move = choose(x, y, robots, heaps, width, height)
        if move == "T":
            return moves or ["T"]
        dx, dy = STEPS[move]
        x, y = x + dx, y + dy
        robots, heaps = step_robots(robots, heaps, x, y)
        moves.append(move)
    return moves or ["P"]


def choose(x, y, robots, heaps, width, height):
    """One safe move from (x, y), or T when there is none."""
    best = None
    for name, (dx, dy) in STEPS.items():
        nx, ny = x + dx, y + dy
        if not (0 <= nx < width and 0 <= ny < height) or (nx, ny) in heaps:
            continue
        if (nx, ny) in robots:
            continue
        # Where every robot goes if we stand on (nx, ny).
        after = [(rx + sign(nx - rx), ry + sign(ny - ry)) for rx, ry in robots]
        if (nx, ny) in after:
            continue
        nearest = min((max(abs(ax - nx), abs(ay - ny)) for ax, ay in after), default=99)
        if best is None or nearest > best[0]:
            best = (nearest, name)
    return best[1] if best else "T"


def main():
    width = height = None
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            width, height = msg["width"], msg["height"]
        elif kind == "turn":
            moves = plan(msg, width, height)
            print(json.dumps({"turn": msg["turn"], "moves": moves}), flush=True)
        elif kind == "game_over":
            print("final scores", msg["scores"], file=sys.stderr, flush=True)
            return


if __name__ == "__main__":
    main()
