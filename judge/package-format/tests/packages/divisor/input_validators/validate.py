#!/usr/bin/env python3
"""Input validator of "Find a Divisor": one line holding an integer 2 <= n <= max_n.

Usage: validate.py [max_n=K] < input. Exit code 42: valid; 43: invalid (the reason on stderr).
max_n defaults to 10^12, the statement's bound; test groups pass a smaller one.
"""

import re
import sys


def reject(reason):
    print(reason, file=sys.stderr)
    sys.exit(43)


def main():
    max_n = 10**12
    for flag in sys.argv[1:]:
        if flag.startswith("max_n=") and flag[len("max_n="):].isdigit():
            max_n = int(flag[len("max_n="):])
        else:
            reject(f"unknown flag {flag!r}")
    data = sys.stdin.buffer.read()
    # Exactly one line: digits without a leading zero (at most 13 of them), then a newline.
    match = re.fullmatch(rb"([1-9][0-9]{0,12})\n", data)
    if match is None:
        reject("expected one line with a positive integer without leading zeros")
    n = int(match.group(1))
    if not 2 <= n <= max_n:
        reject(f"n = {n} is outside [2, {max_n}]")
    sys.exit(42)


main()
