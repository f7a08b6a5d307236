//! `judge package` and what goes with it: the packages pass BAPCtools and problemtools, the
//! exported validators agree with the judge's own on thousands of inputs, `judge run` takes a
//! package folder, submissions in seven languages get their verdicts, and a compile error is
//! a CE verdict.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use judge_core::registry::{PROBLEMS, ProblemEntry};
use judge_package::programs::{self, Program};

use crate::generation::scratch;
use crate::util::*;

/// Is `program` on the PATH?
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// Skips a test whose tool is missing, saying so; in CI a missing tool fails the test
/// (`.ci/run` installs every one of them).
fn require(tool: &str, present: bool) -> bool {
    if !present {
        assert!(
            std::env::var_os("CI").is_none(),
            "{tool} is not installed, and CI must run this test (see .ci/run)"
        );
        skipped(&format!(
            "{tool} is not installed (.ci/run shows how to install it)"
        ));
    }
    present
}

/// The folder holding `bt` and `verifyproblem`: `$BOARDJUDGE_PACKAGE_TOOLS`, or the PATH.
fn package_tool(name: &str) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("BOARDJUDGE_PACKAGE_TOOLS") {
        let path = Path::new(&dir).join(name);
        return path.is_file().then_some(path);
    }
    on_path(name).then(|| PathBuf::from(name))
}

fn package(problem: &str, out: &Path, format: &str) -> PathBuf {
    let result = judge()
        .args(["package", problem, "--format", format, "--out"])
        .arg(out)
        .output()
        .unwrap();
    assert_eq!(
        result.status.code(),
        Some(0),
        "{problem}: {}",
        text(&result.stderr)
    );
    out.join(judge_package::package_name(problem))
}

