//! `--sanitize`: C and C++ submissions built with AddressSanitizer and
//! UndefinedBehaviorSanitizer, run with room for their shadow memory; a sanitizer report is
//! the verdict's detail (RE) even when the output is right, in every report format and on
//! the terminal; `judge strength` marks the wrong solutions that read outside their arrays;
//! `judge stress` finds them; a memory hog is still MLE.

use std::path::{Path, PathBuf};

use crate::generation::scratch;
use crate::util::*;

fn contestant(id: &str, name: &str) -> PathBuf {
    solutions::problem_files::CONTESTANTS.path(id).join(name)
}

/// A test folder `dir/tests` with the given (name, input, answer) tests.
fn tests(dir: &Path, cases: &[(&str, String, &str)]) -> PathBuf {
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    for (name, input, answer) in cases {
        std::fs::write(tests.join(format!("{name}.in")), input).unwrap();
        std::fs::write(tests.join(format!("{name}.ans")), answer).unwrap();
    }
    tests
}

/// gomoku-checker boards: one black stone in the bottom row (the program reads past its
/// array walking down from it), and the empty board (it reads nothing outside).
fn gomoku_tests(dir: &Path) -> PathBuf {
    let empty = ".".repeat(19) + "\n";
    let bottom = empty.repeat(18) + "o" + &".".repeat(18) + "\n";
    tests(
        dir,
        &[
            ("bottom-row", bottom, "YES\n"),
            ("empty", empty.repeat(19), "YES\n"),
        ],
    )
}

