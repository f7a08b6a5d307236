# Reads n, then the numbers, and prints them back in reverse order.
n = int(input())
numbers = input().split()
assert len(numbers) == n
print(" ".join(reversed(numbers)))
