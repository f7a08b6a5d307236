//! Many submissions at once (`judge run --submissions`, and `judge merge` of its shards): the
//! summary table (submission × verdict counts, first failing test) for the terminal, and the
//! reports — `.csv` (the table), `.json` (everything: every submission's row per test),
//! `.xml` (JUnit: one test suite per submission) and `.html` (one page).

use std::fmt::Write;
use std::path::Path;

use serde::Serialize;

use judge_core::error::JudgeError;
use judge_core::many::Judged;
use judge_core::progress::{count, thousands};
use judge_core::verdict::Verdict;

use crate::ShownRow;
use crate::escape::{self, html as esc, xml};
use crate::html::{page, verdict_badge};
use crate::{Format, write_text};

/// Everything the table and the reports show.
pub struct ManyReport<'a> {
    pub problem: &'a str,
    pub tests_dir: &'a str,
    /// Tests per submission.
    pub tests: usize,
    pub time_limit_ms: u64,
    pub memory_limit_mb: u64,
    /// The sandbox's isolation on the machine(s) that judged.
    pub isolation: &'a [String],
    /// The submissions judged to the end, in name order.
    pub judged: &'a [Judged],
    /// The submissions of the folder not judged (an interrupted run).
    pub not_run: &'a [String],
}

impl ManyReport<'_> {
    /// Every test of every submission AC, none left out.
    pub fn passed(&self) -> bool {
        self.not_run.is_empty() && self.judged.iter().all(|j| j.passed(self.tests))
    }
}

/// The first failing test as the table shows it: `WA 004-edge`, `CE (build failed)`, `-`.
fn first_failing(judged: &Judged) -> String {
    if judged.compile_error.is_some() {
        return "CE (build failed)".to_string();
    }
    match judged.first_failing() {
        Some(row) => format!("{} {}", row.verdict, row.test),
        None => "-".to_string(),
    }
}

/// The summary table: one line per submission, its verdict counts and first failing test,
/// then a line of totals. The same submissions give the same bytes (no timings).
pub fn table(report: &ManyReport) -> String {
    let names = report
        .judged
        .iter()
        .map(|j| j.name.as_str())
        .chain(report.not_run.iter().map(String::as_str));
    let layout = Table::for_names(names);
    let mut out = layout.header();
    for judged in report.judged {
        out.push_str(&layout.row(judged));
    }
    out.push_str(&layout.end(report));
    out
}

/// The table's columns, fixed by the names of every submission before any is judged: its
/// lines can be printed one by one, each row as soon as its submission is judged, and read
/// the same as [`table`] printed at once.
pub struct Table {
    width: usize,
}

impl Table {
    /// The layout for these submissions (all of them, judged or not).
    pub fn for_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Table {
        let width = names
            .into_iter()
            // A name is one line, cut if long: a newline in it must not forge a row.
            .map(|n| escape::name(n).chars().count())
            .max()
            .unwrap_or(0)
            .max("submission".len());
        Table { width }
    }

    /// The line of column names.
    pub fn header(&self) -> String {
        let width = self.width;
        let mut out = format!("{:<width$}", "submission");
        for verdict in Verdict::ALL {
            let _ = write!(out, " {:>4}", verdict.to_string());
        }
        out.push_str("  first failing\n");
        out
    }

    /// A submission's line.
    pub fn row(&self, judged: &Judged) -> String {
        let width = self.width;
        let mut out = format!("{:<width$}", escape::name(&judged.name));
        for count in judged.counts() {
            let _ = write!(out, " {count:>4}");
        }
        let _ = writeln!(out, "  {}", escape::line(&first_failing(judged)));
        out
    }

    /// What follows the rows: the submissions not judged, and the totals.
    pub fn end(&self, report: &ManyReport) -> String {
        let width = self.width;
        let mut out = String::new();
        for name in report.not_run {
            let _ = writeln!(
                out,
                "{:<width$}  not judged (interrupted)",
                escape::name(name)
            );
        }
        let passed = report
            .judged
            .iter()
            .filter(|j| j.passed(report.tests))
            .count();
        let _ = writeln!(
            out,
            "{}: {} of {} judged on {}: {passed} all AC, {} failing",
            escape::line(report.problem),
            thousands(report.judged.len() as u64),
            count(report.judged.len() + report.not_run.len(), "submission"),
            count(report.tests, "test"),
            report.judged.len() - passed
        );
        out
    }
}

