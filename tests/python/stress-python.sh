#!/usr/bin/env bash
# Time-to-find of `judge stress` for every known-wrong solution and board-access model run as
# an external Python 3 program (a benchmark, not a test).
#
#   tests/python/stress-python.sh [PROBLEM...]   (default: every problem; SEEDS="1 2 3" to vary seeds)
#
# The board-access models run as real Python ports (tests/python/models.py: the problem's
# reference algorithm in plain Python, tests/data/P/reference.py, reading cells through the model's
# accessor). The hand-written wrong solutions run through tests/python/run_compiled.py: a Python
# process that first runs the Python reference on the case (Python's start-up and solving
# time) and then prints the compiled wrong solver's answer.
# Prints one CSV row per run:
#   problem,solution,kind,seed,found,cases,find_s,shrink_s,wall_s,stones_left,minimal
# (find_s: from the first case to the finding, as `judge stress` reports it; shrink_s: the
# shrinking after it; wall_s: the whole command, start-up and case planning included;
# minimal: whether the shrink ended 1-minimal), and medians per kind at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
judge=$PWD/target/release/judge
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 tests/python/models.py "$work/py"
problems=("$@")
[ ${#problems[@]} -eq 0 ] && mapfile -t problems < <("$judge" problems | cut -d' ' -f1)
seeds=${SEEDS:-1}
# stones_left PICTURE_TOML INPUT: the stones of INPUT, by its problem's stone_letters and
# board_lines.
stones_left() {
  python3 - "$1" "$2" <<'PY'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    spec = tomllib.load(f)
with open(sys.argv[2]) as f:
    lines = f.read().splitlines(keepends=True)
if spec["board_lines"]:
    lines = lines[: spec["board_lines"]]
print(sum(c in spec["stone_letters"] for line in lines for c in line))
PY
}
echo "problem,solution,kind,seed,found,cases,find_s,shrink_s,wall_s,stones_left,minimal"
for problem in "${problems[@]}"; do
  # The wrong solutions' names; the judge binary acts as each one when linked under its name.
  "$judge" solutions "$problem" --out "$work/sol-$problem" 2>/dev/null
  mkdir -p "$work/bin"
  # A port that is itself wrong would make every model "found" at once: check it first.
  check=$("$judge" stress "$problem" --seed 1 --cases 200 -- python3 "$work/py/$problem--reference.py" \
      2>"$work/err" || true)
  if ! grep -q "^no disagreement" <<<"$check"; then
    echo "$problem: the Python reference port disagrees with the reference" >&2
    cat "$work/err" >&2
    exit 1
  fi
  for source in "$work/sol-$problem"/wrong/*.rs; do
    name=$(basename "$source" .rs)
    wrong=$work/bin/$name
    ln -f "$judge" "$wrong" 2>/dev/null || cp "$judge" "$wrong"
    if [ -f "$work/py/$name.py" ]; then
      kind=python; cmd=(python3 "$work/py/$name.py")
    else
      kind=wrapper; cmd=(python3 "$PWD/tests/python/run_compiled.py" "$wrong" "$work/py/$problem--reference.py")
    fi
    for seed in $seeds; do
      save="$work/save-$name-$seed"
      start=$(date +%s.%N)
      out=$("$judge" stress "$problem" --seed "$seed" --time 60 --save "$save" -- "${cmd[@]}" 2>"$work/err" || true)
      end=$(date +%s.%N)
      if grep -q "^DISAGREEMENT" <<<"$out"; then
        found=yes
        line=$(grep "^found after" <<<"$out")
        cases=$(awk '{print $3}' <<<"$line")
        find_s=$(awk '{print $6}' <<<"$line")
        shrink_s=$(awk '{print $10}' <<<"$line")
        minimal=$(grep -q "1-minimal" <<<"$out" && echo yes || echo no)
        # Stones (or discs, or panels) left in the shrunk input: the problem's picture.toml says
        # which characters they are, in how many first lines.
        stones=$(stones_left "tests/data/$problem/picture.toml" "$save/shrunk.in")
      else
        found=no; cases=; stones=; find_s=; shrink_s=; minimal=
        sed "s/^/$name: /" "$work/err" | tail -3 >&2
      fi
      secs=$(echo "$end - $start" | bc)
      echo "$problem,$name,$kind,$seed,$found,$cases,$find_s,$shrink_s,$secs,$stones,$minimal"
    done
  done
done | tee "$work/rows.csv"
median() {
  sort -n | awk -v what="$1" '{ v[NR] = $1 } END { if (NR) printf "%s: median %.2f, max %.2f (%d runs)\n", what, (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[NR], NR }'
}
for kind in python wrapper; do
  grep ",$kind,[0-9]*,yes," "$work/rows.csv" | cut -d, -f7 | median "seconds to find ($kind)"
  grep ",$kind,[0-9]*,yes," "$work/rows.csv" | cut -d, -f8 | median "seconds to shrink ($kind)"
  grep ",$kind,[0-9]*,yes," "$work/rows.csv" | cut -d, -f9 | median "seconds wall ($kind)"
  grep ",$kind,[0-9]*,yes," "$work/rows.csv" | cut -d, -f10 | median "stones left ($kind)"
done
echo "shrinks ending 1-minimal: $(grep -c ',yes$' "$work/rows.csv" || true) of $(grep -c ',yes,' "$work/rows.csv" || true)"
echo "not found within 60 s: $(grep -c ',no,' "$work/rows.csv" || true)"
