//! The Kubernetes Indexed Job manifest kept in `docs/kubernetes/` keeps its contract with
//! `--shard auto`: its shard pods' command, run with the variables Kubernetes and the manifest
//! give each pod (JOB_COMPLETION_INDEX, BOARDJUDGE_SHARDS), and its merge Job's command give
//! the single-machine run's result. (No cluster here: the pods' environment is what is
//! tested; the schema was checked with `kubernetes-validate --strict -k 1.30.0`.)

use std::path::Path;

use crate::generation::scratch;
use crate::shards::{clean_judge, without_timings};
use crate::util::*;

const MANIFEST: &str = "docs/kubernetes/stress-indexed-job.yaml";

/// `key: value` of the first line in `doc` with that key (indentation ignored).
fn scalar<'a>(doc: &'a str, key: &str) -> Option<&'a str> {
    doc.lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix(&format!("{key}:")))
        .map(|v| v.trim().trim_matches('"'))
}

/// The first `command: [a, b, "c"]` of `doc`, as words.
fn command(doc: &str) -> Vec<String> {
    let line = doc
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("command: ["))
        .unwrap_or_else(|| panic!("no flow-style command in {doc}"));
    line.trim_start_matches("command: [")
        .trim_end_matches(']')
        .split(',')
        .map(|w| w.trim().trim_matches('"').to_string())
        .collect()
}

/// The value of every env entry `- name: NAME` / `value: "V"` in `doc`.
fn env(doc: &str, name: &str) -> Vec<String> {
    let lines: Vec<&str> = doc.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter(|w| {
            w[0].trim_start_matches("- ")
                .split('#')
                .next()
                .map(str::trim)
                == Some(&format!("name: {name}"))
        })
        .filter_map(|w| w[1].strip_prefix("value:"))
        .map(|v| v.trim().trim_matches('"').to_string())
        .collect()
}

/// The words of a manifest command for this machine: `judge` the binary under test, the
/// volume `/results` a scratch folder, and `--cases` smaller (the manifest's ten million take
/// minutes; the contract is the same).
fn localise(words: &[String], results: &Path) -> Vec<String> {
    let mut out: Vec<String> = words
        .iter()
        .map(|w| match w.strip_prefix("/results") {
            Some(rest) => format!("{}{rest}", results.display()),
            None => w.clone(),
        })
        .collect();
    if let Some(i) = out.iter().position(|w| w == "--cases") {
        out[i + 1] = "20000".to_string();
    }
    assert_eq!(out[0], "judge", "{words:?}");
    out.remove(0);
    out
}

#[test]
fn the_manifest_runs_as_an_indexed_job_and_merges_to_the_single_run() {
    let text_of =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(MANIFEST)).unwrap();
    let docs: Vec<&str> = text_of.split("\n---\n").skip(1).collect();
    assert_eq!(docs.len(), 3, "PVC, shards' Job, merge Job");
    let pvc = docs
        .iter()
        .find(|d| scalar(d, "kind") == Some("PersistentVolumeClaim"))
        .unwrap();
    let claim = scalar(pvc, "name").unwrap();
    let shards = docs
        .iter()
        .find(|d| scalar(d, "completionMode") == Some("Indexed"))
        .expect("an Indexed Job");
    let merge = docs
        .iter()
        .find(|d| scalar(d, "name") == Some("boardjudge-merge"))
        .expect("the merge Job");
    let n: u64 = scalar(shards, "completions").unwrap().parse().unwrap();
    assert_eq!(scalar(shards, "parallelism"), Some(n.to_string().as_str()));
    // BOARDJUDGE_SHARDS repeats the completions, in the pods and in the merge's wait.
    assert_eq!(env(shards, "BOARDJUDGE_SHARDS"), [n.to_string()]);
    assert_eq!(env(merge, "BOARDJUDGE_SHARDS"), [n.to_string()]);
    for doc in [shards, merge] {
        assert_eq!(scalar(doc, "claimName"), Some(claim));
        assert!(doc.contains("mountPath: /results"));
    }
    let shard_command = command(shards);
    let at = |flag: &str| {
        shard_command
            .iter()
            .position(|w| w == flag)
            .map(|i| shard_command[i + 1].as_str())
    };
    assert_eq!(at("--shard"), Some("auto"));
    assert_eq!(at("--save"), Some("/results"));
    let merge_command = command(merge);
    assert_eq!(merge_command[..3], ["judge", "merge", "/results"]);

    // Each pod: JOB_COMPLETION_INDEX from Kubernetes, BOARDJUDGE_SHARDS from the manifest.
    let dir = scratch("kubernetes");
    let results = dir.join("results");
    for index in 0..n {
        let out = clean_judge()
            .args(localise(&shard_command, &results))
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .env("BOARDJUDGE_SHARDS", n.to_string())
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "pod {index}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(&format!(
                "shard {}/{n} (from JOB_COMPLETION_INDEX={index} of BOARDJUDGE_SHARDS={n})",
                index + 1
            )),
            "{}",
            text(&out.stderr)
        );
    }
    let merged = clean_judge()
        .args(localise(&merge_command, &results))
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
    // The single run of the same campaign (the command without --shard and --save).
    let mut single = localise(&shard_command, &results);
    for flag in ["--save", "--shard"] {
        let i = single.iter().position(|w| w == flag).unwrap();
        single.drain(i..i + 2);
    }
    let single = clean_judge().args(&single).output().unwrap();
    assert_eq!(single.status.code(), Some(0));
    assert_eq!(
        without_timings(&merged.stdout),
        without_timings(&single.stdout)
    );
    assert!(results.join("campaign.html").is_file());
    // A pod without the manifest's BOARDJUDGE_SHARDS fails clearly (exit 2), writing nothing.
    let out = clean_judge()
        .args(localise(&shard_command, &dir.join("other")))
        .env("JOB_COMPLETION_INDEX", "0")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("BOARDJUDGE_SHARDS is not"));
    assert!(!dir.join("other").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
