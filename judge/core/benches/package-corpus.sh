#!/usr/bin/env bash
# The public package corpus (issue 31, "Measure"): problemtools' `examples/` and BAPCtools'
# `test/problems/`, every package judged by `judge verify` and by the tool its authors run it
# with (`bt run` for BAPCtools' 2025-09 packages; `verifyproblem -p submissions` for
# problemtools' legacy and 2023-07-draft ones, which `bt` does not read), on the same machine
# in one session, interleaved package by package (the order of the two swapped every round).
# It prints, per package: the jury submissions, how many each tool judged and how many got
# the verdict the package declares, and the wall time of each; then the totals and the load.
#
# Usage: judge/core/benches/package-corpus.sh [OUT_DIR]   (from the repository root)
# Environment (each optional; what is missing is skipped, saying so):
#   PROBLEMTOOLS_SRC  problemtools' git directory or checkout (else the mirror, else skipped)
#   BAPCTOOLS_SRC     BAPCtools' git directory or checkout (else the mirror, else skipped)
#   TOOLS             folder with bt, verifyproblem, pyctd (default $BOARDJUDGE_PACKAGE_TOOLS,
#                     else target/package-tools/bin, the venv CI sets up)
#   JUDGE             the judge binary (default: target/release/judge, built first)
#   PYTHON2_HOME      a Python 2 install (default: the newest ~/.pyenv/versions/2.7*), shown
#                     to the sandbox so legacy python2 submissions run as problemtools runs them
#   JOBS              parallel runs for both tools (default 2)
#   ROUNDS            timing rounds (default 2); the verdicts are those of round 1
#   PACKAGES          an extended regular expression the names must match (`pt-hello`,
#                     `bt-guess`; default: all), e.g. 'bt-(guess|hello)$' for a short session
# Nothing fetched is kept in the repository: the corpora are exported into OUT_DIR/corpus.
# BAPCtools' validators link their header to bapctools/resources/headers, outside the package:
# the judge follows those links only because this script names that folder
# (`--allow-links-into`).
set -euo pipefail
out=$(realpath -m "${1:-target/package-corpus}")
jobs=${JOBS:-2}
rounds=${ROUNDS:-2}
tools=${TOOLS:-${BOARDJUDGE_PACKAGE_TOOLS:-$PWD/target/package-tools/bin}}
if [ -z "${JUDGE:-}" ]; then
  cargo build --release --quiet --bin judge
  JUDGE=$PWD/target/release/judge
fi
mirror=/work/.mirror
pt_src=${PROBLEMTOOLS_SRC:-$mirror/Kattis+problemtools/repo}
bt_src=${BAPCTOOLS_SRC:-$mirror/RagnarGrootKoerkamp+BAPCtools/repo}

rm -rf "$out/corpus" "$out/runs"
mkdir -p "$out/corpus/pt" "$out/corpus/bt" "$out/runs" "$out/home"
real_home=$HOME
# bt remembers problem uuids under XDG_CONFIG_HOME: a private one per session.
export XDG_CONFIG_HOME=$out/home HOME=$out/home
# rustup finds its toolchains through HOME: keep the real ones (else Rust submissions are
# skipped, "rustup does not say where its toolchain is").
export RUSTUP_HOME=${RUSTUP_HOME:-$real_home/.rustup} CARGO_HOME=${CARGO_HOME:-$real_home/.cargo}

# Exports folders PATHS of SRC (a git directory or a checkout) into DEST.
export_from() {
  local src=$1 dest=$2
  shift 2
  if git --git-dir="$src" rev-parse HEAD >/dev/null 2>&1; then
    echo "  $(basename "$(dirname "$src")")@$(git --git-dir="$src" rev-parse --short HEAD)"
    git --git-dir="$src" archive HEAD "$@" | tar -x -C "$dest"
  elif [ -d "$src/.git" ] || [ -d "$src/$1" ]; then
    echo "  $src"
    for p in "$@"; do mkdir -p "$dest/$(dirname "$p")" && cp -a "$src/$p" "$dest/$p"; done
  else
    return 1
  fi
}
echo "corpora:"
export_from "$pt_src" "$out/corpus/pt" examples ||
  echo "  skipped problemtools: no $pt_src (set PROBLEMTOOLS_SRC; https://github.com/Kattis/problemtools)"
