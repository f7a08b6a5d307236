//! The example packages of `tests/packages/` (written for this project, see its README): what
//! the reader finds must be what the files say, and every submission's expectation must allow
//! the verdicts it really gets when judged.

use std::path::{Path, PathBuf};

use package_format::default_output_validator::check;
use package_format::expectation::{Outcome, Reason, RuleOrigin, TestResult, TimeLimitRole};
use package_format::metadata::TimeLimitSource;
use package_format::testdata::RawValue;
use package_format::{
    Category, FormatVersion, Package, PackageError, ProgramKind, Submission, ValidatorArgs, Verdict,
};

/// The packages, each a complete problem.
const PACKAGES: [&str; 7] = [
    "divisor", "echo", "guess", "distance", "sum", "twopass", "remember",
];

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/packages")
        .join(name)
}

fn read(name: &str) -> Package {
    Package::read(dir(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn names(p: &Package) -> Vec<&str> {
    p.tests().iter().map(|t| t.name.as_str()).collect()
}

fn test<'a>(p: &'a Package, name: &str) -> &'a package_format::TestCase {
    p.tests()
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no test {name}"))
}

fn submission<'a>(p: &'a Package, name: &str) -> &'a Submission {
    p.submissions
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no submission {name}"))
}

fn expects(p: &Package, name: &str) -> Vec<&'static str> {
    submission(p, name)
        .expectation
        .expected_final_verdicts()
        .shorts()
}

fn language(p: &Package, name: &str) -> &'static str {
    submission(p, name)
        .effective_language()
        .map_or("?", |l| l.code)
}

fn kind(program: &package_format::Program) -> String {
    match &program.kind {
        ProgramKind::Checktestdata => "ctd".into(),
        ProgramKind::Viva => "viva".into(),
        ProgramKind::Source { language, .. } => language.code.into(),
        ProgramKind::BuildRun { build, run } => format!("build={build} run={run}"),
        ProgramKind::Unknown { reason } => format!("unknown: {reason}"),
    }
}

fn file_names(paths: &[PathBuf]) -> Vec<String> {
    paths
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

/// Every test with the same verdict.
fn all(p: &Package, verdict: Verdict) -> Vec<(&str, Verdict)> {
    p.tests()
        .iter()
        .map(|t| (t.name.as_str(), verdict))
        .collect()
}

/// A run written one letter per test in the package's order: A(C), W(A), T(LE), R(TE).
fn run<'a>(p: &'a Package, letters: &str) -> Vec<(&'a str, Verdict)> {
    assert_eq!(letters.len(), p.tests().len(), "{letters}");
    p.tests()
        .iter()
        .zip(letters.chars())
        .map(|(t, c)| {
            let verdict = match c {
                'A' => Verdict::Ac,
                'W' => Verdict::Wa,
                'T' => Verdict::Tle,
                'R' => Verdict::Re,
                other => panic!("no verdict letter {other}"),
            };
            (t.name.as_str(), verdict)
        })
        .collect()
}

fn allows(p: &Package, name: &str, letters: &str) -> Result<(), package_format::Why> {
    let tests = run(p, letters);
    let final_verdict = Verdict::first_failure(tests.iter().map(|(_, v)| *v));
    submission(p, name)
        .expectation
        .allows_verdicts(&tests, final_verdict)
}

// What every submission of the example packages got on every test: one table, shared with
// the judge's integration test (tests/integration/packages.rs).
include!("common/observed_runs.rs");

/// Expectations that need more than verdicts (scores, judge messages) are checked by each
/// package's own test; here every other observed run must be allowed.
const NEEDS_MORE_THAN_VERDICTS: &[(&str, &str)] = &[
    ("sum", "accepted/Sum.java"),
    ("sum", "accepted/sum.py"),
    ("sum", "accepted/sum.rs"),
    ("sum", "accepted/sum_from_file.py"),
    ("sum", "accepted/two_files"),
    ("sum", "brute_force/sum_by_counting.py"),
    ("sum", "rejected/sum_float_print.py"),
    ("sum", "run_time_error/sum_to_int.kt"),
    ("sum", "wrong_answer/sum_int32.c"),
    ("twopass", "wrong_answer/plain_binary.py"),
    ("twopass", "wrong_answer/two_copies.c"),
    ("echo", "partially_accepted/echo_int.c"),
    ("echo", "partially_accepted/echo_recursive.py"),
];

#[test]
fn every_observed_run_is_allowed_and_every_submission_was_judged() {
    for name in PACKAGES {
        let p = read(name);
        let judged: Vec<&str> = OBSERVED_RUNS
            .iter()
            .filter(|(package, _, _)| *package == name)
            .map(|(_, s, _)| *s)
            .collect();
        let listed: Vec<&str> = p.submissions.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(judged, listed, "{name}: the table lists every submission");
        for (_, s, letters) in OBSERVED_RUNS.iter().filter(|(n, _, _)| *n == name) {
            if NEEDS_MORE_THAN_VERDICTS.contains(&(name, *s)) {
                continue;
            }
            if let Err(why) = allows(&p, s, letters) {
                panic!("{name} {s}: {why}");
            }
        }
    }
}

