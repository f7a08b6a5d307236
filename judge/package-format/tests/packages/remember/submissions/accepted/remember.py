# Binary search in the first pass; the note is the number itself (at most 4 digits).
first = input().split()
if first[0] == "guess":
    lo, hi = 1, int(first[1])
    while True:
        mid = (lo + hi) // 2
        print(f"? {mid}", flush=True)
        answer = input().strip()
        if answer == "correct":
            print(f"! {mid}", flush=True)
            break
        if answer == "higher":
            lo = mid + 1
        else:
            hi = mid - 1
else:
    print(f"! {int(first[1])}", flush=True)
