"""Prints what its working directory holds, then plays card 0."""
import os
from common import log, play_card0

log("cwd holds:", sorted(os.listdir(".")))
play_card0()
