//! Embeds the source files of the `solutions` crate (its `.rs` files) and each problem's
//! statement (`tests/data/<id>/statement.en.tex`) for `judge package` and `judge solutions`,
//! which export them as single-file programs and problem packages. The lists are made from the
//! folders, so a new problem's files come along without naming them anywhere.

use std::path::{Path, PathBuf};

// Where each problem's files are: the one module that builds their paths (a build script
// cannot use the `solutions` crate without building it a second time). Most of it is for the
// crates' tests.
#[allow(dead_code)]
#[path = "../../solutions/src/problem_files.rs"]
mod problem_files;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let src = manifest.join("../../solutions/src");
    println!("cargo:rerun-if-changed={}", src.display());
    let mut files = Vec::new();
    collect(&src, &src, &mut files);
    files.sort();
    let mut out = String::from(
        "/// The `solutions` crate's sources: (path below `solutions/src/`, text).\n\
         pub const FILES: &[(&str, &str)] = &[\n",
    );
    for (relative, absolute) in &files {
        out.push_str(&format!(
            "    ({relative:?}, include_str!({absolute:?})),\n"
        ));
    }
    out.push_str("];\n");
    // A problem is a folder of `solutions/src` with a reference solver; its statement is
    // where `problem_files` says.
    let mut statements: Vec<(String, String)> = std::fs::read_dir(&src)
        .unwrap_or_else(|e| panic!("{}: {e}", src.display()))
        .map(|entry| entry.expect("reading the solutions source folder").path())
        .filter(|folder| folder.join("reference.rs").is_file())
        .filter_map(|folder| {
            let id = problem_files::id(&folder.file_name()?.to_string_lossy());
            let statement = problem_files::STATEMENT.path(&id);
            println!("cargo:rerun-if-changed={}", statement.display());
            // A missing statement is `judge package`'s error for that problem (and the shape
            // check's), not a build failure of every command.
            let absolute = std::fs::canonicalize(&statement).ok()?;
            Some((id, absolute.to_string_lossy().into_owned()))
        })
        .collect();
    statements.sort();
    out.push_str(
        "/// Each problem's LaTeX statement: (problem id, text of `tests/data/<id>/statement.en.tex`).\n\
         pub const STATEMENTS: &[(&str, &str)] = &[\n",
    );
    for (id, absolute) in &statements {
        out.push_str(&format!("    ({id:?}, include_str!({absolute:?})),\n"));
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"))
        .join("problem_sources.rs");
    std::fs::write(&dest, out).expect("writing problem_sources.rs");
}

fn collect(dir: &Path, root: &Path, files: &mut Vec<(String, String)>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("reading the solutions source folder").path();
        if path.is_dir() {
            collect(&path, root, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path
                .strip_prefix(root)
                .expect("below the root")
                .to_string_lossy()
                .replace('\\', "/");
            let absolute = std::fs::canonicalize(&path).expect("an existing file");
            files.push((relative, absolute.to_string_lossy().into_owned()));
        }
    }
}
