#!/usr/bin/env python3
"""Input validator of "Noisy Channel" (the first pass's input): `encode`, then 0 <= x < 2^20.

Exit code 42: valid; 43: invalid (the reason on stderr).
"""

import re
import sys

data = sys.stdin.buffer.read()
match = re.fullmatch(rb"encode\n(0|[1-9][0-9]{0,6})\n", data)
if match is None or int(match.group(1)) >= 2**20:
    print("expected `encode` and an integer 0 <= x < 2^20, each on a line", file=sys.stderr)
    sys.exit(43)
sys.exit(42)
