"""Ignores SIGTERM and the end of its input, and leaves two sleeping grandchildren: one
in its process group, one that escaped into a session of its own."""
import os
import signal
import sys
import time
from common import log, play_card0

signal.signal(signal.SIGTERM, signal.SIG_IGN)


def grandchild(escape):
    if os.fork() == 0:
        if os.fork() == 0:
            if escape:
                os.setsid()
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            log("grandchild", os.getpid(), "escaped" if escape else "in-group")
            time.sleep(1000)
            os._exit(0)
        os._exit(0)
    os.wait()


grandchild(False)
grandchild(True)
play_card0()
log("input closed; sleeping anyway")
while True:
    time.sleep(1000)
