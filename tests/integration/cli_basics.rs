use crate::util::*;

#[test]
fn problems_lists_every_problem_of_the_list_in_order() {
    let out = judge().arg("problems").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let ids: Vec<String> = text(&out.stdout)
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    assert_eq!(ids, problem_ids());
}

#[test]
fn unknown_problem_is_a_usage_error() {
    let out = run_with_stdin(&["solve", "chess"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("unknown problem 'chess'"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn missing_input_file_exits_2_naming_the_file() {
    let out = run_with_stdin(&["validate", "omok", "/nonexistent/board.in"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/nonexistent/board.in"));
}

#[test]
fn solve_reads_a_file_argument() {
    let dir = std::env::temp_dir().join(format!("boardjudge-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("empty.in");
    std::fs::write(&path, "R\nB\nW\nG\n").unwrap();
    let out = judge()
        .args(["solve", "attack25"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(text(&out.stdout), "R,13\nB,13\nW,13\nG,13\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solve_error_names_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("boardjudge-err-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.in");
    std::fs::write(&path, "R\nB,13\nW,13\nG\n").unwrap();
    let out = judge()
        .args(["solve", "attack25"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("{}:3:3:", path.display())),
        "{stderr}"
    );
    assert!(
        stderr.contains("panel 13 is already listed for B"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A test folder with one othello-flips test whose answer file is `answer`.
fn one_test(name: &str, answer: Option<&str>) -> std::path::PathBuf {
    let dir = crate::generation::scratch(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("t.in"),
        "NNNNNNNN\nNNNNNNNN\nNNNNNNNN\nNNNWBNNN\nNNNBWNNN\nNNNNNNNN\nNNNNNNNN\nNNNNNNNP\n",
    )
    .unwrap();
    if let Some(answer) = answer {
        std::fs::write(dir.join("t.ans"), answer).unwrap();
    }
    dir
}

#[test]
fn a_malformed_answer_file_is_a_jury_error_not_a_wrong_answer() {
    // `cat` echoes the board, which is no answer: with a good .ans this would be WA (exit 1).
    for (name, answer) in [
        ("jury-bad-ans", Some("not an answer\n")),
        ("jury-no-ans", None),
    ] {
        let dir = one_test(name, answer);
        let out = judge()
            .args(["run", "othello-flips", "--tests"])
            .arg(&dir)
            .args(["--", "cat"])
            .output()
            .unwrap();
        assert_no_panic(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("jury error"),
            "{}",
            text(&out.stderr)
        );
        assert!(text(&out.stderr).contains("t."), "{}", text(&out.stderr));
        let _ = std::fs::remove_dir_all(&dir);
    }
    // The control: the same run with a good answer file is the contestant's WA.
    let dir = one_test("jury-good-ans", Some("0\n"));
    let out = judge()
        .args(["run", "othello-flips", "--tests"])
        .arg(&dir)
        .args(["--", "cat"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("WA"), "{}", text(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every failure of the jury's side stops `judge run` before any submission runs, with exit 2
/// and a message that starts the same way and names the file: a missing or malformed answer,
/// an input the validator rejects (malformed, or impossible under the constraints), an answer
/// that is not the reference's (`--verify-answers`). A correct submission never gets WA for
/// the jury's mistake.
#[test]
fn every_jury_error_names_its_file_and_starts_the_same_way() {
    const BOARD: &str =
        "NNNNNNNN\nNNNNNNNN\nNNNNNNNN\nNNNWBNNN\nNNNBWNNN\nNNNNNNNN\nNNNNNNNN\nNNNNNNNP\n";
    let two_moves = BOARD.replacen("NNNNNNNN", "PNNNNNNN", 1);
    // (scratch name, input, answer file, flags, what the message names)
    type Case<'a> = (&'a str, &'a str, Option<&'a str>, &'a [&'a str], &'a str);
    let cases: [Case; 5] = [
        ("jury-no-ans", BOARD, None, &[], "t.ans: missing"),
        (
            "jury-bad-ans",
            BOARD,
            Some("not an answer\n"),
            &[],
            "t.ans: the answer file",
        ),
        // Malformed: a row one cell short.
        (
            "jury-short-row",
            &BOARD.replacen("NNNWBNNN", "NNNWBNN", 1),
            Some("0\n"),
            &[],
            "t.in:4:8: invalid test input:",
        ),
        // Impossible: black plays two moves.
        (
            "jury-two-moves",
            &two_moves,
            Some("0\n"),
            &[],
            "t.in:8:8: invalid test input: expected exactly one",
        ),
        (
            "jury-wrong-answer",
            BOARD,
            Some("1\n4 4\n"),
            &["--verify-answers"],
            "t.ans: not the reference solver's answer",
        ),
    ];
    for (name, input, answer, flags, names) in cases {
        let dir = crate::generation::scratch(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("t.in"), input).unwrap();
        if let Some(answer) = answer {
            std::fs::write(dir.join("t.ans"), answer).unwrap();
        }
        // `echo 0` is the right answer to the valid board: with the jury's files right it is AC.
        let out = judge()
            .args(["run", "othello-flips", "--tests"])
            .arg(&dir)
            .args(flags)
            .args(["--", "echo", "0"])
            .output()
            .unwrap();
        assert_no_panic(&out);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(
            stderr.starts_with(&format!("judge: error: jury error: {}/", dir.display())),
            "{name}: {stderr}"
        );
        assert!(stderr.contains(names), "{name}: {stderr}");
        assert_eq!(text(&out.stdout), "", "{name}: no test may run");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn nonsense_limits_and_jobs_are_usage_errors() {
    for flags in [
        ["--jobs", "0"],
        ["--time-limit", "0"],
        ["--time-limit", "-1"],
        ["--time-limit", "nan"],
        ["--memory-limit", "0"],
    ] {
        let out = judge()
            .args(["run", "othello-flips", "--tests", "/nonexistent"])
            .args(flags)
            .args(["--", "cat"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
        // clap names the flag, except for "-1", which it reads as an unknown flag.
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(flags[0]) || stderr.contains("unexpected argument '-1'"),
            "{flags:?}: {stderr}"
        );
    }
}

/// Messages a new user meets, each saying what is wrong: a missing submission file, a file of
/// an unknown language and a file that is not executable each say so (they all said "not an
/// executable file"); `--out` naming a file says so (not "File exists (os error 17)"); a
/// negative number is refused by what the option takes (not clap's `use '-- -5'` hint).
#[test]
fn day_one_messages_say_what_is_wrong() {
    let dir = crate::generation::scratch("day-one-messages");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("t.in"),
        "NNNNNNNN\nNNNNNNNN\nNNNNNNNN\nNNNWBNNN\nNNNBWNNN\nNNNNNNNN\nNNNNNNNN\nNNNNNNNP\n",
    )
    .unwrap();
    std::fs::write(dir.join("t.ans"), "0\n").unwrap();
    std::fs::write(dir.join("sol.pas"), "begin writeln(0) end.\n").unwrap();
    std::fs::write(dir.join("plain"), "echo 0\n").unwrap();
    for (submission, says) in [
        ("./missing.cpp", "./missing.cpp: no such file or folder"),
        ("missing.cpp", "missing.cpp: no such file or folder"),
        ("./sol.pas", "the judge does not build .pas files"),
        ("./plain", "./plain: not executable (chmod +x it"),
    ] {
        let out = judge()
            .current_dir(&dir)
            .args(["run", "othello-flips", "--tests", ".", "--", submission])
            .output()
            .unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{submission}: {stderr}");
        assert!(stderr.contains(says), "{submission}: {stderr}");
    }
    let file = dir.join("t.in");
    for command in [
        &["testset", "omok", "--seed", "1", "--out"][..],
        &["gen", "omok", "--seed", "1", "--count", "2", "--out"],
        &["solutions", "omok", "--out"],
        &["package", "omok", "--out"],
    ] {
        let out = judge().args(command).arg(&file).output().unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command:?}: {stderr}");
        assert!(
            stderr.contains(&format!("{}: exists and is not a folder", file.display()))
                && !stderr.contains("os error"),
            "{command:?}: {stderr}"
        );
    }
    for (flag, value, says) in [
        ("--memory-limit", "-5", "expected a whole number of MiB"),
        ("--jobs", "-1", "expected a whole number of parallel runs"),
        ("--time-limit", "-1", "takes seconds, more than 0"),
    ] {
        let out = judge()
            .args(["run", "othello-flips", "--tests"])
            .arg(&dir)
            .args([flag, value, "--", "cat"])
            .output()
            .unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag}: {stderr}");
        assert!(
            stderr.contains(says) && !stderr.contains("-- -"),
            "{flag}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `judge validate PROBLEM FOLDER` validates every `.in` in it (a setter's test folder): each
/// invalid one on its own line with line and column, one summary line naming them, exit 1;
/// all valid: exit 0.
#[test]
fn validate_takes_a_folder() {
    let dir = crate::generation::scratch("validate-folder");
    let out = judge()
        .args(["testset", "omok", "--seed", "1", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let count = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "in")
        })
        .count();
    let out = judge()
        .args(["validate", "omok"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("omok: all {count} inputs in {} are valid\n", dir.display())
    );
    // Two broken ones, one of them in a subfolder.
    std::fs::write(dir.join("zz-empty.in"), "").unwrap();
    std::fs::create_dir_all(dir.join("more")).unwrap();
    std::fs::write(dir.join("more/short.in"), "0 0\n").unwrap();
    let out = judge()
        .args(["validate", "omok"])
        .arg(&dir)
        .output()
        .unwrap();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert_eq!(
        stdout,
        format!(
            "omok: 2 of {} inputs in {} are invalid: more/short.in, zz-empty.in\n",
            count + 2,
            dir.display()
        )
    );
    assert!(
        stderr.contains(&format!("{}:1:1: ", dir.join("zz-empty.in").display()))
            && stderr.contains(&format!("{}:1:", dir.join("more/short.in").display())),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `judge testset` into a folder that is not empty is refused (a second set there mixed with
/// the first: `judge run` judged 108 tests where the manifest listed 73); `--force` replaces
/// the set in it and leaves other files alone.
#[test]
fn testset_refuses_a_folder_that_is_not_empty_unless_forced() {
    let dir = crate::generation::scratch("testset-twice");
    let testset = |problem: &str, force: bool| {
        let mut command = judge();
        command
            .args(["testset", problem, "--seed", "1", "--out"])
            .arg(&dir);
        if force {
            command.arg("--force");
        }
        command.output().unwrap()
    };
    assert_eq!(testset("omok", false).status.code(), Some(0));
    std::fs::write(dir.join("notes.txt"), "mine\n").unwrap();
    let out = testset("renju", false);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("already exists and is not empty"),
        "{stderr}"
    );
    let out = testset("renju", true);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let manifest = std::fs::read_to_string(dir.join("manifest.csv")).unwrap();
    let listed = manifest.lines().count() - 1;
    let inputs = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "in")
        })
        .count();
    assert_eq!(inputs, listed, "only the renju set is left");
    // Every input is renju's, and the other file is still there.
    let out = judge()
        .args(["validate", "renju"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "mine\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `judge/demo.sh` asks cargo where the binaries are (`cargo metadata`'s target directory)
/// instead of assuming `./target`: with `CARGO_TARGET_DIR` set elsewhere it failed with exit
/// 127. On day one it says first why the first run is slow, builds the hand-written wrong
/// solutions only (not the board-access models: 39 Rust programs took minutes), each once,
/// with a line as each is built, and ends saying where the judge is and how to put it on the
/// `PATH`. Here in a copy of the script's folder, with a stand-in `cargo` that reports a target
/// directory elsewhere and a stand-in `judge` there that records what it is asked to do.
#[test]
fn demo_finds_the_judge_where_cargo_puts_it() {
    use std::os::unix::fs::PermissionsExt;
    let dir = crate::generation::scratch("demo-target-dir");
    let root = dir.join("checkout");
    std::fs::create_dir_all(root.join("judge")).unwrap();
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("judge/demo.sh"),
        root.join("judge/demo.sh"),
    )
    .unwrap();
    let executable = |path: &std::path::Path, body: &str| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    executable(
        &dir.join("bin/cargo"),
        "#!/bin/sh\ncase \"$1\" in\n  build) exit 0 ;;\n  metadata) printf '{\"packages\":[],\"target_directory\":\"%s\",\"version\":1}\\n' \"$CARGO_TARGET_DIR\" ;;\n  *) exit 3 ;;\nesac\n",
    );
    let target = dir.join("elsewhere");
    let log = dir.join("judge.log");
    executable(
        &target.join("release/judge"),
        &format!(
            "#!/bin/sh\nfor last; do :; done\ncase \"$1\" in run|stress) echo \"$1 ${{last##*/}}\" ;; *) echo \"$1\" ;; esac >> '{}'\n\
             if [ \"$1\" = testset ]; then mkdir -p \"$6\"; echo test > \"$6/manifest.csv\"; fi\n\
             if [ \"$1\" = solutions ]; then mkdir -p \"$4/wrong\" \"$4/correct\"; \
             touch \"$4/wrong/omok--x.rs\" \"$4/wrong/omok--access-clamp.rs\" \"$4/wrong/omok--scan-skip-first-window.rs\" \
             \"$4/wrong/omok--six-check-parallel-line.rs\" \"$4/correct/omok--fast.rs\" \"$4/correct/omok--reference.rs\"; fi\n",
            log.display()
        ),
    );
    let path = format!(
        "{}:{}",
        dir.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("bash")
        .arg(root.join("judge/demo.sh"))
        .env("PATH", path)
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let log = std::fs::read_to_string(&log).unwrap();
    let mut calls: Vec<&str> = log.lines().collect();
    // The fast solver and the hand-written wrong one are built, in parallel (in any order),
    // each once; then the demo's steps.
    calls[2..4].sort();
    assert_eq!(
        calls,
        [
            "testset",
            "solutions",
            "run omok--fast.rs",
            "run omok--x.rs",
            "run omok--fast.rs",
            "run omok--x.rs",
            "stress omok--x.rs",
            "strength"
        ]
    );
    let stdout = text(&out.stdout);
    let says = |what: &str| {
        stdout
            .find(what)
            .unwrap_or_else(|| panic!("no {what:?}: {stdout}"))
    };
    assert!(says("The first run takes") < says("== 0."), "{stdout}");
    assert!(says("2 of 2 built: omok--") < says("== 4."), "{stdout}");
    assert!(
        says(&format!(
            "The judge is {}. To call it as `judge`:",
            target.join("release/judge").display()
        )) < says(&format!(
            "export PATH=\"{}:$PATH\"",
            target.join("release").display()
        )),
        "{stdout}"
    );
    if let Some(work) = text(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("everything is in "))
    {
        let _ = std::fs::remove_dir_all(work);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--help` of the commands that take submissions names every language the judge builds or
/// runs (it listed 6 of the 11 extensions of the README's table).
#[test]
fn help_lists_every_language_the_judge_builds() {
    for command in ["run", "stress", "strength"] {
        let out = judge().args([command, "--help"]).output().unwrap();
        let help = text(&out.stdout)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for ext in judge_core::runner::submission::TOOLCHAINS
            .iter()
            .map(|t| t.ext)
        {
            assert!(
                help.contains(&format!(".{ext} ")) || help.contains(&format!(".{ext})")),
                "{command} --help does not name .{ext}: {help}"
            );
        }
    }
}
