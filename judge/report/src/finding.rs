//! Showing and saving a stress finding (`judge stress`).

use std::io::IsTerminal;
use std::path::Path;

use judge_core::error::JudgeError;
use judge_core::progress::{plural, rate, thousands};
use judge_core::registry::ProblemEntry;
use judge_core::shards::Shard;
use judge_core::stress::Finding;
use judge_core::stress::record::{Campaign, Seconds};
use judge_core::testgen::{create_dir, write_file};

use crate::escape;
use crate::picture::Drawing;

/// Where a case came from, as the finding's first line says it: `family NAME: PARAMS`, or
/// the strongest cases' origin (`testset-cover`, `testset`, `boundary: OBLIGATION`).
fn origin(finding: &Finding) -> String {
    // (`generator`: a package's case, its params the generator's seed.)
    let named = if ["testset-cover", "testset", "boundary", "generator"]
        .contains(&finding.family.as_str())
    {
        finding.family.to_string()
    } else {
        format!("family {}", finding.family)
    };
    if finding.params.is_empty() {
        named
    } else {
        format!("{named}: {}", finding.params)
    }
}

/// Text for a TOML basic string (`"…"`) on one line: [`escape::line`], then its backslashes and
/// quotes escaped for TOML (a forged shard's family cannot end the string or add a key).
fn toml_text(text: &str) -> String {
    escape::line(text)
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// The finding as text for the terminal (coloured if stdout is one): one line for the
/// original case, then the shrunk case drawn once — its board, expected vs got, a legend
/// (a package's problem, `None`, is not drawn: its input is shown as text) — and the command
/// that replays it. The input files themselves are written by `--save`.
/// Cases are numbered from 1, as `--cases` counts them: "case 2" is the last case of
/// `--cases 2`.
pub fn render(problem: Option<&dyn ProblemEntry>, finding: &Finding, replay: &str) -> String {
    let colour = std::io::stdout().is_terminal();
    let mut out = format!(
        "DISAGREEMENT at case {} ({})\n  original: expected {}, got {}\n",
        finding.case + 1,
        escape::line(&origin(finding)),
        one_line(&finding.expected),
        one_line(&finding.got),
    );
    out.push_str(&format!(
        "shrunk in {} steps{}:\n  expected {}\n  got      {}\n\n",
        finding.shrink_steps,
        if finding.shrink_complete {
            " (1-minimal: no single step keeps the disagreement)"
        } else if finding.shrink_interrupted {
            " (shrinking interrupted: not final)"
        } else if finding.shrink_steps == 0 {
            // No step was taken (a package with no input validator the judge runs is not
            // shrunk at all, and says why): no budget ran out.
            " (not shrunk)"
        } else {
            " (stopped by the 30 s shrink budget)"
        },
        one_line(&finding.shrunk_expected),
        one_line(&finding.shrunk_got)
    ));
    match problem.and_then(|problem| {
        Drawing::of(
            problem,
            &finding.shrunk_input,
            &finding.shrunk_expected,
            &finding.shrunk_got,
        )
    }) {
        Some(drawing) => out.push_str(&drawing.terminal(colour)),
        // A package's input, or not drawable (cannot happen for a built-in problem's shrunk
        // input, which is validated): the text, its first lines.
        None if problem.is_none() => {
            out.push_str("shrunk input:\n");
            out.push_str(&escape::terminal(&escape::head(
                &finding.shrunk_input,
                40,
                4000,
            )));
            if !finding.shrunk_input.ends_with('\n') {
                out.push('\n');
            }
        }
        None => out.push_str(&escape::terminal(&finding.shrunk_input)),
    }
    out.push_str(&format!("\nreplay: {replay}\n"));
    out
}

/// What a stress run (or `judge merge` of its shards) found, to print.
pub struct Outcome<'a> {
    /// The built-in problem (`None`: a package, named by the campaign).
    pub problem: Option<&'a dyn ProblemEntry>,
    pub campaign: &'a Campaign,
    /// The shard that ran ([`Shard::WHOLE`] for the single run and for merged shards).
    pub shard: Shard,
    /// The cases run (with a finding: up to and including it).
    pub cases: u64,
    pub finding: Option<&'a Finding>,
    pub seconds: Seconds,
}

/// The command that replays a finding at global case `case`: the campaign's first `case + 1`
/// cases (of this shard's), which end at this very finding.
pub fn replay(campaign: &Campaign, shard: Shard, case: u64) -> String {
    let mut line = format!(
        "judge stress {} --seed {} --cases {}",
        campaign.problem,
        campaign.seed,
        case + 1
    );
    if !shard.is_whole() {
        line.push_str(&format!(" --shard {shard}"));
    }
    if let Some(generator) = &campaign.generator {
        line.push_str(&format!(" --generator {}", shell_word(generator)));
    }
    if let Some(reference) = &campaign.reference {
        line.push_str(&format!(" --reference {}", shell_word(reference)));
    }
    if campaign.against != "reference" {
        line.push_str(&format!(" --against {}", campaign.against));
    }
    if campaign.time_limit_ms.is_some_and(|ms| ms != 2000) {
        let ms = campaign.time_limit_ms.unwrap_or(2000);
        line.push_str(&format!(" --time-limit {}", ms as f64 / 1000.0));
    }
    if campaign.memory_limit_mb.is_some_and(|mb| mb != 256) {
        let mb = campaign.memory_limit_mb.unwrap_or(256);
        line.push_str(&format!(" --memory-limit {mb}"));
    }
    if !campaign.submission.is_empty() {
        line.push_str(" --");
        for word in &campaign.submission {
            line.push(' ');
            line.push_str(&shell_word(word));
        }
    }
    // One line: a word with a line break in it must not start a line of its own.
    escape::line(&line)
}

