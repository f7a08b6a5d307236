#!/usr/bin/env bash
# An unattended fuzzing run over every target, with a report in the morning.
#
#   fuzz/overnight.sh --hours 8            # or --minutes 30; optional: JOB... to restrict
#   fuzz/overnight.sh --hours 8 --shard K/N --out DIR   # one of N machines (or --shard auto)
#   fuzz/overnight.sh --merge DIR          # fold DIR/shard-*-of-N into corpus/ and one report
#   fuzz/overnight.sh --list [--shard K/N] [JOB...]     # the jobs (of a shard), nothing runs
#   fuzz/overnight.sh --help                            # this text
#
# A job is a fuzz target (parse, differential, generators) on one problem, named KIND-PROBLEM
# (`differential-omok`); the problems are the list in solutions/src/lib.rs (the one
# `judge problems` shows), and the target learns its problem from BOARDJUDGE_PROBLEM. An
# unknown job is a usage error (exit 2), found before anything is built. --list and --help
# build nothing and answer at once.
#
# First builds the judge (cargo build --release) and every target (cargo fuzz build -s none,
# stable; cargo-fuzz is installed if missing): minutes on a cold build, said before it starts;
# the time budget starts after it. The binaries are found where `cargo metadata` says the
# target directory is, so CARGO_TARGET_DIR works. Then seeds the corpora from the generators
# (`judge testset`), splits the time into rounds in which every job gets its share, runs as
# many jobs at once as there are cores (libFuzzer fork mode, so a crash does not stop the
# night), keeps each corpus minimal after every round (libFuzzer -merge=1, what cargo fuzz cmin
# does), de-duplicates crashes by their panic message, minimises each unique one, and writes
# fuzz/reports/TIMESTAMP/report.csv and summary.md (--out DIR: DIR/report.csv, summary.md
# and the crash artifacts, which otherwise go to fuzz/artifacts/JOB). On a terminal a line
# shows the round and the time left (nothing of it in pipes or CI).
#
# Exit: 0 every job ran in every round (crashes are in the report); 2 a usage error, a job
# that did not run in some round (its log is named in the report), or an interruption
# (Ctrl-C, SIGTERM, in any phase, the builds included: the fuzzers are stopped, the partial
# report kept).
#
# Shards: the jobs, in a fixed order, are dealt out round-robin (shard K runs jobs K-1, K-1+N,
# ...; with more shards than jobs, shard K runs job (K-1) mod J, so a job runs on several
# machines). Each shard gets the whole --hours for its jobs, works on copies of corpus/JOB in
# DIR/.shard-K-of-N.tmp-HOST-PID and renames that to DIR/shard-K-of-N only when every job ran
# (DIR/shard-K-of-N.failed or .interrupted otherwise). --merge DIR needs every shard 1..N,
# merges each job's corpora into corpus/JOB (libFuzzer -merge=1: the inputs that add
# coverage), and writes DIR/report.csv and DIR/summary.md. --shard auto: K/N from a Slurm job
# array (SLURM_ARRAY_TASK_ID, _MIN, _STEP, _COUNT) or a Kubernetes Indexed Job
# (JOB_COMPLETION_INDEX + BOARDJUDGE_SHARDS), as `judge --shard auto`. Under sbatch, submit
# with --wrap 'fuzz/overnight.sh ...' (sbatch runs a copy of a script from its spool folder).
# JUDGE=PATH uses that judge binary instead of building one; FUZZ_BIN=DIR uses fuzz targets
# built elsewhere (cluster nodes without cargo-fuzz) instead of building them; FUZZ_CORPUS=DIR
# keeps the corpora there instead of in fuzz/corpus.
set -euo pipefail
script=$(realpath "$0")
caller=$PWD
cd "$(dirname "$script")"

