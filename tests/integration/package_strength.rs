//! `judge strength PKG` (issue 32.4): a package's data against its jury's wrong submissions,
//! on a small package written here (whose every verdict is known by construction), on the
//! interactive example package, and on a package `judge package` exported from a built-in
//! problem; every report format; a survivor from `--wrong` is exit 1, a failing output
//! validator a jury error (exit 2).

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::generation::scratch;
use crate::util::{assert_no_panic, judge, text};

/// Writes `files` (path below `dir`, text) into `dir`.
fn write_all(dir: &Path, files: &[(&str, &str)]) {
    for (path, content) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
    }
}

/// "Parity": one integer, answer `even` or `odd`. Its wrong submissions each fail for one
/// known reason, so the kill matrix is known test by test:
///
/// | test               | n         | always_even | zero_is_odd | crash_on_big | loops_on_seven |
/// |--------------------|-----------|-------------|-------------|--------------|----------------|
/// | sample/1           | 4         | AC          | AC          | AC           | AC             |
/// | secret/01_zero     | 0         | AC          | WA          | AC           | AC             |
/// | secret/02_seven    | 7         | WA          | AC          | AC           | TLE            |
/// | secret/03_big      | 123456789 | WA          | AC          | RE           | AC             |
/// | secret/04_negative | -6        | AC          | AC          | AC           | AC             |
fn parity(dir: &Path) -> PathBuf {
    let package = dir.join("parity");
    let read = "import sys\nn = int(sys.stdin.read())\n";
    let right = format!("{read}print('odd' if n % 2 else 'even')\n");
    write_all(
        &package,
        &[
            (
                "problem.yaml",
                "problem_format_version: 2025-09\nname: Parity\n\
                 uuid: 5b0c2d7e-8f7a-4c55-9b7e-2f3c1d0a9e11\nlimits:\n  time_limit: 1\n",
            ),
            ("data/sample/1.in", "4\n"),
            ("data/sample/1.ans", "even\n"),
            ("data/secret/01_zero.in", "0\n"),
            ("data/secret/01_zero.ans", "even\n"),
            ("data/secret/02_seven.in", "7\n"),
            ("data/secret/02_seven.ans", "odd\n"),
            ("data/secret/03_big.in", "123456789\n"),
            ("data/secret/03_big.ans", "odd\n"),
            ("data/secret/04_negative.in", "-6\n"),
            ("data/secret/04_negative.ans", "even\n"),
            (
                "input_validators/validate.py",
                "import re, sys\n\
                 text = sys.stdin.read()\n\
                 ok = re.fullmatch(r'-?[0-9]{1,10}\\n', text) is not None\n\
                 sys.exit(42 if ok and abs(int(text)) <= 10**9 else 43)\n",
            ),
            ("submissions/accepted/right.py", &right),
            (
                "submissions/wrong_answer/always_even.py",
                &format!("{read}print('even')\n"),
            ),
            (
                "submissions/wrong_answer/zero_is_odd.py",
                &format!("{read}print('odd' if n % 2 or n == 0 else 'even')\n"),
            ),
            (
                "submissions/run_time_error/crash_on_big.py",
                &format!("{read}assert n < 1000\nprint('odd' if n % 2 else 'even')\n"),
            ),
            (
                "submissions/time_limit_exceeded/loops_on_seven.py",
                &format!("{read}while n == 7:\n    pass\nprint('odd' if n % 2 else 'even')\n"),
            ),
            // Allowed to pass (its expectation includes AC): no measure of the data.
            (
                "submissions/submissions.yaml",
                "mixed/maybe.py:\n  permitted: [AC, WA]\n",
            ),
            ("submissions/mixed/maybe.py", &right),
        ],
    );
    package
}

fn strength(args: &[&std::ffi::OsStr]) -> Output {
    let out = judge().arg("strength").args(args).output().unwrap();
    assert_no_panic(&out);
    out
}

/// The CSV report's matrix: (test, [verdict per submission]) rows and the submissions' names.
fn csv_matrix(path: &Path) -> (Vec<String>, Vec<(String, Vec<String>)>) {
    let csv = std::fs::read_to_string(path).unwrap();
    let mut lines = csv.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap()
        .split(',')
        .skip(1)
        .map(String::from)
        .collect();
    let rows = lines
        .map(|l| {
            let mut cells = l.split(',').map(String::from);
            (cells.next().unwrap(), cells.collect())
        })
        .collect();
    (header, rows)
}

