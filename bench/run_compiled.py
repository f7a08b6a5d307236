#!/usr/bin/env python3
"""A Python 3 process that hands its standard input to a compiled solver and prints its
answer: the benchmark's stand-in for the known-wrong solutions that have no Python port
(a contestant's Python program costs the interpreter's start-up plus its own work; this costs
the start-up plus the compiled solver's, so it is faster per case than real Python)."""
import subprocess
import sys

data = sys.stdin.buffer.read()
out = subprocess.run([sys.argv[1]], input=data, stdout=subprocess.PIPE).stdout
sys.stdout.buffer.write(out)
