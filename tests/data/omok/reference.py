# The omok reference algorithm in plain Python, reading cells through the board-access
# model's `read`, `scans` and `beyond` (tests/python/models.py puts them in front of this body;
# cell values: 0 empty, 1 the first colour, 2 the second).
import sys

N = 19
rows = sys.stdin.read().split("\n")[:N]
g = [[int(x) for x in row.split()] for row in rows]
F = [x for row in g for x in row]
S = [x for row in g for x in row + [0]]
wins = []
for r in range(N):
    for c in range(N):
        s = g[r][c]
        if s == 0:
            continue
        for dr, dc in LINES:
            if not scans(r, c, dr, dc, 5):
                continue
            if read(*beyond(r - dr, c - dc, -dr, -dc)) == s:
                continue
            if all(read(r + k * dr, c + k * dc) == s for k in range(1, 5)) and \
                    read(*beyond(r + 5 * dr, c + 5 * dc, dr, dc)) != s:
                wins.append((r, c, s))
if wins:
    r, c, s = min(wins)
    print(s)
    print(r + 1, c + 1)
else:
    print(0)
