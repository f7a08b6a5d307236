#!/usr/bin/env bash
# The main job, end to end, on a fresh machine: build the judge, write a hidden test set,
# build a dozen solutions, judge a correct and a wrong one in the sandbox, stress-test the
# wrong one down to a small counterexample, and measure the test set's strength. Everything
# goes to a temporary folder (printed at the end).
#
#   judge/demo.sh [PROBLEM]        # default: omok
#
# The first run is slow for one reason: the solutions are Rust programs, and rustc -O takes
# about 5 s of CPU for each. The demo takes the hand-written known-wrong solutions only (not
# the board-access models, which differ from the reference in one accessor: `judge solutions`
# writes all of them), builds them in parallel, each once, and the judge keeps every build in
# its cache, so a second run builds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
problem=${1:-omok}
cores=$(nproc)
cache=${BOARDJUDGE_BUILD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/boardjudge/builds}

cat <<EOF
boardjudge demo: $problem. The first run takes about a minute on a quiet 2-core machine, once
the judge is built: it compiles a dozen solutions written in Rust (rustc -O, about 5 s of CPU
each, $cores at a time). The judge keeps every build in its cache ($cache),
so later runs take a few seconds.

== 0. the judge: cargo build --release (minutes on a fresh clone; a second once built)
EOF
cargo build --release --locked
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
"$judge" solutions "$problem" --out "$work/all-solutions"
# The demo's dozen: the fast solver and the hand-written wrong ones. The board-access models
# (named access-*, scan-*, six-check-*: solutions/src/access.rs) stay in all-solutions/.
mkdir -p "$work/solutions/correct" "$work/solutions/wrong"
cp "$work/all-solutions/correct/$problem--fast.rs" "$work/solutions/correct/"
find "$work/all-solutions/wrong" -maxdepth 1 -name '*.rs' \
  ! -name '*--access-*' ! -name '*--scan-*' ! -name '*--six-check-*' \
  -exec cp -t "$work/solutions/wrong" {} +
programs=("$work/solutions/correct/"*.rs "$work/solutions/wrong/"*.rs)

echo "== 3. building the ${#programs[@]} solutions, $cores at a time (each judged on the samples once built)"
# Each `judge run` on the two samples builds its program in the build box and puts it in the
# build cache, where every step below finds it. A line as each one is done.
mkdir -p "$work/builds"
count=$work/builds/done
echo 0 >"$count"
build_one() {
  local started=$SECONDS log done what=built
  log=$work/builds/$(basename "$1").log
  "$judge" run "$problem" --tests "$work/tests/data/sample" --jobs 1 -- "$1" >"$log" 2>&1 || true
  grep -q '^CE ' "$log" && what="did not build (CE: $log)"
  done=$( (flock 9; n=$(($(cat "$count") + 1)); echo "$n" >"$count"; echo "$n") 9>"$count.lock")
  printf '  %2d of %d %s: %s (%d s)\n' "$done" "$total" "$what" "$(basename "$1")" $((SECONDS - started))
}
export -f build_one
export judge problem work count
export total=${#programs[@]}
printf '%s\0' "${programs[@]}" | xargs -0 -n 1 -P "$cores" bash -c 'build_one "$1"' _

echo "== 4. judge run: a correct submission in the sandbox"
"$judge" run "$problem" --tests "$work/tests" --report "$work/report.csv" -- "$work/solutions/correct/$problem--fast.rs"

wrong=$(ls "$work/solutions/wrong" | grep '\.rs$' | head -n 1)
echo "== 5. judge run: a wrong one ($wrong)"
"$judge" run "$problem" --tests "$work/tests" -- "$work/solutions/wrong/$wrong" || true

echo "== 6. judge stress: find and shrink a counterexample for it"
"$judge" stress "$problem" --seed 1 --save "$work/finding" -- "$work/solutions/wrong/$wrong" || true

echo "== 7. judge strength: does the test set reject every one of these wrong solutions?"
"$judge" strength "$problem" --tests "$work/tests" --wrong "$work/solutions/wrong" --correct "$work/solutions/correct" --report "$work/strength.csv"

cat <<EOF

everything is in $work
(all ${problem}'s solutions, the board-access models too, are in $work/all-solutions)

The judge is $judge. To call it as \`judge\`:
  export PATH="$(dirname "$judge"):\$PATH"    # this shell
  cargo install --path . --locked        # or copy it into ~/.cargo/bin
EOF