#[test]
fn every_accepted_submission_allows_an_all_accepted_run_only() {
    for name in PACKAGES {
        let p = read(name);
        let accepted: Vec<&Submission> = p
            .submissions
            .iter()
            .filter(|s| s.folder == "accepted")
            .collect();
        assert!(!accepted.is_empty(), "{name}");
        for s in accepted {
            assert!(s.expectation.is_accepted(), "{name} {}", s.name);
            assert_eq!(
                s.expectation.expected_final_verdicts().shorts(),
                ["AC"],
                "{name} {}",
                s.name
            );
            let bad = all(&p, Verdict::Wa);
            assert!(
                s.expectation.allows_verdicts(&bad, Verdict::Wa).is_err(),
                "{name} {}",
                s.name
            );
        }
    }
}

#[test]
fn every_package_reads_without_surprises() {
    // The only warnings are the ones a package is about.
    let expected: &[(&str, &[&str])] = &[
        ("divisor", &[]),
        ("echo", &[]),
        ("guess", &[]),
        ("distance", &[]),
        (
            "sum",
            &[
                "submissions/accepted/sum.sh.disabled: skipped: a `.disabled` submission",
                "submissions/wrong_answer/sum_int32.c: @EXPECTED_RESULTS@ ignored in wrong_answer/",
            ],
        ),
        ("twopass", &[]),
        ("remember", &[]),
    ];
    for (name, warnings) in expected {
        let p = read(name);
        let got: Vec<String> = p.warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(got.len(), warnings.len(), "{name}: {got:#?}");
        for (w, want) in got.iter().zip(warnings.iter()) {
            assert!(w.starts_with(want), "{name}: {w} (expected {want})");
        }
    }
}

#[test]
fn divisor_legacy_custom_validator_with_flags() {
    let p = read("divisor");
    assert_eq!(p.version(), FormatVersion::Legacy);
    // No `name` in problem.yaml: the statement's \problemname, English before German.
    assert_eq!(p.metadata.name, "Find a Divisor");
    assert_eq!(
        p.metadata.names,
        [("en".to_string(), "Find a Divisor".to_string())]
    );
    assert_eq!(p.metadata.legacy_custom_validation, Some(true));
    assert_eq!(p.metadata.legacy_validator_flags, ["case_insensitive"]);
    assert_eq!(p.metadata.keywords, ["number-theory", "trial-division"]);
    let limits = &p.metadata.limits;
    assert_eq!(limits.time_limit, Some(2.0), ".timelimit");
    assert_eq!(limits.time_limit_source, TimeLimitSource::TimelimitFile);
    assert_eq!(limits.ac_to_time_limit, 3.0, "time_multiplier");
    assert_eq!(limits.time_limit_to_tle, 3.0, "time_safety_margin");
    assert_eq!(limits.memory_mib, 256);
    assert_eq!(
        names(&p),
        [
            "sample/1",
            "sample/2",
            "secret/01_small/01",
            "secret/01_small/02",
            "secret/01_small/03",
            "secret/01_small/04",
            "secret/01_small/05",
            "secret/02_large/01",
            "secret/02_large/02",
            "secret/02_large/03",
            "secret/02_large/04",
            "secret/02_large/05",
            "secret/02_large/06",
        ]
    );
    // Legacy: every folder is a test data group.
    let groups: Vec<&str> = p.test_data.groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(
        groups,
        ["sample", "secret", "secret/01_small", "secret/02_large"]
    );
    assert_eq!(test(&p, "secret/01_small/03").group, "secret/01_small");
    let validators: Vec<(String, String)> = p
        .input_validators
        .iter()
        .map(|v| (v.name.clone(), kind(v)))
        .collect();
    assert_eq!(
        validators,
        [
            ("divisor.ctd".to_string(), "ctd".to_string()),
            ("validate.py".to_string(), "python3".to_string())
        ]
    );
    // The map form of input_validator_flags: only validate.py gets the bound.
    let small = &test(&p, "secret/01_small/03").input_validator_args;
    assert_eq!(small.for_validator("validate.py"), ["max_n=1000"]);
    assert!(small.for_validator("divisor.ctd").is_empty());
    let large = &test(&p, "secret/02_large/01").input_validator_args;
    assert!(large.for_validator("validate.py").is_empty());
    // validator_flags first, then the group's output_validator_flags.
    assert_eq!(
        test(&p, "sample/1").output_validator_args,
        ["case_insensitive", "show_expected"]
    );
    assert_eq!(
        test(&p, "secret/02_large/01").output_validator_args,
        ["case_insensitive"]
    );
    let ov = p
        .output_validator
        .as_ref()
        .expect("custom output validator");
    assert_eq!(
        (ov.name.as_str(), kind(ov).as_str(), ov.is_dir),
        ("divisor_checker.py", "python3", false)
    );
    for (name, code) in [
        ("accepted/Divisor.java", "java"),
        ("accepted/divisor.c", "c"),
        ("accepted/divisor.py", "python3"),
        ("wrong_answer/divisor_up_to_1000.cc", "cpp"),
    ] {
        assert_eq!(language(&p, name), code, "{name}");
    }
    assert_eq!(p.submissions.len(), 6);
    assert_eq!(expects(&p, "wrong_answer/divisor_up_to_1000.cc"), ["WA"]);
    // Legacy time_limit_exceeded: "May also give wrong answer but not crash".
    assert_eq!(
        expects(&p, "time_limit_exceeded/divisor_linear.cc"),
        ["WA", "TLE"]
    );
    assert!(
        allows(&p, "time_limit_exceeded/divisor_linear.cc", "AAAAAAAWTAAAA").is_ok(),
        "a wrong answer besides the time-out"
    );
    assert!(allows(&p, "time_limit_exceeded/divisor_linear.cc", "AAAAAAARTAAAA").is_err());
    assert!(
        allows(&p, "time_limit_exceeded/divisor_linear.cc", "AAAAAAAWAAAAA").is_err(),
        "never too slow"
    );
    // Legacy run_time_error: some crash; anything else allowed, memory limits included.
    assert_eq!(
        expects(&p, "run_time_error/divisor_sieve.cc"),
        ["WA", "TLE", "RE"]
    );
    let sieve = &submission(&p, "run_time_error/divisor_sieve.cc").expectation;
    let mut out_of_memory = all(&p, Verdict::Ac);
    out_of_memory[7].1 = Verdict::Mle;
    assert!(sieve.allows_verdicts(&out_of_memory, Verdict::Mle).is_ok());
    assert!(
        sieve
            .allows_verdicts(&all(&p, Verdict::Ac), Verdict::Ac)
            .is_err()
    );
}

