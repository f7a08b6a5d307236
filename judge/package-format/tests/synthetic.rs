//! Small packages written on the fly: one behaviour of a version each, the errors and where
//! they point, and hostile shapes (random bytes, links, FIFOs, loops) that must never panic.

use std::path::{Path, PathBuf};

use package_format::{Category, FormatVersion, Package, PackageError, ValidatorArgs, Verdict};
use proptest::prelude::*;

/// A scratch package folder, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "package-format-synthetic-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn file(&self, path: &str, content: &str) -> &Scratch {
        self.bytes(path, content.as_bytes())
    }

    fn bytes(&self, path: &str, content: &[u8]) -> &Scratch {
        let p = self.0.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
        self
    }

    fn link(&self, path: &str, target: &str) -> &Scratch {
        let p = self.0.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, p).unwrap();
        self
    }

    fn read(&self) -> Result<Package, PackageError> {
        Package::read(&self.0)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A minimal valid package of `version` with `problem_yaml` extra lines.
fn minimal(version: &str, extra: &str) -> Scratch {
    let s = Scratch::new();
    let header = if version == "legacy" {
        String::new()
    } else {
        format!("problem_format_version: {version}\nuuid: 00000000-0000-0000-0000-000000000000\n")
    };
    s.file("problem.yaml", &format!("{header}name: Minimal\n{extra}"))
        .file("data/sample/1.in", "1\n")
        .file("data/sample/1.ans", "1\n")
        .file("data/secret/1.in", "2\n")
        .file("data/secret/1.ans", "2\n")
        .file("input_validators/validate.ctd", "INT(1,9) NEWLINE EOF\n")
        .file("submissions/accepted/a.py", "print(input())\n");
    s
}

fn warned(p: &Package, text: &str) -> bool {
    p.warnings.iter().any(|w| w.to_string().contains(text))
}

#[test]
fn minimal_packages_of_every_version() {
    for (version, want) in [
        ("legacy", FormatVersion::Legacy),
        ("legacy-icpc", FormatVersion::LegacyIcpc),
        ("2023-07", FormatVersion::V2023_07),
        ("2025-09", FormatVersion::V2025_09),
        ("draft", FormatVersion::V2025_09),
    ] {
        let s = minimal(version, "");
        let p = s.read().unwrap_or_else(|e| panic!("{version}: {e}"));
        assert_eq!(p.version(), want);
        let names: Vec<&str> = p.tests().iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["sample/1", "secret/1"], "{version}");
        assert!(p.uses_default_output_validator());
        assert_eq!(p.submissions.len(), 1);
        assert!(p.submissions[0].expectation.is_accepted());
    }
}

#[test]
fn an_input_without_an_answer_is_an_error_naming_it() {
    let s = minimal("2025-09", "");
    s.file("data/secret/group/7.in", "7\n");
    let e = s.read().unwrap_err();
    assert!(matches!(e, PackageError::Missing { .. }), "{e}");
    assert_eq!(e.location().path, Path::new("data/secret/group/7.in"));
    assert!(e.to_string().contains("7.ans"), "{e}");
    // In invalid_input no answer is needed.
    let s = minimal("2025-09", "");
    s.file("data/invalid_input/bad.in", "x\n");
    let p = s.read().unwrap();
    let bad: Vec<_> = p.validation_cases(Category::InvalidInput).collect();
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0].answer, None);
}

#[test]
fn legacy_flags_are_split_strings_and_validator_flags_come_first() {
    let s = minimal("legacy", "validator_flags: float_tolerance 1e-6\n");
    s.file(
        "data/secret/testdata.yaml",
        "output_validator_flags: case_sensitive\ninput_validator_flags: a=1 b=2\n",
    )
    .file(
        "data/secret/g/testdata.yaml",
        "input_validator_flags: {name: validate, flags: c=3}\n",
    )
    .file("data/secret/g/5.in", "5\n")
    .file("data/secret/g/5.ans", "5\n");
    let p = s.read().unwrap();
    let t = |name: &str| p.tests().iter().find(|t| t.name == name).unwrap();
    assert_eq!(
        t("secret/1").output_validator_args,
        ["float_tolerance", "1e-6", "case_sensitive"]
    );
    assert_eq!(
        t("secret/1").input_validator_args,
        ValidatorArgs::All(vec!["a=1".into(), "b=2".into()])
    );
    assert_eq!(
        t("secret/g/5")
            .input_validator_args
            .for_validator("validate.ctd"),
        ["c=3"]
    );
    assert_eq!(
        t("secret/g/5").input_validator_args.for_validator("other"),
        [] as [String; 0]
    );
    // Legacy: every folder is a group; inherited output flags.
    assert_eq!(t("secret/g/5").group, "secret/g");
    assert_eq!(
        t("secret/g/5").output_validator_args,
        ["float_tolerance", "1e-6", "case_sensitive"]
    );
    assert_eq!(
        t("sample/1").output_validator_args,
        ["float_tolerance", "1e-6"]
    );
    let flags = p.default_validator_flags(t("secret/1")).unwrap();
    assert!(flags.case_sensitive);
    assert_eq!(flags.float_relative_tolerance, Some(1e-6));
}

