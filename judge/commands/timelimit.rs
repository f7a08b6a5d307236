//! `judge timelimit PKG [--jobs N] [--report FILE.json]`: the time limit a package's own
//! submissions call for by the format's rule, checked against its too-slow submissions, and
//! the submissions within 25 % of it (see `judge_core::package::timelimit`). Exit 0 when the
//! limit holds, 1 when it does not (a too-slow submission runs under limit ×
//! time_limit_to_tle, an accepted one fails, or no limit can be given), 2 on a jury error.

use std::io::Write;
use std::path::PathBuf;

use judge_core::error::JudgeError;
use judge_core::package::timelimit::{Analysis, SENSITIVITY, analyse};
use judge_core::problem::{Problem, parse_problem};
use judge_core::{Outcome, Result};
use judge_report::escape;

use crate::args::SandboxArgs;
use crate::bar::Bar;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem package folder (holding problem.yaml).
    #[arg(value_parser = parse_problem)]
    pub package: Problem,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    /// Write the result as JSON (the limit, its bounds, one object per measured submission).
    #[arg(long)]
    pub report: Option<PathBuf>,
}

pub fn run(
    args: &Args,
    out: &mut dyn Write,
    interrupt: &judge_core::cancel::Cancel,
) -> Result<Outcome> {
    let Problem::Package(package) = &args.package else {
        return Err(JudgeError::Usage(format!(
            "judge timelimit takes a problem package folder; {} is a built-in problem (its \
             limit is fixed; `judge package {} --out DIR` writes it as a package)",
            args.package.name(),
            args.package.name()
        )));
    };
    if let Some(path) = &args.report
        && path.extension().is_none_or(|e| e != "json")
    {
        return Err(JudgeError::Usage(format!(
            "--report {}: judge timelimit writes JSON (FILE.json)",
            path.display()
        )));
    }
    let hidden = package.hidden();
    let builder = args.sandbox.builder(&hidden, interrupt);
    let prepared = package.prepare(None, &builder, args.sandbox.jobs(), interrupt)?;
    super::warn(package.warnings().iter().chain(&prepared.warnings));
    let given = match (args.sandbox.time_limit, package.given_time_limit()) {
        (Some(t), _) => Some((t, "--time-limit".to_string())),
        (None, Some((t, from))) => Some((t, from.to_string())),
        (None, None) => None,
    };
    let bar = Bar::new(
        "submissions",
        Some(package.package.submissions.len() as u64),
    );
    let session = args.sandbox.session(&hidden, &bar, interrupt);
    let analysis = analyse(
        package,
        &prepared.tests,
        &prepared.checker,
        &builder,
        &session,
        given,
        args.sandbox.memory_limit,
    );
    bar.finish();
    let analysis = analysis?;
    print(&analysis, out)?;
    super::warn(&analysis.findings);
    if let Some(path) = &args.report {
        std::fs::write(path, analysis.to_json() + "\n").map_err(|e| JudgeError::Report {
            path: path.clone(),
            source: Box::new(e),
        })?;
    }
    if analysis.interrupted {
        return Err(JudgeError::Interrupted(format!(
            "{} submissions measured",
            analysis.submissions.len()
        )));
    }
    Ok(if analysis.findings.is_empty() {
        Outcome::Success
    } else {
        Outcome::Finding
    })
}

fn secs(ms: u64) -> String {
    format!("{:.3} s", ms as f64 / 1000.0)
}

fn print(a: &Analysis, out: &mut dyn Write) -> Result<()> {
    outln!(
        out,
        "{}: {} tests; times are the CPU time (user + system) of each submission's slowest \
         test, which machine load hardly changes",
        escape::line(&a.problem),
        a.tests
    );
    let width = a
        .submissions
        .iter()
        .map(|s| s.path.chars().count())
        .chain(a.skipped.iter().map(|s| s.path.chars().count()))
        .max()
        .unwrap_or(0);
    for s in &a.submissions {
        let time = if s.verdict == "CE" {
            "-".to_string()
        } else if s.at_cap {
            format!("≥{} ms", s.max_cpu_ms)
        } else {
            format!("{} ms", s.max_cpu_ms)
        };
        let line = format!(
            "{:<11} {:<width$}  {:<3} {:>8}  {}{}",
            s.bounds.join("+"),
            s.path,
            s.verdict,
            time,
            s.slowest_test,
            match (s.sensitive, s.at_cap) {
                (true, _) => "  within 25 %",
                (false, true) => "  (stopped at the cap)",
                (false, false) => "",
            },
        );
        outln!(out, "{}", escape::line(&line));
    }
    for s in &a.skipped {
        let line = format!("skip        {:<width$}  not measured: {}", s.path, s.why);
        outln!(out, "{}", escape::line(&line));
    }
    match &a.slowest_lower {
        Some(e) => outln!(
            out,
            "slowest lower bound: {} ({}) × {} (ac_to_time_limit) → {} s by the format's \
             rule (rounded up to a multiple of {} s)",
            secs(e.cpu_ms),
            escape::line(&e.path),
            a.ac_to_time_limit,
            a.derived_s.unwrap_or_default(),
            a.time_resolution
        ),
        None => outln!(out, "slowest lower bound: none measured"),
    }
    match (&a.given_s, &a.given_by) {
        (Some(t), Some(by)) => outln!(out, "time limit: {t} s ({by})"),
        _ => {
            if let Some(t) = a.limit_s {
                outln!(
                    out,
                    "time limit: {t} s (the package sets none; write limits.time_limit: {t} to \
                     fix it)"
                );
            }
        }
    }
    if let Some(limit) = a.limit_s {
        let bar = limit * a.time_limit_to_tle;
        match &a.fastest_upper {
            Some(e) => outln!(
                out,
                "fastest upper bound: {}{} ({}) {} {limit} s × {} (time_limit_to_tle) = {:.3} s",
                if e.at_least { "≥ " } else { "" },
                secs(e.cpu_ms),
                escape::line(&e.path),
                if e.cpu_ms as f64 / 1000.0 + 1e-9 >= bar {
                    "≥"
                } else {
                    "<"
                },
                a.time_limit_to_tle,
                bar
            ),
            None => outln!(out, "fastest upper bound: none measured"),
        }
        let sensitive: Vec<&str> = a
            .submissions
            .iter()
            .filter(|s| s.sensitive)
            .map(|s| s.path.as_str())
            .collect();
        outln!(
            out,
            "within {:.0} % of the limit ({:.3}–{:.3} s): {}",
            SENSITIVITY * 100.0,
            (1.0 - SENSITIVITY) * limit,
            (1.0 + SENSITIVITY) * limit,
            if sensitive.is_empty() {
                "none".to_string()
            } else {
                escape::line(&sensitive.join(", "))
            }
        );
    }
    for note in &a.notes {
        outln!(out, "note: {note}");
    }
    outln!(
        out,
        "{}: {}",
        escape::line(&a.problem),
        if a.findings.is_empty() {
            "the limit holds".to_string()
        } else {
            format!("{} finding(s), see the warnings", a.findings.len())
        }
    );
    Ok(())
}
