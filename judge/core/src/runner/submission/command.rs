//! A command as typed: its program located (in the box's `PATH`, a rustup toolchain,
//! `/opt`, or `BOARDJUDGE_TOOLCHAIN_PATHS`), its own files and folders copied into the box.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sandbox::{BoxFile, SANDBOX_PATH};

use super::build::Builder;
use super::package_sources::PackageSources;
use super::toolchains::{TOOLCHAINS, is_source, toolchain};
use crate::error::JudgeError;

/// The most that is copied into the box for a command as typed (its program and files).
const MAX_COPY_BYTES: u64 = 512 << 20;
const MAX_COPY_FILES: usize = 10_000;

fn find_in(path_list: &str, name: &str) -> Option<PathBuf> {
    path_list
        .split(':')
        .filter(|d| !d.is_empty())
        .map(|d| Path::new(d).join(name))
        .find(|p| is_executable(p))
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The host folders every box of this judge shows read-only (`BOARDJUDGE_TOOLCHAIN_PATHS`).
pub(super) fn configured_roots() -> Vec<PathBuf> {
    std::env::var("BOARDJUDGE_TOOLCHAIN_PATHS")
        .unwrap_or_default()
        .split(':')
        .filter(|p| !p.is_empty())
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .filter(|p| p.is_dir())
        .collect()
}

/// Is `path` (canonical) in the part of the host every box shows?
fn in_system(path: &Path) -> bool {
    [
        "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
    ]
    .iter()
    .any(|d| path.starts_with(d))
}

/// A system program (a compiler, an interpreter) named by `program`: the path to run it by in
/// the box, and the host folders the box must show for it. Under `/usr` it is where it is; a
/// rustup proxy becomes the toolchain's own program (its toolchain folder shown); under
/// `/opt/<x>` that folder is shown; anywhere else only a folder listed in
/// `BOARDJUDGE_TOOLCHAIN_PATHS` makes it usable (no folder of a home directory is shown
/// otherwise).
pub(super) fn locate(program: &str) -> Result<(PathBuf, Vec<PathBuf>), JudgeError> {
    let found = if program.contains('/') {
        let path = PathBuf::from(program);
        (path.is_absolute() && is_executable(&path)).then_some(path)
    } else {
        let user_path = std::env::var("PATH").unwrap_or_default();
        find_in(SANDBOX_PATH, program).or_else(|| find_in(&user_path, program))
    };
    let found = found.ok_or_else(|| {
        JudgeError::Usage(format!(
            "{program}: program not found in {SANDBOX_PATH} or PATH"
        ))
    })?;
    let mut roots = configured_roots();
    let real = std::fs::canonicalize(&found).map_err(|e| JudgeError::io(&found, e))?;
    if in_system(&real) {
        return Ok((found, roots));
    }
    let (path, real) = if real.file_name().is_some_and(|n| n == "rustup") {
        // A rustup proxy (`~/.cargo/bin/rustc`): the toolchain's own program.
        let name = Path::new(program)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let out = std::process::Command::new(&real)
            .args(["which", &name])
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| JudgeError::io(&real, e))?;
        let which = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if !out.status.success() || !which.is_absolute() {
            return Err(JudgeError::Usage(format!(
                "{program}: rustup does not say where its toolchain is"
            )));
        }
        let real = std::fs::canonicalize(&which).map_err(|e| JudgeError::io(&which, e))?;
        let toolchain = real
            .parent()
            .and_then(Path::parent)
            .filter(|t| t.join("lib").is_dir())
            .ok_or_else(|| {
                JudgeError::Usage(format!("{}: not in a rustup toolchain", real.display()))
            })?;
        roots.push(toolchain.to_path_buf());
        (real.clone(), real)
    } else {
        (found, real)
    };
    if roots.iter().any(|r| real.starts_with(r)) {
        return Ok((path, roots));
    }
    let mut parts = real.components();
    if let (Some(_), Some(first), Some(second)) = (parts.next(), parts.next(), parts.next())
        && first.as_os_str() == "opt"
    {
        roots.push(Path::new("/opt").join(second.as_os_str()));
        return Ok((path, roots));
    }
    Err(JudgeError::Usage(format!(
        "{program} ({}) is outside /usr and /opt: list its folder in BOARDJUDGE_TOOLCHAIN_PATHS \
         to show it (read-only) to builds and runs",
        real.display()
    )))
}

