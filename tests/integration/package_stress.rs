//! `judge stress PKG`: a package's generator, input validator, reference and checker, through
//! the stress loop and the generic shrinker, on small packages made here: a sum of a list
//! (`n` then `n` numbers, one a line; a C input validator, a Python generator) whose wrong
//! submission needs two numbers of at least 10 next to each other, so that shrinking has
//! lines, a count and numbers to work on. Bad generators, validators and references are jury
//! errors (exit 2), never the submission's finding.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::util::{assert_no_panic, fresh_dir, judge, text, write_file};

pub(crate) const VALIDATOR_C: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* n (1..1000) on a line, then n numbers (0..1000) one a line, canonical, nothing else. */
static char buf[1 << 20];
static int number(const char **p, long lo, long hi, long *out) {
    const char *s = *p;
    if (*s < '0' || *s > '9') return 0;
    if (*s == '0' && s[1] >= '0' && s[1] <= '9') return 0;
    long v = 0;
    while (*s >= '0' && *s <= '9') { v = v * 10 + (*s - '0'); if (v > hi) return 0; s++; }
    if (*s != '\n' || v < lo) return 0;
    *p = s + 1; *out = v; return 1;
}
int main(void) {
    size_t len = fread(buf, 1, sizeof buf - 1, stdin);
    buf[len] = 0;
    if (strlen(buf) != len) { fprintf(stderr, "a NUL byte\n"); return 43; }
    const char *p = buf; long n, v;
    if (!number(&p, 1, 1000, &n)) { fprintf(stderr, "bad count\n"); return 43; }
    for (long i = 0; i < n; i++)
        if (!number(&p, 0, 1000, &v)) { fprintf(stderr, "bad number %ld\n", i + 1); return 43; }
    if (*p) { fprintf(stderr, "more than %ld numbers\n", n); return 43; }
    return 42;
}
"#;

pub(crate) const GENERATOR: &str = r#"import random, sys
rng = random.Random(int(sys.argv[1]))
n = rng.randint(1, 30)
print(n)
for _ in range(n):
    print(rng.randint(0, 1000) if rng.random() < 0.3 else rng.randint(0, 9))
"#;

pub(crate) const ACCEPTED: &str = "n = int(input())\nprint(sum(int(input()) for _ in range(n)))\n";

pub(crate) const WRONG: &str = r#"# One too many when two numbers of at least 10 follow each other.
n = int(input())
v = [int(input()) for _ in range(n)]
print(sum(v) + any(a >= 10 and b >= 10 for a, b in zip(v, v[1:])))
"#;

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    fresh_dir("package-stress", name)
}

fn write(path: &Path, contents: &str) {
    write_file(path, contents)
}

/// The sum-of-a-list package in `dir/sumlist`, with the generator `gen.py` beside it.
fn sum_package(dir: &Path) -> PathBuf {
    let pkg = dir.join("sumlist");
    write(
        &pkg.join("problem.yaml"),
        "problem_format_version: 2023-07-draft\nname: Sum of a list\nlimits:\n  time_limit: 2\n",
    );
    write(&pkg.join("statement/problem.en.tex"), "Add the numbers.\n");
    write(&pkg.join("data/sample/1.in"), "3\n1\n2\n3\n");
    write(&pkg.join("data/sample/1.ans"), "6\n");
    write(&pkg.join("data/secret/1.in"), "2\n5\n700\n");
    write(&pkg.join("data/secret/1.ans"), "705\n");
    write(&pkg.join("input_validators/validate.c"), VALIDATOR_C);
    write(&pkg.join("submissions/accepted/sum.py"), ACCEPTED);
    write(&pkg.join("submissions/wrong_answer/adjacent.py"), WRONG);
    write(&dir.join("gen.py"), GENERATOR);
    pkg
}

/// `judge stress ARGS` in `dir`.
fn stress(dir: &Path, args: &[&str]) -> Output {
    let out = judge()
        .current_dir(dir)
        .arg("stress")
        .args(args)
        .output()
        .expect("run judge");
    assert_no_panic(&out);
    out
}

