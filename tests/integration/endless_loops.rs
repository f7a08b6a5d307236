//! What an endless loop costs the judge (issue 35): a run stopped at its CPU limit is a TLE
//! with no run again alone (CPU time does not depend on load), and with
//! `--stop-at-first-failure` the runs after a failure are stopped where they are. Measured as
//! the CPU time of everything the judge ran (the shell's `times`: the judge and every process
//! it waited for, the submissions' runs included), never as a wall-clock time.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::generation::scratch;
use crate::util::*;

/// `count` othello-flips tests (generated, valid, with answers) in `dir/tests`.
fn tests(dir: &Path, count: u32) -> PathBuf {
    let tests = dir.join("tests");
    let out = judge()
        .args(["gen", "othello-flips", "--seed", "5", "--count"])
        .arg(count.to_string())
        .arg("--out")
        .arg(&tests)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    tests
}

/// The tests' inputs in test order (by name, as the judge orders them).
fn inputs(tests: &Path) -> Vec<Vec<u8>> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(tests)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    names.sort();
    names.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// Runs `judge ARGS` through `sh`, whose `times` then says the CPU time (user + system) of
/// the judge and every process it waited for. Returns the judge's exit code, its standard
/// output and that time.
fn judge_cpu(args: &[&str]) -> (Option<i32>, String, Duration) {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#""$@" > "$0.out" 2> "$0.err"; code=$?; times; exit $code"#)
        .arg(scratch_file())
        .arg(env!("CARGO_BIN_EXE_judge"))
        .args(args)
        .output()
        .unwrap();
    // `times`: the shell's own user and system time, then its children's.
    let children = text(&out.stdout)
        .lines()
        .nth(1)
        .unwrap_or_else(|| panic!("no times: {}", text(&out.stdout)))
        .to_string();
    let cpu: Duration = children
        .split_whitespace()
        .map(|t| {
            let (minutes, seconds) = t.trim_end_matches('s').split_once('m').unwrap();
            Duration::from_secs_f64(
                minutes.parse::<f64>().unwrap() * 60.0 + seconds.parse::<f64>().unwrap(),
            )
        })
        .sum();
    let file = scratch_file();
    let stdout = std::fs::read_to_string(format!("{file}.out")).unwrap_or_default();
    let _ = std::fs::remove_file(format!("{file}.out"));
    let _ = std::fs::remove_file(format!("{file}.err"));
    (out.status.code(), stdout, cpu)
}

/// Where [`judge_cpu`] keeps the judge's output (one per test thread).
fn scratch_file() -> String {
    let thread = format!("{:?}", std::thread::current().id());
    let name: String = thread.chars().filter(char::is_ascii_digit).collect();
    std::env::temp_dir()
        .join(format!("boardjudge-endless-{}-{name}", std::process::id()))
        .display()
        .to_string()
}

#[derive(serde::Deserialize, Debug)]
struct Row {
    test: String,
    verdict: String,
    message: String,
}

fn rows(report: &Path) -> Vec<Row> {
    serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap()
}

/// An endless loop on 8 tests, two at a time: every test is run once (a TLE stopped at its
/// CPU limit is not run again alone), so it costs 8 limits, not 16.
#[test]
fn an_endless_loop_is_run_once_per_test() {
    let dir = scratch("endless-once");
    let tests = tests(&dir, 8);
    let source =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/hostile/infinite_loop.c");
    let report = dir.join("r.json");
    let (code, stdout, cpu) = judge_cpu(&[
        "run",
        "othello-flips",
        "--tests",
        tests.to_str().unwrap(),
        "--jobs",
        "2",
        "--time-limit",
        "0.5",
        "--report",
        report.to_str().unwrap(),
        "--",
        source.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1), "{stdout}");
    let rows = rows(&report);
    assert_eq!(rows.len(), 8, "{rows:?}");
    for row in &rows {
        assert_eq!(row.verdict, "TLE", "{row:?}");
        assert!(!row.message.contains("re-run alone"), "{row:?}");
    }
    // 8 runs of 0.5 s, with room for the build and the judge's own work; run twice, it
    // would be 8 s.
    assert!(
        cpu < Duration::from_secs_f64(8.0 * 0.5 * 1.2 + 1.0),
        "{cpu:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A submission that fails the first test at once and loops on every other: with every test
/// started at once (`--jobs` as many as tests), the loops are stopped as soon as the first
/// test's failure is known, instead of each running to its limit.
#[test]
fn stop_at_first_failure_stops_the_runs_after_a_failure() {
    let dir = scratch("endless-stop");
    let count = 6;
    let tests = tests(&dir, count);
    let first = inputs(&tests).remove(0);
    // The program knows the first test's input (it is in its source), answers it wrongly
    // and loops on anything else.
    let literal: String = first.iter().map(|b| format!("\\x{b:02x}")).collect();
    let source = dir.join("loops_after_the_first.c");
    std::fs::write(
        &source,
        format!(
            r#"#include <stdio.h>
#include <string.h>
static const char first[] = "{literal}";
int main(void) {{
    static char input[1 << 16];
    size_t n = fread(input, 1, sizeof input, stdin);
    if (n == sizeof first - 1 && memcmp(input, first, n) == 0) {{
        puts("-1");
        return 0;
    }}
    volatile unsigned long x = 0;
    for (;;) x++;
}}
"#
        ),
    )
    .unwrap();
    let report = dir.join("r.json");
    let (code, stdout, cpu) = judge_cpu(&[
        "run",
        "othello-flips",
        "--tests",
        tests.to_str().unwrap(),
        "--jobs",
        &count.to_string(),
        "--time-limit",
        "1",
        "--stop-at-first-failure",
        "--report",
        report.to_str().unwrap(),
        "--",
        source.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1), "{stdout}");
    let rows = rows(&report);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].verdict, "WA", "{rows:?}");
    assert!(
        stdout.contains(&format!(
            "stopped at the first failure: {} not run",
            count - 1
        )),
        "{stdout}"
    );
    // Five loops each run to the 1 s limit would be 5 s: stopped, they cost next to
    // nothing (the build and the judge's own work take the rest).
    assert!(cpu < Duration::from_secs_f64(1.5), "{cpu:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An endless loop with `--stop-at-first-failure`, two at a time on 8 tests: the first
/// round's two runs, then (if the first test was not among them) the first test and at most
/// one beside it. Never more than 4 limits, whatever the secret order.
#[test]
fn an_endless_loop_stopping_at_the_first_failure_costs_two_rounds_at_most() {
    let dir = scratch("endless-stop-loop");
    let tests = tests(&dir, 8);
    let source =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/hostile/infinite_loop.c");
    let report = dir.join("r.json");
    let (code, stdout, cpu) = judge_cpu(&[
        "run",
        "othello-flips",
        "--tests",
        tests.to_str().unwrap(),
        "--jobs",
        "2",
        "--time-limit",
        "0.5",
        "--stop-at-first-failure",
        "--report",
        report.to_str().unwrap(),
        "--",
        source.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1), "{stdout}");
    let rows = rows(&report);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].verdict, "TLE", "{rows:?}");
    assert!(!rows[0].test.is_empty());
    assert!(
        cpu < Duration::from_secs_f64(4.0 * 0.5 * 1.2 + 1.0),
        "{cpu:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
