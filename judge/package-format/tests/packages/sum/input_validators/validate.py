#!/usr/bin/env python3
"""Input validator of "Add Them Up": one line with two integers a and b.

Usage: validate.py [--max M] [--non-negative] [--expect-negative] < input
  --max M            |a|, |b| <= M (default 10^18, the statement's bound)
  --non-negative     a, b >= 0 (subtask 1)
  --expect-negative  some number is negative (checks that a test is what it claims)
Exit code 42: valid; 43: invalid (the reason on stderr).
"""

import re
import sys


def reject(reason):
    print(reason, file=sys.stderr)
    sys.exit(43)


def main():
    bound, non_negative, expect_negative = 10**18, False, False
    args = sys.argv[1:]
    while args:
        flag = args.pop(0)
        if flag == "--max" and args and args[0].isdigit():
            bound = int(args.pop(0))
        elif flag == "--non-negative":
            non_negative = True
        elif flag == "--expect-negative":
            expect_negative = True
        else:
            reject(f"unknown argument {flag!r}")
    data = sys.stdin.buffer.read()
    integer = rb"(-?(?:0|[1-9][0-9]{0,18}))"
    match = re.fullmatch(integer + rb" " + integer + rb"\n", data)
    if match is None:
        reject("expected one line with two integers separated by a space")
    numbers = [int(g) for g in match.groups()]
    if any(g == b"-0" for g in match.groups()):
        reject("-0 is not a canonical integer")
    if any(abs(x) > bound for x in numbers):
        reject(f"{numbers} exceeds the bound {bound}")
    if non_negative and min(numbers) < 0:
        reject(f"{numbers} has a negative number")
    if expect_negative and min(numbers) >= 0:
        reject(f"{numbers} has no negative number")
    sys.exit(42)


main()
