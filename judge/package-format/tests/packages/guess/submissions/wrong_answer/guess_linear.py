# Wrong: guesses 1, 2, 3, ... and so runs out of guesses whenever x > 60.
n = int(input())
for guess in range(1, n + 1):
    print(guess, flush=True)
    try:
        answer = input().strip()
    except EOFError:
        break  # the judge has stopped talking to us
    if answer == "correct":
        break
