#!/usr/bin/env python3
"""Input validator of "Double It" (the first pass's input): one integer 1 <= n <= 10^6.

Exit code 42: valid; 43: invalid (the reason on stderr).
"""

import re
import sys

data = sys.stdin.buffer.read()
match = re.fullmatch(rb"([1-9][0-9]{0,6})\n", data)
if match is None or int(match.group(1)) > 10**6:
    print("expected one integer 1 <= n <= 10^6 on a line", file=sys.stderr)
    sys.exit(43)
sys.exit(42)
