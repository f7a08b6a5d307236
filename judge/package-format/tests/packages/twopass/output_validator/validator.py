#!/usr/bin/env python3
"""Multi-pass output validator of "Noisy Channel".

Invocation (the format's): validator.py input answer feedback_dir < team_output
The input file holds `encode` and x; the answer file the position of the bit to flip
(0-based), or -1 for none.

Pass 1: the output must be 60 characters 0/1; writes the second pass's input to
feedback_dir/nextpass.in (the code, one bit flipped) and remembers x in feedback_dir/state.txt
(the feedback folder persists between passes; the input file given in pass 2 may be either
the original or nextpass.in, so it is not read again).
Pass 2: the output must be x.
Exit code 42: accepted (pass 1: go on); 43: wrong answer. Messages go to judgemessage.txt,
appended, so both passes' stay.
"""

import os
import re
import sys

CODE_LENGTH = 60


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: validator.py input answer feedback_dir < team_output")
    input_file, answer_file, feedback_dir = sys.argv[1:4]
    state_file = os.path.join(feedback_dir, "state.txt")

    def verdict(accepted, message):
        with open(os.path.join(feedback_dir, "judgemessage.txt"), "a") as f:
            f.write(message + "\n")
        sys.exit(42 if accepted else 43)

    # Bounded: a hostile submission may print gigabytes.
    output = sys.stdin.buffer.read(1 << 16).decode("ascii", errors="replace").split()

    if not os.path.exists(state_file):
        with open(input_file) as f:
            x = int(f.read().split()[1])
        with open(answer_file) as f:
            flip = int(f.read())
        if len(output) != 1 or not re.fullmatch(f"[01]{{{CODE_LENGTH}}}", output[0]):
            verdict(False, f"pass 1: expected one line of {CODE_LENGTH} characters 0/1")
        code = list(output[0])
        if flip >= 0:
            code[flip] = "1" if code[flip] == "0" else "0"
        with open(state_file, "w") as f:
            f.write(f"{x}\n")
        with open(os.path.join(feedback_dir, "nextpass.in"), "w") as f:
            f.write("decode\n" + "".join(code) + "\n")
        verdict(True, f"pass 1: code accepted; flipped bit {flip}")

    with open(state_file) as f:
        x = int(f.read())
    if len(output) != 1 or not re.fullmatch(r"0|[1-9][0-9]{0,6}", output[0]):
        verdict(False, "pass 2: expected one integer")
    if int(output[0]) != x:
        verdict(False, f"pass 2: wrong decoding: got {output[0]}, expected {x}")
    verdict(True, f"pass 2: decoded {x}")


main()
