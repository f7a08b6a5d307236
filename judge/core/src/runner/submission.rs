//! Turning what the user typed after `--` (or a source file) into a [`sandbox::Command`].
//!
//! - A command works as typed from the user's directory: the program is looked up in the
//!   sandbox's `PATH` (`/usr/local/bin:/usr/bin:/bin`), then the user's; a program or an
//!   argument naming an existing file relative to the user's directory becomes an absolute
//!   path, which the sandbox may read and execute.
//! - A single source file is built (or run by its interpreter) by its extension, outside the
//!   sandbox with the user's rights; only the built program runs inside. The commands are in
//!   [`TOOLCHAINS`] (as BAPCtools' `languages.yaml` builds single files) and can be
//!   overridden with `BOARDJUDGE_BUILD_<EXT>` / `BOARDJUDGE_RUN_<EXT>`. Placeholders: `{src}`
//!   the source, `{out}` the program to build, `{dir}` a fresh folder for class files,
//!   `{class}` the source's name without extension, `{Class}` the same capitalised. A build
//!   that fails is a [`JudgeError::Build`]: the commands make it a CE verdict.
//! - When the sandbox runs as another user, files it could not reach (e.g. under `/root`) are
//!   copied into a private staging directory first.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::error::JudgeError;
use sandbox::SANDBOX_PATH;

/// How each source extension is built and run: (extension, build command or "", run
/// command). C, C++, Java, Kotlin and Rust as BAPCtools' `languages.yaml` builds them (C++
/// at gnu++20, which Debian 12's g++ knows fully); Go with the `go` tool (BAPCtools names
/// gccgo); Python with `python3` (contests often run `pypy3`: `BOARDJUDGE_RUN_PY='pypy3
/// {src}'`).
pub const TOOLCHAINS: [(&str, &str, &str); 11] = [
    ("c", "gcc -O2 -std=gnu11 -o {out} {src} -lm", "{out}"),
    ("cpp", "g++ -O2 -std=gnu++20 -o {out} {src}", "{out}"),
    ("cc", "g++ -O2 -std=gnu++20 -o {out} {src}", "{out}"),
    ("py", "", "python3 {src}"),
    (
        "java",
        "javac -encoding UTF-8 -d {dir} {src}",
        "java -Dfile.encoding=UTF-8 -XX:+UseSerialGC -XX:-UsePerfData -cp {dir} {class}",
    ),
    (
        "kt",
        "kotlinc -d {dir} {src}",
        "kotlin -Dfile.encoding=UTF-8 -J-XX:+UseSerialGC -J-XX:-UsePerfData -cp {dir} {Class}Kt",
    ),
    ("go", "go build -o {out} {src}", "{out}"),
    (
        "rs",
        "rustc -O --crate-type bin --edition=2018 -o {out} {src}",
        "{out}",
    ),
    ("rb", "", "ruby {src}"),
    ("js", "", "node {src}"),
    ("sh", "", "sh {src}"),
];

/// The flags a sanitized build (`--sanitize`) adds to the C and C++ build commands: AddressSanitizer
/// and UndefinedBehaviorSanitizer, recovering after a report (so the program runs on and its
/// output can still be right; the runtime options are `sandbox::SANITIZER_OPTIONS`), frame
/// pointers and line tables for the report's first frame.
pub const SANITIZE_FLAGS: &str =
    "-fsanitize=address,undefined -fsanitize-recover=address -fno-omit-frame-pointer -g";

/// The extensions whose builds `--sanitize` instruments.
pub const SANITIZED: [&str; 3] = ["c", "cpp", "cc"];

/// A build command with the sanitizer flags after the compiler's name.
pub fn sanitized(build: &str) -> String {
    match build.split_once(' ') {
        Some((compiler, rest)) => format!("{compiler} {SANITIZE_FLAGS} {rest}"),
        None => format!("{build} {SANITIZE_FLAGS}"),
    }
}

