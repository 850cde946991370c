"""Tries to connect to a host UNIX socket (argv[1], a path) and to an abstract one
(argv[2], a name), then plays card 0."""
import socket
import sys
from common import log, play_card0

for label, addr in (("unix", sys.argv[1]), ("abstract", "\0" + sys.argv[2])):
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(2)
        s.connect(addr)
        s.sendall(b"hello from a bot\n")
        s.close()
        log("%s: connected" % label)
    except OSError as e:
        log("%s: failed: %s" % (label, e))
play_card0()
