"""Allocates 4 GiB and writes to it."""
from common import log, play_card0

try:
    block = bytearray(4 << 30)
    for i in range(0, len(block), 1 << 20):
        block[i] = 1
    log("allocated 4 GiB")
except MemoryError:
    log("MemoryError")
    raise
play_card0()
