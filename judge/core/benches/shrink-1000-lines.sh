#!/usr/bin/env bash
# Issue 32, "Measure": the generic shrinker's speed on a 1,000-line input. The sum-of-a-list
# package of tests/integration/package_stress.rs (its C input validator, accepted and wrong
# Python submissions, taken from that file), with a generator that writes n = 999 numbers
# below 10 but for one adjacent pair of at least 10: the wrong submission's bug needs 2 of the
# 1,000 lines, so the shrinker must remove the other 998 (and fix the count) through the
# validator. Prints, per round, the steps, the find and shrink times (the judge's own line)
# and the whole wall time; then, from one run under `strace -f -e trace=execve`, the
# candidates the shrinker had judged (the input validator's runs, less the generated input's
# one) and the candidates per second of the untraced rounds' shrink time.
#
# Usage: judge/core/benches/shrink-1000-lines.sh [OUT_DIR]   (from the repository root)
# Environment: JUDGE (default: target/release/judge, built first), ROUNDS (default 3),
# JOBS (default 2).
set -euo pipefail
repo=$PWD
out=$(realpath -m "${1:-target/shrink-1000-lines}")
rounds=${ROUNDS:-3}
jobs=${JOBS:-2}
if [ -z "${JUDGE:-}" ]; then
  cargo build --release --quiet --bin judge
  JUDGE=$PWD/target/release/judge
fi
rm -rf "$out"
mkdir -p "$out"
cd "$out"
python3 - "$repo/tests/integration/package_stress.rs" <<'EOF'
import os, re, sys
source = open(sys.argv[1]).read()
def const(name):
    raw = re.search(r'const ' + name + r': &str = r#"(.*?)"#;', source, re.S)
    if raw:
        return raw.group(1)
    plain = re.search(r'const ' + name + r': &str = "(.*?)";', source, re.S)
    return plain.group(1).encode().decode('unicode_escape')
def write(path, text):
    os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
    open(path, 'w').write(text)
write('sum1000/problem.yaml',
      'problem_format_version: 2023-07-draft\nname: Sum of a list\nlimits:\n  time_limit: 2\n')
write('sum1000/statement/problem.en.tex', 'Add the numbers.\n')
write('sum1000/data/sample/1.in', '3\n1\n2\n3\n')
write('sum1000/data/sample/1.ans', '6\n')
write('sum1000/data/secret/1.in', '2\n5\n700\n')
write('sum1000/data/secret/1.ans', '705\n')
write('sum1000/input_validators/validate.c', const('VALIDATOR_C'))
write('sum1000/submissions/accepted/sum.py', const('ACCEPTED'))
write('sum1000/submissions/wrong_answer/adjacent.py', const('WRONG'))
write('gen1000.py', '''import random, sys
rng = random.Random(int(sys.argv[1]))
n = 999
v = [rng.randint(0, 9) for _ in range(n)]
k = rng.randrange(n - 1)
v[k] = rng.randint(10, 1000)
v[k + 1] = rng.randint(10, 1000)
print(n)
print("\\n".join(map(str, v)))
''')
EOF
stress() {
  "$JUDGE" stress sum1000 --seed 1 --cases 1 --jobs "$jobs" --generator 'gen1000.py {seed}' \
    --save "$1" -- sum1000/submissions/wrong_answer/adjacent.py
}
total_shrink=0
for round in $(seq "$rounds"); do
  start=$(date +%s.%N)
  code=0
  stress "round$round" >"round$round.out" 2>"round$round.err" || code=$?
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  [ "$code" = 1 ] || { echo "round $round: exit $code (expected a finding)"; exit 2; }
  steps=$(grep -o '^shrunk in [0-9]* steps' "round$round.out" | grep -o '[0-9]*')
  line=$(grep '^found after ' "round$round.out")
  shrink=$(sed -E 's/.*shrunk in ([0-9.]+) s more.*/\1/' <<<"$line")
  total_shrink=$(echo "$total_shrink + $shrink" | bc)
  echo "round $round: $(wc -l <"round$round/original.in") lines -> $(wc -l <"round$round/shrunk.in"), $steps steps; $line; wall $wall s"
done
strace -f -qq -e trace=execve -o traced.execve -- "$JUDGE" stress sum1000 --seed 1 --cases 1 \
  --jobs "$jobs" --generator 'gen1000.py {seed}' --save traced \
  -- sum1000/submissions/wrong_answer/adjacent.py >traced.out 2>traced.err || true
validator_runs=$(grep -c 'execve("/box/sol"' traced.execve || true)
candidates=$((validator_runs - 1))
echo "candidates judged (input validator runs less the generated input's): $candidates"
echo "candidates per second (mean shrink time of the untraced rounds): $(echo "scale=1; $candidates * $rounds / $total_shrink" | bc)"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ)"
