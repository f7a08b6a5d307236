//! Public problem packages, read from folders outside the repository (none of them is
//! committed: their licences and the project's rules keep them out):
//!
//! ```text
//! BOARDJUDGE_PUBLIC_PACKAGES=/path/one:/path/two cargo test -p package-format --test public_packages -- --nocapture
//! ```
//!
//! Every folder under those paths that holds a `problem.yaml` is a package (folders inside a
//! package are not searched further). Each must read without error or panic, or be refused
//! for a documented reason: a symlink that leaves the package (BAPCtools' test problems link
//! their validators' header from BAPCtools' own tree). Without the variable the test says
//! SKIPPED and passes.

use std::path::{Path, PathBuf};

use package_format::{Package, PackageError};

const VARIABLE: &str = "BOARDJUDGE_PUBLIC_PACKAGES";
/// How deep below each given folder packages are looked for.
const MAX_DEPTH: usize = 6;

/// The package folders below `dir`, in name order; symlinked folders are not followed (the
/// packages themselves may hold loops, which the reader must survive, not this search).
fn find_packages(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    if dir.join("problem.yaml").is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    if depth == MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut children: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .collect();
    children.sort();
    for child in children {
        find_packages(&child, depth + 1, out);
    }
}

#[test]
fn public_packages_read_or_are_refused_for_a_documented_reason() {
    let Some(paths) = std::env::var_os(VARIABLE) else {
        eprintln!(
            "SKIPPED: {VARIABLE} is unset (a ':'-separated list of folders holding problem \
             packages, such as problemtools' examples/ and BAPCtools' test/problems/)"
        );
        return;
    };
    let mut packages = Vec::new();
    for root in std::env::split_paths(&paths) {
        assert!(
            root.is_dir(),
            "{VARIABLE}: {} is not a folder",
            root.display()
        );
        find_packages(&root, 0, &mut packages);
    }
    assert!(
        !packages.is_empty(),
        "{VARIABLE}: no folder with a problem.yaml under {paths:?}"
    );

    let (mut read, mut refused, mut failed) = (Vec::new(), Vec::new(), Vec::new());
    for dir in &packages {
        // A panic is a failure of this package, reported with the others.
        match std::panic::catch_unwind(|| Package::read(dir)) {
            Ok(Ok(p)) => read.push(format!(
                "{}: {} ({}), {} tests, {} validation cases, {} submissions, {} warnings",
                dir.display(),
                p.metadata.name,
                p.version(),
                p.tests().len(),
                p.test_data.validation_cases.len(),
                p.submissions.len(),
                p.warnings.len()
            )),
            Ok(Err(e @ PackageError::SymlinkEscapes { .. })) => {
                refused.push(format!("{}: {e}", dir.display()))
            }
            Ok(Err(e)) => failed.push(format!("{}: {e}", dir.display())),
            Err(_) => failed.push(format!("{}: the reader panicked", dir.display())),
        }
    }
    println!("read {} packages:", read.len());
    for line in &read {
        println!("  {line}");
    }
    println!("refused {} (a symlink leaves the package):", refused.len());
    for line in &refused {
        println!("  {line}");
    }
    assert!(
        failed.is_empty(),
        "{} of {} packages failed:\n{}",
        failed.len(),
        packages.len(),
        failed.join("\n")
    );
}