seconds=$((8 * 3600))
targets=()
shard=1/1
sharded=
out=
merge=
list=
# A duration must be a positive number (`--hours 0.5`); anything else is a usage error (exit 2).
duration() {
  if [[ ${2-} =~ ^[0-9]+([.][0-9]+)?$ ]] && awk "BEGIN { exit !($2 * $3 >= 1) }"; then
    awk "BEGIN { printf \"%d\", $2 * $3 }"
  else
    echo "overnight.sh: $1 takes a positive number, found '${2-}' (see --help)" >&2
    exit 2
  fi
}
usage() { echo "overnight.sh: $* (see --help)" >&2; exit 2; }
while (($#)); do
  case "$1" in
    --hours) seconds=$(duration "$1" "${2-}" 3600); shift 2 ;;
    --minutes) seconds=$(duration "$1" "${2-}" 60); shift 2 ;;
    --shard) [[ -n ${2-} ]] || usage "--shard takes K/N or auto"; shard=$2; sharded=1; shift 2 ;;
    --out) [[ -n ${2-} ]] || usage "--out takes a folder"; out=$2; shift 2 ;;
    --merge) [[ -n ${2-} ]] || usage "--merge takes a folder"; merge=$2; shift 2 ;;
    --list) list=1; shift ;;
    # The comment block at the top of this file, without its '#'.
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$script"; exit 0 ;;
    -*) usage "unknown option '$1'" ;;
    *) targets+=("$1"); shift ;;
  esac
done

# Ctrl-C (SIGINT to the whole foreground process group: the builds stop with it) or SIGTERM
# before the fuzzers run: exit 2, as in every other phase (bash runs the trap once the command
# it waits for has stopped). The run phase replaces this with its own, which stops the fuzzers.
phase="starting"
early_interruption() {
  trap - INT TERM
  echo "overnight.sh: interrupted while $phase" >&2
  exit 2
}
trap early_interruption INT TERM

