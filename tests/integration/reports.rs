//! Reports people look at: `--report` in every format (the HTML one rendered by a real
//! browser), escaping of everything a submission writes, failures printed as they happen,
//! the answer files checked, nonsense arguments refused, a closed pipe, no file unasked.

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::generation::scratch;
use crate::util::*;

/// An omok test set of `count` generated tests.
fn omok_tests(dir: &Path, count: u32) -> PathBuf {
    let tests = dir.join("tests");
    let out = judge()
        .args([
            "gen",
            "omok",
            "--seed",
            "3",
            "--count",
            &count.to_string(),
            "--out",
        ])
        .arg(&tests)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    tests
}

/// A shell script submission.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The known-wrong and correct omok solutions (`judge solutions`), in `dir`.
fn omok_solutions(dir: &Path) -> PathBuf {
    let solutions = dir.join("solutions");
    let out = judge()
        .args(["solutions", "omok", "--out"])
        .arg(&solutions)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    solutions
}

fn run_with_report(tests: &Path, report: &Path, submission: &Path) -> std::process::Output {
    judge()
        .args(["run", "omok", "--tests"])
        .arg(tests)
        .arg("--report")
        .arg(report)
        .arg("--")
        .arg(submission)
        .output()
        .unwrap()
}

/// A wrong omok solution that reports the row and column swapped: WA wherever somebody wins.
const SWAPPED: &str = "omok--row-col-swapped.rs";

