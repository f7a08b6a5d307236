#!/usr/bin/env python3
"""Multi-pass output validator of "Double It".

Invocation (the format's): validator input answer feedback_dir < team_output
Pass 1 (no state.txt yet): the input file holds n; the output must be one integer n < k <= 10^9;
n and k go to feedback_dir/state.txt and `double k` to feedback_dir/nextpass.in (another pass).
Pass 2 (state.txt there: the feedback folder persists between passes): the output must be 2k.
Exit code 42: accepted; 43: wrong answer. judgemessage.txt is appended to.
"""

import os
import sys

feedback = sys.argv[3]
state = os.path.join(feedback, "state.txt")


def verdict(accepted, message):
    with open(os.path.join(feedback, "judgemessage.txt"), "a") as f:
        f.write(message + "\n")
    sys.exit(42 if accepted else 43)


def one_integer():
    tokens = sys.stdin.read().split()
    if len(tokens) != 1:
        verdict(False, f"expected one integer, got {len(tokens)} tokens")
    try:
        return int(tokens[0])
    except ValueError:
        verdict(False, "expected an integer")


if not os.path.exists(state):
    with open(sys.argv[1]) as f:
        n = int(f.read())
    k = one_integer()
    if not n < k <= 10**9:
        verdict(False, f"{k} is not above n = {n} (and at most 10^9)")
    with open(state, "w") as f:
        f.write(f"{n} {k}\n")
    with open(os.path.join(feedback, "nextpass.in"), "w") as f:
        f.write(f"double {k}\n")
    verdict(True, f"k = {k}")
else:
    with open(state) as f:
        n, k = map(int, f.read().split())
    got = one_integer()
    if got != 2 * k:
        verdict(False, f"expected 2k = {2 * k}, got {got}")
    verdict(True, "doubled")
