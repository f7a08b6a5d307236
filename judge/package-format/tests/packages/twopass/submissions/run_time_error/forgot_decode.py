# Crashes in the second pass: written as if the program ran once, it asserts that it is asked
# to encode.
mode = input().strip()
assert mode == "encode", f"unexpected mode {mode}"
print(format(int(input()), "020b") * 3)
