//! `judge strength PKG` (issue 32.4): a package's data against its jury's wrong submissions,
//! on a small package written here (whose every verdict is known by construction), on the
//! interactive example package, and on a package `judge package` exported from a built-in
//! problem; every report format; a survivor from `--wrong` is exit 1, a failing output
//! validator a jury error (exit 2).

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::generation::scratch;
use crate::util::{assert_no_panic, judge, text};

/// Writes `files` (path below `dir`, text) into `dir`.
fn write_all(dir: &Path, files: &[(&str, &str)]) {
    for (path, content) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
    }
}

/// "Parity": one integer, answer `even` or `odd`. Its wrong submissions each fail for one
/// known reason, so the kill matrix is known test by test:
///
/// | test               | n         | always_even | zero_is_odd | crash_on_big | loops_on_seven |
/// |--------------------|-----------|-------------|-------------|--------------|----------------|
/// | sample/1           | 4         | AC          | AC          | AC           | AC             |
/// | secret/01_zero     | 0         | AC          | WA          | AC           | AC             |
/// | secret/02_seven    | 7         | WA          | AC          | AC           | TLE            |
/// | secret/03_big      | 123456789 | WA          | AC          | RE           | AC             |
/// | secret/04_negative | -6        | AC          | AC          | AC           | AC             |
fn parity(dir: &Path) -> PathBuf {
    let package = dir.join("parity");
    let read = "import sys\nn = int(sys.stdin.read())\n";
    let right = format!("{read}print('odd' if n % 2 else 'even')\n");
    write_all(
        &package,
        &[
            (
                "problem.yaml",
                "problem_format_version: 2025-09\nname: Parity\n\
                 uuid: 5b0c2d7e-8f7a-4c55-9b7e-2f3c1d0a9e11\nlimits:\n  time_limit: 1\n",
            ),
            ("data/sample/1.in", "4\n"),
            ("data/sample/1.ans", "even\n"),
            ("data/secret/01_zero.in", "0\n"),
            ("data/secret/01_zero.ans", "even\n"),
            ("data/secret/02_seven.in", "7\n"),
            ("data/secret/02_seven.ans", "odd\n"),
            ("data/secret/03_big.in", "123456789\n"),
            ("data/secret/03_big.ans", "odd\n"),
            ("data/secret/04_negative.in", "-6\n"),
            ("data/secret/04_negative.ans", "even\n"),
            (
                "input_validators/validate.py",
                "import re, sys\n\
                 text = sys.stdin.read()\n\
                 ok = re.fullmatch(r'-?[0-9]{1,10}\\n', text) is not None\n\
                 sys.exit(42 if ok and abs(int(text)) <= 10**9 else 43)\n",
            ),
            ("submissions/accepted/right.py", &right),
            (
                "submissions/wrong_answer/always_even.py",
                &format!("{read}print('even')\n"),
            ),
            (
                "submissions/wrong_answer/zero_is_odd.py",
                &format!("{read}print('odd' if n % 2 or n == 0 else 'even')\n"),
            ),
            (
                "submissions/run_time_error/crash_on_big.py",
                &format!("{read}assert n < 1000\nprint('odd' if n % 2 else 'even')\n"),
            ),
            (
                "submissions/time_limit_exceeded/loops_on_seven.py",
                &format!("{read}while n == 7:\n    pass\nprint('odd' if n % 2 else 'even')\n"),
            ),
            // Allowed to pass (its expectation includes AC): no measure of the data.
            (
                "submissions/submissions.yaml",
                "mixed/maybe.py:\n  permitted: [AC, WA]\n",
            ),
            ("submissions/mixed/maybe.py", &right),
        ],
    );
    package
}

fn strength(args: &[&std::ffi::OsStr]) -> Output {
    let out = judge().arg("strength").args(args).output().unwrap();
    assert_no_panic(&out);
    out
}

/// The CSV report's matrix: (test, [verdict per submission]) rows and the submissions' names.
fn csv_matrix(path: &Path) -> (Vec<String>, Vec<(String, Vec<String>)>) {
    let csv = std::fs::read_to_string(path).unwrap();
    let mut lines = csv.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap()
        .split(',')
        .skip(1)
        .map(String::from)
        .collect();
    let rows = lines
        .map(|l| {
            let mut cells = l.split(',').map(String::from);
            (cells.next().unwrap(), cells.collect())
        })
        .collect();
    (header, rows)
}

