#!/usr/bin/env bash
# The mutation score of the reference solvers: cargo-mutants mutates
# solutions/src/<problem>/reference.rs of the problems named (default: every problem folder)
# and runs the default test sets on each mutant (solutions/tests/default_testsets.rs): a mutant
# they do not catch gives the reference's answers on every test of the kept default test set.
#
#   solutions/mutants.sh [--fast] [--record] [PROBLEM...] [-- CARGO-MUTANTS-OPTIONS...]
#       e.g. othello-flips -- -j 2
#
#   --fast    mutate each problem's fast.rs too (the same test checks the fast solver).
#   --record  afterwards, write each problem's mutation population — every viable mutant of
#             the files mutated, with where it is, the text it replaces (as a hash) and what
#             replaces it — to tests/data/<problem>/mutants.txt: the never-weaker check
#             (generators/tests/never_weaker.rs) applies each of them in process to the kept
#             test set. Lines of files not mutated in this run are kept.
#
# Mutants that cannot change a problem's answer on any valid input are excluded by the
# regexes of its tests/data/<problem>/equivalent-mutants.txt, each with its argument. Most change code
# only a board-access model reaches (with the exact accessor `scans` is always true and
# ignores its length, `beyond` returns the cell it is given, no read aliases, so a loop bound
# that stops an aliased walk is never reached); the closing note of issue 13 gives the rest.
# So are the regexes of cpu-dependent-mutants.txt, where a folder has one: code that only some
# CPUs run (a fast solver's SIMD kernels), whose mutants the kept test set would kill on one
# machine and not on another.
set -euo pipefail
cd "$(dirname "$0")/.."
problems=()
fast=0
record=0
while (($#)) && [ "$1" != "--" ]; do
  case $1 in
    --fast) fast=1 ;;
    --record) record=1 ;;
    *) problems+=("$1") ;;
  esac
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
  ((fast)) && args+=(--file "$folder/fast.rs")
  for excluded in "tests/data/$problem/equivalent-mutants.txt" "tests/data/$problem/cpu-dependent-mutants.txt"; do
    [ -f "$excluded" ] || continue
    while IFS= read -r line; do
      case $line in '' | '#'*) ;; *) args+=(--exclude-re "$line") ;; esac
    done <"$excluded"
  done
done
if ! ((record)); then
  exec cargo mutants --no-config -p solutions --test-package solutions "${args[@]}" "$@" -- --test default_testsets
fi
out=target/mutants-record
rm -rf "$out"
status=0
cargo mutants --no-config -p solutions --test-package solutions "${args[@]}" "$@" -o "$out" \
  -- --test default_testsets || status=$?
python3 - "$out/mutants.out/outcomes.json" "${problems[@]}" <<'PY'
import json, sys
outcomes = json.load(open(sys.argv[1]))["outcomes"]
def fnv(text):
    h = 0xcbf29ce484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"
def escape(text):
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
rows = {}
for o in outcomes:
    m = o["scenario"]
    if not isinstance(m, dict) or "Mutant" not in m:
        continue
    m = m["Mutant"]
    summary = o["summary"]
    if summary == "Unviable":
        continue
    outcome = {"CaughtMutant": "caught", "MissedMutant": "missed", "Timeout": "timeout"}.get(summary, summary)
    lines = open(m["file"]).read().split("\n")
    s, e = m["span"]["start"], m["span"]["end"]
    if s["line"] == e["line"]:
        original = lines[s["line"] - 1][s["column"] - 1 : e["column"] - 1]
    else:
        parts = [lines[s["line"] - 1][s["column"] - 1 :]]
        parts += lines[s["line"] : e["line"] - 1]
        parts.append(lines[e["line"] - 1][: e["column"] - 1])
        original = "\n".join(parts)
    span = f'{s["line"]}:{s["column"]}-{e["line"]}:{e["column"]}'
    rows.setdefault(m["file"], []).append(
        "\t".join([m["file"], span, fnv(original), escape(m["replacement"]), outcome, m["name"]]))
for problem in sys.argv[2:]:
    folder = "solutions/src/" + problem.replace("-", "_")
    path = "tests/data/" + problem + "/mutants.txt"
    try:
        kept = [l for l in open(path).read().split("\n") if l and not l.startswith("#")]
    except FileNotFoundError:
        kept = []
    mutated = {f for f in rows if f.startswith(folder + "/")}
    kept = [l for l in kept if l.split("\t")[0] not in mutated]
    new = kept + [r for f in sorted(mutated) for r in rows[f]]
    with open(path, "w") as f:
        f.write("# The mutation population of this problem's solvers, written by\n"
                "# `solutions/mutants.sh --fast --record PROBLEM`: every viable mutant cargo-mutants made\n"
                "# (file, span line:column-line:column, FNV-1a 64 of the text it replaces, the\n"
                "# replacement, cargo-mutants' outcome, its name). generators/build.rs applies each to a copy of\n"
                "# the file and generators/tests/never_weaker.rs runs the copies on the kept test set.\n")
        f.write("\n".join(new) + "\n")
    print(f"mutants.sh: {len(new)} mutants recorded in {path}")
PY
exit $status
