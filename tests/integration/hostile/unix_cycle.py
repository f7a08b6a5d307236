# unix_cycle.c in Python (for the zygote's cases): binds an abstract Unix socket name and leaves
# it held by an SCM_RIGHTS cycle only the kernel's collector frees; answers 0 only when the
# name was free, so a case that finds what a case before it left gets WA.
import os
import socket

named = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
try:
    named.bind(b'\0boardjudge-left-behind-py')
except OSError as e:
    print(f'the name was taken ({e})', flush=True)
    raise SystemExit(0)
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
socket.send_fds(a, [b'x'], [b.fileno()])
socket.send_fds(b, [b'x'], [a.fileno()])
socket.send_fds(a, [b'x'], [named.fileno()])
print(0, flush=True)
os._exit(0)
