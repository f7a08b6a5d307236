//! Programs of a package (validators, submissions): what each is and how it would be run.
//!
//! A program is one file or one folder (the spec's "Programs"). This module only looks:
//! building and running are the caller's.

use std::path::{Path, PathBuf};

use crate::error::{PackageError, Warnings};
use crate::fsutil::{Entry, Kind, Root};
use crate::language::{self, Language};

/// How deep a program folder is searched for its files.
const MAX_PROGRAM_DEPTH: usize = 8;
/// Most files listed for one program folder.
const MAX_PROGRAM_FILES: usize = 1000;

/// What kind of program this is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProgramKind {
    /// A checktestdata script (`.ctd`), an input validator.
    Checktestdata,
    /// A VIVA script (`.viva`), an input validator.
    Viva,
    /// Source code in one language, built and run as the language says.
    Source {
        /// The language.
        language: Language,
        /// The entry file when the format fixes it: the single file of a file program,
        /// `__main__.py` of a Python folder. `None`: the language's default rule applies
        /// (for instance Java's `Main` class) or the caller picks.
        entry: Option<PathBuf>,
    },
    /// A folder with a `build` and/or `run` script (validators, visualizers): `build` is
    /// run in a copy of the folder, then `run` is the program.
    BuildRun {
        /// Whether `build` exists.
        build: bool,
        /// Whether `run` exists (it may also be made by `build`).
        run: bool,
    },
    /// Not something the format can run; `reason` says why.
    Unknown {
        /// Why not: no known extension, several languages …
        reason: String,
    },
}

/// One program of the package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The name the package refers to it by: the file name (with extension) or folder name.
    pub name: String,
    /// The file or folder (under the package folder as given to [`crate::Package::read`]).
    pub path: PathBuf,
    /// The same, relative to the package folder.
    pub relative: PathBuf,
    /// Whether it is a folder.
    pub is_dir: bool,
    /// Its files (for a file program, the file itself), hidden files excluded.
    pub files: Vec<PathBuf>,
    /// What it is.
    pub kind: ProgramKind,
}

/// Describe the program at `entry`. `legacy` selects the legacy spec's Python rule.
pub(crate) fn program(
    root: &Root,
    entry: &Entry,
    legacy: bool,
    warnings: &mut Warnings,
) -> Result<Program, PackageError> {
    let path = root.path(&entry.relative);
    if entry.kind == Kind::File {
        let kind = file_kind(root, &entry.relative, &entry.name, legacy);
        return Ok(Program {
            name: entry.name.clone(),
            path: path.clone(),
            relative: entry.relative.clone(),
            is_dir: false,
            files: vec![path],
            kind,
        });
    }
    let mut files = Vec::new();
    collect_files(root, &entry.relative, 0, &mut files, warnings)?;
    let names: Vec<&str> = files
        .iter()
        .filter(|f| f.parent() == Some(entry.relative.as_path()))
        .filter_map(|f| f.file_name().and_then(|n| n.to_str()))
        .collect();
    let build = names.contains(&"build");
    let run = names.contains(&"run");
    let kind = if build || run {
        ProgramKind::BuildRun { build, run }
    } else {
        folder_kind(root, &entry.relative, &files, legacy)
    };
    Ok(Program {
        name: entry.name.clone(),
        path,
        relative: entry.relative.clone(),
        is_dir: true,
        files: files.iter().map(|f| root.path(f)).collect(),
        kind,
    })
}

fn first_line(root: &Root, relative: &Path) -> Option<String> {
    let bytes = root.read(relative, 1 << 20).ok()?;
    let line = bytes.split(|b| *b == b'\n').next()?;
    Some(String::from_utf8_lossy(line).into_owned())
}

fn file_kind(root: &Root, relative: &Path, name: &str, legacy: bool) -> ProgramKind {
    if name.ends_with(".ctd") {
        return ProgramKind::Checktestdata;
    }
    if name.ends_with(".viva") {
        return ProgramKind::Viva;
    }
    let shebang = if legacy && name.ends_with(".py") {
        first_line(root, relative)
    } else {
        None
    };
    match language::by_file_name(name, legacy, shebang.as_deref()) {
        Some(language) => ProgramKind::Source {
            language,
            entry: Some(PathBuf::from(name)),
        },
        None => ProgramKind::Unknown {
            reason: format!("no language of the format's table has the extension of `{name}`"),
        },
    }
}

fn folder_kind(root: &Root, folder: &Path, files: &[PathBuf], legacy: bool) -> ProgramKind {
    let mut languages: Vec<Language> = Vec::new();
    let mut scripts = (0, 0);
    for file in files {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
        match file_kind(root, file, name, legacy) {
            ProgramKind::Source { language, .. } if !languages.contains(&language) => {
                languages.push(language);
            }
            ProgramKind::Checktestdata => scripts.0 += 1,
            ProgramKind::Viva => scripts.1 += 1,
            _ => {}
        }
    }
    match (languages.as_slice(), scripts) {
        ([language], _) => {
            let main = folder.join("__main__.py");
            let entry = (language.code.starts_with("python") && files.contains(&main))
                .then(|| PathBuf::from("__main__.py"));
            ProgramKind::Source {
                language: *language,
                entry,
            }
        }
        ([], (1, 0)) => ProgramKind::Checktestdata,
        ([], (0, 1)) => ProgramKind::Viva,
        ([], _) => ProgramKind::Unknown {
            reason: "no file in a language of the format's table, and no build or run script"
                .to_string(),
        },
        (several, _) => ProgramKind::Unknown {
            reason: format!(
                "files in several languages ({}): the format needs one",
                several
                    .iter()
                    .map(|l| l.code)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        },
    }
}

fn collect_files(
    root: &Root,
    folder: &Path,
    depth: usize,
    files: &mut Vec<PathBuf>,
    warnings: &mut Warnings,
) -> Result<(), PackageError> {
    if depth > MAX_PROGRAM_DEPTH {
        warnings.push(
            crate::error::Location::file(folder),
            format!("not searched: program folders nest at most {MAX_PROGRAM_DEPTH} levels here"),
        );
        return Ok(());
    }
    for entry in root.list(folder, warnings)? {
        if files.len() >= MAX_PROGRAM_FILES {
            warnings.push(
                crate::error::Location::file(folder),
                format!("only the first {MAX_PROGRAM_FILES} files of this program are listed"),
            );
            return Ok(());
        }
        match entry.kind {
            Kind::File => files.push(entry.relative),
            Kind::Dir => collect_files(root, &entry.relative, depth + 1, files, warnings)?,
        }
    }
    Ok(())
}
