"""Watches host-wide counters in /proc (load and thread count, CPU times, memory, uptime,
pressure) for a message from another bot. Answers with garbage if any of them changed
during the game or shows the host rather than its own container; else plays card 0."""
import os
import sys
from common import log, messages, send, card0

FILES = ["/proc/loadavg", "/proc/stat", "/proc/meminfo", "/proc/uptime", "/proc/vmstat",
         "/proc/diskstats", "/proc/interrupts", "/proc/softirqs", "/proc/schedstat",
         "/proc/locks", "/proc/sys/fs/file-nr", "/proc/pressure/cpu",
         "/proc/pressure/memory"]
limit_kib = int(sys.argv[1]) // 1024


def read_all():
    seen = {}
    for name in FILES:
        try:
            with open(name) as f:
                seen[name] = f.read()
        except OSError as e:
            seen[name] = "unreadable: " + type(e).__name__
    return seen


first = read_all()
problems = []
for line in first["/proc/meminfo"].splitlines():
    if line.startswith("MemTotal:") and int(line.split()[1]) > limit_kib:
        problems.append("the host's memory: " + line)
for msg in messages():
    if msg["type"] in ("start", "turn"):
        now = read_all()
        for name in FILES:
            if now[name] != first[name]:
                problems.append(name + " changed")
        send({"card": "channel"} if problems else card0(msg))
log("problems:", sorted(set(problems)))
log("loadavg:", first["/proc/loadavg"].strip())
