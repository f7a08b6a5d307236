//! The command line, as specified in `shared/cli.md`.

use std::io::Write;

use clap::{Parser, Subcommand};

use crate::commands;
use crate::signals::interrupt;

#[derive(Parser, Debug)]
#[command(
    name = "judge",
    version,
    about = "Generate hidden tests, judge and stress-test submissions for five board problems"
)]
#[command(
    after_help = "Exit codes: 0 success, 1 a finding (invalid input, non-AC verdict, a compile error (CE) in run, stress and strength, disagreement, surviving wrong solution), 2 usage error, jury error, interruption or failure of the judge."
)]
pub struct Cli {
    /// Say more: the sandbox's full description (what isolates runs, what is missing and why).
    #[arg(short, long, global = true)]
    pub verbose: bool,
    /// Follow a problem package's symbolic links that lead into DIR, outside the package
    /// (e.g. BAPCtools' test packages link their validators' header to BAPCtools' own folder);
    /// repeatable. Without it such a link is refused: a package is untrusted, and a link could
    /// carry any file of the machine into a box.
    #[arg(long, value_name = "DIR", global = true, value_parser = trusted_folder)]
    pub allow_links_into: Vec<std::path::PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

/// A folder named by `--allow-links-into`: it must exist (a typo would allow nothing and
/// leave the user wondering why the links are still refused).
fn trusted_folder(arg: &str) -> Result<std::path::PathBuf, String> {
    let path = std::path::PathBuf::from(arg);
    if path.is_dir() {
        Ok(path)
    } else {
        Err(format!("{arg}: not a folder"))
    }
}

/// The folders `--allow-links-into` names, read from the arguments before clap parses them:
/// a package folder is read while its argument is parsed, perhaps before the option (`judge
/// verify PKG --allow-links-into DIR`). What follows `--` is a submission's, not ours.
pub fn links_allowed_into(
    args: impl Iterator<Item = std::ffi::OsString>,
) -> Vec<std::path::PathBuf> {
    let mut folders = Vec::new();
    let mut args = args.skip(1);
    while let Some(arg) = args.next() {
        let Some(text) = arg.to_str() else { continue };
        if text == "--" {
            break;
        }
        if text == "--allow-links-into" {
            if let Some(value) = args.next() {
                folders.push(std::path::PathBuf::from(value));
            }
        } else if let Some(value) = text.strip_prefix("--allow-links-into=") {
            folders.push(std::path::PathBuf::from(value));
        }
    }
    folders
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the problems: id and one-line description.
    Problems,
    /// Print the answer to an input.
    Solve(commands::solve::Args),
    /// Check that an input is in canonical form and meets the constraints (exit 1 if not).
    Validate(commands::validate::Args),
    /// Write generated inputs (valid with answers, or --invalid) to a folder.
    Gen(commands::generate::Args),
    /// Write a complete hidden test set with answers and a manifest.
    Testset(commands::testset::Args),
    /// Run a submission on a test set in the sandbox; verdict per test.
    Run(commands::run::Args),
    /// Differential testing against the trusted solver, with shrinking.
    Stress(commands::stress::Args),
    /// Fold the shard results of `--shard K/N --save DIR` into the single run's result.
    Merge(commands::merge::Args),
    /// Measure how strong a test set is against known-wrong solutions.
    Strength(commands::strength::Args),
    /// Write every solver of a problem (correct and known-wrong) as single-file Rust sources.
    Solutions(commands::solutions::Args),
    /// Write a complete contest problem package (BAPCtools / problemtools / DOMjudge).
    Package(commands::package::Args),
    /// Measure parser and solver throughput on generated inputs.
    Bench(commands::bench::Args),
    /// List a problem's generator families and what each targets.
    Families(commands::families::Args),
    /// Judge every jury submission of a problem package and compare with what it declares.
    Verify(commands::verify::Args),
    /// The time limit a package's submissions call for, checked, with those close to it.
    Timelimit(commands::timelimit::Args),
}

/// Runs the command: what it prints goes to `out` (standard output; an error writing it is
/// returned, as `JudgeError::Output`). The commands that run submissions stop on Ctrl-C and
/// SIGTERM ([`interrupt`]).
pub fn run(cli: &Cli, out: &mut dyn Write) -> judge_core::Result<judge_core::Outcome> {
    crate::args::set_verbose(cli.verbose);
    match &cli.command {
        Command::Problems => commands::problems::run(out),
        Command::Solve(args) => commands::solve::run(args, out),
        Command::Validate(args) => commands::validate::run(args, out),
        Command::Gen(args) => commands::generate::run(args),
        Command::Testset(args) => commands::testset::run(args),
        Command::Run(args) => commands::run::run(args, out, &interrupt()),
        Command::Stress(args) => commands::stress::run(args, out, &interrupt()),
        Command::Merge(args) => commands::merge::run(args, out),
        Command::Bench(args) => commands::bench::run(args, out),
        Command::Strength(args) => commands::strength::run(args, out, &interrupt()),
        Command::Solutions(args) => commands::solutions::run(args),
        Command::Families(args) => commands::families::run(args, out),
        Command::Package(args) => commands::package::run(args, &interrupt()),
        Command::Verify(args) => commands::verify::run(args, out, &interrupt()),
        Command::Timelimit(args) => commands::timelimit::run(args, out, &interrupt()),
    }
}

/// A parse error, with a hint where the likely mistake is known: a submission typed without
/// the `--` before it (`judge run omok --tests t python3 sol.py`) is an "unexpected argument"
/// to clap, which cannot know that the word was meant as the command.
pub fn with_hint(mut error: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let words: Vec<String> = std::env::args().skip(1).collect();
    let takes_submission = words
        .iter()
        .find(|w| !w.starts_with('-'))
        .is_some_and(|command| ["run", "stress"].contains(&command.as_str()));
    if error.kind() == ErrorKind::UnknownArgument
        && takes_submission
        && !words.iter().any(|w| w == "--")
        && let Some(ContextValue::String(word)) = error.get(ContextKind::InvalidArg)
        && !word.starts_with('-')
    {
        let tip = format!("the submission goes after `--`, e.g. `-- {word} …` at the end");
        error.insert(
            ContextKind::Suggested,
            ContextValue::StyledStrs(vec![tip.into()]),
        );
    }
    error
}
