# Binary search, flushing after every guess.
n = int(input())
lo, hi = 1, n
while True:
    mid = (lo + hi) // 2
    print(mid, flush=True)
    answer = input().strip()
    if answer == "correct":
        break
    if answer == "higher":
        lo = mid + 1
    else:
        hi = mid - 1