/// Where built programs and staged copies live for one run; removed at the end.
pub struct Staging {
    pub dir: PathBuf,
    /// Build C and C++ sources with the sanitizers ([`SANITIZE_FLAGS`], `--sanitize`).
    pub sanitize: bool,
}

/// The prefix of every staging folder's name; the judge's pid follows it.
const STAGING_PREFIX: &str = "boardjudge-staging-";

impl Staging {
    pub fn new() -> Result<Staging, JudgeError> {
        let base = std::env::temp_dir();
        remove_stale_staging(&base);
        for attempt in 0..1000u32 {
            let dir = base.join(format!("{STAGING_PREFIX}{}-{attempt}", std::process::id()));
            match std::fs::create_dir(&dir) {
                Ok(()) => {
                    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))
                        .map_err(|e| JudgeError::io(&dir, e))?;
                    return Ok(Staging {
                        dir,
                        sanitize: false,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(JudgeError::io(&dir, e)),
            }
        }
        Err(JudgeError::sandbox(
            "no free staging directory name",
            std::io::ErrorKind::AlreadyExists.into(),
        ))
    }
}

/// Removes the staging folders of judges that are gone: a judge killed with SIGKILL runs no
/// destructor. A folder whose judge's pid is alive (or reused) is left alone.
fn remove_stale_staging(base: &Path) {
    use std::os::unix::fs::MetadataExt;
    // Our effective uid, without unsafe code: /proc/self belongs to it.
    let (Ok(me), Ok(entries)) = (std::fs::metadata("/proc/self"), std::fs::read_dir(base)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(STAGING_PREFIX))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let own = std::fs::symlink_metadata(entry.path())
            .is_ok_and(|m| m.is_dir() && m.uid() == me.uid());
        if own && !Path::new("/proc").join(pid.to_string()).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

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

/// Can a user other than the owner read `path` (every directory above it traversable)?
fn reachable_by_others(path: &Path) -> bool {
    let readable = std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o004 != 0);
    readable
        && path
            .ancestors()
            .skip(1)
            .all(|dir| std::fs::metadata(dir).is_ok_and(|m| m.permissions().mode() & 0o001 != 0))
}

/// The file itself, or a copy in the staging directory if the sandbox user could not reach it.
fn stage(path: &Path, staging: &Staging, drop_privileges: bool) -> Result<PathBuf, JudgeError> {
    if !drop_privileges || reachable_by_others(path) {
        return Ok(path.to_path_buf());
    }
    let name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    let dir = staging.dir.join(format!(
        "staged-{}",
        std::fs::read_dir(&staging.dir)
            .map(|d| d.count())
            .unwrap_or(0)
    ));
    std::fs::create_dir_all(&dir).map_err(|e| JudgeError::io(&dir, e))?;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| JudgeError::io(&dir, e))?;
    let copy = dir.join(name);
    std::fs::copy(path, &copy).map_err(|e| JudgeError::io(path, e))?;
    let mode = std::fs::metadata(path)
        .map(|m| m.permissions().mode())
        .unwrap_or(0o644);
    std::fs::set_permissions(
        &copy,
        std::fs::Permissions::from_mode(if mode & 0o111 != 0 { 0o755 } else { 0o644 }),
    )
    .map_err(|e| JudgeError::io(&copy, e))?;
    Ok(copy)
}

