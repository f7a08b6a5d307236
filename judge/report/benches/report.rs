//! How long the reports of `judge run` take to write for 100 tests, every one failing (the
//! worst case: 50 boards drawn as SVG, the largest problem, 19 x 19): the failing-test details
//! (boards drawn; the tests are read once, before, as `judge run` reads them) plus the page
//! written to a file.
//!
//! `cargo bench -p judge-report --bench report`

use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};

use judge_core::registry::find;
use judge_core::runner::load;
use judge_core::runner::report::Row;
use judge_core::runner::tests::discover;
use judge_core::verdict::Verdict;
use judge_report::{self as report, RunReport};

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardjudge-bench-report-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn reports(c: &mut Criterion) {
    let problem = find("omok").expect("omok");
    let dir = scratch();
    let tests_dir = dir.join("tests");
    problem
        .generate(1, 100, &tests_dir, false, None)
        .expect("generate");
    let tests = load(problem, discover(&tests_dir).expect("tests"), false).expect("load");
    assert_eq!(tests.len(), 100);
    // Every test WA, with a plausible wrong answer and some standard error.
    let rows: Vec<Row> = tests
        .iter()
        .enumerate()
        .map(|(i, t)| Row {
            test: t.test.name.clone(),
            verdict: Verdict::WA,
            cpu_ms: 3 + i as u64 % 17,
            wall_ms: 5 + i as u64 % 23,
            peak_kb: 4000 + 37 * i as u64,
            exit: "exit 0".to_string(),
            message: "expected 1 / 10 8, got 1 / 8 10".to_string(),
            stdout: "1\n8 10\n".to_string(),
            stderr: "debug: scanning rows\ndebug: found a five\n".to_string(),
        })
        .collect();
    let report_for = |failures| RunReport {
        problem: "omok",
        command: "./a.out".to_string(),
        tests_dir: tests_dir.display().to_string(),
        total: rows.len(),
        time_limit_ms: 2000,
        memory_limit_kb: 256 << 10,
        isolation: "bench".to_string(),
        rows: &rows,
        not_run: Vec::new(),
        failures,
    };
    let mut group = c.benchmark_group("report-100-tests-all-failing");
    for name in ["run.html", "run.xml", "run.csv"] {
        let path = dir.join(name);
        group.bench_function(name, |b| {
            b.iter(|| {
                let failures = if name.ends_with(".csv") {
                    Vec::new()
                } else {
                    report::failures(problem, &tests, &rows)
                };
                report::write_run(&path, &report_for(failures)).expect("write");
            })
        });
    }
    group.finish();
    let size = std::fs::metadata(dir.join("run.html")).map_or(0, |m| m.len());
    println!("run.html for 100 failing tests: {size} bytes");
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, reports);
criterion_main!(benches);
