//! Issue 33, red-team round 4: what a hostile contestant controls besides the program — its
//! file or folder name, the shard folders `judge merge` reads, what its build costs the judge,
//! and files in a folder submission that a language would run instead of the sources shown.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::generation::scratch;
use crate::util::*;

fn run(command: &mut Command) -> Output {
    let out = command.output().unwrap();
    assert_no_panic(&out);
    out
}

/// An omok test set of two generated tests.
fn two_tests(dir: &Path) -> PathBuf {
    let tests = dir.join("tests");
    let out = run(judge()
        .args(["gen", "omok", "--seed", "3", "--count", "2", "--out"])
        .arg(&tests));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    tests
}

/// Names a contestant may give a submission: a line break that would forge a row of the
/// table, terminal escapes (a title change, a screen clear, a bell), a bidirectional override,
/// spreadsheet formulas, markup, a tab, and a name of 250 characters.
fn hostile_names() -> Vec<String> {
    vec![
        "evil\nforged-row      2    0    0    0    0    0    0  -".to_string(),
        "\x1b]0;pwned\x07\x1b[2Jclear".to_string(),
        "\u{202e}txt.exe".to_string(),
        "=1+2".to_string(),
        "+cmd".to_string(),
        "-2+3".to_string(),
        "@SUM(A1)".to_string(),
        "<script>alert(1)<\\script>".to_string(),
        "tab\there".to_string(),
        format!("long-{}", "n".repeat(245)),
    ]
}

/// The characters that must never reach a terminal or a report raw (a line break and a tab
/// are the format's own; the table is checked for them line by line).
fn raw_controls(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| {
            (c.is_control() && c != '\n' && c != '\t') || ('\u{202a}'..='\u{202e}').contains(&c)
        })
        .collect()
}

#[test]
fn hostile_submission_names_never_forge_a_row_or_reach_a_terminal_or_report_raw() {
    let dir = scratch("hostile-names");
    let tests = two_tests(&dir);
    let subs = dir.join("subs");
    std::fs::create_dir_all(&subs).unwrap();
    let names = hostile_names();
    for name in &names {
        let path = subs.join(name);
        // Wrong on every test: each name gets a row with a first failing test.
        std::fs::write(&path, "#!/bin/sh\necho wrong\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let report = |ext: &str| dir.join(format!("report.{ext}"));
    let mut table = None;
    for ext in ["csv", "json", "xml", "html"] {
        let out = run(judge()
            .args(["run", "omok", "--tests"])
            .arg(&tests)
            .arg("--submissions")
            .arg(&subs)
            .arg("--report")
            .arg(report(ext)));
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let stderr = text(&out.stderr);
        assert_eq!(raw_controls(&stdout), [], "{stdout}");
        assert_eq!(raw_controls(&stderr), [], "{stderr}");
        table = Some(stdout);
    }
    // The table: a header, one line per submission, the totals: no forged row.
    let table = table.unwrap();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), names.len() + 2, "{table}");
    assert!(
        lines.iter().all(|l| !l.starts_with("forged-row")),
        "{table}"
    );
    assert!(!table.contains('\t'), "a tab moves the columns: {table}");
    assert!(table.contains("evil\\nforged-row"), "{table}");
    assert!(table.contains("\\x1b]0;pwned\\x07\\x1b[2Jclear"), "{table}");
    // A long name is cut in the table (the reports keep it whole).
    assert!(lines.iter().all(|l| l.chars().count() < 150), "{table}");
    // CSV: one record per submission, no cell a spreadsheet evaluates.
    let csv = std::fs::read_to_string(report("csv")).unwrap();
    assert_eq!(raw_controls(&csv), [], "{csv}");
    assert_eq!(csv.lines().count(), names.len() + 1, "{csv}");
    for line in csv.lines().skip(1) {
        let first = line.trim_start_matches('"');
        assert!(!first.starts_with(['=', '+', '-', '@']), "{line}");
    }
    for formula in ["'=1+2", "'+cmd", "'-2+3", "'@SUM(A1)"] {
        assert!(
            csv.lines().any(|l| l.starts_with(formula)),
            "{formula}: {csv}"
        );
    }
    // JSON: reads back, every submission there.
    let json = std::fs::read_to_string(report("json")).unwrap();
    assert_eq!(raw_controls(&json), [], "{json}");
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["submissions"].as_array().unwrap().len(), names.len());
    // JUnit: well-formed XML, one suite per submission.
    let xml = std::fs::read_to_string(report("xml")).unwrap();
    assert_eq!(raw_controls(&xml), [], "{xml}");
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let suites = doc
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .count();
    assert_eq!(suites, names.len());
    // HTML: the markup is text.
    let html = std::fs::read_to_string(report("html")).unwrap();
    assert_eq!(raw_controls(&html), [], "{html}");
    assert!(!html.contains("<script>alert"), "markup in a name ran");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;\\script&gt;"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A hand-written `judge run --submissions` shard result: `submissions` in the campaign,
