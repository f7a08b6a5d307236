# The renju reference algorithm in plain Python: the RIF definitions applied literally, the
# recursive "three" included, on one board where a stone is placed, the question asked and the
# stone removed again. Neighbouring cells are read only through the board-access model's
# `read`, `scans` and `beyond` (tests/python/models.py puts them in front of this body);
# cell values: 0 empty, 1 black (X), 2 white (O).
import sys

sys.setrecursionlimit(10000)

N = 15
text = sys.stdin.read().split("\n")
g = [[".XO".index(ch) for ch in row] for row in text[:N]]
F = [x for row in g for x in row]
S = [x for row in g for x in row + [0]]
FORBIDDEN = ("OVERLINE", "DOUBLE-FOUR", "DOUBLE-THREE")


def put(p, v):
    """Sets point p to v on the board (and on its flat copies F and S)."""
    r, c = p
    g[r][c] = v
    F[r * N + c] = v
    S[r * (N + 1) + c] = v


def empty(p):
    return g[p[0]][p[1]] == 0


def line(p, d):
    """Every point of the line through p along d, from one edge to the other."""
    (r, c), (dr, dc) = p, d
    while 0 <= r - dr < N and 0 <= c - dc < N:
        r, c = r - dr, c - dc
    points = []
    while 0 <= r < N and 0 <= c < N:
        points.append((r, c))
        r, c = r + dr, c + dc
    return points


def is_black(r, c):
    return read(r, c) == 1


def black_run(p, d):
    """The unbroken run of black through p along d (empty if p is not black), sorted."""
    (r, c), (dr, dc) = p, d
    if not is_black(r, c):
        return []
    run = [p]
    for sign in (1, -1):
        qr, qc = r + sign * dr, c + sign * dc
        for _ in range(N):
            if not is_black(qr, qc):
                break
            run.append((qr, qc))
            qr, qc = qr + sign * dr, qc + sign * dc
    run.sort()
    return run


def in_exact_five(p, d):
    """Is p part of five black in a row along d, with no black just before or after?"""
    (r, c), (dr, dc) = p, d
    for s in range(5):
        sr, sc = r - s * dr, c - s * dc
        if scans(sr, sc, dr, dc, 5) \
                and all(is_black(sr + k * dr, sc + k * dc) for k in range(5)) \
                and not is_black(*beyond(sr - dr, sc - dc, -dr, -dc)) \
                and not is_black(*beyond(sr + 5 * dr, sc + 5 * dc, dr, dc)):
            return True
    return False


def run_with_black(q, d):
    """The black run through q along d with a black stone put at q."""
    put(q, 1)
    run = black_run(q, d)
    put(q, 0)
    return run


def fours(p, d):
    """The number of different sets of four stones a five-point completes to a five with p."""
    sets = []
    for q in line(p, d):
        if not empty(q):
            continue
        five = run_with_black(q, d)
        if len(five) == 5 and p in five:
            four = [s for s in five if s != q]
            if four not in sets:
                sets.append(four)
    return len(sets)


def is_straight_four(p, d):
    run = black_run(p, d)
    if len(run) != 4:
        return False
    five_points = 0
    for q in line(p, d):
        if empty(q):
            five = run_with_black(q, d)
            if len(five) == 5 and all(s in five for s in run):
                five_points += 1
    return five_points == 2


def makes_five(q):
    put(q, 1)
    five = any(len(black_run(q, d)) == 5 for d in LINES)
    put(q, 0)
    return five


def is_three(p, d):
    for q in line(p, d):
        if not empty(q):
            continue
        put(q, 1)
        straight = q in black_run(p, d) and is_straight_four(p, d)
        put(q, 0)
        if straight and not makes_five(q) and classify(q) not in FORBIDDEN:
            return True
    return False


def classify(p):
    put(p, 1)
    answer = classify_placed(p)
    put(p, 0)
    return answer


def classify_placed(p):
    if any(in_exact_five(p, d) for d in LINES):
        return "FIVE"
    if any(len(black_run(p, d)) >= 6 for d in LINES):
        return "OVERLINE"
    per_line = [fours(p, d) for d in LINES]
    total = sum(per_line)
    if total >= 2:
        return "DOUBLE-FOUR"
    threes = sum(1 for d, f in zip(LINES, per_line) if f == 0 and is_three(p, d))
    if threes >= 2:
        return "DOUBLE-THREE"
    if total == 1:
        return "FOUR-THREE" if threes == 1 else "FOUR"
    return "THREE" if threes == 1 else "NONE"


row, col = (int(x) - 1 for x in text[N].split())
print(classify((row, col)))
