#!/usr/bin/env bash
# Merged-campaign throughput: one run with --jobs 2 against a Slurm array of 4 shards
# (--jobs 1 each) and `judge merge`, alternating, ROUNDS times, on a running cluster
# (SLURM_CONF; .ci/slurm/start.sh DIR starts one). Prints one line per run with the load.
#
#   cargo build --release && .ci/slurm/measure.sh 3
set -euo pipefail
rounds=${1:-3}
here=$(cd "$(dirname "$0")/../.." && pwd -P)
judge=$here/target/release/judge
[[ -n ${SLURM_CONF:-} ]] || { echo "measure.sh: SLURM_CONF is not set (start a cluster first)" >&2; exit 2; }
work=$(mktemp -d /tmp/boardjudge-measure-XXXXXX)
trap 'rm -rf "$work"' EXIT
# The correct omok solver as a program (the judge under that name), for the sandboxed campaign.
ln -f "$judge" "$work/omok--fast" 2>/dev/null || cp "$judge" "$work/omok--fast"
declare -A campaign=(
  [in-process]="renju --seed 7 --cases 400000"
  [sandboxed]="omok --seed 1 --cases 12000 -- $work/omok--fast"
)
now() { date +%s.%N; }
load() { cut -d' ' -f1 /proc/loadavg; }
wait_array() { while [[ -n $(squeue -h -j "$1" 2>/dev/null) ]]; do sleep 0.1; done; }
for ((r = 1; r <= rounds; r++)); do
  for name in in-process sandboxed; do
    read -r problem rest <<<"${campaign[$name]}"
    opts=${rest%% -- *}
    sub=; [[ $rest == *" -- "* ]] && sub=${rest#* -- }
    cases=$(sed -E 's/.*--cases ([0-9]+).*/\1/' <<<"$opts")
    t0=$(now)
    # shellcheck disable=SC2086
    "$judge" stress "$problem" $opts --jobs 2 ${sub:+-- $sub} >"$work/single.txt"
    t1=$(now)
    printf 'round %d %-10s one run, --jobs 2:       %6.2f s  %7.0f cases/s  load %s\n' \
      "$r" "$name" "$(bc <<<"$t1 - $t0")" "$(bc <<<"$cases / ($t1 - $t0)")" "$(load)"
    dir=$work/shards-$r-$name
    t0=$(now)
    id=$(sbatch --parsable --array=1-4 -o "$work/out-%a.txt" \
      --wrap "exec $judge stress $problem $opts --jobs 1 --shard auto --save $dir ${sub:+-- $sub}")
    wait_array "${id%%;*}"
    t1=$(now)
    "$judge" merge "$dir" >"$work/merged.txt" 2>/dev/null
    t2=$(now)
    printf 'round %d %-10s 4 array tasks + merge:  %6.2f s  %7.0f cases/s  load %s  (merge %.2f s)\n' \
      "$r" "$name" "$(bc <<<"$t2 - $t0")" "$(bc <<<"$cases / ($t2 - $t0)")" "$(load)" "$(bc <<<"$t2 - $t1")"
    diff <(grep -v -e '^ran ' -e '^found after ' "$work/single.txt") \
         <(grep -v -e '^ran ' -e '^found after ' "$work/merged.txt") >/dev/null \
      || echo "    the merged result differs from the single run!"
  done
done
