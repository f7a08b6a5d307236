#!/usr/bin/env bash
# Time-to-find of `judge stress` for every known-wrong solution and board-access model run as
# an external Python 3 program (a benchmark, not a test).
#
#   bench/stress-python.sh [PROBLEM...]      (default: all five; SEEDS="1 2 3" to vary seeds)
#
# omok and gomoku-checker models run as real Python ports (bench/python_models.py: the
# reference algorithm in Python reading through the model's accessor); every other wrong
# solution runs through bench/run_compiled.py, a Python process that pipes the case to the
# compiled solver (Python's start-up cost per case, the compiled solver's work).
# Prints one CSV row per run: problem,solution,kind,seed,found,cases,seconds,stones_left
# and the median seconds per kind at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
judge=$PWD/target/release/judge
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/python_models.py "$work/py"
problems=("$@")
[ ${#problems[@]} -eq 0 ] && problems=(gomoku-checker omok othello-flips attack25 renju)
seeds=${SEEDS:-1}
echo "problem,solution,kind,seed,found,cases,seconds,stones_left"
for problem in "${problems[@]}"; do
  "$judge" solutions "$problem" --out "$work/sol-$problem" 2>/dev/null
  for wrong in "$work/sol-$problem"/wrong/*; do
    name=$(basename "$wrong")
    if [ -f "$work/py/$name.py" ]; then
      kind=python; cmd=(python3 "$work/py/$name.py")
    else
      kind=wrapper; cmd=(python3 "$PWD/bench/run_compiled.py" "$wrong")
    fi
    for seed in $seeds; do
      save="$work/save-$name-$seed"
      start=$(date +%s.%N)
      out=$("$judge" stress "$problem" --seed "$seed" --time 60 --save "$save" -- "${cmd[@]}" 2>/dev/null || true)
      end=$(date +%s.%N)
      if grep -q "^DISAGREEMENT" <<<"$out"; then
        found=yes
        cases=$(grep -o "found after [0-9]* cases" <<<"$out" | grep -o "[0-9]*")
        # Stones (or discs, or panels) left in the shrunk input.
        case $problem in
          omok) stones=$(head -19 "$save/shrunk.in" | tr -cd '12' | wc -c) ;;
          gomoku-checker) stones=$(tr -cd 'ox' < "$save/shrunk.in" | wc -c) ;;
          othello-flips) stones=$(tr -cd 'BW' < "$save/shrunk.in" | wc -c) ;;
          attack25) stones=$(tr -cd ',' < "$save/shrunk.in" | wc -c) ;;
          renju) stones=$(head -15 "$save/shrunk.in" | tr -cd 'XO' | wc -c) ;;
        esac
      else
        found=no; cases=; stones=
      fi
      secs=$(echo "$end - $start" | bc)
      echo "$problem,$name,$kind,$seed,$found,$cases,$secs,$stones"
    done
  done
done | tee "$work/rows.csv"
for kind in python wrapper; do
  grep ",$kind," "$work/rows.csv" | cut -d, -f7 | sort -n | awk -v k="$kind" '
    { v[NR] = $1 } END { if (NR) printf "median seconds to find and shrink (%s, %d runs): %.2f; max %.2f\n", k, NR, (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[NR] }'
done
echo "not found within 60 s: $(grep -c ',no,' "$work/rows.csv" || true)"
