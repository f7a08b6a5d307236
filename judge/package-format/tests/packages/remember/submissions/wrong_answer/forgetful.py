# Wrong: finds the number, but its note says nothing, so the second pass can only guess 1.
first = input().split()
if first[0] == "guess":
    lo, hi = 1, int(first[1])
    while True:
        mid = (lo + hi) // 2
        print(f"? {mid}", flush=True)
        answer = input().strip()
        if answer == "correct":
            print("! x", flush=True)
            break
        if answer == "higher":
            lo = mid + 1
        else:
            hi = mid - 1
else:
    print("! 1", flush=True)