#[test]
fn report_format_follows_the_extension() {
    let dir = scratch("report-formats");
    let tests = omok_tests(&dir, 8);
    let wrong = omok_solutions(&dir).join("wrong").join(SWAPPED);
    let mut verdicts = Vec::new();
    for name in ["r.csv", "r.json", "r.xml", "r.html", "R.HTM"] {
        let report = dir.join(name);
        let out = run_with_report(&tests, &report, &wrong);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let body = std::fs::read_to_string(&report).unwrap();
        match name {
            "r.csv" => {
                let mut lines = body.lines();
                assert_eq!(
                    lines.next(),
                    Some("test,verdict,cpu_ms,wall_ms,peak_kb,exit,message")
                );
                verdicts = lines
                    .map(|l| l.split(',').nth(1).unwrap().to_string())
                    .collect();
                assert_eq!(verdicts.len(), 8);
            }
            "r.json" => {
                let rows: serde_json::Value = serde_json::from_str(&body).unwrap();
                let rows = rows.as_array().unwrap();
                let from_json: Vec<&str> = rows
                    .iter()
                    .map(|r| r["verdict"].as_str().unwrap())
                    .collect();
                assert_eq!(from_json, verdicts);
            }
            "r.xml" => {
                let doc = roxmltree::Document::parse(&body).unwrap();
                let suites: Vec<_> = doc
                    .descendants()
                    .filter(|n| n.has_tag_name("testsuite"))
                    .collect();
                assert_eq!(suites.len(), 1, "one testsuite per run");
                let cases: Vec<_> = suites[0]
                    .children()
                    .filter(|n| n.has_tag_name("testcase"))
                    .collect();
                assert_eq!(cases.len(), 8, "one testcase per test");
                let wa = verdicts.iter().filter(|v| *v == "WA").count();
                assert!(wa > 0 && wa < 8, "{verdicts:?}");
                assert_eq!(suites[0].attribute("failures"), Some(&*wa.to_string()));
                for (case, verdict) in cases.iter().zip(&verdicts) {
                    let failure = case.children().find(|n| n.has_tag_name("failure"));
                    assert_eq!(failure.is_some(), verdict == "WA");
                    if let Some(failure) = failure {
                        assert_eq!(failure.attribute("type"), Some("WA"));
                        let message = failure.attribute("message").unwrap();
                        assert!(message.starts_with("WA: expected"), "{message}");
                    }
                }
            }
            _ => {
                assert!(body.starts_with("<!DOCTYPE html>"));
                assert_eq!(body.matches("<tr class=").count(), 8);
                assert_eq!(
                    body.matches("<article class=\"failure\"").count(),
                    verdicts.iter().filter(|v| *v == "WA").count()
                );
                // Self-contained: nothing loaded from anywhere, no script.
                for banned in ["<script", "http://", "https://", "src=", "<link"] {
                    let allowed = banned == "http://"
                        && body.matches(banned).count()
                            == body.matches("xmlns=\"http://www.w3.org/2000/svg\"").count();
                    assert!(allowed || !body.contains(banned), "{banned} in the page");
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A submission that writes markup and terminal escape sequences everywhere it can.
const HOSTILE: &str = r#"cat > /dev/null
printf '<script>alert(1)</script>\033[2J\033]0;owned\007 & "q"\n'
printf '<img src=x onerror=alert(2)>\033[31m red\n' >&2
exit 0
"#;

#[test]
fn everything_a_submission_writes_is_escaped_in_every_report_and_on_the_terminal() {
    let dir = scratch("report-hostile");
    let tests = omok_tests(&dir, 2);
    let hostile = script(&dir, "hostile.sh", HOSTILE);
    let html = dir.join("r.html");
    let out = run_with_report(&tests, &html, &hostile);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    // The judge's own output shows the escape sequences, it does not send them.
    assert!(!out.stdout.contains(&0x1b) && !out.stderr.contains(&0x1b));
    assert!(
        text(&out.stdout).contains("\\x1b[2J"),
        "{}",
        text(&out.stdout)
    );
    let page = std::fs::read(&html).unwrap();
    assert!(!page.contains(&0x1b) && !page.contains(&0x07));
    let page = String::from_utf8(page).unwrap();
    assert!(!page.to_lowercase().contains("<script"));
    assert!(!page.to_lowercase().contains("<img"));
    assert!(page.contains(
        "&lt;script&gt;alert(1)&lt;/script&gt;\\x1b[2J\\x1b]0;owned\\x07 &amp; &quot;q&quot;"
    ));
    assert!(page.contains("&lt;img src=x onerror=alert(2)&gt;\\x1b[31m red"));
    // JUnit: well-formed XML (no raw control characters), the text intact once parsed.
    let xml = dir.join("r.xml");
    let out = run_with_report(&tests, &xml, &hostile);
    assert_eq!(out.status.code(), Some(1));
    let body = std::fs::read_to_string(&xml).unwrap();
    let doc = roxmltree::Document::parse(&body).unwrap();
    let stderr = doc
        .descendants()
        .find(|n| n.has_tag_name("system-err"))
        .and_then(|n| n.text())
        .unwrap();
    assert!(
        stderr.contains("<img src=x onerror=alert(2)>\\x1b[31m red"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Headless Chromium, if it is installed (`.ci/run` installs Debian's `chromium`).
fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            let out = Command::new("sh")
                .args(["-c", &format!("command -v {name}")])
                .output()
                .ok()?;
            let path = text(&out.stdout).trim().to_string();
            (out.status.success() && !path.is_empty()).then(|| PathBuf::from(path))
        })
}

/// Renders `page` in headless Chromium: its DOM after loading (`--dump-dom`), and a PNG
/// screenshot written to `png`.
fn render(browser: &Path, page: &Path, png: &Path) -> String {
    let profile = page.with_extension("profile");
    let url = format!("file://{}", page.canonicalize().unwrap().display());
    let common = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
    ];
    let run = |extra: &[String]| {
        let out = Command::new("timeout")
            .arg("120")
            .arg(browser)
            .args(common)
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(extra)
            .arg(&url)
            .output()
            .unwrap();
        assert!(out.status.success(), "chromium: {}", text(&out.stderr));
        out.stdout
    };
    run(&[
        format!("--screenshot={}", png.display()),
        "--window-size=1280,2000".to_string(),
    ]);
    let png_bytes = std::fs::read(png).unwrap();
    assert!(png_bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let width = u32::from_be_bytes(png_bytes[16..20].try_into().unwrap());
    assert_eq!(width, 1280);
    text(&run(&["--dump-dom".to_string()]))
}

#[test]
fn headless_chromium_renders_the_run_and_strength_reports() {
    let Some(browser) = chromium() else {
        skipped(
            "no chromium on this machine (Debian: apt-get install chromium; .ci/run installs it)",
        );
        return;
    };
    let dir = scratch("report-browser");
    let tests = omok_tests(&dir, 8);
    let solutions = omok_solutions(&dir);

    // judge run, with a wrong submission: the verdict table, the failing boards, the charts.
    let page = dir.join("run.html");
    let csv = dir.join("run.csv");
    let wrong = solutions.join("wrong").join(SWAPPED);
    assert_eq!(
        run_with_report(&tests, &page, &wrong).status.code(),
        Some(1)
    );
    assert_eq!(run_with_report(&tests, &csv, &wrong).status.code(), Some(1));
    let dom = render(&browser, &page, &dir.join("run.png"));
    let rows: Vec<(String, String)> = std::fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let mut fields = l.split(',');
            let test = fields.next().unwrap().to_string();
            (test, fields.next().unwrap().to_string())
        })
        .collect();
    for (test, verdict) in &rows {
        let row = format!("data-test=\"{test}\" data-verdict=\"{verdict}\"");
        assert!(
            dom.contains(&row),
            "no table row {row} in the rendered page"
        );
    }
    let failing = rows.iter().filter(|(_, v)| v != "AC").count();
    assert!(failing > 0);
    assert_eq!(dom.matches("<article class=\"failure\"").count(), failing);
    // Each failing test's board: an SVG with coordinates and the legend.
    assert!(dom.matches("<svg").count() >= failing + 2);
    assert!(dom.contains(">19</text>") && dom.contains("white stone"));
    assert!(!dom.contains("<script"));

    // The hostile submission's page renders its text as text, nothing else.
    let hostile = script(&dir, "hostile.sh", HOSTILE);
    let page = dir.join("hostile.html");
    assert_eq!(
        run_with_report(&tests, &page, &hostile).status.code(),
        Some(1)
    );
    let dom = render(&browser, &page, &dir.join("hostile.png"));
    assert!(!dom.contains("<script") && !dom.contains("<img"));
    assert!(dom.contains("&lt;img src=x onerror=alert(2)&gt;"));

    // judge strength: the kill matrix, the cover, the survivors with their families.
    let weak = dir.join("weak");
    std::fs::create_dir_all(&weak).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(&tests)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in &names[..2] {
        for ext in ["in", "ans"] {
            std::fs::copy(
                tests.join(format!("{name}.{ext}")),
                weak.join(format!("{name}.{ext}")),
            )
            .unwrap();
        }
    }
    // Two wrong solutions: one the weak set rejects, one it lets survive.
    let wrong = dir.join("wrong");
    std::fs::create_dir_all(&wrong).unwrap();
    for name in [
        "omok--six-counts-as-five.rs",
        "omok--six-disqualifies-colour.rs",
    ] {
        std::fs::copy(solutions.join("wrong").join(name), wrong.join(name)).unwrap();
    }
    let page = dir.join("strength.html");
    let out = judge()
        .args(["strength", "omok", "--tests"])
        .arg(&weak)
        .arg("--wrong")
        .arg(&wrong)
        .arg("--correct")
        .arg(solutions.join("correct"))
        .arg("--report")
        .arg(&page)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    let dom = render(&browser, &page, &dir.join("strength.png"));
    let survivors: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("SURVIVES  "))
        .map(|l| l.split(':').next().unwrap())
        .collect();
    assert!(!survivors.is_empty(), "{stdout}");
    for name in &survivors {
        assert!(dom.contains(&format!("data-survivor=\"{name}\"")), "{name}");
    }
    // 2 tests x (2 correct + 2 wrong) cells: the correct ones accepted, one rejection.
    let count = |class: &str| dom.matches(&format!("class=\"{class}\"")).count();
    assert_eq!(count("ok") + count("bad") + count("k") + count("p"), 2 * 4);
    assert_eq!((count("ok"), count("k")), (4, 1));
    assert!(dom.contains("data-survivor=\"omok--six-disqualifies-colour.rs\""));
    assert!(dom.contains("id=\"cover\""));
    // The kill matrix gets the window's width, not the text column's 1180 pixels (where a
    // matrix of 39 submissions was cut off with half the window empty beside it).
    let (matrix, window) = matrix_width(&browser, &page, 1600);
    assert!(
        matrix + 2 * 28 >= window - 1,
        "the kill matrix is {matrix} px wide in a window of {window} px"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The width of the kill matrix's box and of the window, laid out by headless Chromium in a
/// window `width` pixels wide: from a copy of `page` with a script that writes them into the
/// DOM (the page itself forbids scripts).
fn matrix_width(browser: &Path, page: &Path, width: u32) -> (u32, u32) {
    let html = std::fs::read_to_string(page).unwrap();
    let csp = html
        .find("<meta http-equiv=\"Content-Security-Policy\"")
        .expect("the page has a Content-Security-Policy");
    let csp_end = csp + html[csp..].find('>').unwrap() + 1;
    let measured = page.with_extension("measured.html");
    std::fs::write(
        &measured,
        format!("{}{}", &html[..csp], &html[csp_end..]).replace(
            "</body>",
            "<script>document.body.setAttribute('data-layout', \
             Math.round(document.getElementById('matrix').parentElement.getBoundingClientRect().width) \
             + ' ' + window.innerWidth);</script></body>",
        ),
    )
    .unwrap();
    let out = Command::new("timeout")
        .arg("120")
        .arg(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
        .arg(format!(
            "--user-data-dir={}",
            page.with_extension("measured-profile").display()
        ))
        .arg(format!("--window-size={width},1000"))
        .arg("--dump-dom")
        .arg(format!(
            "file://{}",
            measured.canonicalize().unwrap().display()
        ))
        .output()
        .unwrap();
    let dom = text(&out.stdout);
    let layout = dom
        .split("data-layout=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no layout measured: {dom}{}", text(&out.stderr)));
    let numbers: Vec<u32> = layout.split(' ').map(|n| n.parse().unwrap()).collect();
    (numbers[0], numbers[1])
}

#[test]
fn strength_writes_no_file_unless_asked() {
    let dir = scratch("report-unasked");
    let tests = omok_tests(&dir, 3);
    let solutions = omok_solutions(&dir);
    let cwd = dir.join("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    let out = judge()
        .current_dir(&cwd)
        .args(["strength", "omok", "--tests"])
        .arg(&tests)
        .arg("--wrong")
        .arg(solutions.join("wrong"))
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read_dir(&cwd).unwrap().count(),
        0,
        "files in the cwd"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nonsense_numbers_are_usage_errors() {
    let dir = scratch("report-nonsense");
    let tests = omok_tests(&dir, 1);
    let t = tests.to_str().unwrap();
    let out_dir = dir.join("out");
    let o = out_dir.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["run", "omok", "--tests", t, "--jobs", "0", "--", "true"],
        vec!["run", "omok", "--tests", t, "--jobs", "-1", "--", "true"],
        vec![
            "run", "omok", "--tests", t, "--jobs", "100000", "--", "true",
        ],
        vec![
            "run",
            "omok",
            "--tests",
            t,
            "--time-limit",
            "0",
            "--",
            "true",
        ],
        vec![
            "run",
            "omok",
            "--tests",
            t,
            "--time-limit",
            "-1",
            "--",
            "true",
        ],
        vec![
            "run",
            "omok",
            "--tests",
            t,
            "--time-limit",
            "nan",
            "--",
            "true",
        ],
        vec![
            "run",
            "omok",
            "--tests",
            t,
            "--memory-limit",
            "0",
            "--",
            "true",
        ],
        vec!["stress", "omok", "--seed", "1", "--jobs", "0"],
        vec!["stress", "omok", "--seed", "1", "--cases", "0"],
        vec!["stress", "omok", "--seed", "1", "--time", "0"],
        vec!["stress", "omok", "--seed", "1", "--time", "-5"],
        vec!["stress", "omok", "--seed", "1", "--shard", "0/4"],
        vec!["gen", "omok", "--seed", "1", "--count", "0", "--out", o],
        vec!["bench", "omok", "--cases", "0"],
        vec![
            "strength", "omok", "--tests", t, "--wrong", t, "--jobs", "0",
        ],
    ];
    for args in cases {
        let out = judge().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?} was accepted");
        assert_no_panic(&out);
        assert!(!text(&out.stderr).is_empty(), "{args:?}: no message");
    }
    assert!(!out_dir.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_malformed_or_missing_answer_file_is_a_judge_error_naming_it() {
    let dir = scratch("report-answers");
    let tests = omok_tests(&dir, 3);
    let correct = omok_solutions(&dir)
        .join("correct")
        .join("omok--reference.rs");
    // A malformed answer: exit 2, naming the file, before the submission runs.
    let bad = tests.join("001-exact-or-long.ans");
    let good = std::fs::read_to_string(&bad).unwrap();
    for broken in ["", "7\n", "1\n", "yes\n"] {
        std::fs::write(&bad, broken).unwrap();
        let out = judge()
            .args(["run", "omok", "--tests"])
            .arg(&tests)
            .arg("--")
            .arg(&correct)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{broken:?}: {}",
            text(&out.stdout)
        );
        let stderr = text(&out.stderr);
        assert!(stderr.contains(&bad.display().to_string()), "{stderr}");
        assert!(stderr.contains("does not read as an answer"), "{stderr}");
        assert!(!text(&out.stdout).contains("WA"));
    }
    // A well-formed but wrong answer: the correct submission gets WA without verification
    // (the judge trusts its answers), and verification stops the judge naming the file.
    let wrong = if good.starts_with('0') {
        "1\n1 1\n"
    } else {
        "0\n"
    };
    std::fs::write(&bad, wrong).unwrap();
    let run = |verify: bool| {
        let mut command = judge();
        command.args(["run", "omok", "--tests"]).arg(&tests);
        if verify {
            command.arg("--verify-answers");
        }
        command.arg("--").arg(&correct).output().unwrap()
    };
    let out = run(false);
    assert_eq!(out.status.code(), Some(1));
    let out = run(true);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "{}: not the reference solver's answer",
            bad.display()
        )),
        "{stderr}"
    );
    std::fs::write(&bad, &good).unwrap();
    assert_eq!(run(true).status.code(), Some(0));
    // A missing answer file: exit 2, naming it.
    std::fs::remove_file(&bad).unwrap();
    let out = run(false);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("{}: missing", bad.display())),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn failures_are_printed_as_they_happen_and_the_summary_comes_last() {
    let dir = scratch("report-streaming");
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    let empty = ("0 ".repeat(18) + "0\n").repeat(19);
    let mut five = empty.clone().into_bytes();
    for col in 0..5 {
        five[2 * 38 + 2 * col] = b'1'; // row 3, columns 1..5
    }
    std::fs::write(tests.join("a-five.in"), &five).unwrap();
    std::fs::write(tests.join("a-five.ans"), "1\n3 1\n").unwrap();
    std::fs::write(tests.join("b-empty.in"), &empty).unwrap();
    std::fs::write(tests.join("b-empty.ans"), "0\n").unwrap();
    // Always answers 0: WA on the five at once, then slow (but AC) on the empty board.
    let slow = script(
        &dir,
        "slow.sh",
        "input=$(cat)\ncase \"$input\" in *1*) echo 0 ;; *) sleep 3; echo 0 ;; esac\n",
    );
    let started = Instant::now();
    // Two slots: the tests run in a secret order (issue 25.5), so with one slot the slow test
    // may come first and hold back the failure after it; with two both start at once.
    let mut child = judge()
        .args(["run", "omok", "--jobs", "2", "--time-limit", "5", "--tests"])
        .arg(&tests)
        .arg("--")
        .arg(&slow)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        lines.push((line.unwrap(), started.elapsed()));
    }
    let status = child.wait().unwrap();
    let ended = started.elapsed();
    assert_eq!(status.code(), Some(1));
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].0.starts_with("WA   a-five"), "{lines:?}");
    assert!(
        lines[0].1 + Duration::from_secs(2) < ended,
        "the failure was printed only at the end: {lines:?}, ended {ended:?}"
    );
    assert!(
        lines[1].0.starts_with("omok: 2 of 2 tests run: AC 1, WA 1"),
        "{lines:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_closed_standard_output_ends_any_command_quietly() {
    let dir = scratch("report-pipe");
    let tests = omok_tests(&dir, 4);
    let wrong = omok_solutions(&dir).join("wrong").join(SWAPPED);
    let t = tests.to_str().unwrap();
    let w = wrong.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &[u8])> = vec![
        (vec!["problems"], b""),
        (vec!["families", "renju"], b""),
        (vec!["solve", "omok"], b""),
        (
            vec!["run", "omok", "--jobs", "1", "--tests", t, "--", w],
            b"",
        ),
        (vec!["stress", "omok", "--seed", "1", "--", w], b""),
    ];
    let board = ("0 ".repeat(18) + "0\n").repeat(19);
    for (args, _) in cases {
        // A pipe whose reading end is closed before the judge starts: its first write fails.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let mut child = judge()
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(writer)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        if let Some(mut stdin) = child.stdin.take() {
            use std::io::Write;
            let _ = stdin.write_all(board.as_bytes());
        }
        let out = child.wait_with_output().unwrap();
        assert_no_panic(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            !stderr.contains("Broken pipe") && !stderr.contains("error"),
            "{args:?}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn overnight_help_works_from_any_folder() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/overnight.sh");
    for cwd in [
        Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf(),
        std::env::temp_dir(),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz"),
    ] {
        let out = Command::new(&script)
            .arg("--help")
            .current_dir(&cwd)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "from {}", cwd.display());
        assert!(
            text(&out.stdout).contains("--hours"),
            "{}",
            text(&out.stdout)
        );
    }
    for bad in [
        &["--hours"][..],
        &["--minutes", "abc"],
        &["--hours", "0"],
        &["--bogus"],
    ] {
        let out = Command::new(&script).args(bad).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(text(&out.stderr).contains("overnight.sh:"), "{bad:?}");
    }
}

