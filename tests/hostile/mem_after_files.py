"""Writes argv[1] MiB into /tmp, then allocates argv[2] MiB of its own (touching every
page) and logs how far it got; plays card 0 all along."""
import os
import sys
from common import log, play_card0

tmp_mib, alloc_mib = int(sys.argv[1]), int(sys.argv[2])
chunk = os.urandom(1 << 20)
# Files of 16 MiB: a bot's largest file is 64 MiB (RLIMIT_FSIZE).
for i in range(tmp_mib):
    with open("/tmp/fill-%d" % (i // 16), "ab") as f:
        f.write(chunk)
log("wrote", tmp_mib, "MiB to /tmp")
blocks = []
for i in range(alloc_mib):
    blocks.append(bytearray(chunk))
log("allocated", alloc_mib, "MiB")
play_card0()
