"""Burns about 50 ms of CPU for every answer, then plays card 0."""
import time
from common import messages, send, card0

for msg in messages():
    if msg["type"] in ("start", "turn"):
        end = time.process_time() + 0.05
        while time.process_time() < end:
            pass
        send(card0(msg))
