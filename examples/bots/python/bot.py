#!/usr/bin/env python3
"""A starter bot for Last Robot Standing.

The tournament talks to this program with JSON lines:
  - it writes one JSON object per line to our standard input (stdin),
  - we answer the questions ("start" and "turn") with one JSON object per line
    on standard output (stdout).
Anything we want to say to a human goes to standard error (stderr): the
tournament keeps it as our log and never reads it as an answer.

Strategy (simple on purpose, so you can improve it):
  1. When the game begins, work out for every square and facing how many
     turns it takes to reach each flag (a breadth-first search that goes
     around walls and pits and knows what belts and gears do).
  2. Every turn, try each card of the hand on a pretend copy of our robot,
     and keep the card that ends closest (in turns) to our next flag.
     A card that would kill us (off the board, into a pit) is only played
     when every card would.
  3. After the last flag, head for the nearest repair square and stay there.

What the pretend move knows about: walls, the board edge, pits, the cards'
steps and turns, conveyor belts (express belts first, then all belts,
including the quarter turn on belt curves) and gears.
What it ignores: other robots (pushes, robots holding up a belt), lasers
and damage.

Standard library only: run it with `python3 bot.py`.
`python3 bot.py --card0` always plays card 0 (useful to measure how fast
the tournament itself is). `python3 bot.py --replay FILE` reads the messages
from FILE instead of stdin (handy in a debugger).
"""

import json
import sys
import traceback
from collections import deque

# ---------------------------------------------------------------------------
# Directions
# ---------------------------------------------------------------------------

# Clockwise order: turning right means "next in this list".
DIRECTIONS = ["N", "E", "S", "W"]

# How (x, y) changes for one step. y grows towards the SOUTH (down the page).
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

# The distance we give to states from which a flag cannot be reached.
FAR_AWAY = 1_000_000


def turn_right(facing):
    return DIRECTIONS[(DIRECTIONS.index(facing) + 1) % 4]


def turn_left(facing):
    return DIRECTIONS[(DIRECTIONS.index(facing) + 3) % 4]


def turn_around(facing):
    return DIRECTIONS[(DIRECTIONS.index(facing) + 2) % 4]


# ---------------------------------------------------------------------------
# Talking to the tournament
# ---------------------------------------------------------------------------


def log(*parts):
    """Write a line to our log (stderr). Never print() debug text to stdout!"""
    print(*parts, file=sys.stderr, flush=True)


def send(answer):
    """Write one answer as one JSON line on stdout, and flush it right away.

    Without the flush, Python may keep the line in a buffer and the
    tournament would wait for it until our time runs out.
    """
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()


# ---------------------------------------------------------------------------
# The board
# ---------------------------------------------------------------------------


class Board:
    """The board from the hello message: squares, walls and flags."""

    def __init__(self, board_message):
        self.width = board_message["width"]
        self.height = board_message["height"]
        # (x, y) -> the square's dictionary from the hello message.
        self.squares = {}
        # flag number (1, 2, 3) -> (x, y)
        self.flags = {}
        for square in board_message["squares"]:
            x, y = square["x"], square["y"]
            self.squares[(x, y)] = square
            if square.get("flag"):
                self.flags[square["flag"]] = (x, y)

    def on_board(self, x, y):
        return 0 <= x < self.width and 0 <= y < self.height

    def kind(self, x, y):
        """The square's type: floor, pit, repair, flag, belt, gear_cw or gear_ccw."""
        return self.squares[(x, y)]["type"]

    def has_wall(self, x, y, side):
        """Is there a wall on that side ("N", "E", "S" or "W") of square (x, y)?"""
        return side in (self.squares[(x, y)].get("walls") or [])

    def blocked(self, x, y, direction):
        """Does a wall stop a robot leaving (x, y) towards `direction`?

        A wall between two squares may be written on either of them, so we
        look at our side and at the neighbour's opposite side.
        """
        if self.has_wall(x, y, direction):
            return True
        dx, dy = STEP[direction]
        nx, ny = x + dx, y + dy
        return self.on_board(nx, ny) and self.has_wall(nx, ny, turn_around(direction))


# ---------------------------------------------------------------------------
# Pretend moves (a tiny one-robot version of the game rules)
# ---------------------------------------------------------------------------


def one_step(board, x, y, direction):
    """Try to move one square. Returns (x, y, what_happened).

    what_happened is "moved", "blocked" (a wall: we stay) or "fell"
    (off the board or into a pit: the robot is destroyed).
    """
    if board.blocked(x, y, direction):
        return x, y, "blocked"
    dx, dy = STEP[direction]
    nx, ny = x + dx, y + dy
    if not board.on_board(nx, ny) or board.kind(nx, ny) == "pit":
        return nx, ny, "fell"
    return nx, ny, "moved"


