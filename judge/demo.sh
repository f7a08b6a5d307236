#!/usr/bin/env bash
# The main job, end to end, on a fresh machine: build the judge, write a hidden test set,
# judge a correct and a wrong submission in the sandbox, stress-test the wrong one down to a
# small counterexample, and measure the test set's strength. Everything goes to a temporary
# folder (printed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
problem=${1:-omok}
cargo build --release --locked --quiet
# Ask cargo where it put the binary: not always ./target (CARGO_TARGET_DIR, build.target-dir).
target_dir=$(cargo metadata --format-version 1 --no-deps --locked \
  | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
judge=$target_dir/release/judge
if ! [ -x "$judge" ]; then
  echo "demo.sh: cargo says its target directory is '$target_dir', but $judge is not there" >&2
  exit 2
fi
work=$(mktemp -d -t boardjudge-demo-XXXX)

echo "== 1. a hidden test set for $problem (samples, hand-made edge cases, every generator family)"
"$judge" testset "$problem" --seed 2026 --out "$work/tests" --format kattis
head -n 4 "$work/tests/manifest.csv"

echo "== 2. correct and known-wrong solutions as single-file Rust sources"
"$judge" solutions "$problem" --out "$work/solutions"

echo "== 3. judge run: a correct submission in the sandbox"
"$judge" run "$problem" --tests "$work/tests" --report "$work/report.csv" -- "$work/solutions/correct/$problem--fast.rs"

wrong=$(ls "$work/solutions/wrong" | head -n 1)
echo "== 4. judge run: a wrong one ($wrong)"
"$judge" run "$problem" --tests "$work/tests" -- "$work/solutions/wrong/$wrong" || true

echo "== 5. judge stress: find and shrink a counterexample for it"
"$judge" stress "$problem" --seed 1 --save "$work/finding" -- "$work/solutions/wrong/$wrong" || true

echo "== 6. judge strength: does the test set reject every known-wrong solution?"
"$judge" strength "$problem" --tests "$work/tests" --wrong "$work/solutions/wrong" --correct "$work/solutions/correct" --report "$work/strength.csv"

echo
echo "everything is in $work"
