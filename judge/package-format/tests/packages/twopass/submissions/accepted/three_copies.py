# Sends the 20-bit number three times over; each bit is decided by the majority of its three
# copies, which survives one flipped bit.
mode = input().strip()
if mode == "encode":
    bits = format(int(input()), "020b")
    print(bits * 3)
else:
    code = input().strip()
    copies = [code[0:20], code[20:40], code[40:60]]
    bits = "".join("1" if sum(c[i] == "1" for c in copies) >= 2 else "0" for i in range(20))
    print(int(bits, 2))