/// Resolves a command as typed in `cwd`.
pub fn resolve(
    words: &[String],
    cwd: &Path,
    staging: &Staging,
    drop_privileges: bool,
) -> Result<sandbox::Command, JudgeError> {
    let (first, rest) = words
        .split_first()
        .ok_or_else(|| JudgeError::Usage("no submission command after --".to_string()))?;
    let program = if first.contains('/') {
        let path = cwd.join(first);
        if !is_executable(&path) {
            return Err(JudgeError::Usage(not_a_program(first, &path)));
        }
        path
    } else {
        let user_path = std::env::var("PATH").unwrap_or_default();
        find_in(SANDBOX_PATH, first)
            .or_else(|| find_in(&user_path, first))
            .ok_or_else(|| {
                let here = cwd.join(first);
                JudgeError::Usage(if here.exists() || is_source(Path::new(first)) {
                    // A file of this folder, or what looks like a source file.
                    not_a_program(first, &here)
                } else {
                    format!("{first}: program not found in {SANDBOX_PATH} or PATH")
                })
            })?
    };
    let program = stage(
        &std::fs::canonicalize(&program).unwrap_or(program),
        staging,
        drop_privileges,
    )?;
    let mut readable = Vec::new();
    let mut args = Vec::new();
    for arg in rest {
        let path = cwd.join(arg);
        // Files and directories named on the command line (`java -cp DIR Main`) are the
        // submission's own: readable in the sandbox.
        if !arg.starts_with('-') && path.is_dir() {
            // Not copied: a directory must be readable by the sandbox user where it is.
            let dir = std::fs::canonicalize(&path).unwrap_or(path);
            args.push(dir.display().to_string());
            readable.push(dir);
        } else if !arg.starts_with('-') && path.is_file() {
            let staged = stage(
                &std::fs::canonicalize(&path).unwrap_or(path),
                staging,
                drop_privileges,
            )?;
            args.push(staged.display().to_string());
            readable.push(staged);
        } else {
            args.push(arg.clone());
        }
    }
    Ok(sandbox::Command {
        program,
        args,
        readable,
    })
}

