//! What a package's programs get from the format before they are built, on small packages
//! this test writes (the public corpus has the same shapes: BAPCtools' `constants`,
//! `identity` and `testexpectations` test packages):
//!
//! - the `{{constants}}` of `problem.yaml` (2025-09) substituted in validators and example
//!   submissions, in the copy the build box gets, never in the package;
//! - symbolic links out of the package refused, unless the user names the folder they lead
//!   into with `--allow-links-into`; links inside the package followed;
//! - `submissions.yaml`'s `entrypoint` choosing a folder submission's entry point.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::util::{assert_no_panic, judge, skipped, text};

/// A fresh folder for one test's packages.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "boardjudge-package-sources-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `files` (path below `dir`, contents) into `dir`.
fn write(dir: &Path, files: &[(&str, &str)]) {
    for (path, contents) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, contents).unwrap();
    }
}

/// `pyctd` (PyPI checktestdata), which `.ctd` input validators need: named by
/// `BOARDJUDGE_PYCTD` or in the package tools' folder (`BOARDJUDGE_PACKAGE_TOOLS`).
fn pyctd() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("BOARDJUDGE_PYCTD") {
        return Some(path.into());
    }
    let tools = std::env::var_os("BOARDJUDGE_PACKAGE_TOOLS")?;
    Some(Path::new(&tools).join("pyctd")).filter(|p| p.is_file())
}

/// `judge ARGS`, checked not to panic.
fn run(args: &[&str]) -> Output {
    let mut command = judge();
    command.args(args);
    if let Some(pyctd) = pyctd() {
        command.env("BOARDJUDGE_PYCTD", pyctd);
    }
    let out = command.output().expect("run judge");
    assert_no_panic(&out);
    out
}

