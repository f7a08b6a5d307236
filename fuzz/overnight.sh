#!/usr/bin/env bash
# An unattended fuzzing run over every target, with a report in the morning.
#
#   fuzz/overnight.sh --hours 8            # or --minutes 30; optional: JOB... to restrict
#
# A job is a fuzz target (parse, differential, generators) on one problem, named KIND-PROBLEM
# (`differential-omok`); the problems come from `judge problems`, and the target learns its
# problem from BOARDJUDGE_PROBLEM.
#
# Builds every target (stable, `-s none`), seeds the corpora from the case corpus and the
# generators (`judge testset`), splits the time into rounds in which every target gets its
# share, runs as many targets at once as there are cores (libFuzzer fork mode, so a crash does
# not stop the night), minimises each corpus after every round (`cargo fuzz cmin`),
# de-duplicates crashes by their panic message, minimises each unique one (`cargo fuzz tmin`),
# and writes fuzz/reports/TIMESTAMP/report.csv and summary.md.
set -euo pipefail
script=$(realpath "$0")
cd "$(dirname "$script")"

seconds=$((8 * 3600))
targets=()
# A duration must be a positive number (`--hours 0.5`); anything else is a usage error (exit 2).
duration() {
  if [[ ${2-} =~ ^[0-9]+([.][0-9]+)?$ ]] && awk "BEGIN { exit !($2 * $3 >= 1) }"; then
    awk "BEGIN { printf \"%d\", $2 * $3 }"
  else
    echo "overnight.sh: $1 takes a positive number, found '${2-}' (see --help)" >&2
    exit 2
  fi
}
while (($#)); do
  case "$1" in
    --hours) seconds=$(duration "$1" "${2-}" 3600); shift 2 ;;
    --minutes) seconds=$(duration "$1" "${2-}" 60); shift 2 ;;
    -h|--help) sed -n '2,15p' "$script"; exit 0 ;;
    -*) echo "overnight.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
