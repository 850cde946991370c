"""Forks 6 children that each touch 300 MiB and keep it; waits until each has its memory
or is dead, then plays card 0."""
import os
import time
from common import log, play_card0

r, w = os.pipe()
children = []
for i in range(6):
    pid = os.fork()
    if pid == 0:
        os.close(r)
        block = bytearray(300 << 20)
        for j in range(0, len(block), 4096):
            block[j] = 1
        os.write(w, b"x")
        while True:
            time.sleep(1)
    children.append(pid)
os.close(w)
os.set_blocking(r, False)
holding, dead = 0, set()
while holding + len(dead) < len(children):
    try:
        holding += len(os.read(r, 16))
    except BlockingIOError:
        pass
    for pid in children:
        if pid not in dead and os.waitpid(pid, os.WNOHANG)[0] == pid:
            dead.add(pid)
    time.sleep(0.01)
log("children holding 300 MiB: %d, dead: %d" % (holding, len(dead)))
play_card0()
