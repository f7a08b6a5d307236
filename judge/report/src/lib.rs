//! Reports of `judge run` and `judge strength`, in the format the file name asks for: `.csv`,
//! `.json`, `.xml` (JUnit, what CI systems read) or `.html` (one self-contained page: inline
//! CSS and SVG, no script, no network).

// Only the sandbox crate and the solvers' SIMD kernels may use `unsafe`.
#![forbid(unsafe_code)]

/// The escaping rules live in the core (its own messages quote names too); re-exported here,
/// where every writer takes them from.
pub use judge_core::escape;
pub mod finding;
pub mod html;
pub mod junit;
pub mod many;
pub mod merged;
pub mod picture;

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use judge_core::error::JudgeError;
use judge_core::registry::ProblemEntry;
use judge_core::runner::Loaded;
use judge_core::runner::report::Row;
use judge_core::runner::submission::CompileError;
use judge_core::strength::{Expect, Standing};
use judge_core::verdict::Verdict;

/// A report format, chosen by the file name's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Csv,
    Json,
    JUnit,
    Html,
}

impl Format {
    /// The format of `path` by its extension (`.csv`, `.json`, `.xml`, `.html`/`.htm`); the
    /// command line refuses any other before it runs anything (`judge/paths.rs`), so the CSV
    /// fallback here only serves callers of the library.
    pub fn of(path: &Path) -> Format {
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match extension.as_deref() {
            Some("json") => Format::Json,
            Some("xml") => Format::JUnit,
            Some("html" | "htm") => Format::Html,
            _ => Format::Csv,
        }
    }
}

/// A failing test in detail, for the HTML and JUnit reports.
#[derive(Clone, Debug, Default)]
pub struct Failure {
    /// Index into the rows.
    pub row: usize,
    /// The board drawn with expected vs got (SVG), when the input reads.
    pub picture: Option<String>,
    /// The same as text (the terminal picture, uncoloured).
    pub picture_text: Option<String>,
    pub expected: String,
    /// The first lines of what the submission printed.
    pub got: String,
    /// The first lines of its standard error.
    pub stderr: String,
}

/// How many failing tests the HTML and JUnit reports draw (the rest are rows of the table).
pub const MAX_DRAWN: usize = 50;

/// The failing tests in detail for the HTML and JUnit reports: the board with expected vs
/// got, the first lines of what the submission wrote. At most [`MAX_DRAWN`] are drawn.
pub fn failures(problem: &dyn ProblemEntry, tests: &[Loaded], rows: &[Row]) -> Vec<Failure> {
    let by_name: BTreeMap<&str, &Loaded> =
        tests.iter().map(|t| (t.test.name.as_str(), t)).collect();
    rows.iter()
        .enumerate()
        .filter(|(_, row)| row.verdict != Verdict::AC)
        .take(MAX_DRAWN)
        .map(|(i, row)| {
            let test = by_name.get(row.test.as_str());
            let input = test.map_or_else(String::new, |t| {
                String::from_utf8_lossy(&t.input).into_owned()
            });
            let expected = test.map_or_else(String::new, |t| t.answer.clone());
            let drawing = picture::Drawing::of(problem, &input, &expected, &row.stdout);
            let title = [format!("{}: {}", row.test, row.verdict)];
            Failure {
                row: i,
                picture: drawing.as_ref().map(|d| d.svg(&title)),
                picture_text: drawing.as_ref().map(|d| d.terminal(false)),
                expected: escape::head(&expected, 40, 4000),
                got: escape::head(&row.stdout, 40, 4000),
                stderr: escape::head(&row.stderr, 20, 4000),
            }
        })
        .collect()
}

/// Everything a `judge run` report shows.
pub struct RunReport<'a> {
    pub problem: &'a str,
    /// The submission as typed.
    pub command: String,
    pub tests_dir: String,
    /// Tests in the set (more than rows when the run was interrupted).
    pub total: usize,
    pub time_limit_ms: u64,
    pub memory_limit_kb: u64,
    pub isolation: String,
    pub rows: &'a [Row],
    /// Tests of the set that did not run (an interrupted run).
    pub not_run: Vec<String>,
    pub failures: Vec<Failure>,
}

