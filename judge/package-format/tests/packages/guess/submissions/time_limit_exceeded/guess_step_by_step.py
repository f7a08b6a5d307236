# Too slow: moves the bounds one step at a time instead of jumping to the guess, which takes
# about N/2 steps after the first answer; hopeless for N near 10^18.
n = int(input())
lo, hi = 1, n
while True:
    mid = (lo + hi) // 2
    print(mid, flush=True)
    answer = input().strip()
    if answer == "correct":
        break
    if answer == "higher":
        while lo <= mid:
            lo += 1
    else:
        while hi >= mid:
            hi -= 1