/// each judged on `rows` tests (AC).
fn run_shard(k: u64, n: u64, submissions: &[&str], judged: &[&str], rows: usize) -> String {
    let judged: Vec<serde_json::Value> = judged
        .iter()
        .map(|name| {
            serde_json::json!({
                "name": name,
                "compile_error": null,
                "rows": (0..rows).map(|t| serde_json::json!({
                    "test": format!("{t:03}"),
                    "verdict": "AC",
                    "cpu_ms": 1, "wall_ms": 1, "peak_kb": 1,
                    "exit": "exit 0", "message": ""
                })).collect::<Vec<_>>()
            })
        })
        .collect();
    serde_json::json!({
        "format": "boardjudge-shard/1",
        "command": "run",
        "judge_version": "0.1.0",
        "shard": {"k": k, "n": n},
        "complete": true,
        "campaign": {
            "problem": "omok", "tests": 2, "tests_digest": "fnv1a64:0",
            "time_limit_ms": 2000, "memory_limit_mb": 256,
            "submissions": submissions
        },
        "tests_dir": "tests",
        "isolation": "sandbox \x1b[31mred\nforged line",
        "judged": judged
    })
    .to_string()
}

fn shard_folder(dir: &Path, name: &str, summary: &str) {
    std::fs::create_dir_all(dir.join(name)).unwrap();
    std::fs::write(dir.join(name).join("summary.json"), summary).unwrap();
}