impl RunReport<'_> {
    pub fn counts(&self) -> Vec<(Verdict, usize)> {
        let mut counts = std::collections::BTreeMap::new();
        for row in self.rows {
            *counts.entry(row.verdict).or_insert(0) += 1;
        }
        counts.into_iter().collect()
    }

    pub fn passed(&self) -> bool {
        self.rows.len() == self.total && self.rows.iter().all(|r| r.verdict == Verdict::AC)
    }
}

fn failed(path: &Path, e: impl std::error::Error + Send + Sync + 'static) -> JudgeError {
    JudgeError::report(path, e)
}

/// Writes `text` to `path`.
pub fn write_text(path: &Path, text: &str) -> Result<(), JudgeError> {
    std::fs::write(path, text).map_err(|e| JudgeError::io(path, e))
}

/// A row as the CSV and JSON reports show it: the message may quote what the submission
/// wrote, so it is escaped by the format's rule ([`escape::terminal`] for JSON, [`escape::csv`]
/// for CSV: a report is often read with `cat`).
#[derive(Serialize)]
pub(crate) struct ShownRow<'a> {
    test: String,
    verdict: Verdict,
    cpu_ms: u64,
    wall_ms: u64,
    peak_kb: u64,
    exit: &'a str,
    message: String,
}

