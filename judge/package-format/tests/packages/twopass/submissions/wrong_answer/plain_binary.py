# Wrong: no redundancy (the 20 bits, then zeros), so a flip among the first 20 bits changes x.
mode = input().strip()
if mode == "encode":
    print(format(int(input()), "020b") + "0" * 40)
else:
    print(int(input().strip()[:20], 2))
