//! `judge validate PROBLEM [INPUT]`: exit 0 if the input is canonical and meets every
//! constraint, else exit 1 saying what is wrong and where. INPUT may be a folder: every `.in`
//! in it is validated, each invalid one named with its line and column, and one summary line
//! follows. PROBLEM may be a problem package folder: its input validators judge (`judge
//! validate PKG` alone checks the package's own data: every sample and secret input accepted,
//! every `invalid_input` case rejected).

use judge_report::escape;
use std::io::Write;
use std::path::{Path, PathBuf};

use judge_core::cancel::Cancel;
use judge_core::package::PackageProblem;
use judge_core::package::jury::{InputVerdict, Jury};
use judge_core::problem::{Problem, parse_problem};
use judge_core::progress::{count, thousands};
use judge_core::registry::ProblemEntry;
use judge_core::runner::tests::inputs_in;
use judge_core::{Outcome, Result, input};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`), or a problem package folder.
    #[arg(value_parser = parse_problem)]
    pub problem: Problem,
    /// The input file, or a folder: every .in in it and below it (in a problem package, below
    /// data/sample and data/secret); standard input if absent (for a package folder: its own
    /// data is validated).
    pub input: Option<PathBuf>,
}

/// How many invalid files the summary line names (each has its own line above it).
const NAMED: usize = 10;

pub fn run(args: &Args, out: &mut dyn Write) -> Result<Outcome> {
    if let Some(path) = &args.input {
        crate::paths::existing(path)?;
    }
    let problem = match &args.problem {
        Problem::BuiltIn(entry) => *entry,
        Problem::Package(package) => return validate_package(package, args.input.as_deref(), out),
    };
    match &args.input {
        Some(dir) if dir.is_dir() => validate_folder(problem, dir, out),
        other => Ok(if validate_one(problem, other.as_deref())? {
            Outcome::Success
        } else {
            Outcome::Finding
        }),
    }
}

/// Validates one input, printing `NAME:LINE:COL: what was expected` if it is invalid.
fn validate_one(problem: &dyn ProblemEntry, path: Option<&Path>) -> Result<bool> {
    let input = input::read(path)?;
    match problem.validate(&input.bytes) {
        Ok(()) => Ok(true),
        Err(e) => {
            errln!("{}:{}:{}: {}", input.name, e.line, e.col, e.message);
            Ok(false)
        }
    }
}

fn validate_folder(problem: &dyn ProblemEntry, dir: &Path, out: &mut dyn Write) -> Result<Outcome> {
    let inputs = inputs_in(dir)?;
    let mut invalid = Vec::new();
    for path in &inputs {
        if !validate_one(problem, Some(path))? {
            invalid.push(escape::path(path.strip_prefix(dir).unwrap_or(path)));
        }
    }
    if invalid.is_empty() {
        outln!(
            out,
            "{}: {} in {} {} valid",
            problem.id(),
            if inputs.len() == 1 {
                "the 1 input".to_string()
            } else {
                format!("all {}", count(inputs.len(), "input"))
            },
            escape::path(dir),
            if inputs.len() == 1 { "is" } else { "are" }
        );
        return Ok(Outcome::Success);
    }
    let more = invalid.len().saturating_sub(NAMED);
    outln!(
        out,
        "{}: {} of {} in {} {} invalid: {}{}",
        problem.id(),
        thousands(invalid.len() as u64),
        count(inputs.len(), "input"),
        escape::path(dir),
        if invalid.len() == 1 { "is" } else { "are" },
        invalid[..invalid.len().min(NAMED)].join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    );
    Ok(Outcome::Finding)
}

/// A package's inputs against its input validators (built and run in jury boxes): INPUT (a
/// file, or every `.in` of a folder), or without it the package's own data: every sample and
/// secret input must be accepted and every `invalid_input` case rejected. A validator that
/// neither accepts nor rejects is a jury error (exit 2).
fn validate_package(
    package: &PackageProblem,
    input: Option<&Path>,
    out: &mut dyn Write,
) -> Result<Outcome> {
    let cancel = Cancel::new();
    // The jury's builder: the package's programs may be `build`/`run` folders.
    let builder = judge_core::runner::submission::Builder::new(None, &[], &cancel).for_jury(&[]);
    let jobs = crate::args::jobs(None);
    let jury = Jury::prepare(package, &builder, jobs)?;
    super::warn(package.warnings().iter().chain(&jury.warnings));
    if jury.input_validators.is_empty() {
        return Err(judge_core::JudgeError::Usage(format!(
            "{}: no input validator the judge can run",
            package.dir.display()
        )));
    }
    // (path, case, whether it must be valid)
    let mut checks: Vec<(
        PathBuf,
        Option<&judge_core::package::format::TestCase>,
        bool,
    )> = Vec::new();
    match input {
        Some(dir) if dir.is_dir() => {
            checks.extend(inputs_in(dir)?.into_iter().map(|p| (p, None, true)));
        }
        Some(file) => checks.push((file.to_path_buf(), None, true)),
        None => {
            for case in package.package.tests() {
                checks.push((case.input.clone(), Some(case), true));
            }
            for case in package
                .package
                .validation_cases(judge_core::package::format::Category::InvalidInput)
            {
                checks.push((case.input.clone(), Some(case), false));
            }
        }
    }
    let mut wrong = Vec::new();
    for (path, case, must_be_valid) in &checks {
        let bytes = std::fs::read(path).map_err(|e| judge_core::JudgeError::io(path, e))?;
        let shown = judge_report::escape::path(path);
        let verdict = jury.check_input(&bytes, &shown, *case, cancel.flag())?;
        let line = match (&verdict, must_be_valid) {
            (InputVerdict::Valid, true) | (InputVerdict::Invalid { .. }, false) => continue,
            (InputVerdict::Invalid { validator, message }, true) => {
                format!("{shown}: rejected by {validator}: {message}")
            }
            (InputVerdict::Valid, false) => {
                format!("{shown}: an invalid_input case every input validator accepts")
            }
        };
        errln!("{line}");
        wrong.push(shown);
    }
    if wrong.is_empty() {
        outln!(
            out,
            "{}: all {} inputs validated as expected ({} input validators)",
            escape::line(package.name()),
            checks.len(),
            jury.input_validators.len()
        );
        return Ok(Outcome::Success);
    }
    outln!(
        out,
        "{}: {} of {} inputs not as expected",
        escape::line(package.name()),
        wrong.len(),
        checks.len()
    );
    Ok(Outcome::Finding)
}
