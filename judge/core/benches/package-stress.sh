#!/usr/bin/env bash
# Issue 32, "Measure": each of the five built-in problems exported by `judge package`, stressed
# through the package path (`judge stress PKG`: the package's generator, input validator
# folder and reference, the generic shrinker) and through the built-in path (`judge stress
# PROBLEM`: the board-aware shrinker) against each of the package's `wrong_answer`
# submissions, the two runs of a submission back to back. Per submission and path: found or
# not (exit 1), the case it was found at, the time to find it and to shrink it (the judge's
# `found after … (shrunk in …)` line), whether the shrunk input is valid (the package's own
# input validator, `judge validate PKG shrunk.in`), whether it is no larger than the original,
# and the stones left on the board in shrunk.in (counted by the problem's input format, see
# /work/shared/problems/). Prints one markdown row per submission, then the load.
#
# Usage: judge/core/benches/package-stress.sh [OUT_DIR]   (from the repository root)
# Environment (each optional):
#   JUDGE     the judge binary (default: target/release/judge, built first)
#   CASES     cases per run (default 2000)   SEED  the campaign seed (default 1)
#   JOBS      --jobs of each run (default 2)
#   PROBLEMS  the problems (default: every built-in problem, as `judge problems` lists them)
#   WRONG     an extended regular expression the submissions' names must match (default: all)
set -euo pipefail
out=$(realpath -m "${1:-target/package-stress}")
cases=${CASES:-2000}
seed=${SEED:-1}
jobs=${JOBS:-2}
wrong_filter=${WRONG:-.}
if [ -z "${JUDGE:-}" ]; then
  cargo build --release --quiet --bin judge
  JUDGE=$PWD/target/release/judge
fi
problems=${PROBLEMS:-$("$JUDGE" problems | cut -d' ' -f1)}
rm -rf "$out"
mkdir -p "$out/pkgs" "$out/runs"
cd "$out"

# Stones on the board of the input file $2, by the shape of the five problems' input formats
# (/work/shared/problems/), not by their names: panels listed after commas (`R,1,13`); a board
# of numbers (`0 1 2`: stones are 1 and 2); else the rows of a board of letters (stones: o x B
# W X O; `.`, `N` and `P` are empty points; a colour's letter alone is no row).
stones() {
  if grep -q ',' "$2"; then
    grep -o ',[0-9]*' "$2" | wc -l
  elif grep -q '^[0-9]* [0-9]* [0-9]' "$2"; then
    tr -s ' ' '\n' <"$2" | grep -c '^[12]$' || true
  else
    grep -E '^[oxBWXONP.]{8,}$' "$2" | tr -cd 'oxBWXO' | wc -c
  fi
}

# One stress run: path ($1: package|builtin), problem argument ($2), submission ($3), save
# folder ($4); prints "found case find_s shrink_s valid smaller stones_original stones_shrunk".
measure() {
  local kind=$1 target=$2 wrong=$3 save=$4 problem=$5 pkg=$6
  local log=$save.log code=0
  "$JUDGE" stress "$target" --seed "$seed" --cases "$cases" --jobs "$jobs" --save "$save" \
    -- "$wrong" >"$log" 2>"$log.err" || code=$?
  if [ "$code" != 1 ]; then
    echo "no(exit $code) - - - - - - -"
    return
  fi
  # found after 26 cases in 0.75 s (shrunk in 0.07 s more)
  local line case find shrink
  line=$(grep '^found after ' "$log" | head -n 1)
  case=$(sed -E 's/^found after ([0-9]+) case.*/\1/' <<<"$line")
  find=$(sed -E 's/^found after [0-9]+ cases? in ([0-9.]+) s.*/\1/' <<<"$line")
  shrink=$(sed -E 's/.*shrunk in ([0-9.]+) s.*/\1/' <<<"$line")
  local valid=no smaller=no
  if "$JUDGE" validate "$pkg" "$save/shrunk.in" >/dev/null 2>&1; then valid=yes; fi
  if [ "$(wc -c <"$save/shrunk.in")" -le "$(wc -c <"$save/original.in")" ]; then smaller=yes; fi
  echo "yes $case $find $shrink $valid $smaller $(stones "$problem" "$save/original.in") $(stones "$problem" "$save/shrunk.in")"
}

echo "| problem | wrong submission | package path: found at case, find s + shrink s, valid, ≤ original, stones original → shrunk | built-in path: the same |"
echo "|---|---|---|---|"
for problem in $problems; do
  "$JUDGE" package "$problem" --out pkgs >/dev/null 2>"runs/$problem.package.err"
  name=${problem//-/}
  for wrong in pkgs/"$name"/submissions/wrong_answer/*; do
    base=$(basename "$wrong")
    grep -Eq "$wrong_filter" <<<"$base" || continue
    row=()
    for kind in package builtin; do
      target=pkgs/$name
      [ "$kind" = builtin ] && target=$problem
      read -r found case find shrink valid smaller before after \
        < <(measure "$kind" "$target" "$wrong" "runs/$problem-$base-$kind" "$problem" "pkgs/$name")
      if [ "$found" = yes ]; then
        row+=("case $case, $find + $shrink s, valid $valid, ≤ $smaller, $before → $after")
      else
        row+=("not found ($found)")
      fi
    done
    echo "| $problem | $base | ${row[0]} | ${row[1]} |"
  done
done
echo
echo "cases $cases, seed $seed, jobs $jobs; load: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ)"
