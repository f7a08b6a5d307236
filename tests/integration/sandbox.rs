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
        // Tests run in a secret order: with a slot more than there are sleepers, every quick
        // test finishes whatever the order.
        .args(["--time-limit", "10", "--jobs", "5", "--report"])
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
        skipped("needs root (to become nobody) and setpriv");
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
    if stderr.contains("in a user namespace") {
        assert_nothing_left("4242427");
    } else {
        eprintln!("this kernel allows no unprivileged user namespaces: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- One program per attack of issue 14, each with the contained outcome and, where the
// ---- attack can work at all outside the judge, a control showing it does.

/// Compiles `hostile/NAME.c` into `dir`.
fn compile(name: &str, dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/integration/hostile")
        .join(format!("{name}.c"));
    let binary = dir.join(name);
    let out = std::process::Command::new("gcc")
        .args(["-O2", "-pthread", "-o"])
        .arg(&binary)
        .arg(&source)
        .output()
        .unwrap();
    assert!(out.status.success(), "{name}: {}", text(&out.stderr));
    binary
}

/// A test folder at `dir` holding sample 2 under the names `names` (answer `0`).
fn test_folder(dir: &Path, names: &[&str]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    for name in names {
        std::fs::write(dir.join(format!("{name}.in")), SAMPLE_2).unwrap();
        std::fs::write(dir.join(format!("{name}.ans")), "0\n").unwrap();
    }
    dir.to_path_buf()
}

/// `judge run othello-flips --tests TESTS … --report REPORT -- COMMAND` from `cwd`; the
/// judge's output and the report's rows.
fn judge_rows(
    cwd: &Path,
    tests: &Path,
    limits: [&str; 2],
    report: &Path,
    command: &[&std::ffi::OsStr],
) -> (std::process::Output, Vec<Row>) {
    let out = judge()
        .current_dir(cwd)
        .args(["run", "othello-flips", "--tests"])
        .arg(tests)
        .args(["--time-limit", limits[0], "--memory-limit", limits[1]])
        .args(["--jobs", "1", "--report"])
        .arg(report)
        .arg("--")
        .args(command)
        .output()
        .unwrap();
    assert_no_panic(&out);
    let rows = if report.extension().is_some_and(|e| e == "json") {
        serde_json::from_slice(
            &std::fs::read(report)
                .unwrap_or_else(|_| panic!("no report; stderr: {}", text(&out.stderr))),
        )
        .unwrap()
    } else {
        Vec::new()
    };
    (out, rows)
}

/// Runs `binary ARGS` directly (the control), with sample 2 as input; its standard output.
fn run_outside(binary: &Path, args: &[&str]) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(binary)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(SAMPLE_2.as_bytes());
    text(&child.wait_with_output().unwrap().stdout)
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

fn remove_sysv(key: i32) {
    // SAFETY: plain System V calls on integer keys; failures are ignored.
    unsafe {
        let id = libc::shmget(key, 0, 0);
        if id >= 0 {
            libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut());
        }
        let id = libc::semget(key, 0, 0);
        if id >= 0 {
            libc::semctl(id, 0, libc::IPC_RMID);
        }
        let id = libc::msgget(key, 0);
        if id >= 0 {
            libc::msgctl(id, libc::IPC_RMID, std::ptr::null_mut());
        }
    }
}

#[test]
fn answers_are_not_found_through_the_judges_command_line() {
    let dir = scratch("cmdline-leak");
    let tests = test_folder(&dir.join("tests"), &["sample-2"]);
    let binary = compile("answers_via_judge_cmdline", &dir);
    // Control: a process whose command line names the test folder, as the judge's does.
    let mut decoy = std::process::Command::new("sh")
        .args(["-c", "sleep 30; :", "sh", "--tests"])
        .arg(&tests)
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    let outside = run_outside(&binary, &[]);
    decoy.kill().unwrap();
    decoy.wait().unwrap();
    remove_sysv(0x5a5a17);
    assert_eq!(outside, "0\n", "the control should find the answer");
    let (_, rows) = judge_rows(
        &dir,
        &tests,
        ["2", "64"],
        &dir.join("r.json"),
        &[binary.as_os_str()],
    );
    assert_eq!(rows[0].verdict, "WA", "{:?}", rows[0]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sysv_ipc_does_not_survive_a_run() {
    let dir = scratch("sysv");
    let tests = test_folder(&dir.join("tests"), &["t1", "t2", "t3"]);
    let binary = compile("sysv_ipc_survives", &dir);
    let key = 0x5a_0000 + (std::process::id() as i32 & 0xffff);
    let key_arg = format!("key={key}");
    // Control: outside, the second run sees what the first left.
    let first = run_outside(&binary, &[&key_arg]);
    let second = run_outside(&binary, &[&key_arg]);
    remove_sysv(key);
    assert_eq!((first.as_str(), second.as_str()), ("0\n", "1\n"));
    let (_, rows) = judge_rows(
        &dir,
        &tests,
        ["2", "64"],
        &dir.join("r.json"),
        &[binary.as_os_str(), os(&key_arg)],
    );
    assert!(rows.iter().all(|r| r.verdict == "AC"), "{rows:?}");
    // SAFETY: looking a key up.
    let left = unsafe {
        [
            libc::shmget(key, 0, 0),
            libc::semget(key, 0, 0),
            libc::msgget(key, 0),
        ]
    };
    remove_sysv(key);
    assert_eq!(left, [-1, -1, -1], "System V objects outlived the judge");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn answers_kept_under_opt_usr_local_or_tmp_are_invisible() {
    let dir = scratch("hidden-tests");
    let binary = compile("read_answer_path", &dir);
    let mut bases = vec![std::env::temp_dir()];
    if is_root() {
        bases.push(PathBuf::from("/opt"));
        bases.push(PathBuf::from("/usr/local"));
    }
    for base in bases {
        let tests = test_folder(
            &base.join(format!("boardjudge-hidden-{}", std::process::id())),
            &["sample-2"],
        );
        let path_arg = format!("path={}", tests.join("sample-2.ans").display());
        let outside = run_outside(&binary, &[&path_arg]);
        let (_, rows) = judge_rows(
            &dir,
            &tests,
            ["2", "64"],
            &dir.join("r.json"),
            &[binary.as_os_str(), os(&path_arg)],
        );
        let _ = std::fs::remove_dir_all(&tests);
        assert_eq!(outside, "0\n", "control under {}", base.display());
        assert_eq!(
            rows[0].verdict,
            "WA",
            "under {}: {:?}",
            base.display(),
            rows[0]
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Everything that reached the listeners: (kinds of messages, ports they named).
fn drain_listeners(
    tcp: &std::net::TcpListener,
    udp: &std::net::UdpSocket,
    unix: &std::os::unix::net::UnixListener,
) -> Vec<String> {
    use std::io::Read;
    let mut got = Vec::new();
    let mut read_all = |mut s: Box<dyn Read>| {
        let mut text = String::new();
        let _ = s.read_to_string(&mut text);
        got.extend(text.lines().map(str::to_string));
    };
    while let Ok((s, _)) = tcp.accept() {
        s.set_nonblocking(false).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(2)))
            .unwrap();
        read_all(Box::new(s));
    }
    while let Ok((s, _)) = unix.accept() {
        s.set_nonblocking(false).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(2)))
            .unwrap();
        read_all(Box::new(s));
    }
    let mut buffer = [0u8; 256];
    while let Ok(n) = udp.recv(&mut buffer) {
        got.push(text(&buffer[..n]).trim().to_string());
    }
    got
}

#[test]
fn no_way_out_to_the_network_or_a_local_socket() {
    let dir = scratch("network");
    let tests = test_folder(&dir.join("tests"), &["sample-2"]);
    let binary = compile("net_escape", &dir);
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = tcp.local_addr().unwrap().port();
    let udp = std::net::UdpSocket::bind(("127.0.0.1", port)).unwrap();
    let socket = dir.join("listener.sock");
    let unix = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    for listener in [
        tcp.as_raw_fd_ref(),
        udp.as_raw_fd_ref(),
        unix.as_raw_fd_ref(),
    ] {
        set_nonblocking(listener);
    }
    let port_arg = format!("port={port}");
    let unix_arg = format!("unix={}", socket.display());
    // Control: outside, every way gets through, and the unbound listener is reachable.
    let mut child = std::process::Command::new(&binary)
        .args([&port_arg, &unix_arg])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The UDP message names the unbound listener's port: connect back while it listens,
    // before reading the streams (which end when the program does).
    let mut buffer = [0u8; 256];
    udp.set_read_timeout(Some(std::time::Duration::from_secs(5)))
        .unwrap();
    set_blocking(udp.as_raw_fd_ref());
    let n = udp
        .recv(&mut buffer)
        .expect("the control sent nothing by UDP");
    set_nonblocking(udp.as_raw_fd_ref());
    let first = text(&buffer[..n]).trim().to_string();
    let listening: u16 = first
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap();
    let connected_back = std::net::TcpStream::connect(("127.0.0.1", listening)).is_ok();
    child.wait().unwrap();
    let mut outside = drain_listeners(&tcp, &udp, &unix);
    outside.push(first);
    for kind in ["fastopen", "udp", "unix"] {
        assert!(
            outside.iter().any(|l| l.starts_with(kind)),
            "control: no {kind} in {outside:?}"
        );
    }
    assert!(
        connected_back,
        "control: the unbound listener was not reachable"
    );
    let (_, rows) = judge_rows(
        &dir,
        &tests,
        ["2", "64"],
        &dir.join("r.json"),
        &[binary.as_os_str(), os(&port_arg), os(&unix_arg)],
    );
    assert_eq!(rows[0].verdict, "AC", "{:?}", rows[0]);
    let inside = drain_listeners(&tcp, &udp, &unix);
    assert!(
        inside.is_empty(),
        "the sandboxed program got through: {inside:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

trait RawFdRef {
    fn as_raw_fd_ref(&self) -> i32;
}
impl<T: std::os::fd::AsRawFd> RawFdRef for T {
    fn as_raw_fd_ref(&self) -> i32 {
        self.as_raw_fd()
    }
}

fn set_blocking(fd: i32) {
    // SAFETY: changing the flags of a descriptor the test owns.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
    }
}

fn set_nonblocking(fd: i32) {
    // SAFETY: changing the flags of a descriptor the test owns.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
}

/// The process that runs the sandbox held a lot of memory before a tiny program ran: the tiny
/// program's peak must be its own (with `ru_maxrss` after `CLONE_VM` + `execve` it was the
/// judge's, and a 1 MiB program got MLE under 16 MiB). This drives the sandbox directly, from
/// a process that has touched 48 MiB: the judge validates every test input now, so it no
/// longer reads a 48 MiB input (an invalid one) before a run, and no valid input of any
/// problem is big enough to stand in for it.
#[test]
fn peak_memory_is_the_submissions_not_the_judges() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("judge-rss");
    let binary = compile("small_after_big", &dir);
    // Reachable by the sandbox's unprivileged user wherever the scratch folder lies.
    for path in [&dir, &binary] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut held = vec![0u8; 48 << 20];
    for page in held.chunks_mut(4096) {
        page[0] = 1;
    }
    std::hint::black_box(&held);
    // Copied into the box, as the judge does.
    let command = sandbox::Command {
        program: std::path::Path::new(sandbox::BOX).join("small"),
        files: vec![sandbox::BoxFile {
            path: "small".to_string(),
            contents: std::fs::read(&binary).unwrap().into(),
            executable: true,
        }],
        ..sandbox::Command::default()
    };
    let boxed = sandbox::Sandbox::new(command, 1).unwrap();
    let limits = sandbox::Limits::new(std::time::Duration::from_secs(2), 16);
    let never = std::sync::atomic::AtomicBool::new(false);
    for input in [SAMPLE_2.as_bytes(), b""] {
        let run = boxed.run(0, input, &limits, &never).unwrap();
        assert_eq!(run.exit, sandbox::Exit::Code(0), "{run:?}");
        assert!(!run.memory_exceeded, "{run:?}");
        assert!(run.peak_kb < 16 * 1024, "{run:?}");
        assert_eq!(text(&run.stdout), "0\n");
    }
    drop(held);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A test input the problem's validator rejects is the jury's error, not a run: the judge
/// stops before any submission runs (here a 48 MiB input, which it reads no further than the
/// longest valid input, then cuts).
#[test]
fn an_invalid_test_input_is_a_jury_error_before_any_run() {
    let dir = scratch("judge-big-input");
    let tests = test_folder(&dir.join("tests"), &["b-sample"]);
    let big = SAMPLE_2.repeat(48 * 1024 * 1024 / SAMPLE_2.len());
    std::fs::write(tests.join("a-big.in"), big).unwrap();
    std::fs::write(tests.join("a-big.ans"), "0\n").unwrap();
    let out = judge()
        .args(["run", "othello-flips", "--tests"])
        .arg(&tests)
        .args(["--", "echo", "0"])
        .output()
        .unwrap();
    assert_no_panic(&out);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "judge: error: jury error: {}:9:1: invalid test input:",
            tests.join("a-big.in").display()
        )),
        "{stderr}"
    );
    // No test ran: no verdict, no summary.
    assert_eq!(text(&out.stdout), "", "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A grandchild burns CPU while its parent ignores SIGCHLD (so no rusage ever counts it):
/// the run's CPU time still does, and the run is stopped near the limit, not at the wall
/// clock.
#[test]
fn cpu_of_a_child_nobody_reaps_is_counted() {
    if !is_root() {
        skipped("needs root: without cgroups this CPU time is not counted (docs/sandbox.md)");
        return;
    }
    let dir = scratch("child-cpu");
    let tests = test_folder(&dir.join("tests"), &["sample-2"]);
    let binary = compile("child_burns_cpu", &dir);
    let (_, rows) = judge_rows(
        &dir,
        &tests,
        ["1", "64"],
        &dir.join("r.json"),
        &[binary.as_os_str()],
    );
    let row = &rows[0];
    assert_eq!(row.verdict, "TLE", "{row:?}");
    assert!(row.cpu_ms >= 1000, "{row:?}");
    assert!(row.message.contains("CPU time"), "{row:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// CPU-time verdicts do not depend on how busy the machine is: with the other core(s) kept
/// busy, a 0.3 s program is AC under 1 s and an endless loop TLE on CPU time.
#[test]
fn cpu_verdicts_hold_with_the_machine_busy() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = scratch("busy");
    let tests = test_folder(&dir.join("tests"), &["sample-2"]);
    let brief = compile("burn_cpu_briefly", &dir);
    // Renamed: another test looks for processes named infinite_loop.
    let endless = dir.join("endless");
    std::fs::rename(compile("infinite_loop", &dir), &endless).unwrap();
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                }
            });
        }
        let (_, rows) = judge_rows(
            &dir,
            &tests,
            ["1", "64"],
            &dir.join("a.json"),
            &[brief.as_os_str()],
        );
        let (_, loops) = judge_rows(
            &dir,
            &tests,
            ["0.5", "64"],
            &dir.join("b.json"),
            &[endless.as_os_str()],
        );
        stop.store(true, Ordering::Relaxed);
        assert_eq!(rows[0].verdict, "AC", "{:?}", rows[0]);
        assert_eq!(loops[0].verdict, "TLE", "{:?}", loops[0]);
        assert!(loops[0].message.contains("CPU time"), "{:?}", loops[0]);
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_30000_deep_directory_tree_does_not_bring_the_judge_down() {
    let dir = scratch("deep-tree");
    let tests = test_folder(&dir.join("tests"), &["t1", "t2"]);
    let binary = compile("deep_tree", &dir);
    let (out, rows) = judge_rows(
        &dir,
        &tests,
        ["5", "64"],
        &dir.join("r.json"),
        &[binary.as_os_str()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(rows.iter().all(|r| r.verdict == "AC"), "{rows:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The judge's groups in every hierarchy, from a process of its run (as the host sees it):
/// the run's group is `…/boardjudge-u<uid>/slot-K`, the judge's its parent.
fn judge_groups_of(pid: &str) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/cgroup")).unwrap_or_default();
    let mut groups = Vec::new();
    for line in text.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next(), parts.next(), parts.next());
        let (Some(controllers), Some(path)) = (controllers, path) else {
            continue;
        };
        if !path.contains("/boardjudge-") {
            continue;
        }
        let mount = match controllers {
            "" => "unified",
            c => c.split(',').next().unwrap(),
        };
        let group = Path::new("/sys/fs/cgroup")
            .join(mount)
            .join(path.trim_start_matches('/'));
        groups.push(group.parent().unwrap().to_path_buf());
    }
    groups
}

/// The judge is killed with SIGKILL (no handler runs): the submission and its grandchild
/// die with it; its groups (v1: memory, cpuacct, pids, and the pressure group; or v2) stay,
/// since no destructor ran, and the next judge removes them.
#[test]
fn sigkill_of_the_judge_leaves_nothing_running() {
    let dir = scratch("sigkill");
    let tests = test_folder(&dir.join("tests"), &["sample-2"]);
    let script = dir.join("sleeper.sh");
    std::fs::write(&script, "sleep 7373738 &\nexec sleep 7373737\n").unwrap();
    let mut child = judge()
        .args(["run", "othello-flips", "--tests"])
        .arg(&tests)
        .args(["--time-limit", "20", "--", "sh"])
        .arg(&script)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let running = |marker: &str| {
        std::fs::read_dir("/proc").unwrap().flatten().find_map(|e| {
            std::fs::read(e.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
                .then(|| e.file_name().to_string_lossy().into_owned())
        })
    };
    let started = std::time::Instant::now();
    while !(running("7373737").is_some() && running("7373738").is_some()) {
        assert!(
            started.elapsed().as_secs() < 10,
            "the submission never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // A run that lasts is in its pressure group too (moved there after its first 50 ms).
    std::thread::sleep(std::time::Duration::from_millis(500));
    let groups = judge_groups_of(&running("7373737").unwrap());
    if is_root() {
        assert!(!groups.is_empty(), "the run is in no group of the judge's");
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_nothing_left("737373");
    // No destructor ran: the dead judge's groups are still there, unless a judge of another
    // test, started since, found them stale already (their uid's lease is free from the
    // moment the judge died; each judge leases several). Those that are left must go with the
    // next judge.
    let groups: Vec<PathBuf> = groups.into_iter().filter(|g| g.is_dir()).collect();
    use std::os::unix::fs::MetadataExt;
    let inodes: Vec<u64> = groups
        .iter()
        .map(|g| std::fs::metadata(g).unwrap().ino())
        .collect();
    // The next judge removes them. (Another judge on this machine may have leased the same
    // uid since, and made a group of the same name: a new group then, not the dead judge's.
    // While a judge of another build, one without this rule, holds that uid as a second one,
    // no judge can tell the group is stale: then the next judge once that lease is free.)
    let uid_of = |group: &Path| -> u32 {
        let name = group.file_name().unwrap().to_string_lossy().into_owned();
        name.trim_start_matches("boardjudge-u").parse().unwrap()
    };
    let lease_free = |uid: u32| {
        let path = Path::new("/run/lock/boardjudge").join(format!("uid-{uid}"));
        std::fs::File::open(&path).is_ok_and(|f| {
            // SAFETY: flock on a descriptor we own (released when it is dropped).
            unsafe {
                libc::flock(
                    std::os::fd::AsRawFd::as_raw_fd(&f),
                    libc::LOCK_EX | libc::LOCK_NB,
                ) == 0
            }
        })
    };
    let left = |groups: &[PathBuf]| -> Vec<PathBuf> {
        groups
            .iter()
            .zip(&inodes)
            .filter(|(g, inode)| std::fs::metadata(g).is_ok_and(|m| m.ino() == **inode))
            .map(|(g, _)| g.clone())
            .collect()
    };
    let started = std::time::Instant::now();
    loop {
        let free_before: Vec<PathBuf> = left(&groups)
            .into_iter()
            .filter(|g| lease_free(uid_of(g)))
            .collect();
        let out = judge()
            .args(["run", "othello-flips", "--tests"])
            .arg(&tests)
            .args(["--", "sh", "-c", "echo 0"])
            .output()
            .unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            text(&out.stderr)
        );
        let still = left(&groups);
        if still.is_empty() {
            break;
        }
        for group in &still {
            assert!(
                !free_before.contains(group),
                "{} is left, although its uid's lease was free",
                group.display()
            );
        }
        assert!(
            started.elapsed().as_secs() < 120,
            "{} is left: its uid stayed leased by another judge",
            still[0].display()
        );
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two judges at once: one's submission holds every process it may, the other's starts 20
/// threads. With a uid and a process cap of each judge's own, the second is unaffected.
#[test]
fn two_judges_at_once_do_not_collide() {
    let dir = scratch("two-judges");
    let tests = test_folder(&dir.join("tests"), &["t1", "t2", "t3", "t4"]);
    let holder = compile("hold_processes", &dir);
    let threads = compile("threads_twenty", &dir);
    let mut first = judge()
        .args(["run", "othello-flips", "--tests"])
        .arg(&tests)
        .args(["--time-limit", "10", "--jobs", "1", "--"])
        .arg(&holder)
        .arg("6363636")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    let (_, rows) = judge_rows(
        &dir,
        &tests,
        ["5", "64"],
        &dir.join("r.json"),
        &[threads.as_os_str()],
    );
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(rows.iter().all(|r| r.verdict == "AC"), "{rows:?}");
    assert_nothing_left("6363636");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Escape sequences a submission writes (to standard output, quoted in a WA message, or to
/// standard error, quoted in an RE message) reach no terminal or report raw.
#[test]
fn escape_sequences_are_shown_escaped() {
    let dir = scratch("escapes");
    let tests = test_folder(&dir.join("tests"), &["sample-2"]);
    let binary = compile("escape_sequences", &dir);
    let raw = |bytes: &[u8]| {
        bytes.contains(&0x1b)
            || bytes.contains(&0x07)
            || bytes.windows(2).any(|w| w == [0xc2, 0x9b])
    };
    for report in ["r.json", "r.csv"] {
        let report = dir.join(report);
        let (out, _) = judge_rows(&dir, &tests, ["2", "64"], &report, &[binary.as_os_str()]);
        let written = std::fs::read(&report).unwrap();
        assert!(!raw(&out.stdout), "stdout: {}", text(&out.stdout));
        assert!(!raw(&out.stderr), "stderr: {}", text(&out.stderr));
        assert!(!raw(&written), "report: {}", text(&written));
        assert!(text(&written).contains("x1b[2J"), "{}", text(&written));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without root: the invoking user's files cannot be chmod-ed, touched or given extended
/// attributes, and a 30,000-deep tree left in the scratch directory is removed. Run as
/// `nobody` through `setpriv` when the tests run as root (as on CI).
#[test]
fn without_root_the_invokers_files_stay_unchanged() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    if !is_root() || !Path::new("/usr/bin/setpriv").exists() {
        skipped("needs root (to become nobody) and setpriv");
        return;
    }
    let dir = scratch("nonroot-files");
    let tests = test_folder(&dir.join("tests"), &["sample-2"]);
    let toucher = compile("touch_invoker_files", &dir);
    let deep = compile("deep_tree", &dir);
    let judge_copy = dir.join("judge");
    std::fs::copy(env!("CARGO_BIN_EXE_judge"), &judge_copy).unwrap();
    for path in [&dir, &tests] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o777)).unwrap();
        std::os::unix::fs::chown(path, Some(65534), Some(65534)).unwrap();
    }
    let victim = |name: &str| {
        let path = dir.join(name);
        std::fs::write(&path, "mine\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::os::unix::fs::chown(&path, Some(65534), Some(65534)).unwrap();
        path
    };
    let as_nobody = |program: &Path| {
        let mut command = std::process::Command::new("/usr/bin/setpriv");
        command
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(program)
            .current_dir(&dir);
        command
    };
    // Control: the same program run directly as nobody changes the file.
    let control = victim("control.txt");
    let path_arg = format!("path={}", control.display());
    as_nobody(&toucher).arg(&path_arg).output().unwrap();
    assert_eq!(
        std::fs::metadata(&control).unwrap().mode() & 0o777,
        0o777,
        "control: chmod should work outside the judge"
    );
    let target = victim("target.txt");
    let before = std::fs::metadata(&target).unwrap();
    let path_arg = format!("path={}", target.display());
    let out = as_nobody(&judge_copy)
        .args(["run", "othello-flips", "--tests"])
        .arg(&tests)
        .args(["--time-limit", "5", "--"])
        .arg(&toucher)
        .arg(&path_arg)
        .output()
        .unwrap();
    assert_no_panic(&out);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{}{stderr}", text(&out.stdout));
    let after = std::fs::metadata(&target).unwrap();
    if stderr.contains("in a user namespace") {
        assert_eq!(after.mode(), before.mode(), "mode changed");
        assert_eq!(after.mtime(), before.mtime(), "times changed");
        let attributes = std::process::Command::new("getfattr")
            .arg("-d")
            .arg(&target)
            .output();
        if let Ok(a) = attributes {
            assert!(!text(&a.stdout).contains("pwned"), "an attribute was set");
        }
    } else {
        eprintln!("this kernel allows no unprivileged user namespaces: {stderr}");
    }
    // The deep tree lands in the on-disk scratch directory here, removed without recursion.
    let out = as_nobody(&judge_copy)
        .args(["run", "othello-flips", "--tests"])
        .arg(&tests)
        .args(["--time-limit", "5", "--"])
        .arg(&deep)
        .output()
        .unwrap();
    assert_no_panic(&out);
    // AC, or TLE if building the tree on disk took too long: either way a verdict.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        text(&out.stderr)
    );
    let left = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("boardjudge-sandbox-")
        })
        .filter(|e| e.path().join("slot-0/d").exists())
        .count();
    assert_eq!(left, 0, "a scratch directory with the tree was left behind");
    let _ = std::fs::remove_dir_all(&dir);
}

fn have(program: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Real runtimes work in the sandbox, and a folder submission reads its own files (a Python
/// module and a data file beside the script) while the test folder inside it is not there:
/// each answers 0 only then.
#[test]
fn real_runtimes_run_and_read_their_own_files() {
    let dir = scratch("runtimes");
    let tests = test_folder(&dir.join("py/tests"), &["sample-2"]);
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("py/data.txt", "0\n");
    write(
        "py/helper.py",
        "import os\nhere = os.path.dirname(os.path.abspath(__file__))\n\
         def answer():\n    value = int(open(os.path.join(here, 'data.txt')).read())\n\
         \x20   tests = os.path.join(here, 'tests')\n\
         \x20   return value + (len(os.listdir(tests)) if os.path.isdir(tests) else 0)\n",
    );
    write(
        "py/main.py",
        "import sys\nfrom helper import answer\nsys.stdin.read()\nprint(answer())\n",
    );
    write(
        "sol.js",
        "process.stdin.resume();\nprocess.stdin.on('end', () => console.log(0));\n",
    );
    write("sol.rb", "STDIN.read\nputs 0\n");
    write(
        "sol.c",
        "#include <stdio.h>\nint main(void) { puts(\"0\"); return 0; }\n",
    );
    write(
        "sol.cpp",
        "#include <iostream>\nint main() { std::cout << 0 << std::endl; }\n",
    );
    write("sol.rs", "fn main() { println!(\"0\"); }\n");
    write(
        "java/Main.java",
        "public class Main { public static void main(String[] a) throws Exception {\n\
         System.in.readAllBytes(); System.out.println(0); } }\n",
    );
    let mut commands: Vec<(&str, Vec<&str>)> = vec![
        ("python3", vec!["py"]),
        ("gcc", vec!["sol.c"]),
        ("g++", vec!["sol.cpp"]),
        ("rustc", vec!["sol.rs"]),
        ("node", vec!["sol.js"]),
        ("ruby", vec!["sol.rb"]),
    ];
    if have("javac") && have("jar") {
        let javac = std::process::Command::new("javac")
            .args(["-d", "java", "java/Main.java"])
            .current_dir(&dir)
            .status()
            .unwrap();
        assert!(javac.success());
        std::fs::write(dir.join("java/manifest.txt"), "Main-Class: Main\n").unwrap();
        let jar = std::process::Command::new("jar")
            .args(["cfm", "main.jar", "manifest.txt", "Main.class"])
            .current_dir(dir.join("java"))
            .status()
            .unwrap();
        assert!(jar.success());
        commands.push(("java", vec!["java", "-cp", "java", "Main"]));
        commands.push(("java", vec!["java", "-jar", "java/main.jar"]));
    } else {
        skipped("Java: no JDK (Debian: apt-get install default-jdk-headless)");
    }
    for (needs, command) in commands {
        if !have(needs) {
            skipped(&format!("{command:?}: {needs} is not installed"));
            continue;
        }
        let words: Vec<&std::ffi::OsStr> = command.iter().map(|w| os(w)).collect();
        let (out, rows) = judge_rows(&dir, &tests, ["10", "512"], &dir.join("r.json"), &words);
        assert_eq!(
            rows.first().map(|r| r.verdict.as_str()),
            Some("AC"),
            "{command:?}: {rows:?} {}",
            text(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- Attacks found by the red-team pass of issue 14 (see the README's threat-model table).

const KEY_SPEC_SESSION_KEYRING: libc::c_long = -3;
const KEYCTL_JOIN_SESSION_KEYRING: libc::c_long = 1;

/// Keyrings are kept per uid (and user namespace), not per IPC namespace: a run's user
/// keyring would outlive it (the leased uid serves every later run, of any judge), and its
/// session keyring would be the judge's own (a login's, with its secrets: possessed, so
/// readable whatever its owner). Each run has a user namespace and a session keyring of its
/// own: three runs each find nothing, although the judge's session holds the key.
#[test]
fn keyrings_neither_outlive_a_run_nor_reach_the_judges_session() {
    let dir = scratch("keyrings");
    let tests = test_folder(&dir.join("tests"), &["t1", "t2", "t3"]);
    let binary = compile("keyring_counter", &dir);
    let name_arg = format!("name=boardjudge-keyring-{}", std::process::id());
    // Control: outside, the second run finds what the first left (in @u and in @s).
    let first = run_outside(&binary, &[&name_arg]);
    let second = run_outside(&binary, &[&name_arg]);
    run_outside(&binary, &[&name_arg, "unlink"]);
    assert_eq!((first.as_str(), second.as_str()), ("0\n", "2\n"));
    let mut command = judge();
    command
        .current_dir(&dir)
        .args(["run", "othello-flips", "--tests"])
        .arg(&tests)
        .args(["--time-limit", "2", "--jobs", "1", "--report"])
        .arg(dir.join("r.json"))
        .arg("--")
        .arg(&binary)
        .arg(&name_arg);
    in_a_session_holding(&mut command, &name_arg["name=".len()..]);
    let out = command.output().unwrap();
    assert_no_panic(&out);
    let rows: Vec<Row> =
        serde_json::from_slice(&std::fs::read(dir.join("r.json")).unwrap()).unwrap();
    run_outside(&binary, &[&name_arg, "unlink"]);
    assert_eq!(rows.len(), 3, "{}", text(&out.stderr));
    assert!(rows.iter().all(|r| r.verdict == "AC"), "{rows:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Starts `command` in a session keyring of its own (as after a login) holding the key
/// `name`.
fn in_a_session_holding(command: &mut std::process::Command, name: &str) {
    let name = std::ffi::CString::new(name).unwrap();
    // SAFETY: between fork and exec only two system calls on prepared data.
    unsafe {
        use std::os::unix::process::CommandExt;
        command.pre_exec(move || {
            libc::syscall(
                libc::SYS_keyctl,
                KEYCTL_JOIN_SESSION_KEYRING,
                std::ptr::null::<libc::c_char>(),
            );
            libc::syscall(
                libc::SYS_add_key,
                c"user".as_ptr(),
                name.as_ptr(),
                c"secret".as_ptr(),
                6usize,
                KEY_SPEC_SESSION_KEYRING,
            );
            Ok(())
        });
    }
}

/// Without root too, the run's session keyring is its own, not the invoking user's (whose
/// login session keeps its secrets there).
#[test]
fn without_root_the_invokers_session_keyring_is_out_of_reach() {
    use std::os::unix::fs::PermissionsExt;
    if !is_root() || !Path::new("/usr/bin/setpriv").exists() {
        skipped("needs root (to become nobody) and setpriv");
        return;
    }
    let dir = scratch("nonroot-keyring");
    let tests = test_folder(&dir.join("tests"), &["t1", "t2"]);
    let binary = compile("keyring_counter", &dir);
    let judge_copy = dir.join("judge");
    std::fs::copy(env!("CARGO_BIN_EXE_judge"), &judge_copy).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let name_arg = format!("name=boardjudge-nonroot-key-{}", std::process::id());
    let mut command = std::process::Command::new("/usr/bin/setpriv");
    command
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(&judge_copy)
        .current_dir(&dir)
        .args(["run", "othello-flips", "--tests"])
        .arg(&tests)
        .args(["--time-limit", "5", "--"])
        .arg(&binary)
        .arg(&name_arg);
    in_a_session_holding(&mut command, &name_arg["name=".len()..]);
    let out = command.output().unwrap();
    assert_no_panic(&out);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// A mount under a bound tree (here a world-writable tmpfs under `/usr/local`, as a separate
/// `/usr/local` or a container's binds into `/etc` would be) is read-only in the box too:
/// every bind is made read-only, nosuid and nodev recursively.
#[test]
fn mounts_under_usr_are_read_only_in_the_box() {
    if !is_root() {
        return;
    }
    let dir = scratch("submount");
    let tests = test_folder(&dir.join("tests"), &["sample-2"]);
    let binary = compile("write_under_usr", &dir);
    let mount = PathBuf::from(format!(
        "/usr/local/share/boardjudge-submount-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&mount).unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "mode=1777,size=64k", "boardjudge-test"])
        .arg(&mount)
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        let _ = std::fs::remove_dir(&mount);
        return;
    }
    let outside_arg = format!("path={}", mount.join("outside").display());
    let inside_arg = format!("path={}", mount.join("inside").display());
    let outside = run_outside(&binary, &[&outside_arg]);
    let (_, rows) = judge_rows(
        &dir,
        &tests,
        ["2", "64"],
        &dir.join("r.json"),
        &[binary.as_os_str(), os(&inside_arg)],
    );
    let left = mount.join("inside").exists();
    let _ = std::process::Command::new("umount").arg(&mount).status();
    let _ = std::fs::remove_dir(&mount);
    assert_eq!(outside, "1\n", "the control should write");
    assert!(!left, "the submission wrote under /usr: {rows:?}");
    assert_eq!(rows[0].verdict, "AC", "{:?}", rows[0]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The judge installed in `/usr/local/bin` (visible in the box, like all of `/usr`) would
/// answer every test (`judge solve`): its own executable is hidden wherever it lies.
#[test]
fn the_judges_own_executable_is_hidden_even_in_usr_local_bin() {
    if !is_root() {
        return;
    }
    let dir = scratch("judge-in-usr");
    let tests = test_folder(&dir.join("tests"), &["sample-2"]);
    let script = dir.join("ask_the_judge.sh");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/hostile/ask_the_judge.sh"),
        &script,
    )
    .unwrap();
    let installed = PathBuf::from(format!("/usr/local/bin/boardjudge-{}", std::process::id()));
    std::fs::copy(env!("CARGO_BIN_EXE_judge"), &installed).unwrap();
    let outside = run_outside(&script, &[installed.to_str().unwrap()]);
    let out = std::process::Command::new(&installed)
        .current_dir(&dir)
        .args(["run", "othello-flips", "--tests"])
        .arg(&tests)
        .args(["--time-limit", "2", "--jobs", "1", "--report"])
        .arg(dir.join("r.json"))
        .arg("--")
        .arg(&script)
        .arg(&installed)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&installed);
    assert_no_panic(&out);
    let rows: Vec<Row> = serde_json::from_slice(
        &std::fs::read(dir.join("r.json"))
            .unwrap_or_else(|_| panic!("no report: {}", text(&out.stderr))),
    )
    .unwrap();
    assert_eq!(outside, "0\n", "the control should get the answer");
    assert_eq!(rows[0].verdict, "RE", "{:?}", rows[0]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Contained already (kept as a lesson): "root" in a user namespace of its own, the
/// submission cannot unmount the empty tmpfs over the test folder nor bind the folder without
/// it: mounts copied into a less privileged mount namespace are locked together.
#[test]
fn a_user_namespace_inside_the_box_cannot_uncover_the_tests() {
    if !is_root() {
        return;
    }
    let dir = scratch("uncover");
    let binary = compile("unmount_the_cover", &dir);
    let tests = test_folder(
        &PathBuf::from(format!(
            "/usr/local/boardjudge-cover-{}",
            std::process::id()
        )),
        &["sample-2"],
    );
    let dir_arg = format!("dir={}", tests.display());
    let outside = run_outside(&binary, &[&dir_arg]);
    let (_, rows) = judge_rows(
        &dir,
        &tests,
        ["2", "64"],
        &dir.join("r.json"),
        &[binary.as_os_str(), os(&dir_arg)],
    );
    let _ = std::fs::remove_dir_all(&tests);
    assert_eq!(outside, "0\n", "the control reads the answer");
    assert_eq!(rows[0].verdict, "WA", "{:?}", rows[0]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without root, Landlock lets a run read all of `/usr`: test data kept under `/usr/local`
/// and the judge installed in `/usr/local/bin` were readable there (the answer read
/// outright; `judge solve` answering every test). Each run's read-only mount tree now covers
/// both with an empty mount.
#[test]
fn without_root_tests_and_the_judge_under_usr_local_stay_hidden() {
    use std::os::unix::fs::PermissionsExt;
    if !is_root() || !Path::new("/usr/bin/setpriv").exists() {
        skipped("needs root (to become nobody) and setpriv");
        return;
    }
    let dir = scratch("nonroot-usr-local");
    let reader = compile("read_answer_path", &dir);
    let script = dir.join("ask_the_judge.sh");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/hostile/ask_the_judge.sh"),
        &script,
    )
    .unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let tests = test_folder(
        &PathBuf::from(format!(
            "/usr/local/boardjudge-nonroot-{}",
            std::process::id()
        )),
        &["sample-2"],
    );
    let installed = PathBuf::from(format!(
        "/usr/local/bin/boardjudge-nonroot-{}",
        std::process::id()
    ));
    std::fs::copy(env!("CARGO_BIN_EXE_judge"), &installed).unwrap();
    let as_nobody = |program: &Path| {
        let mut command = std::process::Command::new("/usr/bin/setpriv");
        command
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(program)
            .current_dir(&dir)
            .stdin(std::process::Stdio::null());
        command
    };
    let path_arg = format!("path={}", tests.join("sample-2.ans").display());
    let control = as_nobody(&reader).arg(&path_arg).output().unwrap();
    let judge_run = |command: &[&std::ffi::OsStr]| {
        let out = as_nobody(&installed)
            .args(["run", "othello-flips", "--tests"])
            .arg(&tests)
            .args(["--time-limit", "5", "--"])
            .args(command)
            .output()
            .unwrap();
        assert_no_panic(&out);
        (text(&out.stdout), text(&out.stderr))
    };
    let reading = judge_run(&[reader.as_os_str(), os(&path_arg)]);
    let asking = judge_run(&[script.as_os_str(), installed.as_os_str()]);
    let _ = std::fs::remove_file(&installed);
    let _ = std::fs::remove_dir_all(&tests);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(text(&control.stdout), "0\n", "the control reads the answer");
    if !reading
        .1
        .contains("mounts: read-only except the scratch directory")
    {
        skipped(&format!(
            "no unprivileged user namespaces here: {}",
            reading.1
        ));
        return;
    }
    assert!(reading.0.starts_with("WA "), "{reading:?}");
    assert!(asking.0.starts_with("RE "), "{asking:?}");
}

/// Issue 33.7: interfaces no contest program needs (io_uring, new user namespaces, the mount
/// family and so the cgroup file systems, bpf, keyrings, perf, userfaultfd, file handles,
/// kexec, modules, ptrace) are refused by the box's seccomp filter with `EPERM` (`clone3`
/// with `ENOSYS`, so that libc falls back to `clone`), every way a case starts, and the run is
/// judged as usual: AC. The controls, outside, get through some of them (a new user
/// namespace, `open_tree`, the keyring, `userfaultfd`, `clone3`, `PTRACE_TRACEME`).
#[test]
fn interfaces_no_contest_program_needs_are_refused_every_way() {
    if !is_root() || std::env::consts::ARCH != "x86_64" {
        skipped("the seccomp filter needs root on x86_64");
        return;
    }
    let dir = scratch("seccomp");
    let tests = test_folder(&dir.join("tests"), &["sample-2"]);
    let binary = compile("denied_calls", &dir);
    let script = dir.join("denied_calls.py");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/hostile/denied_calls.py"),
        &script,
    )
    .unwrap();
    assert_ne!(
        run_outside(&binary, &[]),
        "0\n",
        "the control got through nothing"
    );
    let report = dir.join("r.json");
    let ways: [(&str, &str, &[&std::ffi::OsStr]); 4] = [
        ("BOARDJUDGE_FORK_SERVER", "1", &[binary.as_os_str()]),
        ("BOARDJUDGE_FORK_SERVER", "0", &[binary.as_os_str()]),
        (
            "BOARDJUDGE_ZYGOTE",
            "1",
            &[os("python3"), script.as_os_str()],
        ),
        (
            "BOARDJUDGE_ZYGOTE",
            "0",
            &[os("python3"), script.as_os_str()],
        ),
    ];
    for (variable, value, command) in ways {
        let out = judge()
            .current_dir(&dir)
            .env(variable, value)
            .args(["run", "othello-flips", "--tests"])
            .arg(&tests)
            .args(["--time-limit", "5", "--memory-limit", "256", "--jobs", "1"])
            .arg("--report")
            .arg(&report)
            .arg("--")
            .args(command)
            .output()
            .unwrap();
        assert_no_panic(&out);
        let rows: Vec<Row> = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
        assert_eq!(
            (rows.len(), rows[0].verdict.as_str()),
            (1, "AC"),
            "{variable}={value} {command:?}: {rows:?} {}",
            text(&out.stderr)
        );
        let zygote = text(&out.stderr).contains("Python zygote");
        assert_eq!(
            zygote,
            variable == "BOARDJUDGE_ZYGOTE" && value == "1",
            "{}",
            text(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 33.4: a case leaves an abstract Unix socket name bound by a socket that outlives it
/// (in flight in an SCM_RIGHTS cycle, which only the kernel's collector frees, seconds later):
/// a later case that finds the name taken would answer otherwise (WA), so its verdict would
/// depend on the order of the tests. Every case finds the name free, every way a case starts:
/// the fork server gives a lane holding a leftover socket a new network namespace (and its
/// zygote is replaced), a run in fresh namespaces gets one of its own. The control, outside,
/// finds the name taken by the run just before.
#[test]
fn a_socket_left_in_flight_is_not_seen_by_the_next_case() {
    if !is_root() {
        skipped("the per-case network namespace needs root");
        return;
    }
    let dir = scratch("unix-cycle");
    let names: Vec<String> = (1..=8).map(|i| format!("t{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let tests = test_folder(&dir.join("tests"), &names);
    let binary = compile("unix_cycle", &dir);
    let script = dir.join("unix_cycle.py");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/hostile/unix_cycle.py"),
        &script,
    )
    .unwrap();
    // Control: back to back, the second run usually finds the first's name still taken (the
    // collector runs when some socket of the machine closes: on a busy one, soon).
    let taken = (0..5).any(|_| {
        run_outside(&binary, &[]);
        run_outside(&binary, &[]).contains("taken")
    });
    assert!(taken, "the control never found the name taken");
    let report = dir.join("r.json");
    let ways: [(&str, &str, &[&std::ffi::OsStr]); 4] = [
        ("BOARDJUDGE_FORK_SERVER", "1", &[binary.as_os_str()]),
        ("BOARDJUDGE_FORK_SERVER", "0", &[binary.as_os_str()]),
        (
            "BOARDJUDGE_ZYGOTE",
            "1",
            &[os("python3"), script.as_os_str()],
        ),
        (
            "BOARDJUDGE_ZYGOTE",
            "0",
            &[os("python3"), script.as_os_str()],
        ),
    ];
    for (variable, value, command) in ways {
        let out = judge()
            .current_dir(&dir)
            .env(variable, value)
            .args(["run", "othello-flips", "--tests"])
            .arg(&tests)
            .args(["--time-limit", "5", "--memory-limit", "256", "--jobs", "1"])
            .arg("--report")
            .arg(&report)
            .arg("--")
            .args(command)
            .output()
            .unwrap();
        assert_no_panic(&out);
        let rows: Vec<Row> = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
        assert_eq!(rows.len(), 8);
        assert!(
            rows.iter().all(|r| r.verdict == "AC"),
            "{variable}={value} {command:?}: {rows:?} {}",
            text(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
