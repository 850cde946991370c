"""Tries to signal bits to another bot through host-wide counters: on odd turns it holds
100 extra threads and busy memory, on even turns none; plays card 0."""
import threading
from common import messages, send, card0

stop = None
threads = []
ballast = None
turn = 0
for msg in messages():
    if msg["type"] in ("start", "turn"):
        turn += 1
        if turn % 2 == 1:
            stop = threading.Event()
            threads = [threading.Thread(target=stop.wait) for _ in range(100)]
            for t in threads:
                t.start()
            ballast = bytearray(64 << 20)
        else:
            if stop is not None:
                stop.set()
                for t in threads:
                    t.join()
            threads = []
            ballast = None
        send(card0(msg))