impl<'a> ShownRow<'a> {
    /// The row for the JSON report.
    pub(crate) fn of(row: &'a Row) -> ShownRow<'a> {
        ShownRow::shown(row, escape::terminal)
    }

    fn shown(row: &'a Row, shown: fn(&str) -> String) -> ShownRow<'a> {
        ShownRow {
            test: shown(&row.test),
            verdict: row.verdict,
            cpu_ms: row.cpu_ms,
            wall_ms: row.wall_ms,
            peak_kb: row.peak_kb,
            exit: &row.exit,
            message: shown(&row.message),
        }
    }
}

/// Writes a `judge run` report to `path` in its format.
pub fn write_run(path: &Path, report: &RunReport) -> Result<(), JudgeError> {
    match Format::of(path) {
        Format::Json => {
            let shown: Vec<ShownRow> = report.rows.iter().map(ShownRow::of).collect();
            let text = serde_json::to_string_pretty(&shown).map_err(|e| failed(path, e))?;
            write_text(path, &(text + "\n"))
        }
        Format::Csv => write_csv(
            path,
            &[
                "test", "verdict", "cpu_ms", "wall_ms", "peak_kb", "exit", "message",
            ],
            &report
                .rows
                .iter()
                .map(|row| ShownRow::shown(row, escape::csv))
                .collect::<Vec<_>>(),
        ),
        Format::JUnit => write_text(path, &junit::run(report)),
        Format::Html => write_text(path, &html::run(report)),
    }
}

/// A CSV file: the header (written even with no rows: an interrupted run may have none yet),
/// then one serialised row per item.
fn write_csv<T: Serialize>(path: &Path, header: &[&str], rows: &[T]) -> Result<(), JudgeError> {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_path(path)
        .map_err(|e| failed(path, e))?;
    writer.write_record(header).map_err(|e| failed(path, e))?;
    for row in rows {
        writer.serialize(row).map_err(|e| failed(path, e))?;
    }
    writer.flush().map_err(|e| JudgeError::io(path, e))
}

/// What one submission did in `judge strength`.
#[derive(Clone, Debug, Serialize)]
pub struct Submission {
    pub name: String,
    /// `correct` or `wrong`.
    pub kind: &'static str,
    /// The verdict on every test, in test order.
    pub verdicts: Vec<Verdict>,
    /// For a surviving wrong submission: (family, cases failed, cases tried) per family.
    pub families: Vec<FamilyHint>,
    /// `--sanitize`: the tests on which a sanitizer reported it (reads outside its arrays).
    pub sanitizer_tests: Vec<usize>,
    /// `--sanitize`: how often and what the sanitizer reported first, as written (escaped by
    /// every writer); `None` when it said nothing.
    pub sanitizer: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct FamilyHint {
    pub family: String,
    pub failed: usize,
    pub tried: usize,
}

impl Submission {
    /// Where it stands: the classification `judge strength` prints, the same for every
    /// report.
    pub fn standing(&self) -> Standing {
        let expect = if self.kind == Expect::Correct.label() {
            Expect::Correct
        } else {
            Expect::Wrong
        };
        Standing::of(expect, &self.verdicts)
    }

    /// The tests that reject it.
    pub fn rejected_by(&self) -> Vec<usize> {
        self.standing().rejected_by().to_vec()
    }
}

/// Everything a `judge strength` report shows.
#[derive(Clone, Debug, Serialize)]
pub struct StrengthReport {
    pub problem: String,
    pub tests_dir: String,
    pub tests: Vec<String>,
    /// Correct submissions first, then wrong ones.
    pub submissions: Vec<Submission>,
    /// The greedy set cover: indices into `tests`.
    pub cover: Vec<usize>,
    /// Submissions an interruption (Ctrl-C, SIGTERM) left unjudged: the report holds what was
    /// judged before it.
    pub not_judged: Vec<String>,
}

impl StrengthReport {
    pub fn wrong(&self) -> impl Iterator<Item = &Submission> {
        self.submissions.iter().filter(|s| s.kind == "wrong")
    }

    pub fn correct(&self) -> impl Iterator<Item = &Submission> {
        self.submissions.iter().filter(|s| s.kind == "correct")
    }

    /// Is the test set strong: every wrong submission rejected, every correct one accepted
    /// (and every submission built)?
    pub fn passed(&self) -> bool {
        self.submissions.iter().all(|s| !s.standing().is_finding())
    }
}

/// Writes a `judge strength` report to `path` in its format.
pub fn write_strength(path: &Path, report: &StrengthReport) -> Result<(), JudgeError> {
    match Format::of(path) {
        Format::Json => {
            // Names and the sanitizer's words as JSON shows them (escape::terminal).
            let mut shown = report.clone();
            shown.tests_dir = escape::terminal(&shown.tests_dir);
            for name in shown.tests.iter_mut().chain(&mut shown.not_judged) {
                *name = escape::terminal(name);
            }
            for s in &mut shown.submissions {
                s.name = escape::terminal(&s.name);
                s.sanitizer = s.sanitizer.as_deref().map(escape::terminal);
            }
            let text = serde_json::to_string_pretty(&shown).map_err(|e| failed(path, e))?;
            write_text(path, &(text + "\n"))
        }
        Format::Csv => {
            // The tests x submissions verdict matrix, one row per test.
            let header: Vec<String> = std::iter::once("test".to_string())
                .chain(
                    report
                        .submissions
                        .iter()
                        .map(|s| escape::csv(&format!("{}:{}", s.kind, s.name))),
                )
                .collect();
            let rows: Vec<Vec<String>> = report
                .tests
                .iter()
                .enumerate()
                .map(|(t, name)| {
                    std::iter::once(escape::csv(name))
                        .chain(report.submissions.iter().map(|s| {
                            if s.sanitizer_tests.contains(&t) {
                                format!("{} (sanitizer)", s.verdicts[t])
                            } else {
                                s.verdicts[t].to_string()
                            }
                        }))
                        .collect()
                })
                .collect();
            let header: Vec<&str> = header.iter().map(String::as_str).collect();
            write_csv(path, &header, &rows)
        }
        Format::JUnit => write_text(path, &junit::strength(report)),
        Format::Html => write_text(path, &html::strength(report)),
    }
}

/// A submission that did not build, as `judge run` and `judge stress` print it (`CE   FILE:
/// the build failed (COMMAND):` then what its rows carry, [`CompileError::output`], escaped).
pub fn compile_error(failed: &CompileError) -> String {
    format!(
        "CE   {}: the build failed ({}):\n{}",
        escape::path(&failed.source_file),
        escape::line(&failed.command),
        escape::terminal(&failed.output())
    )
}