# BAPCtools' test packages link their validators' header to bapctools/resources/headers.
export_from "$bt_src" "$out/corpus/bt" test/problems bapctools/resources/headers ||
  echo "  skipped BAPCtools: no $bt_src (set BAPCTOOLS_SRC; https://github.com/RagnarGrootKoerkamp/BAPCtools)"

# The judge refuses a package's links out of the package; the user names the one folder they
# may lead into (BAPCtools' shared validator headers), as a user of those packages would.
allow_links=()
headers=$out/corpus/bt/bapctools/resources/headers
[ -d "$headers" ] && allow_links=(--allow-links-into "$headers")

have() { [ -x "$tools/$1" ]; }
for tool in bt verifyproblem pyctd; do
  have "$tool" || echo "missing $tools/$tool: its column is left empty"
done
if have pyctd; then export BOARDJUDGE_PYCTD=$tools/pyctd; fi
export PATH=$tools:$PATH
py2=${PYTHON2_HOME:-$(ls -d "$real_home"/.pyenv/versions/2.7* 2>/dev/null | tail -1 || true)}
if [ -n "$py2" ] && [ -x "$py2/bin/python2" ]; then
  export PATH=$py2/bin:$PATH BOARDJUDGE_TOOLCHAIN_PATHS=$py2${BOARDJUDGE_TOOLCHAIN_PATHS:+:$BOARDJUDGE_TOOLCHAIN_PATHS}
  echo "python2: $py2"
else
  echo "python2: none (legacy python2 submissions are skipped by the judge, saying why)"
fi

