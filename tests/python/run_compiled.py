#!/usr/bin/env python3
"""A Python 3 program that costs what a contestant's Python program costs and answers what a
known-wrong solution answers: the benchmark's stand-in for the hand-written wrong solutions,
which have no Python port of their own.

    run_compiled.py WRONG_SOLVER PYTHON_REFERENCE

It runs PYTHON_REFERENCE (the problem's reference in plain Python, written by
tests/python/models.py) on its standard input in this interpreter and throws its answer away: that
is Python's start-up and solving time. Then it pipes the same input to the compiled
WRONG_SOLVER and prints that answer instead (a fork and exec more than a real Python program).
"""
import contextlib
import io
import runpy
import subprocess
import sys

data = sys.stdin.buffer.read()
sys.stdin = io.TextIOWrapper(io.BytesIO(data))
with contextlib.redirect_stdout(io.StringIO()):
    runpy.run_path(sys.argv[2], run_name="__main__")
out = subprocess.run([sys.argv[1]], input=data, stdout=subprocess.PIPE, check=False).stdout
sys.stdout.buffer.write(out)