#[test]
fn echo_legacy_scoring_groups() {
    let p = read("echo");
    assert_eq!(p.version(), FormatVersion::Legacy);
    assert!(p.metadata.problem_type.scoring);
    assert_eq!(p.metadata.name, "Echo Back");
    assert!(p.uses_default_output_validator());
    assert_eq!(p.metadata.limits.time_limit, None);
    assert_eq!(p.metadata.limits.ac_to_time_limit, 5.0, "legacy default");
    assert_eq!(p.metadata.limits.time_limit_to_tle, 2.0, "legacy default");
    assert_eq!(
        names(&p),
        [
            "sample/1",
            "sample/2",
            "secret/group1/01_one",
            "secret/group1/02_ten",
            "secret/group1/03_bounds",
            "secret/group2/01_huge_values",
            "secret/group2/02_random_large",
            "secret/group2/03_long",
            "secret/group2/04_single_negative",
        ]
    );
    let group = |name: &str| {
        p.test_data
            .groups
            .iter()
            .find(|g| g.name == name)
            .unwrap_or_else(|| panic!("no group {name}"))
    };
    // data/testdata.yaml's range, replaced by each folder's own.
    assert_eq!(
        group("sample")
            .config
            .get("range")
            .and_then(RawValue::as_str),
        Some("0 0")
    );
    assert_eq!(
        group("sample")
            .config
            .get("accept_score")
            .and_then(RawValue::as_str),
        Some("0")
    );
    let secret = &group("secret").config;
    assert_eq!(
        secret.get("on_reject").and_then(RawValue::as_str),
        Some("continue")
    );
    assert_eq!(
        secret.get("grader_flags").and_then(RawValue::as_str),
        Some("sum accept_if_any_accepted")
    );
    let group1 = &group("secret/group1").config;
    assert_eq!(
        group1.get("accept_score").and_then(RawValue::as_str),
        Some("30")
    );
    assert_eq!(
        group1.get("grader_flags").and_then(RawValue::as_str),
        Some("min")
    );
    assert_eq!(
        group1.get("on_reject").and_then(RawValue::as_str),
        Some("break")
    );
    assert_eq!(
        group("secret/group2")
            .config
            .get("accept_score")
            .and_then(RawValue::as_str),
        Some("70")
    );
    assert_eq!(
        group("secret/group2").config.get("input_validator_flags"),
        None
    );
    assert_eq!(kind(&p.input_validators[0]), "cpp");
    assert_eq!(
        test(&p, "secret/group1/02_ten").input_validator_args,
        ValidatorArgs::All(vec!["small".to_string()])
    );
    assert_eq!(
        test(&p, "secret/group2/03_long").input_validator_args,
        ValidatorArgs::All(vec![])
    );
    for t in p.tests() {
        assert_eq!(p.default_validator_flags(t).unwrap(), Default::default());
    }
    for (name, code) in [
        ("accepted/echo.go", "go"),
        ("accepted/echo.py", "python3"),
        ("accepted/echo.rs", "rust"),
        ("partially_accepted/echo_int.c", "c"),
        ("wrong_answer/echo_forward.kt", "kotlin"),
    ] {
        assert_eq!(language(&p, name), code, "{name}");
    }
    // partially_accepted: accepted overall with a score below the maximum (the grader's
    // accept_if_any_accepted makes a run that solves group 1 only accepted, with 30 points).
    for name in [
        "partially_accepted/echo_int.c",
        "partially_accepted/echo_recursive.py",
    ] {
        let expectation = &submission(&p, name).expectation;
        assert!(expectation.rules[0].below_max_score, "{name}");
        let letters = OBSERVED_RUNS
            .iter()
            .find(|(package, s, _)| *package == "echo" && *s == name)
            .unwrap()
            .2;
        let results: Vec<TestResult> = run(&p, letters)
            .into_iter()
            .map(|(name, verdict)| TestResult {
                name,
                verdict,
                judge_message: "",
            })
            .collect();
        let partial = Outcome {
            tests: &results,
            score: Some(30.0),
            max_score: Some(100.0),
            ..Outcome::default()
        };
        assert!(expectation.allows(&partial).is_ok(), "{name}");
        let full = Outcome {
            score: Some(100.0),
            ..partial
        };
        assert!(
            matches!(
                expectation.allows(&full).unwrap_err().reasons[0],
                Reason::NotPartial { .. }
            ),
            "{name}"
        );
    }
}

