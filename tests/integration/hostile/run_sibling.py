# A script reads the whole folder it came from (other teams' sources, a copy of the answers):
# it prints every other file it finds (a wrong answer), or the right answer, 0, if it finds
# none.
import os, sys
sys.stdin.read()
me = os.path.abspath(__file__)
here = os.path.dirname(me)
found = [os.path.join(root, f) for root, dirs, files in os.walk(here) for f in sorted(files)]
others = [f for f in found if f != me]
print("\n".join("saw " + f for f in others) if others else 0)
