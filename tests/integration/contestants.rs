//! Real contestants' programs (`tests/data/<id>/contestants/`), each with its bug in its first
//! lines: rare bugs the decoy and interaction obligations were made for (a five crossing a
//! six, a run of eleven, an overline with two fours …), and programs that read outside their
//! arrays. The default test set of every problem rejects every one of the first kind; the
//! second kind (named `reads-…`: right answers, wrong reads) is judged with `--sanitize` in
//! `sanitize.rs`.

use std::path::PathBuf;

use solutions::{Problem, tests_per_problem};

use crate::generation::scratch;
use crate::util::*;

/// A problem's contestant programs.
pub fn contestants(id: &str) -> Vec<PathBuf> {
    solutions::problem_files::CONTESTANTS.files(id)
}

fn default_test_set_rejects_every_contestant_program<P: Problem>() {
    let programs: Vec<PathBuf> = contestants(P::ID)
        .into_iter()
        .filter(|p| {
            !p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("reads-")
        })
        .collect();
    if programs.is_empty() {
        return;
    }
    let dir = scratch(&format!("contestants-{}", P::ID));
    let (tests, wrong) = (dir.join("tests"), dir.join("wrong"));
    std::fs::create_dir_all(&wrong).unwrap();
    for program in &programs {
        std::fs::copy(program, wrong.join(program.file_name().unwrap())).unwrap();
    }
    let out = judge()
        .args(["testset", P::ID, "--seed", "1", "--out"])
        .arg(&tests)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = judge()
        .args(["strength", P::ID, "--tests"])
        .arg(&tests)
        .arg("--wrong")
        .arg(&wrong)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}: {stdout}{}",
        P::ID,
        text(&out.stderr)
    );
    for program in &programs {
        let name = program.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            stdout
                .lines()
                .any(|l| (l.starts_with("rejected") || l.starts_with("fragile"))
                    && l.contains(&name)),
            "{name}: {stdout}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

solutions::for_each_problem!(tests_per_problem, contestant_programs_rejected => default_test_set_rejects_every_contestant_program);