#[test]
fn modern_args_lists_maps_and_test_yaml() {
    let s = minimal("2025-09", "constants:\n  MAX: 9\n");
    s.file(
        "data/secret/test_group.yaml",
        "input_validator_args:\n  validate.ctd: [--max, '{{MAX}}']\noutput_validator_args: [float_tolerance, '1e-3']\nargs: [a]\n",
    )
    .file("data/secret/1.yaml", "args: [b, c]\noutput_validator_args: [case_sensitive]\n")
    .file("data/secret/2.in", "2\n")
    .file("data/secret/2.ans", "2\n");
    let p = s.read().unwrap();
    let t = |name: &str| p.tests().iter().find(|t| t.name == name).unwrap();
    assert_eq!(t("secret/1").args, ["b", "c"]);
    assert_eq!(t("secret/2").args, ["a"]);
    assert_eq!(t("secret/1").output_validator_args, ["case_sensitive"]);
    assert_eq!(
        t("secret/2").output_validator_args,
        ["float_tolerance", "1e-3"]
    );
    // Constants substituted in test_group.yaml.
    assert_eq!(
        t("secret/2")
            .input_validator_args
            .for_validator("validate.ctd"),
        ["--max", "9"]
    );
    assert!(t("sample/1").args.is_empty());
    // 2025-09 without groups: everything in secret belongs to secret.
    assert_eq!(t("secret/2").group, "secret");
}

#[test]
fn groups_of_2025_09_are_folders_with_test_group_yaml() {
    let s = minimal("2025-09", "type: scoring\n");
    std::fs::remove_file(s.path().join("data/secret/1.in")).unwrap();
    std::fs::remove_file(s.path().join("data/secret/1.ans")).unwrap();
    s.file("data/secret/g1/test_group.yaml", "max_score: 40\n")
        .file("data/secret/g1/sub/1.in", "1\n")
        .file("data/secret/g1/sub/1.ans", "1\n")
        .file(
            "data/secret/g2/test_group.yaml",
            "max_score: 60\nscore_aggregation: min\n",
        )
        .file("data/secret/g2/1.in", "1\n")
        .file("data/secret/g2/1.ans", "1\n");
    let p = s.read().unwrap();
    let groups: Vec<(&str, &str)> = p
        .tests()
        .iter()
        .map(|t| (t.name.as_str(), t.group.as_str()))
        .collect();
    assert_eq!(
        groups,
        [
            ("sample/1", "sample"),
            ("secret/g1/sub/1", "secret/g1"),
            ("secret/g2/1", "secret/g2")
        ]
    );
    let g2 = p
        .test_data
        .groups
        .iter()
        .find(|g| g.name == "secret/g2")
        .unwrap();
    assert_eq!(
        g2.config.get("score_aggregation").and_then(|v| v.as_str()),
        Some("min")
    );
    assert!(!warned(&p, "every test must be in one"));
    // A loose test next to groups: warned.
    s.file("data/secret/loose.in", "1\n")
        .file("data/secret/loose.ans", "1\n");
    let p = s.read().unwrap();
    assert!(warned(&p, "every test must be in one"));
}

#[test]
fn testdata_yaml_is_2025_09_only_as_test_group_yaml() {
    let s = minimal("2025-09", "");
    s.file(
        "data/secret/testdata.yaml",
        "output_validator_args: [case_sensitive]\n",
    );
    let p = s.read().unwrap();
    assert!(warned(&p, "ignored: testdata.yaml is not the 2025-09 name"));
    assert!(p.tests()[1].output_validator_args.is_empty());
    // 2023-07 reads both.
    let s = minimal("2023-07", "");
    s.file(
        "data/secret/testdata.yaml",
        "output_validator_flags: case_sensitive\n",
    );
    let p = s.read().unwrap();
    assert_eq!(p.tests()[1].output_validator_args, ["case_sensitive"]);
}