#[test]
fn a_package_data_gets_its_kill_matrix_cover_and_idle_tests() {
    let dir = scratch("package-strength-parity");
    let package = parity(&dir);
    let csv = dir.join("matrix.csv");
    let out = strength(&[package.as_os_str(), "--report".as_ref(), csv.as_os_str()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("time limit: 1 s (problem.yaml)"));
    for line in [
        "left out  submissions/mixed/maybe.py: its expectation (AC|WA) lets it pass every test",
        "fragile   submissions/run_time_error/crash_on_big.py: only secret/03_big rejects it",
        "fragile   submissions/time_limit_exceeded/loops_on_seven.py: only secret/02_seven rejects it",
        "rejected  submissions/wrong_answer/always_even.py: by 2 tests (secret/02_seven, secret/03_big)",
        "fragile   submissions/wrong_answer/zero_is_odd.py: only secret/01_zero rejects it",
        // Ties go to the earlier test: 02_seven and 03_big each reject two.
        "smallest rejecting subset (greedy set cover): 3 of 5 tests: secret/02_seven, secret/01_zero, secret/03_big",
        "tests that reject no wrong submission: 2 of 5 tests: sample/1, secret/04_negative",
    ] {
        assert!(stdout.contains(line), "no {line:?} in:\n{stdout}");
    }
    // The accepted submission is no entrant; the one allowed to pass is left out.
    assert!(!stdout.contains("right.py"), "{stdout}");
    let (names, rows) = csv_matrix(&csv);
    assert_eq!(
        names,
        [
            "wrong:submissions/run_time_error/crash_on_big.py",
            "wrong:submissions/time_limit_exceeded/loops_on_seven.py",
            "wrong:submissions/wrong_answer/always_even.py",
            "wrong:submissions/wrong_answer/zero_is_odd.py",
        ]
    );
    let expected = [
        ("sample/1", ["AC", "AC", "AC", "AC"]),
        ("secret/01_zero", ["AC", "AC", "AC", "WA"]),
        ("secret/02_seven", ["AC", "TLE", "WA", "AC"]),
        ("secret/03_big", ["RE", "AC", "WA", "AC"]),
        ("secret/04_negative", ["AC", "AC", "AC", "AC"]),
    ];
    assert_eq!(rows.len(), expected.len(), "{rows:?}");
    for ((test, verdicts), (want_test, want)) in rows.iter().zip(expected) {
        assert_eq!(
            (test.as_str(), verdicts.as_slice()),
            (want_test, &want.map(String::from)[..])
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_survivor_from_wrong_is_a_finding_in_every_report_format() {
    let dir = scratch("package-strength-survivor");
    let package = parity(&dir);
    let more = dir.join("more");
    // Wrong only below -10^9, which no test (and no valid input) has: it survives.
    write_all(
        &more,
        &[(
            "never_caught.py",
            "import sys\nn = int(sys.stdin.read())\nprint('even' if n < -10**9 or n % 2 == 0 else 'odd')\n",
        )],
    );
    for ext in ["csv", "json", "xml", "html"] {
        let report = dir.join(format!("strength.{ext}"));
        let out = strength(&[
            package.as_os_str(),
            "--wrong".as_ref(),
            more.as_os_str(),
            "--report".as_ref(),
            report.as_os_str(),
        ]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
        assert!(
            stdout.contains("SURVIVES  never_caught.py: no test rejects it"),
            "{stdout}"
        );
        assert!(
            stdout.contains(&format!(
                "  never_caught.py: `judge stress {} --seed 1 -- {}` searches",
                package.display(),
                more.join("never_caught.py").display()
            )),
            "{stdout}"
        );
        let written = std::fs::read_to_string(&report).unwrap();
        assert!(written.contains("never_caught.py"), "{ext}: {written}");
        assert!(written.contains("zero_is_odd.py"), "{ext}: {written}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failing_output_validator_is_a_jury_error_and_no_wrong_submission_a_usage_error() {
    let dir = scratch("package-strength-jury");
    let package = parity(&dir);
    // A custom output validator that compares tokens but crashes on the input 7.
    write_all(
        &package,
        &[(
            "output_validator/validate.py",
            "import sys\n\
             given, answer = open(sys.argv[1]).read(), open(sys.argv[2]).read()\n\
             if int(given) == 7:\n    raise SystemExit('the validator is broken')\n\
             sys.exit(42 if sys.stdin.read().split() == answer.split() else 43)\n",
        )],
    );
    let out = strength(&[package.as_os_str()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("jury error"), "{stderr}");
    assert!(
        !text(&out.stdout).contains("SURVIVES"),
        "{}",
        text(&out.stdout)
    );

    // Only accepted submissions: nothing to measure the data against.
    for folder in [
        "wrong_answer",
        "run_time_error",
        "time_limit_exceeded",
        "mixed",
    ] {
        std::fs::remove_dir_all(package.join("submissions").join(folder)).unwrap();
    }
    std::fs::remove_file(package.join("submissions/submissions.yaml")).unwrap();
    let out = strength(&[package.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no submission a test must reject"),
        "{}",
        text(&out.stderr)
    );
    // A built-in problem still needs both folders.
    let out = strength(&["omok".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--tests DIR and --wrong DIR are required"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interactive_package_wrong_submissions_are_rejected_through_its_validator() {
    let guess =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("judge/package-format/tests/packages/guess");
    let out = strength(&[guess.as_os_str()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    for name in [
        "submissions/run_time_error/GuessStats.java",
        "submissions/time_limit_exceeded/guess_step_by_step.py",
        "submissions/wrong_answer/guess_linear.py",
    ] {
        assert!(
            stdout.lines().any(
                |l| (l.starts_with("rejected") || l.starts_with("fragile")) && l.contains(name)
            ),
            "{name}:\n{stdout}"
        );
    }
}

#[test]
fn an_exported_built_in_problem_rejects_every_wrong_submission() {
    let dir = scratch("package-strength-exported");
    let problem = "othello-flips";
    let out = judge()
        .args(["package", problem, "--format", "icpc", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let package = dir.join(judge_package::package_name(problem));
    let out = strength(&[package.as_os_str()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let wrong = std::fs::read_dir(package.join("submissions/wrong_answer"))
        .unwrap()
        .count();
    assert!(wrong > 0);
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with("rejected") || l.starts_with("fragile"))
            .count(),
        wrong,
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