def play_card(board, x, y, facing, move):
    """Our robot plays one card. Returns (x, y, facing, alive)."""
    if move == "L":
        return x, y, turn_left(facing), True
    if move == "R":
        return x, y, turn_right(facing), True
    if move == "U":
        return x, y, turn_around(facing), True
    if move == "B":
        count, direction = 1, turn_around(facing)  # backwards, facing unchanged
    else:
        count, direction = int(move[1]), facing  # "F1", "F2", "F3"
    for _ in range(count):
        x, y, what = one_step(board, x, y, direction)
        if what == "fell":
            return x, y, facing, False
        if what == "blocked":
            break  # the rest of the card is lost
    return x, y, facing, True


def ride_belts(board, x, y, facing):
    """Belts move us: express belts one square, then every belt one square.

    When a belt carries us onto a belt that bends a quarter turn, we turn
    with it. (We ignore other robots that could hold us back.)
    """
    for express_only in (True, False):
        square = board.squares[(x, y)]
        if square["type"] != "belt":
            continue
        if express_only and square.get("speed") != 2:
            continue
        travel = square["dir"]
        x, y, what = one_step(board, x, y, travel)
        if what == "fell":
            return x, y, facing, False
        if what == "moved" and board.kind(x, y) == "belt":
            new_dir = board.squares[(x, y)]["dir"]
            if new_dir == turn_right(travel):
                facing = turn_right(facing)
            elif new_dir == turn_left(travel):
                facing = turn_left(facing)
    return x, y, facing, True


def turn_on_gears(board, x, y, facing):
    """Gears turn us a quarter turn after the belts have moved."""
    if board.kind(x, y) == "gear_cw":
        return turn_right(facing)
    if board.kind(x, y) == "gear_ccw":
        return turn_left(facing)
    return facing


def simulate(board, x, y, facing, move):
    """Where does our robot end the turn if it plays `move`?

    Returns (x, y, facing, alive).
    """
    x, y, facing, alive = play_card(board, x, y, facing, move)
    if not alive:
        return x, y, facing, False
    x, y, facing, alive = ride_belts(board, x, y, facing)
    if not alive:
        return x, y, facing, False
    return x, y, turn_on_gears(board, x, y, facing), True


# ---------------------------------------------------------------------------
# How far is the flag? (a breadth-first search over robot "states")
# ---------------------------------------------------------------------------

# The cards we plan with: all seven kinds. Every card takes one whole turn,
# so a quarter turn costs as much as a step: that is why we count turns.
PLAN_MOVES = ["F1", "F2", "F3", "B", "L", "R", "U"]


def one_card_moves(board):
    """For every state, the states one card could take us to, backwards.

    A state is (x, y, facing): where the robot stands and which way it
    faces. The answer is a dictionary {state after: [states before, ...]},
    which is exactly what the search in turns_to_reach() needs.
    """
    came_from = {}
    for (x, y) in board.squares:
        if board.kind(x, y) == "pit":
            continue
        for facing in DIRECTIONS:
            for move in PLAN_MOVES:
                end_x, end_y, end_facing, alive = simulate(board, x, y, facing, move)
                if alive:
                    after = (end_x, end_y, end_facing)
                    came_from.setdefault(after, []).append((x, y, facing))
    return came_from


def turns_to_reach(came_from, goals):
    """How many turns from every state to end a turn on one of the goal squares.

    We pretend we always hold the card we want. Breadth-first search
    backwards from the goals: standing on a goal is 0 turns away, states
    that reach one with one card are 1 turn away, states that reach those
    are 2 turns away, and so on.
    Returns a dictionary {(x, y, facing): turns}; states from which no goal
    can be reached are missing.
    """
    turns = {}
    queue = deque()
    for goal_x, goal_y in goals:
        for facing in DIRECTIONS:  # on the goal, any facing will do
            turns[(goal_x, goal_y, facing)] = 0
            queue.append((goal_x, goal_y, facing))
    while queue:
        state = queue.popleft()
        for earlier in came_from.get(state, []):
            if earlier not in turns:
                turns[earlier] = turns[state] + 1
                queue.append(earlier)
    return turns


# ---------------------------------------------------------------------------
# Answering the questions
# ---------------------------------------------------------------------------


