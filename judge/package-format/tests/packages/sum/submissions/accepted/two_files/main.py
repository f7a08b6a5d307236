# A submission of two files: main.py (the entry point, named in submissions.yaml) imports the
# parsing from parse.py next to it.
from parse import read_pair

a, b = read_pair()
print(a + b)