#[test]
fn a_package_data_gets_its_kill_matrix_cover_and_idle_tests() {
    let dir = scratch("package-strength-parity");
    let package = parity(&dir);
    let csv = dir.join("matrix.csv");
    let out = strength(&[package.as_os_str(), "--report".as_ref(), csv.as_os_str()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("time limit: 1 s (problem.yaml)"));
    for line in [
        "left out  submissions/mixed/maybe.py: its expectation (AC|WA) lets it pass every test",
        "fragile   submissions/run_time_error/crash_on_big.py: only secret/03_big rejects it",
        "fragile   submissions/time_limit_exceeded/loops_on_seven.py: only secret/02_seven rejects it",
        "rejected  submissions/wrong_answer/always_even.py: by 2 tests (secret/02_seven, secret/03_big)",
        "fragile   submissions/wrong_answer/zero_is_odd.py: only secret/01_zero rejects it",
        // Ties go to the earlier test: 02_seven and 03_big each reject two.
        "smallest rejecting subset (greedy set cover): 3 of 5 tests: secret/02_seven, secret/01_zero, secret/03_big",
        "tests that reject no wrong submission: 2 of 5 tests: sample/1, secret/04_negative",
    ] {
        assert!(stdout.contains(line), "no {line:?} in:\n{stdout}");
    }
    // The accepted submission is no entrant; the one allowed to pass is left out.
    assert!(!stdout.contains("right.py"), "{stdout}");
    let (names, rows) = csv_matrix(&csv);
    assert_eq!(
        names,
        [
            "wrong:submissions/run_time_error/crash_on_big.py",
            "wrong:submissions/time_limit_exceeded/loops_on_seven.py",
            "wrong:submissions/wrong_answer/always_even.py",
            "wrong:submissions/wrong_answer/zero_is_odd.py",
        ]
    );
    let expected = [
        ("sample/1", ["AC", "AC", "AC", "AC"]),
        ("secret/01_zero", ["AC", "AC", "AC", "WA"]),
        ("secret/02_seven", ["AC", "TLE", "WA", "AC"]),
        ("secret/03_big", ["RE", "AC", "WA", "AC"]),
        ("secret/04_negative", ["AC", "AC", "AC", "AC"]),
    ];
    assert_eq!(rows.len(), expected.len(), "{rows:?}");
    for ((test, verdicts), (want_test, want)) in rows.iter().zip(expected) {
        assert_eq!(
            (test.as_str(), verdicts.as_slice()),
            (want_test, &want.map(String::from)[..])
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_survivor_from_wrong_is_a_finding_in_every_report_format() {
    let dir = scratch("package-strength-survivor");
    let package = parity(&dir);
    let more = dir.join("more");
    // Wrong only below -10^9, which no test (and no valid input) has: it survives.
    write_all(
        &more,
        &[
            (
                "never_caught.py",
                "import sys\nn = int(sys.stdin.read())\nprint('even' if n < -10**9 or n % 2 == 0 else 'odd')\n",
            ),
            (
                // A C entrant: a package's get no sanitized run yet, and the output says why.
                "always_even.c",
                "#include <stdio.h>\nint main(void) { puts(\"even\"); return 0; }\n",
            ),
        ],
    );
    for ext in ["csv", "json", "xml", "html"] {
        let report = dir.join(format!("strength.{ext}"));
        let out = strength(&[
            package.as_os_str(),
            "--wrong".as_ref(),
            more.as_os_str(),
            "--report".as_ref(),
            report.as_os_str(),
        ]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
        assert!(
            stdout.contains("SURVIVES  never_caught.py: no test rejects it"),
            "{stdout}"
        );
        assert!(
            stdout.contains(&format!(
                "  never_caught.py: `judge stress {} --seed 1 -- {}` searches",
                package.display(),
                more.join("never_caught.py").display()
            )),
            "{stdout}"
        );
        assert!(
            stdout.contains("sanitized runs: none (not yet for a package's submissions)\n"),
            "{stdout}"
        );
        let written = std::fs::read_to_string(&report).unwrap();
        assert!(written.contains("never_caught.py"), "{ext}: {written}");
        assert!(written.contains("zero_is_odd.py"), "{ext}: {written}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failing_output_validator_is_a_jury_error_and_no_wrong_submission_a_usage_error() {
    let dir = scratch("package-strength-jury");
    let package = parity(&dir);
    // A custom output validator that compares tokens but crashes on the input 7.
    write_all(
        &package,
        &[(
            "output_validator/validate.py",
            "import sys\n\
             given, answer = open(sys.argv[1]).read(), open(sys.argv[2]).read()\n\
             if int(given) == 7:\n    raise SystemExit('the validator is broken')\n\
             sys.exit(42 if sys.stdin.read().split() == answer.split() else 43)\n",
        )],
    );
    let out = strength(&[package.as_os_str()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("jury error"), "{stderr}");
    assert!(
        !text(&out.stdout).contains("SURVIVES"),
        "{}",
        text(&out.stdout)
    );

    // Only accepted submissions: nothing to measure the data against.
    for folder in [
        "wrong_answer",
        "run_time_error",
        "time_limit_exceeded",
        "mixed",
    ] {
        std::fs::remove_dir_all(package.join("submissions").join(folder)).unwrap();
    }
    std::fs::remove_file(package.join("submissions/submissions.yaml")).unwrap();
    let out = strength(&[package.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no submission a test must reject"),
        "{}",
        text(&out.stderr)
    );
    // A built-in problem still needs both folders.
    let out = strength(&["omok".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--tests DIR and --wrong DIR are required"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interactive_package_wrong_submissions_are_rejected_through_its_validator() {
    let guess =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("judge/package-format/tests/packages/guess");
    let out = strength(&[guess.as_os_str()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    for name in [
        "submissions/run_time_error/GuessStats.java",
        "submissions/time_limit_exceeded/guess_step_by_step.py",
        "submissions/wrong_answer/guess_linear.py",
    ] {
        assert!(
            stdout.lines().any(
                |l| (l.starts_with("rejected") || l.starts_with("fragile")) && l.contains(name)
            ),
            "{name}:\n{stdout}"
        );
    }
}

#[test]
fn an_exported_built_in_problem_rejects_every_wrong_submission() {
    let dir = scratch("package-strength-exported");
    let problem = "othello-flips";
    let out = judge()
        .args(["package", problem, "--format", "icpc", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let package = dir.join(judge_package::package_name(problem));
    let out = strength(&[package.as_os_str()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let wrong = std::fs::read_dir(package.join("submissions/wrong_answer"))
        .unwrap()
        .count();
    assert!(wrong > 0);
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with("rejected") || l.starts_with("fragile"))
            .count(),
        wrong,
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the exported generator `random.py` with `args` in `cwd`: its standard output, or for
/// `invalid K` the `testcase.in` it writes there (BAPCtools' way for bytes that are no UTF-8).
fn random_py(script: &Path, args: &[&str], cwd: &Path) -> Vec<u8> {
    let out = std::process::Command::new("python3")
        .arg(script)
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    if args.first() == Some(&"invalid") {
        let written = cwd.join("testcase.in");
        let bytes = std::fs::read(&written).unwrap();
        std::fs::remove_file(written).unwrap();
        bytes
    } else {
        out.stdout
    }
}

/// Every test `generators.yaml` lists, as (path below `data/` without `.in`, arguments of
/// `random`): its maps nest two spaces deeper per level, a group's tests under its `data:`.
fn listed_tests(yaml: &str) -> Vec<(String, Vec<String>)> {
    let body = yaml.split_once("\ndata:\n").unwrap().1;
    let mut groups: Vec<String> = Vec::new();
    let mut tests = Vec::new();
    for line in body.lines() {
        let indent = line.len() - line.trim_start().len();
        let line = line.trim();
        if line == "data:" {
            continue;
        }
        // A group or test at this indentation sits at depth (indent - 2) / 4.
        let depth = (indent - 2) / 4;
        groups.truncate(depth);
        let (key, value) = line.split_once(':').unwrap();
        let key = key.trim_matches('"').to_string();
        match value.trim().strip_prefix("random ") {
            Some(args) => tests.push((
                format!("{}/{key}", groups.join("/")),
                args.split_whitespace().map(String::from).collect(),
            )),
            None => groups.push(key),
        }
    }
    tests
}

#[test]
fn an_exported_package_names_its_generator_which_remakes_its_data() {
    let dir = scratch("package-strength-generator");
    let problem = "othello-flips";
    let out = judge()
        .args(["package", problem, "--format", "icpc", "--out"])
        .arg(dir.join("export"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let package = dir
        .join("export")
        .join(judge_package::package_name(problem));

    // The convention `judge stress PKG` follows finds it.
    let read = judge_core::package::PackageProblem::read(&package).unwrap();
    let generator = judge_core::package::generator::default_generator(&read)
        .unwrap()
        .expect("the exported package names a generator");
    assert_eq!(
        generator.program.relative,
        Path::new("generators/random.py")
    );
    assert!(
        generator.origin.starts_with("generators/generators.yaml:"),
        "{}",
        generator.origin
    );
    let script = &generator.program.path;

    // Deterministic by seed, every input valid, and the seeds spread over many inputs.
    let entry = judge_core::registry::find(problem).unwrap();
    let mut distinct = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let seed = seed.to_string();
        let input = random_py(script, &[&seed], &dir);
        assert_eq!(input, random_py(script, &[&seed], &dir), "seed {seed}");
        assert!(entry.validate(&input).is_ok(), "seed {seed}: invalid input");
        distinct.insert(input);
    }
    assert!(distinct.len() >= 12, "{} distinct of 20", distinct.len());

    // generators.yaml lists every input file of data/, each remade byte for byte.
    let yaml = std::fs::read_to_string(package.join("generators/generators.yaml")).unwrap();
    assert!(
        yaml.contains("solution: /submissions/accepted/reference.rs\ngenerators:\n  random:\n    - random.py\n"),
        "{yaml}"
    );
    let listed = listed_tests(&yaml);
    let mut inputs = Vec::new();
    let mut stack = vec![package.join("data")];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "in") {
                inputs.push(path);
            }
        }
    }
    assert_eq!(listed.len(), inputs.len(), "{listed:?}");
    let invalid = listed.iter().filter(|(_, a)| a[0] == "invalid").count();
    assert!(invalid > 0, "{listed:?}");
    for (test, args) in &listed {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let made = random_py(script, &args, &dir);
        let file = package.join("data").join(format!("{test}.in"));
        assert_eq!(made, std::fs::read(&file).unwrap(), "{test}: {args:?}");
    }
    bt_generate_remakes_the_data(&package, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `bt generate` (BAPCtools, from `BOARDJUDGE_PACKAGE_TOOLS`) on a copy without `data/`
/// writes every file of it again, answers included.
fn bt_generate_remakes_the_data(package: &Path, dir: &Path) {
    let Some(bt) = std::env::var_os("BOARDJUDGE_PACKAGE_TOOLS")
        .map(|tools| Path::new(&tools).join("bt"))
        .filter(|bt| bt.is_file())
    else {
        assert!(
            std::env::var_os("CI").is_none(),
            "BAPCtools (bt) is not installed, and CI must run this test (see .ci/run)"
        );
        crate::util::skipped("BAPCtools (bt) is not installed: bt generate not run");
        return;
    };
    let copy = dir.join("copy");
    let status = std::process::Command::new("cp")
        .arg("-a")
        .arg(package.parent().unwrap())
        .arg(&copy)
        .status()
        .unwrap();
    assert!(status.success());
    let remade = copy.join(package.file_name().unwrap());
    std::fs::remove_dir_all(remade.join("data")).unwrap();
    let (config, tmp) = (dir.join("xdg-config"), dir.join("tmp"));
    std::fs::create_dir_all(&config).unwrap();
    std::fs::create_dir_all(&tmp).unwrap();
    let out = std::process::Command::new(&bt)
        .args(["generate", "--no-bar"])
        .current_dir(&remade)
        .env("XDG_CONFIG_HOME", &config)
        .env("TMPDIR", &tmp)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "bt generate:\n{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let status = std::process::Command::new("diff")
        .arg("-r")
        .arg(package.join("data"))
        .arg(remade.join("data"))
        .status()
        .unwrap();
    assert!(
        status.success(),
        "bt generate wrote other data (diff above)"
    );
}

#[test]
fn a_package_names_its_generator_by_the_convention_or_says_where_it_is_wrong() {
    use judge_core::package::PackageProblem;
    use judge_core::package::generator::default_generator;
    let dir = scratch("package-strength-convention");
    let package = parity(&dir);
    let generator = |package: &Path| default_generator(&PackageProblem::read(package).unwrap());
    assert!(generator(&package).unwrap().is_none());
    // A program named `random` in generators/.
    write_all(&package, &[("generators/random.py", "print(4)\n")]);
    let found = generator(&package).unwrap().unwrap();
    assert_eq!(found.program.relative, Path::new("generators/random.py"));
    assert_eq!(
        found.origin,
        "generators/random.py (a program named random)"
    );
    // generators.yaml's `random` entry wins, its first file the entry point.
    write_all(
        &package,
        &[
            ("generators/gen.py", "import lib\n"),
            ("generators/lib.py", "\n"),
            (
                "generators/generators.yaml",
                "solution: /submissions/accepted/right.py\ngenerators:\n  random:\n    - gen.py\n    - lib.py\n",
            ),
        ],
    );
    let found = generator(&package).unwrap().unwrap();
    assert_eq!(found.program.relative, Path::new("generators/gen.py"));
    assert_eq!(
        found.origin,
        "generators/generators.yaml:3:3 (generators: random)"
    );
    assert_eq!(found.files.len(), 2);
    // A file it does not have, or one outside generators/: a jury error saying where.
    for (listed, why) in [
        ("missing.py", "no such file"),
        ("../problem.yaml", "a path below generators/"),
    ] {
        write_all(
            &package,
            &[(
                "generators/generators.yaml",
                &format!("generators:\n  random:\n    - {listed}\n"),
            )],
        );
        let error = generator(&package).unwrap_err().to_string();
        assert!(
            error.contains("generators/generators.yaml:3:7") && error.contains(why),
            "{error}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
