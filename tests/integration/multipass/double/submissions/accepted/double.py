# Pass 1: k = n + 1; pass 2: `double k` -> 2k.
words = input().split()
if words[0] == "double":
    print(2 * int(words[1]))
else:
    print(int(words[0]) + 1)