#[test]
fn guess_2023_07_interactive_with_a_header() {
    let p = read("guess");
    assert_eq!(p.version(), FormatVersion::V2023_07);
    assert!(p.metadata.problem_type.interactive && !p.metadata.problem_type.multi_pass);
    assert_eq!(p.metadata.name, "Guess the Number");
    assert_eq!(
        p.metadata.names,
        [
            ("en".to_string(), "Guess the Number".to_string()),
            ("sv".to_string(), "Gissa talet".to_string())
        ]
    );
    assert_eq!(p.metadata.limits.ac_to_time_limit, 2.5);
    assert_eq!(p.metadata.limits.time_limit_to_tle, 3.0);
    assert_eq!(p.metadata.limits.memory_mib, 256);
    let expected: Vec<&str> = [
        "sample/1",
        "sample/2",
        "secret/01_single",
        "secret/02_low",
        "secret/03_high",
        "secret/04_middle",
        "secret/05_int_max",
        "secret/06_above_int",
        "secret/07_huge_low",
        "secret/08_huge_high",
        "secret/09_huge_random",
        "secret/10_huge_odd",
    ]
    .to_vec();
    assert_eq!(names(&p), expected);
    // Empty answer files are answers.
    for t in p.tests() {
        let answer = t.answer.as_ref().unwrap();
        assert_eq!(std::fs::metadata(answer).unwrap().len(), 0, "{}", t.name);
    }
    // The samples show interactions; one more protocol has no test behind it.
    assert!(
        p.tests()
            .iter()
            .filter(|t| t.category == Category::Sample)
            .all(|t| t.interaction.is_some())
    );
    assert_eq!(file_names(&p.test_data.interaction_only), ["3.interaction"]);
    let ov = p.output_validator.as_ref().unwrap();
    assert_eq!(ov.relative, Path::new("output_validator"));
    assert!(ov.is_dir);
    assert_eq!(kind(ov), "cpp");
    assert_eq!(file_names(&ov.files), ["interaction.h", "validator.cpp"]);
    assert_eq!(kind(&p.input_validators[0]), "ctd");
    for (name, code) in [
        ("accepted/Guess.kt", "kotlin"),
        ("accepted/guess.cpp", "cpp"),
        ("accepted/guess.py", "python3"),
        ("run_time_error/GuessStats.java", "java"),
    ] {
        assert_eq!(language(&p, name), code, "{name}");
    }
    // 2023-07 folders mean what they mean in 2025-09: run_time_error permits AC/RTE only.
    assert_eq!(expects(&p, "run_time_error/GuessStats.java"), ["RE"]);
    assert!(allows(&p, "run_time_error/GuessStats.java", "AARAARAAAAAW").is_err());
    assert_eq!(
        expects(&p, "time_limit_exceeded/guess_step_by_step.py"),
        ["TLE"]
    );
    assert!(
        allows(
            &p,
            "time_limit_exceeded/guess_step_by_step.py",
            "AAAAAWTTTTTA"
        )
        .is_err(),
        "2023-07 time_limit_exceeded permits AC and TLE only"
    );
    assert_eq!(expects(&p, "wrong_answer/guess_linear.py"), ["WA"]);
    assert_eq!(p.submissions.len(), 6);
}

