# Brute force: counts one at a time. Correct, but hopeless for large numbers.
a, b = map(int, input().split())
step = 1 if b > 0 else -1
while b != 0:
    a += step
    b -= step
print(a)
