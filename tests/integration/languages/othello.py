# othello-flips in Python: walk the 8 directions from P (the first 4 are the straight ones).
import sys

board = sys.stdin.read().split("\n")[:8]
pr, pc = next((r, row.index("P")) for r, row in enumerate(board) if "P" in row)
dr = [0, 0, 1, -1, 1, 1, -1, -1]
dc = [1, -1, 0, 0, 1, -1, 1, -1]
flip = set()
DIRECTIONS = 8  # directions
for d in range(DIRECTIONS):
    r, c, n = pr + dr[d], pc + dc[d], 0
    while 0 <= r < 8 and 0 <= c < 8 and board[r][c] == "W":
        r, c, n = r + dr[d], c + dc[d], n + 1
    if n > 0 and 0 <= r < 8 and 0 <= c < 8 and board[r][c] == "B":
        flip.update((pr + k * dr[d], pc + k * dc[d]) for k in range(1, n + 1))
print(len(flip))
for r, c in sorted(flip):
    print(r + 1, c + 1)
