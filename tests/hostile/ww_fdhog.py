"""A Windward client that exhausts descriptors: 10 processes each open 200 connections
to its gateway endpoint and hold them, sending nothing; then it joins and plays.

    python3 ww_fdhog.py GW_PORT <host> <team> <password>"""
import os
import socket
import sys
import time
from wwlib import split_args, play, exit_on_stdin

own, host, team, password = split_args()
gw = int(own[0])
for _ in range(10):
    if os.fork() == 0:
        held = []
        for _ in range(200):
            try:
                held.append(socket.create_connection((host, gw), timeout=2))
            except OSError as e:
                print("connect: %s" % e, file=sys.stderr, flush=True)
        print("holding %d" % len(held), file=sys.stderr, flush=True)
        while True:
            time.sleep(1)
exit_on_stdin()
play(host, gw, team, password)