/// Why the submission `word` (at `path`) cannot run, in the user's terms: no such file, a
/// folder, a source file of a language the judge does not build, or a file that is not
/// executable.
fn not_a_program(word: &str, path: &Path) -> String {
    let extensions = || {
        TOOLCHAINS
            .iter()
            .map(|(ext, _, _)| format!(".{ext}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => format!("{word}: no such file"),
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

/// The build and run commands for a source file's extension, with overrides from the
/// environment.
pub fn toolchain(extension: &str) -> Option<(String, String)> {
    let (_, build, run) = TOOLCHAINS.iter().find(|(ext, _, _)| *ext == extension)?;
    let key = extension.to_ascii_uppercase();
    let build =
        std::env::var(format!("BOARDJUDGE_BUILD_{key}")).unwrap_or_else(|_| build.to_string());
    let run = std::env::var(format!("BOARDJUDGE_RUN_{key}")).unwrap_or_else(|_| run.to_string());
    Some((build, run))
}

/// A command template with its placeholders filled in, as words.
fn fill(template: &str, src: &Path, out: &Path, dir: &Path) -> Vec<String> {
    let class = src
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut capitalised = class.clone();
    if let Some(first) = capitalised.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    template
        .split_whitespace()
        .map(|w| {
            w.replace("{src}", &src.display().to_string())
                .replace("{out}", &out.display().to_string())
                .replace("{dir}", &dir.display().to_string())
                .replace("{class}", &class)
                .replace("{Class}", &capitalised)
        })
        .collect()
}

/// Is `path` a source file the judge knows how to build or run?
pub fn is_source(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| toolchain(e).is_some())
}

/// Builds (if the language needs it) and resolves a source file, saying on standard error
/// how it is built. A build that fails is [`JudgeError::Build`], with the compiler's message.
pub fn from_source(
    src: &Path,
    cwd: &Path,
    staging: &Staging,
    drop_privileges: bool,
) -> Result<sandbox::Command, JudgeError> {
    let ext = src.extension().and_then(|e| e.to_str()).unwrap_or("");
    let (build, run) = toolchain(ext).ok_or_else(|| {
        JudgeError::Usage(format!("{}: no toolchain for .{ext} files", src.display()))
    })?;
    let build = if staging.sanitize && SANITIZED.contains(&ext) && !build.is_empty() {
        sanitized(&build)
    } else {
        if staging.sanitize {
            eprintln!(
                "--sanitize: {} is not C or C++: built and run as usual (the sanitizer options are set for its runs)",
                src.display()
            );
        }
        build
    };
    let src = std::fs::canonicalize(cwd.join(src)).map_err(|e| JudgeError::io(src, e))?;
    let stem = src
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "program".to_string());
    let out = staging.dir.join(format!(
        "{stem}-{}",
        std::fs::read_dir(&staging.dir)
            .map(|d| d.count())
            .unwrap_or(0)
    ));
    // A folder for languages that build many files (class files); the sandbox may read it.
    let class_dir = out.with_extension("classes");
    let uses_dir = build.contains("{dir}") || run.contains("{dir}");
    if uses_dir {
        std::fs::create_dir_all(&class_dir).map_err(|e| JudgeError::io(&class_dir, e))?;
    }
    if !build.is_empty() {
        let words = fill(&build, &src, &out, &class_dir);
        eprintln!("build: {}", words.join(" "));
        let output = std::process::Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::null())
            .output()
            // A missing compiler is this machine's problem, not the submission's.
            .map_err(|e| {
                JudgeError::Usage(format!(
                    "{}: cannot run {} to build it ({e}); is it installed?",
                    src.display(),
                    words[0]
                ))
            })?;
        if !output.status.success() {
            let mut message = String::from_utf8_lossy(&output.stderr).into_owned();
            message.push_str(&String::from_utf8_lossy(&output.stdout));
            return Err(JudgeError::Build {
                source_file: src.clone(),
                command: words.join(" "),
                message: message.trim_end().to_string(),
            });
        }
        // Class files must be readable by the sandbox's user.
        if uses_dir {
            make_readable(&class_dir)?;
        }
    }
    let words = fill(&run, &src, &out, &class_dir);
    let mut command = resolve(&words, cwd, staging, drop_privileges)?;
    if uses_dir {
        command.readable.push(class_dir);
    }
    Ok(command)
}

/// Opens a build folder and everything in it to other users (read, and traverse folders).
fn make_readable(dir: &Path) -> Result<(), JudgeError> {
    let entries = std::fs::read_dir(dir).map_err(|e| JudgeError::io(dir, e))?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| JudgeError::io(dir, e))?;
    for entry in entries {
        let path = entry.map_err(|e| JudgeError::io(dir, e))?.path();
        if path.is_dir() {
            make_readable(&path)?;
        } else {
            let mode = std::fs::metadata(&path)
                .map(|m| m.permissions().mode())
                .unwrap_or(0o644);
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode | 0o444))
                .map_err(|e| JudgeError::io(&path, e))?;
        }
    }
    Ok(())
}

/// The submission the user typed after `--`: one source file (built, or run by its
/// interpreter), else a command as typed, resolved from the current directory.
pub fn from_words(words: &[String], staging: &Staging) -> Result<sandbox::Command, JudgeError> {
    let cwd = std::env::current_dir().map_err(|e| JudgeError::io(".", e))?;
    let drop = sandbox::Isolation::detect().drop_privileges;
    match words {
        [single] if is_source(Path::new(single)) && cwd.join(single).is_file() => {
            from_source(Path::new(single), &cwd, staging, drop)
        }
        _ => resolve(words, &cwd, staging, drop),
    }
}

/// A submission file of a folder (`judge strength`): a source file, or an executable.
pub fn from_path(path: &Path, staging: &Staging) -> Result<sandbox::Command, JudgeError> {
    let cwd = std::env::current_dir().map_err(|e| JudgeError::io(".", e))?;
    let drop = sandbox::Isolation::detect().drop_privileges;
    if is_source(path) {
        from_source(path, &cwd, staging, drop)
    } else {
        resolve(&[path.display().to_string()], &cwd, staging, drop)
    }
}