/// A name that can stand in the box as it is.
pub(super) fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 100
        && name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.+-".contains(&b))
}

/// Copies of the submission's files for the box, with unique names under `/box`.
#[derive(Default)]
pub(super) struct Copies {
    pub(super) files: Vec<BoxFile>,
    pub(super) bytes: u64,
    used: Vec<String>,
    /// The rules of the package the folder lies in: its links to files inside the package (or
    /// a folder the user trusts) are followed, a copy of the target taking the link's place.
    pub(super) package: Option<Arc<PackageSources>>,
}

impl Copies {
    /// A unique box name for `name`: itself, else under a numbered folder.
    fn place(&mut self, name: &str) -> String {
        let name = if plain_name(name) { name } else { "file" };
        let mut placed = name.to_string();
        let mut k = 0;
        while self.used.contains(&placed) {
            k += 1;
            placed = format!("{k}/{name}");
        }
        self.used.push(placed.clone());
        placed
    }

    fn add(&mut self, path: String, contents: Vec<u8>, executable: bool) -> Result<(), JudgeError> {
        self.bytes += contents.len() as u64;
        if self.bytes > MAX_COPY_BYTES || self.files.len() >= MAX_COPY_FILES {
            return Err(JudgeError::Usage(format!(
                "the submission's files are more than {} MiB or {MAX_COPY_FILES} files",
                MAX_COPY_BYTES >> 20
            )));
        }
        self.files.push(BoxFile {
            path,
            contents: Arc::from(contents),
            executable,
        });
        Ok(())
    }

    /// Copies the host file `host` as `at`.
    fn file(&mut self, host: &Path, at: String) -> Result<(), JudgeError> {
        let meta = std::fs::metadata(host).map_err(|e| JudgeError::io(host, e))?;
        let contents = std::fs::read(host).map_err(|e| JudgeError::io(host, e))?;
        self.add(at, contents, meta.permissions().mode() & 0o111 != 0)
    }

    /// Copies the folder `host` as `at`, without what the builder hides; symbolic links are
    /// refused (their targets are not the submission's), but for a package's links to regular
    /// files it allows ([`PackageSources::may_follow`]), copied as their targets.
    pub(super) fn folder(
        &mut self,
        host: &Path,
        at: &str,
        builder: &Builder,
    ) -> Result<(), JudgeError> {
        let entries = std::fs::read_dir(host).map_err(|e| JudgeError::io(host, e))?;
        let mut names: Vec<(String, PathBuf)> = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| JudgeError::io(host, e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            names.push((name, entry.path()));
        }
        names.sort();
        for (name, path) in names {
            if builder.is_hidden(&path) {
                continue;
            }
            let meta = std::fs::symlink_metadata(&path).map_err(|e| JudgeError::io(&path, e))?;
            let followed = if meta.file_type().is_symlink() {
                let allowed = self.package.as_ref().and_then(|package| {
                    let target = std::fs::canonicalize(&path).ok()?;
                    (package.may_follow(&target) && target.is_file() && !builder.is_hidden(&target))
                        .then_some(target)
                });
                let Some(target) = allowed else {
                    return Err(JudgeError::Usage(format!(
                        "{}: a symbolic link in a submission folder (copy the file instead)",
                        crate::escape::path(&path)
                    )));
                };
                Some(target)
            } else {
                None
            };
            if !sandbox::rootfs::safe_box_path(&name) {
                return Err(JudgeError::Usage(format!(
                    "{}: a name the box cannot hold",
                    crate::escape::path(&path)
                )));
            }
            let inside = if at.is_empty() {
                name.clone()
            } else {
                format!("{at}/{name}")
            };
            if let Some(target) = followed {
                self.file(&target, inside)?;
            } else if meta.is_dir() {
                self.folder(&path, &inside, builder)?;
            } else if meta.is_file() {
                self.file(&path, inside)?;
            }
        }
        Ok(())
    }
}

