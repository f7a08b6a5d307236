# Prints the largest proper divisor (n over the smallest one): any divisor is accepted.
n = int(input())
d = 2
while d * d <= n:
    if n % d == 0:
        print(n // d)
        break
    d += 1
else:
    print("prime")
