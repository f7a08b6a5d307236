//! `judge strength PROBLEM --tests DIR --wrong DIR [--correct DIR] [--report FILE]`: how
//! strong is a test set? Runs every wrong (and correct) submission on every test, writes the
//! tests x submissions verdict matrix as CSV, finds a smallest subset of tests that still
//! rejects every wrong submission (greedy set cover), flags wrong submissions that only one
//! test rejects (fragile), and for a wrong submission that survives, says which generator
//! family would have caught it.

use std::path::{Path, PathBuf};

use engine::error::JudgeError;
use engine::progress::Progress;
use engine::registry::{ProblemEntry, parse_problem};
use engine::runner::submission::{Staging, from_source, is_source, resolve};
use engine::runner::tests::{Test, discover};
use engine::runner::verdict::{Verdict, judge};
use engine::runner::{INTERRUPTED, default_limits, run_all};
use engine::{Outcome, Result};
use sandbox::{Isolation, Limits, Sandbox};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`).
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn ProblemEntry,
    /// The test set (plain or Kattis layout).
    #[arg(long)]
    pub tests: PathBuf,
    /// A folder of wrong submissions: executable files, or source files the judge can build.
    #[arg(long)]
    pub wrong: PathBuf,
    /// A folder of correct submissions, which every test must accept.
    #[arg(long)]
    pub correct: Option<PathBuf>,
    /// Where to write the tests x submissions matrix (CSV).
    #[arg(long, default_value = "strength.csv")]
    pub report: PathBuf,
    #[arg(long, default_value_t = 2.0)]
    pub time_limit: f64,
    #[arg(long, default_value_t = 256)]
    pub memory_limit: u64,
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// The submissions in a folder: executable files and known source files, by name.
fn submissions(dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    use std::os::unix::fs::PermissionsExt;
    let entries = std::fs::read_dir(dir).map_err(|e| JudgeError::io(dir, e))?;
    let mut found = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| JudgeError::io(dir, e))?.path();
        let executable = std::fs::metadata(&path)
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
        if executable || path.is_file() && is_source(&path) {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            found.push((name, path));
        }
    }
    found.sort();
    if found.is_empty() {
        return Err(JudgeError::Usage(format!(
            "{}: no submissions (executables or source files)",
            dir.display()
        )));
    }
    Ok(found)
}

fn command_for(path: &Path, staging: &Staging) -> Result<sandbox::Command> {
    let cwd = std::env::current_dir().map_err(|e| JudgeError::io(".", e))?;
    let drop = Isolation::detect().drop_privileges;
    if is_source(path) {
        from_source(path, &cwd, staging, drop)
    } else {
        resolve(&[path.display().to_string()], &cwd, staging, drop)
    }
}

/// The verdict of every test for one submission.
fn verdicts(
    problem: &dyn ProblemEntry,
    command: sandbox::Command,
    tests: &[Test],
    limits: &Limits,
    jobs: usize,
    progress: &Progress,
) -> Result<Vec<Verdict>> {
    let sandbox = Sandbox::new(command, jobs)
        .map_err(|e| JudgeError::Other(format!("setting up the sandbox: {e}")))?;
    let rows = run_all(problem, &sandbox, tests, limits, progress)?;
    if rows.len() != tests.len() {
        return Err(JudgeError::Other("interrupted".to_string()));
    }
    Ok(rows.into_iter().map(|r| r.verdict).collect())
}

/// Greedy set cover: repeatedly the test that rejects the most wrong submissions not yet
/// rejected (ties: the earlier test). Not always the smallest cover, but close, and fast.
pub fn greedy_cover(rejects: &[Vec<bool>]) -> Vec<usize> {
    let subs = rejects.first().map_or(0, |r| r.len());
    let mut covered = vec![false; subs];
    let coverable: Vec<bool> = (0..subs).map(|s| rejects.iter().any(|t| t[s])).collect();
    let mut chosen = Vec::new();
    while (0..subs).any(|s| coverable[s] && !covered[s]) {
        let best = (0..rejects.len()).max_by_key(|&t| {
            (
                rejects[t]
                    .iter()
                    .zip(&covered)
                    .filter(|&(&r, &c)| r && !c)
                    .count(),
                std::cmp::Reverse(t),
            )
        });
        let Some(best) = best else { break };
        for s in 0..subs {
            covered[s] |= rejects[best][s];
        }
        chosen.push(best);
    }
    chosen
}

/// For a surviving submission: on how many of `per_family` generated cases of each family it
/// fails.
fn family_hints(
    problem: &dyn ProblemEntry,
    command: sandbox::Command,
    limits: &Limits,
) -> Result<Vec<(String, usize, usize)>> {
    const PER_FAMILY: u64 = 30;
    let sandbox = Sandbox::new(command, 1)
        .map_err(|e| JudgeError::Other(format!("setting up the sandbox: {e}")))?;
    let mut hints = Vec::new();
    for (family, _) in problem.families() {
        let mut failed = 0;
        for index in 0..PER_FAMILY {
            let Some((input, answer)) = problem.family_case(family, index, 1) else {
                continue;
            };
            let run = sandbox
                .run(0, input.as_bytes(), limits, &INTERRUPTED)
                .map_err(|e| JudgeError::Other(e.to_string()))?;
            let (verdict, _) = judge(&run, limits, |out| problem.check(&answer, out));
            if verdict != Verdict::AC {
                failed += 1;
            }
        }
        hints.push((family.to_string(), failed, PER_FAMILY as usize));
    }
    Ok(hints)
}

pub fn run(args: &Args) -> Result<Outcome> {
    crate::commands::run::check_limits(args.time_limit, args.memory_limit)?;
    let tests = discover(&args.tests)?;
    let wrong = submissions(&args.wrong)?;
    let correct = match &args.correct {
        Some(dir) => submissions(dir)?,
        None => Vec::new(),
    };
    let staging = Staging::new()?;
    let jobs = crate::commands::stress::jobs(args.jobs);
    let limits = default_limits(args.time_limit, args.memory_limit);
    let all: Vec<(&str, &(String, PathBuf))> = correct
        .iter()
        .map(|s| ("correct", s))
        .chain(wrong.iter().map(|s| ("wrong", s)))
        .collect();
    let progress = Progress::new("runs", Some((all.len() * tests.len()) as u64));
    let mut matrix: Vec<Vec<Verdict>> = Vec::new(); // per submission, per test
    for (k, (_, (name, path))) in all.iter().enumerate() {
        progress.message(name);
        let command = match command_for(path, &staging) {
            Err(JudgeError::Build {
                command, message, ..
            }) => {
                // A compile error: CE on every test, and no verdict on the test set.
                let first = message.lines().next().unwrap_or("");
                println!("CE        {name}: the build failed ({command}): {first}");
                matrix.push(vec![Verdict::CE; tests.len()]);
                progress.set(((k + 1) * tests.len()) as u64);
                continue;
            }
            other => other?,
        };
        matrix.push(verdicts(
            args.problem,
            command,
            &tests,
            &limits,
            jobs,
            &progress,
        )?);
        progress.set(((k + 1) * tests.len()) as u64);
    }
    progress.finish();

    // The matrix, one row per test.
    let mut csv = csv::Writer::from_path(&args.report)
        .map_err(|e| JudgeError::Other(format!("{}: {e}", args.report.display())))?;
    let header: Vec<String> = std::iter::once("test".to_string())
        .chain(all.iter().map(|(kind, (name, _))| format!("{kind}:{name}")))
        .collect();
    csv.write_record(&header)
        .map_err(|e| JudgeError::Other(e.to_string()))?;
    for (t, test) in tests.iter().enumerate() {
        let row: Vec<String> = std::iter::once(test.name.clone())
            .chain(matrix.iter().map(|m| m[t].to_string()))
            .collect();
        csv.write_record(&row)
            .map_err(|e| JudgeError::Other(e.to_string()))?;
    }
    csv.flush().map_err(|e| JudgeError::io(&args.report, e))?;

    let n_correct = correct.len();
    // A submission that did not build says nothing about the test set, but the run fails.
    let mut failed = matrix.iter().any(|m| m.first() == Some(&Verdict::CE));
    for (s, (name, _)) in correct.iter().enumerate() {
        let rejected: Vec<String> = tests
            .iter()
            .zip(&matrix[s])
            .filter(|(_, v)| **v != Verdict::AC)
            .map(|(t, v)| format!("{} ({v})", t.name))
            .collect();
        if rejected.is_empty() {
            println!("correct  {name}: accepted by all {} tests", tests.len());
        } else {
            failed = true;
            println!(
                "CORRECT SOLUTION REJECTED  {name}: by {}",
                rejected.join(", ")
            );
        }
    }
    // rejects[test][wrong submission]
    let rejects: Vec<Vec<bool>> = (0..tests.len())
        .map(|t| {
            (0..wrong.len())
                .map(|w| !matches!(matrix[n_correct + w][t], Verdict::AC | Verdict::CE))
                .collect()
        })
        .collect();
    let mut survivors = Vec::new();
    for (w, (name, path)) in wrong.iter().enumerate() {
        if matrix[n_correct + w].first() == Some(&Verdict::CE) {
            continue;
        }
        let by: Vec<&str> = (0..tests.len())
            .filter(|&t| rejects[t][w])
            .map(|t| tests[t].name.as_str())
            .collect();
        match by.len() {
            0 => {
                println!("SURVIVES  {name}: no test rejects it");
                survivors.push((name.clone(), path.clone()));
            }
            1 => println!("fragile   {name}: only {} rejects it", by[0]),
            n => println!(
                "rejected  {name}: by {n} tests ({}{})",
                by.iter().take(3).copied().collect::<Vec<_>>().join(", "),
                if n > 3 { ", …" } else { "" }
            ),
        }
    }
    let cover = greedy_cover(&rejects);
    println!(
        "smallest rejecting subset (greedy set cover): {} of {} tests: {}",
        cover.len(),
        tests.len(),
        cover
            .iter()
            .map(|&t| tests[t].name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    for (name, path) in &survivors {
        failed = true;
        let hints = family_hints(args.problem, command_for(path, &staging)?, &limits)?;
        let catching: Vec<String> = hints
            .iter()
            .filter(|(_, f, _)| *f > 0)
            .map(|(family, f, n)| format!("{family} ({f}/{n})"))
            .collect();
        if catching.is_empty() {
            println!(
                "  {name}: no generator family caught it in 30 cases each; add a corpus case or a family"
            );
        } else {
            println!(
                "  {name}: would be caught by family {}: add tests from it (judge gen --family …)",
                catching.join(", ")
            );
        }
    }
    println!("matrix written to {}", args.report.display());
    Ok(if failed {
        Outcome::Finding
    } else {
        Outcome::Success
    })
}

#[cfg(test)]
mod tests {
    use super::greedy_cover;

    #[test]
    fn greedy_cover_picks_the_test_that_rejects_most_first() {
        // tests x wrong submissions
        let rejects = vec![
            vec![true, false, false],
            vec![true, true, false],
            vec![false, false, true],
            vec![false, true, true],
        ];
        assert_eq!(greedy_cover(&rejects), vec![1, 2]);
    }

    #[test]
    fn greedy_cover_ignores_what_no_test_rejects() {
        let rejects = vec![vec![false, true], vec![false, true]];
        assert_eq!(greedy_cover(&rejects), vec![0]);
    }
}