/// `judge verify DIR [EXTRA]` with a JSON report: the exit code, the report, what it said.
fn verify(dir: &Path, extra: &[&str]) -> (Option<i32>, serde_json::Value, String) {
    let report = dir.with_extension("json");
    let _ = std::fs::remove_file(&report);
    let mut args = vec![
        "verify",
        dir.to_str().unwrap(),
        "--jobs",
        "2",
        "--report",
        report.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = run(&args);
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    let json = std::fs::read(&report)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or(serde_json::Value::Null);
    (out.status.code(), json, said)
}

/// The verdict the report gives submission `path` (below the package), if it was judged.
fn got(json: &serde_json::Value, path: &str) -> Option<String> {
    json["submissions"]
        .as_array()?
        .iter()
        .find(|row| row["path"] == path)
        .map(|row| {
            format!(
                "{} {}",
                row["verdict"].as_str().unwrap_or("?"),
                row["matches"]
            )
        })
}

/// Every file below `dir` with its bytes, to see the package left as it was.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path);
            } else if meta.file_type().is_symlink() {
                files.push((
                    path.clone(),
                    std::fs::read_link(&path)
                        .unwrap()
                        .into_os_string()
                        .into_encoded_bytes(),
                ));
            } else {
                files.push((path.clone(), std::fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

/// A 2025-09 pass-fail problem: print the constant N. Its input validator (C++), output
/// validator (Python) and submissions (C, Python) all name N only as `{{N}}` or a variant.
const CONSTANTS_PACKAGE: &[(&str, &str)] = &[
    (
        "problem.yaml",
        "problem_format_version: 2025-09\ntype: pass-fail\nname: Print N\n\
         uuid: 0c9f4f59-3d1a-4c67-9a3e-6f1c2d3b4a5e\nlimits:\n  time_limit: 2\n\
         constants:\n  N:\n    value: 7\n    WORD: seven\n",
    ),
    ("data/sample/1.in", "7\n"),
    ("data/sample/1.ans", "7\n"),
    ("data/secret/1.in", "7\n"),
    ("data/secret/1.ans", "7\n"),
    (
        "input_validators/exact.cpp",
        "#include <iostream>\nint main() { long long n; if (!(std::cin >> n) || n != {{N}}) \
         return 43; return 42; }\n",
    ),
    (
        "output_validator/check.py",
        "import sys\nwords = sys.stdin.read().split()\n\
         sys.exit(42 if words == [str({{N}})] else 43)\n",
    ),
    (
        "submissions/accepted/print.c",
        "#include <stdio.h>\nint main(void) { printf(\"%d\\n\", {{N}}); return 0; }\n",
    ),
    ("submissions/accepted/print.py", "print({{N.value}})\n"),
    ("submissions/wrong_answer/word.py", "print('{{N.WORD}}')\n"),
    // An undefined constant is left as it is (and a Python set of a set is a TypeError).
    ("submissions/run_time_error/undefined.py", "print({{M}})\n"),
];

#[test]
fn constants_are_substituted_in_validators_and_submissions_in_a_copy_before_the_build() {
    let dir = scratch("constants").join("print-n");
    write(&dir, CONSTANTS_PACKAGE);
    let before = snapshot(&dir);
    let (code, json, said) = verify(&dir, &[]);
    assert_eq!(code, Some(0), "{said}");
    for (path, verdict) in [
        ("submissions/accepted/print.c", "AC true"),
        ("submissions/accepted/print.py", "AC true"),
        ("submissions/wrong_answer/word.py", "WA true"),
        ("submissions/run_time_error/undefined.py", "RE true"),
    ] {
        assert_eq!(got(&json, path).as_deref(), Some(verdict), "{path}: {said}");
    }
    assert_eq!(snapshot(&dir), before, "the package was written to");

    // Test data is the format's exception: `{{N}}` in an input is not 7, so the input
    // validator (itself substituted) rejects it.
    std::fs::write(dir.join("data/secret/1.in"), "{{N}}\n").unwrap();
    let (code, _, said) = verify(&dir, &[]);
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("secret/1.in") && said.contains("rejected"),
        "{said}"
    );
}

#[test]
fn constants_are_substituted_in_a_checktestdata_script_before_it_is_converted() {
    if pyctd().is_none() {
        skipped("pyctd not found (BOARDJUDGE_PACKAGE_TOOLS or BOARDJUDGE_PYCTD)");
        return;
    }
    let dir = scratch("constants-ctd").join("print-n");
    write(&dir, CONSTANTS_PACKAGE);
    std::fs::remove_file(dir.join("input_validators/exact.cpp")).unwrap();
    write(
        &dir,
        &[(
            "input_validators/exact.ctd",
            "INT({{N}}, {{N.value}}) NEWLINE\nEOF\n",
        )],
    );
    let before = snapshot(&dir);
    let (code, _, said) = verify(&dir, &[]);
    assert_eq!(code, Some(0), "{said}");
    assert_eq!(snapshot(&dir), before, "the package was written to");
    std::fs::write(dir.join("data/secret/1.in"), "8\n").unwrap();
    let (code, _, said) = verify(&dir, &[]);
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("secret/1.in") && said.contains("rejected"),
        "{said}"
    );
}

/// A package whose input validator's header is a link to `../../../shared/header.h`, a
/// folder beside the package (BAPCtools' test packages link `validation.h` this way), and
/// whose folder submission links a file of another submission folder.
fn linked_package(root: &Path) -> PathBuf {
    let dir = root.join("linked");
    write(
        root,
        &[
            ("shared/header.h", "static const int WANTED = 3;\n"),
            ("elsewhere/secret.txt", "x\n"),
        ],
    );
    write(
        &dir,
        &[
            (
                "problem.yaml",
                "problem_format_version: 2025-09\ntype: pass-fail\nname: Linked\n\
                 uuid: 5b7e2d4c-1a3f-4e8d-9c6b-2f0a1e3d5c7b\nlimits:\n  time_limit: 2\n",
            ),
            ("data/sample/1.in", "3\n"),
            ("data/sample/1.ans", "3\n"),
            ("data/secret/1.in", "3\n"),
            ("data/secret/1.ans", "3\n"),
            (
                "input_validators/three/three.cpp",
                "#include <iostream>\n#include \"header.h\"\nint main() { int n; \
                 return std::cin >> n && n == WANTED ? 42 : 43; }\n",
            ),
            ("submissions/accepted/echo.py", "print(input())\n"),
            (
                "submissions/accepted/folder/helper.py",
                "def answer():\n    return input()\n",
            ),
        ],
    );
    std::os::unix::fs::symlink(
        "../../../shared/header.h",
        dir.join("input_validators/three/header.h"),
    )
    .unwrap();
    // A link inside the package: followed as the file it names.
    std::os::unix::fs::symlink(
        "../echo.py",
        dir.join("submissions/accepted/folder/main.py"),
    )
    .unwrap();
    dir
}

#[test]
fn links_out_of_a_package_are_refused_unless_the_user_names_their_folder() {
    let root = scratch("links");
    let dir = linked_package(&root);
    let shared = root.join("shared");
    let package = dir.to_str().unwrap();

    // Refused by default: exit 2, naming the link and the way out.
    let out = run(&["verify", package]);
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("input_validators/three/header.h")
            && said.contains("leaves the package folder")
            && said.contains("--allow-links-into"),
        "{said}"
    );
    // Another trusted folder does not allow it.
    let other = root.join("elsewhere");
    let out = run(&[
        "verify",
        package,
        "--allow-links-into",
        other.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    // Neither does a folder that is not there (the package or the option is refused first,
    // as clap meets them).
    let out = run(&["--allow-links-into", "/no/such/folder", "verify", package]);
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(
        said.contains("not a folder") || said.contains("nor into the folders"),
        "{said}"
    );

    // Allowed, after the package or before the command: the header is built in, the folder
    // submission's link inside the package followed.
    let (code, json, said) = verify(&dir, &["--allow-links-into", shared.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{said}");
    assert_eq!(
        got(&json, "submissions/accepted/folder").as_deref(),
        Some("AC true"),
        "{said}"
    );
    let allowed = format!("--allow-links-into={}", shared.display());
    let out = run(&[&allowed, "validate", package]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    // What follows `--` is the submission's own argument, not the judge's consent.
    let out = run(&[
        "run",
        package,
        "--",
        "python3",
        "-c",
        "print(3)",
        "--allow-links-into",
        shared.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));

    // A link that leaves the package through the trusted folder's name but resolves
    // elsewhere is still refused: what counts is where it ends.
    std::fs::remove_file(shared.join("header.h")).unwrap();
    std::os::unix::fs::symlink("../elsewhere/secret.txt", shared.join("header.h")).unwrap();
    let out = run(&[
        "verify",
        package,
        "--allow-links-into",
        shared.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("leaves the package folder"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_folder_submission_runs_the_entry_point_submissions_yaml_names() {
    let dir = scratch("entrypoint").join("entry");
    let wrong_main = "import sys\nprint('wrong entry point')\nsys.exit(1)\n";
    write(
        &dir,
        &[
            (
                "problem.yaml",
                "problem_format_version: 2025-09\ntype: pass-fail\nname: Entry\n\
                 uuid: 9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a\nlimits:\n  time_limit: 2\n",
            ),
            ("data/sample/1.in", "4\n"),
            ("data/sample/1.ans", "4\n"),
            ("data/secret/1.in", "5\n"),
            ("data/secret/1.ans", "5\n"),
            ("submissions/accepted/named/main.py", wrong_main),
            (
                "submissions/accepted/named/solve.py",
                "import lib\nprint(lib.echo())\n",
            ),
            (
                "submissions/accepted/named/lib.py",
                "def echo():\n    return input()\n",
            ),
            // The same folder without an entry point named: its main.py runs.
            ("submissions/run_time_error/unnamed/main.py", wrong_main),
            (
                "submissions/run_time_error/unnamed/solve.py",
                "print(input())\n",
            ),
            ("submissions/accepted/missing/solve.py", "print(input())\n"),
            ("submissions/accepted/missing/other.py", "print(input())\n"),
            (
                "submissions/submissions.yaml",
                "accepted/named:\n  entrypoint: solve.py\n\
                 accepted/missing:\n  entrypoint: absent.py\n",
            ),
        ],
    );
    let (code, json, said) = verify(&dir, &[]);
    assert_eq!(
        got(&json, "submissions/accepted/named").as_deref(),
        Some("AC true"),
        "{said}"
    );
    assert_eq!(
        got(&json, "submissions/run_time_error/unnamed").as_deref(),
        Some("RE true"),
        "{said}"
    );
    // An entry point that names no file: the judge cannot run it, and says why.
    let skipped = json["skipped"].as_array().cloned().unwrap_or_default();
    assert!(
        skipped
            .iter()
            .any(|s| s["path"] == "submissions/accepted/missing"
                && s["why"].as_str().is_some_and(|w| w.contains("absent.py"))),
        "{said}"
    );
    assert_eq!(code, Some(0), "{said}");
}
