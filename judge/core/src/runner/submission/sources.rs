//! A submission's sources, read once: a single source file, or a folder submission with its
//! entry point and the sources compiled together; and the command templates' placeholders.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::build::Builder;
use super::command::{Copies, plain_name};
use super::package_sources;
use super::toolchains::{TOOLCHAINS, toolchain};
use crate::error::JudgeError;

/// The largest source file (or folder submission) the judge reads: no contest source is
/// anywhere near it.
const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// A submission's sources, read once.
pub(super) struct Sources {
    /// As the user named it.
    pub(super) shown: PathBuf,
    pub(super) ext: String,
    /// Relative paths (box-safe), contents, executable.
    pub(super) files: Vec<(String, Vec<u8>, bool)>,
    /// The entry point.
    pub(super) entry: String,
    /// Compiled together (`{src}` as a whole word): the entry point first.
    pub(super) together: Vec<String>,
}

fn extension(name: &str) -> String {
    Path::new(name)
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A single source file.
pub(super) fn read_single(src: &Path) -> Result<Sources, JudgeError> {
    let ext = src
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_string();
    let meta = std::fs::metadata(src).map_err(|e| JudgeError::io(src, e))?;
    if meta.len() > MAX_SOURCE_BYTES {
        return Err(JudgeError::Usage(format!(
            "{}: a source of more than {} MiB",
            crate::escape::path(src),
            MAX_SOURCE_BYTES >> 20
        )));
    }
    let bytes = std::fs::read(src).map_err(|e| JudgeError::io(src, e))?;
    let name = src
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // A compiled language's source is at a fixed box path (`/box/src/sol.<ext>`), so that the
    // same bytes under another name are the same build (and the compiler's messages carry
    // no name but that), unless the language names the program after its file (Java, Kotlin:
    // `{class}`).
    let named_after_file = toolchain(&ext).is_none_or(|(build, run)| {
        build.trim().is_empty()
            || [&build, &run]
                .iter()
                .any(|t| t.contains("{class}") || t.contains("{Class}"))
    });
    let name = if plain_name(&name) && named_after_file {
        name
    } else {
        format!("sol.{ext}")
    };
    Ok(Sources {
        shown: src.to_path_buf(),
        ext,
        files: vec![(name.clone(), bytes, meta.permissions().mode() & 0o111 != 0)],
        entry: name.clone(),
        together: vec![name],
    })
}

/// Why `path`, a file of a folder submission, is compiled or generated code
/// that a language would load instead of (or beside) the sources the judge shows: the judge
/// runs only code it stores and shows, so such a folder is refused (a CE saying which files).
///
/// - Python: `__pycache__/` and `.pyc`/`.pyo` (a `.pyc` with an unchecked hash is imported
///   instead of the `.py` beside it, whatever the `.py` says; a `.pyc` alone is imported
///   too), and extension modules (`.so`, `.pyd`), which `import` prefers to a `.py`;
/// - Java, Kotlin: `.class` and `.jar` (the compiler and the JVM find classes on the class
///   path before, or instead of, their sources);
/// - C, C++: precompiled headers (`x.h.gch`, also a folder of them, `.pch`), which GCC
///   reads instead of the header named;
/// - Go: `.syso` objects, which `go build` links into the program; object files and
///   libraries (`.o`, `.a`, `.rlib`, `.rmeta`, Node's `.node`, Ruby's `.bundle`).
///
/// A program that a source runs by name (a shell wrapper starting a compiled worker) is not
/// refused: the source shows that it runs it, and nothing is loaded in its place.
pub(super) fn precompiled(path: &str) -> Option<&'static str> {
    let parts: Vec<&str> = path.split('/').collect();
    let extension = |part: &str| {
        Path::new(part)
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default()
    };
    if parts.contains(&"__pycache__") {
        return Some("Python bytecode cache (__pycache__)");
    }
    if parts[..parts.len() - 1]
        .iter()
        .any(|p| extension(p) == "gch")
    {
        return Some("a precompiled header (GCC reads it instead of the header)");
    }
    let why = match extension(parts[parts.len() - 1]).as_str() {
        "pyc" | "pyo" => "Python bytecode (imported instead of the .py)",
        "so" | "pyd" | "bundle" | "node" | "dylib" | "dll" => {
            "a native library (imported before the source)"
        }
        "class" | "jar" => "compiled Java/Kotlin classes (found before the sources)",
        "gch" | "pch" => "a precompiled header (GCC reads it instead of the header)",
        "syso" | "o" | "obj" | "a" | "lib" | "rlib" | "rmeta" => "compiled object code",
        _ => return None,
    };
    Some(why)
}

