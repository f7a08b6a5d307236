//! `fuzz/overnight.sh` across machines: which jobs each shard runs, unknown jobs refused, the
//! fuzz targets found where cargo puts them, a night in which a job did not run is a failure,
//! and two local shards whose corpora merge into one. And on day one: `--list`, `--help` and
//! an unknown job answer without building anything, the build is announced, and Ctrl-C during
//! it exits 2. Every run writes into a temporary folder, never into `fuzz/`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::generation::scratch;
use crate::shards::SCHEDULER_VARIABLES;
use crate::util::*;

fn overnight() -> Command {
    let mut command = Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/overnight.sh"));
    // The judge under test (no build inside the test), and no scheduler around.
    command
        .env("JUDGE", env!("CARGO_BIN_EXE_judge"))
        .env_remove("CI");
    for name in SCHEDULER_VARIABLES {
        command.env_remove(name);
    }
    command
}

fn lines(bytes: &[u8]) -> Vec<String> {
    text(bytes).lines().map(str::to_string).collect()
}

#[test]
fn overnight_deals_the_jobs_to_shards_and_refuses_unknown_ones() {
    let all = overnight().arg("--list").output().unwrap();
    assert_eq!(all.status.code(), Some(0), "{}", text(&all.stderr));
    let all = lines(&all.stdout);
    // Every kind on every problem of `judge problems`, which the script reads from the list
    // the judge is built from (without building it).
    let mut jobs = Vec::new();
    for kind in ["differential", "generators", "parse"] {
        for problem in problem_ids() {
            jobs.push(format!("{kind}-{problem}"));
        }
    }
    assert_eq!(all, jobs);
    // Four shards take every job exactly once.
    let mut seen = Vec::new();
    for k in 1..=4 {
        let out = overnight()
            .args(["--list", "--shard", &format!("{k}/4")])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        seen.extend(lines(&out.stdout));
    }
    seen.sort();
    let mut expected = all.clone();
    expected.sort();
    assert_eq!(seen, expected);
    // More shards than jobs: replicas (their corpora merge).
    let out = overnight()
        .args([
            "--list",
            "--shard",
            "3/4",
            "parse-omok",
            "differential-omok",
        ])
        .output()
        .unwrap();
    assert_eq!(lines(&out.stdout), ["parse-omok"]);
    // --shard auto, as in a Kubernetes Indexed Job.
    let out = overnight()
        .args(["--list", "--shard", "auto", "parse-omok", "parse-renju"])
        .env("JOB_COMPLETION_INDEX", "1")
        .env("BOARDJUDGE_SHARDS", "2")
        .output()
        .unwrap();
    assert_eq!(lines(&out.stdout), ["parse-renju"], "{}", text(&out.stderr));
    let out = overnight()
        .args(["--list", "--shard", "auto"])
        .env("JOB_COMPLETION_INDEX", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("BOARDJUDGE_SHARDS"));
    // An unknown job is a usage error naming it (and what a job is).
    let out = overnight()
        .args(["--list", "parse-omok", "parse-chess", "fuzzy-omok"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("unknown job(s): parse-chess fuzzy-omok")
            && stderr.contains("KIND-PROBLEM"),
        "{stderr}"
    );
    // The fuzz targets are where cargo says its target directory is.
    let elsewhere = scratch("overnight-target");
    let out = overnight()
        .arg("--list")
        .env("CARGO_TARGET_DIR", &elsewhere)
        .output()
        .unwrap();
    assert!(
        text(&out.stderr).contains(&format!("fuzz targets: {}/", elsewhere.display())),
        "{}",
        text(&out.stderr)
    );
}

/// Stand-ins for the fuzz targets in `dir/NAME`: a script with `body`.
fn fake_targets(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let bin = dir.join(name);
    std::fs::create_dir_all(&bin).unwrap();
    for kind in ["parse", "differential", "generators"] {
        let path = bin.join(kind);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

#[test]
fn overnight_a_job_that_did_not_run_fails_the_night_and_its_shard() {
    let dir = scratch("overnight-broken");
    // Targets that exit at once without fuzzing.
    let bin = fake_targets(&dir, "broken", "echo 'cannot start' >&2\nexit 1");
    let out = overnight()
        .args(["--minutes", "0.1", "--shard", "1/2", "--out"])
        .arg(dir.join("shards"))
        .args(["parse-omok", "differential-omok", "parse-renju"])
        .env("FUZZ_BIN", &bin)
        .env("FUZZ_CORPUS", dir.join("corpus"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    // Not a complete shard: its report is kept apart, and says which job did not run.
    assert!(!dir.join("shards/shard-1-of-2").exists());
    let failed = dir.join("shards/shard-1-of-2.failed");
    let summary = std::fs::read_to_string(failed.join("summary.md")).unwrap();
    assert!(
        summary.contains("**FAILED: not every job ran.**"),
        "{summary}"
    );
    assert!(
        summary.contains("`parse-omok` did not run: round 1 exited 1"),
        "{summary}"
    );
    let csv = std::fs::read_to_string(failed.join("report.csv")).unwrap();
    assert!(csv.lines().nth(1).unwrap().ends_with(",no"), "{csv}");
    assert!(text(&out.stderr).contains("FAILED: not every job ran"));
    // Quiet in a pipe: no progress line.
    assert!(!text(&out.stderr).contains('\r') && !text(&out.stdout).contains('\r'));
    // The merge names the failed shard and the missing one.
    let out = overnight()
        .arg("--merge")
        .arg(dir.join("shards"))
        .env("FUZZ_BIN", &bin)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("no shard-K-of-N folders"), "{stderr}");

    // On a terminal (util-linux `script` gives it one) a line shows the round and the time
    // left. The night's report goes to --out (by default it would be fuzz/reports/: a test
    // writes nothing into the working tree).
    let slow = fake_targets(&dir, "slow", "sleep 3\nexit 1");
    let line = format!(
        "FUZZ_BIN='{}' FUZZ_CORPUS='{}' '{}' --minutes 0.1 --out '{}' parse-omok",
        slow.display(),
        dir.join("corpus").display(),
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/overnight.sh")
            .display(),
        dir.join("night").display(),
    );
    let script = Command::new("script").arg("--version").output();
    if script.is_ok_and(|o| o.status.success()) {
        let out = Command::new("script")
            .args(["-qec", &line, "/dev/null"])
            .env("JUDGE", env!("CARGO_BIN_EXE_judge"))
            .env_remove("CI")
            .current_dir(&dir)
            .output()
            .unwrap();
        let shown = text(&out.stdout);
        assert!(
            shown.contains("round 1 of 1, batch 1 of 1 (parse-omok): 0:00:0"),
            "{shown}"
        );
        assert!(shown.contains(" left"), "{shown}");
        // Report and artifacts under --out.
        assert!(dir.join("night/summary.md").is_file(), "{shown}");
        assert!(dir.join("night/artifacts/parse-omok").is_dir(), "{shown}");
    } else {
        skipped("the terminal part: no `script` command (Debian: util-linux)");
    }

    // SIGTERM (a Slurm time limit) stops the fuzzers and the shard: exit 2, an interrupted
    // result, never a complete one.
    let sleepy = fake_targets(&dir, "sleepy", "exec sleep 60");
    let child = overnight()
        .args(["--minutes", "1", "--shard", "2/2", "--out"])
        .arg(dir.join("shards"))
        .arg("parse-omok")
        .env("FUZZ_BIN", &sleepy)
        .env("FUZZ_CORPUS", dir.join("corpus"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Until this shard's fuzzer runs (after the seeds are written): its own working folder,
    // `.shard-2-of-2.tmp-HOST-PID`. (Any folder would do before, and shard 1's failed report
    // above has the same log: the signal then came while the script was still starting, and
    // on a slow machine the test failed.)
    let logs = || {
        std::fs::read_dir(dir.join("shards"))
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with(".shard-2-of-2.tmp-")
            })
            .any(|e| e.path().join("logs/parse-omok-round1.log").exists())
    };
    let started = std::time::Instant::now();
    while !logs() {
        assert!(started.elapsed().as_secs() < 60, "the fuzzer never started");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("interrupted"),
        "{}",
        text(&out.stderr)
    );
    assert!(dir.join("shards/shard-2-of-2.interrupted").is_dir());
    assert!(!dir.join("shards/shard-2-of-2").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Is cargo-fuzz installed (the real targets can be built)?
fn cargo_fuzz() -> bool {
    Command::new("cargo")
        .args(["fuzz", "--version"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn overnight_two_local_shards_merge_their_corpora_into_one() {
    if !cargo_fuzz() {
        skipped("cargo-fuzz is not installed (cargo install cargo-fuzz --locked)");
        return;
    }
    let dir = scratch("overnight-shards");
    let corpus = dir.join("corpus");
    let shards = dir.join("shards");
    // Two shards of one job: replicas, as on two machines; then the merge.
    let seconds = |csv: &str| -> u64 {
        let line = csv
            .lines()
            .find(|l| l.starts_with("differential-omok,"))
            .unwrap_or_else(|| panic!("{csv}"));
        line.split(',').nth(1).unwrap().parse().unwrap()
    };
    let mut total = 0;
    for k in 1..=2 {
        let out = overnight()
            .args(["--minutes", "0.1", "--shard", &format!("{k}/2"), "--out"])
            .arg(&shards)
            .arg("differential-omok")
            .env("FUZZ_CORPUS", &corpus)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "shard {k}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        let csv =
            std::fs::read_to_string(shards.join(format!("shard-{k}-of-2/report.csv"))).unwrap();
        assert!(csv.trim_end().ends_with(",yes"), "{csv}");
        total += seconds(&csv);
    }
    let files = |d: &Path| -> BTreeSet<String> {
        std::fs::read_dir(d)
            .map(|e| {
                e.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    let one = files(&shards.join("shard-1-of-2/corpus/differential-omok"));
    let two = files(&shards.join("shard-2-of-2/corpus/differential-omok"));
    assert!(!one.is_empty() && !two.is_empty());
    let out = overnight()
        .arg("--merge")
        .arg(&shards)
        .env("FUZZ_CORPUS", &corpus)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let merged = files(&corpus.join("differential-omok"));
    // One corpus: every input of it comes from a shard (libFuzzer names them by content), and
    // it is at least as big as the bigger shard's minimal corpus.
    assert!(!merged.is_empty());
    assert!(
        merged.iter().all(|f| one.contains(f) || two.contains(f)),
        "{merged:?}"
    );
    let csv = std::fs::read_to_string(shards.join("report.csv")).unwrap();
    assert_eq!(seconds(&csv), total, "{csv}");
    let summary = std::fs::read_to_string(shards.join("summary.md")).unwrap();
    assert!(summary.contains("2 shards merged"), "{summary}");
    // Without one shard the merge says so.
    std::fs::rename(shards.join("shard-2-of-2"), dir.join("away")).unwrap();
    let out = overnight()
        .arg("--merge")
        .arg(&shards)
        .env("FUZZ_CORPUS", &corpus)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("shard 2/2: missing"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A stand-in `cargo` first on the PATH: `cargo metadata` is the real one (it reads manifests,
/// builds nothing); anything else is written to `dir/cargo.log` and then, as a build would,
/// takes a minute (after touching `dir/cargo-started`).
fn fake_cargo(dir: &Path) -> String {
    use std::os::unix::fs::PermissionsExt;
    let bin = dir.join("fake-cargo");
    std::fs::create_dir_all(&bin).unwrap();
    let real = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let cargo = bin.join("cargo");
    std::fs::write(
        &cargo,
        format!(
            "#!/bin/sh\nif [ \"$1\" = metadata ]; then exec '{real}' \"$@\"; fi\n\
             echo \"$*\" >> '{log}'\ntouch '{started}'\nexec sleep 60\n",
            log = dir.join("cargo.log").display(),
            started = dir.join("cargo-started").display(),
        ),
    )
    .unwrap();
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// `--list`, `--help` and an unknown job answer in a moment and build nothing (`--list` built
/// the judge first: minutes on a fresh clone; an unknown job was refused after the build).
#[test]
fn overnight_lists_helps_and_refuses_without_building() {
    let dir = scratch("overnight-nobuild");
    let path = fake_cargo(&dir);
    let quick = |args: &[&str]| {
        let started = std::time::Instant::now();
        let out = overnight()
            .env_remove("JUDGE")
            .env_remove("FUZZ_BIN")
            .env("PATH", &path)
            .args(args)
            .output()
            .unwrap();
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "{args:?} took {:?}",
            started.elapsed()
        );
        out
    };
    let list = quick(&["--list"]);
    assert_eq!(list.status.code(), Some(0), "{}", text(&list.stderr));
    assert_eq!(lines(&list.stdout).len(), 3 * problem_ids().len());
    let help = quick(&["--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(
        text(&help.stdout).contains("--list"),
        "{}",
        text(&help.stdout)
    );
    let unknown = quick(&["--minutes", "1", "parse-omok", "parse-chess"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        text(&unknown.stderr).contains("unknown job(s): parse-chess"),
        "{}",
        text(&unknown.stderr)
    );
    assert!(
        !dir.join("cargo.log").exists(),
        "cargo was asked to build: {}",
        std::fs::read_to_string(dir.join("cargo.log")).unwrap_or_default()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Before a build the script says what it builds and that the budget starts after it, and
/// Ctrl-C during the build (SIGINT to the foreground process group, as a terminal sends it)
/// exits 2, as in every other phase (it was 130).
#[test]
fn overnight_announces_its_build_and_ctrl_c_during_it_exits_2() {
    use std::os::unix::process::CommandExt;
    for (name, judge_built) in [("judge", false), ("targets", true)] {
        let dir = scratch(&format!("overnight-ctrl-c-{name}"));
        let path = fake_cargo(&dir);
        let mut command = overnight();
        command
            .env("PATH", &path)
            .env_remove("FUZZ_BIN")
            .env("FUZZ_CORPUS", dir.join("corpus"))
            .args(["--minutes", "1", "--out"])
            .arg(dir.join("night"))
            .arg("parse-omok")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .process_group(0);
        if !judge_built {
            command.env_remove("JUDGE");
        }
        let child = command.spawn().unwrap();
        let started = std::time::Instant::now();
        while !dir.join("cargo-started").exists() {
            assert!(started.elapsed().as_secs() < 60, "{name}: no build started");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let group = child.id() as i32;
        // SAFETY: no preconditions; the group is the script's own (process_group(0)).
        assert_eq!(unsafe { libc::kill(-group, libc::SIGINT) }, 0);
        let out = child.wait_with_output().unwrap();
        assert!(
            started.elapsed().as_secs() < 30,
            "{name}: the script waited for the build"
        );
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(
            stderr.contains("interrupted while building"),
            "{name}: {stderr}"
        );
        let announced = if judge_built {
            "the fuzz targets (cargo fuzz build -s none)"
        } else {
            "the judge (cargo build --release)"
        };
        assert!(
            stderr.contains("overnight.sh: building ")
                && stderr.contains(announced)
                && stderr.contains("the fuzzing budget of 60s starts after it"),
            "{name}: {stderr}"
        );
        let log = std::fs::read_to_string(dir.join("cargo.log")).unwrap();
        assert!(
            log.starts_with(if judge_built {
                "fuzz build"
            } else {
                "build --release"
            }) || (judge_built && log.starts_with("install cargo-fuzz")),
            "{name}: {log}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
