//! The round trip (issue 31.5): each built-in problem exported by `judge package` and judged
//! back through the package path (`judge verify EXPORTED`) gives every jury submission the
//! verdict, and the per-verdict test counts, that the built-in path (`judge run PROBLEM --tests
//! EXPORTED --submissions …`, the problem's own checker) gives the same source on the same
//! tests under the same limits. Nothing is compared with a list written here.
//!
//! Cost: the exported submissions are Rust, about 5 s of CPU time to build each when the
//! build cache is cold (both paths build the same source, so each is built once). The test
//! keeps every accepted submission and the first [`WRONG_PER_PROBLEM`] wrong-answer ones in
//! name order (each problem's wrong submissions are bugs of the same solver: a few exercise
//! the package's checker and data as well as all of them do); `BOARDJUDGE_ROUND_TRIP_ALL=1`
//! keeps all of them. One problem is also exported in the legacy format, where the package
//! gives no time limit and `judge verify` derives it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::generation::scratch;
use crate::util::*;

/// Wrong-answer submissions kept per problem (all with `BOARDJUDGE_ROUND_TRIP_ALL=1`).
const WRONG_PER_PROBLEM: usize = 3;

/// What one path says of a submission: its verdict and its tests per verdict.
type Judged = (String, BTreeMap<String, u64>);

fn export(problem: &str, out: &Path, format: &str) -> PathBuf {
    let result = judge()
        .args(["package", problem, "--format", format, "--out"])
        .arg(out)
        .output()
        .unwrap();
    assert_no_panic(&result);
    assert_eq!(
        result.status.code(),
        Some(0),
        "{problem}: {}",
        text(&result.stderr)
    );
    out.join(judge_package::package_name(problem))
}

/// Removes all but the first [`WRONG_PER_PROBLEM`] wrong-answer submissions (by name).
fn keep_a_subset(package: &Path) {
    if std::env::var_os("BOARDJUDGE_ROUND_TRIP_ALL").is_some() {
        return;
    }
    let wrong = package.join("submissions/wrong_answer");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&wrong)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for path in names.iter().skip(WRONG_PER_PROBLEM) {
        std::fs::remove_file(path).unwrap();
    }
}

/// The package path: `judge verify`, each submission by its path under `submissions/`, and
/// the time limit it judged with.
fn through_the_package(package: &Path, report: &Path) -> (BTreeMap<String, Judged>, f64) {
    let out = judge()
        .arg("verify")
        .arg(package)
        .args(["--jobs", "2", "--report"])
        .arg(report)
        .output()
        .unwrap();
    assert_no_panic(&out);
    let printed = format!("{}{}", text(&out.stdout), text(&out.stderr));
    // The export declares every submission's verdict: all of them must be as declared.
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}: {printed}",
        package.display()
    );
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(report).unwrap()).unwrap();
    assert_eq!(json["skipped"], serde_json::json!([]), "{printed}");
    let judged = json["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            assert_eq!(s["matches"], true, "{s}");
            let counts = s["tests"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, n)| (k.clone(), n.as_u64().unwrap()))
                .collect();
            let path = s["path"].as_str().unwrap().to_string();
            (path, (s["verdict"].as_str().unwrap().to_string(), counts))
        })
        .collect();
    (judged, json["time_limit_s"].as_f64().unwrap())
}

/// The built-in path: the problem's own checker on the exported tests, each folder of
/// submissions with one `judge run`, under `time_limit` and the package's memory limit.
fn through_the_built_in(
    problem: &str,
    package: &Path,
    time_limit: f64,
    report: &Path,
) -> BTreeMap<String, Judged> {
    let memory = memory_limit(package);
    let mut judged = BTreeMap::new();
    for folder in ["accepted", "wrong_answer"] {
        let out = judge()
            .args(["run", problem, "--tests"])
            .arg(package)
            .args(["--time-limit", &time_limit.to_string()])
            .args(["--memory-limit", &memory.to_string()])
            .args(["--jobs", "2", "--submissions"])
            .arg(package.join("submissions").join(folder))
            .arg("--report")
            .arg(report)
            .output()
            .unwrap();
        assert_no_panic(&out);
        let printed = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(
            [Some(0), Some(1)].contains(&out.status.code()),
            "{problem} {folder}: {printed}"
        );
        let json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(report).unwrap()).unwrap();
        assert_eq!(
            json["tests"].as_u64(),
            Some(tests_in(package)),
            "{problem}: the built-in path ran other tests than the package has: {printed}"
        );
        for s in json["submissions"].as_array().unwrap() {
            let verdict = if !s["compile_error"].is_null() {
                "CE".to_string()
            } else {
                // Empty (or absent) when every test passed.
                match s["first_failing_verdict"].as_str() {
                    None | Some("") => "AC".to_string(),
                    Some(v) => v.to_string(),
                }
            };
            let counts = ["AC", "WA", "TLE", "MLE", "OLE", "RE", "CE"]
                .iter()
                .filter_map(|v| {
                    let n = s[*v].as_u64().unwrap();
                    (n > 0).then(|| (v.to_string(), n))
                })
                .collect();
            let name = s["submission"].as_str().unwrap();
            judged.insert(format!("submissions/{folder}/{name}"), (verdict, counts));
        }
    }
    judged
}

/// `limits.memory` of the exported problem.yaml (MiB).
fn memory_limit(package: &Path) -> u64 {
    let yaml = std::fs::read_to_string(package.join("problem.yaml")).unwrap();
    yaml.lines()
        .find_map(|l| l.trim().strip_prefix("memory:"))
        .map_or(2048, |m| m.trim().parse().unwrap())
}

/// The `.in` files under data/sample and data/secret.
fn tests_in(package: &Path) -> u64 {
    let mut count = 0;
    let mut stack = vec![package.join("data/sample"), package.join("data/secret")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "in") {
                count += 1;
            }
        }
    }
    count
}

#[test]
fn every_built_in_problem_exported_and_judged_back_gets_the_built_in_verdicts() {
    let dir = scratch("round-trip");
    let mut exports: Vec<(&str, &str)> = problem_ids().into_iter().map(|id| (id, "icpc")).collect();
    // The legacy format too, once: no time limit in the package, verify derives it.
    exports.push(("othello-flips", "legacy"));
    for (problem, format) in exports {
        let out = dir.join(format!("{problem}-{format}"));
        let package = export(problem, &out, format);
        keep_a_subset(&package);
        let (packaged, time_limit) = through_the_package(&package, &out.join("verify.json"));
        let built_in = through_the_built_in(problem, &package, time_limit, &out.join("run.json"));
        // Both paths judged every submission kept (each export has two accepted ones).
        assert!(packaged.len() >= 2, "{problem} ({format}): {packaged:?}");
        assert_eq!(
            packaged, built_in,
            "{problem} ({format}): the package path (left) and the built-in path (right) \
             disagree"
        );
        // Not every submission is accepted: the comparison covers failing verdicts too.
        assert!(
            packaged.values().any(|(v, _)| v != "AC"),
            "{problem} ({format}): {packaged:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
