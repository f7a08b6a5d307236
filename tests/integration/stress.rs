//! `judge stress` with a submission: finds a known-wrong solution, shrinks it, saves it, and
//! reports the same finding whatever the number of jobs; shards split the case space.

use solutions::{Problem, tests_per_problem};

use crate::generation::scratch;
use crate::util::*;

fn solutions(problem: &str) -> std::path::PathBuf {
    let dir = scratch(&format!("stress-sol-{problem}"));
    let out = judge()
        .args(["solutions", problem, "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    dir
}

fn every_known_wrong_solution_is_found_and_shrunk<P: Problem>() {
    let problem = P::ID;
    let dir = solutions(problem);
    for entry in std::fs::read_dir(dir.join("wrong")).unwrap() {
        let program = entry.unwrap().path();
        let out = judge()
            .args(["stress", problem, "--seed", "1", "--cases", "3000", "--"])
            .arg(&program)
            .output()
            .unwrap();
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}: {stdout}{}",
            program.display(),
            text(&out.stderr)
        );
        assert!(
            stdout.contains("DISAGREEMENT at case") && stdout.contains("shrunk in"),
            "{stdout}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

solutions::for_each_problem!(tests_per_problem, every_known_wrong_solution_is_found => every_known_wrong_solution_is_found_and_shrunk);

#[test]
fn a_correct_submission_passes_and_the_finding_does_not_depend_on_jobs() {
    let dir = solutions("othello-flips");
    let correct = dir.join("correct/othello-flips--fast.rs");
    let out = judge()
        .args([
            "stress",
            "othello-flips",
            "--seed",
            "4",
            "--cases",
            "300",
            "--",
        ])
        .arg(&correct)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("no disagreement"),
        "{}",
        text(&out.stdout)
    );
    let wrong = dir.join("wrong/othello-flips--chain-reaction.rs");
    let finding = |jobs: &str| {
        let out = judge()
            .args([
                "stress",
                "othello-flips",
                "--seed",
                "4",
                "--jobs",
                jobs,
                "--",
            ])
            .arg(&wrong)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let stdout = text(&out.stdout);
        assert!(stdout.contains("DISAGREEMENT"), "{stdout}");
        // Everything but the timings: the case, the shrunk case (its variants are judged
        // `jobs` at a time) and its picture.
        stdout
            .lines()
            .filter(|l| !l.starts_with("found after"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(finding("1"), finding("2"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn save_writes_the_case_the_picture_and_a_corpus_entry() {
    let dir = solutions("omok");
    let save = dir.join("found");
    let out = judge()
        .args(["stress", "omok", "--seed", "2", "--save"])
        .arg(&save)
        .arg("--")
        .arg(dir.join("wrong/omok--slash-reports-top-end.rs"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    for file in [
        "original.in",
        "original.ans",
        "shrunk.in",
        "shrunk.ans",
        "shrunk.got",
        "shrunk.svg",
        "case.toml",
    ] {
        assert!(save.join(file).is_file(), "{file} missing");
    }
    // The shrunk input is valid and its answer is the reference's.
    let out = judge()
        .args(["solve", "omok", "--solver", "reference"])
        .arg(save.join("shrunk.in"))
        .output()
        .unwrap();
    assert_eq!(
        text(&out.stdout),
        std::fs::read_to_string(save.join("shrunk.ans")).unwrap()
    );
    assert!(
        std::fs::read_to_string(save.join("shrunk.svg"))
            .unwrap()
            .starts_with("<svg")
    );
    let entry = std::fs::read_to_string(save.join("case.toml")).unwrap();
    assert!(
        entry.contains("[[valid]]") && entry.contains("answer = '''"),
        "{entry}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_cover_disjoint_cases_in_process() {
    // In process a finding names its global case index: shard k of n only sees k-1 mod n.
    for shard in ["1/3", "2/3", "3/3"] {
        let out = judge()
            .args([
                "stress", "attack25", "--seed", "9", "--cases", "2000", "--shard", shard,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
        assert!(text(&out.stdout).contains(&format!("shard {shard}")));
    }
    let out = judge()
        .args(["stress", "attack25", "--seed", "9", "--shard", "4/3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// One rule for a submission that does not build: CE is its verdict, a finding, exit 1 — in
/// `judge run`, `judge stress` and `judge strength` alike (stress said exit 2).
#[test]
fn a_compile_error_is_a_finding_in_run_stress_and_strength() {
    let dir = scratch("compile-error-everywhere");
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(tests.join("one.in"), "NNNNNNNN\n".repeat(7) + "NNNNNNNP\n").unwrap();
    std::fs::write(tests.join("one.ans"), "0\n").unwrap();
    let wrong = dir.join("wrong");
    std::fs::create_dir_all(&wrong).unwrap();
    let broken = wrong.join("broken.c");
    std::fs::write(&broken, "int main(void) { this is not C }\n").unwrap();
    let runs: [(&str, Vec<std::ffi::OsString>); 3] = [
        (
            "run",
            vec![
                "run".into(),
                "othello-flips".into(),
                "--tests".into(),
                tests.clone().into(),
                "--".into(),
                broken.clone().into(),
            ],
        ),
        (
            "stress",
            vec![
                "stress".into(),
                "othello-flips".into(),
                "--seed".into(),
                "1".into(),
                "--".into(),
                broken.clone().into(),
            ],
        ),
        (
            "strength",
            vec![
                "strength".into(),
                "othello-flips".into(),
                "--tests".into(),
                tests.clone().into(),
                "--wrong".into(),
                wrong.clone().into(),
            ],
        ),
    ];
    for (command, args) in runs {
        let out = judge().args(&args).output().unwrap();
        assert_no_panic(&out);
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{command}: {stdout}{}",
            text(&out.stderr)
        );
        assert!(stdout.starts_with("CE "), "{command}: {stdout}");
        assert!(stdout.contains("broken.c"), "{command}: {stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The replay line reproduces the finding exactly: it carries the trusted solver and the
/// limits the finding was made under (it dropped --time-limit, --memory-limit and --against),
/// and run as printed — through the shell, a path with a space included — it finds the same
/// case. The finding's lines number cases as `--cases` counts them (from 1) and name where the
/// case came from without a stray `, )`.
#[test]
fn the_replay_line_reproduces_the_finding_under_its_limits() {
    let dir = solutions("othello-flips");
    let spaced = dir.join("with space");
    std::fs::create_dir_all(&spaced).unwrap();
    let wrong = spaced.join("chain-reaction.rs");
    std::fs::copy(dir.join("wrong/othello-flips--chain-reaction.rs"), &wrong).unwrap();
    let out = judge()
        .args([
            "stress",
            "othello-flips",
            "--seed",
            "1",
            "--against",
            "fast",
        ])
        .args(["--time-limit", "0.5", "--memory-limit", "64", "--"])
        .arg(&wrong)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    let replay = stdout
        .lines()
        .find_map(|l| l.strip_prefix("replay: "))
        .unwrap_or_else(|| panic!("no replay line: {stdout}"));
    for flag in ["--against fast", "--time-limit 0.5", "--memory-limit 64"] {
        assert!(replay.contains(flag), "{flag}: {replay}");
    }
    let first = stdout.lines().next().unwrap();
    assert!(!first.contains(", )") && !first.contains("()"), "{first}");
    let case: u64 = first
        .strip_prefix("DISAGREEMENT at case ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{first}"));
    assert!(
        stdout.contains(&format!(
            "found after {case} {} in ",
            if case == 1 { "case" } else { "cases" }
        )),
        "one numbering: {stdout}"
    );
    assert!(replay.contains(&format!("--cases {case} ")), "{replay}");
    // Run it as printed, through the shell.
    let command = replay.replacen("judge ", &format!("'{}' ", env!("CARGO_BIN_EXE_judge")), 1);
    let again = std::process::Command::new("sh")
        .args(["-c", &command])
        .output()
        .unwrap();
    let again_stdout = text(&again.stdout);
    assert_eq!(
        again.status.code(),
        Some(1),
        "{command}: {again_stdout}{}",
        text(&again.stderr)
    );
    let without_timings = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("found after"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(without_timings(&again_stdout), without_timings(&stdout));
    let _ = std::fs::remove_dir_all(&dir);
}
