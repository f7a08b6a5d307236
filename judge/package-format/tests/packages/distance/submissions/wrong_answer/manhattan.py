# Wrong: the Manhattan distance, right only when the points share a coordinate.
q = int(input())
for _ in range(q):
    x1, y1, x2, y2 = map(int, input().split())
    print(abs(x2 - x1) + abs(y2 - y1))
