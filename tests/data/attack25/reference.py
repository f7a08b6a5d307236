# The attack25 reference algorithm in plain Python, reading panels through the board-access
# model's `read`, `scans` and `beyond` (tests/python/models.py puts them in front of this body).
#
# Panel values: 1 R, 2 B, 3 W, 4 G, and EMPTY (5) for an empty panel, because a read that finds
# nothing (off the grid, a pad, a sentinel) returns 0 and must not look like an empty panel.
# Stray memory reads as R (1) or B (2), as in the Rust reference.
import sys

N = 5
EMPTY = 5
COLOURS = "RBWG"
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))

F = [EMPTY] * (N * N)
for line in sys.stdin.read().split("\n")[:4]:
    letter, *panels = line.split(",")
    for p in panels:
        F[int(p) - 1] = COLOURS.index(letter) + 1
g = [F[r * N:(r + 1) * N] for r in range(N)]
S = [x for row in g for x in row + [0]]

OWN, FREE, NO_RUN = "own", "empty", "none"


def run_end(p, dr, dc, colour):
    """What ends the run of panels of other colours from panel p along (dr, dc)."""
    fr, fc = divmod(p, N)
    r, c = fr + dr, fc + dc
    others = 0
    # At most 5 steps: only matters to models that alias panels outside the grid to inside.
    last = read(r, c)
    while others < N and last != 0 and last != EMPTY and last != colour:
        others += 1
        r, c = r + dr, c + dc
        last = read(r, c)
    if others == 0 or not scans(fr, fc, dr, dc, others + 2):
        return NO_RUN
    # The panel that ends the run, as the model reads it (exactly: the one just read).
    end = beyond(r, c, dr, dc)
    if end != (r, c):
        last = read(*end)
    if last == colour:
        return OWN
    if last == EMPTY:
        return FREE
    return NO_RUN


def takeable(colour):
    if all(x == EMPTY for x in F):
        return [12]
    empty = [p for p in range(N * N) if F[p] == EMPTY]
    for kind in (OWN, FREE):
        tier = [p for p in empty if any(run_end(p, dr, dc, colour) == kind for dr, dc in DIRECTIONS)]
        if tier:
            return tier
    return [p for p in empty
            if any(read(p // N + dr, p % N + dc) not in (0, EMPTY) for dr, dc in DIRECTIONS)]


for k, letter in enumerate(COLOURS):
    print(letter + "".join(f",{p + 1}" for p in takeable(k + 1)))
