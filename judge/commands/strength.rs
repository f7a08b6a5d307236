//! `judge strength PROBLEM --tests DIR --wrong DIR [--correct DIR] [--report FILE]`: how
//! strong is a test set? (See [`judge_core::strength`].) Prints which tests reject which
//! submission, wrong submissions only one test rejects (fragile), the greedy set cover, and
//! for a survivor the families that would have caught it.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use judge_core::cancel::Cancel;
use judge_core::error::JudgeError;
use judge_core::progress::{count, thousands};
use judge_core::registry::{ProblemEntry, parse_problem};
use judge_core::runner::load;
use judge_core::runner::tests::discover;
use judge_core::strength::{
    Expect, SanitizedPass, Sanitizing, Standing, entrants, family_hints, measure, test_folders,
};
use judge_core::{Outcome, Result};
use judge_report::{self as report, FamilyHint, StrengthReport, Submission, escape};

use crate::args::SandboxArgs;
use crate::bar::Bar;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`).
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn ProblemEntry,
    /// The test set (plain or Kattis layout).
    #[arg(long)]
    pub tests: PathBuf,
    /// A folder of wrong submissions: executable files, or source files the judge can build
    /// (.c .cpp .cc .py .java .kt .go .rs .rb .js .sh).
    #[arg(long)]
    pub wrong: PathBuf,
    /// A folder of correct submissions, which every test must accept.
    #[arg(long)]
    pub correct: Option<PathBuf>,
    /// Write a report; the format follows the name: .csv (the tests x submissions verdict
    /// matrix), .json, .xml (JUnit: one test case per submission), .html (one page: the kill
    /// matrix coloured, the cover, fragile tests, survivors); any other extension is refused
    /// before anything runs. Nothing is written without it.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Do not run the C and C++ submissions sanitized as well. By default each one is run a
    /// second time, built with AddressSanitizer and UndefinedBehaviorSanitizer, on the tests
    /// in order up to its first sanitizer report, which marks it ("reads outside its arrays"):
    /// the verdicts stay the plain build's. (`--sanitize` judges the sanitized build instead.)
    #[arg(long, conflicts_with = "sanitize")]
    pub no_sanitize: bool,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
}

pub fn run(args: &Args, out: &mut dyn Write, interrupt: &Cancel) -> Result<Outcome> {
    // Every path is checked before anything is built or run.
    for folder in [Some(&args.tests), Some(&args.wrong), args.correct.as_ref()]
        .into_iter()
        .flatten()
    {
        crate::paths::existing(folder)?;
    }
    if let Some(path) = &args.report {
        crate::paths::report(path)?;
    }
    let tests = load(args.problem, discover(&args.tests)?, false)?;
    let mut all = match &args.correct {
        Some(dir) => entrants(dir, Expect::Correct)?,
        None => Vec::new(),
    };
    all.extend(entrants(&args.wrong, Expect::Wrong)?);
    let builder = args
        .sandbox
        .builder(std::slice::from_ref(&args.tests), interrupt);
    let bar = Bar::new("runs", Some((all.len() * tests.len()) as u64));
    // The test data stays invisible to the submissions wherever it lies.
    let session = args.sandbox.session(&test_folders(&tests), &bar, interrupt);
    let sanitizing = if args.sandbox.sanitize {
        Sanitizing::Judged
    } else if args.no_sanitize {
        Sanitizing::Off
    } else {
        Sanitizing::FirstReport
    };
    // The sanitized pass's builder and session: --sanitize's.
    let sanitized_args = SandboxArgs {
        sanitize: true,
        ..args.sandbox.clone()
    };
    let sanitized_builder = sanitized_args.builder(std::slice::from_ref(&args.tests), interrupt);
    let sanitized_session = sanitized_args.session(&test_folders(&tests), &bar, interrupt);
    let pass = SanitizedPass {
        builder: &sanitized_builder,
        session: &sanitized_session,
    };
    let matrix = measure(
        args.problem,
        tests,
        all,
        &builder,
        &session,
        sanitizing,
        Some(&pass),
    );
    bar.finish();
    let matrix = matrix?;
    let cancel = &session.cancel;
    let tests = &matrix.tests;
    // What a sanitizer said (`--sanitize`), escaped like everything a submission writes.
    let mark = |e: usize| {
        matrix
            .sanitizer_mark(e)
            .map(|m| escape::terminal(&format!("; {m}")))
            .unwrap_or_default()
    };
    // A survivor, a rejected correct submission, or one that does not build (which leaves
    // the check unfinished): exit 1, as every report says.
    let failed = (0..matrix.entrants.len()).any(|e| matrix.standing(e).is_finding());
    for (e, why) in &matrix.compile_errors {
        outln!(
            out,
            "{}",
            escape::line(&format!(
                "CE        {}: the build failed {why}",
                matrix.entrants[*e].name
            ))
        );
    }
    for e in matrix.of(Expect::Correct) {
        // A submission's name: one line on the terminal, whatever it holds.
        let name = escape::line(&matrix.entrants[e].name);
        match matrix.standing(e) {
            Standing::Accepted => {
                outln!(
                    out,
                    "correct  {name}: accepted by {}{}",
                    if tests.len() == 1 {
                        "the 1 test".to_string()
                    } else {
                        format!("all {}", count(tests.len(), "test"))
                    },
                    mark(e)
                );
            }
            Standing::CorrectRejected(by) => {
                let rejected: Vec<String> = by
                    .into_iter()
                    .map(|t| format!("{} ({})", tests[t].name, matrix.verdicts[e][t]))
                    .collect();
                outln!(
                    out,
                    "CORRECT SOLUTION REJECTED  {name}: by {}{}",
                    rejected.join(", "),
                    mark(e)
                );
            }
            // A compile error is printed above.
            _ => {}
        }
    }
    // Why a C or C++ submission has no sanitized run, in one line each.
    for (e, why) in &matrix.not_sanitized {
        outln!(
            out,
            "{}",
            escape::line(&format!(
                "not sanitized  {}: {why}",
                matrix.entrants[*e].name
            ))
        );
    }
    if matrix.sanitizing == Sanitizing::Off
        && matrix.entrants.iter().any(|e| {
            e.path
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| judge_core::runner::submission::SANITIZED.contains(&x))
        })
    {
        outln!(out, "sanitized runs: none (--no-sanitize)");
    }
    let mut survivors = Vec::new();
    for e in matrix.of(Expect::Wrong) {
        // A submission's name: one line on the terminal, whatever it holds.
        let name = escape::line(&matrix.entrants[e].name);
        match matrix.standing(e) {
            Standing::Survives => {
                outln!(out, "SURVIVES  {name}: no test rejects it{}", mark(e));
                survivors.push(e);
            }
            Standing::Fragile(t) => {
                outln!(
                    out,
                    "fragile   {name}: only {} rejects it{}",
                    tests[t].name,
                    mark(e)
                );
            }
            Standing::Rejected(by) => {
                let n = by.len();
                let first: Vec<&str> = by.iter().take(3).map(|&t| tests[t].name.as_str()).collect();
                outln!(
                    out,
                    "rejected  {name}: by {} ({}{}){}",
                    count(n, "test"),
                    first.join(", "),
                    if n > 3 { ", …" } else { "" },
                    mark(e)
                );
            }
            // A compile error is printed above.
            _ => {}
        }
    }
    let cover = matrix.cover();
    outln!(
        out,
        "smallest rejecting subset (greedy set cover): {} of {}: {}",
        thousands(cover.len() as u64),
        count(tests.len(), "test"),
        cover
            .iter()
            .map(|&t| tests[t].name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let interrupted = !matrix.not_judged.is_empty() || cancel.is_cancelled();
    let mut hints_of = BTreeMap::new();
    for e in survivors {
        if interrupted {
            // No time to look for the families that would catch it.
            continue;
        }
        let entrant = &matrix.entrants[e];
        let hints = family_hints(args.problem, entrant, &builder, &session)?;
        hints_of.insert(e, hints.clone());
        let catching: Vec<String> = hints
            .iter()
            .filter(|h| h.failed > 0)
            .map(|h| format!("{} ({}/{})", h.family, h.failed, h.tried))
            .collect();
        if catching.is_empty() {
            outln!(
                out,
                "  {}: no generator family caught it in 30 cases each; add a corpus case or a family",
                escape::line(&entrant.name)
            );
        } else {
            outln!(
                out,
                "  {}: would be caught by family {}: add tests from it (judge gen --family …)",
                escape::line(&entrant.name),
                catching.join(", ")
            );
        }
    }
    if let Some(path) = &args.report {
        let report = StrengthReport {
            problem: args.problem.id().to_string(),
            tests_dir: args.tests.display().to_string(),
            tests: tests.iter().map(|t| t.name.clone()).collect(),
            submissions: matrix
                .entrants
                .iter()
                .enumerate()
                .map(|(e, entrant)| Submission {
                    name: entrant.name.clone(),
                    kind: entrant.expect.label(),
                    verdicts: matrix.verdicts[e].clone(),
                    sanitizer_tests: matrix.sanitized[e].iter().map(|(t, _)| *t).collect(),
                    sanitizer: matrix.sanitizer_mark(e),
                    families: hints_of
                        .get(&e)
                        .into_iter()
                        .flatten()
                        .map(|h| FamilyHint {
                            family: h.family.clone(),
                            failed: h.failed,
                            tried: h.tried,
                        })
                        .collect(),
                })
                .collect(),
            cover: cover.clone(),
            not_judged: matrix.not_judged.iter().map(|e| e.name.clone()).collect(),
        };
        report::write_strength(path, &report)?;
        outln!(
            out,
            "report written to {}{}",
            path.display(),
            if interrupted {
                " (what was judged before the interruption)"
            } else {
                ""
            }
        );
    }
    if interrupted {
        let names: Vec<String> = matrix
            .not_judged
            .iter()
            .map(|e| escape::line(&e.name))
            .collect();
        return Err(JudgeError::Interrupted(format!(
            "{} of {} judged on every test; not judged: {}",
            thousands(matrix.entrants.len() as u64),
            count(matrix.entrants.len() + names.len(), "submission"),
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        )));
    }
    Ok(if failed {
        Outcome::Finding
    } else {
        Outcome::Success
    })
}