#[test]
fn distance_float_tolerance_inherited_from_the_data_root() {
    let p = read("distance");
    assert_eq!(p.version(), FormatVersion::V2025_09);
    assert!(p.uses_default_output_validator());
    assert_eq!(
        names(&p),
        [
            "sample/1",
            "sample/2",
            "secret/01_axis",
            "secret/02_random",
            "secret/03_small_steps",
            "secret/extreme/01_corners",
            "secret/extreme/02_same_point",
        ]
    );
    // No test_group.yaml below secret: secret/extreme is a folder, not a group.
    assert_eq!(test(&p, "secret/extreme/01_corners").group, "secret");
    let groups: Vec<&str> = p.test_data.groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(groups, ["sample", "secret"]);
    // data/test_group.yaml applies to every test below data/, validation cases included.
    for t in p.tests().iter().chain(&p.test_data.validation_cases) {
        assert_eq!(
            t.output_validator_args,
            ["float_tolerance", "1e-6"],
            "{}",
            t.name
        );
        let flags = p.default_validator_flags(t).unwrap();
        assert_eq!(flags.float_absolute_tolerance, Some(1e-6));
        assert_eq!(flags.float_relative_tolerance, Some(1e-6));
        assert!(!flags.case_sensitive && !flags.space_change_sensitive);
    }
    let count = |c: Category| p.validation_cases(c).count();
    assert_eq!(count(Category::InvalidInput), 5);
    assert_eq!(count(Category::ValidOutput), 2);
    assert_eq!(count(Category::InvalidOutput), 2);
    assert!(
        p.validation_cases(Category::InvalidInput)
            .all(|t| t.answer.is_none())
    );
    let not_an_integer = p
        .validation_cases(Category::InvalidInput)
        .find(|t| t.name == "invalid_input/05_not_an_integer")
        .unwrap();
    assert_eq!(
        not_an_integer
            .config
            .get("description")
            .and_then(RawValue::as_str),
        Some("coordinates are integers; 1.5 must be refused")
    );
    // The default output validator agrees with the package's output validation cases.
    for category in [Category::ValidOutput, Category::InvalidOutput] {
        for t in p.validation_cases(category) {
            let answer = std::fs::read(t.answer.as_ref().unwrap()).unwrap();
            let output = std::fs::read(t.output.as_ref().unwrap()).unwrap();
            let flags = p.default_validator_flags(t).unwrap();
            assert_eq!(
                check(&answer, &output, &flags).is_ok(),
                category == Category::ValidOutput,
                "{}",
                t.name
            );
        }
    }
    assert_eq!(kind(&p.input_validators[0]), "c");
    for (name, code) in [
        ("accepted/distance.c", "c"),
        ("accepted/distance.go", "go"),
        ("accepted/distance.rs", "rust"),
        ("wrong_answer/manhattan.py", "python3"),
        ("wrong_answer/two_decimals.cc", "cpp"),
    ] {
        assert_eq!(language(&p, name), code, "{name}");
    }
}

