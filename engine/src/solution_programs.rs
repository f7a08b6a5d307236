//! Every in-process solver as a standalone program, busybox-style: the `judge` executable,
//! linked or copied under the name `PROBLEM--SOLVER`, reads an input on standard input and
//! prints that solver's answer. `judge solutions PROBLEM --out DIR` writes them; `judge run`
//! and `judge strength` execute them like any submission.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::Result;
use crate::error::JudgeError;
use crate::registry::{PROBLEMS, ProblemEntry};

/// If this executable is named `PROBLEM--SOLVER`, acts as that solver and returns the exit
/// code; otherwise `None` (the normal command line).
pub fn dispatch_by_name() -> Option<i32> {
    let argv0 = std::env::args_os().next()?;
    let name = Path::new(&argv0).file_name()?.to_str()?.to_string();
    let (problem, solver) = name.split_once("--")?;
    let entry = PROBLEMS.iter().find(|p| p.id() == problem)?;
    let mut input = Vec::new();
    if std::io::stdin()
        .take(problems::scan::MAX_INPUT_BYTES as u64 + 1)
        .read_to_end(&mut input)
        .is_err()
    {
        return Some(crate::exit::FAILURE);
    }
    match entry.solve_named(&input, solver)? {
        Ok(answer) => {
            let _ = std::io::stdout().write_all(answer.as_bytes());
            Some(crate::exit::SUCCESS)
        }
        Err(e) => {
            eprintln!(
                "{name}: <stdin>:{}:{}: invalid input: {}",
                e.line, e.col, e.message
            );
            Some(crate::exit::FAILURE)
        }
    }
}

/// Writes `DIR/correct/PROBLEM--NAME` and `DIR/wrong/PROBLEM--NAME` for every solver of the
/// problem: hard links to this executable where possible, copies otherwise.
pub fn write(problem: &dyn ProblemEntry, out: &Path) -> Result<(usize, usize)> {
    let exe = std::env::current_exe()
        .map_err(|e| JudgeError::io("the judge executable (std::env::current_exe)", e))?;
    let (correct, wrong) = problem.solver_names();
    let mut first_copy: Option<PathBuf> = None;
    for (kind, names) in [("correct", &correct), ("wrong", &wrong)] {
        let dir = out.join(kind);
        std::fs::create_dir_all(&dir).map_err(|e| JudgeError::io(&dir, e))?;
        for name in names {
            let target = dir.join(format!("{}--{name}", problem.id()));
            let _ = std::fs::remove_file(&target);
            let source = first_copy.clone().unwrap_or_else(|| exe.clone());
            if std::fs::hard_link(&source, &target).is_err() {
                std::fs::copy(&exe, &target).map_err(|e| JudgeError::io(&target, e))?;
                first_copy = Some(target.clone());
            }
        }
    }
    Ok((correct.len(), wrong.len()))
}