/// `judge merge DIR` with a time limit: a merge that waits on a named pipe is a hang.
fn merge_within(dir: &Path, limit: Duration) -> Output {
    let mut child = judge()
        .arg("merge")
        .arg(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "judge merge {} still running after {limit:?}",
                dir.display()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert_no_panic(&out);
    out
}

#[test]
fn shard_folders_are_untrusted_input_to_merge() {
    let dir = scratch("merge-untrusted");
    // A consistent pair of shards with a hostile name and isolation line: merged, shown
    // escaped.
    let ok = dir.join("ok");
    let all = ["a", "evil\nforged"];
    shard_folder(&ok, "shard-1-of-2", &run_shard(1, 2, &all, &["a"], 2));
    shard_folder(
        &ok,
        "shard-2-of-2",
        &run_shard(2, 2, &all, &["evil\nforged"], 2),
    );
    let out = merge_within(&ok, Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(raw_controls(&stdout), []);
    assert_eq!(raw_controls(&stderr), []);
    assert!(!stdout.lines().any(|l| l.starts_with("forged")), "{stdout}");
    assert!(!stderr.lines().any(|l| l.starts_with("forged")), "{stderr}");
    assert!(stderr.contains("\\x1b[31mred\\nforged line"), "{stderr}");

    // Forged or inconsistent shards: named, refused with exit 2.
    let refused = |name: &str, shards: &[(&str, String)], says: &str| {
        let case = dir.join(name);
        for (folder, summary) in shards {
            shard_folder(&case, folder, summary);
        }
        let out = merge_within(&case, Duration::from_secs(30));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains(says), "{name}: {stderr}");
        assert_eq!(raw_controls(&stderr), [], "{name}");
        case
    };
    refused(
        "twice",
        &[("shard-1-of-1", run_shard(1, 1, &["a", "a"], &["a", "a"], 2))],
        "lists submission 'a' twice",
    );
    refused(
        "rows",
        &[("shard-1-of-1", run_shard(1, 1, &["a"], &["a"], 5))],
        "'a' has 5 rows, the campaign 2 tests",
    );
    refused(
        "problem",
        &[
            ("shard-1-of-2", run_shard(1, 2, &["a", "b"], &["a"], 2)),
            (
                "shard-2-of-2",
                run_shard(2, 2, &["a", "b"], &["b"], 2).replace("\"omok\"", "\"renju\""),
            ),
        ],
        "not of one campaign",
    );
    refused(
        "many-shards",
        &[(
            "shard-1-of-18446744073709551615",
            run_shard(1, u64::MAX, &["a"], &["a"], 2),
        )],
        "more than the 100000",
    );

    // A named pipe for a summary: an error at once, not a wait for a writer.
    let fifo = dir.join("fifo");
    std::fs::create_dir_all(fifo.join("shard-1-of-1")).unwrap();
    let made = Command::new("mkfifo")
        .arg(fifo.join("shard-1-of-1/summary.json"))
        .status()
        .unwrap();
    assert!(made.success());
    let out = merge_within(&fifo, Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("a named pipe, not a regular file"));

    // A shard folder that is a link out of the folder: refused, not followed.
    let outside = dir.join("outside");
    shard_folder(
        &outside,
        "shard-1-of-1",
        &run_shard(1, 1, &["a"], &["a"], 2),
    );
    let linked = dir.join("linked");
    std::fs::create_dir_all(&linked).unwrap();
    std::os::unix::fs::symlink(outside.join("shard-1-of-1"), linked.join("shard-1-of-1")).unwrap();
    let out = merge_within(&linked, Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("a symbolic link, not a shard's folder"));

    // A summary beyond the size cap (sparse: nothing is written) is not read.
    let big = dir.join("big");
    std::fs::create_dir_all(big.join("shard-1-of-1")).unwrap();
    std::fs::File::create(big.join("shard-1-of-1/summary.json"))
        .unwrap()
        .set_len(300 << 20)
        .unwrap();
    let out = merge_within(&big, Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("more than the 256 MiB"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_five_line_source_that_builds_a_100_mib_program_is_a_compile_error() {
    let dir = scratch("huge-artefact");
    let tests = two_tests(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let source = dir.join("src/huge.c");
    std::fs::write(
        &source,
        "#include <stdio.h>\n\
         char big[100 << 20] = {1};\n\
         int main(int argc, char **argv) {\n\
             printf(\"%d\\n\", big[argc * 12345]);\n\
         }\n",
    )
    .unwrap();
    let out = run(judge()
        .env("BOARDJUDGE_BUILD_CACHE", "off")
        .args(["run", "omok", "--tests"])
        .arg(&tests)
        .arg("--")
        .arg(&source));
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(all.contains("CE"), "{all}");
    assert!(
        all.contains("the program built is more than 64 MiB"),
        "{all}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_folder_whose_pyc_would_replace_its_py_is_refused() {
    let python = Path::new("/usr/bin/python3");
    if !python.exists() {
        skipped("python3 is not installed");
        return;
    }
    let dir = scratch("pyc-attack");
    let tests = two_tests(&dir);
    // The folder shows an honest helper; its bytecode (unchecked hash: Python never looks at
    // the .py again) is another program.
    let sub = dir.join("team");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(sub.join("main.py"), "import helper\nhelper.answer()\n").unwrap();
    std::fs::write(
        sub.join("helper.py"),
        "def answer():\n    print('honest')\n",
    )
    .unwrap();
    let evil = dir.join("evil");
    std::fs::create_dir_all(&evil).unwrap();
    std::fs::write(evil.join("helper.py"), "def answer():\n    print('EVIL')\n").unwrap();
    let made = Command::new(python)
        .current_dir(&sub)
        .arg("-c")
        .arg(format!(
            "import importlib.util, py_compile\n\
             target = importlib.util.cache_from_source('helper.py')\n\
             py_compile.compile('{}', cfile=target, \
             invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)",
            evil.join("helper.py").display()
        ))
        .status()
        .unwrap();
    assert!(made.success());
    // The attack is real: Python runs the bytecode, not the source beside it.
    let direct = Command::new(python)
        .current_dir(&sub)
        .arg("main.py")
        .output()
        .unwrap();
    assert_eq!(text(&direct.stdout), "EVIL\n");
    let out = run(judge()
        .args(["run", "omok", "--tests"])
        .arg(&tests)
        .arg("--")
        .arg(&sub));
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(all.contains("CE"), "{all}");
    assert!(all.contains("__pycache__/helper."), "{all}");
    assert!(all.contains("compiled or generated file"), "{all}");
    // The report says so too.
    let report = dir.join("report.xml");
    let out = run(judge()
        .args(["run", "omok", "--tests"])
        .arg(&tests)
        .arg("--report")
        .arg(&report)
        .arg("--")
        .arg(&sub));
    assert_eq!(out.status.code(), Some(1));
    let xml = std::fs::read_to_string(&report).unwrap();
    assert!(
        xml.contains("type=\"CE\"") && xml.contains("__pycache__/helper."),
        "{xml}"
    );
    // Without the bytecode the same folder is judged (WA: it prints `honest`).
    std::fs::remove_dir_all(sub.join("__pycache__")).unwrap();
    let out = run(judge()
        .args(["run", "omok", "--tests"])
        .arg(&tests)
        .arg("--")
        .arg(&sub));
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!all.contains("CE"), "{all}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The judge's peak resident memory (KiB) while it runs `command` to its end, with its output.
fn peak_kib(command: &mut Command) -> (Output, i64) {
    // Reaped by wait4 below, which gives its resource usage (Child::wait does not).
    #[allow(clippy::zombie_processes)]
    let child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    // Read the pipes first (a full pipe would stop the judge), then reap it with its usage.
    let stdout = std::thread::spawn({
        let mut pipe = child.stdout.unwrap();
        move || {
            let mut all = Vec::new();
            std::io::Read::read_to_end(&mut pipe, &mut all).unwrap();
            all
        }
    });
    let mut stderr = Vec::new();
    std::io::Read::read_to_end(&mut child.stderr.unwrap(), &mut stderr).unwrap();
    let stdout = stdout.join().unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, which nothing else reaps.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid);
    let status = std::os::unix::process::ExitStatusExt::from_raw(status);
    (
        Output {
            status,
            stdout,
            stderr,
        },
        usage.ru_maxrss,
    )
}

/// Issue 33.5: programs are loaded when they run, not all held at once. Twelve submissions
/// whose programs are 60 MiB each (under the 64 MiB cap): `judge strength` and `judge run
/// --submissions` hold the programs of a window (2 × jobs) and at most 256 MiB of programs
/// built before (so that a second use needs no reading back), not all twelve (720 MiB).
#[test]
fn many_big_programs_are_not_all_held_in_memory() {
    let dir = scratch("big-programs");
    let tests = two_tests(&dir);
    let wrong = dir.join("wrong");
    std::fs::create_dir_all(&wrong).unwrap();
    for k in 1..=12 {
        std::fs::write(
            wrong.join(format!("big-{k}.c")),
            format!(
                "#include <stdio.h>\n\
                 char big[60 << 20] = {{{k}}};\n\
                 int main(int argc, char **argv) {{ printf(\"%d\\n\", big[argc * 12345]); }}\n"
            ),
        )
        .unwrap();
    }
    let cache = dir.join("cache");
    for command in [
        vec![
            "strength",
            "omok",
            "--no-sanitize",
            "--wrong",
            wrong.to_str().unwrap(),
        ],
        vec!["run", "omok", "--submissions", wrong.to_str().unwrap()],
    ] {
        let (out, peak) = peak_kib(
            judge()
                .env("BOARDJUDGE_BUILD_CACHE", &cache)
                .args(&command)
                .args(["--jobs", "1", "--tests"])
                .arg(&tests),
        );
        assert_no_panic(&out);
        let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(all.contains("big-12.c"), "{command:?}: {all}");
        assert!(!all.contains("build failed"), "{command:?}: {all}");
        assert!(
            peak < 550 * 1024,
            "{command:?}: the judge's peak was {} MiB",
            peak / 1024
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