/// A row of the CSV report (and the counts of a submission in the JSON report), its texts
/// escaped by the format's rule.
#[derive(Serialize)]
struct Line {
    submission: String,
    tests: usize,
    #[serde(rename = "AC")]
    ac: usize,
    #[serde(rename = "WA")]
    wa: usize,
    #[serde(rename = "TLE")]
    tle: usize,
    #[serde(rename = "MLE")]
    mle: usize,
    #[serde(rename = "OLE")]
    ole: usize,
    #[serde(rename = "RE")]
    re: usize,
    #[serde(rename = "CE")]
    ce: usize,
    first_failing: String,
    first_failing_verdict: String,
}

impl Line {
    /// `judged`'s line, its texts shown by `shown` ([`escape::csv`] or [`escape::terminal`]).
    fn of(judged: &Judged, shown: fn(&str) -> String) -> Line {
        let c = judged.counts();
        let first = judged.first_failing();
        Line {
            submission: shown(&judged.name),
            tests: judged.rows.len(),
            ac: c[0],
            wa: c[1],
            tle: c[2],
            mle: c[3],
            ole: c[4],
            re: c[5],
            ce: c[6],
            first_failing: first.map(|r| shown(&r.test)).unwrap_or_default(),
            first_failing_verdict: first.map(|r| r.verdict.to_string()).unwrap_or_default(),
        }
    }
}

#[derive(Serialize)]
struct ShownSubmission<'a> {
    #[serde(flatten)]
    line: Line,
    compile_error: Option<String>,
    rows: Vec<ShownRow<'a>>,
}

#[derive(Serialize)]
struct Everything<'a> {
    problem: &'a str,
    tests_dir: &'a str,
    tests: usize,
    time_limit_ms: u64,
    memory_limit_mb: u64,
    sandbox: &'a [String],
    passed: bool,
    submissions: Vec<ShownSubmission<'a>>,
    not_judged: Vec<String>,
}

/// Writes the report `path`'s extension asks for.
pub fn write(path: &Path, report: &ManyReport) -> Result<(), JudgeError> {
    match Format::of(path) {
        Format::Csv => {
            let mut writer =
                csv::Writer::from_path(path).map_err(|e| JudgeError::report(path, e))?;
            if report.judged.is_empty() {
                writer
                    .write_record([
                        "submission",
                        "tests",
                        "AC",
                        "WA",
                        "TLE",
                        "MLE",
                        "OLE",
                        "RE",
                        "CE",
                        "first_failing",
                        "first_failing_verdict",
                    ])
                    .map_err(|e| JudgeError::report(path, e))?;
            }
            for judged in report.judged {
                writer
                    .serialize(Line::of(judged, escape::csv))
                    .map_err(|e| JudgeError::report(path, e))?;
            }
            writer.flush().map_err(|e| JudgeError::io(path, e))
        }
        Format::Json => {
            let everything = Everything {
                problem: report.problem,
                tests_dir: report.tests_dir,
                tests: report.tests,
                time_limit_ms: report.time_limit_ms,
                memory_limit_mb: report.memory_limit_mb,
                sandbox: report.isolation,
                passed: report.passed(),
                submissions: report
                    .judged
                    .iter()
                    .map(|j| ShownSubmission {
                        line: Line::of(j, escape::terminal),
                        compile_error: j.compile_error.as_deref().map(escape::terminal),
                        rows: j.rows.iter().map(ShownRow::of).collect(),
                    })
                    .collect(),
                not_judged: report.not_run.iter().map(|n| escape::terminal(n)).collect(),
            };
            let text = serde_json::to_string_pretty(&everything)
                .map_err(|e| JudgeError::report(path, e))?;
            write_text(path, &(text + "\n"))
        }
        Format::JUnit => write_text(path, &junit(report)),
        Format::Html => write_text(path, &html(report)),
    }
}

