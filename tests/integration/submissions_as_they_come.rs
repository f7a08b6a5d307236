//! `judge run --submissions` shows results as they come (issue 35.4): a row per submission as
//! soon as it is judged, in a pipe too and in the table's order; build lines and compile
//! errors that name the submission; the short `sandbox:` line without `-v` (in `judge merge`
//! too).

use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::generation::scratch;
use crate::util::*;

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

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn each_row_arrives_as_soon_as_its_submission_is_judged_in_a_pipe_and_in_order() {
    let dir = scratch("as-they-come");
    let tests = omok_tests(&dir, 2);
    let subs = dir.join("subs");
    // Judged in name order: two quick ones, then one that takes 2 × 3 s (sleeping costs no
    // CPU time, and the wall clock allows 2 × 2 s + 1 s per test).
    script(&subs, "a-quick.sh", "cat > /dev/null\necho 0\n");
    script(&subs, "b-quick.sh", "cat > /dev/null\necho 0\n");
    script(&subs, "z-slow.sh", "cat > /dev/null\nsleep 3\necho 0\n");
    let started = Instant::now();
    let mut child = judge()
        .args(["run", "omok", "--jobs", "1", "--tests"])
        .arg(&tests)
        .arg("--submissions")
        .arg(&subs)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Standard error drained aside, so that the judge never blocks on it.
    let mut stderr = child.stderr.take().unwrap();
    let drain = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });
    let mut lines = Vec::new();
    let mut first_row_at = None;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if line.starts_with("a-quick.sh") {
            first_row_at = Some(started.elapsed());
        }
        lines.push(line);
    }
    let status = child.wait().unwrap();
    let ended_at = started.elapsed();
    let stderr = drain.join().unwrap();
    assert!(matches!(status.code(), Some(0 | 1)), "{stderr}");
    let first_row_at = first_row_at.unwrap_or_else(|| panic!("no row: {lines:?}\n{stderr}"));
    assert!(
        ended_at - first_row_at >= Duration::from_secs(4),
        "the first row came at {first_row_at:?}, the end at {ended_at:?}: not as it was judged"
    );
    let names: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        names,
        [
            "submission",
            "a-quick.sh",
            "b-quick.sh",
            "z-slow.sh",
            "omok:"
        ],
        "{lines:?}"
    );
    assert!(
        lines[4].starts_with("omok: 3 of 3 submissions judged on 2 tests"),
        "{lines:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn builds_and_compile_errors_name_the_submission_and_the_sandbox_line_is_short() {
    let dir = scratch("as-they-come-ce");
    let tests = omok_tests(&dir, 2);
    let subs = dir.join("subs");
    std::fs::create_dir_all(&subs).unwrap();
    std::fs::write(subs.join("bad.c"), "int main( {\n").unwrap();
    std::fs::write(
        subs.join("good.c"),
        "#include <stdio.h>\nint main(void) { puts(\"0\"); return 0; }\n",
    )
    .unwrap();
    let run = |verbose: bool| {
        let mut command = judge();
        if verbose {
            command.arg("-v");
        }
        command
            .args(["run", "omok", "--tests"])
            .arg(&tests)
            .arg("--submissions")
            .arg(&subs)
            .output()
            .unwrap()
    };
    let out = run(false);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    // Each build line names its submission; the compiler's message, as a single run prints
    // it, is on standard error, the table on standard output.
    for name in ["bad.c", "good.c"] {
        assert!(
            stderr.lines().any(|l| l.starts_with("build: gcc")
                && l.trim_end_matches(" (cached)")
                    .ends_with(&format!("/{name}"))),
            "{name}: {stderr}"
        );
    }
    assert!(
        stderr.contains("CE   bad.c: the build failed (gcc ") && stderr.contains("error"),
        "{stderr}"
    );
    assert!(
        !text(&out.stdout).contains("error"),
        "{}",
        text(&out.stdout)
    );
    let sandbox: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("sandbox: "))
        .collect();
    assert_eq!(sandbox.len(), 1, "{stderr}");
    assert!(sandbox[0].ends_with(" (-v for details)"), "{stderr}");
    assert!(!sandbox[0].contains(": yes"), "{stderr}");
    let verbose = text(&run(true).stderr);
    assert!(
        verbose
            .lines()
            .any(|l| l.starts_with("sandbox: ") && l.contains(": yes")),
        "{verbose}"
    );
    // `judge merge` of the shards says it as briefly.
    let saved = dir.join("saved");
    let out = judge()
        .args(["run", "omok", "--tests"])
        .arg(&tests)
        .arg("--submissions")
        .arg(&subs)
        .args(["--shard", "1/1", "--save"])
        .arg(&saved)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let out = judge().arg("merge").arg(&saved).output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let sandbox: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("sandbox: "))
        .collect();
    assert_eq!(sandbox.len(), 1, "{stderr}");
    assert!(
        sandbox[0].ends_with(" (-v for details)") && !sandbox[0].contains(": yes"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
