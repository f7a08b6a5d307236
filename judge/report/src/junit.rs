//! JUnit XML, the format CI systems (GitLab, Jenkins, GitHub test reporters) read: one
//! `<testsuite>` per run, one `<testcase>` per test, a `<failure>` with the verdict and its
//! message for every non-AC test, the submission's first stderr lines in `<system-err>`.

use std::fmt::Write;

use super::{RunReport, StrengthReport};
use crate::escape::xml;
use judge_core::strength::Standing;
use judge_core::verdict::Verdict;

fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// The `judge run` report as JUnit XML.
pub fn run(report: &RunReport) -> String {
    let failures = report
        .rows
        .iter()
        .filter(|r| r.verdict != Verdict::AC)
        .count();
    let skipped = report.not_run.len();
    let total_ms: u64 = report.rows.iter().map(|r| r.cpu_ms).sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        r#"<testsuites name="judge run {}" tests="{}" failures="{failures}" errors="0" skipped="{skipped}" time="{}">"#,
        xml(report.problem),
        report.total,
        seconds(total_ms)
    );
    let _ = writeln!(
        out,
        r#"  <testsuite name="{}" tests="{}" failures="{failures}" errors="0" skipped="{skipped}" time="{}">"#,
        xml(report.problem),
        report.total,
        seconds(total_ms)
    );
    let _ = writeln!(out, "    <properties>");
    for (name, value) in [
        ("submission", report.command.as_str()),
        ("tests", report.tests_dir.as_str()),
        ("time_limit_ms", &report.time_limit_ms.to_string()),
        ("memory_limit_kb", &report.memory_limit_kb.to_string()),
        ("sandbox", report.isolation.as_str()),
    ] {
        let _ = writeln!(
            out,
            r#"      <property name="{name}" value="{}"/>"#,
            xml(value)
        );
    }
    let _ = writeln!(out, "    </properties>");
    for (i, row) in report.rows.iter().enumerate() {
        let _ = write!(
            out,
            r#"    <testcase name="{}" classname="{}" time="{}""#,
            xml(&row.test),
            xml(report.problem),
            seconds(row.cpu_ms)
        );
        if row.verdict == Verdict::AC {
            out.push_str("/>\n");
            continue;
        }
        out.push_str(">\n");
        let detail = report.failures.iter().find(|f| f.row == i);
        let mut body = format!(
            "verdict: {}\nCPU: {} ms, wall: {} ms, peak memory: {} KiB, {}\n",
            row.verdict, row.cpu_ms, row.wall_ms, row.peak_kb, row.exit
        );
        if let Some(detail) = detail {
            let _ = write!(
                body,
                "\nexpected:\n{}\ngot:\n{}",
                detail.expected, detail.got
            );
            if let Some(picture) = &detail.picture_text {
                let _ = write!(body, "\n{picture}");
            }
        }
        let _ = writeln!(
            out,
            r#"      <failure type="{}" message="{}">{}</failure>"#,
            row.verdict,
            xml(&format!("{}: {}", row.verdict, row.message)),
            xml(&body)
        );
        if let Some(detail) = detail.filter(|d| !d.stderr.is_empty()) {
            let _ = writeln!(
                out,
                "      <system-err>{}</system-err>",
                xml(&detail.stderr)
            );
        }
        out.push_str("    </testcase>\n");
    }
    for name in &report.not_run {
        let _ = writeln!(
            out,
            r#"    <testcase name="{}" classname="{}" time="0.000"><skipped message="not run: the run was interrupted, or stopped at the first failure"/></testcase>"#,
            xml(name),
            xml(report.problem)
        );
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// The `judge strength` report as JUnit XML: one test case per submission; a wrong one fails
/// when it survives, a correct one when a test rejects it, and either when it does not build.
pub fn strength(report: &StrengthReport) -> String {
    let failing: Vec<bool> = report
        .submissions
        .iter()
        .map(|s| s.standing().is_finding())
        .collect();
    let failures = failing.iter().filter(|&&f| f).count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        r#"<testsuites name="judge strength {0}" tests="{1}" failures="{failures}" errors="0">
  <testsuite name="{0} strength" tests="{1}" failures="{failures}" errors="0" skipped="{2}">"#,
        xml(&report.problem),
        report.submissions.len() + report.not_judged.len(),
        report.not_judged.len()
    );
    for (s, failed) in report.submissions.iter().zip(failing) {
        let rejected = s.rejected_by();
        let _ = write!(
            out,
            r#"    <testcase name="{}" classname="{}.{}""#,
            xml(&s.name),
            xml(&report.problem),
            s.kind
        );
        // What a sanitizer said (`--sanitize`), whether or not the submission fails here.
        let sanitizer = s
            .sanitizer
            .as_ref()
            .map(|m| format!("\n      <system-out>{}</system-out>", xml(m)))
            .unwrap_or_default();
        if !failed {
            if sanitizer.is_empty() {
                out.push_str("/>\n");
            } else {
                let _ = writeln!(out, ">{sanitizer}\n    </testcase>");
            }
            continue;
        }
        let standing = s.standing();
        let message = if standing == Standing::DidNotBuild {
            "the submission does not build".to_string()
        } else if s.kind == "wrong" {
            let families: Vec<String> = s
                .families
                .iter()
                .filter(|f| f.failed > 0)
                .map(|f| format!("{} ({}/{})", f.family, f.failed, f.tried))
                .collect();
            if families.is_empty() {
                "no test rejects this wrong submission".to_string()
            } else {
                format!(
                    "no test rejects this wrong submission; families that would: {}",
                    families.join(", ")
                )
            }
        } else {
            let by: Vec<String> = rejected
                .iter()
                .map(|&t| format!("{} ({})", report.tests[t], s.verdicts[t]))
                .collect();
            format!("a correct submission is rejected by {}", by.join(", "))
        };
        let _ = writeln!(
            out,
            r#">
      <failure type="{}" message="{}"/>{sanitizer}
    </testcase>"#,
            match standing {
                Standing::DidNotBuild => "CE",
                Standing::Survives => "SURVIVES",
                _ => "REJECTED",
            },
            xml(&message)
        );
    }
    // Submissions an interruption left unjudged.
    for name in &report.not_judged {
        let _ = writeln!(
            out,
            r#"    <testcase name="{}" classname="{}.not-judged">
      <skipped message="interrupted before it was judged"/>
    </testcase>"#,
            xml(name),
            xml(&report.problem)
        );
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}
