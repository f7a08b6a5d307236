//! For every problem, the default test set (`judge testset PROBLEM --seed 1`) rejects every
//! known-wrong solution and accepts the correct ones, through `judge strength`.

use solutions::{Problem, tests_per_problem};

use crate::generation::scratch;
use crate::util::*;

/// Wrong solutions that only one possible input can reveal (so one test is all there can be).
const SINGULAR: [&str; 1] = ["attack25--no-opening-rule"];

fn default_test_sets_reject_every_known_wrong_solution<P: Problem>() {
    let problem = P::ID;
    let dir = scratch(&format!("strength-{problem}"));
    let (tests, solutions, report) = (
        dir.join("tests"),
        dir.join("solutions"),
        dir.join("matrix.csv"),
    );
    for args in [
        vec![
            "testset",
            problem,
            "--seed",
            "1",
            "--out",
            tests.to_str().unwrap(),
        ],
        vec!["solutions", problem, "--out", solutions.to_str().unwrap()],
    ] {
        let out = judge().args(&args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    let out = judge()
        .args(["strength", problem, "--tests"])
        .arg(&tests)
        .arg("--wrong")
        .arg(solutions.join("wrong"))
        .arg("--correct")
        .arg(solutions.join("correct"))
        .arg("--report")
        .arg(&report)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{problem}:\n{stdout}{}",
        text(&out.stderr)
    );
    assert!(
        !stdout.contains("SURVIVES") && !stdout.contains("REJECTED"),
        "{stdout}"
    );
    for line in stdout.lines().filter(|l| l.starts_with("fragile")) {
        assert!(
            SINGULAR.iter().any(|s| line.contains(s)),
            "{problem}: {line}"
        );
    }
    let wrong = std::fs::read_dir(solutions.join("wrong")).unwrap().count();
    assert!(wrong >= 8, "{problem}: only {wrong} wrong solutions");
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with("rejected") || l.starts_with("fragile"))
            .count(),
        wrong,
        "{stdout}"
    );
    let matrix = std::fs::read_to_string(&report).unwrap();
    assert!(
        matrix.lines().next().unwrap().starts_with("test,correct:"),
        "{matrix}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

solutions::for_each_problem!(tests_per_problem, default_test_set_rejects_every_wrong_solution => default_test_sets_reject_every_known_wrong_solution);

#[test]
fn a_weak_test_set_lets_wrong_solutions_survive_and_names_the_family_that_catches_them() {
    let dir = scratch("strength-weak");
    let (tests, solutions) = (dir.join("tests"), dir.join("solutions"));
    std::fs::create_dir_all(&tests).unwrap();
    // Only the empty board: nearly every wrong omok solution survives it.
    std::fs::write(tests.join("empty.in"), ("0 ".repeat(18) + "0\n").repeat(19)).unwrap();
    std::fs::write(tests.join("empty.ans"), "0\n").unwrap();
    let out = judge()
        .args(["solutions", "omok", "--out"])
        .arg(&solutions)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let out = judge()
        .args(["strength", "omok", "--tests"])
        .arg(&tests)
        .arg("--wrong")
        .arg(solutions.join("wrong"))
        .arg("--report")
        .arg(dir.join("m.csv"))
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("SURVIVES  omok--six-counts-as-five.rs"),
        "{stdout}"
    );
    assert!(
        stdout.contains("omok--six-counts-as-five.rs: would be caught by family"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An interrupted `judge strength` reports what it judged before the interruption: the
/// submissions judged on every test, printed and in the report, and which were not (exit 2).
#[test]
fn an_interrupted_strength_reports_what_was_judged() {
    let dir = scratch("strength-interrupted");
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(tests.join("one.in"), "NNNNNNNN\n".repeat(7) + "NNNNNNNP\n").unwrap();
    std::fs::write(tests.join("one.ans"), "0\n").unwrap();
    let wrong = dir.join("wrong");
    std::fs::create_dir_all(&wrong).unwrap();
    // Judged in name order: a fails at once, b is still running at the interruption.
    std::fs::write(wrong.join("a.sh"), "echo 1\necho 1 1\n").unwrap();
    std::fs::write(wrong.join("b.sh"), "exec sleep 30\n").unwrap();
    std::fs::write(wrong.join("c.sh"), "echo 2\n").unwrap();
    let report = dir.join("matrix.json");
    let child = judge()
        .args(["strength", "othello-flips", "--time-limit", "10", "--tests"])
        .arg(&tests)
        .arg("--wrong")
        .arg(&wrong)
        .arg("--report")
        .arg(&report)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(2500));
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stdout.contains("fragile   a.sh: only one rejects it"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("b.sh") && !stdout.contains("c.sh"),
        "{stdout}"
    );
    assert!(
        stderr.contains(
            "interrupted: 1 of 3 submissions judged on every test; not judged: b.sh, c.sh"
        ),
        "{stderr}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["submissions"].as_array().unwrap().len(), 1, "{json}");
    assert_eq!(json["submissions"][0]["name"], "a.sh");
    assert_eq!(json["not_judged"], serde_json::json!(["b.sh", "c.sh"]));
    let _ = std::fs::remove_dir_all(&dir);
}
