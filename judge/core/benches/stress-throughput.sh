#!/usr/bin/env bash
# Cases per second of `judge stress` with an external submission, against two baselines on
# the same compiled, correct program (othello-flips's fast solver as a standalone program):
#   1. a bare spawn-and-wait loop (Rust std::process::Command, no checking at all),
#   2. the classic shell loop: generator, submission, reference solver, cmp, per case.
# Then the same for a Python submission (tests/integration/languages/othello.py): its zygote
# (the default) against the interpreter started per case, from the fork server and without it,
# and a bare loop of `python3 othello.py`.
# The compiled part runs ROUNDS rounds (default 3), each with the load (`uptime`): 1 job
# against one bare loop, 2 jobs against two bare loops side by side; with BEFORE=path/to/judge,
# that binary's `judge stress` alternates with this one's in every round (before and after in
# one run, on the same load).
# Usage: [ROUNDS=3] [BEFORE=judge] judge/core/benches/stress-throughput.sh [CASES]
#        (run from the repository root)
set -euo pipefail
cases=${1:-2000}
rounds=${ROUNDS:-3}
before=${BEFORE:-}
cargo build --release --quiet
judge=$PWD/target/release/judge
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The judge itself acts as the fast solver when linked under the name PROBLEM--SOLVER.
mkdir -p "$work/sol"
prog=$work/sol/othello-flips--fast
ln "$judge" "$prog" 2>/dev/null || cp "$judge" "$prog"
"$judge" gen othello-flips --seed 1 --count 200 --out "$work/inputs" 2>/dev/null

cat > "$work/bare.rs" <<'RS'
use std::io::Write;
use std::process::{Command, Stdio};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (prog, dir, n): (&str, &str, usize) = (&args[1], &args[2], args[3].parse().unwrap());
    let words = &args[4..];
    let mut inputs: Vec<Vec<u8>> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in")).map(|p| std::fs::read(p).unwrap()).collect();
    inputs.sort();
    let start = std::time::Instant::now();
    for i in 0..n {
        let mut child = Command::new(prog).args(words).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        child.stdin.take().unwrap().write_all(&inputs[i % inputs.len()]).unwrap();
        child.wait_with_output().unwrap();
    }
    println!("bare spawn-and-wait loop: {:.0} cases/s", n as f64 / start.elapsed().as_secs_f64());
}
RS
rustc -O -o "$work/bare" "$work/bare.rs" 2>/dev/null

rate() { echo "$1 / ($3 - $2)" | bc; }
# CPU time (user + system) of the command's processes, children included, in ms per case:
# wall rates depend on the machine's load, this much less.
cpu_per_case() {
  local before after me=$BASHPID
  before=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$me/stat")
  "$@" >/dev/null
  after=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$me/stat")
  echo "scale=3; ($after - $before) * 1000 / $(getconf CLK_TCK) / $cases" | bc
}
# `judge stress --jobs JOBS` of binary $1, and JOBS bare loops side by side (CASES in all).
for round in $(seq 1 "$rounds"); do
  echo "round $round: load $(uptime | sed 's/.*load average: //')"
  for jobs in 1 2; do
    for bin in "$judge" ${before:+"$before"}; do
      start=$(date +%s.%N)
      cpu=$(cpu_per_case "$bin" stress othello-flips --seed 1 --cases "$cases" --jobs "$jobs" \
        -- "$prog")
      end=$(date +%s.%N)
      label=$([ "$bin" = "$judge" ] && echo "this judge" || echo "BEFORE")
      echo "  judge stress --jobs $jobs ($label): $(rate "$cases" "$start" "$end") cases/s" \
        "(wall), $cpu ms CPU per case"
    done
    start=$(date +%s.%N)
    cpu=$(cpu_per_case bash -c 'for _ in $(seq 1 "$1"); do "$2" "$3" "$4" "$5" & done; wait' _ \
      "$jobs" "$work/bare" "$prog" "$work/inputs" "$((cases / jobs))")
    end=$(date +%s.%N)
    echo "  $jobs bare spawn-and-wait loop(s) side by side: $(rate "$cases" "$start" "$end")" \
      "cases/s (wall), $cpu ms CPU per case"
  done
done

# Each slot's fork server (the default) against a fresh set of namespaces per case
# (BOARDJUDGE_FORK_SERVER=0, how every case started before it).
for server in 0 1; do
  start=$(date +%s.%N)
  BOARDJUDGE_FORK_SERVER=$server "$judge" stress othello-flips --seed 1 --cases "$cases" \
    --jobs 1 -- "$prog" >/dev/null
  end=$(date +%s.%N)
  label=$([ "$server" = 1 ] && echo "fork server" || echo "namespaces per case")
  echo "judge stress --jobs 1 ($label): $(rate "$cases" "$start" "$end") cases/s"
done

shell_cases=$((cases / 10))
start=$(date +%s.%N)
for i in $(seq 1 "$shell_cases"); do
  "$judge" gen othello-flips --seed "$i" --count 1 --out "$work/one" 2>/dev/null
  "$prog" < "$work/one/000-random-game.in" > "$work/one/got"
  "$judge" solve othello-flips --solver reference "$work/one/000-random-game.in" > "$work/one/want"
  cmp -s "$work/one/got" "$work/one/want"
done
end=$(date +%s.%N)
echo "shell loop (gen; submission; reference; cmp): $(echo "$shell_cases / ($end - $start)" | bc) cases/s"

# A Python submission: the zygote (default), the interpreter per case from the fork server
# (BOARDJUDGE_ZYGOTE=0) and with fresh namespaces per case (BOARDJUDGE_FORK_SERVER=0).
python_cases=$((cases / 2))
cp tests/integration/languages/othello.py "$work/sol/othello.py"
for round in 1 2; do
  for way in BOARDJUDGE_FORK_SERVER=0 BOARDJUDGE_ZYGOTE=0 BOARDJUDGE_DEFAULT=1; do
    start=$(date +%s.%N)
    env "$way" "$judge" stress othello-flips --seed 1 --cases "$python_cases" --jobs 1 \
      -- python3 "$work/sol/othello.py" >/dev/null
    end=$(date +%s.%N)
    case $way in
      BOARDJUDGE_FORK_SERVER=0) label="interpreter per case, namespaces per case" ;;
      BOARDJUDGE_ZYGOTE=0) label="interpreter per case, fork server" ;;
      *) label="zygote" ;;
    esac
    echo "python judge stress --jobs 1 ($label), round $round: $(echo "$python_cases / ($end - $start)" | bc) cases/s"
  done
done
"$work/bare" python3 "$work/inputs" "$((python_cases / 4))" "$work/sol/othello.py" | sed 's/^/python3 /'