/// JUnit: one `<testsuite>` per submission, one `<testcase>` per test.
fn junit(report: &ManyReport) -> String {
    let failing = |j: &Judged| j.rows.iter().filter(|r| r.verdict != Verdict::AC).count();
    let total: usize = report.judged.iter().map(|j| j.rows.len()).sum();
    let failures: usize = report.judged.iter().map(failing).sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        r#"<testsuites name="judge run {} --submissions" tests="{total}" failures="{failures}" errors="0">"#,
        xml(report.problem)
    );
    for judged in report.judged {
        let _ = writeln!(
            out,
            r#"  <testsuite name="{}" tests="{}" failures="{}" errors="0" skipped="0">"#,
            xml(&judged.name),
            judged.rows.len(),
            failing(judged)
        );
        for row in &judged.rows {
            let _ = write!(
                out,
                r#"    <testcase name="{}" classname="{}" time="{}.{:03}""#,
                xml(&row.test),
                xml(&judged.name),
                row.cpu_ms / 1000,
                row.cpu_ms % 1000
            );
            if row.verdict == Verdict::AC {
                out.push_str("/>\n");
            } else {
                let _ = writeln!(
                    out,
                    r#"><failure type="{}" message="{}"/></testcase>"#,
                    row.verdict,
                    xml(&format!("{}: {}", row.verdict, row.message))
                );
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// One page: the counts, then the table with every submission's verdict per test as a strip.
fn html(report: &ManyReport) -> String {
    let passed = report
        .judged
        .iter()
        .filter(|j| j.passed(report.tests))
        .count();
    let mut body = String::new();
    let _ = writeln!(
        body,
        r#"<h1>{} — <span id="overall">{passed} of {} submissions all AC</span></h1>
<p class="meta">tests <code>{}</code> ({} tests) · limits: {} ms CPU, {} MiB memory per test</p>
<p class="meta">sandbox: {}</p>"#,
        esc(report.problem),
        report.judged.len() + report.not_run.len(),
        esc(report.tests_dir),
        report.tests,
        report.time_limit_ms,
        report.memory_limit_mb,
        esc(&report.isolation.join(" | "))
    );
    body.push_str(r#"<table id="submissions"><tr><th>submission</th>"#);
    for verdict in Verdict::ALL {
        let _ = write!(body, "<th>{verdict}</th>");
    }
    body.push_str("<th>first failing</th><th>tests</th></tr>\n");
    for judged in report.judged {
        let ok = judged.passed(report.tests);
        let _ = write!(
            body,
            r#"<tr class="{}"><td class="mono">{}</td>"#,
            if ok { "pass" } else { "fail" },
            esc(&judged.name)
        );
        for count in judged.counts() {
            let _ = write!(body, r#"<td class="num">{count}</td>"#);
        }
        let first = match judged.first_failing() {
            _ if judged.compile_error.is_some() => verdict_badge(Verdict::CE),
            Some(row) => format!(
                r#"{} <span class="mono">{}</span>"#,
                verdict_badge(row.verdict),
                esc(&row.test)
            ),
            None => verdict_badge(Verdict::AC),
        };
        let _ = write!(body, "<td>{first}</td><td>");
        for row in &judged.rows {
            let _ = write!(
                body,
                r#"<span class="cell {}" title="{}: {}{}"></span>"#,
                row.verdict,
                esc(&row.test),
                row.verdict,
                if row.message.is_empty() {
                    String::new()
                } else {
                    format!(" — {}", esc(&escape::terminal(&row.message)))
                }
            );
        }
        body.push_str("</td></tr>\n");
        if let Some(message) = &judged.compile_error {
            let _ = writeln!(
                body,
                r#"<tr class="fail"><td></td><td colspan="9"><pre>{}</pre></td></tr>"#,
                esc(&escape::head(message, 20, 4000))
            );
        }
    }
    for name in report.not_run {
        let _ = writeln!(
            body,
            r#"<tr><td class="mono">{}</td><td colspan="9">not judged (interrupted)</td></tr>"#,
            esc(name)
        );
    }
    body.push_str("</table>\n");
    body.push_str(
        "<style>.cell{display:inline-block;width:7px;height:14px;margin:0 1px 0 0;border-radius:1px;vertical-align:middle}\
.cell.AC{background:var(--ac)}.cell.WA{background:var(--wa)}.cell.TLE{background:var(--tle)}\
.cell.MLE{background:var(--mle)}.cell.OLE{background:var(--ole)}.cell.RE{background:var(--re)}.cell.CE{background:#5f6368}</style>\n",
    );
    page(&format!("{} — submissions", report.problem), &body)
}