packages=()
for p in "$out"/corpus/pt/examples/*/ "$out"/corpus/bt/test/problems/*/; do
  [ -f "$p/problem.yaml" ] || continue
  case $p in */corpus/pt/*) name=pt-$(basename "$p") ;; *) name=bt-$(basename "$p") ;; esac
  echo "$name" | grep -Eq "${PACKAGES:-.}" && packages+=("${p%/}")
done
# Test data BAPCtools keeps only as generators.yaml is generated first (not timed).
if have bt; then
  for p in "${packages[@]}"; do
    if [ -f "$p/generators/generators.yaml" ]; then
      (cd "$p" && bt generate --no-bar >"$out/runs/$(basename "$p").generate.txt" 2>&1) ||
        echo "bt generate failed in $p (see runs/)"
    fi
  done
fi

name_of() { case $1 in */corpus/pt/*) echo "pt-$(basename "$1")" ;; *) echo "bt-$(basename "$1")" ;; esac; }
now() { date +%s.%N; }
# Runs one tool on one package; appends "round name tool seconds exit load" to times.tsv.
run_one() {
  local round=$1 p=$2 tool=$3 name start rc=0 load
  name=$(name_of "$p")
  load=$(cut -d' ' -f1 /proc/loadavg)
  start=$(now)
  case $tool in
    judge)
      "$JUDGE" verify "$p" "${allow_links[@]}" --jobs "$jobs" --report "$out/runs/$name.judge.$round.json" \
        >"$out/runs/$name.judge.$round.txt" 2>&1 || rc=$?
      ;;
    bt)
      (cd "$p" && timeout 1800 "$tools/bt" run --no-bar --jobs "$jobs") \
        >"$out/runs/$name.bt.$round.txt" 2>&1 || rc=$?
      ;;
    verifyproblem)
      timeout 1800 "$tools/verifyproblem" "$p" -p submissions \
        >"$out/runs/$name.verifyproblem.$round.txt" 2>&1 || rc=$?
      ;;
  esac
  printf '%s\t%s\t%s\t%.2f\t%s\t%s\n' "$round" "$name" "$tool" "$(echo "$(now) - $start" | bc)" \
    "$rc" "$load" >>"$out/times.tsv"
}

printf 'round\tpackage\ttool\tseconds\texit\tload\n' >"$out/times.tsv"
uptime | tee "$out/load-before.txt"
for round in $(seq 1 "$rounds"); do
  for p in "${packages[@]}"; do
    case $p in */corpus/pt/*) other=verifyproblem ;; *) other=bt ;; esac
    order=(judge "$other")
    [ $((round % 2)) = 0 ] && order=("$other" judge)
    for tool in "${order[@]}"; do
      if [ "$tool" = judge ] || have "$tool"; then run_one "$round" "$p" "$tool"; fi
    done
  done
done
uptime | tee "$out/load-after.txt"

python3 - "$out" <<'PY'
import json, re, sys, pathlib, collections
out = pathlib.Path(sys.argv[1])
runs = out / "runs"
times = collections.defaultdict(list)
loads = []
for line in (out / "times.tsv").read_text().splitlines()[1:]:
    rnd, name, tool, seconds, code, load = line.split("\t")
    times[(name, "judge" if tool == "judge" else "other")].append(float(seconds))
    loads.append(float(load))

def judge_counts(name):
    """(submissions, judged, matching, exit note) from the judge's JSON report of round 1."""
    report = runs / f"{name}.judge.1.json"
    if not report.exists():
        text = (runs / f"{name}.judge.1.txt").read_text().strip().splitlines()
        why = next((l for l in reversed(text) if "error" in l), text[-1] if text else "?")
        return None, 0, 0, why[:110]
    data = json.loads(report.read_text())
    rows = data["submissions"]
    return len(rows) + len(data["skipped"]), len(rows), sum(r["matches"] for r in rows), ""

RESULT = re.compile(r"^(\S+?):\s+(AC|WA|TLE|RTE|MLE|OLE|CE|JE|VALIDATOR_CRASH|COMPILER_ERROR)\s+[\d.]+s")
MISMATCH = re.compile(r"^(\S+?):\s+(required|permitted)\b.*got")
def bt_counts(name):
    path = runs / f"{name}.bt.1.txt"
    if not path.exists():
        return None
    judged, wrong = set(), set()
    for line in path.read_text(errors="replace").splitlines():
        if m := RESULT.match(line):
            judged.add(m[1])
            # A mismatch may also be said on the result's own line: `… permitted: [AC]  why`.
            if re.search(r"\s(permitted|required): \[", line):
                wrong.add(m[1])
        elif m := MISMATCH.match(line):
            wrong.add(m[1])
    return len(judged), len(judged - wrong)

VP_OK = re.compile(r"^\s+(\S+) \(.*\) OK(: | with extra time)")
VP_GOT = re.compile(r"^ERROR (\S+) \(.*\) got ")
def verifyproblem_counts(name):
    """(judged, as declared): problemtools' `OK` lines and its `got` errors."""
    path = runs / f"{name}.verifyproblem.1.txt"
    if not path.exists():
        return None
    ok, judged = set(), set()
    for line in path.read_text(errors="replace").splitlines():
        if m := VP_OK.match(line):
            ok.add(m[1]); judged.add(m[1])
        elif m := VP_GOT.match(line):
            judged.add(m[1])
    return len(judged), len(ok)

rows = []
names = sorted({n for n, _ in times}, key=lambda n: (not n.startswith("pt-"), n))
totals = collections.Counter()
for name in names:
    subs, judged, matched, why = judge_counts(name)
    other = bt_counts(name) if name.startswith("bt-") else verifyproblem_counts(name)
    tool = "bt run" if name.startswith("bt-") else "verifyproblem"
    jt = times[(name, "judge")]
    ot = times[(name, "other")]
    med = lambda xs: sorted(xs)[len(xs) // 2] if xs else float("nan")
    rows.append((name, subs, judged, matched, tool, other, med(jt), med(ot), why))
    totals["subs"] += subs or 0
    totals["jm"] += matched
    if other:
        totals["om"] += other[1]
    totals["jt"] += med(jt)
    totals["ot"] += med(ot) if ot else 0

lines = ["| package | jury submissions | judge verify: as declared / judged | other tool | other: as declared / judged | judge s | other s | note |",
         "|---|---:|---:|---|---:|---:|---:|---|"]
for name, subs, judged, matched, tool, other, jt, ot, why in rows:
    o = f"{other[1]} / {other[0]}" if other else "—"
    lines.append(f"| {name} | {subs if subs is not None else '—'} | {matched} / {judged} | {tool} | {o} | {jt:.1f} | {ot:.1f} | {why} |")
lines.append(f"| **total** | {totals['subs']} | **{totals['jm']}** | | **{totals['om']}** | {totals['jt']:.1f} | {totals['ot']:.1f} | |")
table = "\n".join(lines)
(out / "table.md").write_text(table + "\n")
print(table)
if loads:
    print(f"\nload (1-minute average) at the runs' starts: {min(loads):.1f}-{max(loads):.1f}; "
          f"times are medians of {max(len(v) for v in times.values())} rounds")
PY
echo "runs, times.tsv and table.md: $out"
