//! `judge run` against hostile submissions: each gets its expected verdict, the judge never
//! hangs, and nothing the submission started is left running afterwards.
//!
//! The one test is othello-flips sample 2, whose answer is `0`.

use std::path::{Path, PathBuf};

use crate::generation::scratch;
use crate::util::*;

const SAMPLE_2: &str =
    "NNNNNNNN\nNNNNNNNN\nNNNNNNNN\nNNNWBNNN\nNNNBWNNN\nNNNNNNNN\nNNNNNNNN\nNNNNNNNP\n";

fn is_root() -> bool {
    // SAFETY: no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// A one-test test set and the hostile program's source copied next to it.
fn setup(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(&format!("hostile-{name}"));
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(tests.join("sample-2.in"), SAMPLE_2).unwrap();
    std::fs::write(tests.join("sample-2.ans"), "0\n").unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/integration/hostile")
        .join(format!("{name}.c"));
    let copy = dir.join(format!("{name}.c"));
    std::fs::copy(source, &copy).unwrap();
    (dir, copy)
}

#[derive(serde::Deserialize, Debug)]
struct Row {
    verdict: String,
    exit: String,
    message: String,
    cpu_ms: u64,
    peak_kb: u64,
}

/// Runs `name.c` (built by the judge) with `extra` arguments after it; returns the report row.
fn run_hostile(name: &str, extra: &[&str], time_limit: &str) -> Row {
    let (dir, source) = setup(name);
    let report = dir.join("report.json");
    let mut command = judge();
    command.current_dir(&dir).args([
        "run",
        "othello-flips",
        "--tests",
        "tests",
        "--time-limit",
        time_limit,
        "--memory-limit",
        "64",
        "--jobs",
        "1",
    ]);
    command.arg("--report").arg(&report).arg("--");
    if extra.is_empty() {
        command.arg(source.file_name().unwrap());
    } else {
        // With arguments the command runs as typed, so build it first.
        let binary = dir.join(name);
        let status = std::process::Command::new("gcc")
            .arg("-O2")
            .arg("-o")
            .arg(&binary)
            .arg(&source)
            .status()
            .unwrap();
        assert!(status.success());
        command.arg(format!("./{name}")).args(extra);
    }
    let started = std::time::Instant::now();
    let out = command.output().unwrap();
    assert_no_panic(&out);
    assert!(
        started.elapsed().as_secs() < 30,
        "{name}: the judge took {:?}",
        started.elapsed()
    );
    let rows: Vec<Row> = serde_json::from_slice(
        &std::fs::read(&report)
            .unwrap_or_else(|_| panic!("{name}: no report; stderr: {}", text(&out.stderr))),
    )
    .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(rows.len(), 1, "{name}");
    let row = rows.into_iter().next().unwrap();
    let expected_exit = if row.verdict == "AC" { 0 } else { 1 };
    assert_eq!(
        out.status.code(),
        Some(expected_exit),
        "{name}: {row:?} {}",
        text(&out.stderr)
    );
    row
}

/// No process whose command line contains `marker` is alive.
fn assert_nothing_left(marker: &str) {
    // Give the kernel a moment to finish tearing the namespace down.
    for _ in 0..50 {
        let alive: Vec<String> = std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .bytes()
                    .all(|b| b.is_ascii_digit())
            })
            .filter_map(|e| {
                std::fs::read(e.path().join("cmdline"))
                    .ok()
                    .map(|c| (e.file_name(), c))
            })
            .filter(|(_, c)| String::from_utf8_lossy(c).contains(marker))
            .map(|(pid, c)| {
                format!(
                    "{} {}",
                    pid.to_string_lossy(),
                    String::from_utf8_lossy(&c).replace('\0', " ")
                )
            })
            .collect();
        if alive.is_empty() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("processes marked {marker} are still running");
}

#[test]
fn infinite_loop_is_tle_on_cpu_time() {
    let row = run_hostile("infinite_loop", &[], "0.5");
    assert_eq!(row.verdict, "TLE", "{row:?}");
    assert!(row.cpu_ms >= 500, "{row:?}");
    assert_nothing_left("infinite_loop");
}

#[test]
fn sleep_forever_is_tle_on_the_wall_clock() {
    let row = run_hostile("sleep_forever", &[], "0.5");
    assert_eq!(row.verdict, "TLE", "{row:?}");
    assert!(row.message.contains("wall"), "{row:?}");
    assert_nothing_left("sleep_forever");
}

#[test]
fn fork_bomb_is_contained_and_killed() {
    let row = run_hostile("fork_bomb", &[], "0.5");
    assert_ne!(row.verdict, "AC", "{row:?}");
    assert_nothing_left("fork_bomb");
}

#[test]
fn memory_hog_is_mle() {
    let row = run_hostile("memory_hog", &[], "2");
    assert_eq!(row.verdict, "MLE", "{row:?}");
    assert!(row.peak_kb >= 64 * 1024, "{row:?}");
    assert_nothing_left("memory_hog");
}

#[test]
fn printing_forever_is_ole() {
    let row = run_hostile("print_forever", &[], "2");
    assert_eq!(row.verdict, "OLE", "{row:?}");
    assert_nothing_left("print_forever");
}

#[test]
fn printing_nothing_is_wa() {
    let row = run_hostile("print_nothing", &[], "1");
    assert_eq!(row.verdict, "WA", "{row:?}");
}

