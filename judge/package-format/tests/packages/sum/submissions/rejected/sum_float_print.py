# Rejected: adds as floats and prints "3.0", which the default output validator (no float
# tolerance here) compares as a string with "3".
a, b = map(float, input().split())
print(a + b)
