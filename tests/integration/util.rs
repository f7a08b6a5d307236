//! Running the `judge` binary from tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

pub fn judge() -> Command {
    Command::new(env!("CARGO_BIN_EXE_judge"))
}

/// Runs `judge ARGS` with `stdin` as standard input.
pub fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = judge()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start judge");
    let mut pipe = child.stdin.take().expect("stdin");
    // The judge may stop reading early (a bounded read): a broken pipe here is expected.
    let _ = pipe.write_all(stdin);
    drop(pipe);
    child.wait_with_output().expect("wait for judge")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Panics (failing the test) if the judge panicked.
pub fn assert_no_panic(out: &Output) {
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "the judge panicked: {stderr}");
    assert!(
        out.status.code().is_some(),
        "the judge died by a signal: {:?}",
        out.status
    );
}

/// The ids of every problem of the list, in its order.
pub fn problem_ids() -> Vec<&'static str> {
    let mut ids = Vec::new();
    macro_rules! collect {
        ([] $($module:ident: $problem:ty,)*) => {
            $(ids.push(<$problem as solutions::Problem>::ID);)*
        };
    }
    solutions::for_each_problem!(collect);
    ids
}

/// The skips of this test binary, listed on standard error when it exits.
static SKIPS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Lists every skip of the run: registered with `atexit` by the first skip, so it runs after
/// libtest's own summary, where `cargo test` shows it whether or not the tests passed.
extern "C" fn list_skips() {
    let skips = SKIPS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if skips.is_empty() {
        return;
    }
    let mut list = format!(
        "\nSKIPPED: {} test(s) did not run some or all of their checks on this machine \
         (docs/contributing.md#skipped-tests):\n",
        skips.len()
    );
    for line in skips.iter() {
        list.push_str("  ");
        list.push_str(line);
        list.push('\n');
    }
    // Straight to the file descriptor: libtest captured the test threads' output, not this.
    use std::io::Write;
    let _ = std::io::stderr().write_all(list.as_bytes());
}

/// Says that the running test (or the part of it named in `reason`) was skipped, and why —
/// a tool that is not installed, no root. libtest shows a passing test's output only with
/// `--nocapture`, so a skip printed by the test alone is never seen; each is therefore also
/// kept and listed when the test binary exits (after `test result:`), with the test's name.
/// Where CI must run the check (its tool is one `.ci/run` installs), the test asserts that
/// before calling this.
pub fn skipped(reason: &str) {
    let test = std::thread::current()
        .name()
        .unwrap_or("(unnamed test)")
        .to_string();
    eprintln!("SKIPPED {test}: {reason}");
    let mut skips = SKIPS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if skips.is_empty() {
        // SAFETY: `list_skips` is an `extern "C" fn()` that does not unwind (it ignores every
        // error and recovers a poisoned lock), as `atexit` requires; registering it once is
        // guarded by the lock.
        unsafe {
            libc::atexit(list_skips);
        }
    }
    skips.push(format!("{test}: {reason}"));
}

/// A fresh, empty folder for one test: `boardjudge-{area}-{pid}-{n}-{name}` under the
/// temporary folder (the counter keeps two tests of one run with the same name apart).
pub fn fresh_dir(area: &str, name: &str) -> std::path::PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "boardjudge-{area}-{}-{}-{name}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `contents` to `path`, making its folders.
pub fn write_file(path: &std::path::Path, contents: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, contents).unwrap();
}