class Bot:
    def __init__(self):
        self.seat = None
        self.board = None
        self.turns_to = {}  # flag number -> {(x, y, facing): turns}
        self.turns_to_repair = {}  # {(x, y, facing): turns to a repair square}
        self.next_flag = 1  # flags are taken in order 1, 2, 3

    def on_hello(self, message):
        """Remember who we are, and plan the way to every flag."""
        self.seat = message["seat"]
        self.board = Board(message["board"])
        came_from = one_card_moves(self.board)
        for number, position in self.board.flags.items():
            self.turns_to[number] = turns_to_reach(came_from, [position])
        repairs = [xy for xy in self.board.squares if self.board.kind(*xy) == "repair"]
        self.turns_to_repair = turns_to_reach(came_from, repairs)
        log(
            f"hello: seat {self.seat} on {message['board'].get('name')},"
            f" flags at {self.board.flags}"
        )

    def distance(self, x, y, facing):
        """Turns from this state to where we want to go.

        That is our next flag; once all flags are done, the nearest repair
        square, to sit there and get repaired every 5th turn.
        """
        if self.next_flag in self.turns_to:
            turns = self.turns_to[self.next_flag]
        else:
            turns = self.turns_to_repair
        return turns.get((x, y, facing), FAR_AWAY)

    def on_start(self, message):
        """Pick the offered square and facing closest to our goal."""
        best = None
        for x, y in message["options"]:
            for facing in DIRECTIONS:
                turns = self.distance(x, y, facing)
                if best is None or turns < best[0]:
                    best = (turns, x, y, facing)
        turns, x, y, facing = best
        log(f"turn {message['turn']}: start on ({x},{y}) facing {facing}, turns to go: {turns}")
        return {"x": x, "y": y, "facing": facing}

    def my_robot(self, message):
        for robot in message["robots"]:
            if robot["seat"] == self.seat:
                return robot
        return None

    def on_turn(self, message):
        """Try every card and play the one that ends closest to our goal."""
        hand = message["hand"]
        me = self.my_robot(message)
        if me is None or len(hand) == 1:
            return {"card": 0}  # nothing to choose (for example a locked card)
        self.next_flag = me.get("next_flag")

        best_index, best_key = 0, None
        for index, card in enumerate(hand):
            x, y, facing, alive = simulate(
                self.board, me["x"], me["y"], me["facing"], card["move"]
            )
            if alive:
                turns = self.distance(x, y, facing)
            else:
                turns = FAR_AWAY * 10  # dying is worse than anything else
            # Fewest turns wins; on a tie, the higher priority (we move earlier).
            key = (turns, -card["priority"])
            if best_key is None or key < best_key:
                best_index, best_key = index, key

        card = hand[best_index]
        log(
            f"turn {message['turn']}: at ({me['x']},{me['y']}) facing {me['facing']},"
            f" flag {self.next_flag}: {card['move']} (card {best_index}),"
            f" turns to go: {best_key[0]}"
        )
        return {"card": best_index, "power_down": False}


def card0_answer(message):
    """The --card0 mode (and our emergency answer): no thinking at all."""
    if message["type"] == "start":
        x, y = message["options"][0]
        return {"x": x, "y": y, "facing": "N"}
    return {"card": 0}


def echo(message, answer):
    """Copy the question's "turn" (and "seq", if it has one) into our answer.

    Then the tournament can never mistake a late answer for the answer to
    a later question.
    """
    answer["turn"] = message.get("turn")
    if "seq" in message:
        answer["seq"] = message["seq"]
    # We play every game of our set in this one process: after game_over the
    # next game's hello comes instead of the end of input (docs/bots.md).
    answer["series"] = True
    return answer


def main():
    args = sys.argv[1:]
    card0_mode = "--card0" in args
    # --replay FILE reads the messages from a file instead of stdin: handy in a
    # debugger, whose own input stays free for you.
    source = sys.stdin
    if "--replay" in args:
        source = open(args[args.index("--replay") + 1])
    bot = None
    while True:
        line = source.readline()
        if not line:  # end of input: the tournament closed our stdin
            log("end of input, bye")
            return
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except ValueError:
            log("not JSON, ignored:", line[:200])
            continue
        if not isinstance(message, dict):
            log("not a JSON object, ignored:", line[:200])
            continue
        kind = message.get("type")

        if kind == "hello":
            # A new game: nothing of the last one may change how we play this one.
            bot = Bot()
            # We do not answer hello: a line nobody asked for counts as a fault.
            if not card0_mode:
                try:
                    bot.on_hello(message)
                except Exception:
                    log(traceback.format_exc())
                    bot.board = None  # we will play card 0 all game
        elif kind in ("start", "turn"):
            if card0_mode or bot.board is None:
                send(echo(message, card0_answer(message)))
                continue
            try:
                if kind == "start":
                    answer = bot.on_start(message)
                else:
                    answer = bot.on_turn(message)
            except Exception:
                # A bug in our strategy must not cost us the answer.
                log(traceback.format_exc())
                answer = card0_answer(message)
            send(echo(message, answer))
        elif kind == "game_over":
            # Not the end: the next game of the set may follow (a hello).
            log("game over:", message.get("scores"))
        else:
            log("unknown message, ignored:", kind)


if __name__ == "__main__":
    main()
