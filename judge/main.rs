//! `judge`: argument parsing and output; the work is done by the crates under `judge/`
//! (`judge_core`, `judge_report`, `judge_package`, `sandbox`).

// Only the sandbox crate (and the SIMD kernels of the problems) may use `unsafe`.
#![forbid(unsafe_code)]

mod args;
mod cli;
mod commands;

use std::sync::atomic::{AtomicBool, Ordering};

use clap::Parser;
use judge_core::exit;

/// Set when a write to standard output failed because its reader went away.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Is this panic `println!` failing on a closed pipe (`judge … | head -1`)?
fn is_broken_pipe(payload: &(dyn std::any::Any + Send)) -> bool {
    let message = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("");
    message.starts_with("failed printing to stdout") && message.contains("Broken pipe")
}

/// A closed standard output ends any command quietly: `println!` panics on `EPIPE` (Rust
/// ignores `SIGPIPE`, which keeps a submission closing its stdin from killing the judge); the
/// hook stays silent for that panic and stops running submissions as Ctrl-C does, the panic
/// unwinds (temporary folders are removed on the way) and `main` exits with code 2.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if is_broken_pipe(info.payload()) {
            STDOUT_CLOSED.store(true, Ordering::SeqCst);
            judge_core::cancel::Cancel::on_interrupt().cancel();
        } else {
            default(info);
        }
    }));
}

fn main() {
    // Named PROBLEM--SOLVER, this executable is that solver (see `judge solutions`).
    if let Some(code) = judge_package::solution_programs::dispatch_by_name() {
        std::process::exit(code);
    }
    quiet_on_broken_pipe();
    // clap exits with 2 on a usage error and 0 for --help, as the exit-code contract says.
    let cli = cli::Cli::parse();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| cli::run(&cli)));
    let code = match result {
        // Standard output went away: nothing more to say, and nobody to say it to.
        _ if STDOUT_CLOSED.load(Ordering::SeqCst) => exit::FAILURE,
        Ok(Ok(judge_core::Outcome::Success)) => exit::SUCCESS,
        Ok(Ok(judge_core::Outcome::Finding)) => exit::FINDING,
        // The same for a command that writes to stdout itself and reports the error.
        Ok(Err(judge_core::JudgeError::Io { source, .. }))
            if source.kind() == std::io::ErrorKind::BrokenPipe =>
        {
            exit::FAILURE
        }
        Ok(Err(error)) => {
            // An error may quote what a submission wrote (a compiler's message): escaped.
            eprintln!(
                "judge: error: {}",
                judge_report::escape::terminal(&error.to_string())
            );
            exit::FAILURE
        }
        // Any other panic was reported by the default hook; keep Rust's exit code for it.
        Err(_) => 101,
    };
    std::process::exit(code);
}