/// What `judge stress` must draw for a problem: `tests/data/<id>/picture.toml`.
#[derive(serde::Deserialize)]
struct PictureExpectations {
    /// A known-wrong solution `judge stress` finds.
    wrong: String,
    /// The legend line its picture prints.
    legend: String,
    /// A line of the board, in the problem's own letters, with its coordinates.
    board_line: String,
    /// Do the answers name cells (so the difference is marked)?
    marks: bool,
    /// Texts the SVG must show: coordinates, grid titles.
    labels: Vec<String>,
}

fn picture_expectations(problem: &str) -> PictureExpectations {
    let picture = solutions::problem_files::PICTURE;
    toml::from_str(&picture.read(problem))
        .unwrap_or_else(|e| panic!("{}: {e}", picture.relative(problem).display()))
}

#[test]
fn every_problem_draws_one_labelled_picture_with_a_legend_and_an_unclipped_svg() {
    let dir = scratch("report-pictures");
    for problem in problem_ids() {
        let PictureExpectations {
            wrong,
            legend,
            board_line,
            marks,
            labels,
        } = picture_expectations(problem);
        let (legend, board_line) = (legend.as_str(), board_line.as_str());
        let solutions = dir.join(problem);
        let out = judge()
            .args(["solutions", problem, "--out"])
            .arg(&solutions)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let saved = dir.join(format!("{problem}-found"));
        let out = judge()
            .args(["stress", problem, "--seed", "1", "--save"])
            .arg(&saved)
            .arg("--")
            .arg(solutions.join("wrong").join(format!("{wrong}.rs")))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{wrong}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        // One picture: the board's header (or a grid's title) once, the legend once.
        assert_eq!(stdout.matches(board_line).count(), 1, "{wrong}:\n{stdout}");
        assert_eq!(
            stdout.lines().filter(|l| *l == legend).count(),
            1,
            "{wrong}:\n{stdout}"
        );
        assert!(stdout.lines().count() < 45, "{wrong}: too long:\n{stdout}");
        assert_eq!(
            marks,
            stdout.contains("[x] expected but missing from the output"),
            "{wrong}:\n{stdout}"
        );
        if marks {
            // The differing cells, named in the problem's own coordinates.
            let named = stdout.lines().any(|l| {
                l.contains("in the output but not expected: ")
                    || l.contains("expected but missing: ")
            });
            assert!(named, "{wrong}:\n{stdout}");
        }

        // The SVG: every text inside the picture (monospace, 8 px a character at most).
        let svg = std::fs::read_to_string(saved.join("shrunk.svg")).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let root = doc.root_element();
        let width: f64 = root.attribute("width").unwrap().parse().unwrap();
        let height: f64 = root.attribute("height").unwrap().parse().unwrap();
        let texts: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .collect();
        for t in &texts {
            let x: f64 = t.attribute("x").unwrap().parse().unwrap();
            let y: f64 = t.attribute("y").unwrap().parse().unwrap();
            let chars = t.text().unwrap_or("").chars().count() as f64;
            let (left, right) = match t.attribute("text-anchor") {
                Some("middle") => (x - chars * 4.0, x + chars * 4.0),
                Some("end") => (x - chars * 8.0, x),
                _ => (x, x + chars * 8.0),
            };
            assert!(
                left >= 0.0 && right <= width && y <= height && y >= 10.0,
                "{wrong}: text {:?} at {x},{y} outside {width}x{height}",
                t.text()
            );
        }
        let strings: Vec<&str> = texts.iter().filter_map(|t| t.text()).collect();
        assert!(
            strings
                .iter()
                .any(|s| s.starts_with(&format!("{problem} stress case")))
        );
        assert!(strings.iter().any(|s| s.starts_with("expected:")));
        assert!(strings.iter().any(|s| s.starts_with("got:")));
        for label in &labels {
            assert!(
                strings.contains(&label.as_str()),
                "{wrong}: no label {label}"
            );
        }
        // The legend, in the SVG too.
        let first_key = legend
            .trim_start_matches("legend: ")
            .split(", ")
            .next()
            .unwrap();
        let first_key = first_key.replacen(' ', "  ", 1);
        assert!(
            strings.contains(&first_key.as_str()),
            "{wrong}: no {first_key:?}"
        );
        // The differing cells outlined (red: in the output, not expected; green: missing).
        assert_eq!(
            marks,
            svg.contains("stroke=\"#e0142b\" stroke-width=\"3.5\"/>")
                || svg.contains("stroke=\"#00a651\" stroke-width=\"3.5\""),
            "{wrong}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An othello-flips board whose answer is `0` with `first` as its first row (any row of
/// discs keeps the answer: black plays in the far corner and flips nothing).
fn board_with_first_row(first: &str) -> String {
    format!("{first}\nNNNNNNNN\nNNNNNNNN\nNNNWBNNN\nNNNBWNNN\nNNNNNNNN\nNNNNNNNN\nNNNNNNNP\n")
}

/// A test folder of othello-flips tests `t0, t1, …` with these first rows (answer `0` each).
fn marked_tests(dir: &Path, first_rows: &[&str]) -> PathBuf {
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    for (k, first) in first_rows.iter().enumerate() {
        std::fs::write(tests.join(format!("t{k}.in")), board_with_first_row(first)).unwrap();
        std::fs::write(tests.join(format!("t{k}.ans")), "0\n").unwrap();
    }
    tests
}

/// `--stop-at-first-failure` judges lazily, as Kattis and DOMjudge do: the tests up to the
/// first non-AC one in test order, the rest not run — the same rows with 1 job or 3 (with 3, a
/// later failing test finishes first, and a slow passing test before it still counts).
#[test]
fn stop_at_first_failure_reports_the_first_failure_in_test_order_whatever_the_jobs() {
    let dir = scratch("stop-at-first");
    // t1 passes slowly, t2, t3 and t5 fail at once.
    let tests = marked_tests(
        &dir,
        &[
            "NNNNNNNN", "WWWWWWWW", "BBBBBBBB", "BBBBBBBB", "NNNNNNNN", "BBBBBBBB",
        ],
    );
    let submission = script(
        &dir,
        "sub.sh",
        "input=$(cat)\ncase \"$input\" in *WWWWWWWW*) sleep 1; echo 0 ;; *BBBBBBBB*) echo 1; echo 1 1 ;; *) echo 0 ;; esac\n",
    );
    let mut reports = Vec::new();
    for jobs in ["1", "3"] {
        let report = dir.join(format!("report-{jobs}.csv"));
        let out = judge()
            .args([
                "run",
                "othello-flips",
                "--stop-at-first-failure",
                "--jobs",
                jobs,
            ])
            .arg("--tests")
            .arg(&tests)
            .arg("--report")
            .arg(&report)
            .arg("--")
            .arg(&submission)
            .output()
            .unwrap();
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{jobs}: {stdout}{}",
            text(&out.stderr)
        );
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 2, "{jobs}: {stdout}");
        assert!(lines[0].starts_with("WA   t2 "), "{jobs}: {stdout}");
        assert!(
            lines[1].starts_with("othello-flips: 3 of 6 tests run: AC 2, WA 1 (")
                && lines[1].ends_with("; stopped at the first failure: 3 not run"),
            "{jobs}: {stdout}"
        );
        let rows: Vec<String> = std::fs::read_to_string(&report)
            .unwrap()
            .lines()
            .map(|l| l.split(',').take(2).collect::<Vec<_>>().join(","))
            .collect();
        reports.push(rows);
    }
    assert_eq!(reports[0], ["test,verdict", "t0,AC", "t1,AC", "t2,WA"]);
    assert_eq!(reports[0], reports[1]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An interrupted `judge run` says what was done before the interruption: every failure that
/// finished (also one that finished while an earlier test was still running) and the counts,
/// never an empty verdict list.
#[test]
fn an_interrupted_run_reports_what_finished() {
    let dir = scratch("interrupted-run");
    let submission = script(
        &dir,
        "sub.sh",
        "input=$(cat)\ncase \"$input\" in *WWWWWWWW*) exec sleep 30 ;; *BBBBBBBB*) echo 1; echo 1 1 ;; *) echo 0 ;; esac\n",
    );
    // t0 sleeps, t1 fails at once: with 2 jobs t1's failure is done while t0 still runs.
    for (name, rows, expected) in [
        (
            "one-done",
            &["WWWWWWWW", "BBBBBBBB"][..],
            "othello-flips: 1 of 2 tests run: WA 1 (",
        ),
        (
            "none-done",
            &["WWWWWWWW", "WWWWWWWW"][..],
            "othello-flips: 0 of 2 tests run; interrupted: 2 not run",
        ),
    ] {
        let tests = marked_tests(&dir.join(name), rows);
        let child = judge()
            .args(["run", "othello-flips", "--jobs", "2", "--time-limit", "10"])
            .arg("--tests")
            .arg(&tests)
            .arg("--")
            .arg(&submission)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(2500));
        // SAFETY: a signal to our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        let out = child.wait_with_output().unwrap();
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "{name}: {stdout}");
        assert!(stdout.contains(expected), "{name}: {stdout}");
        assert!(!stdout.contains("run:  ("), "{name}: {stdout}");
        if name == "one-done" {
            assert!(stdout.starts_with("WA   t1 "), "{name}: {stdout}");
            assert!(
                stdout.contains("; interrupted: 1 not run"),
                "{name}: {stdout}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `sandbox:` line of `judge run` is one short line saying what isolates the runs; the
/// full description (~270 characters) comes with `-v`, before or after the subcommand.
#[test]
fn the_sandbox_line_is_short_and_v_gives_the_details() {
    let dir = scratch("sandbox-line");
    let tests = marked_tests(&dir, &["NNNNNNNN"]);
    let line_of = |args: &[&str]| {
        let out = judge()
            .args(args)
            .arg("--tests")
            .arg(&tests)
            .args(["--", "echo", "0"])
            .output()
            .unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        stderr
            .lines()
            .find(|l| l.starts_with("sandbox: "))
            .unwrap_or_else(|| panic!("no sandbox line: {stderr}"))
            .to_string()
    };
    let short = line_of(&["run", "othello-flips"]);
    assert!(
        short.chars().count() <= 110 && short.ends_with("(-v for details)"),
        "{short}"
    );
    for args in [
        &["-v", "run", "othello-flips"][..],
        &["run", "othello-flips", "--verbose"],
    ] {
        let long = line_of(args);
        assert!(
            long.contains("unprivileged uid:") && long.contains("Landlock:"),
            "{args:?}: {long}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// On a terminal, `judge stress --time` shows how much of the time budget is left (through a
/// pseudo-terminal made by `script`; nothing of it in a pipe).
#[test]
fn stress_with_a_time_budget_shows_the_time_left_on_a_terminal() {
    if !Path::new("/usr/bin/script").exists() {
        skipped("no /usr/bin/script to make a terminal (Debian: util-linux)");
        return;
    }
    let command = format!(
        "'{}' stress omok --seed 1 --time 3 --jobs 1",
        env!("CARGO_BIN_EXE_judge")
    );
    let out = Command::new("/usr/bin/script")
        .args(["-qec", &command, "/dev/null"])
        .env_remove("CI")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let shown = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{shown}");
    assert!(
        shown.contains(" s left") && shown.contains("no disagreement"),
        "{shown}"
    );
    // In a pipe: no progress at all.
    let out = judge()
        .args([
            "stress", "omok", "--seed", "1", "--time", "1", "--jobs", "1",
        ])
        .env_remove("CI")
        .output()
        .unwrap();
    assert!(!text(&out.stderr).contains("left"), "{}", text(&out.stderr));
}
