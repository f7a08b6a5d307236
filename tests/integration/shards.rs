//! One campaign on many machines (issue 22): `--shard auto` from the scheduler's variables,
//! `--cases` as the whole campaign, shard folders written atomically, `judge merge` equal to
//! the single run, interrupted shards that say so, and many submissions in one command.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::generation::scratch;
use crate::util::*;

/// The scheduler variables `--shard auto` reads: removed, so a test run inside a Slurm job or
/// a pod still sees only what it sets.
pub const SCHEDULER_VARIABLES: [&str; 8] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_JOB_ID",
    "JOB_COMPLETION_INDEX",
    "BOARDJUDGE_SHARDS",
];

/// `judge` with no scheduler variables.
pub fn clean_judge() -> Command {
    let mut command = judge();
    for name in SCHEDULER_VARIABLES {
        command.env_remove(name);
    }
    command
}

/// The judge executable under the name `PROBLEM--SOLVER` in `dir`: that solver as a program
/// (no build step). A hard link where possible (the name is what matters), else a copy.
pub fn solver_program(dir: &Path, name: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let judge = Path::new(env!("CARGO_BIN_EXE_judge"));
    if std::fs::hard_link(judge, &path).is_err() {
        std::fs::copy(judge, &path).unwrap();
    }
    path
}