fn report_rows(path: &Path) -> Vec<serde_json::Value> {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn a_read_past_the_array_is_re_with_the_report_even_when_the_output_is_right() {
    let dir = scratch("sanitize-past");
    let tests = gomoku_tests(&dir);
    let program = contestant("gomoku-checker", "reads-past-the-board.cpp");
    // Without the sanitizer the program passes: its answers are right.
    let out = judge()
        .args(["run", "gomoku-checker", "--tests"])
        .arg(&tests)
        .arg("--")
        .arg(&program)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    for format in ["json", "csv", "xml", "html"] {
        let report = dir.join(format!("report.{format}"));
        let out = judge()
            .args(["run", "gomoku-checker", "--sanitize", "--tests"])
            .arg(&tests)
            .arg("--report")
            .arg(&report)
            .arg("--")
            .arg(&program)
            .output()
            .unwrap();
        assert_no_panic(&out);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("-fsanitize=address,undefined"),
            "{}",
            text(&out.stderr)
        );
        // The terminal: the failing test with the report's line.
        let line = stdout
            .lines()
            .find(|l| l.contains("bottom-row"))
            .unwrap_or_default();
        assert!(
            line.starts_with("RE ")
                && line
                    .contains("sanitizer: global-buffer-overflow READ of size 1 in five sol.cpp:")
                && line.contains("(the output was right)"),
            "{stdout}"
        );
        assert!(stdout.contains("AC 1, RE 1"), "{stdout}");
        let written = std::fs::read_to_string(&report).unwrap();
        assert!(
            written.contains("sanitizer: global-buffer-overflow READ of size 1"),
            "{format}: {written}"
        );
        if format == "json" {
            let rows = report_rows(&report);
            let row = rows.iter().find(|r| r["test"] == "bottom-row").unwrap();
            assert_eq!(row["verdict"], "RE", "{row}");
            let empty = rows.iter().find(|r| r["test"] == "empty").unwrap();
            assert_eq!(empty["verdict"], "AC", "{empty}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_read_before_the_array_is_re_with_the_report() {
    let dir = scratch("sanitize-before");
    let zero_row = ["0"; 19].join(" ") + "\n";
    let mut top = ["0"; 19];
    top[5] = "1";
    let board = top.join(" ") + "\n" + &zero_row.repeat(18);
    let tests = tests(&dir, &[("top-row", board, "0\n")]);
    let program = contestant("omok", "reads-before-the-board.cpp");
    let report = dir.join("report.json");
    let out = judge()
        .args(["run", "omok", "--sanitize", "--tests"])
        .arg(&tests)
        .arg("--report")
        .arg(&report)
        .arg("--")
        .arg(&program)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    let rows = report_rows(&report);
    let message = rows[0]["message"].as_str().unwrap().to_string();
    assert_eq!(rows[0]["verdict"], "RE", "{message}");
    assert!(
        message.starts_with("sanitizer: global-buffer-overflow READ of size 4 in main sol.cpp:")
            && message.ends_with("(the output was right)"),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn strength_marks_the_wrong_solutions_that_read_outside_their_arrays() {
    let dir = scratch("sanitize-strength");
    let tests = gomoku_tests(&dir);
    let wrong = dir.join("wrong");
    std::fs::create_dir_all(&wrong).unwrap();
    std::fs::copy(
        contestant("gomoku-checker", "reads-past-the-board.cpp"),
        wrong.join("reads-past-the-board.cpp"),
    )
    .unwrap();
    let report = dir.join("strength.json");
    let out = judge()
        .args(["strength", "gomoku-checker", "--sanitize", "--tests"])
        .arg(&tests)
        .arg("--wrong")
        .arg(&wrong)
        .arg("--report")
        .arg(&report)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("fragile   reads-past-the-board.cpp: only bottom-row rejects it; reads outside its arrays (sanitizer on 1 of 2 tests, first bottom-row: global-buffer-overflow READ"),
        "{stdout}"
    );
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let submission = &json["submissions"][0];
    assert!(
        submission["sanitizer"]
            .as_str()
            .unwrap()
            .contains("global-buffer-overflow"),
        "{submission}"
    );
    assert_eq!(submission["sanitizer_tests"], serde_json::json!([0]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 34.4: by default `judge strength` runs C and C++ submissions sanitized as well (the
/// verdicts stay the plain build's), so a read outside an array shows on a submission no test
/// rejects; a Python submission gets no such run; `--no-sanitize` says there is none.
#[test]
fn strength_runs_c_and_cpp_sanitized_by_default() {
    let dir = scratch("sanitize-strength-default");
    let tests = gomoku_tests(&dir);
    let wrong = dir.join("wrong");
    std::fs::create_dir_all(&wrong).unwrap();
    std::fs::copy(
        contestant("gomoku-checker", "reads-past-the-board.cpp"),
        wrong.join("reads-past-the-board.cpp"),
    )
    .unwrap();
    // Wrong on every board with a five, right on these two: it survives them too.
    std::fs::write(wrong.join("always-yes.py"), "print('YES')\n").unwrap();
    let report = dir.join("strength.json");
    let strength = |extra: &[&str]| {
        judge()
            .args(["strength", "gomoku-checker", "--tests"])
            .arg(&tests)
            .arg("--wrong")
            .arg(&wrong)
            .args(extra)
            .output()
            .unwrap()
    };
    let out = strength(&["--report", report.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    // Both survive (a finding: exit 1): the sanitized run marks, it does not reject.
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("SURVIVES  reads-past-the-board.cpp: no test rejects it; reads outside its arrays (its sanitized build, first report on bottom-row: global-buffer-overflow READ"),
        "{stdout}"
    );
    assert!(
        stdout.contains("SURVIVES  always-yes.py: no test rejects it\n"),
        "{stdout}"
    );
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let cpp = json["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "reads-past-the-board.cpp")
        .unwrap();
    assert_eq!(cpp["verdicts"], serde_json::json!(["AC", "AC"]), "{cpp}");
    assert_eq!(cpp["sanitizer_tests"], serde_json::json!([0]), "{cpp}");

    let out = strength(&["--no-sanitize"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("SURVIVES  reads-past-the-board.cpp: no test rejects it\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("sanitized runs: none (--no-sanitize)"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stress_with_sanitize_finds_a_read_outside_the_array() {
    let out = judge()
        .args([
            "stress",
            "gomoku-checker",
            "--seed",
            "1",
            "--cases",
            "40",
            "--sanitize",
            "--",
        ])
        .arg(contestant("gomoku-checker", "reads-past-the-board.cpp"))
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("sanitizer: global-buffer-overflow READ"),
        "{stdout}"
    );
}

/// The hostile memory hog, built sanitized: ASan's shadow reservation must not break the run
/// (no RLIMIT_DATA for it), and the memory it touches still ends at the limit.
fn memory_hog_under_sanitize(as_nobody: bool) {
    let dir = scratch(&format!("sanitize-hog-{as_nobody}"));
    let tests = tests(
        &dir,
        &[(
            "sample-2",
            "NNNNNNNN\nNNNNNNNN\nNNNNNNNN\nNNNWBNNN\nNNNBWNNN\nNNNNNNNN\nNNNNNNNN\nNNNNNNNP\n"
                .to_string(),
            "0\n",
        )],
    );
    let source = dir.join("memory_hog.c");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/hostile/memory_hog.c"),
        &source,
    )
    .unwrap();
    let report = dir.join("report.json");
    let mut command = if as_nobody {
        use std::os::unix::fs::PermissionsExt;
        let judge_copy = dir.join("judge");
        std::fs::copy(env!("CARGO_BIN_EXE_judge"), &judge_copy).unwrap();
        for path in [&dir, &tests] {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o777)).unwrap();
        }
        let mut c = std::process::Command::new("/usr/bin/setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(judge_copy);
        c
    } else {
        judge()
    };
    let out = command
        .args([
            "run",
            "othello-flips",
            "--sanitize",
            "--memory-limit",
            "64",
            "--tests",
        ])
        .arg(&tests)
        .arg("--report")
        .arg(&report)
        .arg("--")
        .arg("memory_hog.c")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_no_panic(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let rows = report_rows(&report);
    assert_eq!(rows[0]["verdict"], "MLE", "{}", rows[0]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_memory_hog_is_still_mle_under_sanitize() {
    memory_hog_under_sanitize(false);
}

/// Without root there is no memory cgroup: ASan's own RSS limit stands in for RLIMIT_DATA.
#[test]
fn a_memory_hog_is_still_mle_under_sanitize_without_root() {
    let root = std::fs::metadata("/proc/self").is_ok_and(|m| {
        use std::os::unix::fs::MetadataExt;
        m.uid() == 0
    });
    if !root || !Path::new("/usr/bin/setpriv").exists() {
        skipped("needs root (to become nobody) and setpriv");
        return;
    }
    memory_hog_under_sanitize(true);
}

#[test]
fn a_sanitizer_report_is_escaped_like_everything_a_submission_writes() {
    let dir = scratch("sanitize-escape");
    let tests = tests(
        &dir,
        &[(
            "sample-2",
            "NNNNNNNN\nNNNNNNNN\nNNNNNNNN\nNNNWBNNN\nNNNBWNNN\nNNNNNNNN\nNNNNNNNN\nNNNNNNNP\n"
                .to_string(),
            "0\n",
        )],
    );
    let source =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/sanitize/fake_report.c");
    let report = dir.join("report.html");
    let out = judge()
        .args(["run", "othello-flips", "--sanitize", "--tests"])
        .arg(&tests)
        .arg("--report")
        .arg(&report)
        .arg("--")
        .arg(&source)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("sanitizer: <script>alert(1)</script>\\x1b[2J"),
        "{stdout}"
    );
    assert!(!stdout.contains('\x1b'), "{stdout}");
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{html}"
    );
    assert!(
        !html.contains("<script>") && !html.contains("<img src=x"),
        "{html}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
