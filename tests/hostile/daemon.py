"""Leaves a daemon behind: a double fork, a new session, SIGTERM and SIGHUP ignored, the
marker argv[1] on its command line; then plays card 0, slowly (the game lasts)."""
import os
import signal
import sys
import time
from common import log, messages, send, card0

marker = sys.argv[1]
pid = os.fork()
if pid == 0:
    os.setsid()
    if os.fork() == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        null = os.open("/dev/null", os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.execv(sys.executable,
                 [sys.executable, "-c", "import time\nwhile True: time.sleep(1)", marker])
    os._exit(0)
os.waitpid(pid, 0)
log("daemon started")
for msg in messages():
    if msg["type"] in ("start", "turn"):
        time.sleep(0.2)
        send(card0(msg))
