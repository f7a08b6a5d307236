# Reads its whole input in one call of the size fstat gives, as fast Python readers do:
# prints 0 if the board is there.
import os
import stat

st = os.fstat(0)
data = os.read(0, st.st_size)
ok = stat.S_ISREG(st.st_mode) and st.st_size == 72 and len(data) == 72
ok = ok and data.count(b"\n") == 8 and os.lseek(0, 0, os.SEEK_END) == 72
print(0 if ok else 1)
