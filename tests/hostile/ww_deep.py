"""A Windward client whose messages nest elements hundreds of thousands of levels deep, just
under the 4 MiB frame cap: a parser that recurses (or drops its tree recursively) runs out
of stack. Each WHAT names a message it sends that way:

- join:  its first connection sends a deep <join> (as deep as the 64 KiB join cap allows),
         which the gateway must refuse, then it connects again and joins properly;
- start: it answers the first start query of every game with a deep <start-position>;
- turn:  it answers the first turn query of every game with a deep <turn>.

Every other query gets the first legal choice.

    python3 ww_deep.py GW_PORT WHAT... <host> <team> <password>"""
import socket
import sys
import xml.etree.ElementTree as ET
from wwlib import split_args, exit_on_stdin, send, recv, join, answer

own, host, team, password = split_args()
gw = int(own[0])
what = set(own[1:])

# 7 bytes a level: 590,000 levels are 4,130,000 bytes, under the 4 MiB cap with the root;
# a join gets as many as fit its 64 KiB.
LEVELS = 590_000
JOIN_CAP = 64 * 1024


def deep(root, attrs, levels=LEVELS):
    return "<%s %s>%s%s</%s>" % (root, attrs, "<a>" * levels, "</a>" * levels, root)


def drain(sock):
    """Reads until the server closes the connection (or a minute passes)."""
    sock.settimeout(60)
    try:
        while sock.recv(65536):
            pass
    except OSError:
        pass


exit_on_stdin()
if "join" in what:
    with socket.create_connection((host, gw), timeout=30) as sock:
        try:
            attrs = 'name="%s" password="%s"' % (team, password)
            levels = (JOIN_CAP - len(deep("join", attrs, 0).encode())) // 7
            send(sock, deep("join", attrs, levels))
            drain(sock)
        except OSError as e:
            print("deep join: %s" % e, file=sys.stderr, flush=True)
        print("deep join refused", file=sys.stderr, flush=True)

with socket.create_connection((host, gw), timeout=30) as sock:
    sock.settimeout(None)
    join(sock, team, password)
    poisoned_start = poisoned_turn = False
    while True:
        try:
            text = recv(sock)
        except (OSError, ConnectionError):
            break
        msg = ET.fromstring(text)
        if msg.tag == "start-position" and msg.get("game-start") == "true":
            poisoned_turn = False
            poisoned_start = False
        if msg.tag == "start-position" and "start" in what and not poisoned_start:
            poisoned_start = True
            send(sock, deep("start-position", 'direction="NORTH" x="0" y="0"'))
        elif msg.tag == "turn" and "turn" in what and not poisoned_turn:
            poisoned_turn = True
            send(sock, deep("turn", 'power-down="false" turn="%s"' % msg.get("turn")))
        else:
            answer(sock, text)
print("series over", file=sys.stderr, flush=True)
# Stay until the runner says `exit`, as the 2012 clients do.
while True:
    import time
    time.sleep(1)
