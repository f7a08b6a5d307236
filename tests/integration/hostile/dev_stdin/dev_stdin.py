lines = open("/dev/stdin").read().splitlines()
with open("/dev/stdout", "w") as out:
    print(0 if len(lines) == 8 else 1, file=out)
