//! Every in-process solver as a standalone program. `judge solutions PROBLEM --out DIR`
//! writes them as single-file Rust sources; `judge run`, `judge stress` and `judge strength`
//! build and run them like any submission.
//!
//! The `judge` executable also acts as a solver when it is linked or copied under the name
//! `PROBLEM--SOLVER` (busybox-style): it reads an input on standard input and prints that
//! solver's answer, with no build step (the stress throughput benchmark uses this).

use std::io::{Read, Write};
use std::path::Path;

use crate::programs::Program;
use judge_core::Result;
use judge_core::error::JudgeError;
use judge_core::registry::{PROBLEMS, ProblemEntry};

/// If this executable is named `PROBLEM--SOLVER`, acts as that solver and returns the exit
/// code; otherwise `None` (the normal command line).
pub fn dispatch_by_name() -> Option<i32> {
    let argv0 = std::env::args_os().next()?;
    let name = Path::new(&argv0).file_name()?.to_str()?.to_string();
    let (problem, solver) = name.split_once("--")?;
    let entry = PROBLEMS.iter().find(|p| p.id() == problem)?;
    let mut input = Vec::new();
    if std::io::stdin()
        .take(solutions::scan::MAX_INPUT_BYTES as u64 + 1)
        .read_to_end(&mut input)
        .is_err()
    {
        return Some(judge_core::exit::FAILURE);
    }
    match entry.solve_named(&input, solver)? {
        Ok(answer) => {
            let _ = std::io::stdout().write_all(answer.as_bytes());
            Some(judge_core::exit::SUCCESS)
        }
        Err(e) => {
            judge_core::say!(
                "{name}: <stdin>:{}:{}: invalid input: {}",
                e.line,
                e.col,
                e.message
            );
            Some(judge_core::exit::FAILURE)
        }
    }
}

/// Writes `DIR/correct/PROBLEM--NAME.rs` and `DIR/wrong/PROBLEM--NAME.rs` for every solver
/// of the problem: single-file Rust sources (see [`crate::programs`]), each wrong one
/// with its bug in its first lines. `judge run`, `judge stress` and `judge strength` build
/// them like any submission.
pub fn write(problem: &dyn ProblemEntry, out: &Path) -> Result<(usize, usize)> {
    let (correct, wrong) = problem.solver_names();
    for (kind, names) in [("correct", &correct), ("wrong", &wrong)] {
        let dir = out.join(kind);
        judge_core::testgen::create_dir(&dir)?;
        for name in names {
            let program = if kind == "correct" {
                Program::Correct(name)
            } else {
                Program::Wrong(name)
            };
            let target = dir.join(format!("{}--{name}.rs", problem.id()));
            let text = crate::programs::source(problem, program)?;
            std::fs::write(&target, text).map_err(|e| JudgeError::io(&target, e))?;
        }
    }
    Ok((correct.len(), wrong.len()))
}