#[test]
fn packages_pass_bapctools_and_problemtools() {
    let (Some(bt), Some(verify)) = (package_tool("bt"), package_tool("verifyproblem")) else {
        require("BAPCtools (bt) and problemtools (verifyproblem)", false);
        return;
    };
    let dir = scratch("package-tools");
    let config = dir.join("xdg-config");
    std::fs::create_dir_all(&config).unwrap();
    // The tools' temporary folders (BAPCtools keeps /tmp/bapctools_HASH) go into the scratch
    // folder, removed at the end, not into the machine's /tmp.
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    // One problem at a time (BAPCtools runs in parallel itself), its two formats side by side:
    // every judge running at once shares the sandbox's users and their process limit.
    for entry in PROBLEMS {
        let id = entry.id();
        std::thread::scope(|scope| {
            let (dir, config, tmp, bt, verify) = (&dir, &config, &tmp, &bt, &verify);
            scope.spawn(move || {
                let icpc = package(id, &dir.join(format!("icpc-{id}")), "icpc");
                for step in ["validate", "run"] {
                    let out = Command::new(bt)
                        .args([step, "--no-bar"])
                        .current_dir(&icpc)
                        .env("XDG_CONFIG_HOME", config)
                        .env("TMPDIR", tmp)
                        .stdin(Stdio::null())
                        .output()
                        .unwrap();
                    assert_eq!(
                        out.status.code(),
                        Some(0),
                        "{id}: bt {step}:\n{}{}",
                        text(&out.stdout),
                        text(&out.stderr)
                    );
                }
            });
            scope.spawn(move || {
                let legacy = package(id, &dir.join(format!("legacy-{id}")), "legacy");
                let out = Command::new(verify)
                    .arg(&legacy)
                    .args(["-p", "config", "data", "submissions"])
                    .env("TMPDIR", tmp)
                    .stdin(Stdio::null())
                    .output()
                    .unwrap();
                let report = text(&out.stdout) + &text(&out.stderr);
                assert!(
                    out.status.success() && report.contains("tested: 0 errors, 0 warnings"),
                    "{id}: verifyproblem:\n{report}"
                );
            });
        });
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_package_has_every_part_in_its_place() {
    let dir = scratch("package-layout");
    let icpc = package("gomoku-checker", &dir.join("icpc"), "icpc");
    assert!(icpc.ends_with("gomokuchecker"));
    let yaml = std::fs::read_to_string(icpc.join("problem.yaml")).unwrap();
    assert!(
        yaml.starts_with("problem_format_version: 2025-09\n"),
        "{yaml}"
    );
    assert!(yaml.contains("  en: Gomoku Checker\n") && yaml.contains("  time_limit: 1.0\n"));
    let statement = std::fs::read_to_string(icpc.join("statement/problem.en.tex")).unwrap();
    assert!(statement.starts_with("\\problemname{Gomoku Checker}"));
    for part in [
        "data/sample/001-sample-1.in",
        "data/sample/001-sample-1.ans",
        "data/secret/corpus",
        "data/secret/boundary",
        "data/secret/random-game",
        "data/invalid_input",
        "input_validators/validate/build",
        "input_validators/validate/run",
        "answer_validators/validate/validate.rs",
        "submissions/accepted/fast.rs",
        "submissions/accepted/reference.rs",
        "README.md",
    ] {
        assert!(icpc.join(part).exists(), "no {part}");
    }
    // Groups are named by what made them: the hand-made cases, the boundary cases and each
    // family hold only their own (the hand-made group held boundary tests).
    for (group, pattern) in [
        ("corpus", None),
        ("boundary", Some("-boundary-")),
        ("random-game", Some("-random-game-")),
    ] {
        for entry in std::fs::read_dir(icpc.join("data/secret").join(group)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            match pattern {
                Some(p) => assert!(name.contains(p), "{group}: {name}"),
                None => assert!(
                    !name.contains("-boundary-") && !name.contains("-random-game-"),
                    "{group}: {name}"
                ),
            }
        }
    }
    // BAPCtools runs Python 3 as pypy3 unless the contest folder says otherwise: without it
    // every `bt` command fails where only what the README installs is there.
    let languages = std::fs::read_to_string(dir.join("icpc/languages.yaml")).unwrap();
    assert!(
        languages.contains("python3:\n    name: 'Python 3 (CPython)'")
            && languages.contains("    run: 'python3 \"{mainfile}\"'"),
        "{languages}"
    );
    let wrong =
        std::fs::read_to_string(icpc.join("submissions/wrong_answer/white-ahead-accepted.rs"))
            .unwrap();
    assert!(
        wrong.contains("// Its bug: Accepts white one stone ahead of black"),
        "{}",
        &wrong[..400]
    );
    // Credits and licence are the setter's to set; a legacy package claims no time limit
    // (the format has none).
    let out = judge()
        .args(["package", "gomoku-checker", "--format", "legacy", "--out"])
        .arg(dir.join("legacy"))
        .args(["--credits", "Ada O'Brien: #1", "--license", "cc0"])
        .args(["--source", "NWERC 2026", "--rights-owner", "Ada"])
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("no time limit") && !stderr.contains("time limit 1.0"),
        "{stderr}"
    );
    let legacy = dir.join("legacy/gomokuchecker");
    let yaml = std::fs::read_to_string(legacy.join("problem.yaml")).unwrap();
    for line in [
        "author: \"Ada O'Brien: #1\"\n",
        "source: NWERC 2026\n",
        "license: cc0\n",
        "rights_owner: Ada\n",
    ] {
        assert!(yaml.contains(line), "{line}: {yaml}");
    }
    assert!(!yaml.contains("time_limit"), "{yaml}");
    assert!(!dir.join("legacy/languages.yaml").exists());
    assert!(legacy.join("problem_statement/problem.en.tex").is_file());
    assert!(!legacy.join("data/invalid_input").exists());
    assert!(!legacy.join("answer_validators").exists());
    assert!(
        !std::fs::read_to_string(legacy.join("problem.yaml"))
            .unwrap()
            .contains("problem_format_version")
    );
    // The same command writes the same package (apart from the measured time, which the
    // README states: here the limit is the 1 s floor either way), with --out relative too
    // (the accepted submissions were looked for below the package folder twice).
    let out = judge()
        .current_dir(&dir)
        .args(["package", "gomoku-checker", "--out", "again"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let again = dir.join("again/gomokuchecker");
    for file in [
        "problem.yaml",
        "submissions/accepted/fast.rs",
        "data/secret/corpus",
        "data/secret/boundary",
    ] {
        assert_eq!(
            listing_or_bytes(&icpc.join(file)),
            listing_or_bytes(&again.join(file)),
            "{file}"
        );
    }
    // A second package into the same place is refused rather than mixed with the first.
    let out = judge()
        .args(["package", "gomoku-checker", "--out"])
        .arg(dir.join("icpc"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("already exists"));
    let _ = std::fs::remove_dir_all(&dir);
}

fn listing_or_bytes(path: &Path) -> Vec<u8> {
    if path.is_dir() {
        let mut names: Vec<String> = std::fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names.join("\n").into_bytes()
    } else {
        std::fs::read(path).unwrap()
    }
}

/// Builds a single-file Rust program with the command contest tools use.
fn build_rust(source: &str, dir: &Path, name: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let src = dir.join(format!("{name}.rs"));
    std::fs::write(&src, source).unwrap();
    let exe = dir.join(name);
    let mut words = programs::CONTEST_RUSTC.split_whitespace();
    let out = Command::new(words.next().unwrap())
        .args(words)
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .output()
        .unwrap();
    assert!(out.status.success(), "{name}: {}", text(&out.stderr));
    exe
}

/// Runs `exe ARGS < stdin` and returns its exit code.
fn exit_code(exe: &Path, args: &[&Path], stdin: &[u8]) -> i32 {
    use std::io::Write;
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait().unwrap().code().unwrap_or(-1)
}

/// Valid inputs (the test set and every family), invalid ones (the corpus's and every
/// invalid family's), and one-byte mutations of the valid ones (mostly invalid, some not).
fn inputs(entry: &dyn ProblemEntry) -> Vec<Vec<u8>> {
    let mut inputs: Vec<Vec<u8>> = entry
        .testset_cases(7)
        .unwrap()
        .into_iter()
        .map(|case| case.text.into_bytes())
        .collect();
    for (family, _) in entry.families() {
        for index in 0..12 {
            if let Some((input, _)) = entry.family_case(family, index, 7) {
                inputs.push(input.into_bytes());
            }
        }
    }
    let valid = inputs.len();
    inputs.extend(
        entry
            .invalid_inputs(7, 20)
            .into_iter()
            .map(|(_, bytes)| bytes),
    );
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    for k in 0..valid {
        let mut bytes = inputs[k].clone();
        let at = next() % bytes.len();
        bytes[at] = b"012.oxXOBWNPRG, \n\r9"[next() % 19];
        inputs.push(bytes);
    }
    inputs
}

#[test]
fn exported_validators_agree_with_the_judge_on_thousands_of_inputs() {
    let dir = scratch("package-validators");
    let mut total = 0;
    for entry in PROBLEMS {
        let id = entry.id();
        let input_validator = build_rust(
            &programs::source(*entry, Program::InputValidator).unwrap(),
            &dir.join(id),
            "input_validator",
        );
        let answer_validator = build_rust(
            &programs::source(*entry, Program::AnswerValidator).unwrap(),
            &dir.join(id),
            "answer_validator",
        );
        let inputs = inputs(*entry);
        total += inputs.len();
        // Four at a time: the cost is process start-up, not work.
        let chunks: Vec<&[Vec<u8>]> = inputs.chunks(inputs.len().div_ceil(4)).collect();
        let (valid, invalid) = std::thread::scope(|scope| {
            let handles: Vec<_> = chunks
                .iter()
                .enumerate()
                .map(|(c, chunk)| {
                    let (dir, input_validator, answer_validator) =
                        (&dir, &input_validator, &answer_validator);
                    scope.spawn(move || {
                        let (mut valid, mut invalid) = (0, 0);
                        let input_file = dir.join(format!("{id}-input-{c}"));
                        for bytes in chunk.iter() {
                            let judged = entry.validate(bytes).is_ok();
                            let code = exit_code(input_validator, &[], bytes);
                            assert_eq!(
                                code,
                                if judged { 42 } else { 43 },
                                "{id}: the exported validator disagrees on\n{}",
                                String::from_utf8_lossy(bytes)
                            );
                            if !judged {
                                invalid += 1;
                                continue;
                            }
                            valid += 1;
                            // The answer validator takes exactly the right answer's bytes.
                            std::fs::write(&input_file, bytes).unwrap();
                            let answer = entry
                                .solve(bytes, judge_core::registry::SolverKind::Reference)
                                .unwrap();
                            let args = [input_file.as_path()];
                            assert_eq!(exit_code(answer_validator, &args, answer.as_bytes()), 42);
                            if valid % 8 == 0 {
                                for wrong in [
                                    format!("{answer} "),
                                    answer.replace('\n', "\r\n"),
                                    answer.trim_end().to_string(),
                                    format!("x{answer}"),
                                ] {
                                    assert_eq!(
                                        exit_code(answer_validator, &args, wrong.as_bytes()),
                                        43,
                                        "{id}: answer {wrong:?} accepted"
                                    );
                                }
                            }
                        }
                        (valid, invalid)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap())
                .fold((0, 0), |(v, i), (a, b)| (v + a, i + b))
        });
        assert!(
            valid >= 100 && invalid >= 150,
            "{id}: {valid} valid, {invalid} invalid"
        );
        eprintln!("{id}: {valid} valid and {invalid} invalid inputs, the same verdict from both");
    }
    assert!(total >= 3000, "only {total} inputs");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn judge_run_takes_a_package_folder_and_skips_its_invalid_inputs() {
    let dir = scratch("package-run");
    let pkg = package("othello-flips", &dir, "icpc");
    let count = |group: &str| {
        let mut n = 0;
        let mut stack = vec![pkg.join("data").join(group)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "in") {
                    n += 1;
                }
            }
        }
        n
    };
    let tests = count("sample") + count("secret");
    assert!(count("invalid_input") > 0);
    let run = |submission: &str| {
        judge()
            .args(["run", "othello-flips", "--tests"])
            .arg(&pkg)
            .arg("--")
            .arg(pkg.join(submission))
            .output()
            .unwrap()
    };
    let out = run("submissions/accepted/fast.rs");
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains(&format!("{tests} of {tests} tests run: AC {tests}")),
        "{stdout}"
    );
    let out = run("submissions/wrong_answer/no-diagonals.rs");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("WA"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn judge_solutions_writes_single_file_sources_named_after_their_bug() {
    let dir = scratch("package-solutions");
    let out = judge()
        .args(["solutions", "renju", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let source = std::fs::read_to_string(dir.join("wrong/renju--overline-is-five.rs")).unwrap();
    assert!(source.starts_with("// renju: a WRONG solution, on purpose: `overline-is-five`.\n// Its bug: Six or more counts as a five.\n"));
    assert!(!source.contains("serde") && !source.contains("rand::"));
    let total: u64 = ["correct", "wrong"]
        .iter()
        .flat_map(|k| std::fs::read_dir(dir.join(k)).unwrap())
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    // Every solver is one self-contained file (the problem's code inlined): with the 148
    // hand-written and board-access wrong solvers that is a few MB, not 18 MB of binaries.
    assert!(total < 4_000_000, "{total} bytes of sources");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The othello-flips solutions in `tests/integration/languages/`, and their wrong twins:
/// the same program with only the 4 straight directions.
fn language_sources(dir: &Path) -> Vec<(String, PathBuf, PathBuf)> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/languages");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(fixtures).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(&path).unwrap();
        let wrong_source = source
            .replace("8 /* directions */", "4 /* directions */")
            .replace("8  # directions", "4  # directions");
        assert_ne!(source, wrong_source, "{name}: no directions marker");
        let ext = path.extension().unwrap().to_string_lossy().into_owned();
        let wrong = dir.join(format!("wrong-{ext}")).join(&name);
        std::fs::create_dir_all(wrong.parent().unwrap()).unwrap();
        std::fs::write(&wrong, wrong_source).unwrap();
        found.push((ext, path, wrong));
    }
    found.sort();
    found
}

#[test]
fn submissions_in_seven_languages_get_ac_when_right_and_wa_when_wrong() {
    let dir = scratch("package-languages");
    let tests = dir.join("tests");
    let out = judge()
        .args(["testset", "othello-flips", "--seed", "1", "--out"])
        .arg(&tests)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let toolchains = [
        ("c", "gcc"),
        ("cpp", "g++"),
        ("py", "python3"),
        ("java", "javac"),
        ("kt", "kotlinc"),
        ("go", "go"),
        ("rs", "rustc"),
    ];
    let sources = language_sources(&dir);
    assert_eq!(sources.len(), toolchains.len());
    // One after the other: a JVM runs many threads, each counting against the sandbox user's
    // process limit (64), which every judge running at once shares.
    let runs = sources.iter().flat_map(|(ext, right, wrong)| {
        let (_, tool) = toolchains.iter().find(|(e, _)| e == ext).unwrap();
        let take = if require(tool, on_path(tool)) { 2 } else { 0 };
        [(right, 0, "AC 71"), (wrong, 1, "WA")]
            .into_iter()
            .take(take)
    });
    for (source, code, verdict) in runs {
        let out = judge()
            .args(["run", "othello-flips", "--jobs", "1", "--tests"])
            .arg(&tests)
            .arg("--")
            .arg(source)
            .output()
            .unwrap();
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{}: {stdout}{}",
            source.display(),
            text(&out.stderr)
        );
        assert!(stdout.contains(verdict), "{}: {stdout}", source.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_compile_error_is_a_ce_verdict_and_the_build_command_can_be_changed() {
    let dir = scratch("package-ce");
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(tests.join("one.in"), "NNNNNNNN\n".repeat(7) + "NNNNNNNP\n").unwrap();
    std::fs::write(tests.join("one.ans"), "0\n").unwrap();
    let wrong = dir.join("wrong");
    std::fs::create_dir_all(&wrong).unwrap();
    let broken = wrong.join("broken.rs");
    std::fs::write(&broken, "fn main() { this is not rust }\n").unwrap();
    std::fs::write(
        wrong.join("zero.c"),
        "#include <stdio.h>\nint main(void) { puts(\"1\"); return 0; }\n",
    )
    .unwrap();

    let out = judge()
        .args(["run", "othello-flips", "--tests"])
        .arg(&tests)
        .arg("--report")
        .arg(dir.join("report.csv"))
        .arg("--")
        .arg(&broken)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.starts_with("CE   ") && stdout.contains("CE 1"),
        "{stdout}"
    );
    assert!(text(&out.stderr).contains("build: rustc -O --crate-type bin --edition=2018"));
    let report = std::fs::read_to_string(dir.join("report.csv")).unwrap();
    assert!(report.contains("one,CE,"), "{report}");

    let out = judge()
        .args(["strength", "othello-flips", "--tests"])
        .arg(&tests)
        .arg("--wrong")
        .arg(&wrong)
        .arg("--report")
        .arg(dir.join("matrix.csv"))
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("CE        broken.rs: the build failed"),
        "{stdout}"
    );
    assert!(stdout.contains("fragile   zero.c"), "{stdout}");

    // The build command comes from the environment when set: here one that defines a macro
    // the program needs to compile.
    let fixed = dir.join("needs_flag.c");
    std::fs::write(
        &fixed,
        "#include <stdio.h>\nint main(void) { puts(ANSWER); return 0; }\n",
    )
    .unwrap();
    let out = judge()
        .env("BOARDJUDGE_BUILD_C", "gcc -DANSWER=\"0\" -o {out} {src}")
        .args(["run", "othello-flips", "--tests"])
        .arg(&tests)
        .arg("--")
        .arg(&fixed)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(text(&out.stderr).contains("build: gcc -DANSWER="));
    let _ = std::fs::remove_dir_all(&dir);
}
