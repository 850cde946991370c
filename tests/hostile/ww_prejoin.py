"""A Windward client that floods its gateway before joining: 300 connections, each sending
only a frame header announcing 60 KiB (every other one 2 GB) and nothing more, held open
by 2 processes; then it joins and plays.

    python3 ww_prejoin.py GW_PORT <host> <team> <password>"""
import os
import socket
import struct
import sys
import time
from wwlib import split_args, play, exit_on_stdin

own, host, team, password = split_args()
gw = int(own[0])
for part in range(2):
    if os.fork() == 0:
        held = []
        for i in range(150):
            try:
                s = socket.create_connection((host, gw), timeout=2)
                size = 60 * 1024 if i % 2 == 0 else 2_000_000_000
                s.sendall(struct.pack("<i", size))
                held.append(s)
            except OSError as e:
                print("connect: %s" % e, file=sys.stderr, flush=True)
        print("holding %d" % len(held), file=sys.stderr, flush=True)
        while True:
            time.sleep(1)
exit_on_stdin()
play(host, gw, team, password)