/// Standard output without the timings line (the only one that differs between runs).
pub fn without_timings(stdout: &[u8]) -> String {
    text(stdout)
        .lines()
        .filter(|l| !l.starts_with("found after ") && !l.starts_with("ran "))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn run(command: &mut Command) -> Output {
    let out = command.output().unwrap();
    assert_no_panic(&out);
    out
}

/// Sends `signal` (a `kill` name: TERM, INT, KILL) to a child.
fn signal(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
}

fn wait_with_timeout(child: Child, limit: Duration) -> Output {
    let started = Instant::now();
    let id = child.id();
    let waiter = std::thread::spawn(move || child.wait_with_output().unwrap());
    while !waiter.is_finished() {
        if started.elapsed() > limit {
            let _ = Command::new("kill")
                .arg("-KILL")
                .arg(id.to_string())
                .status();
            panic!("the judge did not stop within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    waiter.join().unwrap()
}

#[test]
fn shard_auto_reads_slurm_and_kubernetes_variables() {
    let stress = |vars: &[(&str, &str)]| {
        let mut command = clean_judge();
        command.args([
            "stress", "attack25", "--seed", "3", "--cases", "64", "--shard", "auto",
        ]);
        for (k, v) in vars {
            command.env(k, v);
        }
        run(&mut command)
    };
    // sbatch --array=5-8: task 7 is shard 3 of 4.
    let out = stress(&[
        ("SLURM_ARRAY_TASK_ID", "7"),
        ("SLURM_ARRAY_TASK_MIN", "5"),
        ("SLURM_ARRAY_TASK_MAX", "8"),
        ("SLURM_ARRAY_TASK_STEP", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("on 16 cases of attack25 (seed 3, shard 3/4)"));
    assert!(text(&out.stderr).contains("shard 3/4 (from SLURM_ARRAY_TASK_ID=7"));
    // sbatch --array=1-7:2: task 5 is shard 3 of 4.
    let out = stress(&[
        ("SLURM_ARRAY_TASK_ID", "5"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_MAX", "7"),
        ("SLURM_ARRAY_TASK_STEP", "2"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ]);
    assert!(
        text(&out.stdout).contains("shard 3/4"),
        "{}",
        text(&out.stdout)
    );
    // A Kubernetes Indexed Job: index 0 of BOARDJUDGE_SHARDS=2 is shard 1 of 2.
    let out = stress(&[("JOB_COMPLETION_INDEX", "0"), ("BOARDJUDGE_SHARDS", "2")]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("on 32 cases of attack25 (seed 3, shard 1/2)"));
    // Usage errors: nothing set, no count beside the index, a list array, disagreeing engines.
    for (vars, says) in [
        (vec![], "neither SLURM_ARRAY_TASK_ID"),
        (
            vec![("JOB_COMPLETION_INDEX", "1")],
            "BOARDJUDGE_SHARDS is not",
        ),
        (
            vec![("JOB_COMPLETION_INDEX", "2"), ("BOARDJUDGE_SHARDS", "2")],
            "must be below the count",
        ),
        (
            vec![
                ("SLURM_ARRAY_TASK_ID", "9"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_MAX", "9"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ],
            "not an evenly stepped range",
        ),
        (
            vec![
                ("SLURM_ARRAY_TASK_ID", "1"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
                ("JOB_COMPLETION_INDEX", "1"),
                ("BOARDJUDGE_SHARDS", "4"),
            ],
            "say shard 1/4 but JOB_COMPLETION_INDEX/BOARDJUDGE_SHARDS say 2/4",
        ),
    ] {
        let out = stress(&vars);
        assert_eq!(out.status.code(), Some(2), "{vars:?}");
        assert!(
            text(&out.stderr).contains(says),
            "{vars:?}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn cases_is_the_whole_campaign_and_merged_shards_equal_the_single_run_in_process() {
    let dir = scratch("shards-inprocess");
    let single = run(clean_judge().args(["stress", "omok", "--seed", "5", "--cases", "1001"]));
    assert_eq!(single.status.code(), Some(0));
    let mut total = 0;
    for k in 1..=4 {
        let out = run(clean_judge()
            .args([
                "stress", "omok", "--seed", "5", "--cases", "1001", "--shard",
            ])
            .arg(format!("{k}/4"))
            .arg("--save")
            .arg(&dir));
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        // 1001 = 125 blocks of 8 and one case: shard 1 takes blocks 0, 4, …, 124 (256
        // cases), shard 2 blocks 1, …, 121 and case 1000 (249), shards 3 and 4 31 blocks (248).
        let cases: u64 = stdout
            .split(" on ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{stdout}"));
        assert_eq!(cases, [256, 249, 248, 248][k as usize - 1]);
        total += cases;
        assert!(dir.join(format!("shard-{k}-of-4/summary.json")).is_file());
    }
    assert_eq!(total, 1001);
    let merged = run(judge().arg("merge").arg(&dir));
    assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
    assert_eq!(
        without_timings(&merged.stdout),
        without_timings(&single.stdout)
    );
    assert!(without_timings(&merged.stdout).contains("on 1001 cases of omok (seed 5)\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merged_shards_equal_the_single_run_byte_for_byte_for_the_finding() {
    let dir = scratch("shards-finding");
    let wrong = solver_program(&dir.join("bin"), "omok--access-wrap-negative");
    let stress = |extra: &[&str]| {
        let mut command = clean_judge();
        command
            .args([
                "stress", "omok", "--seed", "1", "--cases", "4000", "--jobs", "2",
            ])
            .args(extra)
            .arg("--")
            .arg(&wrong);
        run(&mut command)
    };
    let single_save = dir.join("single");
    let single = stress(&["--save", single_save.to_str().unwrap()]);
    assert_eq!(single.status.code(), Some(1), "{}", text(&single.stderr));
    let shards = dir.join("shards");
    let mut found = Vec::new();
    for k in 1..=4 {
        let shard = format!("{k}/4");
        let out = stress(&["--shard", &shard, "--save", shards.to_str().unwrap()]);
        // Each shard finds a disagreement of its own (its own lowest case).
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let summary: serde_json::Value = serde_json::from_slice(
            &std::fs::read(shards.join(format!("shard-{k}-of-4/summary.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(summary["complete"], true);
        assert_eq!(summary["command"], "stress");
        found.push((summary["finding"]["case"].as_u64().unwrap(), k));
    }
    let merged = run(judge()
        .arg("merge")
        .arg(&shards)
        .arg("--report")
        .arg(dir.join("m.json")));
    assert_eq!(merged.status.code(), Some(1), "{}", text(&merged.stderr));
    // The single run's standard output, but for its timings and its own "saved to" line.
    let single_out: String = without_timings(&single.stdout)
        .lines()
        .filter(|l| !l.starts_with("saved to "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(without_timings(&merged.stdout), single_out);
    let (lowest, finder) = *found.iter().min().unwrap();
    // Case indices are 0-based in the summary, numbered from 1 on the terminal.
    assert!(single_out.contains(&format!("DISAGREEMENT at case {} ", lowest + 1)));
    // The same shrunk case, byte for byte, in the finder's folder.
    let finder = shards.join(format!("shard-{finder}-of-4"));
    for file in [
        "shrunk.in",
        "shrunk.ans",
        "shrunk.got",
        "original.in",
        "case.toml",
        "shrunk.svg",
    ] {
        assert_eq!(
            std::fs::read(finder.join(file)).unwrap(),
            std::fs::read(single_save.join(file)).unwrap(),
            "{file}"
        );
    }
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("m.json")).unwrap()).unwrap();
    assert_eq!(report["exit_code"], 1);
    assert_eq!(report["finding"]["case"].as_u64(), Some(lowest));
    assert_eq!(report["cases"].as_u64(), Some(lowest + 1));
    // The HTML report draws the shrunk board.
    let html = dir.join("m.html");
    let out = run(judge().arg("merge").arg(&shards).arg("--report").arg(&html));
    assert_eq!(out.status.code(), Some(1));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("<svg") && page.contains("found by shard"),
        "{page}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A submission that takes a while per case (so a shard can be stopped half-way): a script
/// that sleeps, then runs the correct solver (named on the command line, so the sandbox lets
/// it read it).
fn slow_submission(dir: &Path) -> [PathBuf; 2] {
    use std::os::unix::fs::PermissionsExt;
    let fast = solver_program(&dir.join("bin"), "omok--fast");
    let script = dir.join("slow.sh");
    std::fs::write(&script, "#!/bin/sh\nsleep 0.1\nexec \"$1\"\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    [script, fast]
}

fn slow_shard(script: &[PathBuf; 2], shards: &Path, k: u64) -> Command {
    let mut command = clean_judge();
    command
        .args([
            "stress", "omok", "--seed", "2", "--cases", "256", "--jobs", "2", "--shard",
        ])
        .arg(format!("{k}/4"))
        .arg("--save")
        .arg(shards)
        .arg("--")
        .args(script)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

#[test]
fn interrupted_killed_and_missing_shards_are_named_and_nothing_looks_complete() {
    let dir = scratch("shards-trouble");
    let script = slow_submission(&dir);
    let shards = dir.join("shards");
    // Shard 1 runs to the end.
    let out = run(&mut slow_shard(&script, &shards, 1));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Shard 3 gets SIGTERM (a Slurm time limit) half-way: exit 2, saying how far it got, and
    // its partial result apart from the complete ones.
    let child = slow_shard(&script, &shards, 3).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(1200));
    signal(&child, "TERM");
    let out = wait_with_timeout(child, Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        !text(&out.stdout).contains("no disagreement"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stderr).contains("interrupted: stopped after"));
    assert!(!shards.join("shard-3-of-4").exists());
    let partial: serde_json::Value = serde_json::from_slice(
        &std::fs::read(shards.join("shard-3-of-4.interrupted/summary.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(partial["complete"], false);
    let ran = partial["cases_run"].as_u64().unwrap();
    assert!(ran < 64, "{partial}");
    // Shard 4 is killed outright (SIGKILL: no handler runs): it leaves no shard folder.
    let child = slow_shard(&script, &shards, 4).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(800));
    signal(&child, "KILL");
    let out = wait_with_timeout(child, Duration::from_secs(20));
    assert_ne!(out.status.code(), Some(0));
    // A shard that died while renaming its result leaves only a temporary folder.
    std::fs::create_dir_all(shards.join(".shard-4-of-4.tmp-host-1-2")).unwrap();
    let names: Vec<String> = std::fs::read_dir(&shards)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("shard-"))
        .collect();
    let mut names = names;
    names.sort();
    assert_eq!(names, ["shard-1-of-4", "shard-3-of-4.interrupted"]);
    // Shard 2 never ran. The merge names every one of them and exits 2.
    let out = run(judge().arg("merge").arg(&shards));
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("3 of 4 shards missing or incomplete"),
        "{stderr}"
    );
    assert!(stderr.contains("shard 2/4: missing"), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "shard 3/4: interrupted after {ran} cases of its 64"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("shard 4/4: died while writing its result"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    // The shard run again replaces its partial result, and a done shard refuses to run twice.
    let out = run(&mut slow_shard(&script, &shards, 3));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!shards.join("shard-3-of-4.interrupted").exists());
    let out = run(&mut slow_shard(&script, &shards, 3));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("already done"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_in_process_stress_exits_2_and_never_says_no_disagreement() {
    let dir = scratch("shards-interrupt");
    for sig in ["TERM", "INT"] {
        let child = clean_judge()
            .args([
                "stress",
                "renju",
                "--seed",
                "7",
                "--cases",
                "1000000000",
                "--shard",
                "2/4",
                "--save",
            ])
            .arg(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(700));
        signal(&child, sig);
        let out = wait_with_timeout(child, Duration::from_secs(20));
        assert_eq!(
            out.status.code(),
            Some(2),
            "SIG{sig}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "SIG{sig}: {}", text(&out.stdout));
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("interrupted: stopped after")
                && stderr.contains("of 250,000,000 cases"),
            "{stderr}"
        );
        let partial: serde_json::Value = serde_json::from_slice(
            &std::fs::read(dir.join("shard-2-of-4.interrupted/summary.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(partial["complete"], false);
        // Every case below covered_below of this shard was run: exactly its first cases_run
        // (its blocks of 8 are blocks 1, 5, 9, … of the campaign).
        let ran = partial["cases_run"].as_u64().unwrap();
        assert_eq!(
            partial["covered_below"].as_u64(),
            Some((ran / 8 * 4 + 1) * 8 + ran % 8)
        );
    }
    // Without --shard the same.
    let child = clean_judge()
        .args(["stress", "renju", "--seed", "7", "--cases", "1000000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    signal(&child, "TERM");
    let out = wait_with_timeout(child, Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(2));
    assert!(!text(&out.stdout).contains("no disagreement"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_refuses_shards_of_different_campaigns() {
    let dir = scratch("shards-mixed");
    for (k, seed) in [(1, "1"), (2, "2")] {
        let out = run(clean_judge()
            .args([
                "stress", "omok", "--seed", seed, "--cases", "100", "--shard",
            ])
            .arg(format!("{k}/2"))
            .arg("--save")
            .arg(&dir));
        assert_eq!(out.status.code(), Some(0));
    }
    let out = run(judge().arg("merge").arg(&dir));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not of one campaign"),
        "{}",
        text(&out.stderr)
    );
    // An empty folder, and one with shards of two sizes.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = run(judge().arg("merge").arg(&empty));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no shard results"));
    std::fs::create_dir_all(dir.join("shard-1-of-3")).unwrap();
    let out = run(judge().arg("merge").arg(&dir));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("different sizes"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// omok's default test set and a folder of submissions: the correct solver, two wrong ones
/// (one in a folder of its own), two byte-identical C sources and one that does not build.
fn submissions(dir: &Path) -> (PathBuf, PathBuf) {
    let tests = dir.join("tests");
    let out = run(judge()
        .args(["testset", "omok", "--seed", "1", "--out"])
        .arg(&tests));
    assert_eq!(out.status.code(), Some(0));
    let subs = dir.join("subs");
    solver_program(&subs, "omok--fast");
    solver_program(&subs, "omok--six-counts-as-five");
    solver_program(&subs.join("team-7"), "omok--access-wrap-negative");
    let c = "#include <stdio.h>\nint main(void) { puts(\"0\"); return 0; }\n";
    std::fs::write(subs.join("same-a.c"), c).unwrap();
    std::fs::write(subs.join("same-b.c"), c).unwrap();
    std::fs::write(subs.join("broken.c"), "int main( {\n").unwrap();
    (tests, subs)
}

#[test]
fn many_submissions_one_table_reports_and_each_source_built_once() {
    let dir = scratch("many");
    let (tests, subs) = submissions(&dir);
    let report = |ext: &str| dir.join(format!("report.{ext}"));
    let out = run(judge()
        .args(["run", "omok", "--tests"])
        .arg(&tests)
        .arg("--submissions")
        .arg(&subs)
        .arg("--report")
        .arg(report("html")));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("submission") && lines[0].ends_with("first failing"));
    let line = |name: &str| {
        *lines
            .iter()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name}: {table}"))
    };
    let counts = |name: &str| -> Vec<usize> {
        line(name)
            .split_whitespace()
            .skip(1)
            .take(7)
            .map(|n| n.parse().unwrap())
            .collect()
    };
    let tests_count = counts("omok--fast")[0];
    assert_eq!(counts("omok--fast"), [tests_count, 0, 0, 0, 0, 0, 0]);
    assert!(line("omok--fast").ends_with(" -"));
    assert_eq!(counts("broken.c")[6], tests_count);
    assert!(line("broken.c").ends_with("CE (build failed)"));
    assert!(line("team-7").contains(" WA "), "{table}");
    assert!(counts("omok--six-counts-as-five")[1] > 0);
    assert_eq!(counts("same-a.c"), counts("same-b.c"));
    assert!(
        lines.last().unwrap().contains("6 of 6 submissions judged"),
        "{table}"
    );
    assert!(
        lines.last().unwrap().contains("1 all AC, 5 failing"),
        "{table}"
    );
    // The two identical sources were built once.
    let stderr = text(&out.stderr);
    assert_eq!(stderr.matches("build: gcc").count(), 2, "{stderr}"); // same-a.c and broken.c
    assert!(!stderr.contains("same-b.c"), "{stderr}");
    let page = std::fs::read_to_string(report("html")).unwrap();
    assert!(
        page.contains("omok--six-counts-as-five") && page.contains("1 of 6 submissions all AC")
    );
    // CSV: the table; JSON: everything; JUnit: one suite per submission.
    for ext in ["csv", "json", "xml"] {
        let out = run(judge()
            .args(["run", "omok", "--tests"])
            .arg(&tests)
            .arg("--submissions")
            .arg(&subs)
            .arg("--report")
            .arg(report(ext)));
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(without_timings(&out.stdout), table);
    }
    let csv = std::fs::read_to_string(report("csv")).unwrap();
    assert!(csv.starts_with(
        "submission,tests,AC,WA,TLE,MLE,OLE,RE,CE,first_failing,first_failing_verdict\n"
    ));
    assert_eq!(csv.lines().count(), 7);
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(report("json")).unwrap()).unwrap();
    assert_eq!(json["submissions"].as_array().unwrap().len(), 6);
    assert_eq!(json["passed"], false);
    let xml = std::fs::read_to_string(report("xml")).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("testsuite"))
            .count(),
        6
    );
    // A folder of correct submissions only: exit 0.
    let good = dir.join("good");
    solver_program(&good, "omok--fast");
    solver_program(&good, "omok--reference");
    let out = run(judge()
        .args(["run", "omok", "--tests"])
        .arg(&tests)
        .arg("--submissions")
        .arg(&good));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    // Anything in the folder that is not a submission is named (exit 2), before anything runs.
    std::fs::write(good.join("notes.txt"), "x").unwrap();
    let out = run(judge()
        .args(["run", "omok", "--tests"])
        .arg(&tests)
        .arg("--submissions")
        .arg(&good));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("notes.txt: neither an executable"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn many_submissions_sharded_and_merged_equal_the_single_run() {
    let dir = scratch("many-shards");
    let (tests, subs) = submissions(&dir);
    let single = run(judge()
        .args(["run", "omok", "--tests"])
        .arg(&tests)
        .arg("--submissions")
        .arg(&subs)
        .arg("--report")
        .arg(dir.join("single.csv")));
    assert_eq!(single.status.code(), Some(1));
    let shards = dir.join("shards");
    for k in 1..=4 {
        let out = run(clean_judge()
            .args(["run", "omok", "--tests"])
            .arg(&tests)
            .arg("--submissions")
            .arg(&subs)
            .env("JOB_COMPLETION_INDEX", (k - 1).to_string())
            .env("BOARDJUDGE_SHARDS", "4")
            .args(["--shard", "auto", "--save"])
            .arg(&shards));
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            text(&out.stderr)
        );
        assert!(
            shards
                .join(format!("shard-{k}-of-4/summary.json"))
                .is_file()
        );
    }
    let merged = run(judge()
        .arg("merge")
        .arg(&shards)
        .arg("--report")
        .arg(dir.join("merged.csv")));
    assert_eq!(merged.status.code(), Some(1), "{}", text(&merged.stderr));
    assert_eq!(text(&merged.stdout), text(&single.stdout));
    assert_eq!(
        std::fs::read(dir.join("merged.csv")).unwrap(),
        std::fs::read(dir.join("single.csv")).unwrap()
    );
    // Without one shard the merge names it.
    std::fs::remove_dir_all(shards.join("shard-2-of-4")).unwrap();
    let out = run(judge().arg("merge").arg(&shards));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("shard 2/4: missing"));
    let _ = std::fs::remove_dir_all(&dir);
}
