//! `judge stress PROBLEM --seed S [--cases N] [--time SECS] [--jobs N] [--save DIR]
//! [--against reference|fast] [--shard K/N|auto] [-- CMD [ARGS...]]`, and for a package
//! `judge stress PKG --seed S --generator 'GEN {seed}' [--reference SUB] … -- SUBMISSION`
//! (the work is the core's: `judge_core::package_stress`).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use judge_core::cancel::Cancel;
use judge_core::error::JudgeError;
use judge_core::package::PackageProblem;
use judge_core::problem::{Problem, parse_problem};
use judge_core::progress::{count, thousands};
use judge_core::registry::{ProblemEntry, SolverKind};
use judge_core::shards::folder::{self, Pending};
use judge_core::shards::{Shard, ShardArg};
use judge_core::stress::record::{Campaign, Record};
use judge_core::stress::{Budget, Summary};
use judge_core::{Outcome, Result};
use judge_report::finding;
use sandbox::Sandbox;

use crate::args::{SandboxArgs, Solver};
use crate::bar::Bar;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`), or a problem package folder.
    #[arg(value_parser = parse_problem)]
    pub problem: Problem,
    /// The seed: the same seed tries the same cases, in the same order.
    #[arg(long, allow_negative_numbers = true)]
    pub seed: u64,
    /// The campaign's cases: case indices 0..N, split among the shards with --shard (default:
    /// 10,000 with a command, 1,000,000 in process, unless --time is given).
    #[arg(long, value_parser = crate::args::count, allow_negative_numbers = true)]
    pub cases: Option<u64>,
    /// Stop after this many seconds (each shard's own time, with --shard).
    #[arg(long, allow_negative_numbers = true)]
    pub time: Option<f64>,
    /// Write the finding (inputs, answers, an SVG picture, a corpus entry) into this folder;
    /// with --shard, the shard's result into DIR/shard-K-of-N/ (see `judge merge`).
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// The trusted solver.
    #[arg(long, value_enum, default_value_t = Solver::Reference)]
    pub against: Solver,
    /// Run only shard K of N (1-based) of the campaign: the N shards of one seed together run
    /// every case index below --cases exactly once. `auto`: K/N from a Slurm job array
    /// (SLURM_ARRAY_TASK_ID, _MIN, _COUNT) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX
    /// and BOARDJUDGE_SHARDS).
    #[arg(long)]
    pub shard: Option<ShardArg>,
    /// A package's generator: 'PROGRAM [ARGS…]' with {seed} in the arguments (PROGRAM a source
    /// file or an executable, here or in the package folder), built and run confined; each
    /// case gets a seed of its own derived from --seed and the case number.
    #[arg(long)]
    pub generator: Option<String>,
    /// A package's reference submission (default: its first accepted submission).
    #[arg(long)]
    pub reference: Option<String>,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    /// The submission to test (a command as typed, or one source file: .c .cpp .cc .py .java
    /// .kt .go .rs .rb .js .sh); without it the fast solver is checked against the reference,
    /// in process.
    #[arg(last = true)]
    pub command: Vec<String>,
}

fn against(kind: SolverKind) -> &'static str {
    match kind {
        SolverKind::Reference => "reference",
        SolverKind::Fast => "fast",
    }
}

/// The built-in problem, if the problem is one.
fn entry(args: &Args) -> Option<&'static dyn ProblemEntry> {
    match &args.problem {
        Problem::BuiltIn(entry) => Some(*entry),
        Problem::Package(_) => None,
    }
}

/// The problem as the campaign names it (the replay line's): an id, or the folder as typed.
fn problem_name(args: &Args) -> String {
    match &args.problem {
        Problem::BuiltIn(entry) => entry.id().to_string(),
        Problem::Package(package) => package.dir.display().to_string(),
    }
}

pub fn run(args: &Args, out: &mut dyn Write, interrupt: &Cancel) -> Result<Outcome> {
    if let Some(save) = &args.save {
        crate::paths::output_folder("--save", save)?;
    }
    if args
        .time
        .is_some_and(|t| !(t.is_finite() && t > 0.0 && t <= 1e9))
    {
        return Err(JudgeError::Usage(
            "--time takes a number of seconds, more than 0".to_string(),
        ));
    }
    match &args.problem {
        Problem::Package(package) => {
            if args.against == Solver::Fast {
                return Err(JudgeError::Usage(
                    "--against fast is a built-in problem's in-process solver; a package's \
                     reference is a submission (--reference)"
                        .to_string(),
                ));
            }
            if args.command.is_empty() {
                return Err(JudgeError::Usage(
                    "a package is stressed with a submission: judge stress PKG --seed S \
                     --generator 'GEN {seed}' -- SUBMISSION"
                        .to_string(),
                ));
            }
            if args.generator.is_none()
                && judge_core::package::generator::default_generator(package)?.is_none()
            {
                return Err(JudgeError::Usage(format!(
                    "{}: --generator 'PROGRAM {{seed}}' is needed: the package names no \
                     generator (a `random` entry of generators/generators.yaml, or a program \
                     generators/random*)",
                    package.dir.display()
                )));
            }
        }
        Problem::BuiltIn(entry) => {
            if args.generator.is_some() || args.reference.is_some() {
                return Err(JudgeError::Usage(format!(
                    "--generator and --reference are a package's; the built-in problem {} \
                     brings its own generators and reference",
                    entry.id()
                )));
            }
        }
    }
    if args.command.is_empty() && args.against == Solver::Fast {
        return Err(JudgeError::Usage(
            "--against fast needs a submission command (-- CMD): without one the fast solver is what is checked".to_string(),
        ));
    }
    let shard = match &args.shard {
        None => Shard::WHOLE,
        Some(arg) => {
            let (shard, origin) = arg.resolve()?;
            if let Some(origin) = origin {
                errln!("shard {shard} (from {origin})");
                if shard.is_whole() {
                    errln!(
                        "judge: warning: a job of one task is the whole campaign; to run again one shard of a larger array, give --shard K/N"
                    );
                }
            }
            shard
        }
    };
    if let (Some(dir), Some(_)) = (&args.save, &args.shard) {
        folder::check_free(dir, shard)?;
    }
    if let Problem::Package(package) = &args.problem {
        return stress_package(args, package, shard, out, interrupt);
    }
    if args.command.is_empty() {
        return stress(args, shard, None, out, interrupt);
    }
    // A compile error is the submission's verdict, a finding (exit 1), as in `judge run` and
    // `judge strength`.
    let Ok(command) = args
        .sandbox
        .submission(&args.command, &[], interrupt, out)?
    else {
        outln!(
            out,
            "{}: 0 cases run: the submission does not build",
            judge_report::escape::line(&problem_name(args))
        );
        return Ok(Outcome::Finding);
    };
    let sandbox = Sandbox::new(command, args.sandbox.jobs())
        .map_err(|e| JudgeError::sandbox("setting up", e))?;
    stress(args, shard, Some(&sandbox), out, interrupt)
}

/// Runs this shard of the campaign (`submission`, or in process the fast solver), prints and
/// saves what it found.
fn stress(
    args: &Args,
    shard: Shard,
    submission: Option<&Sandbox>,
    out: &mut dyn Write,
    interrupt: &Cancel,
) -> Result<Outcome> {
    // A submission costs a process per case, the fast solver a microsecond.
    let default_cases = if submission.is_some() {
        10_000
    } else {
        1_000_000
    };
    let cases = args
        .cases
        .or((args.time.is_none()).then_some(default_cases));
    let budget = Budget {
        seed: args.seed,
        cases,
        time: args.time.map(Duration::from_secs_f64),
        shard,
    };
    let campaign = Campaign {
        problem: problem_name(args),
        seed: args.seed,
        cases,
        time_s: args.time,
        against: against(args.against.into()).to_string(),
        submission: args.command.clone(),
        time_limit_ms: submission.map(|_| args.sandbox.limits().cpu.as_millis() as u64),
        memory_limit_mb: submission.map(|_| args.sandbox.memory_limit()),
        generator: None,
        reference: None,
    };
    let bar =
        Bar::new("cases", cases.map(|c| shard.stress_local_count(c))).with_time_budget(budget.time);
    let session = args.sandbox.session(&[], &bar, interrupt);
    let Some(entry) = entry(args) else {
        return Err(JudgeError::Usage("not a built-in problem".to_string()));
    };
    let summary = entry.stress(budget, args.against.into(), submission, &session);
    bar.finish();
    finish(args, &campaign, shard, cases, summary?, out)
}

/// A package's stress run: its jury programs, the generator, the reference and the
/// submission built, then the one stress loop.
fn stress_package(
    args: &Args,
    package: &PackageProblem,
    shard: Shard,
    out: &mut dyn Write,
    interrupt: &Cancel,
) -> Result<Outcome> {
    use judge_core::package_stress as pkg;
    let jobs = args.sandbox.jobs();
    let hidden = package.hidden();
    let builder = args.sandbox.builder(&hidden, interrupt);
    // Refusals (interactive, multi-pass) come before anything is built.
    let jury = pkg::prepare_jury(package, &builder, jobs)?;
    super::warn(package.warnings().iter().chain(&jury.warnings));
    // --generator, else the one the package names by the convention (`judge package` writes
    // it): run as `random SEED`.
    let generator_command = match &args.generator {
        Some(command) => command.clone(),
        None => {
            let named = judge_core::package::generator::default_generator(package)?
                .ok_or_else(|| JudgeError::Usage("the package names no generator".to_string()))?;
            let program = std::fs::canonicalize(&named.program.path)
                .map_err(|e| JudgeError::io(&named.program.path, e))?;
            let shown = program.display().to_string();
            if shown.chars().any(char::is_whitespace) {
                return Err(JudgeError::Usage(format!(
                    "{shown}: the package's generator lies in a path with a space; give it \
                     as --generator 'PROGRAM {{seed}}'"
                )));
            }
            errln!(
                "generator: {} (the package's: {})",
                judge_report::escape::line(&shown),
                judge_report::escape::line(&named.origin)
            );
            format!("{shown} {{seed}}")
        }
    };
    let jury_builder =
        builder.for_jury(&[package.dir.join("data"), package.dir.join("submissions")]);
    let generator = pkg::Generator::build(&generator_command, &package.dir, &jury_builder, jobs)?;
    let (reference_path, reference_shown) =
        pkg::reference_path(package, args.reference.as_deref())?;
    // The reference is the jury's: one that does not build is a jury error, not a finding.
    let reference =
        judge_core::runner::submission::from_path(&reference_path, &builder).map_err(|e| {
            pkg::jury_build_failure(
                e,
                package.name(),
                &format!("the reference {reference_shown}"),
            )
        })?;
    // A compile error is the submission's verdict, a finding (exit 1), as in `judge run`.
    let Ok(command) = args
        .sandbox
        .submission(&args.command, &hidden, interrupt, out)?
    else {
        outln!(
            out,
            "{}: 0 cases run: the submission does not build",
            judge_report::escape::line(package.name())
        );
        return Ok(Outcome::Finding);
    };
    let (seconds, origin) = match (args.sandbox.time_limit, package.given_time_limit()) {
        (Some(t), _) => (t, "--time-limit".to_string()),
        (None, Some((t, from))) => (t, from.to_string()),
        (None, None) => (
            1.0,
            "the package gives none; --time-limit sets one, `judge timelimit PKG` derives it"
                .to_string(),
        ),
    };
    errln!("time limit: {seconds} s ({origin})");
    let mut limits = package.limits(seconds, args.sandbox.memory_limit);
    limits.sanitizer = args.sandbox.sanitize;
    let cases = args.cases.or((args.time.is_none()).then_some(10_000));
    let budget = Budget {
        seed: args.seed,
        cases,
        time: args.time.map(Duration::from_secs_f64),
        shard,
    };
    let campaign = Campaign {
        problem: problem_name(args),
        seed: args.seed,
        cases,
        time_s: args.time,
        against: against(SolverKind::Reference).to_string(),
        submission: args.command.clone(),
        time_limit_ms: Some(limits.cpu.as_millis() as u64),
        memory_limit_mb: Some(limits.memory_bytes >> 20),
        generator: args.generator.clone(),
        reference: args.reference.clone(),
    };
    let bar =
        Bar::new("cases", cases.map(|c| shard.stress_local_count(c))).with_time_budget(budget.time);
    let session = judge_core::session::Session {
        limits,
        ..args.sandbox.session(&hidden, &bar, interrupt)
    };
    let submission = session.sandbox(command)?;
    let setup = pkg::Setup {
        problem: package,
        generator,
        jury,
        reference: session.sandbox(reference)?,
        reference_shown,
        submission: &submission,
    };
    let summary = pkg::run(&setup, budget, &session);
    bar.finish();
    finish(args, &campaign, shard, cases, summary?, out)
}

/// Prints and saves what this shard of the campaign found; interrupted: exit 2.
fn finish(
    args: &Args,
    campaign: &Campaign,
    shard: Shard,
    cases: Option<u64>,
    summary: Summary,
    out: &mut dyn Write,
) -> Result<Outcome> {
    let campaign = campaign.clone();
    if summary.finding.is_some() || !summary.interrupted {
        out!(out, "{}", outcome(args, &campaign, shard, &summary));
    }
    let saved = save(args, &campaign, shard, &summary, out)?;
    if summary.interrupted {
        let what = match &summary.finding {
            Some(f) => format!(
                "while shrinking case {}: the shrunk case above is not final",
                f.case
            ),
            None => format!(
                "stopped after {} of {} without a disagreement{}",
                thousands(summary.cases),
                cases.map_or("its cases".to_string(), |c| count(
                    shard.stress_local_count(c),
                    "case"
                )),
                if shard.is_whole() {
                    String::new()
                } else {
                    format!(
                        " (shard {shard}: case indices {}, {}, …)",
                        shard.stress_case(0),
                        shard.stress_case(1)
                    )
                }
            ),
        };
        let saved = saved
            .map(|p| format!("; how far it got is in {}", p.display()))
            .unwrap_or_default();
        return Err(JudgeError::Interrupted(format!("{what}{saved}")));
    }
    Ok(if summary.finding.is_some() {
        Outcome::Finding
    } else {
        Outcome::Success
    })
}

fn outcome(args: &Args, campaign: &Campaign, shard: Shard, summary: &Summary) -> String {
    let cases = match &summary.finding {
        // The whole campaign counts global indices; a shard its own cases.
        Some(f) if shard.is_whole() => f.case + 1,
        _ => summary.cases,
    };
    let elapsed = summary.elapsed.as_secs_f64();
    let to_find = summary.to_find.as_secs_f64();
    finding::outcome(&finding::Outcome {
        problem: entry(args),
        campaign,
        shard,
        cases,
        finding: summary.finding.as_ref(),
        seconds: judge_core::stress::record::Seconds {
            elapsed,
            to_find,
            shrink: (elapsed - to_find).max(0.0),
        },
    })
}

/// `--save DIR`: with --shard the shard's result as DIR/shard-K-of-N/ (or
/// DIR/shard-K-of-N.interrupted/), written elsewhere and renamed into place; without it the
/// finding's files in DIR. Returns the folder written, if any.
fn save(
    args: &Args,
    campaign: &Campaign,
    shard: Shard,
    summary: &Summary,
    out: &mut dyn Write,
) -> Result<Option<PathBuf>> {
    let Some(dir) = &args.save else {
        return Ok(None);
    };
    if args.shard.is_none() {
        let Some(found) = &summary.finding else {
            return Ok(None);
        };
        finding::save(entry(args), found, dir)?;
        match entry(args) {
            Some(entry) => outln!(
                out,
                "saved to {}; to keep it as a regression test: cat {}/case.toml >> {}",
                dir.display(),
                dir.display(),
                generators::corpus::corpus_path(entry.id())
            ),
            None => outln!(
                out,
                "saved to {}; to keep it as a test: copy {}/shrunk.in and shrunk.ans into the \
                 package's data/secret/ under one name",
                dir.display(),
                dir.display()
            ),
        }
        return Ok(Some(dir.clone()));
    }
    let pending = Pending::create(dir, shard)?;
    if let Some(found) = &summary.finding {
        finding::save(entry(args), found, pending.path())?;
    }
    let record = Record::new(campaign.clone(), shard, summary);
    let published = pending.publish_record(&record, !summary.interrupted)?;
    if !summary.interrupted {
        outln!(out, "shard {shard} saved to {}", published.display());
    }
    Ok(Some(published))
}
