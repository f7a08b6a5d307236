#!/usr/bin/env python3
"""Output validator of "Find a Divisor".

Invocation (the format's): divisor_checker.py input answer feedback_dir [flags] < team_output
The answer file holds the smallest divisor, or "prime"; any divisor 1 < d < n is accepted.
Flags:
  case_insensitive  the word "prime" may be written in any letter case (problem.yaml sets it);
  show_expected     tell the team the jury's answer in teammessage.txt (the samples set it:
                    they are public anyway).
Exit code 42: accepted; 43: wrong answer; anything else: the validator itself failed.
"""

import os
import re
import sys

FLAGS = {"case_insensitive", "show_expected"}


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: divisor_checker.py input answer feedback_dir [flags] < output")
    input_file, answer_file, feedback_dir = sys.argv[1:4]
    flags = set(sys.argv[4:])
    if not flags <= FLAGS:
        # A misconfigured package is the jury's error, not a wrong answer: exit 1.
        sys.exit(f"unknown flags {sorted(flags - FLAGS)}")
    with open(input_file) as f:
        n = int(f.read())
    with open(answer_file) as f:
        expected = f.read().split()[0]

    def verdict(accepted, message):
        with open(os.path.join(feedback_dir, "judgemessage.txt"), "a") as f:
            f.write(message + "\n")
        if not accepted and "show_expected" in flags:
            with open(os.path.join(feedback_dir, "teammessage.txt"), "a") as f:
                f.write(f"the jury's answer is {expected}\n")
        sys.exit(42 if accepted else 43)

    # Read a bounded amount: a hostile submission may print gigabytes.
    team = sys.stdin.buffer.read(1 << 16).split()
    if len(team) != 1:
        verdict(False, f"expected one token, got {len(team)}")
    token = team[0].decode("ascii", errors="replace")
    if expected == "prime":
        word = token.lower() if "case_insensitive" in flags else token
        verdict(word == "prime", f"n = {n} is prime; got {token!r}")
    if not re.fullmatch(r"[1-9][0-9]{0,12}", token):
        verdict(False, f"n = {n} has the divisor {expected}; got {token!r}, not a divisor")
    d = int(token)
    if not (1 < d < n and n % d == 0):
        verdict(False, f"{d} is not a divisor of n = {n} between 1 and n")
    verdict(True, f"{d} divides {n}")


main()
