# Right in pass 1, crashes in pass 2.
words = input().split()
if words[0] == "double":
    raise SystemExit("forgot how to double")
print(int(words[0]) + 1)