/// Resolves a command as typed in `cwd`: its own files and folders are copied into the box.
pub fn resolve(
    words: &[String],
    cwd: &Path,
    builder: &Builder,
) -> Result<sandbox::Command, JudgeError> {
    let (first, rest) = words
        .split_first()
        .ok_or_else(|| JudgeError::Usage("no submission command after --".to_string()))?;
    let mut copies = Copies::default();
    let system = |path: &Path| std::fs::canonicalize(path).is_ok_and(|p| in_system(&p));
    let (program, mut roots) = if first.contains('/') && system(&cwd.join(first)) {
        // A system program named by its path (`/usr/bin/python3`): it is there in the box.
        (cwd.join(first), configured_roots())
    } else if first.contains('/') {
        let path = cwd.join(first);
        if !is_executable(&path) {
            return Err(JudgeError::Usage(not_a_program(first, &path)));
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let at = copies.place(&name);
        copies.file(&path, at.clone())?;
        (Path::new(sandbox::BOX).join(at), Vec::new())
    } else {
        locate(first).map_err(|e| {
            let here = cwd.join(first);
            match e {
                // A file of this folder, or what looks like a source file.
                JudgeError::Usage(_) if here.exists() || is_source(Path::new(first)) => {
                    JudgeError::Usage(not_a_program(first, &here))
                }
                other => other,
            }
        })?
    };
    let mut args = Vec::new();
    for arg in rest {
        let path = cwd.join(arg);
        // Files and folders named on the command line (`java -cp DIR Main`, `python3 sol.py`)
        // are the submission's own: copied into the box.
        // What the box shows anyway (under /usr) stays where it is, and what is hidden (the
        // test data, the judge) is never copied in.
        if arg.starts_with('-')
            || !(path.is_file() || path.is_dir())
            || system(&path)
            || builder.is_hidden(&path)
        {
            args.push(arg.clone());
            continue;
        }
        let name = std::fs::canonicalize(&path)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "dir".to_string());
        let at = copies.place(&name);
        if path.is_dir() {
            copies.folder(&path, &at, builder)?;
        } else {
            copies.file(&path, at.clone())?;
        }
        args.push(Path::new(sandbox::BOX).join(at).display().to_string());
    }
    roots.dedup();
    Ok(sandbox::Command {
        program,
        args,
        files: copies.files,
        toolchain_roots: roots,
        env: Vec::new(),
    })
}

/// Why the submission `word` (at `path`) cannot run, in the user's terms: no such file, a
/// folder, a source file of a language the judge does not build, or a file that is not
/// executable.
fn not_a_program(word: &str, path: &Path) -> String {
    let extensions = || {
        TOOLCHAINS
            .iter()
            .map(|t| format!(".{}", t.ext))
            .collect::<Vec<_>>()
            .join(" ")
    };
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            format!("{word}: no such file or folder")
        }
        Err(e) => format!("{word}: {e}"),
        Ok(m) if m.is_dir() => format!("{word}: a folder, not a program"),
        Ok(_) => match path.extension().and_then(|e| e.to_str()) {
            Some(ext) if toolchain(ext).is_none() => format!(
                "{word}: not executable, and the judge does not build .{ext} files (it builds \
                 or runs {}; for another language, give the command that runs it after --)",
                extensions()
            ),
            Some(_) => format!("{word}: not executable"),
            None => format!(
                "{word}: not executable (chmod +x it, or give its interpreter: `-- sh {word}`)"
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unusual_names_are_not_used_in_the_box() {
        assert!(plain_name("Main.java"));
        assert!(plain_name("omok--fast.rs"));
        assert!(!plain_name("../x.c"));
        assert!(!plain_name("a b.c"));
        assert!(!plain_name("-rf.c"));
        assert!(!plain_name(""));
    }
}