/// Standard output without its timings line (the one line that differs between runs).
fn without_timings(out: &Output) -> String {
    text(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with("found after ") && !l.starts_with("ran "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Is `input` a valid input of the sum-of-a-list problem (the C validator's rule)?
pub(crate) fn valid(input: &str) -> bool {
    let Some(body) = input.strip_suffix('\n') else {
        return false;
    };
    let lines: Vec<&str> = body.split('\n').collect();
    let canonical = |l: &str, hi: u32| {
        l.parse::<u32>()
            .is_ok_and(|v| v <= hi && v.to_string() == l)
    };
    canonical(lines[0], 1000)
        && lines[0] != "0"
        && lines.len() == lines[0].parse::<usize>().unwrap() + 1
        && lines[1..].iter().all(|l| canonical(l, 1000))
}

#[test]
fn a_disagreement_is_found_shrunk_to_its_minimal_valid_form_and_replays() {
    let dir = scratch("find");
    sum_package(&dir);
    let save = dir.join("found");
    let args = [
        "sumlist",
        "--seed",
        "1",
        "--cases",
        "200",
        "--generator",
        "gen.py {seed}",
        "--save",
        save.to_str().unwrap(),
        "--jobs",
        "2",
        "--",
        "sumlist/submissions/wrong_answer/adjacent.py",
    ];
    let out = stress(&dir, &args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(stdout.starts_with("DISAGREEMENT at case "), "{stdout}");
    assert!(stdout.contains("(generator: seed "), "{stdout}");
    assert!(stdout.contains("1-minimal"), "{stdout}");
    // The minimal form: two numbers, both the smallest that trigger the bug, the count kept
    // matching; expected vs got shown.
    let shrunk = std::fs::read_to_string(save.join("shrunk.in")).unwrap();
    assert_eq!(shrunk, "2\n10\n10\n");
    assert!(stdout.contains("expected 20\n  got      21\n"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(save.join("shrunk.ans")).unwrap(),
        "20\n"
    );
    assert_eq!(
        std::fs::read_to_string(save.join("shrunk.got")).unwrap(),
        "21\n"
    );
    let original = std::fs::read_to_string(save.join("original.in")).unwrap();
    assert!(valid(&original) && valid(&shrunk), "{original}");
    assert!(shrunk.len() <= original.len());
    // A package has no corpus entry and no picture.
    assert!(!save.join("case.toml").exists() && !save.join("shrunk.svg").exists());

    // The replay line finds the same case and shrinks it the same way, with one job too.
    let replay = stdout
        .lines()
        .find_map(|l| l.strip_prefix("replay: "))
        .expect("a replay line")
        .to_string();
    assert!(replay.contains("--generator 'gen.py {seed}'"), "{replay}");
    let judge_bin = env!("CARGO_BIN_EXE_judge");
    let replayed = std::process::Command::new("sh")
        .current_dir(&dir)
        .arg("-c")
        .arg(format!(
            "{judge_bin} {}",
            // One job: the finding and its shrinking do not depend on the jobs.
            replay
                .strip_prefix("judge ")
                .unwrap()
                .replacen(" -- ", " --jobs 1 -- ", 1)
        ))
        .output()
        .unwrap();
    assert_eq!(
        replayed.status.code(),
        Some(1),
        "{}",
        text(&replayed.stderr)
    );
    assert_eq!(without_timings(&replayed), {
        // The saved run also said where it saved.
        without_timings(&out)
            .lines()
            .filter(|l| !l.starts_with("saved to "))
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    });
}

#[test]
fn an_agreeing_submission_passes_and_shards_merge_into_the_single_run() {
    let dir = scratch("agree");
    sum_package(&dir);
    let out = stress(
        &dir,
        &[
            "sumlist",
            "--seed",
            "3",
            "--cases",
            "6",
            "--generator",
            "gen.py {seed}",
            "--",
            "sumlist/submissions/accepted/sum.py",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with(
            "no disagreement: the submission agrees with the reference on 6 cases of sumlist"
        ),
        "{}",
        text(&out.stdout)
    );

    // Two shards of one campaign, merged: the single run's finding.
    let common = [
        "sumlist",
        "--seed",
        "1",
        "--cases",
        "40",
        "--generator",
        "gen.py {seed}",
    ];
    let single = stress(
        &dir,
        &[
            &common[..],
            &["--", "sumlist/submissions/wrong_answer/adjacent.py"],
        ]
        .concat(),
    );
    assert_eq!(single.status.code(), Some(1), "{}", text(&single.stderr));
    let shards = dir.join("shards");
    for shard in ["1/2", "2/2"] {
        let out = stress(
            &dir,
            &[
                &common[..],
                &[
                    "--shard",
                    shard,
                    "--save",
                    shards.to_str().unwrap(),
                    "--",
                    "sumlist/submissions/wrong_answer/adjacent.py",
                ],
            ]
            .concat(),
        );
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            text(&out.stderr)
        );
    }
    let merged = judge()
        .current_dir(&dir)
        .args(["merge", shards.to_str().unwrap()])
        .output()
        .unwrap();
    assert_no_panic(&merged);
    assert_eq!(merged.status.code(), Some(1), "{}", text(&merged.stderr));
    assert_eq!(without_timings(&merged), without_timings(&single));
}

/// Runs the wrong submission against a broken jury: a jury error (exit 2) that says `says`.
fn assert_jury_error(dir: &Path, extra: &[&str], says: &str) {
    assert_jury_error_saying(dir, extra, &[says]);
}

/// [`assert_jury_error`] with every one of `says` in the message.
fn assert_jury_error_saying(dir: &Path, extra: &[&str], says: &[&str]) {
    let out = stress(
        dir,
        &[
            &["sumlist", "--seed", "1", "--cases", "20"][..],
            extra,
            &["--", "sumlist/submissions/wrong_answer/adjacent.py"],
        ]
        .concat(),
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
    assert!(stderr.contains("jury error"), "{extra:?}: {stderr}");
    for says in says {
        assert!(stderr.contains(says), "{extra:?}: {stderr}");
    }
    assert!(!text(&out.stdout).contains("DISAGREEMENT"), "{extra:?}");
}

#[test]
fn bad_generators_validators_and_references_are_jury_errors() {
    let dir = scratch("bad");
    let pkg = sum_package(&dir);
    write(&dir.join("invalid_gen.py"), "import sys\nprint(0)\n");
    write(&dir.join("crash_gen.py"), "import sys\nsys.exit(3)\n");
    write(
        &dir.join("broken_gen.c"),
        "int main(void) { return syntax error; }\n",
    );
    write(
        &dir.join("bad_reference.py"),
        "import sys\nn = int(input())\nsys.exit(1)\n",
    );
    assert_jury_error(
        &dir,
        &["--generator", "invalid_gen.py {seed}"],
        "the generator's fault",
    );
    assert_jury_error(
        &dir,
        &["--generator", "crash_gen.py {seed}"],
        "exited with 3 on case 1",
    );
    assert_jury_error(
        &dir,
        &["--generator", "broken_gen.c {seed}"],
        "does not build",
    );
    assert_jury_error(
        &dir,
        &[
            "--generator",
            "gen.py {seed}",
            "--reference",
            "bad_reference.py",
        ],
        "the reference bad_reference.py got RE",
    );
    // The compiler's words and the build command are kept.
    write(
        &dir.join("broken_reference.c"),
        "int main(void) { return missing_name; }\n",
    );
    assert_jury_error_saying(
        &dir,
        &[
            "--generator",
            "gen.py {seed}",
            "--reference",
            "broken_reference.c",
        ],
        &[
            "the reference broken_reference.c does not build (",
            "missing_name",
        ],
    );
    // A generator without {seed} would repeat one case: refused before anything runs.
    let out = stress(
        &dir,
        &[
            "sumlist",
            "--seed",
            "1",
            "--generator",
            "gen.py 5",
            "--",
            "x.py",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no {seed}"),
        "{}",
        text(&out.stderr)
    );

    // An input validator that neither accepts nor rejects.
    std::fs::remove_file(pkg.join("input_validators/validate.c")).unwrap();
    write(
        &pkg.join("input_validators/validate.py"),
        "import sys\nsys.exit(1)\n",
    );
    assert_jury_error(
        &dir,
        &["--generator", "gen.py {seed}"],
        "(42 accepts, 43 rejects)",
    );
}

#[test]
fn a_custom_output_validator_judges_and_a_broken_one_is_a_jury_error() {
    let dir = scratch("custom");
    let pkg = sum_package(&dir);
    // Accepts any output within 1 of the answer: the wrong submission's off-by-one passes.
    write(
        &pkg.join("output_validator/validator.py"),
        "import sys\nans = int(open(sys.argv[2]).read())\nout = int(sys.stdin.read())\n\
         if abs(ans - out) <= 1: sys.exit(42)\n\
         open(sys.argv[3] + 'judgemessage.txt', 'w').write('far off')\nsys.exit(43)\n",
    );
    let out = stress(
        &dir,
        &[
            "sumlist",
            "--seed",
            "1",
            "--cases",
            "30",
            "--generator",
            "gen.py {seed}",
            "--",
            "sumlist/submissions/wrong_answer/adjacent.py",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    write(
        &pkg.join("output_validator/validator.py"),
        "import sys\nsys.exit(7)\n",
    );
    assert_jury_error(&dir, &["--generator", "gen.py {seed}"], "output validator");
}

#[test]
fn interactive_packages_are_refused_with_a_reason() {
    let pkg =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("judge/package-format/tests/packages/guess");
    let dir = scratch("interactive");
    write(&dir.join("gen.py"), GENERATOR);
    let out = stress(
        &dir,
        &[
            pkg.to_str().unwrap(),
            "--seed",
            "1",
            "--generator",
            "gen.py {seed}",
            "--",
            "gen.py",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("an interactive problem"),
        "{}",
        text(&out.stderr)
    );
}

/// Issue 32.3: a package `judge package` exported carries its generator, so `judge stress` on it
/// needs no `--generator`: a known-wrong submission of the package is found and replayed.
#[test]
fn an_exported_package_is_stressed_with_the_generator_it_names() {
    let dir = scratch("exported");
    let out = judge()
        .current_dir(&dir)
        .args(["package", "othello-flips", "--out", "contest"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let package = dir.join("contest/othelloflips");
    assert!(package.join("generators/generators.yaml").is_file());
    let wrong = package.join("submissions/wrong_answer/chain-reaction.rs");
    assert!(wrong.is_file());
    let out = stress(
        &dir,
        &[
            "contest/othelloflips",
            "--seed",
            "1",
            "--cases",
            "300",
            "--save",
            "found",
            "--",
            "contest/othelloflips/submissions/wrong_answer/chain-reaction.rs",
        ],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    // Its input validator (a `build`/`run` folder) runs: every shrink candidate is checked,
    // and what is kept is valid.
    assert!(
        !text(&out.stderr).contains("not run"),
        "{}",
        text(&out.stderr)
    );
    assert!(!stdout.contains("(not shrunk)"), "{stdout}");
    let original = std::fs::read(dir.join("found/original.in")).unwrap();
    let shrunk = std::fs::read(dir.join("found/shrunk.in")).unwrap();
    assert!(shrunk.len() <= original.len());
    let valid = judge()
        .current_dir(&dir)
        .args(["validate", "contest/othelloflips", "found/shrunk.in"])
        .output()
        .unwrap();
    assert_eq!(valid.status.code(), Some(0), "{}", text(&valid.stderr));
    assert!(
        text(&out.stderr).contains("(the package's: generators/generators.yaml"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        stdout.contains("replay: judge stress contest/othelloflips --seed 1"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A package with no input validator the judge runs is not shrunk (nothing could keep a
/// candidate valid): it says so, and the finding says "not shrunk", not that a budget ran out.
#[test]
fn a_package_without_a_runnable_input_validator_is_not_shrunk_and_says_so() {
    let dir = scratch("no-validator");
    let pkg = sum_package(&dir);
    std::fs::remove_file(pkg.join("input_validators/validate.c")).unwrap();
    let out = stress(
        &dir,
        &[
            "sumlist",
            "--seed",
            "1",
            "--cases",
            "200",
            "--generator",
            "gen.py {seed}",
            "--",
            "sumlist/submissions/wrong_answer/adjacent.py",
        ],
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("no input validator the judge runs"),
        "{stderr}"
    );
    assert!(
        stdout.contains("shrunk in 0 steps (not shrunk):"),
        "{stdout}"
    );
    assert!(!stdout.contains("budget"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
