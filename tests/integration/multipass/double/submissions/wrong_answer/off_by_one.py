# Right in pass 1, wrong in pass 2: 2k + 1.
words = input().split()
if words[0] == "double":
    print(2 * int(words[1]) + 1)
else:
    print(int(words[0]) + 1)