#[test]
fn yaml_errors_point_at_line_and_column() {
    let s = minimal("2025-09", "limits:\n  memory: lots\n");
    let e = s.read().unwrap_err();
    assert_eq!(
        e.to_string(),
        "problem.yaml:5:11: limits.memory: expected an integer >= 1, found the string \"lots\""
    );
    let s = minimal("2025-09", "");
    s.file("data/secret/test_group.yaml", "args: [a, b\n");
    let e = s.read().unwrap_err();
    assert!(matches!(e, PackageError::Yaml { .. }), "{e}");
    assert_eq!(e.location().path, Path::new("data/secret/test_group.yaml"));
    assert!(e.location().line.is_some());
    let s = minimal("2025-09", "");
    s.file(
        "data/secret/test_group.yaml",
        "\noutput_validator_args: case_sensitive\n",
    );
    let e = s.read().unwrap_err();
    assert_eq!(
        e.to_string(),
        "data/secret/test_group.yaml:2:24: output_validator_args: expected a list of strings, found the string \"case_sensitive\""
    );
    let s = minimal("2025-09", "");
    s.file(
        "submissions/submissions.yaml",
        "accepted:\n  permitted: [AC, OK]\n",
    );
    let e = s.read().unwrap_err();
    assert!(
        e.to_string()
            .starts_with("submissions/submissions.yaml:2:14:"),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("`OK` is not one of AC, WA, TLE, RTE"),
        "{e}"
    );
}

#[test]
fn unknown_keys_warn_and_bad_names_are_skipped() {
    let s = minimal("2025-09", "verified: yes\n");
    s.file("data/secret/bad name.in", "1\n")
        .file("data/secret/.hidden.in", "1\n")
        .file("data/secret/-dash.in", "1\n");
    let p = s.read().unwrap();
    assert!(warned(&p, "problem.yaml:4:1: ignored: `verified`"));
    assert!(warned(&p, "`bad name.in` is not a valid 2025-09 file name"));
    assert!(warned(&p, "`-dash.in` is not a valid"));
    assert!(
        !warned(&p, ".hidden"),
        "names starting with a dot are skipped silently"
    );
    assert_eq!(p.tests().len(), 2);
}

#[test]
fn legacy_icpc_names_are_stricter() {
    let s = minimal("legacy-icpc", "");
    s.file("data/secret/_x.in", "1\n")
        .file("data/secret/_x.ans", "1\n");
    let p = s.read().unwrap();
    assert_eq!(p.tests().len(), 2, "_x is not a legacy-icpc name");
    assert!(warned(&p, "`_x.ans` is not a valid legacy-icpc file name"));
}

#[test]
fn custom_validation_needs_a_validator() {
    let s = minimal("legacy", "validation: custom\n");
    let e = s.read().unwrap_err();
    assert_eq!(e.location().path, Path::new("output_validators"));
    s.file("output_validators/check/check.cpp", "int main(){}\n");
    let p = s.read().unwrap();
    assert_eq!(p.output_validator.as_ref().unwrap().name, "check");
    let s = minimal("2025-09", "type: interactive\n");
    assert!(s.read().is_err(), "interactive needs an output validator");
    s.file("output_validator/validator.py", "import sys\n");
    let p = s.read().unwrap();
    assert!(p.metadata.problem_type.interactive);
    assert_eq!(
        p.output_validator.as_ref().unwrap().relative,
        Path::new("output_validator")
    );
}

#[test]
fn an_output_validator_folder_holding_one_program_folder_is_that_program() {
    // problemtools' own 2023-07 `guess` example: output_validator/guess_validator/validate.cc.
    let s = minimal("2023-07", "type: interactive\n");
    s.file(
        "output_validator/guess_validator/validate.cc",
        "int main(){}\n",
    )
    .file("output_validator/guess_validator/validate.h", "\n");
    let p = s.read().unwrap();
    let validator = p.output_validator.as_ref().unwrap();
    assert_eq!(
        validator.relative,
        Path::new("output_validator/guess_validator")
    );
    assert_eq!(validator.files.len(), 2);
    // Anything besides it at the top: the folder itself is the program.
    s.file("output_validator/README", "notes\n");
    let p = s.read().unwrap();
    assert_eq!(
        p.output_validator.as_ref().unwrap().relative,
        Path::new("output_validator")
    );
}

