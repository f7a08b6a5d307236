# Hostile: tries to carry state from pass 1 to pass 2 outside the validator's feedback folder
# (its working folder, /tmp, /dev/shm, its home) and to read that folder itself. In pass 2 it
# ignores its input and answers only from what it finds: right (AC) only if something leaked,
# so its expected verdict, WA, says nothing did.
import os
import time

PLACES = ["leak.txt", "/tmp/leak.txt", "/dev/shm/leak.txt", os.path.expanduser("~/leak.txt")]
SPIES = ["/box/feedback/state.txt", "/box/feedback/nextpass.in", "/box/case/input.in"]

words = input().split()
if words[0] == "double":
    found = None
    for path in PLACES + SPIES:
        try:
            with open(path) as f:
                found = f.read().split()[-1]
                break
        except (OSError, IndexError):
            pass
    print(2 * int(found) if found is not None else -1)
else:
    # A k nobody can guess, left everywhere it can write.
    k = int(words[0]) + 1 + time.time_ns() % 1000
    for path in PLACES:
        try:
            with open(path, "w") as f:
                f.write(f"{k}\n")
        except OSError:
            pass
    print(k)
