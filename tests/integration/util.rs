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
