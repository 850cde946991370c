"""Creates a System V shared memory segment and a message queue with a fixed key
(argv[1]) and leaves them behind, then plays card 0."""
import ctypes
import sys
from common import log, play_card0

libc = ctypes.CDLL(None, use_errno=True)
key = int(sys.argv[1])
IPC_CREAT = 0o1000
shm = libc.shmget(ctypes.c_int(key), ctypes.c_size_t(65536), IPC_CREAT | 0o666)
log("shmget:", shm, "errno", ctypes.get_errno())
msq = libc.msgget(ctypes.c_int(key), IPC_CREAT | 0o666)
log("msgget:", msq, "errno", ctypes.get_errno())
play_card0()
