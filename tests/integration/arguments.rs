//! Every argument checked before any work (issue 35.3): a report path, `--save` and `--out`
//! are refused (exit 2) before anything is built or run; a submission typed without `--`
//! gets a hint; a path that does not exist is said one way by every command; counts are
//! singular for one.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::generation::scratch;
use crate::util::*;

/// An omok test set of `count` generated tests in `dir/tests`.
fn omok_tests(dir: &Path, count: u32) -> PathBuf {
    let tests = dir.join("tests");
    let out = judge()
        .args(["gen", "omok", "--seed", "3", "--count", &count.to_string()])
        .arg("--out")
        .arg(&tests)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    tests
}

/// A shell script that leaves `marker` behind if it ever runs (the sandbox lets it write
/// nowhere, so the marker is its standard output: any line of it means it ran).
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The words of a command given its report path.
type Command<'a> = dyn Fn(&Path) -> Vec<String> + 'a;

fn strs(args: &[&Path]) -> Vec<String> {
    args.iter().map(|p| p.display().to_string()).collect()
}

/// Runs `judge ARGS`, expecting a usage error (exit 2) whose message contains `says`, before
/// any work: nothing on standard output (no test line, no table, no outcome).
fn refused(args: &[String], says: &str) {
    let started = Instant::now();
    let out = judge().args(args).output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.contains(says),
        "{args:?}: wanted {says:?} in:\n{stderr}"
    );
    assert!(!stderr.contains("os error"), "{args:?}: {stderr}");
    assert_eq!(text(&out.stdout), "", "{args:?}: printed before refusing");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{args:?}: took {:?}: work was done first",
        started.elapsed()
    );
}

