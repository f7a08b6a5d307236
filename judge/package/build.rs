//! Embeds the source files of the `solutions` crate (its `.rs` files and each problem's
//! `statement.en.tex`) for `judge package` and `judge solutions`, which export them as
//! single-file programs and problem packages. The list is made from the folder, so a new
//! problem's files come along without naming them anywhere.

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
        } else if path.extension().is_some_and(|e| e == "rs" || e == "tex") {
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
