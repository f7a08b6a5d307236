//! The report of `judge merge` for a stress campaign: `.json` (the campaign, the merged result
//! and every shard), `.html` (one page: the finding drawn, the shards), `.csv` (one row per
//! shard).

use std::fmt::Write;
use std::path::Path;

use serde::Serialize;

use judge_core::error::JudgeError;
use judge_core::registry::ProblemEntry;
use judge_core::shards::Shard;
use judge_core::stress::Finding;
use judge_core::stress::record::{Campaign, Merged, Part, Seconds};

use crate::escape::{self, html as esc};
use crate::html::page;
use crate::picture::Drawing;
use crate::{Format, write_text};

#[derive(Serialize)]
struct Everything<'a> {
    campaign: &'a Campaign,
    shards: u64,
    cases: u64,
    /// 1 with a disagreement, 0 without: the single run's exit code.
    exit_code: i32,
    finding: Option<&'a Finding>,
    found_by: Option<Shard>,
    replay: Option<String>,
    seconds: Seconds,
    parts: &'a [Part],
    notes: &'a [String],
}

/// Writes the report `path`'s extension asks for (`.xml` is a usage error: JUnit has no
/// place for a campaign).
pub fn write_stress(
    path: &Path,
    problem: Option<&dyn ProblemEntry>,
    merged: &Merged,
) -> Result<(), JudgeError> {
    match Format::of(path) {
        Format::Json => {
            let everything = Everything {
                campaign: &merged.campaign,
                shards: merged.shards,
                cases: merged.cases,
                exit_code: i32::from(merged.finding.is_some()),
                finding: merged.finding.as_ref().map(|(f, _)| f),
                found_by: merged.finding.as_ref().map(|(_, s)| *s),
                replay: merged
                    .finding
                    .as_ref()
                    .map(|(f, _)| crate::finding::replay(&merged.campaign, Shard::WHOLE, f.case)),
                seconds: merged.seconds,
                parts: &merged.parts,
                notes: &merged.notes,
            };
            let text = serde_json::to_string_pretty(&everything)
                .map_err(|e| JudgeError::report(path, e))?;
            write_text(path, &(text + "\n"))
        }
        Format::Csv => {
            let mut writer =
                csv::Writer::from_path(path).map_err(|e| JudgeError::report(path, e))?;
            writer
                .write_record([
                    "shard",
                    "complete",
                    "cases_run",
                    "covered_below",
                    "finding_case",
                    "elapsed_s",
                ])
                .map_err(|e| JudgeError::report(path, e))?;
            for part in &merged.parts {
                writer
                    .write_record([
                        part.shard.to_string(),
                        part.complete.to_string(),
                        part.cases_run.to_string(),
                        part.covered_below.to_string(),
                        part.finding.map(|c| c.to_string()).unwrap_or_default(),
                        format!("{:.3}", part.seconds.elapsed),
                    ])
                    .map_err(|e| JudgeError::report(path, e))?;
            }
            writer.flush().map_err(|e| JudgeError::io(path, e))
        }
        Format::Html => write_text(path, &html(problem, merged)),
        Format::JUnit => Err(JudgeError::Usage(format!(
            "{}: a merged stress campaign has a .json, .html or .csv report",
            path.display()
        ))),
    }
}

fn html(problem: Option<&dyn ProblemEntry>, merged: &Merged) -> String {
    let c = &merged.campaign;
    let mut body = String::new();
    let verdict = if merged.finding.is_some() {
        "disagreement"
    } else {
        "no disagreement"
    };
    let _ = writeln!(
        body,
        r#"<h1>{} stress, seed {} — <span id="overall">{verdict}</span></h1>
<p class="meta">{} cases, merged from {} shards · against the {} · {}</p>"#,
        esc(&c.problem),
        c.seed,
        merged.cases,
        merged.shards,
        esc(&c.against),
        if c.submission.is_empty() {
            "the fast solver in process".to_string()
        } else {
            format!("submission <code>{}</code>", esc(&c.submission.join(" ")))
        }
    );
    if let Some((finding, shard)) = &merged.finding {
        let _ = writeln!(
            body,
            r#"<h2 id="finding">Case {} (family {}), found by shard {shard}</h2>
<p class="meta">replay: <code>{}</code></p>"#,
            finding.case,
            esc(&finding.family),
            esc(&crate::finding::replay(c, Shard::WHOLE, finding.case))
        );
        if let Some(drawing) = problem.and_then(|problem| {
            Drawing::of(
                problem,
                &finding.shrunk_input,
                &finding.shrunk_expected,
                &finding.shrunk_got,
            )
        }) {
            let title = [format!("{} case {} (shrunk)", c.problem, finding.case)];
            body.push_str(&drawing.svg(&title));
        }
        let _ = writeln!(
            body,
            r#"<div class="cols"><div><h3>shrunk input</h3><pre>{}</pre></div><div><h3>expected</h3><pre>{}</pre><h3>got</h3><pre>{}</pre></div></div>"#,
            esc(&finding.shrunk_input),
            esc(&finding.shrunk_expected),
            esc(&escape::head(&finding.shrunk_got, 40, 4000))
        );
    }
    body.push_str(
        "<h2 id=\"shards\">Shards</h2>\n<table><tr><th>shard</th><th>cases run</th><th>every case below</th><th>finding</th><th>seconds</th></tr>\n",
    );
    for part in &merged.parts {
        let _ = writeln!(
            body,
            r#"<tr><td>{}{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{:.2}</td></tr>"#,
            part.shard,
            if part.complete { "" } else { " (interrupted)" },
            part.cases_run,
            part.covered_below,
            part.finding.map(|c| c.to_string()).unwrap_or_default(),
            part.seconds.elapsed
        );
    }
    body.push_str("</table>\n");
    for note in &merged.notes {
        let _ = writeln!(body, r#"<p class="meta">{}</p>"#, esc(note));
    }
    page(&format!("{} stress campaign", c.problem), &body)
}
