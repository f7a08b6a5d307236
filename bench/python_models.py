#!/usr/bin/env python3
"""Writes the board-access models of omok and gomoku-checker as real Python 3 programs.

Each program is the reference algorithm of its problem, written in plain Python, reading
cells through one accessor; the accessor is the model (see problems/src/access.rs, whose
names and behaviour these follow one for one). Usage: python_models.py OUT_DIR
"""
import os
import sys

# Each model: (read body, scans body, beyond body). `g` is the board as a list of rows of
# 0/1/2, `F` the same row-major flat, `S` flat with rows N+1 wide ending in a 0 sentinel.
EXACT = "return g[r][c] if 0 <= r < N and 0 <= c < N else 0"
MODELS = {
    "reference": EXACT,
    "access-wrap-negative": "return g[r][c] if r < N and c < N else 0",
    "access-flat": "i = r * N + c\n    return F[i] if 0 <= i < N * N else 0",
    "access-flat-stray-black": "i = r * N + c\n    return F[i] if 0 <= i < N * N else 1",
    "access-flat-stray-white": "i = r * N + c\n    return F[i] if 0 <= i < N * N else 2",
    "access-flat-sentinel-stray-black": "i = r * (N + 1) + c\n    return S[i] if 0 <= i < N * (N + 1) else 1",
    "access-flat-sentinel-stray-white": "i = r * (N + 1) + c\n    return S[i] if 0 <= i < N * (N + 1) else 2",
    "access-off-board-black": "return g[r][c] if 0 <= r < N and 0 <= c < N else 1",
    "access-off-board-white": "return g[r][c] if 0 <= r < N and 0 <= c < N else 2",
    "access-clamp": "return g[min(max(r, 0), N - 1)][min(max(c, 0), N - 1)]",
    "access-or-for-and": "i = r * N + c\n    return F[i] if (0 <= r < N or 0 <= c < N) and 0 <= i < N * N else 0",
    "access-row-unchecked-black": "i = r * N + c\n    return (F[i] if 0 <= i < N * N else 1) if 0 <= c < N else 0",
    "access-row-unchecked-white": "i = r * N + c\n    return (F[i] if 0 <= i < N * N else 2) if 0 <= c < N else 0",
    "access-col-unchecked": "i = r * N + c\n    return F[i] if 0 <= r < N and 0 <= i < N * N else 0",
}
for side, cond in [("top", "r == -1"), ("bottom", "r == N"), ("left", "c == -1"), ("right", "c == N")]:
    for colour, value in [("black", 1), ("white", 2)]:
        MODELS[f"access-pad-thin-{side}-{colour}"] = f"if {cond}:\n        return {value}\n    " + EXACT

SCANS = {
    "scan-skip-first-window": "return 0 <= r - dr < N and 0 <= c - dc < N",
    "scan-skip-last-window": "return 0 <= r + length * dr < N and 0 <= c + length * dc < N",
    "scan-no-corner-diagonals": "return dr == 0 or dc == 0 or diagonal_length(r, c, dr, dc) != 5",
}
BEYOND = {"six-check-parallel-line": "return (r + dc, c - dr)"}

COMMON = '''import sys

N = 19
LINES = ((0, 1), (1, 0), (1, 1), (-1, 1))


def read(r, c):
    {read}


def scans(r, c, dr, dc, length):
    {scans}


def beyond(r, c, dr, dc):
    {beyond}


def diagonal_length(r, c, dr, dc):
    while 0 <= r - dr < N and 0 <= c - dc < N:
        r, c = r - dr, c - dc
    n = 0
    while 0 <= r < N and 0 <= c < N:
        n, r, c = n + 1, r + dr, c + dc
    return n


'''

OMOK = '''rows = sys.stdin.read().split("\\n")[:N]
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
            if all(read(r + k * dr, c + k * dc) == s for k in range(1, 5)) and \\
                    read(*beyond(r + 5 * dr, c + 5 * dc, dr, dc)) != s:
                wins.append((r, c, s))
if wins:
    r, c, s = min(wins)
    print(s)
    print(r + 1, c + 1)
else:
    print(0)
'''

GOMOKU = '''g = [[".ox".index(ch) for ch in row] for row in sys.stdin.read().split("\\n")[:N]]


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
'''

# gomoku-checker never reads past a run or leftward: these models are equivalent there
# (problems/src/gomoku_checker/wrong.rs says why), as in `judge solutions`.
GOMOKU_EQUIVALENT = {"access-pad-thin-left-black", "access-pad-thin-left-white", "six-check-parallel-line"}


def program(problem, model):
    read = MODELS.get(model, EXACT)
    scans = SCANS.get(model, "return True")
    beyond = BEYOND.get(model, "return (r, c)")
    body = OMOK if problem == "omok" else GOMOKU
    return COMMON.format(read=read, scans=scans, beyond=beyond) + body


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    names = list(MODELS) + list(SCANS) + list(BEYOND)
    for problem in ["omok", "gomoku-checker"]:
        for model in names:
            if problem == "gomoku-checker" and model in GOMOKU_EQUIVALENT:
                continue
            path = os.path.join(out, f"{problem}--{model}.py")
            with open(path, "w") as f:
                f.write(program(problem, model))


if __name__ == "__main__":
    main()