/// `word` as the shell reads it back: as it is when it holds only safe characters, else in
/// single quotes (a submission command such as `python3 'my sol.py'` replays as typed).
fn shell_word(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if safe {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// What `judge stress` prints on standard output at the end, and `judge merge` for its shards:
/// the finding drawn (or the agreement), then one line of timings — the only line that
/// differs between two runs of the same campaign, or between a single run and its merged
/// shards.
pub fn outcome(o: &Outcome) -> String {
    let Some(finding) = o.finding else {
        let agreement = if o.campaign.submission.is_empty() {
            "fast = reference".to_string()
        } else if o.campaign.against == "fast" {
            "the submission agrees with the fast solver".to_string()
        } else {
            "the submission agrees with the reference".to_string()
        };
        let shard = if o.shard.is_whole() {
            String::new()
        } else {
            format!(", shard {}", o.shard)
        };
        return format!(
            "no disagreement: {agreement} on {} {} of {} (seed {}{shard})\nran {} {} in {:.2} s ({})\n",
            o.cases,
            plural(o.cases, "case"),
            escape::line(&o.campaign.problem),
            o.campaign.seed,
            thousands(o.cases),
            plural(o.cases, "case"),
            o.seconds.elapsed,
            rate(o.cases as f64 / o.seconds.elapsed.max(1e-9))
        );
    };
    let mut out = render(
        o.problem,
        finding,
        &replay(o.campaign, o.shard, finding.case),
    );
    out.push_str(&format!(
        "found after {} {} in {:.2} s (shrunk in {:.2} s more)\n",
        o.cases,
        plural(o.cases, "case"),
        o.seconds.to_find,
        o.seconds.shrink
    ));
    out
}

/// Is this line of [`outcome`] the timings (which differ from run to run)?
pub fn is_timing_line(line: &str) -> bool {
    line.starts_with("found after ") || line.starts_with("ran ")
}

/// Writes the shrunk case (`shrunk.in`, `shrunk.ans`, `shrunk.svg`), the original
/// (`original.in`, `original.ans`), what the candidate printed (`*.got`), and `case.toml`: a
/// corpus entry to append to `tests/data/PROBLEM/corpus.toml` as a regression test. A
/// package's finding (`problem` `None`) has no picture and no corpus entry: its `shrunk.in` and
/// `shrunk.ans` are a test of the package as they are.
pub fn save(
    problem: Option<&dyn ProblemEntry>,
    finding: &Finding,
    dir: &Path,
) -> Result<(), JudgeError> {
    create_dir(dir)?;
    write_file(&dir.join("original.in"), finding.input.as_bytes())?;
    write_file(&dir.join("original.ans"), finding.expected.as_bytes())?;
    write_file(&dir.join("original.got"), finding.got.as_bytes())?;
    write_file(&dir.join("shrunk.in"), finding.shrunk_input.as_bytes())?;
    write_file(&dir.join("shrunk.ans"), finding.shrunk_expected.as_bytes())?;
    write_file(&dir.join("shrunk.got"), finding.shrunk_got.as_bytes())?;
    let Some(problem) = problem else {
        return Ok(());
    };
    if let Some(drawing) = Drawing::of(
        problem,
        &finding.shrunk_input,
        &finding.shrunk_expected,
        &finding.shrunk_got,
    ) {
        let title = [
            format!("{} stress case {} (shrunk)", problem.id(), finding.case + 1),
            format!("expected: {}", one_line(&finding.shrunk_expected)),
            format!("got:      {}", one_line(&finding.shrunk_got)),
        ];
        write_file(&dir.join("shrunk.svg"), drawing.svg(&title).as_bytes())?;
    }
    let entry = format!(
        "\n[[valid]]\nname = \"stress-case-{}\"\nwhy = \"found by judge stress ({}); say which rule it pins\"\ninput = '''\n{}'''\nanswer = '''\n{}'''\n",
        finding.case + 1,
        toml_text(&origin(finding)),
        finding.shrunk_input,
        finding.shrunk_expected
    );
    write_file(&dir.join("case.toml"), entry.as_bytes())
}

/// An answer on one line (`1 / 3 2`), cut to 120 characters, control characters shown.
fn one_line(text: &str) -> String {
    if text.trim().is_empty() {
        return "(nothing)".to_string();
    }
    let line = escape::terminal(&text.trim_end().replace('\n', " / "));
    if line.chars().count() > 120 {
        format!("{}…", line.chars().take(120).collect::<String>())
    } else {
        line
    }
}
