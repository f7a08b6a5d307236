//! `judge`: argument parsing and output; the work is done by the crates under `judge/`
//! (`judge_core`, `judge_report`, `judge_package`, `sandbox`). What is a terminal's business
//! is here: the command line (clap), progress bars (indicatif), Ctrl-C and SIGTERM (ctrlc),
//! and standard output, which every command writes to as a `Write` it is given.

// Only the sandbox crate (and the SIMD kernels of the problems) may use `unsafe`.
#![forbid(unsafe_code)]

mod args;
mod bar;
mod cli;
mod commands;
mod paths;
mod signals;

use std::io::Write;

use clap::Parser;
use judge_core::JudgeError;
use judge_core::exit;

/// Did the command end because standard output went away (`judge … | head -1`)? Then there
/// is nothing more to say, and nobody to say it to. (Rust ignores `SIGPIPE`, which keeps a
/// submission closing its stdin from killing the judge: a write to a closed pipe is an
/// `EPIPE` error, which every command returns.)
fn stdout_closed(error: &JudgeError) -> bool {
    match error {
        JudgeError::Output(source) | JudgeError::Io { source, .. } => {
            source.kind() == std::io::ErrorKind::BrokenPipe
        }
        _ => false,
    }
}

fn main() {
    // Named PROBLEM--SOLVER, this executable is that solver (see `judge solutions`).
    if let Some(code) = judge_package::solution_programs::dispatch_by_name() {
        std::process::exit(code);
    }
    judge_core::package::allow_links_into(cli::links_allowed_into(std::env::args_os()));
    // clap exits with 2 on a usage error and 0 for --help, as the exit-code contract says.
    let cli = cli::Cli::try_parse().unwrap_or_else(|error| cli::with_hint(error).exit());
    // Not locked for the whole command: a line is written whole all the same (standard output
    // is line-buffered), and nothing else may wait on the lock.
    let mut out = std::io::stdout();
    let result = cli::run(&cli, &mut out).and_then(|outcome| {
        out.flush().map_err(JudgeError::Output)?;
        Ok(outcome)
    });
    let code = match result {
        Ok(judge_core::Outcome::Success) => exit::SUCCESS,
        Ok(judge_core::Outcome::Finding) => exit::FINDING,
        Err(error) if stdout_closed(&error) => exit::FAILURE,
        Err(error) => {
            // An error may quote what a submission wrote (a compiler's message): escaped.
            eprintln!(
                "judge: error: {}",
                judge_report::escape::terminal(&error.to_string())
            );
            exit::FAILURE
        }
    };
    std::process::exit(code);
}