#[test]
fn timelimit_file_when_problem_yaml_gives_none() {
    let s = minimal("2025-09", "");
    s.file(".timelimit", "2.5\n");
    let p = s.read().unwrap();
    assert_eq!(p.metadata.limits.time_limit, Some(2.5));
    let s = minimal("legacy", "");
    s.file(".timelimit", "4\n");
    assert_eq!(s.read().unwrap().metadata.limits.time_limit, Some(4.0));
}

#[test]
fn legacy_name_from_the_statement() {
    let s = Scratch::new();
    s.file("problem.yaml", "source: Somewhere\n")
        .file("problem_statement/problem.sv.tex", "\\problemname{Hej}\n")
        .file(
            "problem_statement/problem.en.tex",
            "\\problemname{Hello $x^{2}$}\n",
        )
        .file("data/secret/1.in", "1\n")
        .file("data/secret/1.ans", "1\n");
    let p = s.read().unwrap();
    assert_eq!(p.metadata.name, "Hello $x^{2}$");
}

#[test]
fn expected_results_outside_the_standard_folders_only() {
    let s = minimal("2025-09", "");
    s.file(
        "submissions/mixed/m.c",
        "// @EXPECTED_RESULTS@: TIMELIMIT, run-error\nint main(){}\n",
    )
    .file(
        "submissions/wrong_answer/w.c",
        "// @EXPECTED_RESULTS@: CORRECT\nint main(){}\n",
    );
    let p = s.read().unwrap();
    let m = p
        .submissions
        .iter()
        .find(|s| s.name == "mixed/m.c")
        .unwrap();
    assert_eq!(
        m.expectation.expected_final_verdicts().shorts(),
        ["TLE", "RE"]
    );
    let run = [("sample/1", Verdict::Ac), ("secret/1", Verdict::Tle)];
    assert!(m.expectation.allows_verdicts(&run, Verdict::Tle).is_ok());
    let w = p
        .submissions
        .iter()
        .find(|s| s.name == "wrong_answer/w.c")
        .unwrap();
    assert_eq!(w.expectation.expected_final_verdicts().shorts(), ["WA"]);
    assert!(warned(&p, "@EXPECTED_RESULTS@ ignored in wrong_answer/"));
}

#[test]
fn a_folder_without_a_rule_expects_nothing_and_says_so() {
    // problemtools' examples keep slow but correct solutions in `slow_accepted/`, which no
    // version defines: nothing can be checked, and the reader says so.
    let s = minimal("legacy", "");
    s.file("submissions/slow_accepted/slow.py", "print(input())\n");
    let p = s.read().unwrap();
    let slow = p
        .submissions
        .iter()
        .find(|s| s.name == "slow_accepted/slow.py")
        .unwrap();
    assert!(slow.expectation.rules.is_empty());
    let run = [("sample/1", Verdict::Re), ("secret/1", Verdict::Tle)];
    assert!(slow.expectation.allows_verdicts(&run, Verdict::Re).is_ok());
    assert!(warned(
        &p,
        "slow_accepted/slow.py: nothing says what it should get"
    ));
}

#[test]
fn submissions_yaml_overrides_default_folders_key_by_key() {
    let s = minimal("2025-09", "");
    s.file(
        "submissions/submissions.yaml",
        "time_limit_exceeded:\n  permitted: [AC, WA, TLE]\n",
    )
    .file("submissions/time_limit_exceeded/slow.py", "\n");
    let p = s.read().unwrap();
    let slow = p
        .submissions
        .iter()
        .find(|s| s.name == "time_limit_exceeded/slow.py")
        .unwrap();
    assert_eq!(
        slow.expectation.rules.len(),
        1,
        "merged into the folder's rule"
    );
    // required [TLE] inherited from the default.
    let run = [("sample/1", Verdict::Wa), ("secret/1", Verdict::Tle)];
    assert!(slow.expectation.allows_verdicts(&run, Verdict::Wa).is_ok());
    let run = [("sample/1", Verdict::Wa), ("secret/1", Verdict::Wa)];
    assert!(slow.expectation.allows_verdicts(&run, Verdict::Wa).is_err());
}