#[test]
fn a_report_with_another_extension_a_folder_or_no_folder_is_refused_before_anything_runs() {
    let dir = scratch("arguments-report");
    let tests = omok_tests(&dir, 2);
    let zero = script(&dir, "zero.sh", "cat > /dev/null\necho 0\n");
    let submissions = dir.join("submissions");
    std::fs::create_dir_all(&submissions).unwrap();
    std::fs::copy(&zero, submissions.join("zero.sh")).unwrap();
    let shards = dir.join("shards");
    std::fs::create_dir_all(&shards).unwrap();
    let run = |report: &Path| {
        let mut args = vec!["run".to_string(), "omok".to_string(), "--tests".to_string()];
        args.extend(strs(&[&tests]));
        args.push("--report".to_string());
        args.extend(strs(&[report]));
        args.push("--".to_string());
        args.extend(strs(&[&zero]));
        args
    };
    let many = |report: &Path| {
        let mut args = vec!["run".to_string(), "omok".to_string(), "--tests".to_string()];
        args.extend(strs(&[&tests, Path::new("--submissions"), &submissions]));
        args.push("--report".to_string());
        args.extend(strs(&[report]));
        args
    };
    let strength = |report: &Path| {
        let mut args = vec!["strength".to_string(), "omok".to_string()];
        args.extend(strs(&[
            Path::new("--tests"),
            &tests,
            Path::new("--wrong"),
            &submissions,
            Path::new("--report"),
            report,
        ]));
        args
    };
    let merge = |report: &Path| {
        let mut args = vec!["merge".to_string()];
        args.extend(strs(&[&shards, Path::new("--report"), report]));
        args
    };
    let commands: [&Command<'_>; 4] = [&run, &many, &strength, &merge];
    for command in commands {
        for name in ["r.txt", "report", "r.pdf", "r.csv.bak"] {
            let report = dir.join(name);
            refused(
                &command(&report),
                &format!(
                    "--report {}: the format follows the extension: .csv, .json, .xml (JUnit) or .html",
                    report.display()
                ),
            );
            assert!(!report.exists(), "{name}: written");
        }
        refused(
            &command(&dir),
            &format!("--report {}: a folder; give a file name", dir.display()),
        );
        let nowhere = dir.join("no-such-folder").join("r.csv");
        refused(
            &command(&nowhere),
            &format!(
                "--report {}: {}: no such file or folder",
                nowhere.display(),
                dir.join("no-such-folder").display()
            ),
        );
        // A file where the report's folder should be.
        let under_a_file = zero.join("r.csv");
        refused(
            &command(&under_a_file),
            &format!("{} is not a folder", zero.display()),
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn save_and_out_that_cannot_be_folders_are_refused_before_anything_runs() {
    let dir = scratch("arguments-save-out");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    let below_file = file.join("sub");
    let d = |p: &Path| p.display().to_string();
    // Without the check, stress ran its whole campaign (here 30 s) before it found out that
    // it could not save.
    for save in [&file, &below_file] {
        refused(
            &[
                "stress",
                "omok",
                "--seed",
                "1",
                "--time",
                "30",
                "--save",
                &d(save),
            ]
            .map(String::from),
            "--save",
        );
    }
    for out_dir in [&file, &below_file] {
        for command in [
            &["gen", "omok", "--seed", "1", "--count", "2", "--out"][..],
            &["testset", "omok", "--seed", "1", "--out"],
            &["solutions", "omok", "--out"],
        ] {
            let mut args: Vec<String> = command.iter().map(|s| s.to_string()).collect();
            args.push(d(out_dir));
            refused(&args, "--out");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_submission_typed_without_the_double_dash_gets_a_hint() {
    for args in [
        &["run", "omok", "--tests", "t", "python3", "sol.py"][..],
        &["run", "omok", "--tests", "t", "./a.out"],
        &["stress", "omok", "--seed", "1", "python3", "sol.py"],
    ] {
        let out = judge().args(args).output().unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("tip: the submission goes after `--`"),
            "{args:?}: {stderr}"
        );
    }
    // Another unexpected word (not where a submission would go) gets no such hint.
    let out = judge().args(["solve", "omok", "a", "b"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!text(&out.stderr).contains("submission goes after"));
}

#[test]
fn a_path_that_does_not_exist_is_said_one_way_by_every_command() {
    let dir = scratch("arguments-missing");
    let tests = omok_tests(&dir, 1);
    let missing = dir.join("missing");
    let m = missing.display().to_string();
    let t = tests.display().to_string();
    let zero = script(&dir, "zero.sh", "cat > /dev/null\necho 0\n");
    let z = zero.display().to_string();
    let missing_py = dir.join("missing.py").display().to_string();
    for (args, path) in [
        (vec!["solve", "omok", &m], &m),
        (vec!["validate", "omok", &m], &m),
        (vec!["run", "omok", "--tests", &m, "--", &z], &m),
        (vec!["run", "omok", "--tests", &t, "--submissions", &m], &m),
        (
            vec!["run", "omok", "--tests", &t, "--", &missing_py],
            &missing_py,
        ),
        (
            vec!["stress", "omok", "--seed", "1", "--", &missing_py],
            &missing_py,
        ),
        (vec!["strength", "omok", "--tests", &t, "--wrong", &m], &m),
        (vec!["strength", "omok", "--tests", &m, "--wrong", &t], &m),
        (vec!["merge", &m], &m),
    ] {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        refused(
            &args,
            &format!("judge: error: usage: {path}: no such file or folder"),
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_of_anything_is_singular() {
    let dir = scratch("arguments-singular");
    let tests = omok_tests(&dir, 1);
    let out = judge()
        .args(["gen", "omok", "--seed", "3", "--count", "1", "--out"])
        .arg(dir.join("one"))
        .output()
        .unwrap();
    assert_eq!(
        text(&out.stderr).trim_end(),
        format!("wrote 1 valid input to {}", dir.join("one").display())
    );
    let out = judge()
        .args(["validate", "omok"])
        .arg(&tests)
        .output()
        .unwrap();
    assert!(
        text(&out.stdout).contains("the 1 input in"),
        "{}",
        text(&out.stdout)
    );
    let zero = script(&dir, "zero.sh", "cat > /dev/null\necho 0\n");
    let out = judge()
        .args(["run", "omok", "--tests"])
        .arg(&tests)
        .arg("--")
        .arg(&zero)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert!(stdout.contains("omok: 1 of 1 test run: "), "{stdout}");
    let submissions = dir.join("submissions");
    std::fs::create_dir_all(&submissions).unwrap();
    std::fs::copy(&zero, submissions.join("zero.sh")).unwrap();
    let out = judge()
        .args(["run", "omok", "--tests"])
        .arg(&tests)
        .arg("--submissions")
        .arg(&submissions)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("omok: 1 of 1 submission judged on 1 test: "),
        "{stdout}"
    );
    let out = judge()
        .args(["stress", "omok", "--seed", "1", "--cases", "1"])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert!(stdout.contains(" on 1 case of omok"), "{stdout}");
    assert!(stdout.contains("ran 1 case in "), "{stdout}");
    // Thousands are separated where people read them (the timings line, as its rate).
    let out = judge()
        .args(["stress", "omok", "--seed", "1", "--cases", "1500"])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert!(stdout.contains("ran 1,500 cases in "), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
