//! The HTML reports: one self-contained page each (inline CSS and SVG; no script, no network
//! — a Content-Security-Policy forbids both, as a second line behind the escaping). Every text
//! a submission wrote goes through [`escape::html`].

use std::fmt::Write;

use super::{RunReport, StrengthReport, Submission};
use crate::escape::{self, html as esc};
use judge_core::strength::{Standing, rejects};
use judge_core::verdict::Verdict;

const STYLE: &str = r#"
:root { --ac:#1e8e3e; --wa:#d93025; --tle:#e37400; --mle:#9334e6; --ole:#b06000; --re:#c5221f;
  --ink:#1f2328; --muted:#59636e; --line:#d1d9e0; --soft:#f6f8fa; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
  color: var(--ink); margin: 0; background: #fff; }
main { max-width: 1180px; margin: 0 auto; padding: 20px 28px 48px; }
main.before-wide { padding-bottom: 0; }
section.wide { padding: 0 28px 48px; }
section.wide > h2, section.wide > p { max-width: 1124px; margin-left: auto; margin-right: auto; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 0 0 8px; }
code, pre, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px;
  margin: 4px 0 10px; white-space: pre-wrap; word-break: break-all; max-height: 22em; overflow: auto; }
.meta { color: var(--muted); margin: 2px 0; }
.meta code { color: var(--ink); background: var(--soft); padding: 1px 4px; border-radius: 4px; }
.badges { display: flex; flex-wrap: wrap; gap: 8px; margin: 14px 0 4px; }
.badge { border-radius: 8px; padding: 8px 14px; color: #fff; font-weight: 600; min-width: 84px; }
.badge b { display: block; font-size: 22px; line-height: 1.1; }
.badge.plain { background: var(--soft); color: var(--ink); border: 1px solid var(--line); }
.v { display: inline-block; min-width: 3.2em; text-align: center; border-radius: 4px;
  padding: 0 6px; color: #fff; font-weight: 700; font-size: 12px; }
.AC { background: var(--ac); } .WA { background: var(--wa); } .TLE { background: var(--tle); }
.MLE { background: var(--mle); } .OLE { background: var(--ole); } .RE { background: var(--re); }
.CE { background: #5f6368; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; position: sticky; top: 0; }
td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
tr.fail td { background: #fff5f5; }
.bar { display: inline-block; height: 8px; border-radius: 4px; background: #8fb8ff; vertical-align: middle;
  margin-left: 6px; }
.bar.hot { background: #f29900; }
.msg { max-width: 520px; word-break: break-word; }
article.failure { border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; margin: 14px 0; }
.cols { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
.cols > div { min-width: 260px; flex: 1; }
.cols > div.picture { flex: 0 0 auto; }
.label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.chart { margin: 4px 0 8px; }
.matrix { width: auto; margin: 0 auto; }
.matrix td, .matrix th { text-align: center; padding: 2px 6px; border: 1px solid #fff; min-width: 30px; }
.matrix th.testhead { text-align: left; vertical-align: bottom; }
.matrix th.sub { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap;
  font-weight: 500; font-size: 12px; padding: 6px 2px; max-height: 260px; }
.matrix td.test { text-align: left; white-space: nowrap; }
.matrix td.k { background: #f28b82; color: #5c0b07; font-size: 11px; font-weight: 700; }
.matrix td.p { background: #eef1f4; color: #9aa4ae; }
.matrix td.ok { background: #a8dab5; color: #0d5223; }
.matrix td.bad { background: #c5221f; color: #fff; font-weight: 700; }
.matrix tr.cover td.test { font-weight: 700; }
.matrix th.correct { color: var(--ac); } .matrix th.survivor { color: var(--wa); font-weight: 700; }
ul.plain { padding-left: 18px; }
.fine { color: var(--muted); font-size: 12px; }
"#;

pub(crate) fn page(title: &str, body: &str) -> String {
    page_with_wide(title, body, "")
}

/// A page whose last part, `wide`, spans the window's whole width rather than the text
/// column's 1180 pixels: a table with a column per submission (the kill matrix) is wider than
/// the text, and was cut off at the column's edge with the window half empty beside it. Its
/// headings and paragraphs stay in the column; the table is centred, and scrolls sideways only
/// when the window is too narrow for it.
pub(crate) fn page_with_wide(title: &str, body: &str, wide: &str) -> String {
    let (main, after) = if wide.is_empty() {
        ("<main>", String::new())
    } else {
        (
            "<main class=\"before-wide\">",
            format!("<section class=\"wide\">\n{wide}</section>\n"),
        )
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{main}\n{body}</main>\n{after}</body>\n</html>\n",
        esc(title)
    )
}

pub(crate) fn verdict_badge(verdict: Verdict) -> String {
    format!(r#"<span class="v {verdict}">{verdict}</span>"#)
}

fn verdict_colour(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::AC => "#1e8e3e",
        Verdict::WA => "#d93025",
        Verdict::TLE => "#e37400",
        Verdict::MLE => "#9334e6",
        Verdict::OLE => "#b06000",
        Verdict::RE => "#c5221f",
        Verdict::CE => "#5f6368",
    }
}

/// A bar chart of one value per test against its limit (SVG), bars coloured by verdict.
fn chart(
    report: &RunReport,
    title: &str,
    unit: &str,
    value: impl Fn(usize) -> u64,
    limit: u64,
) -> String {
    let n = report.rows.len().max(1);
    let (width, height, left, top) = (1100usize, 80usize, 56usize, 18usize);
    let plot_w = width - left - 10;
    let bar_w = (plot_w as f64 / n as f64).clamp(1.0, 16.0);
    let max = (0..report.rows.len()).map(&value).max().unwrap_or(0);
    let scale = nice_ceiling(max.max(1));
    let mut out = format!(
        r#"<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0 0 {width} {}" role="img" aria-label="{}">"#,
        height + top + 16,
        esc(title)
    );
    let _ = write!(
        out,
        r##"<text x="0" y="12" font-size="12" fill="#59636e">{} (max {} {unit}; limit {} {unit})</text>"##,
        esc(title),
        max,
        limit
    );
    let _ = write!(
        out,
        r##"<line x1="{left}" y1="{}" x2="{}" y2="{}" stroke="#d1d9e0"/>"##,
        top + height,
        width - 10,
        top + height
    );
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" font-size="11" text-anchor="end" fill="#59636e">{scale}</text><text x="{}" y="{}" font-size="11" text-anchor="end" fill="#59636e">0</text>"##,
        left - 6,
        top + 8,
        left - 6,
        top + height
    );
    for (i, row) in report.rows.iter().enumerate() {
        let v = value(i);
        let h = ((v as f64 / scale as f64) * height as f64).round().max(1.0) as usize;
        let h = h.min(height);
        let _ = write!(
            out,
            r#"<rect x="{:.1}" y="{}" width="{:.1}" height="{h}" fill="{}"><title>{}: {v} {unit}</title></rect>"#,
            left as f64 + i as f64 * bar_w,
            top + height - h,
            (bar_w - 1.0).max(0.6),
            verdict_colour(row.verdict),
            esc(&row.test)
        );
    }
    if limit <= scale {
        // The limit line, when the values come near it (else it would flatten every bar).
        let y = top + height - ((limit as f64 / scale as f64) * height as f64) as usize;
        let _ = write!(
            out,
            r##"<line x1="{left}" y1="{y}" x2="{}" y2="{y}" stroke="#c5221f" stroke-dasharray="4 3"/><text x="{}" y="{}" font-size="11" text-anchor="end" fill="#c5221f">limit</text>"##,
            width - 10,
            width - 12,
            y - 3
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The smallest of 1, 2, 5 × 10^k at least `n`: a round top for a chart's scale.
fn nice_ceiling(n: u64) -> u64 {
    let mut step = 1u64;
    loop {
        for m in [1, 2, 5] {
            if step.saturating_mul(m) >= n {
                return step.saturating_mul(m);
            }
        }
        step = step.saturating_mul(10);
    }
}

fn bar(value: u64, limit: u64) -> String {
    let fraction = if limit == 0 {
        0.0
    } else {
        (value as f64 / limit as f64).min(1.0)
    };
    format!(
        r#"<span class="bar{}" style="width:{}px"></span>"#,
        if fraction >= 0.5 { " hot" } else { "" },
        (fraction * 80.0).round() as u32 + 1
    )
}

/// The anchor of a failing test's details.
fn anchor(i: usize) -> String {
    format!("fail-{}", i + 1)
}

/// The `judge run` report as one HTML page.
pub fn run(report: &RunReport) -> String {
    let counts = report.counts();
    let failing: Vec<usize> = (0..report.rows.len())
        .filter(|&i| report.rows[i].verdict != Verdict::AC)
        .collect();
    let passed = report
        .rows
        .iter()
        .filter(|r| r.verdict == Verdict::AC)
        .count();
    let overall = failing
        .first()
        .map_or(Verdict::AC, |&i| report.rows[i].verdict);
    let mut body = String::new();
    let _ = writeln!(
        body,
        r#"<h1>{} — {} <span id="overall">{passed} of {} tests passed</span></h1>"#,
        esc(report.problem),
        if report.passed() {
            verdict_badge(Verdict::AC)
        } else {
            verdict_badge(overall)
        },
        report.total
    );
    let _ = writeln!(
        body,
        r#"<p class="meta">submission <code>{}</code> · tests <code>{}</code></p>
<p class="meta">limits: {} ms CPU, {} MiB memory per test · sandbox: {}</p>"#,
        esc(&report.command),
        esc(&report.tests_dir),
        report.time_limit_ms,
        report.memory_limit_kb / 1024,
        esc(&report.isolation)
    );
    body.push_str(r#"<div class="badges" id="summary">"#);
    for (verdict, n) in &counts {
        let _ = write!(
            body,
            r#"<div class="badge {verdict}" data-verdict="{verdict}"><b>{n}</b>{verdict}</div>"#
        );
    }
    let not_run = report.total - report.rows.len();
    if not_run > 0 {
        let _ = write!(
            body,
            r#"<div class="badge plain"><b>{not_run}</b>not run (interrupted, or after the first failure)</div>"#
        );
    }
    let max_cpu = report.rows.iter().map(|r| r.cpu_ms).max().unwrap_or(0);
    let max_mem = report.rows.iter().map(|r| r.peak_kb).max().unwrap_or(0);
    let _ = writeln!(
        body,
        r#"<div class="badge plain"><b>{max_cpu} ms</b>max CPU</div><div class="badge plain"><b>{:.1} MiB</b>max memory</div></div>"#,
        max_mem as f64 / 1024.0
    );

    let _ = writeln!(
        body,
        r##"<p class="meta">{}<a href="#charts">CPU time and memory</a> · <a href="#verdicts">all {} verdicts</a></p>"##,
        if failing.is_empty() {
            String::new()
        } else {
            format!(
                r##"<a href="#failing">failing tests ({})</a> · "##,
                failing.len()
            )
        },
        report.rows.len()
    );
    if !failing.is_empty() {
        let _ = writeln!(
            body,
            "<h2 id=\"failing\">Failing tests ({})</h2>",
            failing.len()
        );
        for detail in &report.failures {
            let row = &report.rows[detail.row];
            let _ = writeln!(
                body,
                r#"<article class="failure" id="{}"><h3><span class="mono">{}</span> {} <span class="fine">{} ms CPU · {} KiB · {}</span></h3>"#,
                anchor(detail.row),
                esc(&row.test),
                verdict_badge(row.verdict),
                row.cpu_ms,
                row.peak_kb,
                esc(&row.exit)
            );
            if !row.message.is_empty() {
                let _ = writeln!(body, "<p class=\"msg\">{}</p>", esc(&row.message));
            }
            body.push_str("<div class=\"cols\">");
            if let Some(svg) = &detail.picture {
                // Our own SVG: every text in it is already escaped.
                let _ = write!(body, "<div class=\"picture\">{svg}</div>");
            }
            let _ = write!(
                body,
                "<div><div class=\"label\">expected</div><pre class=\"expected\">{}</pre><div class=\"label\">got</div><pre class=\"got\">{}</pre>",
                esc(&detail.expected),
                if detail.got.is_empty() {
                    "(nothing)".to_string()
                } else {
                    esc(&detail.got)
                }
            );
            if !detail.stderr.is_empty() {
                let _ = write!(
                    body,
                    "<div class=\"label\">standard error (first lines)</div><pre class=\"stderr\">{}</pre>",
                    esc(&detail.stderr)
                );
            }
            body.push_str("</div></div></article>\n");
        }
        let shown = report.failures.len();
        if failing.len() > shown {
            let _ = writeln!(
                body,
                "<p class=\"fine\">… and {} more failing tests, drawn in the table above only.</p>",
                failing.len() - shown
            );
        }
    }
    body.push_str("<h2 id=\"charts\">CPU time and memory per test</h2>\n");
    body.push_str(&chart(
        report,
        "CPU time per test",
        "ms",
        |i| report.rows[i].cpu_ms,
        report.time_limit_ms,
    ));
    body.push_str(&chart(
        report,
        "peak memory per test",
        "KiB",
        |i| report.rows[i].peak_kb,
        report.memory_limit_kb,
    ));

    body.push_str(
        "<h2>All verdicts</h2>\n<table id=\"verdicts\">\n<thead><tr><th>#</th><th>test</th><th>verdict</th><th>CPU</th><th>wall</th><th>memory</th><th>exit</th><th>message</th></tr></thead>\n<tbody>\n",
    );
    for (i, row) in report.rows.iter().enumerate() {
        let name = if row.verdict == Verdict::AC {
            esc(&row.test)
        } else {
            format!(r##"<a href="#{}">{}</a>"##, anchor(i), esc(&row.test))
        };
        let _ = writeln!(
            body,
            r#"<tr class="{}" data-test="{}" data-verdict="{}"><td class="num">{}</td><td class="mono">{name}</td><td>{}</td><td class="num">{} ms{}</td><td class="num">{} ms</td><td class="num">{} KiB{}</td><td class="mono">{}</td><td class="msg">{}</td></tr>"#,
            if row.verdict == Verdict::AC {
                "pass"
            } else {
                "fail"
            },
            esc(&row.test),
            row.verdict,
            i + 1,
            verdict_badge(row.verdict),
            row.cpu_ms,
            bar(row.cpu_ms, report.time_limit_ms),
            row.wall_ms,
            row.peak_kb,
            bar(row.peak_kb, report.memory_limit_kb),
            esc(&row.exit),
            esc(&row.message)
        );
    }
    body.push_str("</tbody>\n</table>\n");
    let title = format!(
        "judge run {}: {passed}/{} passed",
        report.problem, report.total
    );
    page(&title, &body)
}

/// The `judge strength` report as one HTML page.
pub fn strength(report: &StrengthReport) -> String {
    let wrong: Vec<_> = report.wrong().collect();
    let standing = |s: &&&Submission| s.standing();
    let survivors: Vec<_> = wrong
        .iter()
        .filter(|s| standing(s) == Standing::Survives)
        .collect();
    let fragile: Vec<_> = wrong
        .iter()
        .filter(|s| matches!(standing(s), Standing::Fragile(_)))
        .collect();
    let rejected_wrong = wrong
        .iter()
        .filter(|s| matches!(standing(s), Standing::Fragile(_) | Standing::Rejected(_)))
        .count();
    let rejected_correct: Vec<_> = report
        .correct()
        .filter(|s| matches!(s.standing(), Standing::CorrectRejected(_)))
        .collect();
    let mut body = String::new();
    let _ = writeln!(
        body,
        r#"<h1>{} — test-set strength {}</h1>
<p class="meta">tests <code>{}</code> · {} tests · {} wrong and {} correct submissions</p>"#,
        esc(&report.problem),
        if report.passed() {
            r#"<span class="v AC">STRONG</span>"#
        } else {
            r#"<span class="v WA">WEAK</span>"#
        },
        esc(&report.tests_dir),
        report.tests.len(),
        wrong.len(),
        report.correct().count()
    );
    if !report.not_judged.is_empty() {
        let _ = writeln!(
            body,
            r#"<p class="meta" id="interrupted">interrupted: {} submissions not judged ({}); this page shows those judged before</p>"#,
            report.not_judged.len(),
            esc(&report.not_judged.join(", "))
        );
    }
    let _ = writeln!(
        body,
        r#"<div class="badges" id="summary"><div class="badge AC"><b>{}</b>wrong rejected</div><div class="badge {}"><b>{}</b>survive</div><div class="badge {}"><b>{}</b>fragile (one test)</div><div class="badge {}"><b>{}</b>correct rejected</div><div class="badge plain"><b>{} of {}</b>tests in the cover</div></div>"#,
        rejected_wrong,
        if survivors.is_empty() { "plain" } else { "WA" },
        survivors.len(),
        if fragile.is_empty() { "plain" } else { "TLE" },
        fragile.len(),
        if rejected_correct.is_empty() {
            "plain"
        } else {
            "WA"
        },
        rejected_correct.len(),
        report.cover.len(),
        report.tests.len()
    );

    if !survivors.is_empty() {
        body.push_str("<h2>Survivors: no test rejects them</h2>\n<table id=\"survivors\"><thead><tr><th>submission</th><th>families that would catch it (failed / tried)</th></tr></thead><tbody>\n");
        for s in &survivors {
            let mut families: Vec<_> = s.families.iter().filter(|f| f.failed > 0).collect();
            families.sort_by(|a, b| (b.failed * a.tried).cmp(&(a.failed * b.tried)));
            let cell = if families.is_empty() {
                "none of the families caught it: add a corpus case or a family".to_string()
            } else {
                families
                    .iter()
                    .map(|f| {
                        format!(
                            r#"<code>{}</code> {}/{}{}"#,
                            esc(&f.family),
                            f.failed,
                            f.tried,
                            bar(f.failed as u64, f.tried as u64)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("<br>")
            };
            let _ = writeln!(
                body,
                r#"<tr data-survivor="{}"><td class="mono">{}</td><td>{cell}</td></tr>"#,
                esc(&s.name),
                esc(&s.name)
            );
        }
        let _ = writeln!(
            body,
            "</tbody></table>\n<p class=\"fine\">Add tests from these families: <code>judge gen {} --family NAME</code>.</p>",
            esc(&report.problem)
        );
    }
    if !rejected_correct.is_empty() {
        body.push_str("<h2>Correct submissions rejected — a test or its answer is wrong</h2>\n<ul class=\"plain\">\n");
        for s in &rejected_correct {
            let by: Vec<String> = s
                .rejected_by()
                .iter()
                .map(|&t| format!("{} ({})", esc(&report.tests[t]), s.verdicts[t]))
                .collect();
            let _ = writeln!(
                body,
                "<li><code>{}</code>: {}</li>",
                esc(&s.name),
                by.join(", ")
            );
        }
        body.push_str("</ul>\n");
    }

    let sanitized: Vec<&Submission> = report
        .submissions
        .iter()
        .filter(|s| s.sanitizer.is_some())
        .collect();
    if !sanitized.is_empty() {
        body.push_str(
            "<h2>Read outside their arrays (sanitizer)</h2>\n<ul class=\"plain\" id=\"sanitizer\">\n",
        );
        for s in &sanitized {
            let _ = writeln!(
                body,
                "<li data-sanitized=\"{}\"><code>{}</code> ({}): {}</li>",
                esc(&s.name),
                esc(&s.name),
                s.kind,
                esc(s.sanitizer.as_deref().unwrap_or(""))
            );
        }
        body.push_str("</ul>\n");
    }

    body.push_str("<h2>Smallest rejecting subset (greedy set cover)</h2>\n<ol id=\"cover\">\n");
    for &t in &report.cover {
        let killed: Vec<String> = wrong
            .iter()
            .filter(|s| rejects(s.verdicts[t]))
            .map(|s| esc(&s.name))
            .collect();
        let _ = writeln!(
            body,
            "<li><code>{}</code> <span class=\"fine\">rejects {}</span></li>",
            esc(&report.tests[t]),
            killed.join(", ")
        );
    }
    body.push_str("</ol>\n");

    if !fragile.is_empty() {
        body.push_str(
            "<h2>Fragile: only one test rejects them</h2>\n<ul class=\"plain\" id=\"fragile\">\n",
        );
        for s in &fragile {
            let _ = writeln!(
                body,
                "<li><code>{}</code>: only <code>{}</code></li>",
                esc(&s.name),
                esc(&report.tests[s.rejected_by()[0]])
            );
        }
        body.push_str("</ul>\n");
    }

    // The matrix spans the window (see `page_with_wide`).
    let mut wide = String::new();
    wide.push_str("<h2>Kill matrix</h2>\n<p class=\"fine\">One row per test, one column per submission. Wrong submissions: a red cell is a test that rejects it (its verdict), grey passes it. Correct submissions: green accepted, dark red rejected. Bold tests (★) form the cover.</p>\n<div style=\"overflow-x:auto\"><table class=\"matrix\" id=\"matrix\"><thead><tr><th class=\"testhead\">test</th>");
    for s in &report.submissions {
        let class = if s.kind == "correct" {
            "sub correct"
        } else if s.standing() == Standing::Survives {
            "sub survivor"
        } else {
            "sub"
        };
        let _ = write!(wide, r#"<th class="{class}">{}</th>"#, esc(&s.name));
    }
    wide.push_str("</tr></thead><tbody>\n");
    for (t, test) in report.tests.iter().enumerate() {
        let in_cover = report.cover.contains(&t);
        let _ = write!(
            wide,
            r#"<tr{}><td class="test mono">{}{}</td>"#,
            if in_cover { r#" class="cover""# } else { "" },
            if in_cover { "★ " } else { "" },
            esc(test)
        );
        for s in &report.submissions {
            let v = s.verdicts[t];
            let (class, text) = match (s.kind, v) {
                ("correct", Verdict::AC) => ("ok", "✓".to_string()),
                ("correct", v) => ("bad", v.to_string()),
                (_, Verdict::AC) => ("p", "·".to_string()),
                (_, v) => ("k", v.to_string()),
            };
            let _ = write!(wide, r#"<td class="{class}">{text}</td>"#);
        }
        wide.push_str("</tr>\n");
    }
    wide.push_str("</tbody></table></div>\n");
    let title = format!("judge strength {}", report.problem);
    page_with_wide(&title, &body, &wide)
}

/// A failing test's first lines, as the reports keep them.
pub fn head(text: &str) -> String {
    escape::head(text, 40, 4000)
}
