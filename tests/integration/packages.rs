//! Problem package folders as problems (`judge verify PKG`, `judge run PKG`, `judge validate
//! PKG`), on the example packages of `judge/package-format/tests/packages` (their observed
//! runs say what each submission gets) and on broken copies of them: a broken package is a
//! jury error (exit 2) naming the file and the reason, never a panic and never a contestant's
//! wrong answer.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::util::{assert_no_panic, judge, skipped, text};

const PACKAGES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/judge/package-format/tests/packages"
);

// Each submission's verdict on every test, as the package-format crate's tests record them.
include!("../../judge/package-format/tests/common/observed_runs.rs");

/// `pyctd` (PyPI checktestdata), which the `.ctd` input validators need: in the package tools'
/// folder (`BOARDJUDGE_PACKAGE_TOOLS`) or named by `BOARDJUDGE_PYCTD`.
fn pyctd() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("BOARDJUDGE_PYCTD") {
        return Some(path.into());
    }
    let tools = std::env::var_os("BOARDJUDGE_PACKAGE_TOOLS")?;
    Some(Path::new(&tools).join("pyctd")).filter(|p| p.is_file())
}

fn package_judge(args: &[&str]) -> Output {
    let mut command = judge();
    command.args(args);
    if let Some(pyctd) = pyctd() {
        command.env("BOARDJUDGE_PYCTD", pyctd);
    }
    let out = command.output().expect("run judge");
    assert_no_panic(&out);
    out
}

/// A fresh copy of example package `name` to break.
fn copy_of(name: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "boardjudge-packages-test-{}-{}/{name}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    copy_dir(&Path::new(PACKAGES).join(name), &dir);
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            copy_dir(&entry.path(), &target);
        } else if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).unwrap(), &target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn letter(verdict: &str) -> char {
    match verdict {
        "AC" => 'A',
        "WA" => 'W',
        "TLE" => 'T',
        "RE" => 'R',
        other => panic!("unexpected verdict {other}"),
    }
}

