# Python integers do not overflow.
a, b = map(int, input().split())
print(a + b)
