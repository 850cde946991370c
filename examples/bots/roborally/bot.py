#!/usr/bin/env python3
"""A RoboRally starter bot: JSON lines on stdin and stdout (docs/roborally.md, RR14).

Each turn it tries the programs its hand allows (five registers, fewer at low hp), imagining
its robot alone on the board: the card, then fast and slow belts, gears, board lasers, its
next target and repair squares, register by register. It keeps the program that reaches the
most targets without falling into a pit or off the board, ending nearest its next target
(walking distance, round walls and pits), and powers down when that race leaves it weak.
Print debugging to stderr, never to stdout: stdout is for answers only.
"""
import json
import sys
import time
from collections import deque

DIRS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
ORDER = "NESW"
RIGHT = {"N": "E", "E": "S", "S": "W", "W": "N"}
LEFT = {v: k for k, v in RIGHT.items()}
BACK = {"N": "S", "E": "W", "S": "N", "W": "E"}
SEARCH_SECONDS = 0.4  # well inside the time limit


class Board:
    def __init__(self, b):
        self.w, self.h = b["width"], b["height"]
        self.sq = {(s["x"], s["y"]): s for s in b["squares"]}
        flags = sorted((s["flag"], (s["x"], s["y"])) for s in b["squares"] if s["type"] == "flag")
        finish = [(s["x"], s["y"]) for s in b["squares"] if s["type"] == "finish"]
        self.targets = [p for _, p in flags] + finish
        self.beam = {}  # what the board lasers take from a robot alone on each square
        for s in b["squares"]:
            if s.get("laser"):
                at, d = (s["x"], s["y"]), s["laser"]["dir"]
                while True:
                    self.beam[at] = self.beam.get(at, 0) + s["laser"]["strength"]
                    nxt = step(at, d)
                    if self.blocked(at, d) or nxt not in self.sq:
                        break
                    at = nxt
        self.dist = [self.walk_from(t) for t in self.targets]

    def blocked(self, at, d):
        nxt = step(at, d)
        if d in self.sq[at]["walls"]:
            return True
        return nxt in self.sq and BACK[d] in self.sq[nxt]["walls"]

    def safe(self, at):
        return at in self.sq and self.sq[at]["type"] != "pit"

    def walk_from(self, target):
        """Steps from every square to `target`: round walls and pits (docs: RR1.4)."""
        dist = {target: 0}
        todo = deque([target])
        while todo:
            at = todo.popleft()
            for d in ORDER:
                nxt = step(at, d)
                if nxt not in dist and self.safe(nxt) and not self.blocked(at, d):
                    dist[nxt] = dist[at] + 1
                    todo.append(nxt)
        return dist

    def distance(self, k, at):
        return self.dist[k].get(at) if k < len(self.dist) else None


def step(at, d):
    dx, dy = DIRS[d]
    return (at[0] + dx, at[1] + dy)


def register(board, robot, move):
    """One register for the robot alone: its card, belts, gears, lasers, target, repair.
    `robot` is (at, facing, hp, targets reached, finished); None when it was destroyed."""
    at, facing, hp, reached, done = robot
    if move in ("L", "R", "U"):
        facing = {"L": LEFT, "R": RIGHT, "U": BACK}[move][facing]
    elif move is not None:
        d = BACK[facing] if move == "B" else facing
        for _ in range(1 if move == "B" else int(move[1])):
            if board.blocked(at, d):
                break
            at = step(at, d)
            if not board.safe(at):
                return None
    for fast in (True, True, False):
        s = board.sq[at]
        if s["type"] != "belt" or (s["speed"] == 2) != fast or board.blocked(at, s["dir"]):
            continue
        at = step(at, s["dir"])
        if not board.safe(at):
            return None
        nxt = board.sq[at]
        if nxt["type"] == "belt" and (nxt["speed"] == 2) == fast:
            if nxt["dir"] == RIGHT[s["dir"]]:
                facing = RIGHT[facing]
            elif nxt["dir"] == LEFT[s["dir"]]:
                facing = LEFT[facing]
    kind = board.sq[at]["type"]
    if kind == "gear_cw":
        facing = RIGHT[facing]
    elif kind == "gear_ccw":
        facing = LEFT[facing]
    elif kind == "gear_u":
        facing = BACK[facing]
    hp -= board.beam.get(at, 0)
    if hp <= 0:
        return None
    if not done and reached < len(board.targets) and board.targets[reached] == at:
        if reached == len(board.targets) - 1:
            done = True
        else:
            reached += 1
    if kind == "repair":
        hp = min(9, hp + board.sq[at]["repair"])
    return (at, facing, hp, reached, done)


def rank(board, start, end):
    if end is None:
        return (False, False, 0, -1000, 0)
    at, _, hp, reached, done = end
    d = board.distance(reached, at)
    return (done, True, reached - start[3], -(d if d is not None else 1000), hp)


def plan(board, msg, me):
    """The best program for this turn, searched depth first until time runs out."""
    you = msg["robots"][me]
    start = ((you["x"], you["y"]), you["facing"], you["hp"], you["checkpoints"], you["finished"])
    hand = [c["move"] for c in msg["hand"]]
    free = msg["free"]
    locked = [c["move"] for c in sorted(msg["locked"], key=lambda c: c["register"])]
    best = [None, list(range(free)), start]
    deadline = time.monotonic() + SEARCH_SECONDS

    def leaf(prefix, end):
        r = rank(board, start, end)
        if best[0] is None or r > best[0]:
            rest = [i for i in range(len(hand)) if i not in prefix]
            best[0], best[1], best[2] = r, (prefix + rest)[:free], end

    def search(robot, prefix):
        if robot is None or robot[4] or len(prefix) == free:
            end = robot
            if robot is not None and not robot[4]:
                for move in locked:
                    end = register(board, end, move)
                    if end is None or end[4]:
                        break
            return leaf(prefix, end)
        if time.monotonic() > deadline:
            return
        tried = set()
        for i, move in enumerate(hand):
            if i in prefix or move in tried:
                continue
            tried.add(move)
            search(register(board, robot, move), prefix + [i])

    search(start, [])
    end = best[2]
    weak = end is None or (not end[4] and end[2] <= 4)
    return {"turn": msg["turn"], "program": best[1], "power_down": weak}


def facing_towards(board, k, at):
    """The first step of a shortest walk to target k; north when there is none."""
    here = board.distance(k, at)
    for d in ORDER:
        nxt = step(at, d)
        if here and not board.blocked(at, d) and board.distance(k, nxt) == here - 1:
            return d
    return "N"


def main():
    board, me, reached = None, 0, 0
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            # A new game: nothing of the last one may change how we play this one.
            board, me, reached = Board(msg["board"]), msg["seat"], 0
        elif kind == "start":
            x, y = msg["options"][0]
            answer = {"x": x, "y": y, "facing": facing_towards(board, reached, (x, y))}
            # "series": we play every game of our set in this process (docs/bots.md).
            answer["series"] = True
            print(json.dumps(answer), flush=True)
        elif kind == "turn":
            reached = msg["robots"][me]["checkpoints"]
            answer = plan(board, msg, me)
            answer["series"] = True
            print(json.dumps(answer), flush=True)
        elif kind == "game_over":
            pass  # not the end: the next game of the set may follow (a hello)


if __name__ == "__main__":
    main()