#[test]
fn sum_groups_constants_test_yaml_files_and_symlinks() {
    let p = read("sum");
    assert_eq!(p.version(), FormatVersion::V2025_09);
    assert!(p.metadata.problem_type.scoring);
    assert_eq!(p.metadata.name, "Add Them Up");
    assert_eq!(
        p.metadata.names,
        [
            ("en".to_string(), "Add Them Up".to_string()),
            ("de".to_string(), "Zusammenzählen".to_string())
        ]
    );
    assert_eq!(p.metadata.keywords, ["arithmetic", "overflow"]);
    let constants = &p.metadata.constants;
    assert_eq!(constants["small_bound"], "1000");
    assert_eq!(constants["large_bound"], "1000000000000000000");
    assert_eq!(constants["large_bound.tex"], "10^{18}");
    let limits = &p.metadata.limits;
    assert_eq!(
        (
            limits.time_limit,
            limits.ac_to_time_limit,
            limits.time_limit_to_tle
        ),
        (None, 3.0, 1.5)
    );
    assert_eq!((limits.time_resolution, limits.memory_mib), (0.5, 512));
    assert_eq!(
        names(&p),
        [
            "sample/1",
            "sample/2",
            "secret/1_small/01_sample_again",
            "secret/1_small/02_zeros",
            "secret/1_small/03_bounds",
            "secret/1_small/04_answer",
            "secret/2_large/01_big",
            "secret/2_large/02_negative",
            "secret/2_large/03_mixed",
            "secret/2_large/04_files",
            "secret/2_large/edge/01_max_min",
            "secret/2_large/edge/02_int32_boundary",
        ]
    );
    let groups: Vec<&str> = p.test_data.groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(
        groups,
        ["sample", "secret", "secret/1_small", "secret/2_large"]
    );
    assert_eq!(
        p.test_data.groups[2]
            .config
            .get("max_score")
            .and_then(RawValue::as_str),
        Some("30")
    );
    assert_eq!(
        p.test_data.groups[3]
            .config
            .get("max_score")
            .and_then(RawValue::as_str),
        Some("70")
    );
    // A folder inside a group is no group of its own.
    assert_eq!(
        test(&p, "secret/2_large/edge/01_max_min").group,
        "secret/2_large"
    );
    // Constants substituted in test_group.yaml: a map for one validator, a list for all.
    let small = &test(&p, "secret/1_small/02_zeros").input_validator_args;
    assert_eq!(
        small.for_validator("validate.py"),
        ["--max", "1000", "--non-negative"]
    );
    assert!(small.for_validator("other.ctd").is_empty());
    assert_eq!(
        test(&p, "secret/2_large/03_mixed").input_validator_args,
        ValidatorArgs::All(vec!["--max".into(), "1000000000000000000".into()])
    );
    // A test's own .yaml replaces the group's keys, constants substituted there too.
    let negative = test(&p, "secret/2_large/02_negative");
    assert!(
        negative
            .config_file
            .as_ref()
            .unwrap()
            .ends_with("data/secret/2_large/02_negative.yaml")
    );
    assert_eq!(
        negative.input_validator_args.for_validator("validate.py"),
        ["--max", "1000000000000000000", "--expect-negative"]
    );
    assert_eq!(
        negative.config.get("hint").and_then(RawValue::as_str),
        Some("does your program read negative numbers?")
    );
    assert_eq!(
        negative.config.get("max_score").and_then(RawValue::as_str),
        Some("70"),
        "inherited"
    );
    // .files: copied into the submission's working folder.
    let files = test(&p, "secret/2_large/04_files").files.as_ref().unwrap();
    assert!(files.join("numbers.txt").is_file());
    assert_eq!(p.tests().iter().filter(|t| t.files.is_some()).count(), 1);
    // Symlinks inside the package are followed.
    let again = test(&p, "secret/1_small/01_sample_again");
    for file in [&again.input, again.answer.as_ref().unwrap()] {
        assert!(
            std::fs::symlink_metadata(file)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
    assert_eq!(
        std::fs::read(&again.input).unwrap(),
        std::fs::read(&test(&p, "sample/1").input).unwrap()
    );
    let invalid: Vec<&str> = p
        .validation_cases(Category::InvalidInput)
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(
        invalid,
        [
            "invalid_input/01_too_big",
            "invalid_input/02_plus_sign",
            "invalid_input/03_three_numbers",
            "invalid_input/04_negative_in_small",
        ]
    );
    let negative_small = p.validation_cases(Category::InvalidInput).last().unwrap();
    assert_eq!(
        negative_small
            .input_validator_args
            .for_validator("validate.py"),
        ["--max", "1000", "--non-negative"]
    );
    assert_eq!(kind(&p.input_validators[0]), "python3");
    assert!(p.uses_default_output_validator());
}

#[test]
fn sum_submissions_yaml() {
    let p = read("sum");
    let listed: Vec<&str> = p.submissions.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        listed,
        [
            "accepted/Sum.java",
            "accepted/sum.py",
            "accepted/sum.rs",
            "accepted/sum_from_file.py",
            "accepted/two_files",
            "brute_force/sum_by_counting.py",
            "mixed/sum_float.py",
            "rejected/sum_float_print.py",
            "run_time_error/sum_to_int.kt",
            "time_limit_exceeded/sum_by_counting.go",
            "wrong_answer/sum_int32.c",
        ],
        "sum.sh.disabled is left out"
    );
    for (name, code) in [
        ("accepted/Sum.java", "java"),
        ("accepted/sum.rs", "rust"),
        ("run_time_error/sum_to_int.kt", "kotlin"),
        ("time_limit_exceeded/sum_by_counting.go", "go"),
        ("wrong_answer/sum_int32.c", "c"),
    ] {
        assert_eq!(language(&p, name), code, "{name}");
    }
    // A folder submission whose language and entry point submissions.yaml gives.
    let two = submission(&p, "accepted/two_files");
    assert!(two.program.is_dir);
    assert_eq!(file_names(&two.program.files), ["main.py", "parse.py"]);
    assert_eq!(two.language.map(|l| l.code), Some("python3"));
    assert_eq!(two.entrypoint.as_deref(), Some("main.py"));
    // Brace expansion picks two of the accepted ones as model solutions.
    let models: Vec<&str> = p
        .submissions
        .iter()
        .filter(|s| s.model_solution)
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(models, ["accepted/Sum.java", "accepted/sum.py"]);

    // Scores: `accepted: {score: 100}` adds to the folder's default, key by key.
    let score_outcome = |name: &str, score: f64, group_scores: &[(&str, f64)]| {
        let letters = OBSERVED_RUNS
            .iter()
            .find(|(package, s, _)| *package == "sum" && *s == name)
            .unwrap()
            .2;
        let results: Vec<TestResult> = run(&p, letters)
            .into_iter()
            .map(|(name, verdict)| TestResult {
                name,
                verdict,
                judge_message: "",
            })
            .collect();
        let group_scores = group_scores.to_vec();
        let outcome = Outcome {
            tests: &results,
            score: Some(score),
            group_scores: &group_scores,
            max_score: Some(100.0),
            ..Outcome::default()
        };
        submission(&p, name).expectation.allows(&outcome)
    };
    let full = [("secret/1_small", 30.0), ("secret/2_large", 70.0)];
    let small_only = [("secret/1_small", 30.0), ("secret/2_large", 0.0)];
    for name in [
        "accepted/Sum.java",
        "accepted/sum.py",
        "accepted/sum.rs",
        "accepted/sum_from_file.py",
        "accepted/two_files",
    ] {
        assert_eq!(submission(&p, name).expectation.rules.len(), 1, "{name}");
        assert!(score_outcome(name, 100.0, &full).is_ok(), "{name}");
        assert!(score_outcome(name, 99.0, &full).is_err(), "{name}");
    }
    // The observed runs with their real scores.
    for name in [
        "wrong_answer/sum_int32.c",
        "run_time_error/sum_to_int.kt",
        "brute_force/sum_by_counting.py",
    ] {
        let result = score_outcome(name, 30.0, &small_only);
        assert!(result.is_ok(), "{name}: {result:?}");
        assert!(score_outcome(name, 100.0, &full).is_err(), "{name}");
    }
    assert!(
        score_outcome(
            "rejected/sum_float_print.py",
            0.0,
            &[("secret/1_small", 0.0), ("secret/2_large", 0.0)]
        )
        .is_ok()
    );
    // wrong_answer/sum_int32.c: per-group score ranges and verdicts.
    let why = score_outcome(
        "wrong_answer/sum_int32.c",
        30.0,
        &[("secret/1_small", 0.0), ("secret/2_large", 30.0)],
    )
    .unwrap_err();
    assert!(
        why.reasons
            .iter()
            .any(|r| matches!(r, Reason::Score { rule, .. } if rule.contains("secret/1_small"))),
        "{why}"
    );
    assert!(
        allows(&p, "wrong_answer/sum_int32.c", "AAAAAWWWWWAW").is_err(),
        "secret/1_small must be all AC"
    );
    // The override of rejected/: `required: [WA]` replaces the default [RTE, TLE, WA].
    let rejected = &submission(&p, "rejected/sum_float_print.py").expectation;
    assert!(matches!(rejected.rules[0].origin, RuleOrigin::Folder(ref f) if f == "rejected"));
    assert!(allows(&p, "rejected/sum_float_print.py", "AAAAAAAAAAAT").is_err());
    // @EXPECTED_RESULTS@ outside the standard folders: final WA, every test AC or WA.
    let float = &submission(&p, "mixed/sum_float.py").expectation;
    assert!(
        matches!(float.rules[..], [ref rule] if rule.origin == RuleOrigin::ExpectedResults("mixed/sum_float.py".into()))
    );
    assert_eq!(expects(&p, "mixed/sum_float.py"), ["WA"]);
    assert!(allows(&p, "mixed/sum_float.py", "AAAAAAAAAAAA").is_err());
    assert!(allows(&p, "mixed/sum_float.py", "AAAAAAAARAAA").is_err());
    // In wrong_answer/ the line is ignored (the folder's rule stands).
    assert!(
        !submission(&p, "wrong_answer/sum_int32.c")
            .expectation
            .rules
            .iter()
            .any(|r| matches!(r.origin, RuleOrigin::ExpectedResults(_)))
    );
    // Time-limit roles: the counting programs bound it from below on the small group and
    // from above on the large one; the Python one opts out on the small group, and the
    // brute_force folder itself does not bound it.
    let roles = |name: &str| -> Vec<(String, TimeLimitRole)> {
        submission(&p, name)
            .expectation
            .time_limit_roles()
            .into_iter()
            .map(|(g, r)| (g.map_or("*".into(), |g| g.as_str().to_string()), r))
            .collect()
    };
    assert_eq!(
        roles("time_limit_exceeded/sum_by_counting.go"),
        [
            ("*".to_string(), TimeLimitRole::Upper),
            ("secret/*_small".to_string(), TimeLimitRole::Lower),
            ("secret/2_large".to_string(), TimeLimitRole::Upper),
        ]
    );
    assert_eq!(
        roles("brute_force/sum_by_counting.py"),
        [
            ("secret/*_small".to_string(), TimeLimitRole::Lower),
            ("secret/2_large".to_string(), TimeLimitRole::Upper),
        ]
    );
    assert_eq!(
        roles("accepted/sum.py"),
        [("*".to_string(), TimeLimitRole::Lower)]
    );
}

#[test]
fn twopass_multi_pass_with_messages() {
    let p = read("twopass");
    assert_eq!(p.version(), FormatVersion::V2025_09);
    let ty = p.metadata.problem_type;
    assert!(ty.multi_pass && !ty.interactive && !ty.scoring);
    assert_eq!(p.metadata.name, "Noisy Channel");
    assert_eq!(p.metadata.limits.validation_passes, 2);
    assert_eq!(
        names(&p),
        [
            "sample/1",
            "sample/2",
            "secret/01_zero_first_bit",
            "secret/02_all_ones",
            "secret/03_no_flip",
            "secret/04_early_flip",
            "secret/05_last_bit",
            "secret/06_middle",
        ]
    );
    // Samples shown as interactions (passes separated by ---); .in.download is no test.
    let sample = test(&p, "sample/2");
    let interaction = std::fs::read_to_string(sample.interaction.as_ref().unwrap()).unwrap();
    assert_eq!(interaction.lines().filter(|l| *l == "---").count(), 1);
    assert!(p.test_data.interaction_only.is_empty());
    let ov = p.output_validator.as_ref().unwrap();
    assert_eq!((kind(ov).as_str(), ov.is_dir), ("python3", true));
    assert_eq!(file_names(&ov.files), ["validator.py"]);
    assert_eq!(kind(&p.input_validators[0]), "python3");
    assert_eq!(kind(&p.answer_validators[0]), "ctd");
    assert_eq!(p.submissions.len(), 5);
    // `message`: a wrong decoder must be rejected with the validator's words.
    for name in ["wrong_answer/plain_binary.py", "wrong_answer/two_copies.c"] {
        let expectation = &submission(&p, name).expectation;
        let letters = OBSERVED_RUNS
            .iter()
            .find(|(package, s, _)| *package == "twopass" && *s == name)
            .unwrap()
            .2;
        let verdicts = run(&p, letters);
        let messages: Vec<String> = verdicts
            .iter()
            .map(|(_, v)| match v {
                Verdict::Wa => "pass 1: code accepted; flipped bit 0\npass 2: wrong decoding: got 524288, expected 0\n".to_string(),
                _ => "pass 1: code accepted; flipped bit 30\npass 2: decoded 5\n".to_string(),
            })
            .collect();
        let results: Vec<TestResult> = verdicts
            .iter()
            .zip(&messages)
            .map(|((name, verdict), message)| TestResult {
                name,
                verdict: *verdict,
                judge_message: message,
            })
            .collect();
        let outcome = Outcome {
            tests: &results,
            ..Outcome::default()
        };
        assert!(expectation.allows(&outcome).is_ok(), "{name}");
        let silent: Vec<TestResult> = results
            .iter()
            .map(|r| TestResult {
                judge_message: "",
                ..*r
            })
            .collect();
        let why = expectation
            .allows(&Outcome {
                tests: &silent,
                ..Outcome::default()
            })
            .unwrap_err();
        assert!(matches!(why.reasons[..], [Reason::Message { .. }]), "{why}");
        // secret/03_no_flip must be accepted.
        assert!(allows(&p, name, "AAWAWWAA").is_err(), "{name}");
    }
    assert_eq!(expects(&p, "run_time_error/forgot_decode.py"), ["RE"]);
}

#[test]
fn remember_interactive_multi_pass() {
    let p = read("remember");
    let ty = p.metadata.problem_type;
    assert!(ty.multi_pass && ty.interactive);
    assert_eq!(p.metadata.name, "Remember the Number");
    assert_eq!(p.metadata.limits.validation_passes, 2);
    assert_eq!(
        names(&p),
        [
            "sample/1",
            "secret/01_single",
            "secret/02_lowest",
            "secret/03_highest",
            "secret/04_inside",
            "secret/05_half",
        ]
    );
    assert!(test(&p, "sample/1").interaction.is_some());
    let ov = p.output_validator.as_ref().unwrap();
    assert_eq!(kind(ov), "c");
    assert_eq!(file_names(&ov.files), ["validator.c"]);
    assert_eq!(kind(&p.input_validators[0]), "ctd");
    assert_eq!(language(&p, "accepted/remember.rs"), "rust");
    assert_eq!(expects(&p, "run_time_error/debug_log.cc"), ["RE"]);
    assert_eq!(expects(&p, "wrong_answer/forgetful.py"), ["WA"]);
    assert_eq!(p.submissions.len(), 4);
}

#[test]
fn a_symlink_out_of_the_package_is_refused() {
    // guess as it would be with its validator's header linked from outside the package.
    let copy = scratch("escape");
    copy_dir(&dir("guess"), &copy);
    let header = copy.join("output_validator/interaction.h");
    let outside = copy.parent().unwrap().join(format!(
        "{}-interaction.h",
        copy.file_name().unwrap().to_string_lossy()
    ));
    std::fs::rename(&header, &outside).unwrap();
    std::os::unix::fs::symlink(&outside, &header).unwrap();
    let e = Package::read(&copy).unwrap_err();
    assert!(matches!(e, PackageError::SymlinkEscapes { .. }), "{e}");
    assert_eq!(
        e.location().path,
        Path::new("output_validator/interaction.h")
    );
    // A relative link up and out, to a file that exists: still refused, never read.
    std::fs::remove_file(&header).unwrap();
    let relative = Path::new("../..").join(outside.file_name().unwrap());
    std::os::unix::fs::symlink(&relative, &header).unwrap();
    let e = Package::read(&copy).unwrap_err();
    assert!(matches!(e, PackageError::SymlinkEscapes { .. }), "{e}");
    // The same link inside the package is followed.
    std::fs::remove_file(&header).unwrap();
    std::fs::rename(&outside, copy.join("output_validator/real_header.h")).unwrap();
    std::os::unix::fs::symlink("real_header.h", &header).unwrap();
    let p = Package::read(&copy).unwrap();
    assert_eq!(
        file_names(&p.output_validator.unwrap().files),
        ["interaction.h", "real_header.h", "validator.cpp"]
    );
    std::fs::remove_dir_all(&copy).unwrap();
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "package-format-{}-{name}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        let meta = std::fs::symlink_metadata(entry.path()).unwrap();
        if meta.file_type().is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).unwrap(), &target).unwrap();
        } else if meta.is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn input_validator_args_for_a_named_validator() {
    let args =
        ValidatorArgs::PerValidator([("validator".to_string(), vec!["x".to_string()])].into());
    assert_eq!(args.for_validator("validator"), ["x"]);
    assert_eq!(args.for_validator("validator.py"), ["x"]);
    assert!(args.for_validator("other.ctd").is_empty());
}
