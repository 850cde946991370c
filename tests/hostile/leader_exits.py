"""Reads hello and the first question, then exits without answering, leaving behind a
child that holds stdout open for 30 seconds: the bot is gone, yet its stdout never closes
while the child lives. Speaks no game's protocol, so it fits every game."""
import os
import sys
import time

if os.fork() == 0:
    # The child keeps the inherited stdout open, writes nothing.
    time.sleep(30)
    os._exit(0)
sys.stdin.readline()  # hello
sys.stdin.readline()  # the first question
os._exit(0)
