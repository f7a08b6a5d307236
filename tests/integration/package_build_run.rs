//! Program folders with `build`/`run` scripts (the package format's "Programs" rule): a
//! package whose input validator, output validator and generator are such folders is verified
//! and stressed (each `build` run once in the build box, `run` the program in a jury box), and
//! hostile folders — a `build` that fails, loops, or writes outside its copy; a `run` that is
//! missing, not executable, or a link — are jury errors (exit 2) naming the folder, and leave
//! nothing outside their box.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::package_stress::{ACCEPTED, GENERATOR, VALIDATOR_C, WRONG, valid};
use crate::util::{assert_no_panic, fresh_dir, judge, text, write_file};

/// Compares the submission's sum with the answer file; 43 with a judge message when they
/// differ.
const CHECKER_C: &str = r#"#include <stdio.h>
int main(int argc, char **argv) {
    if (argc < 4) return 3;
    FILE *answer = fopen(argv[2], "r");
    long want, got;
    if (!answer || fscanf(answer, "%ld", &want) != 1) return 3;
    char message[4096];
    snprintf(message, sizeof message, "%s/judgemessage.txt", argv[3]);
    FILE *said = fopen(message, "w");
    if (scanf("%ld", &got) != 1) { if (said) fprintf(said, "no number\n"); return 43; }
    if (got != want) { if (said) fprintf(said, "sum %ld, not %ld\n", got, want); return 43; }
    return 42;
}
"#;

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    fresh_dir("build-run", name)
}

fn write(path: &Path, contents: &str) {
    write_file(path, contents)
}

