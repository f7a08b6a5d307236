# Reads numbers.txt when the test provides it (a .files folder), else standard input.
import os

if os.path.exists("numbers.txt"):
    with open("numbers.txt") as f:
        text = f.read()
else:
    text = input()
a, b = map(int, text.split())
print(a + b)
