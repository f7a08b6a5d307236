//! Showing and saving a stress finding.

use std::io::IsTerminal;
use std::path::Path;

use problems::Problem;

use super::Finding;
use crate::error::JudgeError;
use crate::picture::{Difference, svg, terminal};
use crate::testgen::{create_dir, write_file};

fn difference<P: Problem>(
    input: &str,
    expected: &str,
    got: &str,
) -> Option<(problems::picture::Picture, Difference)> {
    let input = P::parse(input.as_bytes()).ok()?;
    let expected = P::read_answer(expected).ok()?;
    let marks_got = P::read_answer(got)
        .map(|a| P::marks(&a))
        .unwrap_or_default();
    Some((
        P::picture(&input),
        Difference::between(&P::marks(&expected), &marks_got),
    ))
}

/// The finding as text for the terminal (coloured if stdout is one).
pub fn render<P: Problem>(finding: &Finding, replay: &str) -> String {
    let colour = std::io::stdout().is_terminal();
    let mut out = format!(
        "DISAGREEMENT at case {} (family {}, {})\n\noriginal input:\n{}expected:\n{}got:\n{}\n",
        finding.case,
        finding.family,
        finding.params,
        finding.input,
        finding.expected,
        show(&finding.got)
    );
    out.push_str(&format!(
        "shrunk in {} steps{} to:\n{}\nexpected:\n{}got:\n{}\n",
        finding.shrink_steps,
        if finding.shrink_complete {
            " (1-minimal: no single step keeps the disagreement)"
        } else {
            " (stopped by the 30 s shrink budget)"
        },
        finding.shrunk_input,
        finding.shrunk_expected,
        show(&finding.shrunk_got)
    ));
    if let Some((picture, diff)) = difference::<P>(
        &finding.shrunk_input,
        &finding.shrunk_expected,
        &finding.shrunk_got,
    ) {
        out.push_str("the shrunk board (X black, O white, * the point):\n");
        out.push_str(&terminal(&picture, &diff, colour));
        out.push('\n');
    }
    out.push_str(&format!("replay: {replay}\n"));
    out
}

fn show(text: &str) -> String {
    if text.is_empty() {
        "(nothing)\n".to_string()
    } else {
        text.to_string()
    }
}

/// Writes the shrunk case (`shrunk.in`, `shrunk.ans`, `shrunk.svg`), the original
/// (`original.in`, `original.ans`), what the candidate printed (`*.got`), and `case.toml`: a
/// corpus entry to append to `problems/src/PROBLEM/corpus.toml` as a regression test.
pub fn save<P: Problem>(finding: &Finding, dir: &Path) -> Result<(), JudgeError> {
    create_dir(dir)?;
    write_file(&dir.join("original.in"), finding.input.as_bytes())?;
    write_file(&dir.join("original.ans"), finding.expected.as_bytes())?;
    write_file(&dir.join("original.got"), finding.got.as_bytes())?;
    write_file(&dir.join("shrunk.in"), finding.shrunk_input.as_bytes())?;
    write_file(&dir.join("shrunk.ans"), finding.shrunk_expected.as_bytes())?;
    write_file(&dir.join("shrunk.got"), finding.shrunk_got.as_bytes())?;
    if let Some((picture, diff)) = difference::<P>(
        &finding.shrunk_input,
        &finding.shrunk_expected,
        &finding.shrunk_got,
    ) {
        let title = format!(
            "{} case {}: expected {} got {}",
            P::ID,
            finding.case,
            one_line(&finding.shrunk_expected),
            one_line(&finding.shrunk_got)
        );
        write_file(
            &dir.join("shrunk.svg"),
            svg(&picture, &diff, &title).as_bytes(),
        )?;
    }
    let entry = format!(
        "\n[[valid]]\nname = \"stress-case-{}\"\nwhy = \"found by judge stress (family {}); say which rule it pins\"\ninput = '''\n{}'''\nanswer = '''\n{}'''\n",
        finding.case, finding.family, finding.shrunk_input, finding.shrunk_expected
    );
    write_file(&dir.join("case.toml"), entry.as_bytes())
}

fn one_line(text: &str) -> String {
    let line = text.trim_end().replace('\n', " / ");
    if line.chars().count() > 40 {
        format!("{}…", line.chars().take(40).collect::<String>())
    } else {
        line
    }
}
