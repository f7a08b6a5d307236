//! `judge merge DIR [--report FILE]`: fold the shard results under DIR (what `--shard K/N
//! --save DIR` wrote) into what the single-machine command would have said.

use std::io::Write;
use std::path::PathBuf;

use judge_core::error::JudgeError;
use judge_core::merge::{Merged, merge};
use judge_core::progress::count;
use judge_core::registry::{ProblemEntry, find};
use judge_core::shards::Shard;
use judge_core::shards::folder::complete_name;
use judge_core::{Outcome, Result};
use judge_report::many::{self, ManyReport};
use judge_report::{Format, escape, finding, merged};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The folder the shards saved into (DIR of `--save DIR`).
    pub dir: PathBuf,
    /// Write a report of the whole campaign: .json or .html (stress: also .csv, one row per
    /// shard; many submissions: .csv, .xml as `judge run --submissions` writes them).
    #[arg(long)]
    pub report: Option<PathBuf>,
}

fn problem(id: &str) -> Result<&'static dyn ProblemEntry> {
    find(id).ok_or_else(|| {
        JudgeError::Usage(format!(
            "the shards are of problem '{}', which this judge does not know",
            escape::line(id)
        ))
    })
}

pub fn run(args: &Args, out: &mut dyn Write) -> Result<Outcome> {
    crate::paths::existing(&args.dir)?;
    if let Some(path) = &args.report {
        crate::paths::report(path)?;
    }
    match merge(&args.dir)? {
        Merged::Stress(m) => {
            // A package's campaign (it has a generator) names its folder, drawn by nothing.
            let problem = match m.campaign.generator {
                Some(_) => None,
                None => Some(problem(&m.campaign.problem)?),
            };
            if let Some(path) = &args.report
                && Format::of(path) == Format::JUnit
            {
                return Err(JudgeError::Usage(format!(
                    "{}: a merged stress campaign has a .json, .html or .csv report",
                    path.display()
                )));
            }
            // Standard output is the single run's, byte for byte but for the timings line.
            out!(
                out,
                "{}",
                finding::outcome(&finding::Outcome {
                    problem,
                    campaign: &m.campaign,
                    shard: Shard::WHOLE,
                    cases: m.cases,
                    finding: m.finding.as_ref().map(|(f, _)| f),
                    seconds: m.seconds,
                })
            );
            let done: u64 = m.parts.iter().map(|p| p.cases_run).sum();
            errln!(
                "merged {} of {}: {} run in all",
                count(m.shards, "shard"),
                args.dir.display(),
                count(done, "case")
            );
            if let Some((_, shard)) = &m.finding {
                errln!(
                    "the finding's files ({}): {}",
                    // A package's finding has no picture and no corpus entry.
                    if problem.is_some() {
                        "shrunk.in, shrunk.svg, case.toml …"
                    } else {
                        "shrunk.in, shrunk.ans, original.in …"
                    },
                    args.dir.join(complete_name(*shard)).display()
                );
            }
            for note in &m.notes {
                errln!("note: {}", escape::line(note));
            }
            if let Some(path) = &args.report {
                merged::write_stress(path, problem, &m)?;
            }
            Ok(if m.finding.is_some() {
                Outcome::Finding
            } else {
                Outcome::Success
            })
        }
        Merged::Run(m) => {
            let report = ManyReport {
                problem: &m.campaign.problem,
                tests_dir: &m.tests_dir,
                tests: m.campaign.tests,
                time_limit_ms: m.campaign.time_limit_ms,
                memory_limit_mb: m.campaign.memory_limit_mb,
                isolation: &m.isolation,
                judged: &m.judged,
                not_run: &[],
            };
            out!(out, "{}", many::table(&report));
            errln!(
                "merged {} of {}",
                count(m.shards, "shard"),
                escape::line(&args.dir.display().to_string())
            );
            // What isolated the runs on the shards' machines: one short line each, as a run
            // says it, unless -v asks for the full description. Read from the shards' files:
            // escaped like every string of them.
            for line in &m.isolation {
                if crate::args::verbose() {
                    errln!("sandbox: {}", escape::line(line));
                } else {
                    errln!(
                        "sandbox: {} (-v for details)",
                        escape::line(&crate::args::short_isolation(line))
                    );
                }
            }
            if let Some(path) = &args.report {
                many::write(path, &report)?;
            }
            Ok(if report.passed() {
                Outcome::Success
            } else {
                Outcome::Finding
            })
        }
    }
}