# The `--shard auto` contract (the same as `judge --shard auto`).
shard_auto() {
  local id=${SLURM_ARRAY_TASK_ID:-} index=${JOB_COMPLETION_INDEX:-} slurm= kube=
  if [[ -n $id ]]; then
    local min=${SLURM_ARRAY_TASK_MIN:-} max=${SLURM_ARRAY_TASK_MAX:-} step=${SLURM_ARRAY_TASK_STEP:-1}
    local count=${SLURM_ARRAY_TASK_COUNT:-}
    [[ $id =~ ^[0-9]+$ && $min =~ ^[0-9]+$ && $step =~ ^[1-9][0-9]*$ ]] \
      || usage "--shard auto: SLURM_ARRAY_TASK_ID/_MIN/_STEP missing or not numbers"
    [[ -n $count ]] || { [[ $max =~ ^[0-9]+$ ]] && count=$(( (max - min) / step + 1 )); } \
      || usage "--shard auto: SLURM_ARRAY_TASK_COUNT missing"
    [[ $count =~ ^[1-9][0-9]*$ ]] || usage "--shard auto: SLURM_ARRAY_TASK_COUNT='$count'"
    local last=$(( min + (count - 1) * step ))
    [[ -z $max || $max == "$last" ]] \
      || usage "--shard auto: the job array $min-$max:$step of $count tasks is not an evenly stepped range; give --shard K/N"
    (( id >= min && id <= last && (id - min) % step == 0 )) \
      || usage "--shard auto: SLURM_ARRAY_TASK_ID=$id is not a task of the array $min-$last:$step"
    slurm="$(( (id - min) / step + 1 ))/$count"
  fi
  if [[ -n $index ]]; then
    [[ $index =~ ^[0-9]+$ ]] || usage "--shard auto: JOB_COMPLETION_INDEX='$index'"
    [[ ${BOARDJUDGE_SHARDS:-} =~ ^[1-9][0-9]*$ ]] \
      || usage "--shard auto: JOB_COMPLETION_INDEX is set but BOARDJUDGE_SHARDS (the Job's completions) is not: '${BOARDJUDGE_SHARDS:-}'"
    (( index < BOARDJUDGE_SHARDS )) \
      || usage "--shard auto: JOB_COMPLETION_INDEX=$index but BOARDJUDGE_SHARDS=$BOARDJUDGE_SHARDS"
    kube="$(( index + 1 ))/$BOARDJUDGE_SHARDS"
  fi
  [[ -z $slurm || -z $kube || $slurm == "$kube" ]] \
    || usage "--shard auto: the Slurm array says shard $slurm, JOB_COMPLETION_INDEX/BOARDJUDGE_SHARDS say $kube"
  [[ -n $slurm$kube ]] \
    || usage "--shard auto: neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set; give --shard K/N"
  echo "${slurm:-$kube}"
}
if [[ $shard == auto ]]; then shard=$(shard_auto); echo "shard $shard (from the scheduler)" >&2; fi
[[ $shard =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] && ((BASH_REMATCH[1] <= BASH_REMATCH[2])) \
  || usage "--shard takes K/N with 1 <= K <= N, or auto; found '$shard'"
k=${BASH_REMATCH[1]} n=${BASH_REMATCH[2]}
[[ -z $sharded || -n $out || -n $list ]] || usage "--shard $k/$n needs --out DIR, a folder every shard can write"
[[ -z $merge || -z $sharded ]] || usage "--merge and --shard exclude each other"
# Folders given on the command line are relative to where it was typed, not to fuzz/.
[[ -z $out || $out == /* ]] || out=$caller/$out
[[ -z $merge || $merge == /* ]] || merge=$caller/$merge
kept=${FUZZ_CORPUS:-corpus}
[[ $kept == corpus || $kept == /* ]] || kept=$caller/$kept

# Where cargo puts things (CARGO_TARGET_DIR, a [build] target-dir in a config ...).
target_dir() {
  cargo metadata --format-version 1 --no-deps --manifest-path "$1" 2>/dev/null \
    | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p'
}
fuzz_target_dir=$(target_dir Cargo.toml)
[[ -n $fuzz_target_dir ]] || { echo "overnight.sh: cargo metadata gave no target directory for fuzz/" >&2; exit 2; }
host=$(rustc -vV | sed -n 's/^host: //p')
bin=${FUZZ_BIN:-$fuzz_target_dir/$host/release}
[[ $bin == /* ]] || bin=$caller/$bin
# The problems, read from the list the judge is built from (solutions/src/lib.rs: a problem's
# id is its module's name with '-' for '_'), so that --list and an unknown job need no build.
mapfile -t problems < <(sed -n '/^\/\/ The list of problems/,/^\/\/ End of the list of problems/s/^pub mod \([a-z0-9_]*\);$/\1/p' \
  ../solutions/src/lib.rs | tr _ -)
((${#problems[@]})) || { echo "overnight.sh: no problems in the list of ../solutions/src/lib.rs" >&2; exit 2; }
mapfile -t kinds < <(find fuzz_targets -maxdepth 1 -name '*.rs' -printf '%f\n' | sed 's/\.rs$//' | sort)
all=()
for kind in "${kinds[@]}"; do
  for problem in "${problems[@]}"; do all+=("$kind-$problem"); done
done
if ((${#targets[@]})); then
  unknown=()
  for t in "${targets[@]}"; do
    [[ " ${all[*]} " == *" $t "* ]] || unknown+=("$t")
  done
  ((${#unknown[@]} == 0)) \
    || usage "unknown job(s): ${unknown[*]}; a job is KIND-PROBLEM with KIND one of ${kinds[*]} and PROBLEM one of ${problems[*]}"
else
  targets=("${all[@]}")
fi
# This shard's jobs.
if ((n > 1)); then
  every=("${targets[@]}")
  targets=()
  if ((n <= ${#every[@]})); then
    for ((j = k - 1; j < ${#every[@]}; j += n)); do targets+=("${every[j]}"); done
  else
    targets=("${every[(k - 1) % ${#every[@]}]}")
  fi
fi
if [[ -n $list ]]; then
  echo "fuzz targets: $bin" >&2
  printf '%s\n' "${targets[@]}"
  exit 0
fi

# The builds, said before they start: on a cold cache they take minutes, and none of that is
# the fuzzing budget. A merge needs the fuzz targets only.
building=()
[[ -n $merge || -n ${JUDGE:-} ]] || building+=("the judge (cargo build --release)")
if [[ -z ${FUZZ_BIN:-} ]]; then
  command -v cargo-fuzz >/dev/null || building+=("cargo-fuzz (cargo install cargo-fuzz --locked)")
  building+=("the fuzz targets (cargo fuzz build -s none)")
fi
if ((${#building[@]})); then
  what=$(printf '%s, ' "${building[@]}")
  if [[ -n $merge ]]; then when="the merge starts after it"
  else when="the fuzzing budget of ${seconds}s starts after it"; fi
  echo "overnight.sh: building ${what%, }: minutes on a cold build, seconds once built; $when" >&2
fi
phase="building"
if [[ -n $merge ]]; then
  judge=
elif [[ -n ${JUDGE:-} ]]; then
  judge=$(realpath "$JUDGE")
else
  (cd .. && cargo build --release --quiet)
  judge=$(target_dir ../Cargo.toml)/release/judge
fi
if [[ -z ${FUZZ_BIN:-} ]]; then
  command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
  cargo fuzz build -s none
fi
phase="preparing"
for kind in "${kinds[@]}"; do
  [[ -x $bin/$kind ]] || { echo "overnight.sh: no fuzz target $bin/$kind (built?)" >&2; exit 2; }
done
# Under Slurm the job's CPUs, which nproc shows only where Slurm binds tasks to them.
cores=$(nproc)
[[ ${SLURM_CPUS_ON_NODE:-} =~ ^[1-9][0-9]*$ ]] && ((SLURM_CPUS_ON_NODE < cores)) && cores=$SLURM_CPUS_ON_NODE
stamp=$(date -u +%Y%m%dT%H%M%SZ)
# The progress line: on a terminal only, never in pipes or CI.
[[ -t 2 && -z ${CI:-} ]] && tty=1 || tty=

# Job KIND-PROBLEM runs target KIND with BOARDJUDGE_PROBLEM=PROBLEM (kinds have no '-').
job() { local name=$1; shift; BOARDJUDGE_PROBLEM=${name#*-} "$@"; }
kind() { echo "${1%%-*}"; }
declare -A runtime executions coverage failed

# libFuzzer's merge: the first folder (a new, empty one) receives the inputs of the others
# that add coverage; then it replaces corpus $2 of job $1. (Not `cargo fuzz cmin T CORPUS --
# MORE`: it puts MORE first, which makes MORE the output and leaves CORPUS empty.)
minimise_corpus() {
  local t=$1 into=$2 log=$3 merged
  shift 3
  merged=$(mktemp -d "$(dirname "$into")/.merge-$t-XXXXXX")
  if job "$t" "$bin/$(kind "$t")" -merge=1 "$merged" "$into" "$@" >"$log" 2>&1; then
    rm -rf "$into" && mv "$merged" "$into"
  else
    rm -rf "$merged"
    echo "merge of $t failed (corpus kept; $log)"
  fi
}

# report.csv and summary.md in $report for the jobs given, from runtime/executions/coverage/
# failed, the corpora in $corp and the crashes in $art. Crashes: one per distinct panic
# message, each minimised.
write_report() {
  local csv="$report/report.csv" summary="$report/summary.md" findings="" t crash message unique
  local corpus_files minimised input shown rate bad=""
  echo "target,seconds,executions,exec_per_sec,coverage,corpus_files,crash_files,unique_crashes,ran" >"$csv"
  for t in "${@:2}"; do [[ -z ${failed[$t]:-} ]] || bad+="- \`$t\` did not run: ${failed[$t]}"$'\n'; done
  {
    echo "# Fuzzing report $stamp"
    echo
    echo "$1"
    echo
    if [[ -n $bad ]]; then echo "**FAILED: not every job ran.**"; echo; echo -n "$bad"; echo; fi
    echo "| target | seconds | exec/s | coverage | corpus | crashes (unique) | ran |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
  } >"$summary"
  shift
  for t in "$@"; do
    corpus_files=$(find "$corp/$t" -type f 2>/dev/null | wc -l)
    mapfile -t crashes < <(find "$art/$t" -type f -name 'crash-*' 2>/dev/null | sort)
    declare -A seen=()
    unique=0
    for crash in "${crashes[@]}"; do
      # One finding per kind: the panic's location and the start of its message, without the
      # data (every disagreement prints a different board).
      message=$(RUST_BACKTRACE=0 job "$t" "$bin/$(kind "$t")" "$crash" 2>&1 | grep -m1 -A1 'panicked at' | sed -E 's/^thread .* panicked at //; s/[(":].*$//' | tr '\n' ' ' | cut -c1-160 || true)
      [[ -n "${seen[$message]:-}" ]] && continue
      seen[$message]=1
      unique=$((unique + 1))
      # libFuzzer's crash minimisation, straight (`cargo fuzz tmin` writes into
      # artifacts/KIND/, shared by every problem, where a report looking in artifacts/JOB/
      # never found it).
      minimised=$art/$t/minimized-$(basename "$crash")
      job "$t" "$bin/$(kind "$t")" -minimize_crash=1 -runs=20000 -exact_artifact_path="$minimised" "$crash" \
        >"$report/logs/$t-tmin-$unique.log" 2>&1 || true
      [[ -s $minimised ]] && input=$minimised || input=$crash
      shown=$(RUST_BACKTRACE=0 job "$t" "$bin/$(kind "$t")" "$input" 2>&1 | sed -n '/panicked at/,/^note:/p' | head -n 40 || true)
      [[ $input == /* ]] || input=fuzz/$input
      findings+=$'\n'"## $t: $message"$'\n\n'"minimised input: \`$input\`"$'\n\n```\n'"$shown"$'\n```\n'
    done
    unset seen
    rate=$(( ${runtime[$t]:-0} > 0 ? ${executions[$t]:-0} / ${runtime[$t]} : 0 ))
    ran=yes; [[ -z ${failed[$t]:-} ]] || ran=no
    echo "$t,${runtime[$t]:-0},${executions[$t]:-0},$rate,${coverage[$t]:-0},$corpus_files,${#crashes[@]},$unique,$ran" >>"$csv"
    echo "| $t | ${runtime[$t]:-0} | $rate | ${coverage[$t]:-0} | $corpus_files | ${#crashes[@]} ($unique) | $ran |" >>"$summary"
  done
  {
    echo
    if [[ -z "$findings" ]]; then echo "No findings."; else echo "# Findings"; echo "$findings"; fi
  } >>"$summary"
}

# --- merge the shards of DIR -------------------------------------------------------------
if [[ -n $merge ]]; then
  phase="merging the shards of $merge"
  [[ -d $merge ]] || usage "--merge: no folder '$merge'"
  mapfile -t shards < <(find "$merge" -mindepth 1 -maxdepth 1 -type d -regex '.*/shard-[0-9]+-of-[0-9]+' | sort -V)
  ((${#shards[@]})) || { echo "overnight.sh: no shard-K-of-N folders in $merge" >&2; exit 2; }
  total=${shards[0]##*-of-}
  trouble=()
  for ((s = 1; s <= total; s++)); do
    name=shard-$s-of-$total
    [[ -d $merge/$name ]] && continue
    if [[ -d $merge/$name.failed ]]; then trouble+=("shard $s/$total: failed (a job did not run; $merge/$name.failed)")
    elif [[ -d $merge/$name.interrupted ]]; then trouble+=("shard $s/$total: interrupted ($merge/$name.interrupted)")
    else trouble+=("shard $s/$total: missing"); fi
  done
  for s in "${shards[@]}"; do [[ $s == *-of-$total ]] || trouble+=("$(basename "$s"): a shard of another campaign size"); done
  if ((${#trouble[@]})); then
    echo "overnight.sh: $merge: not every shard is complete:" >&2
    printf '  %s\n' "${trouble[@]}" >&2
    exit 2
  fi
  jobs=()
  for s in "${shards[@]}"; do
    while IFS=, read -r t secs execs _; do
      [[ $t == target ]] && continue
      [[ -n ${runtime[$t]+x} ]] || { jobs+=("$t"); runtime[$t]=0; executions[$t]=0; }
      runtime[$t]=$(( ${runtime[$t]} + secs )); executions[$t]=$(( ${executions[$t]} + execs ))
    done <"$s/report.csv"
  done
  report=$merge corp=$kept art=$merge/artifacts
  mkdir -p "$report/logs"
  for t in "${jobs[@]}"; do
    mkdir -p "$kept/$t" "$art/$t"
    dirs=()
    for s in "${shards[@]}"; do [[ -d $s/corpus/$t ]] && dirs+=("$s/corpus/$t"); done
    minimise_corpus "$t" "$kept/$t" "$report/logs/$t-merge.log" "${dirs[@]}"
    coverage[$t]=$(job "$t" "$bin/$(kind "$t")" -runs=0 "$kept/$t" 2>&1 | sed -nE 's/.*INITED cov: ([0-9]+).*/\1/p' | tail -n 1)
    for s in "${shards[@]}"; do
      [[ -d $s/artifacts/$t ]] && find "$s/artifacts/$t" -maxdepth 1 -type f -exec cp -n -t "$art/$t" {} +
    done
  done
  write_report "$total shards merged from $merge: seconds and executions summed over shards, coverage of the merged corpus." "${jobs[@]}"
  echo "report: $report/summary.md and report.csv; corpora merged into $( [[ $kept == corpus ]] && echo fuzz/corpus || echo "$kept")/"
  cat "$report/summary.md"
  exit 0
fi

# --- run ----------------------------------------------------------------------------------
if [[ -n $sharded ]]; then
  final=$out/shard-$k-of-$n
  [[ ! -e $final ]] || { echo "overnight.sh: $final exists: shard $k of $n is done (remove it to run it again)" >&2; exit 2; }
  mkdir -p "$out"
  report=$out/.shard-$k-of-$n.tmp-$(hostname -s 2>/dev/null || echo host)-$$
  corp=$report/corpus art=$report/artifacts
elif [[ -n $out ]]; then
  # Everything of this night under OUT (the kept corpora excepted: FUZZ_CORPUS).
  report=$out corp=$kept art=$out/artifacts
else
  report=reports/$stamp
  corp=$kept art=artifacts
fi
mkdir -p "$report/logs"

# Ctrl-C, SIGTERM (a Slurm time limit, scancel): stop the fuzzers, keep what was done under a
# name that is not a complete shard's, exit 2.
seeds=
running=()
interrupted() {
  trap - INT TERM
  ((${#running[@]})) && kill -TERM "${running[@]}" 2>/dev/null
  wait 2>/dev/null || true
  [[ -n $tty ]] && printf '\r\033[K' >&2
  if [[ -n $sharded ]]; then
    rm -rf "$out/shard-$k-of-$n.interrupted"
    mv -T "$report" "$out/shard-$k-of-$n.interrupted" 2>/dev/null && report=$out/shard-$k-of-$n.interrupted
  fi
  echo "overnight.sh: interrupted: the fuzzers were stopped; what was done is in $report" >&2
  exit 2
}
trap interrupted INT TERM
trap '[[ -n $seeds ]] && rm -rf "$seeds"' EXIT

# Seed corpora: every test of a generated test set, as raw bytes for the parse targets and as
# text-mode inputs ("T" + text) for the differential ones. A shard starts from a copy of the
# kept corpus of its jobs.
seeds=$(mktemp -d)
for t in "${targets[@]}"; do
  problem=${t#*-}
  mkdir -p "$corp/$t" "$art/$t"
  [[ $corp == "$kept" || ! -d $kept/$t ]] || cp -r "$kept/$t/." "$corp/$t/"
  [[ -d $seeds/$problem ]] || "$judge" testset "$problem" --seed 1 --out "$seeds/$problem" 2>/dev/null
  case $(kind "$t") in
    parse) for f in "$seeds/$problem"/*.in; do cp "$f" "$corp/$t/seed-$(basename "$f" .in)"; done ;;
    differential) for f in "$seeds/$problem"/*.in; do { printf 'T'; cat "$f"; } >"$corp/$t/seed-$(basename "$f" .in)"; done ;;
  esac
done

rounds=$(( seconds >= 4 * 3600 ? 8 : (seconds >= 1800 ? 4 : 1) ))
batches=$(( (${#targets[@]} + cores - 1) / cores ))
slice=$(( seconds / rounds / batches ))
((slice >= 5)) || slice=5
planned=$(( rounds * batches * slice ))
echo "fuzzing ${#targets[@]} targets for ${seconds}s$( ((n > 1)) && echo " (shard $k of $n)"): $rounds rounds, $cores at a time, ${slice}s each per round"

for t in "${targets[@]}"; do runtime[$t]=0; executions[$t]=0; coverage[$t]=0; done
started=$SECONDS
clock() { printf '%d:%02d:%02d' $(($1 / 3600)) $(($1 / 60 % 60)) $(($1 % 60)); }

for ((round = 1; round <= rounds; round++)); do
  for ((i = 0, batch = 1; i < ${#targets[@]}; i += cores, batch++)); do
    declare -A pid=()
    running=()
    for t in "${targets[@]:i:cores}"; do
      log="$report/logs/$t-round$round.log"
      # A simple command (not the `job` function), so that $! is the fuzzer itself and an
      # interruption can stop it.
      BOARDJUDGE_PROBLEM=${t#*-} "$bin/$(kind "$t")" "$corp/$t" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 \
        -ignore_ooms=1 -max_total_time="$slice" -artifact_prefix="$art/$t/" -print_final_stats=1 >"$log" 2>&1 &
      pid[$t]=$!
      running+=("$!")
    done
    if [[ -n $tty ]]; then
      while [[ -n $(jobs -rp) ]]; do
        left=$(( planned - (SECONDS - started) )); ((left > 0)) || left=0
        printf '\r\033[Kround %d of %d, batch %d of %d (%s): %s left' "$round" "$rounds" "$batch" "$batches" \
          "${targets[*]:i:cores}" "$(clock "$left")" >&2
        sleep 1
      done
    fi
    for t in "${targets[@]:i:cores}"; do
      rc=0
      wait "${pid[$t]}" || rc=$?
      log="$report/logs/$t-round$round.log"
      # Fork mode reports "#N: cov: C ft: F corp: K exec/s: E ... time: Ts".
      last=$(grep -E '^#[0-9]+: cov: ' "$log" | tail -n 1 || true)
      runs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
      cov=$(sed -E 's/.* cov: ([0-9]+).*/\1/' <<<"$last")
      if [[ -z $last ]] && ! grep -q 'INITED' "$log"; then
        # Nothing fuzzed: a job that did not run makes the night a failure.
        failed[$t]+="round $round exited $rc without fuzzing (logs/$(basename "$log"): $(tail -n 1 "$log" | cut -c1-120)); "
        continue
      fi
      executions[$t]=$(( ${executions[$t]} + ${runs:-0} ))
      runtime[$t]=$(( ${runtime[$t]} + slice ))
      (( ${cov:-0} > ${coverage[$t]} )) && coverage[$t]=$cov
    done
    running=()
    unset pid
  done
  # Keep each corpus small: the inputs that add coverage, into a fresh folder.
  for t in "${targets[@]}"; do
    [[ -n ${failed[$t]:-} ]] || minimise_corpus "$t" "$corp/$t" "$report/logs/$t-cmin-round$round.log"
  done
  [[ -n $tty ]] && printf '\r\033[Kround %d of %d done, %s left\n' "$round" "$rounds" \
    "$(clock $(( planned - (SECONDS - started) > 0 ? planned - (SECONDS - started) : 0 )))" >&2
done
trap - INT TERM

write_report "${seconds}s in $rounds rounds on $cores cores, \`cargo fuzz run -s none\` (stable)$( ((n > 1)) && echo ", shard $k of $n")." "${targets[@]}"
status=0
for t in "${targets[@]}"; do [[ -z ${failed[$t]:-} ]] || status=2; done
if [[ -n $sharded ]]; then
  # Atomic: a shard folder exists only once it is complete.
  if ((status == 0)); then final=$out/shard-$k-of-$n; else final=$out/shard-$k-of-$n.failed; rm -rf "$final"; fi
  mv -T "$report" "$final"
  report=$final
fi
[[ $report == /* ]] && shown=$report || shown=fuzz/$report
echo "report: $shown/summary.md and report.csv"
cat "$report/summary.md"
if ((status)); then
  echo "overnight.sh: FAILED: not every job ran (see the report)" >&2
fi
exit "$status"
