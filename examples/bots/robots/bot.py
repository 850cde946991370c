#!/usr/bin/env python3
"""A Robots starter bot: JSON lines on stdin and stdout (docs/robots.md).

Every turn costs a point and every robot destroyed gives one, so a good bot finishes
levels in few turns. Each turn this bot plans up to 8 moves on a pretend copy of its
board (the robots' step is the same in the copy as in the game):

1. If standing still until the level ends would survive, it answers `L` (last stand).
2. With one robot left and the blaster unused, it lets the robot come and blasts it.
3. Otherwise it tries every step, `P` and blast, throws away those that get it killed,
   and takes the best: one that ends the level, then one that leaves a safe square for
   the next move, then the most robots destroyed now and in the next steps if it stood
   still, then, with few robots left, one that brings a robot in line with a scrap heap
   (so that its next steps take it onto the heap), then the farthest from the robots.
4. Cornered (every move gets it killed), it teleports (`T`).
5. A level that has not lost a robot for many turns is a waste of points: it teleports to
   shake things up, and much later it quits (`Q`) to keep the points it has.

Print debugging to stderr, never to stdout: stdout is for answers only. An error in the
strategy is written to stderr (`lrs-tourney play` shows it) and the turn is a pass.
"""
import json
import sys
import traceback

STEPS = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
         "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}
LOOK_AHEAD = 3        # steps of standing still looked at after each move
FEW_ROBOTS = 3        # from this many robots left, hunt them onto heaps
STUCK_TELEPORT = 8    # turns without a robot destroyed before teleporting
STUCK_QUIT = 40       # turns without a robot destroyed before quitting the game


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def sign(v):
    return (v > 0) - (v < 0)


