//! Embeds the source files of the `solutions` crate (its `.rs` files) and each problem's
//! statement (`tests/data/<id>/statement.en.tex`) for `judge package` and `judge solutions`,
//! which export them as single-file programs and problem packages. The lists are made from the
//! folders, so a new problem's files come along without naming them anywhere.

use std::path::{Path, PathBuf};

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
    let data = manifest.join("../../tests/data");
    println!("cargo:rerun-if-changed={}", data.display());
    let mut statements: Vec<(String, String)> = std::fs::read_dir(&data)
        .unwrap_or_else(|e| panic!("{}: {e}", data.display()))
        .map(|entry| entry.expect("reading tests/data").path())
        .filter(|folder| folder.join("statement.en.tex").is_file())
        .map(|folder| {
            let id = folder.file_name().unwrap().to_string_lossy().into_owned();
            let path = std::fs::canonicalize(folder.join("statement.en.tex")).expect("a file");
            (id, path.to_string_lossy().into_owned())
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
