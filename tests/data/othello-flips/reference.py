# The othello-flips reference algorithm in plain Python, reading squares through the
# board-access model's `read`, `scans` and `beyond` (tests/python/models.py puts them in front
# of this body).
#
# The answer names squares, so a read must say WHICH square it lands on (a model may alias a
# square outside the board to one inside, and that one flips), as the Rust model's `A::read`
# does. So the board the models read, g (and F, S), holds square numbers: 3 + 8 * row + col.
# A read returns that number, or 0 (nothing: off the board, a pad, a sentinel), 1 (stray
# memory holding a black disc) or 2 (stray memory holding a white disc, which flips nothing).
# The colour of square q is colour[q].
import sys

N = 8
EMPTY, BLACK, WHITE = 0, 1, 2
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))

rows = sys.stdin.read().split("\n")[:N]
colour = [{"B": BLACK, "W": WHITE}.get(ch, EMPTY) for row in rows for ch in row]
play = "".join(rows).index("P")
g = [[3 + N * r + c for c in range(N)] for r in range(N)]
F = [x for row in g for x in row]
S = [x for row in g for x in row + [0]]


def look(r, c):
    """The colour read at (r, c) and the square it is (None for nothing or stray memory)."""
    v = read(r, c)
    if v >= 3:
        return colour[v - 3], v - 3
    return v, None


pr, pc = divmod(play, N)
flipped = set()
for dr, dc in DIRECTIONS:
    run = []
    whites = 0
    r, c = pr + dr, pc + dc
    # At most 8 steps: only matters to models that alias squares outside the board to inside.
    last, square = look(r, c)
    while whites < N and last == WHITE:
        if square is not None:
            run.append(square)
        whites += 1
        r, c = r + dr, c + dc
        last, square = look(r, c)
    # The square that closes the run, as the model reads it (exactly: the one just read).
    end = beyond(r, c, dr, dc)
    if end != (r, c):
        last, square = look(*end)
    if whites > 0 and scans(pr, pc, dr, dc, whites + 2) and last == BLACK:
        flipped.update(run)

out = [str(len(flipped))]
for q in sorted(flipped):
    out.append(f"{q // N + 1} {q % N + 1}")
print("\n".join(out))