/// Writes an executable script.
fn script(path: &Path, contents: &str) {
    write(path, contents);
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A `run` that starts the program `build` made beside it.
fn run_beside(program: &str) -> String {
    format!("#!/bin/sh\nexec \"$(dirname \"$0\")/{program}\" \"$@\"\n")
}

/// The sum-of-a-list package (2025-09) in `dir/sumlist` whose input validator, output
/// validator and generator are `build`/`run` folders: the validators' `build` compiles C with
/// `cc`, the generator's `build` writes its `run` (as BAPCtools' `dir_build` does).
fn build_run_package(dir: &Path) -> PathBuf {
    let pkg = dir.join("sumlist");
    write(
        &pkg.join("problem.yaml"),
        "problem_format_version: 2025-09\nname: Sum of a list\nuuid: \
         5a0f9d9e-0c1b-4d8e-9a55-3f1e6f0b2a11\ntype: pass-fail\nlimits:\n  time_limit: 2\n",
    );
    write(&pkg.join("statement/problem.en.tex"), "Add the numbers.\n");
    write(&pkg.join("data/sample/1.in"), "3\n1\n2\n3\n");
    write(&pkg.join("data/sample/1.ans"), "6\n");
    write(&pkg.join("data/secret/1.in"), "2\n5\n700\n");
    write(&pkg.join("data/secret/1.ans"), "705\n");
    write(&pkg.join("data/secret/2.in"), "3\n10\n10\n1\n");
    write(&pkg.join("data/secret/2.ans"), "21\n");
    let validator = pkg.join("input_validators/validate");
    write(&validator.join("validate.c"), VALIDATOR_C);
    script(
        &validator.join("build"),
        "#!/bin/sh\nset -e\ncc -O2 -o validate validate.c\n",
    );
    script(&validator.join("run"), &run_beside("validate"));
    let checker = pkg.join("output_validator");
    write(&checker.join("check.c"), CHECKER_C);
    script(
        &checker.join("build"),
        "#!/bin/sh\nset -e\ncc -O2 -o check check.c\n",
    );
    script(&checker.join("run"), &run_beside("check"));
    let generator = pkg.join("generators/random");
    write(&generator.join("gen.py"), GENERATOR);
    script(
        &generator.join("build"),
        "#!/bin/sh\nset -e\n{ echo '#!/usr/bin/env python3'; cat gen.py; } > run\nchmod +x run\n",
    );
    write(&pkg.join("submissions/accepted/sum.py"), ACCEPTED);
    write(&pkg.join("submissions/wrong_answer/adjacent.py"), WRONG);
    pkg
}

/// `judge ARGS` in `dir`.
fn judge_in(dir: &Path, args: &[&str]) -> Output {
    let out = judge()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run judge");
    assert_no_panic(&out);
    out
}

#[test]
fn a_package_of_build_run_folders_is_verified_validated_and_stressed() {
    let dir = scratch("package");
    build_run_package(&dir);
    let out = judge_in(&dir, &["verify", "sumlist", "--jobs", "2"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    // Each folder built by its own script, in the build box, and none skipped.
    for folder in ["input_validators/validate", "output_validator"] {
        assert!(
            stderr.contains(&format!("build: ./build  # sumlist/{folder}")),
            "{folder}: {stderr}"
        );
    }
    assert!(!stderr.contains("not supported"), "{stderr}");
    // The wrong submission is rejected by the folder's checker, in its words.
    assert!(
        stdout.contains("got WA") && stdout.contains("sum 22, not 21"),
        "{stdout}"
    );
    // The input validator runs: it rejects what its C source rejects.
    write(&dir.join("bad.in"), "2\n1\n");
    let out = judge_in(&dir, &["validate", "sumlist", "bad.in"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        (stdout.clone() + &stderr).contains("input_validators/validate"),
        "{stdout}{stderr}"
    );
    // Stressed with the package's generator folder, and shrunk through the validator folder
    // to the smallest valid input that still fails.
    let out = judge_in(
        &dir,
        &[
            "stress",
            "sumlist",
            "--seed",
            "1",
            "--cases",
            "200",
            "--save",
            "found",
            "--",
            "sumlist/submissions/wrong_answer/adjacent.py",
        ],
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("(the package's: generators/random"),
        "{stderr}"
    );
    let shrunk = std::fs::read_to_string(dir.join("found/shrunk.in")).unwrap();
    let original = std::fs::read_to_string(dir.join("found/original.in")).unwrap();
    assert_eq!(shrunk, "2\n10\n10\n");
    assert!(valid(&original) && shrunk.len() <= original.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `judge verify` on the package with its input validator folder changed by `change`: exit 2,
/// and every one of `words` said.
fn refused(name: &str, change: impl FnOnce(&Path), extra: &[&str], words: &[&str]) -> PathBuf {
    let dir = scratch(name);
    let pkg = build_run_package(&dir);
    change(&pkg.join("input_validators/validate"));
    let mut args = vec!["verify", "sumlist", "--jobs", "2"];
    args.extend(extra);
    let out = judge_in(&dir, &args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{name}: {stdout}{stderr}");
    for word in words {
        assert!(
            stderr.contains(word),
            "{name}: {word:?} missing: {stdout}{stderr}"
        );
    }
    dir
}

#[test]
fn a_build_that_fails_or_loops_is_a_jury_error_naming_the_folder_and_its_output() {
    let dir = refused(
        "fails",
        |v| {
            script(
                &v.join("build"),
                "#!/bin/sh\necho 'validate.c: no compiler for this' >&2\nexit 1\n",
            )
        },
        &[],
        &[
            "input_validators/validate",
            "does not build",
            "validate.c: no compiler for this",
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
    // Bounded by the build box's limits: here a CPU second.
    let dir = refused(
        "loops",
        |v| script(&v.join("build"), "#!/bin/sh\nwhile :; do :; done\n"),
        &["--build-time-limit", "1"],
        &[
            "input_validators/validate",
            "does not build",
            "stopped after 1.0 s of CPU time",
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
    // An output validator folder's failed build too (the package cannot be judged).
    let dir = scratch("checker-fails");
    let pkg = build_run_package(&dir);
    script(&pkg.join("output_validator/build"), "#!/bin/sh\nexit 3\n");
    let out = judge_in(&dir, &["verify", "sumlist"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("output_validator") && stderr.contains("does not build"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_or_unusable_run_is_a_jury_error_naming_the_folder() {
    // `build` leaves no `run`.
    let dir = refused(
        "no-run",
        |v| std::fs::remove_file(v.join("run")).unwrap(),
        &[],
        &["input_validators/validate", "no `run` after `build`"],
    );
    let _ = std::fs::remove_dir_all(&dir);
    let dir = refused(
        "run-not-executable",
        |v| {
            std::fs::set_permissions(v.join("run"), std::fs::Permissions::from_mode(0o644)).unwrap()
        },
        &[],
        &["input_validators/validate", "`run` is not executable"],
    );
    let _ = std::fs::remove_dir_all(&dir);
    let dir = refused(
        "build-not-executable",
        |v| {
            std::fs::set_permissions(v.join("build"), std::fs::Permissions::from_mode(0o644))
                .unwrap()
        },
        &[],
        &["input_validators/validate", "`build` is not executable"],
    );
    let _ = std::fs::remove_dir_all(&dir);
    // A `run` that is a link out of the package is never followed: the package is refused.
    let dir = refused(
        "run-links-out",
        |v| {
            std::fs::remove_file(v.join("run")).unwrap();
            std::os::unix::fs::symlink("/bin/true", v.join("run")).unwrap();
        },
        &[],
        &["input_validators/validate/run"],
    );
    let _ = std::fs::remove_dir_all(&dir);
    // One that links inside the folder is refused too: the box gets files, never links.
    let dir = refused(
        "run-links-in",
        |v| {
            std::fs::remove_file(v.join("run")).unwrap();
            std::os::unix::fs::symlink("build", v.join("run")).unwrap();
        },
        &[],
        &["validate/run", "symbolic link"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_build_writes_only_into_its_own_copy_of_the_folder() {
    let dir = scratch("writes-outside");
    let pkg = build_run_package(&dir);
    let validator = pkg.join("input_validators/validate");
    let source = std::fs::read_to_string(validator.join("validate.c")).unwrap();
    let outside = dir.join("escaped");
    // Tries the host's own path, the package folder above its copy, the box's root, and
    // changing the folder's source; then builds as before (so the package is judged).
    script(
        &validator.join("build"),
        &format!(
            "#!/bin/sh\n\
             echo x > {outside} 2>/dev/null\n\
             echo x > ../../escaped 2>/dev/null\n\
             echo x > /escaped 2>/dev/null\n\
             echo x > {package}/escaped 2>/dev/null\n\
             cc -O2 -o validate validate.c || exit 1\n\
             echo 'int main(void) {{ return 1; }}' > validate.c\n",
            outside = outside.display(),
            package = pkg.display(),
        ),
    );
    let out = judge_in(&dir, &["verify", "sumlist", "--jobs", "2"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(!outside.exists(), "the build wrote to the host");
    assert!(!pkg.join("escaped").exists() && !pkg.join("input_validators/escaped").exists());
    assert!(!Path::new("/escaped").exists());
    // The folder on the host is as it was: the build ran in a copy.
    assert_eq!(
        std::fs::read_to_string(validator.join("validate.c")).unwrap(),
        source
    );
    assert!(!validator.join("validate").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Submissions are not `build`/`run` programs (the format builds them by their language): a
/// submission folder holding a `run` file is judged by its entry point, so that a folder runs
/// only the code the judge shows, and its `build` is never run.
#[test]
fn a_submission_folder_with_build_and_run_files_is_judged_by_its_entry_point() {
    let dir = scratch("submission");
    build_run_package(&dir);
    let folder = dir.join("mine");
    write(&folder.join("main.py"), ACCEPTED);
    script(&folder.join("run"), "#!/bin/sh\necho 0\n");
    script(&folder.join("build"), "#!/bin/sh\nexit 1\n");
    let out = judge_in(&dir, &["run", "sumlist", "--", "mine"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(!stderr.contains("build: ./build  # mine"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