#[test]
fn symlinks_inside_are_followed_outside_refused() {
    let s = minimal("2025-09", "");
    s.link("data/secret/2.in", "1.in")
        .link("data/secret/2.ans", "../secret/1.ans");
    let p = s.read().unwrap();
    assert_eq!(p.tests().len(), 3);
    let s = minimal("2025-09", "");
    s.link("data/secret/3.in", "../../../outside.in");
    let e = s.read().unwrap_err();
    assert!(matches!(e, PackageError::SymlinkEscapes { .. }), "{e}");
    assert_eq!(e.location().path, Path::new("data/secret/3.in"));
    // A link to a folder outside: refused before anything in it is listed.
    let s = minimal("2025-09", "");
    s.link("data/secret/etc", "/etc");
    assert!(matches!(
        s.read().unwrap_err(),
        PackageError::SymlinkEscapes { .. }
    ));
    // A dangling link.
    let s = minimal("2025-09", "");
    s.link("data/secret/4.in", "nowhere.in");
    assert!(matches!(
        s.read().unwrap_err(),
        PackageError::Missing { .. }
    ));
    // The problem.yaml itself may not leave.
    let s = minimal("2025-09", "");
    std::fs::remove_file(s.path().join("problem.yaml")).unwrap();
    s.link("problem.yaml", "/etc/hostname");
    assert!(matches!(
        s.read().unwrap_err(),
        PackageError::SymlinkEscapes { .. }
    ));
}

#[test]
fn symlink_loops_stop() {
    let s = minimal("2025-09", "");
    s.link("data/secret/loop", ".");
    let e = s.read().unwrap_err();
    assert!(e.to_string().contains("symlink loop"), "{e}");
    let s = minimal("2025-09", "");
    s.link("submissions/accepted/loop", ".");
    let p = s.read().unwrap();
    assert!(
        warned(&p, "nest at most"),
        "program folders are searched to a bounded depth"
    );
}

#[test]
fn fifos_are_skipped_not_opened() {
    let s = minimal("2025-09", "");
    let fifo = s.path().join("data/secret/2.in");
    // mkfifo(1): no unsafe in this crate's tests.
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    s.file("data/secret/2.ans", "2\n");
    let p = s.read().unwrap();
    assert!(warned(&p, "neither a regular file nor a folder"));
    assert_eq!(p.tests().len(), 2);
}

#[test]
fn not_a_package() {
    let s = Scratch::new();
    let e = s.read().unwrap_err();
    assert!(matches!(e, PackageError::Missing { .. }));
    assert_eq!(e.location().path, Path::new("problem.yaml"));
    assert!(Package::read("/nonexistent/package").is_err());
}

fn yamlish() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..200),
        prop::collection::vec(
            prop_oneof![
                Just("problem_format_version: 2025-09\n".to_string()),
                Just("problem_format_version: legacy\n".to_string()),
                Just("type: [interactive, scoring]\n".to_string()),
                Just("limits: {memory: 1, time_limit: 0}\n".to_string()),
                Just("  - a\n".to_string()),
                Just("name: {en: x}\n".to_string()),
                Just("[[[[\n".to_string()),
                Just("&a [*a]\n".to_string()),
                Just("key: &x {a: *x}\n".to_string()),
                Just("validation: custom\n".to_string()),
                Just("args: [a, b]\n".to_string()),
                Just("output_validator_args: float_tolerance\n".to_string()),
                Just("input_validator_args: {a: [x], b: 3}\n".to_string()),
                Just("max_score: 10\n".to_string()),
                "[a-z_:{}\\[\\], \n'\"&*!-]{0,40}",
            ],
            0..8
        )
        .prop_map(|parts| parts.concat().into_bytes()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_configuration_files_never_panic(problem in yamlish(), group in yamlish(), test_yaml in yamlish(), submissions in yamlish()) {
        let s = minimal("2025-09", "");
        s.bytes("problem.yaml", &problem)
            .bytes("data/secret/test_group.yaml", &group)
            .bytes("data/secret/testdata.yaml", &group)
            .bytes("data/secret/1.yaml", &test_yaml)
            .bytes("submissions/submissions.yaml", &submissions);
        let _ = s.read();
    }

    #[test]
    fn random_folder_shapes_never_panic(files in prop::collection::vec(("(data|submissions|input_validators|output_validator|output_validators)(/[a-z._]{1,6}){1,4}", any::<bool>()), 0..20)) {
        let s = minimal("2025-09", "");
        for (path, as_dir) in &files {
            let p = s.path().join(path);
            // Paths may collide with each other as file and folder: skip what cannot be made.
            if *as_dir {
                let _ = std::fs::create_dir_all(&p);
            } else if let Some(parent) = p.parent()
                && std::fs::create_dir_all(parent).is_ok() {
                    let _ = std::fs::write(&p, "1\n");
                }
        }
        let _ = s.read();
    }
}
