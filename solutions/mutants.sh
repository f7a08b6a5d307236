#!/usr/bin/env bash
# The mutation score of the reference solvers: cargo-mutants mutates
# solutions/src/<problem>/reference.rs of the problems named (default: every problem folder)
# and runs the default test sets on each mutant (solutions/tests/default_testsets.rs): a mutant
# they do not catch gives the reference's answers on every test of the kept default test set.
#
#   solutions/mutants.sh [PROBLEM...] [-- CARGO-MUTANTS-OPTIONS...]     e.g. othello-flips -- -j 2
#
# Mutants that cannot change a problem's answer on any valid input are excluded by the
# regexes of its folder's equivalent-mutants.txt, each with its argument. Most change code
# only a board-access model reaches (with the exact accessor `scans` is always true and
# ignores its length, `beyond` returns the cell it is given, no read aliases, so a loop bound
# that stops an aliased walk is never reached); the closing note of issue 13 gives the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
problems=()
while (($#)) && [ "$1" != "--" ]; do
  problems+=("$1")
  shift
done
[ "${1:-}" = "--" ] && shift
if ((${#problems[@]} == 0)); then
  for folder in solutions/src/*/; do
    [ -f "$folder/reference.rs" ] && problems+=("$(basename "$folder" | tr _ -)")
  done
fi
args=()
for problem in "${problems[@]}"; do
  folder=solutions/src/${problem//-/_}
  [ -f "$folder/reference.rs" ] || { echo "mutants.sh: no problem '$problem' (no $folder/reference.rs)" >&2; exit 2; }
  args+=(--file "$folder/reference.rs")
  if [ -f "$folder/equivalent-mutants.txt" ]; then
    while IFS= read -r line; do
      case $line in '' | '#'*) ;; *) args+=(--exclude-re "$line") ;; esac
    done <"$folder/equivalent-mutants.txt"
  fi
done
exec cargo mutants --no-config -p solutions --test-package solutions "${args[@]}" "$@" -- --test default_testsets
