//! Showing and saving a stress finding (`judge stress`).

use std::io::IsTerminal;
use std::path::Path;

use judge_core::error::JudgeError;
use judge_core::registry::ProblemEntry;
use judge_core::stress::Finding;
use judge_core::testgen::{create_dir, write_file};

use crate::escape;
use crate::picture::Drawing;

/// Where a case came from, as the finding's first line says it: `family NAME: PARAMS`, or
/// the strongest cases' origin (`testset-cover`, `testset`, `boundary: OBLIGATION`).
fn origin(finding: &Finding) -> String {
    let named = if ["testset-cover", "testset", "boundary"].contains(&finding.family) {
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

/// The finding as text for the terminal (coloured if stdout is one): one line for the
/// original case, then the shrunk case drawn once — its board, expected vs got, a legend —
/// and the command that replays it. The input files themselves are written by `--save`.
/// Cases are numbered from 1, as `--cases` counts them: "case 2" is the last case of
/// `--cases 2`.
pub fn render(problem: &dyn ProblemEntry, finding: &Finding, replay: &str) -> String {
    let colour = std::io::stdout().is_terminal();
    let mut out = format!(
        "DISAGREEMENT at case {} ({})\n  original: expected {}, got {}\n",
        finding.case + 1,
        origin(finding),
        one_line(&finding.expected),
        one_line(&finding.got),
    );
    out.push_str(&format!(
        "shrunk in {} steps{}:\n  expected {}\n  got      {}\n\n",
        finding.shrink_steps,
        if finding.shrink_complete {
            " (1-minimal: no single step keeps the disagreement)"
        } else {
            " (stopped by the 30 s shrink budget)"
        },
        one_line(&finding.shrunk_expected),
        one_line(&finding.shrunk_got)
    ));
    match Drawing::of(
        problem,
        &finding.shrunk_input,
        &finding.shrunk_expected,
        &finding.shrunk_got,
    ) {
        Some(drawing) => out.push_str(&drawing.terminal(colour)),
        // Not drawable (cannot happen for a shrunk input, which is validated): show the text.
        None => out.push_str(&escape::terminal(&finding.shrunk_input)),
    }
    out.push_str(&format!("\nreplay: {replay}\n"));
    out
}

/// Writes the shrunk case (`shrunk.in`, `shrunk.ans`, `shrunk.svg`), the original
/// (`original.in`, `original.ans`), what the candidate printed (`*.got`), and `case.toml`: a
/// corpus entry to append to `solutions/src/PROBLEM/corpus.toml` as a regression test.
pub fn save(problem: &dyn ProblemEntry, finding: &Finding, dir: &Path) -> Result<(), JudgeError> {
    create_dir(dir)?;
    write_file(&dir.join("original.in"), finding.input.as_bytes())?;
    write_file(&dir.join("original.ans"), finding.expected.as_bytes())?;
    write_file(&dir.join("original.got"), finding.got.as_bytes())?;
    write_file(&dir.join("shrunk.in"), finding.shrunk_input.as_bytes())?;
    write_file(&dir.join("shrunk.ans"), finding.shrunk_expected.as_bytes())?;
    write_file(&dir.join("shrunk.got"), finding.shrunk_got.as_bytes())?;
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
        origin(finding),
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