/// A folder submission: everything in it (but what is hidden), its entry point, and the
/// sources compiled together. A folder holding compiled or generated code ([`precompiled`]) is
/// refused as a compile error naming the files.
pub(super) fn read_folder(dir: &Path, builder: &Builder) -> Result<Sources, JudgeError> {
    let located = package_sources::location(dir);
    let package = located.as_deref().and_then(package_sources::of);
    let mut copies = Copies::default();
    copies.package = package.clone();
    copies.folder(dir, "", builder)?;
    let refused: Vec<String> = copies
        .files
        .iter()
        .filter_map(|f| precompiled(&f.path).map(|why| format!("{}: {why}", f.path)))
        .collect();
    if !refused.is_empty() {
        return Err(JudgeError::Build {
            source_file: dir.to_path_buf(),
            command: "not built".to_string(),
            message: refused.join("\n"),
            reason: Some(format!(
                "refused: the folder holds {} compiled or generated file{} that would run instead of \
                 the sources the judge shows; submit the sources only",
                refused.len(),
                if refused.len() == 1 { "" } else { "s" }
            )),
        });
    }
    if copies.bytes > MAX_SOURCE_BYTES {
        return Err(JudgeError::Usage(format!(
            "{}: a submission folder of more than {} MiB",
            crate::escape::path(dir),
            MAX_SOURCE_BYTES >> 20
        )));
    }
    let top: Vec<&str> = copies
        .files
        .iter()
        .map(|f| f.path.as_str())
        .filter(|p| !p.contains('/') && toolchain(&extension(p)).is_some())
        .collect();
    let mains: Vec<&str> = top
        .iter()
        .copied()
        .filter(|p| {
            Path::new(p)
                .file_stem()
                .is_some_and(|s| s == "main" || s == "Main")
        })
        .collect();
    // `submissions.yaml`'s `entrypoint`: a file of the folder, or (Java, Kotlin) the class
    // a source at its top defines.
    let named = package
        .as_ref()
        .zip(located.as_ref())
        .and_then(|(p, l)| p.entry_points.get(l));
    let entry = match (named, mains.as_slice(), top.as_slice()) {
        (Some(named), _, _) => {
            let by_name = copies
                .files
                .iter()
                .map(|f| f.path.as_str())
                .find(|p| p == named);
            let by_class = top.iter().copied().find(|p| {
                Path::new(p)
                    .file_stem()
                    .is_some_and(|s| s.to_string_lossy() == *named)
            });
            match by_name.or(by_class) {
                Some(entry) => entry.to_string(),
                None => {
                    return Err(JudgeError::Usage(format!(
                        "{}: its entry point `{}` (submissions.yaml) is no file of the folder",
                        crate::escape::path(dir),
                        crate::escape::terminal(named)
                    )));
                }
            }
        }
        (None, [one], _) | (None, [], [one]) => one.to_string(),
        _ => {
            return Err(JudgeError::Usage(format!(
                "{}: a submission folder needs one entry point (main.<ext>, Main.<ext>, or a \
                 single source file at its top); found {}",
                crate::escape::path(dir),
                if top.is_empty() {
                    "none".to_string()
                } else {
                    top.join(", ")
                }
            )));
        }
    };
    let ext = extension(&entry);
    let family = TOOLCHAINS
        .iter()
        .find(|t| t.ext == ext)
        .map_or(&[][..], |t| t.family);
    let mut together = vec![entry.clone()];
    if ext != "rs" {
        together.extend(
            top.iter()
                .filter(|p| **p != entry && family.contains(&extension(p).as_str()))
                .map(|p| p.to_string()),
        );
    }
    Ok(Sources {
        shown: dir.to_path_buf(),
        ext,
        files: copies
            .files
            .into_iter()
            .map(|f| (f.path, f.contents.to_vec(), f.executable))
            .collect(),
        entry,
        together,
    })
}

/// The package's `{{constants}}` substituted into the sources of the program at `path`, if it
/// is one of the package's programs the format substitutes in (the copy the box gets; the
/// package is not touched).
pub(super) fn substitute_constants(sources: &mut Sources, path: &Path) {
    let Some(located) = package_sources::location(path) else {
        return;
    };
    let Some(package) = package_sources::of(&located) else {
        return;
    };
    if !package.substitutes(&located) {
        return;
    }
    for (_, contents, _) in &mut sources.files {
        if let Some(replaced) = package.substituted(contents) {
            *contents = replaced;
        }
    }
}

/// Where things are in a command template.
pub(super) struct Places<'a> {
    /// `{src}` as a whole word: every source compiled together; inside a word: the entry.
    pub(super) src: &'a [String],
    pub(super) out: String,
    pub(super) dir: String,
    /// The entry point's name without extension.
    pub(super) class: String,
}

/// A command template with its placeholders filled in, as words.
pub(super) fn fill(template: &str, places: &Places) -> Vec<String> {
    let mut capitalised = places.class.clone();
    if let Some(first) = capitalised.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    let mut words = Vec::new();
    for w in template.split_whitespace() {
        if w == "{src}" {
            words.extend(places.src.iter().cloned());
            continue;
        }
        words.push(
            w.replace("{src}", places.src.first().map_or("", |s| s.as_str()))
                .replace("{out}", &places.out)
                .replace("{dir}", &places.dir)
                .replace("{class}", &places.class)
                .replace("{Class}", &capitalised),
        );
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_a_language_would_run_instead_of_the_sources_is_named() {
        for path in [
            "__pycache__/helper.cpython-311.pyc",
            "helper.pyc",
            "lib/fast.cpython-311-x86_64-linux-gnu.so",
            "Helper.class",
            "deps.jar",
            "board.h.gch",
            "board.h.gch/a",
            "asm_amd64.syso",
        ] {
            assert!(precompiled(path).is_some(), "{path}");
        }
        // Sources, data, and a worker that a wrapper script runs by name.
        for path in [
            "main.py",
            "helper.py",
            "Main.java",
            "board.h",
            "data/input.txt",
            "burn",
        ] {
            assert_eq!(precompiled(path), None, "{path}");
        }
    }

    #[test]
    fn src_as_a_word_is_every_source_and_inside_a_word_the_entry_point() {
        let src = vec!["/box/src/a.c".to_string(), "/box/src/b.c".to_string()];
        let places = Places {
            src: &src,
            out: "/box/out/a".to_string(),
            dir: "/box/out/classes".to_string(),
            class: "a".to_string(),
        };
        assert_eq!(
            fill("gcc -o {out} {src} -DX={src} {Class}", &places),
            [
                "gcc",
                "-o",
                "/box/out/a",
                "/box/src/a.c",
                "/box/src/b.c",
                "-DX=/box/src/a.c",
                "A"
            ]
        );
    }
}
