"""Looks for another bot's abstract UNIX socket (`@lrs-mark`) as it starts, then leaves one
of its own, held by a daemon that outlives the bot if it can. Seeing one (a connection
made, or the name already taken) means this bot shares a network namespace with another
bot, of this game or of an earlier one: then it answers garbage, which the test counts
as faults."""
import os
import socket
from common import messages, send, card0

NAME = "\0lrs-mark"


def someone_there():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(NAME)
        return True
    except OSError:
        return False
    finally:
        s.close()


def leave_a_mark():
    """Binds the name in a forked daemon (new session) that sleeps; False when taken."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(NAME)
    except OSError:
        return False
    listener.listen(8)
    if os.fork() == 0:
        os.setsid()
        while True:
            try:
                listener.accept()[0].close()
            except OSError:
                pass
    listener.close()
    return True


seen = None
for msg in messages():
    if msg["type"] not in ("start", "turn"):
        continue
    if seen is None:
        # Once, as the bot starts (a robot that died gets `start` again).
        seen = someone_there() or not leave_a_mark()
    send({"garbage": True} if seen else card0(msg))
