//! `judge timelimit PKG` on small packages whose submissions burn known amounts of CPU time:
//! the limit by the format's rule from the slowest accepted run, the check against the
//! fastest too-slow submission (exit 1 when one runs under limit × time_limit_to_tle), and the
//! submissions within 25 % of the limit.

use std::path::{Path, PathBuf};

use crate::generation::scratch;
use crate::util::*;

/// A Python submission that burns `seconds` of CPU time (forever when `None`), then echoes
/// its input: the problem's answer.
fn burner(seconds: Option<f64>) -> String {
    let until = seconds.map_or("float('inf')".to_string(), |s| s.to_string());
    format!(
        "import sys, time\n\
         data = sys.stdin.read()\n\
         while time.process_time() < {until}:\n    pass\n\
         sys.stdout.write(data)\n"
    )
}

/// An echo problem: three tests, the answer is the input; `limits` is problem.yaml's
/// `limits:` block (empty for none); `submissions` are (path under submissions/, source).
fn echo_package(dir: &Path, limits: &str, submissions: &[(&str, String)]) -> PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    let yaml = format!("problem_format_version: 2025-09\nname: Echo\ntype: pass-fail\n{limits}");
    std::fs::create_dir_all(dir.join("data/sample")).unwrap();
    std::fs::create_dir_all(dir.join("data/secret")).unwrap();
    std::fs::write(dir.join("problem.yaml"), yaml).unwrap();
    for (name, value) in [
        ("sample/1", "1\n"),
        ("secret/2", "22\n"),
        ("secret/3", "333\n"),
    ] {
        std::fs::write(dir.join(format!("data/{name}.in")), value).unwrap();
        std::fs::write(dir.join(format!("data/{name}.ans")), value).unwrap();
    }
    for (path, source) in submissions {
        let path = dir.join("submissions").join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, source).unwrap();
    }
    dir.to_path_buf()
}

fn timelimit(package: &Path, report: &Path) -> (Option<i32>, String, serde_json::Value) {
    let out = judge()
        .arg("timelimit")
        .arg(package)
        .args(["--jobs", "2", "--report"])
        .arg(report)
        .output()
        .unwrap();
    assert_no_panic(&out);
    let printed = format!("{}{}", text(&out.stdout), text(&out.stderr));
    let json = std::fs::read(report)
        .map(|bytes| serde_json::from_slice(&bytes).unwrap())
        .unwrap_or(serde_json::Value::Null);
    (out.status.code(), printed, json)
}

/// The format's rule, written out again here: the smallest positive multiple of the
/// resolution at least `slowest × multiplier` (the judge's own function is not what checks it).
fn by_rule(slowest_ms: u64, multiplier: f64, resolution: f64) -> f64 {
    let exact = slowest_ms as f64 / 1000.0 * multiplier;
    let steps = (exact / resolution - 1e-9).ceil().max(1.0);
    (steps * resolution * 1e9).round() / 1e9
}

#[test]
fn the_limit_comes_from_the_slowest_accepted_run_and_holds_against_a_submission_that_never_ends() {
    let dir = scratch("timelimit-holds");
    let package = echo_package(
        &dir.join("echo"),
        "limits:\n  time_resolution: 0.1\n",
        &[
            ("accepted/quick.py", burner(Some(0.05))),
            ("accepted/steady.py", burner(Some(0.2))),
            ("time_limit_exceeded/forever.py", burner(None)),
        ],
    );
    let (code, printed, json) = timelimit(&package, &dir.join("report.json"));
    assert_eq!(code, Some(0), "{printed}");
    assert_eq!(json["measure"], "cpu", "{json}");
    let slowest = &json["slowest_lower"];
    assert_eq!(slowest["path"], "submissions/accepted/steady.py", "{json}");
    let slowest_ms = slowest["cpu_ms"].as_u64().unwrap();
    // It burned 0.2 s of CPU time: what is measured is that, not the wall clock.
    assert!((200..600).contains(&slowest_ms), "{json}");
    let derived = json["derived_s"].as_f64().unwrap();
    assert_eq!(derived, by_rule(slowest_ms, 2.0, 0.1), "{json}");
    assert_eq!(json["limit_s"].as_f64(), Some(derived), "{json}");
    assert!(json["given_s"].is_null(), "{json}");
    // The too-slow submission ran under limit × 1.5 × 2 and was stopped there.
    let fastest = &json["fastest_upper"];
    assert_eq!(
        fastest["path"],
        "submissions/time_limit_exceeded/forever.py"
    );
    assert_eq!(fastest["at_least"], true, "{json}");
    let cap_ms = (derived * 1.5 * 2.0 * 1000.0).round() as u64;
    assert!(fastest["cpu_ms"].as_u64().unwrap() >= cap_ms, "{json}");
    assert_eq!(json["findings"], serde_json::json!([]), "{json}");
    // Which submissions bound the limit, and how.
    let bounds: Vec<(String, String)> = json["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["path"].as_str().unwrap().to_string(),
                s["bounds"][0].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        bounds,
        [
            ("submissions/accepted/quick.py", "lower"),
            ("submissions/accepted/steady.py", "lower"),
            ("submissions/time_limit_exceeded/forever.py", "upper"),
        ]
        .map(|(p, b)| (p.to_string(), b.to_string())),
    );
    assert!(printed.contains("the limit holds"), "{printed}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_too_slow_submission_inside_the_safety_margin_is_a_finding_and_close_runs_are_listed() {
    let dir = scratch("timelimit-violated");
    // The package sets 1 s; time_limit_to_tle 1.5 asks every too-slow submission to need at
    // least 1.5 s. `barely.py` needs 1.1 s: over the limit, inside the margin, and within
    // 25 % of the limit. `slow.py` needs 2 s, clear of the margin: the fastest one decides.
    // (Both finish under the cap of 1 × 1.5 × 2 = 3 s, so no run is stopped there.)
    let package = echo_package(
        &dir.join("echo"),
        "limits:\n  time_limit: 1\n",
        &[
            ("accepted/steady.py", burner(Some(0.1))),
            ("time_limit_exceeded/slow.py", burner(Some(2.0))),
            ("time_limit_exceeded/barely.py", burner(Some(1.1))),
        ],
    );
    let (code, printed, json) = timelimit(&package, &dir.join("report.json"));
    assert_eq!(code, Some(1), "{printed}");
    assert_eq!(json["limit_s"].as_f64(), Some(1.0), "{json}");
    assert_eq!(json["given_by"], "problem.yaml", "{json}");
    let fastest = &json["fastest_upper"];
    assert_eq!(
        fastest["path"], "submissions/time_limit_exceeded/barely.py",
        "{json}"
    );
    assert_eq!(fastest["at_least"], false, "{json}");
    let findings = json["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{json}");
    assert!(
        findings[0].as_str().unwrap().contains("× 1.5 exceeds"),
        "{json}"
    );
    let sensitive: Vec<&str> = json["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["sensitive"] == true)
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert_eq!(sensitive, ["submissions/time_limit_exceeded/barely.py"]);
    assert!(printed.contains("within 25 % of the limit"), "{printed}");
    assert!(printed.contains("warning: "), "{printed}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn timelimit_refuses_a_built_in_problem_and_a_report_that_is_not_json() {
    let out = judge().args(["timelimit", "omok"]).output().unwrap();
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("takes a problem package folder"),
        "{}",
        text(&out.stderr)
    );
    let dir = scratch("timelimit-usage");
    let package = echo_package(&dir.join("echo"), "", &[]);
    let out = judge()
        .arg("timelimit")
        .arg(&package)
        .args(["--report", "r.csv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}
