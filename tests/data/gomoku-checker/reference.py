# The gomoku-checker reference algorithm in plain Python, reading cells through the board-access
# model's `read`, `scans` and `beyond` (tests/python/models.py puts them in front of this body;
# cell values: 0 empty, 1 the first colour, 2 the second).
import sys

N = 19
g = [[".ox".index(ch) for ch in row] for row in sys.stdin.read().split("\n")[:N]]


def flat():
    global F, S
    F = [x for row in g for x in row]
    S = [x for row in g for x in row + [0]]


def has_five(s):
    flat()
    for r in range(N):
        for c in range(N):
            if g[r][c] != s:
                continue
            for dr, dc in LINES:
                if scans(r, c, dr, dc, 5) and all(read(r + k * dr, c + k * dc) == s for k in range(5)):
                    return True
    return False


def solve():
    black = sum(row.count(1) for row in g)
    white = sum(row.count(2) for row in g)
    if black == white:
        last = 2
    elif black == white + 1:
        last = 1
    else:
        return "NO"
    if has_five(3 - last):
        return "NO"
    if not has_five(last):
        return "YES"
    for r in range(N):
        for c in range(N):
            if g[r][c] == last:
                g[r][c] = 0
                five = has_five(last)
                g[r][c] = last
                if not five:
                    return "YES"
    return "NO"


print(solve())