def dist(a, b):
    """Steps between two squares (diagonals count as one step)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


class Board:
    """A pretend copy of our board: where we are, the robots and the heaps."""

    def __init__(self, width, height, me, robots, heaps, can_blast):
        self.width, self.height = width, height
        self.me = me
        self.robots = robots
        self.heaps = heaps
        self.can_blast = can_blast
        self.dead = False
        self.kills = 0

    def copy(self):
        b = Board(self.width, self.height, self.me, list(self.robots), set(self.heaps),
                  self.can_blast)
        b.dead, b.kills = self.dead, self.kills
        return b

    def on_board(self, sq):
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def robots_step(self):
        """Every robot steps towards us; robots meeting each other or a heap are destroyed."""
        px, py = self.me
        moved = [(rx + sign(px - rx), ry + sign(py - ry)) for rx, ry in self.robots]
        count = {}
        for r in moved:
            count[r] = count.get(r, 0) + 1
        if self.me in count:
            self.dead = True
        alive = []
        for r in moved:
            if count[r] > 1 or r in self.heaps:
                self.heaps.add(r)
                self.kills += 1
            else:
                alive.append(r)
        self.robots = alive

    def play(self, move):
        """Plays one move (a step, P or a blast); False when the move is illegal."""
        if move == "P":
            self.robots_step()
            return True
        blast = move.startswith("B")
        dx, dy = STEPS[move[1:] if blast else move]
        sq = (self.me[0] + dx, self.me[1] + dy)
        if not self.on_board(sq):
            return False
        if blast:
            if not self.can_blast:
                return False
            self.can_blast = False
            if sq in self.robots:
                self.robots.remove(sq)
                self.kills += 1
            self.heaps.add(sq)
            if not self.robots:
                return True
        else:
            if sq in self.robots or sq in self.heaps:
                return False
            self.me = sq
        self.robots_step()
        return True

    def last_stand_survives(self):
        """Whether standing still until no robot is left keeps us alive."""
        b = self.copy()
        while b.robots and not b.dead:
            b.robots_step()
        return not b.dead

    def safe_squares(self):
        """Squares we could step to (or stay on) that no robot reaches in its next step."""
        n = 0
        for dx, dy in list(STEPS.values()) + [(0, 0)]:
            sq = (self.me[0] + dx, self.me[1] + dy)
            if (dx, dy) != (0, 0) and (not self.on_board(sq) or sq in self.heaps
                                       or sq in self.robots):
                continue
            if all(dist(r, sq) > 1 for r in self.robots):
                n += 1
        return n

    def kills_standing(self, steps):
        """Robots destroyed in the next `steps` steps if we stood still."""
        b = self.copy()
        for _ in range(steps):
            if not b.robots or b.dead:
                break
            b.robots_step()
        return b.kills - self.kills

    def heap_line(self):
        """How far the robots are from walking onto a heap: 0 when a robot's path to us
        goes through a heap, larger the farther each is from such a line."""
        if not self.heaps:
            return 0
        best = 99
        for r in self.robots:
            path, sq = 0, r
            while sq != self.me and path < 12:
                sq = (sq[0] + sign(self.me[0] - sq[0]), sq[1] + sign(self.me[1] - sq[1]))
                path += 1
                if sq in self.heaps:
                    return 0
            # Off the line: how far its path passes from the nearest heap.
            best = min(best, min(dist(h, r) for h in self.heaps))
        return best

    def nearest(self):
        return min((dist(r, self.me) for r in self.robots), default=99)

    def edge(self):
        x, y = self.me
        return min(x, y, self.width - 1 - x, self.height - 1 - y, 2)


def candidates(board):
    moves = list(STEPS) + ["P"]
    if board.can_blast:
        moves += ["B" + d for d in STEPS]
    return moves


def score(before, after, move):
    """How good `after` is: a tuple, larger is better."""
    done = not after.robots
    blast = move.startswith("B")
    few = len(after.robots) <= FEW_ROBOTS
    return (
        done,
        after.safe_squares() > 0,
        # Keep the blaster for the last robot, unless blasting is all that saves us.
        not blast,
        after.kills - before.kills + after.kills_standing(LOOK_AHEAD),
        -after.heap_line() if few and not after.can_blast else 0,
        min(after.nearest(), 3),
        after.edge(),
        after.safe_squares(),
    )


def choose(board):
    """The best move from `board`, or T when every move gets us killed."""
    if len(board.robots) == 1 and board.can_blast:
        robot = board.robots[0]
        if dist(robot, board.me) == 1:
            for name, (dx, dy) in STEPS.items():
                if (board.me[0] + dx, board.me[1] + dy) == robot:
                    return "B" + name
        if dist(robot, board.me) >= 2:
            return "P"  # let it come
    best = None
    for move in candidates(board):
        after = board.copy()
        if not after.play(move) or after.dead:
            continue
        s = score(board, after, move)
        if best is None or s > best[0]:
            best = (s, move)
    return best[1] if best else "T"


def plan(board, stuck):
    """Up to 8 moves for this turn."""
    if stuck >= STUCK_QUIT:
        return ["Q"]
    if stuck and stuck % STUCK_TELEPORT == 0:
        return ["T"]
    moves = []
    while len(moves) < 8 and board.robots:
        if board.last_stand_survives():
            moves.append("L")
            break
        move = choose(board)
        moves.append(move)
        if move == "T":
            break  # where a teleport lands is not known in advance
        board.play(move)
    return moves or ["P"]


def main():
    width = height = None
    level, robots_left, stuck = None, None, 0
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            # A new game: nothing of the last one may change how we play this one.
            width, height = msg["width"], msg["height"]
            level, robots_left, stuck = None, None, 0
        elif kind == "turn":
            robots = [tuple(r) for r in msg["robots"]]
            # Turns in a row with the same level and as many robots.
            if (msg["level"], len(robots)) == (level, robots_left):
                stuck += 1
            else:
                stuck = 0
            level, robots_left = msg["level"], len(robots)
            board = Board(width, height, tuple(msg["you"]), robots,
                          {tuple(h) for h in msg["heaps"]}, msg["can_blast"])
            try:
                moves = plan(board, stuck)
            except Exception:
                # A bug in our strategy must not cost us the game: say it, and pass.
                log(traceback.format_exc())
                moves = ["P"]
            # "series": we play every game of our set in this process (docs/bots.md).
            answer = {"turn": msg["turn"], "moves": moves, "series": True}
            print(json.dumps(answer), flush=True)
        elif kind == "game_over":
            # Not the end: the next game of the set may follow (a hello).
            log("final scores", msg["scores"])


if __name__ == "__main__":
    main()