#[test]
fn every_example_package_gets_its_observed_verdicts() {
    if pyctd().is_none() {
        skipped("pyctd not found (BOARDJUDGE_PACKAGE_TOOLS or BOARDJUDGE_PYCTD)");
        return;
    }
    for name in [
        "distance", "divisor", "echo", "guess", "sum", "twopass", "remember",
    ] {
        let report = std::env::temp_dir().join(format!(
            "boardjudge-verify-{name}-{}.json",
            std::process::id()
        ));
        let dir = Path::new(PACKAGES).join(name);
        let out = package_judge(&[
            "verify",
            dir.to_str().unwrap(),
            "--jobs",
            "2",
            "--report",
            report.to_str().unwrap(),
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        let json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
        std::fs::remove_file(&report).unwrap();
        let rows = json["submissions"].as_array().unwrap();
        let observed: Vec<_> = OBSERVED_RUNS
            .iter()
            .filter(|(p, _, _)| *p == name)
            .collect();
        assert_eq!(rows.len(), observed.len(), "{name}: one row per submission");
        for (row, (_, submission, letters)) in rows.iter().zip(observed) {
            assert_eq!(row["path"], format!("submissions/{submission}"));
            // The ICPC rule: the first non-AC test's verdict, else AC.
            let first = letters.chars().find(|c| *c != 'A').unwrap_or('A');
            let verdict = row["verdict"].as_str().unwrap();
            assert_eq!(letter(verdict), first, "{name} {submission}: {row}");
            // Every test counted under its verdict.
            for (verdict, count) in row["tests"].as_object().unwrap() {
                let expected = letters.chars().filter(|c| *c == letter(verdict)).count();
                assert_eq!(
                    count.as_u64(),
                    Some(expected as u64),
                    "{name} {submission} {verdict}"
                );
            }
            assert_eq!(row["matches"], true, "{name} {submission}: {row}");
            assert!(row["expected"].as_array().is_some_and(|e| !e.is_empty()));
            assert!(row["max_cpu_ms"].is_u64());
        }
        assert!(json["problem"].is_string());
    }
}

/// `judge verify` on a broken copy of `name`: exit 2, stderr naming every one of `words`.
fn broken(name: &str, break_it: impl FnOnce(&Path), words: &[&str]) {
    let dir = copy_of(name);
    break_it(&dir);
    let out = package_judge(&["verify", dir.to_str().unwrap(), "--jobs", "2"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{words:?}: {stdout}{stderr}");
    for word in words {
        assert!(
            stderr.contains(word) || stdout.contains(word),
            "{word:?} missing: {stdout}{stderr}"
        );
    }
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

#[test]
fn a_broken_package_is_a_jury_error_naming_the_file_and_why() {
    broken(
        "distance",
        |d| std::fs::remove_file(d.join("problem.yaml")).unwrap(),
        &["problem.yaml", "missing"],
    );
    broken(
        "distance",
        |d| std::fs::write(d.join("problem.yaml"), "name: x\nlimits: [1\n").unwrap(),
        &["problem.yaml:"],
    );
    broken(
        "distance",
        |d| std::fs::remove_file(d.join("data/secret/02_random.ans")).unwrap(),
        &["02_random"],
    );
    // The package's own data rejected by its input validator.
    broken(
        "distance",
        |d| std::fs::write(d.join("data/secret/02_random.in"), "hello\n").unwrap(),
        &["02_random.in", "rejected by input_validators/validate.c"],
    );
    // Input validators that do not build, crash, or neither accept nor reject.
    broken(
        "distance",
        |d| {
            std::fs::write(
                d.join("input_validators/validate.c"),
                "int main( { return 42; }\n",
            )
            .unwrap()
        },
        &["input_validators/validate.c", "does not build"],
    );
    broken(
        "distance",
        |d| {
            std::fs::remove_file(d.join("input_validators/validate.c")).unwrap();
            std::fs::write(
                d.join("input_validators/validate.py"),
                "raise SystemExit('cannot read the input')\n",
            )
            .unwrap();
        },
        &[
            "input_validators/validate.py",
            "exited with 1",
            "cannot read the input",
        ],
    );
    broken(
        "distance",
        |d| {
            std::fs::remove_file(d.join("input_validators/validate.c")).unwrap();
            std::fs::write(d.join("input_validators/validate.py"), "pass\n").unwrap();
        },
        &[
            "input_validators/validate.py",
            "exited with 0",
            "42 accepts",
        ],
    );
    // A custom output validator that crashes: JE for every submission, never WA.
    broken(
        "divisor",
        |d| {
            std::fs::write(
                d.join("output_validators/divisor_checker.py"),
                "import sys\nsys.exit(3)\n",
            )
            .unwrap()
        },
        &[
            "JE",
            "output_validators/divisor_checker.py",
            "exited with 3",
        ],
    );
}

#[test]
fn run_judges_a_submission_with_the_package_data_limits_and_custom_validator() {
    let dir = Path::new(PACKAGES).join("divisor");
    let submission = dir.join("submissions/wrong_answer/divisor_up_to_1000.cc");
    let out = package_judge(&[
        "run",
        dir.to_str().unwrap(),
        "--jobs",
        "2",
        "--",
        submission.to_str().unwrap(),
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    // The validator's judgemessage.txt is the verdict's reason.
    assert!(
        stdout.contains("WA   secret/02_large/02") && stdout.contains("has the divisor"),
        "{stdout}"
    );
    assert!(
        stdout.contains("13 of 13 tests run: AC 11, WA 2"),
        "{stdout}"
    );
    assert!(stderr.contains("time limit: 2 s (.timelimit)"), "{stderr}");
    // --time-limit overrides the package's.
    let out = package_judge(&[
        "run",
        dir.to_str().unwrap(),
        "--time-limit",
        "3",
        "--",
        submission.to_str().unwrap(),
    ]);
    assert!(text(&out.stderr).contains("time limit: 3 s (--time-limit)"));
    // Many submissions at once, with the package's default validator.
    let distance = Path::new(PACKAGES).join("distance");
    let out = package_judge(&[
        "run",
        distance.to_str().unwrap(),
        "--jobs",
        "2",
        "--submissions",
        distance.join("submissions/wrong_answer").to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("manhattan.py") && stdout.contains("two_decimals.cc"),
        "{stdout}"
    );
}

#[test]
fn run_judges_an_interactive_submission_against_the_validator() {
    if pyctd().is_none() {
        skipped("pyctd not found (BOARDJUDGE_PACKAGE_TOOLS or BOARDJUDGE_PYCTD)");
        return;
    }
    let dir = Path::new(PACKAGES).join("guess");
    let submission = dir.join("submissions/wrong_answer/guess_linear.py");
    let out = package_judge(&[
        "run",
        dir.to_str().unwrap(),
        "--time-limit",
        "2",
        "--",
        submission.to_str().unwrap(),
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    // The validator's judge message is the reason of the wrong answer.
    assert!(
        stdout.contains("secret/03_high") && stdout.contains("guesses without finding x = 1000"),
        "{stdout}"
    );
    assert!(
        stderr.contains("time limit: 2 s (--time-limit)"),
        "{stderr}"
    );
    // Many submissions at once do not judge interactive packages yet: a usage error.
    // Many submissions at once, each run against the validator, with a report.
    let report = std::env::temp_dir().join(format!(
        "boardjudge-interactive-many-{}.json",
        std::process::id()
    ));
    let out = package_judge(&[
        "run",
        dir.to_str().unwrap(),
        "--time-limit",
        "2",
        "--jobs",
        "2",
        "--submissions",
        dir.join("submissions/wrong_answer").to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    let row = stdout
        .lines()
        .find(|l| l.contains("guess_linear.py"))
        .unwrap_or_else(|| panic!("no row: {stdout}"));
    // guess_linear.py: WA on 6 of the 12 tests (the observed runs).
    assert!(row.contains("WA") && row.contains('6'), "{row}");
    let json = std::fs::read_to_string(&report).unwrap();
    std::fs::remove_file(&report).unwrap();
    assert!(json.contains("guess_linear.py"), "{json}");
}

#[test]
fn an_interactive_validator_that_neither_accepts_nor_rejects_is_a_jury_error() {
    if pyctd().is_none() {
        skipped("pyctd not found (BOARDJUDGE_PACKAGE_TOOLS or BOARDJUDGE_PYCTD)");
        return;
    }
    // The validator gives up with exit 1 after its first line to the submission: every
    // submission's run would end with a validator failure, never a contestant's verdict.
    broken(
        "guess",
        |d| {
            let validator = d.join("output_validator/validator.cpp");
            let source = std::fs::read_to_string(&validator).unwrap();
            let source = source.replacen(
                "int main(",
                "int real_main(int, char**);\nint main(int argc, char** argv) { (void)argc; \
                 (void)argv; std::puts(\"10\"); std::fflush(stdout); return 1; }\nint real_main(",
                1,
            );
            std::fs::write(&validator, source).unwrap();
        },
        &[
            "output_validator",
            "exited with 1",
            "42 accepts, 43 rejects",
        ],
    );
}

#[test]
fn a_judge_message_is_shown_escaped() {
    let dir = copy_of("divisor");
    std::fs::write(
        dir.join("output_validators/divisor_checker.py"),
        "import sys\nopen(sys.argv[3] + 'judgemessage.txt', 'w').write('bad \\x1b[2J answer')\nsys.exit(43)\n",
    )
    .unwrap();
    let submission = dir.join("submissions/accepted/divisor.c");
    let out = package_judge(&[
        "run",
        dir.to_str().unwrap(),
        "--",
        submission.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(!stdout.contains('\x1b'), "{stdout:?}");
    assert!(
        stdout.contains("bad ") && stdout.contains("answer"),
        "{stdout}"
    );
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

#[test]
fn validate_checks_a_package_data_and_its_invalid_inputs() {
    let dir = Path::new(PACKAGES).join("sum");
    let out = package_judge(&["validate", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("all 16 inputs validated as expected"));
    let invalid = dir.join("data/invalid_input/01_too_big.in");
    let out = package_judge(&["validate", dir.to_str().unwrap(), invalid.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("exceeds the bound"),
        "{}",
        text(&out.stderr)
    );
    // An invalid_input case that the validator accepts is a finding.
    let copy = copy_of("sum");
    std::fs::write(copy.join("data/invalid_input/01_too_big.in"), "1 2\n").unwrap();
    let out = package_judge(&["validate", copy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("01_too_big.in: an invalid_input case"));
    std::fs::remove_dir_all(copy.parent().unwrap()).unwrap();
}

#[test]
fn commands_of_the_built_in_problems_refuse_a_package_saying_what_takes_one() {
    let dir = Path::new(PACKAGES).join("distance");
    for args in [
        vec!["solve", dir.to_str().unwrap()],
        vec![
            "gen",
            dir.to_str().unwrap(),
            "--seed",
            "1",
            "--count",
            "1",
            "--out",
            "/nonexistent",
        ],
        vec!["families", dir.to_str().unwrap()],
    ] {
        let out = package_judge(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("is a problem package folder") && stderr.contains("judge verify PKG"),
            "{stderr}"
        );
    }
    // A built-in problem needs --tests; verify needs a package.
    let out = package_judge(&["run", "omok", "--", "true"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--tests DIR is required"));
    let out = package_judge(&["verify", "omok"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("takes a problem package folder"));
}

/// The multi-pass package of these tests: `tests/integration/multipass/double` (pass 1: any
/// k above n; pass 2: `double k`, print 2k; the validator keeps its state in the feedback
/// folder between the passes).
fn double_package() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/multipass/double")
}

/// A fresh copy of the `double` package to break.
fn copy_of_double() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "boardjudge-multipass-test-{}-{}/double",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    copy_dir(&double_package(), &dir);
    dir
}

#[test]
fn verify_judges_a_multi_pass_package_pass_by_pass() {
    let dir = double_package();
    let report = std::env::temp_dir().join(format!(
        "boardjudge-verify-double-{}.json",
        std::process::id()
    ));
    let out = package_judge(&[
        "verify",
        dir.to_str().unwrap(),
        "--jobs",
        "2",
        "--report",
        report.to_str().unwrap(),
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    std::fs::remove_file(&report).unwrap();
    let rows = json["submissions"].as_array().unwrap();
    let row = |path: &str| {
        rows.iter()
            .find(|r| r["path"] == format!("submissions/{path}"))
            .unwrap_or_else(|| panic!("no row for {path}: {json}"))
    };
    // (submission, verdict, what its message says)
    for (path, verdict, says) in [
        ("accepted/double.py", "AC", ""),
        ("accepted/double.c", "AC", ""),
        ("accepted/double.cpp", "AC", ""),
        // The second pass's word, with the pass.
        // (The validator appends to judgemessage.txt: pass 1's line, then pass 2's.)
        (
            "wrong_answer/off_by_one.py",
            "WA",
            "pass 2: k = 6 / expected 2k = 12, got 13",
        ),
        // The first pass's: there is no second.
        (
            "wrong_answer/not_above.c",
            "WA",
            "pass 1: 5 is not above n = 5",
        ),
        // Nothing it left in pass 1 reached pass 2, nor did it read the validator's folder.
        ("wrong_answer/leaky.py", "WA", "got -1"),
        (
            "run_time_error/crash_second.py",
            "RE",
            "first RE on sample/1",
        ),
        // Each pass has the time limit on its own: the second one is over it.
        (
            "time_limit_exceeded/spin_second.c",
            "TLE",
            "first TLE on sample/1",
        ),
    ] {
        let r = row(path);
        assert_eq!(r["verdict"], verdict, "{path}: {r}");
        assert_eq!(r["matches"], true, "{path}: {r}");
        assert!(
            r["message"].as_str().unwrap().contains(says),
            "{path}: {says:?} not in {r}"
        );
    }
    // Every test of the accepted ones passed both passes (the counts are per test).
    assert_eq!(row("accepted/double.py")["tests"]["AC"], 4);
}

#[test]
fn run_judges_a_multi_pass_submission() {
    let dir = double_package();
    let judge_one = |submission: &str| {
        package_judge(&[
            "run",
            dir.to_str().unwrap(),
            "--jobs",
            "2",
            "--",
            dir.join("submissions").join(submission).to_str().unwrap(),
        ])
    };
    let out = judge_one("accepted/double.c");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("4 of 4 tests run: AC 4"), "{stdout}");
    assert!(
        stderr.contains("time limit: 1 s (problem.yaml)"),
        "{stderr}"
    );
    let out = judge_one("wrong_answer/off_by_one.py");
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("WA   secret/02_large")
            && stdout.contains("pass 2: k = 1000000 / expected 2k = 2000000, got 2000001"),
        "{stdout}"
    );
    // Many submissions at once, pass by pass too.
    let out = package_judge(&[
        "run",
        dir.to_str().unwrap(),
        "--jobs",
        "2",
        "--submissions",
        dir.join("submissions/accepted").to_str().unwrap(),
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    for name in ["double.c", "double.cpp", "double.py"] {
        // Its row: 4 AC, nothing else.
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(name) && l.contains(" 4    0    0")),
            "{name}: {stdout}"
        );
    }
    assert!(stdout.contains("3 all AC, 0 failing"), "{stdout}");
}

/// `judge verify` of a copy of `double` whose output validator is `validator` (Python):
/// a jury error (exit 2) whose output says every one of `words`.
fn double_with_validator(validator: &str, yaml_extra: &str, words: &[&str]) {
    let dir = copy_of_double();
    std::fs::write(dir.join("output_validator/validator.py"), validator).unwrap();
    if !yaml_extra.is_empty() {
        let yaml = std::fs::read_to_string(dir.join("problem.yaml")).unwrap();
        std::fs::write(dir.join("problem.yaml"), format!("{yaml}{yaml_extra}")).unwrap();
    }
    // One accepted submission is enough to reach the validator.
    for folder in ["wrong_answer", "run_time_error", "time_limit_exceeded"] {
        std::fs::remove_dir_all(dir.join("submissions").join(folder)).unwrap();
    }
    let out = package_judge(&["verify", dir.to_str().unwrap(), "--jobs", "2"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{words:?}: {stdout}{stderr}");
    for word in words {
        assert!(
            stdout.contains(word) || stderr.contains(word),
            "{word:?} missing: {stdout}{stderr}"
        );
    }
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

/// A validator that accepts every pass and always asks for another.
const FOREVER: &str = "import os, sys\n\
    open(os.path.join(sys.argv[3], 'nextpass.in'), 'w').write('double 1\\n')\n\
    sys.exit(42)\n";

#[test]
fn a_multi_pass_validator_that_asks_for_too_many_passes_is_a_jury_error() {
    // The default limit: 2 passes.
    double_with_validator(
        FOREVER,
        "",
        &[
            "JE",
            "pass 2:",
            "after pass 2",
            "limits.validation_passes (2)",
        ],
    );
    // A limit of its own.
    double_with_validator(
        FOREVER,
        "  validation_passes: 3\n",
        &[
            "JE",
            "pass 3:",
            "after pass 3",
            "limits.validation_passes (3)",
        ],
    );
}

#[test]
fn a_multi_pass_validator_that_misbehaves_is_a_jury_error() {
    // Rejecting and asking for another pass: the format calls it a judge error.
    double_with_validator(
        "import os, sys\n\
         open(os.path.join(sys.argv[3], 'nextpass.in'), 'w').write('double 1\\n')\n\
         sys.exit(43)\n",
        "",
        &["JE", "rejected (43) and wrote nextpass.in"],
    );
    // A next input larger than the feedback folder holds (16 MiB): the validator's write
    // fails, and so does the validator.
    double_with_validator(
        "import os, sys\n\
         with open(os.path.join(sys.argv[3], 'nextpass.in'), 'w') as f:\n    \
             f.write('double 1\\n' + ' ' * (40 << 20))\n\
         sys.exit(42)\n",
        "",
        &["JE", "pass 1:", "exited with 1"],
    );
    // State kept in a folder of the feedback folder, which the judge does not carry.
    double_with_validator(
        "import os, sys\n\
         os.mkdir(os.path.join(sys.argv[3], 'state'))\n\
         open(os.path.join(sys.argv[3], 'nextpass.in'), 'w').write('double 1\\n')\n\
         sys.exit(42)\n",
        "",
        &[
            "JE",
            "state: a folder",
            "only regular files are kept between passes",
        ],
    );
}

/// problemtools' example packages, unpacked from `BOARDJUDGE_PROBLEMTOOLS` (a checkout of
/// Kattis/problemtools) or this machine's mirror of it into a fresh folder; `None` when
/// neither is there.
fn problemtools_example(name: &str) -> Option<PathBuf> {
    let from = std::env::var_os("BOARDJUDGE_PROBLEMTOOLS").map(PathBuf::from);
    let dir = std::env::temp_dir().join(format!(
        "boardjudge-problemtools-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    if let Some(checkout) = from.filter(|d| d.join("examples").is_dir()) {
        copy_dir(&checkout.join("examples").join(name), &dir.join(name));
        return Some(dir.join(name));
    }
    let mirror = Path::new("/work/.mirror/Kattis+problemtools/repo");
    if !mirror.is_dir() {
        return None;
    }
    std::fs::create_dir_all(&dir).unwrap();
    let archive = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "git --git-dir={} archive HEAD examples/{name} | tar -x -C {}",
            mirror.display(),
            dir.display()
        ))
        .status()
        .unwrap();
    assert!(archive.success());
    Some(dir.join("examples").join(name))
}

#[test]
fn a_scoring_package_shows_its_score_and_partially_accepted_holds() {
    let Some(oddecho) = problemtools_example("oddecho") else {
        skipped("problemtools' examples not found (BOARDJUDGE_PROBLEMTOOLS)");
        return;
    };
    let report = oddecho.with_file_name("oddecho.json");
    let out = package_judge(&[
        "verify",
        oddecho.to_str().unwrap(),
        "--jobs",
        "2",
        "--report",
        report.to_str().unwrap(),
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    std::fs::remove_dir_all(oddecho.ancestors().nth(2).unwrap()).unwrap();
    for row in json["submissions"].as_array().unwrap() {
        let path = row["path"].as_str().unwrap();
        let score = if path.contains("partially_accepted") {
            // Subtask 1 (50) passed, subtask 2 not: below the maximum, as the folder asks.
            50.0
        } else {
            100.0
        };
        assert_eq!(row["score"].as_f64(), Some(score), "{row}");
        assert_eq!(row["max_score"].as_f64(), Some(100.0), "{row}");
        assert_eq!(row["matches"], true, "{row}");
    }
    assert!(stdout.contains("score 50/100"), "{stdout}");
}

#[test]
fn a_validator_score_is_the_score_of_an_accepted_test() {
    // A 2025-09 scoring package: two secret tests (each at most 50 of secret's 100); the
    // validator scores a test with the number the submission prints.
    let dir =
        std::env::temp_dir().join(format!("boardjudge-scoring-{}/scored", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "problem.yaml",
        "problem_format_version: 2025-09\ntype: scoring\nname: Scored\n\
         uuid: 0d7c3f4e-6a1b-4c2d-8e9f-a0b1c2d3e4f5\nlimits:\n  time_limit: 2\n",
    );
    for test in ["sample/1", "secret/1", "secret/2"] {
        write(&format!("data/{test}.in"), "1\n");
        write(&format!("data/{test}.ans"), "50\n");
    }
    write(
        "output_validator/validator.py",
        "import os, sys\nx = float(sys.stdin.read())\nif x < 0:\n    sys.exit(43)\n\
         open(os.path.join(sys.argv[3], 'score.txt'), 'w').write(str(x))\nsys.exit(42)\n",
    );
    write("submissions/accepted/full.py", "print(50)\n");
    write("submissions/accepted/partial.py", "print(15)\n");
    write(
        "submissions/submissions.yaml",
        "accepted/full.py:\n  score: 100\naccepted/partial.py:\n  score: [29, 31]\n",
    );
    let report = dir.with_file_name("report.json");
    let out = package_judge(&[
        "verify",
        dir.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("score 30/100"), "{stdout}");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let rows = json["submissions"].as_array().unwrap();
    let score = |name: &str| {
        rows.iter()
            .find(|r| r["path"].as_str().unwrap().ends_with(name))
            .unwrap()["score"]
            .as_f64()
    };
    assert_eq!(score("full.py"), Some(100.0));
    assert_eq!(score("partial.py"), Some(30.0));
    // A score that is not a number: a jury error, never the contestant's.
    write("submissions/accepted/partial.py", "print(float('nan'))\n");
    let out = package_judge(&["verify", dir.to_str().unwrap()]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        (stdout.clone() + &stderr).contains("score.txt holds \"nan\""),
        "{stdout}{stderr}"
    );
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

/// `judge verify` on `dir` with a JSON report: the exit code and the report.
fn verify_report(dir: &Path) -> (Option<i32>, serde_json::Value, String) {
    let report = dir.with_extension("json");
    let out = package_judge(&[
        "verify",
        dir.to_str().unwrap(),
        "--jobs",
        "2",
        "--report",
        report.to_str().unwrap(),
    ]);
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    let json = std::fs::read(&report)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or(serde_json::Value::Null);
    (out.status.code(), json, said)
}

/// The report's row of `path` (relative to the package), if it was judged.
fn row<'a>(json: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    json["submissions"]
        .as_array()?
        .iter()
        .find(|row| row["path"] == path)
}

/// Keeps of `dir`'s submissions only `keep` (relative to `submissions/`).
fn keep_only_submissions(dir: &Path, keep: &[&str]) {
    for folder in std::fs::read_dir(dir.join("submissions")).unwrap() {
        let folder = folder.unwrap().path();
        for file in std::fs::read_dir(&folder).unwrap() {
            let file = file.unwrap().path();
            let relative = file.strip_prefix(dir.join("submissions")).unwrap();
            if !keep.iter().any(|k| Path::new(k) == relative) {
                std::fs::remove_file(&file).unwrap();
            }
        }
    }
}

#[test]
fn an_interactive_submission_that_ends_first_is_judged_by_its_own_end() {
    if pyctd().is_none() {
        skipped("pyctd not found (BOARDJUDGE_PACKAGE_TOOLS or BOARDJUDGE_PYCTD)");
        return;
    }
    // As problemtools and BAPCtools judge them (BAPCtools' own `guess` package has these):
    // a submission that fails before the validator rejects what it (did not) say is RE, and
    // one that closes its standard output and runs on past its time is TLE, not the WA of a
    // validator that saw the end of its input.
    let dir = copy_of("guess");
    keep_only_submissions(
        &dir,
        &["accepted/guess.cpp", "wrong_answer/guess_linear.py"],
    );
    for test in std::fs::read_dir(dir.join("data/secret")).unwrap() {
        let test = test.unwrap().path();
        let name = test.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("03_") && !name.starts_with("04_") {
            std::fs::remove_file(test).unwrap();
        }
    }
    let submissions = dir.join("submissions");
    std::fs::write(
        submissions.join("run_time_error/exit_at_once.c"),
        "int main(void) { return 1; }\n",
    )
    .unwrap();
    std::fs::create_dir_all(submissions.join("time_limit_exceeded")).unwrap();
    std::fs::write(
        submissions.join("time_limit_exceeded/close_output_and_sleep.c"),
        "#include <stdio.h>\n#include <unistd.h>\n\
         int main(void) { fclose(stdout); sleep(10); return 0; }\n",
    )
    .unwrap();
    let (code, json, said) = verify_report(&dir);
    assert_eq!(code, Some(0), "{said}");
    for (path, verdict) in [
        ("submissions/accepted/guess.cpp", "AC"),
        ("submissions/run_time_error/exit_at_once.c", "RE"),
        (
            "submissions/time_limit_exceeded/close_output_and_sleep.c",
            "TLE",
        ),
        // The validator rejects first: WA, however the submission ends after.
        ("submissions/wrong_answer/guess_linear.py", "WA"),
    ] {
        let row = row(&json, path).unwrap_or_else(|| panic!("{path}: {said}"));
        assert_eq!(row["verdict"], verdict, "{path}: {row}");
        assert_eq!(row["matches"], true, "{path}: {row}");
    }
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

#[test]
fn python_two_and_bash_submissions_run_with_their_interpreters() {
    if pyctd().is_none() {
        skipped("pyctd not found (BOARDJUDGE_PACKAGE_TOOLS or BOARDJUDGE_PYCTD)");
        return;
    }
    // A legacy package: a `.py` with a python2 shebang is Python 2 (as problemtools runs it),
    // and a `.bash` script without a `#!` line runs with bash (as BAPCtools runs it); as
    // Python 3 the first fails to parse (RE), and the second cannot be started at all.
    let dir = copy_of("divisor");
    keep_only_submissions(&dir, &["accepted/divisor.c"]);
    let wrong = dir.join("submissions/wrong_answer");
    std::fs::write(
        wrong.join("prime_py2.py"),
        "#!/usr/bin/env python2\nprint \"prime\"\n",
    )
    .unwrap();
    let script = wrong.join("prime.bash");
    std::fs::write(&script, "echo prime\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (code, json, said) = verify_report(&dir);
    assert_eq!(code, Some(0), "{said}");
    let bash = row(&json, "submissions/wrong_answer/prime.bash").expect(&said);
    assert_eq!(bash["verdict"], "WA", "{bash}");
    match row(&json, "submissions/wrong_answer/prime_py2.py") {
        Some(py2) => assert_eq!(py2["verdict"], "WA", "{py2}"),
        None => {
            // No Python 2 here: skipped, saying why, never judged as Python 3.
            let skip = json["skipped"]
                .as_array()
                .and_then(|s| {
                    s.iter()
                        .find(|s| s["path"] == "submissions/wrong_answer/prime_py2.py")
                })
                .expect(&said);
            let why = skip["why"].as_str().unwrap();
            assert!(why.contains("Python 2") && why.contains("python2"), "{why}");
            skipped("python2 is not installed where the sandbox can run it");
        }
    }
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

/// A package's problem name is data: escape sequences in it (a terminal's title set, its
/// screen cleared) reach no terminal, and a newline in it forges no line, from any command
/// that prints it, nor from the jury error that names it. (Its file names cannot hold them:
/// the format's names are letters, digits, `_`, `-` and `.`, and the judge ignores the others
/// with a warning, itself on one line.)
#[test]
fn a_packages_name_reaches_no_terminal_as_escape_sequences_nor_forges_a_line() {
    let dir = copy_of("divisor");
    let yaml = dir.join("problem.yaml");
    let before = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(
        &yaml,
        format!("name: \"Find\\e]0;owned\\a\\e[2J\\nFAKE LINE: 13 of 13 run\\rX\"\n{before}"),
    )
    .unwrap();
    std::fs::write(
        dir.join("submissions/accepted/divisor ugly\x1b[31m\nFAKE.c"),
        std::fs::read(dir.join("submissions/accepted/divisor.c")).unwrap(),
    )
    .unwrap();
    let package = dir.to_str().unwrap();
    let submission = dir.join("submissions/accepted/divisor.c");
    let clean = |args: &[&str], out: &Output| {
        for shown in [text(&out.stdout), text(&out.stderr)] {
            assert!(
                !shown.contains(['\x1b', '\x07', '\r']),
                "{args:?} sent a control character: {shown:?}"
            );
            assert!(
                !shown.lines().any(|l| l.starts_with("FAKE")),
                "{args:?} let a name forge a line: {shown}"
            );
        }
    };
    for args in [
        vec!["verify", package],
        vec!["validate", package],
        vec!["strength", package],
        vec!["timelimit", package],
        vec!["run", package, "--", submission.to_str().unwrap()],
    ] {
        let out = package_judge(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        clean(&args, &out);
        assert!(
            text(&out.stdout).contains("Find\\x1b]0;owned\\x07\\x1b[2J\\nFAKE LINE")
                || args[0] == "strength",
            "{args:?}: the name is shown, escaped: {}",
            text(&out.stdout)
        );
    }
    // A broken output validator is the jury's error, which names the problem.
    std::fs::write(
        dir.join("output_validators/divisor_checker.py"),
        "import sys\nsys.stderr.write('broken\\nFAKE CHECKER LINE \\x1b[2J')\nsys.exit(1)\n",
    )
    .unwrap();
    let args = ["run", package, "--", submission.to_str().unwrap()];
    let out = package_judge(&args);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    clean(&args, &out);
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}