cargo fuzz build -s none
(cd .. && cargo build --release --quiet)
mapfile -t problems < <(../target/release/judge problems | cut -d' ' -f1)
if ((${#targets[@]} == 0)); then
  for kind in $(cargo fuzz list); do
    for problem in "${problems[@]}"; do targets+=("$kind-$problem"); done
  done
fi
cores=$(nproc)
bin=target/x86_64-unknown-linux-gnu/release
stamp=$(date -u +%Y%m%dT%H%M%SZ)
report=reports/$stamp
mkdir -p "$report/logs"

# Job KIND-PROBLEM runs target KIND with BOARDJUDGE_PROBLEM=PROBLEM (kinds have no '-').
job() { local name=$1; shift; BOARDJUDGE_PROBLEM=${name#*-} "$@"; }
kind() { echo "${1%%-*}"; }

# Seed corpora: every test of a generated test set, as raw bytes for the parse targets and as
# text-mode inputs ("T" + text) for the differential ones.
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
for problem in "${problems[@]}"; do
  ../target/release/judge testset "$problem" --seed 1 --out "$seeds/$problem" 2>/dev/null
  mkdir -p "corpus/parse-$problem" "corpus/differential-$problem" "corpus/generators-$problem"
  for f in "$seeds/$problem"/*.in; do
    name=$(basename "$f" .in)
    cp "$f" "corpus/parse-$problem/seed-$name"
    { printf 'T'; cat "$f"; } > "corpus/differential-$problem/seed-$name"
  done
done

rounds=$(( seconds >= 4 * 3600 ? 8 : (seconds >= 1800 ? 4 : 1) ))
batches=$(( (${#targets[@]} + cores - 1) / cores ))
slice=$(( seconds / rounds / batches ))
((slice >= 5)) || slice=5
echo "fuzzing ${#targets[@]} targets for ${seconds}s: $rounds rounds, $cores at a time, ${slice}s each per round"

declare -A runtime executions coverage
for t in "${targets[@]}"; do runtime[$t]=0; executions[$t]=0; coverage[$t]=0; mkdir -p "artifacts/$t"; done

for ((round = 1; round <= rounds; round++)); do
  for ((i = 0; i < ${#targets[@]}; i += cores)); do
    for t in "${targets[@]:i:cores}"; do
      log="$report/logs/$t-round$round.log"
      job "$t" "$bin/$(kind "$t")" "corpus/$t" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$slice" -artifact_prefix="artifacts/$t/" -print_final_stats=1 >"$log" 2>&1 &
    done
    wait
    for t in "${targets[@]:i:cores}"; do
      log="$report/logs/$t-round$round.log"
      # Fork mode reports "#N: cov: C ft: F corp: K exec/s: E ... time: Ts".
      last=$(grep -E '^#[0-9]+: cov: ' "$log" | tail -n 1 || true)
      runs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
      cov=$(sed -E 's/.* cov: ([0-9]+).*/\1/' <<<"$last")
      executions[$t]=$(( ${executions[$t]} + ${runs:-0} ))
      runtime[$t]=$(( ${runtime[$t]} + slice ))
      (( ${cov:-0} > ${coverage[$t]} )) && coverage[$t]=$cov
    done
  done
  # Keep each corpus small: merge it into a fresh folder of the inputs that add coverage.
  for t in "${targets[@]}"; do
    job "$t" cargo fuzz cmin -s none "$(kind "$t")" "corpus/$t" >/dev/null 2>&1 || echo "cmin of $t failed (corpus kept as it was)"
  done
  echo "round $round of $rounds done"
done

# Crashes: one per distinct panic message, each minimised.
csv="$report/report.csv"
echo "target,seconds,executions,exec_per_sec,coverage,corpus_files,crash_files,unique_crashes" >"$csv"
summary="$report/summary.md"
{
  echo "# Fuzzing report $stamp"
  echo
  echo "${seconds}s in $rounds rounds on $cores cores, \`cargo fuzz run -s none\` (stable)."
  echo
  echo "| target | seconds | exec/s | coverage | corpus | crashes (unique) |"
  echo "| --- | --- | --- | --- | --- | --- |"
} >"$summary"
findings=""
for t in "${targets[@]}"; do
  corpus_files=$(find "corpus/$t" -type f | wc -l)
  mapfile -t crashes < <(find "artifacts/$t" -type f -name 'crash-*' | sort)
  declare -A seen=()
  unique=0
  for crash in "${crashes[@]}"; do
    # One finding per kind: the panic's location and the start of its message, without the
    # data (every disagreement prints a different board).
    message=$(RUST_BACKTRACE=0 job "$t" "$bin/$(kind "$t")" "$crash" 2>&1 | grep -m1 -A1 'panicked at' | sed -E 's/^thread .* panicked at //; s/[(":].*$//' | tr '\n' ' ' | cut -c1-160 || true)
    [[ -n "${seen[$message]:-}" ]] && continue
    seen[$message]=1
    unique=$((unique + 1))
    job "$t" cargo fuzz tmin -s none "$(kind "$t")" "$crash" -- -runs=20000 >"$report/logs/$t-tmin-$unique.log" 2>&1 || true
    minimised=$(grep -oE "artifacts/$t/minimized-from-[0-9a-f]+" "$report/logs/$t-tmin-$unique.log" | tail -n 1 || true)
    input=${minimised:-$crash}
    shown=$(RUST_BACKTRACE=0 job "$t" "$bin/$(kind "$t")" "$input" 2>&1 | sed -n '/panicked at/,/^note:/p' | head -n 40 || true)
    findings+=$'\n'"## $t: $message"$'\n\n'"minimised input: \`fuzz/$input\`"$'\n\n```\n'"$shown"$'\n```\n'
  done
  unset seen
  rate=$(( ${runtime[$t]} > 0 ? ${executions[$t]} / ${runtime[$t]} : 0 ))
  echo "$t,${runtime[$t]},${executions[$t]},$rate,${coverage[$t]},$corpus_files,${#crashes[@]},$unique" >>"$csv"
  echo "| $t | ${runtime[$t]} | $rate | ${coverage[$t]} | $corpus_files | ${#crashes[@]} ($unique) |" >>"$summary"
done
{
  echo
  if [[ -z "$findings" ]]; then echo "No findings."; else echo "# Findings"; echo "$findings"; fi
} >>"$summary"
echo "report: fuzz/$report/summary.md and report.csv"
cat "$summary"
