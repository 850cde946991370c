"""A Windward client that tries to leave its network before it joins and plays: MPTCP
and TCP to a host listener (127.0.0.1:TCP), UDP to 127.0.0.1:UDP, TCP to 127.0.0.2 and
to the machine's own address on the gateway port, and TCP to 127.0.0.1:1707 (the 2012
clients' port: in its own network namespace that is its own gateway, never the host's).
Its join name reports each attempt.

    python3 ww_escape.py GW_PORT TCP UDP HOST_IP <host> <team> <password>"""
import socket
from wwlib import split_args, play, exit_on_stdin

own, host, team, password = split_args()
gw, tcp, udp, host_ip = int(own[0]), int(own[1]), int(own[2]), own[3]


def attempt(label, family, kind, proto, addr, dgram=False):
    try:
        s = socket.socket(family, kind, proto)
        s.settimeout(1)
        if dgram:
            s.sendto(b"udp from a bot", addr)
        else:
            s.connect(addr)
            s.sendall(b"hello from a bot")
        s.close()
        return "%s=OK" % label
    except OSError as e:
        return "%s=no(%s)" % (label, e.errno)


report = [
    attempt("mptcp", socket.AF_INET, socket.SOCK_STREAM, 262, ("127.0.0.1", tcp)),
    attempt("udp", socket.AF_INET, socket.SOCK_DGRAM, 0, ("127.0.0.1", udp), dgram=True),
    attempt("tcp", socket.AF_INET, socket.SOCK_STREAM, 0, ("127.0.0.1", tcp)),
    attempt("tcp2", socket.AF_INET, socket.SOCK_STREAM, 0, ("127.0.0.2", gw)),
    attempt("tcpip", socket.AF_INET, socket.SOCK_STREAM, 0, (host_ip, gw)),
    attempt("tcp1707", socket.AF_INET, socket.SOCK_STREAM, 0, ("127.0.0.1", 1707)),
]
exit_on_stdin()
play(host, gw, "escape " + " ".join(report), password)
