#!/usr/bin/env python3
"""A Windward 2012-style client for Last Robot Standing, in Python 3 (standard library only).

It speaks the original protocol exactly like the 2012 sample clients: TCP to port 1707 of
the server given on the command line, every message a 4-byte little-endian length and
UTF-8 XML, a <join> first, then one reply per <start-position> and <turn> query. Like
them, it reconnects after the connection drops and exits when it reads `exit` on stdin,
which lrs-tourney sends at the end of a series. Unlike them, it keeps playing when its
stdin is closed (started from an IDE or with `< /dev/null`), and it gives up after
RECONNECT_FOR seconds without a server instead of retrying forever.

    python3 client.py [--port N] [SERVER_IP [TEAM_NAME [PASSWORD]]]

Started by hand with no arguments it joins 127.0.0.1 without a password, which is what
`lrs-tourney serve` expects; tournaments start it with the address and team name.

Strategy: head for the next flag. For each card of the hand it works out where the card
would leave the robot on an empty board (walls, pits and belts ignored) and plays the
one that ends nearest to the flag, avoiding cards that leave the board.
"""

import socket
import struct
import sys
import threading
import time
import xml.etree.ElementTree as ET

PORT = 1707
RECONNECT_FOR = 60.0
DIRS = {"NORTH": (0, -1), "EAST": (1, 0), "SOUTH": (0, 1), "WEST": (-1, 0)}
ORDER = ["NORTH", "EAST", "SOUTH", "WEST"]
STEPS = {"FORWARD_ONE": 1, "FORWARD_TWO": 2, "FORWARD_THREE": 3, "BACKWARD_ONE": -1}
TURNS = {"ROTATE_LEFT": -1, "ROTATE_RIGHT": 1, "ROTATE_UTURN": 2}


def send(sock, text):
    data = text.encode("utf-8")
    sock.sendall(struct.pack("<i", len(data)) + data)


def recv_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("server closed the connection")
        buf += chunk
    return buf


def recv(sock):
    (length,) = struct.unpack("<i", recv_exact(sock, 4))
    if length < 0 or length > 16 * 1024 * 1024:
        raise ConnectionError("bad frame length %d" % length)
    return recv_exact(sock, length).decode("utf-8")


def me(players):
    guid = players.get("your-guid")
    for p in players.findall("player"):
        if p.get("guid") == guid:
            return p
    return None


def next_flag(player):
    for f in player.find("flags").findall("flag-state"):
        if f.get("touched") != "true":
            return int(f.get("x")), int(f.get("y"))
    return None


def outcome(x, y, facing, move):
    """Where a card leaves the robot on an empty board."""
    if move in TURNS:
        return x, y, ORDER[(ORDER.index(facing) + TURNS[move]) % 4]
    dx, dy = DIRS[facing]
    n = STEPS[move]
    return x + dx * n, y + dy * n, facing


def choose_card(turn):
    cards = turn.find("cards").findall("card")
    player = me(turn.find("players"))
    grid = turn.find("map")
    width, height = int(grid.get("width")), int(grid.get("height"))
    robot = player.find("robot")
    x, y, facing = int(robot.get("x")), int(robot.get("y")), robot.get("direction")
    target = next_flag(player) or (width // 2, height // 2)

    def cost(card):
        nx, ny, nf = outcome(x, y, facing, card.get("move"))
        if not (0 <= nx < width and 0 <= ny < height):
            return 10_000
        # Distance, plus a little for facing away from the target.
        dist = abs(target[0] - nx) + abs(target[1] - ny)
        fx, fy = DIRS[nf]
        ahead = (target[0] - nx) * fx + (target[1] - ny) * fy
        return dist * 4 - (1 if ahead > 0 else 0)

    return min(cards, key=cost)


def answer(sock, text):
    msg = ET.fromstring(text)
    if msg.tag == "start-position":
        point = msg.find("points").find("position")
        send(sock, '<start-position direction="NORTH" x="%s" y="%s"/>'
             % (point.get("x"), point.get("y")))
    elif msg.tag == "turn":
        card = choose_card(msg)
        send(sock, '<turn power-down="false" turn="%s"><cards><card priority="%s" move="%s"/>'
             "</cards></turn>" % (msg.get("turn"), card.get("priority"), card.get("move")))


def watch_stdin():
    for line in sys.stdin:
        if line.strip() == "exit":
            sys.stdout.flush()
            import os
            os._exit(0)
    # End of input: nobody will type `exit`; keep playing until the server goes away.


def main(argv):
    port = PORT
    if len(argv) >= 2 and argv[0] == "--port":
        port = int(argv[1])
        argv = argv[2:]
    if len(argv) > 3 or any(a.startswith("-") for a in argv):
        print(__doc__, file=sys.stderr)
        return 2
    host, name, password = (argv + ["127.0.0.1", "Python client", None][len(argv):])[:3]
    threading.Thread(target=watch_stdin, daemon=True).start()
    last_ok = time.monotonic()
    while True:
        try:
            with socket.create_connection((host, port), timeout=30) as sock:
                sock.settimeout(None)
                join = '<join name="%s"' % escape(name)
                if password is not None:
                    join += ' password="%s"' % escape(password)
                send(sock, join + "/>")
                print("joined %s:%d as %s" % (host, port, name), flush=True)
                while True:
                    answer(sock, recv(sock))
                    last_ok = time.monotonic()
        except (OSError, ConnectionError, ET.ParseError) as e:
            if time.monotonic() - last_ok > RECONNECT_FOR:
                print("no server at %s:%d for %d s; giving up" % (host, port, RECONNECT_FOR),
                      file=sys.stderr, flush=True)
                return 1
            print("connection: %s; reconnecting" % e, file=sys.stderr, flush=True)
            time.sleep(0.5)


def escape(text):
    return (text.replace("&", "&amp;").replace('"', "&quot;")
            .replace("<", "&lt;").replace(">", "&gt;"))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
