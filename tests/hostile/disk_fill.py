"""Writes as much as it can to /tmp and to its working directory (1 MiB at a time, a new
file when one is at the file size limit), stopping at ENOSPC or after 400 MiB; reports the
bytes and the errors, then plays card 0."""
import errno
import os
import tempfile
from common import log, play_card0

CHUNK = b"x" * (1 << 20)
STOP = 400 << 20


def fill(where):
    total, n, errors = 0, 0, set()
    while total < STOP:
        path = os.path.join(where, "fill%d" % n)
        n += 1
        try:
            with open(path, "wb", buffering=0) as f:
                while total < STOP:
                    f.write(CHUNK)
                    total += len(CHUNK)
        except OSError as e:
            errors.add(errno.errorcode.get(e.errno, str(e.errno)))
            if e.errno != errno.EFBIG:
                break
    return total, sorted(errors)


tmp_total, tmp_errors = fill(tempfile.gettempdir())
work_total, work_errors = fill(".")
log("tmp wrote %d errors %s" % (tmp_total, ",".join(tmp_errors)))
log("work wrote %d errors %s" % (work_total, ",".join(work_errors)))
play_card0()