#[test]
fn closing_stdin_at_once_does_not_upset_the_judge() {
    let row = run_hostile("close_stdin", &[], "1");
    assert_eq!(row.verdict, "AC", "{row:?}");
}

#[test]
fn flooding_stderr_is_drained() {
    let row = run_hostile("flood_stderr", &[], "2");
    assert_eq!(row.verdict, "AC", "{row:?}");
}

#[test]
fn segfault_is_re_with_the_signal_name() {
    let row = run_hostile("segfault", &[], "1");
    assert_eq!(row.verdict, "RE", "{row:?}");
    assert_eq!(row.exit, "SIGSEGV", "{row:?}");
}

#[test]
fn exit_status_three_after_a_right_answer_is_re() {
    let row = run_hostile("exit_three", &[], "1");
    assert_eq!(row.verdict, "RE", "{row:?}");
    assert_eq!(row.exit, "exit 3", "{row:?}");
}

#[test]
fn setsid_grandchild_does_not_survive_the_test() {
    let row = run_hostile("setsid_grandchild", &[], "2");
    assert_eq!(row.verdict, "AC", "{row:?}");
    if is_root() {
        assert_nothing_left("4242427");
    } else {
        eprintln!("not root: no PID namespace, a setsid grandchild can escape (see the README)");
    }
}

#[test]
fn searching_the_disk_finds_no_answer_file() {
    let row = run_hostile("search_answers", &[], "5");
    assert_eq!(row.verdict, "WA", "{row:?}");
}

#[test]
fn connecting_to_a_local_tcp_port_is_blocked() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let row = run_hostile("connect_tcp", &[&port], "1");
    assert_eq!(row.verdict, "WA", "{row:?}");
    assert!(
        listener.accept().is_err(),
        "the submission reached the listener"
    );
}

#[test]
fn sigterm_kills_every_submission_writes_the_finished_rows_and_exits_2() {
    let dir = scratch("sigterm");
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    // Tests t0..t3 are answered at once; t4..t7 (a row of white discs) make the submission
    // sleep, marked 5151517 on its command line.
    let sleeper = SAMPLE_2.replacen("NNNNNNNN", "WWWWWWWW", 1);
    for k in 0..8 {
        std::fs::write(
            tests.join(format!("t{k}.in")),
            if k < 4 { SAMPLE_2 } else { sleeper.as_str() },
        )
        .unwrap();
        std::fs::write(tests.join(format!("t{k}.ans")), "0\n").unwrap();
    }
    let script = dir.join("sub.sh");
    std::fs::write(
        &script,
        "input=$(cat)\ncase \"$input\" in *WWWWWWWW*) exec sleep 5151517 ;; esac\necho 0\n",
    )
    .unwrap();
    let report = dir.join("report.csv");
    let mut child = judge()
        .args(["run", "othello-flips", "--tests"])
        .arg(&tests)
        .args(["--time-limit", "10", "--jobs", "2", "--report"])
        .arg(&report)
        .args(["--", "sh"])
        .arg(&script)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(2000));
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let started = std::time::Instant::now();
    let status = child.wait().unwrap();
    assert!(
        started.elapsed().as_secs() < 10,
        "the judge did not stop promptly"
    );
    assert_eq!(status.code(), Some(2));
    let rows = std::fs::read_to_string(&report).unwrap();
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(lines[0], "test,verdict,cpu_ms,wall_ms,peak_kb,exit,message");
    assert_eq!(lines.len(), 5, "the four finished tests: {rows}");
    assert!(lines[1..].iter().all(|l| l.contains(",AC,")), "{rows}");
    assert_nothing_left("5151517");
    let _ = std::fs::remove_dir_all(&dir);
}

/// As a user that is not root, the judge still isolates processes with a PID namespace inside
/// a user namespace (where the kernel allows them): a `setsid` grandchild does not survive.
/// Run as `nobody` through `setpriv` when the tests run as root (as on CI).
#[test]
fn without_root_a_user_namespace_still_catches_setsid_grandchildren() {
    if !is_root() || !Path::new("/usr/bin/setpriv").exists() {
        eprintln!("skipped: needs root (to become nobody) and setpriv");
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let (dir, source) = setup("setsid_grandchild");
    let binary = dir.join("grandchild");
    assert!(
        std::process::Command::new("gcc")
            .arg("-O2")
            .arg("-o")
            .arg(&binary)
            .arg(&source)
            .status()
            .unwrap()
            .success()
    );
    // Everything nobody needs: the judge, the program, the tests, a folder to write into.
    let judge_copy = dir.join("judge");
    std::fs::copy(env!("CARGO_BIN_EXE_judge"), &judge_copy).unwrap();
    for path in [&dir, &dir.join("tests")] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    let out = std::process::Command::new("/usr/bin/setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(&judge_copy)
        .args(["run", "othello-flips", "--tests"])
        .arg(dir.join("tests"))
        .args(["--time-limit", "2", "--"])
        .arg(&binary)
        .current_dir(&dir)
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{}{stderr}", text(&out.stdout));
    if stderr.contains("PID namespace: yes (in a user namespace)") {
        assert_nothing_left("4242427");
    } else {
        eprintln!("this kernel allows no unprivileged user namespaces: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
