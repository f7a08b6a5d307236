//! A real scheduler: a one-node Slurm cluster on this machine (`.ci/slurm/start.sh`; `.ci/run`
//! starts it and exports SLURM_CONF, else this test starts its own), job arrays of shards
//! (`--shard auto`), `judge merge`, and the single-machine run to compare with.
//!
//! Where Slurm cannot start (not root, no slurm-wlm/munge) the test prints `SKIPPED: reason`
//! and passes — except under CI=true with the packages installed: then it fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::generation::scratch;
use crate::shards::{SCHEDULER_VARIABLES, clean_judge, solver_program, without_timings};
use crate::util::*;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The cluster the test submits to; stopped at the end if the test started it.
struct Cluster {
    conf: String,
    /// The state folder of a cluster this test started.
    ours: Option<PathBuf>,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Some(dir) = &self.ours {
            let _ = Command::new(root().join(".ci/slurm/stop.sh"))
                .arg(dir)
                .status();
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn answers(conf: &str) -> bool {
    Command::new("sinfo")
        .arg("-h")
        .env("SLURM_CONF", conf)
        .output()
        .is_ok_and(|o| o.status.success() && !o.stdout.is_empty())
}

/// The running cluster of SLURM_CONF, or one started here; `None` (after saying SKIPPED) if
/// Slurm cannot run on this machine.
fn cluster() -> Option<Cluster> {
    if let Ok(conf) = std::env::var("SLURM_CONF")
        && answers(&conf)
    {
        return Some(Cluster { conf, ours: None });
    }
    // Not under target/: munged must reach its socket folder, so every folder above it needs
    // o+x, which /tmp has.
    let dir = std::env::temp_dir().join(format!("boardjudge-slurm-cluster-{}", std::process::id()));
    let out = Command::new(root().join(".ci/slurm/start.sh"))
        .arg(&dir)
        .stderr(Stdio::inherit())
        .output()
        .expect("run .ci/slurm/start.sh");
    let stdout = text(&out.stdout);
    if out.status.code() == Some(0) {
        let conf = stdout
            .trim()
            .strip_prefix("export SLURM_CONF=")
            .expect("start.sh prints the export")
            .to_string();
        return Some(Cluster {
            conf,
            ours: Some(dir),
        });
    }
    let _ = std::fs::remove_dir_all(&dir);
    let installed = Command::new("sh")
        .args([
            "-c",
            "command -v slurmctld && command -v slurmd && command -v munged",
        ])
        .output()
        .is_ok_and(|o| o.status.success());
    let why = stdout.trim().to_string();
    assert!(
        !(std::env::var("CI").is_ok_and(|v| v == "true") && installed),
        "Slurm is installed but the cluster did not start under CI: {why}"
    );
    skipped(why.strip_prefix("SKIPPED: ").unwrap_or(&why));
    None
}

impl Cluster {
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.env("SLURM_CONF", &self.conf);
        for name in SCHEDULER_VARIABLES {
            command.env_remove(name);
        }
        command
    }

    /// `sbatch --array=ARRAY` of a shell script running `line`; the job id.
    fn submit(&self, dir: &Path, name: &str, array: &str, line: &str) -> String {
        self.sbatch(
            dir,
            name,
            &["--array", array],
            line,
            &format!("{name}-%a.out"),
        )
    }

    /// `sbatch EXTRA` of a shell script running `line`, its standard output into
    /// `dir/OUTPUT` and its standard error into `dir/OUTPUT.err`; the job id.
    fn sbatch(&self, dir: &Path, name: &str, extra: &[&str], line: &str, output: &str) -> String {
        let script = dir.join(format!("{name}.sh"));
        std::fs::write(&script, format!("#!/bin/sh\n{line}\n")).unwrap();
        let out = self
            .command("sbatch")
            .args(["--parsable", "-J", name])
            .args(extra)
            .arg("-o")
            .arg(dir.join(output))
            .arg("-e")
            .arg(dir.join(format!("{output}.err")))
            .arg(&script)
            .output()
            .unwrap();
        assert!(out.status.success(), "sbatch: {}", text(&out.stderr));
        text(&out.stdout)
            .trim()
            .split(';')
            .next()
            .unwrap()
            .to_string()
    }

    /// Waits until job `id` (every task of an array) has left the queue. (`sbatch --wait`
    /// polls at 2, 10, 42, then every 32 s: polling squeue is much quicker.)
    fn wait(&self, id: &str, limit: Duration) {
        let started = Instant::now();
        loop {
            let out = self
                .command("squeue")
                .args(["-h", "-j", id])
                .output()
                .unwrap();
            if out.status.success() && out.stdout.is_empty() {
                return;
            }
            if started.elapsed() > limit {
                let _ = self.command("scancel").arg(id).status();
                panic!(
                    "job {id} still queued after {limit:?}: {}",
                    text(&out.stdout)
                );
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn state(&self, id: &str) -> String {
        text(
            &self
                .command("scontrol")
                .args(["show", "job", id])
                .output()
                .unwrap()
                .stdout,
        )
    }
}

fn shell_quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

#[test]
fn slurm_job_arrays_of_shards_merge_to_the_single_machine_run() {
    let Some(cluster) = cluster() else {
        return;
    };
    let dir = scratch("slurm");
    std::fs::create_dir_all(&dir).unwrap();
    let judge_bin = shell_quote(Path::new(env!("CARGO_BIN_EXE_judge")));

    // 1. A stress campaign against a wrong submission, as sbatch --array=1-4.
    let wrong = solver_program(&dir.join("bin"), "omok--access-wrap-negative");
    let shards = dir.join("stress-shards");
    let id = cluster.submit(
        &dir,
        "stress",
        "1-4",
        &format!(
            "exec {judge_bin} stress omok --seed 1 --cases 4000 --jobs 1 --shard auto --save {} -- {}",
            shell_quote(&shards),
            shell_quote(&wrong)
        ),
    );
    // The merge as a job of its own, after every task of the array (the README's recipe).
    let merge_id = cluster.sbatch(
        &dir,
        "merge",
        &[&format!("--dependency=afterany:{id}")],
        &format!("exec {judge_bin} merge {}", shell_quote(&shards)),
        "merge.out",
    );
    // 2. Many submissions at once, as sbatch --array=0-3 (Slurm's ids need not start at 1).
    let tests = dir.join("tests");
    let out = judge()
        .args(["testset", "omok", "--seed", "1", "--out"])
        .arg(&tests)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let subs = dir.join("subs");
    for name in [
        "omok--fast",
        "omok--reference",
        "omok--six-counts-as-five",
        "omok--access-wrap-negative",
        "omok--edge-off-by-one",
    ] {
        solver_program(&subs, name);
    }
    let run_shards = dir.join("run-shards");
    let run_id = cluster.submit(
        &dir,
        "run",
        "0-3",
        &format!(
            "exec {judge_bin} run omok --tests {} --submissions {} --jobs 1 --shard auto --save {}",
            shell_quote(&tests),
            shell_quote(&subs),
            shell_quote(&run_shards)
        ),
    );
    // The single-machine runs, meanwhile.
    let single = clean_judge()
        .args([
            "stress", "omok", "--seed", "1", "--cases", "4000", "--jobs", "1", "--",
        ])
        .arg(&wrong)
        .output()
        .unwrap();
    assert_eq!(single.status.code(), Some(1), "{}", text(&single.stderr));
    let single_run = clean_judge()
        .args(["run", "omok", "--tests"])
        .arg(&tests)
        .arg("--submissions")
        .arg(&subs)
        .output()
        .unwrap();
    assert_eq!(
        single_run.status.code(),
        Some(1),
        "{}",
        text(&single_run.stderr)
    );

    cluster.wait(&id, Duration::from_secs(240));
    cluster.wait(&merge_id, Duration::from_secs(120));
    cluster.wait(&run_id, Duration::from_secs(240));
    // Every task found a disagreement of its own and exited 1, saying which shard it was.
    let state = cluster.state(&id);
    assert_eq!(state.matches("ExitCode=1:0").count(), 4, "{state}");
    for task in 1..=4 {
        let output = std::fs::read_to_string(dir.join(format!("stress-{task}.out.err"))).unwrap();
        assert!(
            output.contains(&format!(
                "shard {task}/4 (from SLURM_ARRAY_TASK_ID={task} of the job array 1-4)"
            )),
            "{output}"
        );
        assert!(
            shards
                .join(format!("shard-{task}-of-4/summary.json"))
                .is_file()
        );
    }
    for task in 0..=3 {
        assert!(
            run_shards
                .join(format!("shard-{}-of-4/summary.json", task + 1))
                .is_file()
        );
    }
    let merged = std::fs::read(dir.join("merge.out")).unwrap();
    assert_eq!(without_timings(&merged), without_timings(&single.stdout));
    let state = cluster.state(&merge_id);
    assert!(state.contains("ExitCode=1:0"), "{state}");
    let merged_run = judge().arg("merge").arg(&run_shards).output().unwrap();
    assert_eq!(
        merged_run.status.code(),
        Some(1),
        "{}",
        text(&merged_run.stderr)
    );
    assert_eq!(text(&merged_run.stdout), text(&single_run.stdout));

    // 3. scancel (what a time limit does: SIGCONT + SIGTERM) stops an in-process shard: it
    // exits 2, says how far it got, and leaves only an interrupted result.
    let long = dir.join("long-shards");
    let long_id = cluster.submit(
        &dir,
        "long",
        "1",
        &format!(
            "exec {judge_bin} stress renju --seed 7 --cases 1000000000 --shard 1/2 --save {}",
            shell_quote(&long)
        ),
    );
    let started = Instant::now();
    while !cluster.state(&long_id).contains("JobState=RUNNING") {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the job never ran"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    std::thread::sleep(Duration::from_millis(1500));
    let status = cluster.command("scancel").arg(&long_id).status().unwrap();
    assert!(status.success());
    cluster.wait(&long_id, Duration::from_secs(90));
    let output = std::fs::read_to_string(dir.join("long-1.out.err")).unwrap();
    assert!(output.contains("interrupted: stopped after"), "{output}");
    assert!(!output.contains("no disagreement"), "{output}");
    assert!(long.join("shard-1-of-2.interrupted/summary.json").is_file());
    assert!(!long.join("shard-1-of-2").exists());
    let out = judge().arg("merge").arg(&long).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("shard 1/2: interrupted after"));
    let _ = std::fs::remove_dir_all(&dir);
}
