"""Never reads its input; floods stdout and stderr forever."""
import sys
import threading


def flood_stderr():
    chunk = b"E" * 65536
    while True:
        sys.stderr.buffer.write(chunk)


threading.Thread(target=flood_stderr, daemon=True).start()
line = b"spam " * 20 + b"\n"
while True:
    sys.stdout.buffer.write(line * 100)
