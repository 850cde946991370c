"""Tries to connect to a TCP port on 127.0.0.1 (argv[1]), then plays card 0."""
import socket
import sys
from common import log, play_card0

try:
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
    s.sendall(b"hello from a bot\n")
    s.close()
    log("connect: ok")
except OSError as e:
    log("connect: failed:", e)
play_card0()
