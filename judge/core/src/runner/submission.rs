//! Turning what the user typed after `--` (a command, a source file, or a folder) into a
//! [`sandbox::Command`].
//!
//! - A command works as typed from the user's directory: the program is looked up in the
//!   sandbox's `PATH` (`/usr/local/bin:/usr/bin:/bin`), then the user's; a program or an
//!   argument naming an existing file or folder relative to the user's directory is the
//!   submission's own: it is **copied** into the box (`/box/<name>`) and the argument rewritten
//!   to match. Nothing beside it on the host is visible to the run.
//! - A single source file is built (or run by its interpreter) by its extension. The build runs
//!   **in a build box** ([`sandbox::build`]): the source copied alone into an empty `/box/src`,
//!   the toolchain read-only, no network, a leased uid, limits on CPU, wall time, memory,
//!   processes and what it writes; only the artefact leaves the box. The commands are in
//!   [`TOOLCHAINS`] (as BAPCtools' `languages.yaml` builds single files) and can be overridden
//!   with `BOARDJUDGE_BUILD_<EXT>` / `BOARDJUDGE_RUN_<EXT>`. Placeholders (box paths): `{src}`
//!   the source (`/box/src/<name>`; as a whole word, every source of a folder submission
//!   compiled together), `{out}` the program to build (`/box/out/<stem>`, run as
//!   `/box/<stem>`), `{dir}` a folder for class files (`/box/out/classes`, run as
//!   `/box/classes`), `{class}` the source's name without extension, `{Class}` the same
//!   capitalised. A build that fails is a [`JudgeError::Build`] with the compiler's message
//!   (capped, box paths only): the commands make it a CE verdict.
//! - A folder is a submission of several files: everything in it is copied (into `/box`, or
//!   `/box/src` to build), its entry point is `main.<ext>` / `Main.<ext>` or its only source
//!   file, and a compiled language's sources in it are compiled together.
//! - Each distinct build is done once: a cache keyed by the sources' bytes, the language, the
//!   full build command and the toolchain's identity ([`cache`](super::cache)), and builds of
//!   several submissions run in parallel ([`build_all`]).

use std::collections::HashMap;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use sandbox::build::{BuildLimits, Built, Output, Spec};
use sandbox::{BoxFile, SANDBOX_PATH};

use super::cache::{self, Cache, Key, sha256_hex};
use crate::cancel::Cancel;
use crate::error::JudgeError;

/// How one language is built and run.
#[derive(Clone, Copy, Debug)]
pub struct Toolchain {
    /// The extension of its sources.
    pub ext: &'static str,
    /// The extensions compiled together in a folder submission whose entry point has `ext`.
    pub family: &'static [&'static str],
    /// The build command ("" for an interpreted language).
    pub build: &'static str,
    pub run: &'static str,
    /// The build's environment besides `PATH`, `LANG`, `HOME` and `TMPDIR` (box paths).
    pub build_env: &'static [(&'static str, &'static str)],
}

/// Where a Go build keeps its cache in the box.
const GO_CACHE: &str = "/box/tmp/go-cache";

const GO_ENV: &[(&str, &str)] = &[
    ("GOCACHE", GO_CACHE),
    ("GOPATH", "/box/tmp/go"),
    ("GOPROXY", "off"),
];

/// How each source extension is built and run. C, C++, Java, Kotlin and Rust as BAPCtools'
/// `languages.yaml` builds them (C++ at gnu++20, which Debian 12's g++ knows fully); Go with
/// the `go` tool (BAPCtools names gccgo); Python with `python3` (contests often run `pypy3`:
/// `BOARDJUDGE_RUN_PY='pypy3 {src}'`).
pub const TOOLCHAINS: [Toolchain; 11] = [
    Toolchain {
        ext: "c",
        family: &["c"],
        build: "gcc -O2 -std=gnu11 -o {out} {src} -lm",
        run: "{out}",
        build_env: &[],
    },
    Toolchain {
        ext: "cpp",
        family: &["cpp", "cc"],
        build: "g++ -O2 -std=gnu++20 -o {out} {src}",
        run: "{out}",
        build_env: &[],
    },
    Toolchain {
        ext: "cc",
        family: &["cpp", "cc"],
        build: "g++ -O2 -std=gnu++20 -o {out} {src}",
        run: "{out}",
        build_env: &[],
    },
    Toolchain {
        ext: "py",
        family: &["py"],
        build: "",
        run: "python3 {src}",
        build_env: &[],
    },
    Toolchain {
        ext: "java",
        family: &["java"],
        build: "javac -encoding UTF-8 -d {dir} {src}",
        run: "java -Dfile.encoding=UTF-8 -XX:+UseSerialGC -XX:-UsePerfData -cp {dir} {class}",
        build_env: &[],
    },
    Toolchain {
        ext: "kt",
        family: &["kt"],
        build: "kotlinc -d {dir} {src}",
        run: "kotlin -Dfile.encoding=UTF-8 -J-XX:+UseSerialGC -J-XX:-UsePerfData -cp {dir} {Class}Kt",
        build_env: &[],
    },
    Toolchain {
        ext: "go",
        family: &["go"],
        build: "go build -o {out} {src}",
        run: "{out}",
        build_env: GO_ENV,
    },
    Toolchain {
        ext: "rs",
        family: &["rs"],
        build: "rustc -O --crate-type bin --edition=2018 -o {out} {src}",
        run: "{out}",
        build_env: &[],
    },
    Toolchain {
        ext: "rb",
        family: &["rb"],
        build: "",
        run: "ruby {src}",
        build_env: &[],
    },
    Toolchain {
        ext: "js",
        family: &["js"],
        build: "",
        run: "node {src}",
        build_env: &[],
    },
    Toolchain {
        ext: "sh",
        family: &["sh"],
        build: "",
        run: "sh {src}",
        build_env: &[],
    },
];

/// The build and run commands for a source file's extension, with overrides from the
/// environment.
pub fn toolchain(extension: &str) -> Option<(String, String)> {
    let tool = TOOLCHAINS.iter().find(|t| t.ext == extension)?;
    let key = extension.to_ascii_uppercase();
    let build =
        std::env::var(format!("BOARDJUDGE_BUILD_{key}")).unwrap_or_else(|_| tool.build.to_string());
    let run =
        std::env::var(format!("BOARDJUDGE_RUN_{key}")).unwrap_or_else(|_| tool.run.to_string());
    Some((build, run))
}

/// Is `path` a source file the judge knows how to build or run?
pub fn is_source(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| toolchain(e).is_some())
}

/// The largest source file (or folder submission) the judge reads: no contest source is
/// anywhere near it.
const MAX_SOURCE_BYTES: u64 = 16 << 20;
/// The most that is copied into the box for a command as typed (its program and files).
const MAX_COPY_BYTES: u64 = 512 << 20;
const MAX_COPY_FILES: usize = 10_000;
/// The start of a compiler's message shown in a CE.
pub const MESSAGE_BYTES: usize = 8 << 10;

/// A build that did not give a program: what a CE shows.
#[derive(Clone, Debug)]
struct Failed {
    command: String,
    message: String,
    reason: Option<String>,
}

type Outcome = Result<Arc<Vec<BoxFile>>, BuildError>;

#[derive(Clone, Debug)]
enum BuildError {
    Ce(Failed),
    Interrupted,
    Judge(String),
}

/// The flags a sanitized build (`--sanitize`) adds to the C and C++ build commands, right
/// after the compiler: AddressSanitizer and UndefinedBehaviorSanitizer, recovering after a
/// report (so the program runs on and its output can still be right; the runtime options are
/// `sandbox::SANITIZER_OPTIONS`), frame pointers and line tables for the report's first frame.
pub const SANITIZE_FLAGS: [&str; 4] = [
    "-fsanitize=address,undefined",
    "-fsanitize-recover=address",
    "-fno-omit-frame-pointer",
    "-g",
];

/// The extensions whose builds `--sanitize` instruments.
pub const SANITIZED: [&str; 3] = ["c", "cpp", "cc"];

/// Builds submissions: the build limits, the folders the build must not see, the cache and
/// what this judge built already.
pub struct Builder {
    pub limits: BuildLimits,
    hidden: Vec<PathBuf>,
    /// Opened on the first build.
    cache: OnceLock<Option<Cache>>,
    built: Mutex<HashMap<String, Arc<OnceLock<Outcome>>>>,
    identities: Mutex<HashMap<PathBuf, String>>,
    /// Go's build cache warmed with the standard library, per Go toolchain (its identity).
    go_caches: Mutex<HashMap<String, Option<Arc<Vec<BoxFile>>>>>,
    /// Flags added to the build command of a language, right after the compiler: (extension,
    /// flags). Part of the build command, so of the cache key.
    pub extra_flags: Vec<(String, Vec<String>)>,
    cancel: Cancel,
    /// Say on standard error how each source is built (`build: …`).
    pub verbose: bool,
    /// `--sanitize`: C and C++ get [`SANITIZE_FLAGS`]; a source in another language is
    /// built as usual, with a note.
    sanitizing: bool,
}

impl Builder {
    /// A builder with a CPU-time limit per build (`--build-time-limit`; default 30 s), whose
    /// builds and copied folders leave out `hidden` (the test data), stopped by `cancel`.
    pub fn new(build_time_limit: Option<Duration>, hidden: &[PathBuf], cancel: &Cancel) -> Builder {
        let limits = build_time_limit.map_or_else(BuildLimits::default, BuildLimits::new);
        remove_stale_staging(&std::env::temp_dir());
        let mut hidden = hidden.to_vec();
        if let Ok(judge) = std::env::current_exe() {
            hidden.push(judge);
        }
        Builder {
            limits,
            hidden: hidden
                .iter()
                .filter_map(|p| std::fs::canonicalize(p).ok())
                .collect(),
            cache: OnceLock::new(),
            built: Mutex::new(HashMap::new()),
            identities: Mutex::new(HashMap::new()),
            go_caches: Mutex::new(HashMap::new()),
            extra_flags: Vec::new(),
            cancel: cancel.clone(),
            verbose: true,
            sanitizing: false,
        }
    }

    /// `--sanitize`: C and C++ sources are built with [`SANITIZE_FLAGS`] (a build command of
    /// its own, so a cache entry of its own).
    pub fn sanitize(mut self) -> Builder {
        for ext in SANITIZED {
            let flags = SANITIZE_FLAGS.iter().map(|f| f.to_string()).collect();
            self.extra_flags.push((ext.to_string(), flags));
        }
        self.sanitizing = true;
        self
    }

    /// The build cache, opened (made) on first use; `None` when it is off or unusable (then
    /// every build is done, and the judge says so once).
    fn cache(&self) -> Option<&Cache> {
        self.cache
            .get_or_init(|| {
                let dir = cache::location()?;
                match Cache::open(&dir) {
                    Ok(cache) => Some(cache),
                    Err(e) => {
                        eprintln!(
                            "judge: the build cache {} is unusable ({e}): building without it",
                            dir.display()
                        );
                        None
                    }
                }
            })
            .as_ref()
    }

    /// Where the build cache is, if there is one.
    pub fn cache_location(&self) -> Option<&Path> {
        self.cache().map(Cache::root)
    }

    fn is_hidden(&self, path: &Path) -> bool {
        std::fs::canonicalize(path).is_ok_and(|p| self.hidden.iter().any(|h| p.starts_with(h)))
    }
}

/// Removes the staging folders (`boardjudge-staging-<pid>-<n>`) that judges before builds ran
/// in the box left when they were killed: nothing is staged on disk any more.
fn remove_stale_staging(base: &Path) {
    let (Ok(me), Ok(entries)) = (std::fs::metadata("/proc/self"), std::fs::read_dir(base)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("boardjudge-staging-"))
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
fn configured_roots() -> Vec<PathBuf> {
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
fn locate(program: &str) -> Result<(PathBuf, Vec<PathBuf>), JudgeError> {
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
fn plain_name(name: &str) -> bool {
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
struct Copies {
    files: Vec<BoxFile>,
    bytes: u64,
    used: Vec<String>,
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
    /// refused (their targets are not the submission's).
    fn folder(&mut self, host: &Path, at: &str, builder: &Builder) -> Result<(), JudgeError> {
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
            if meta.file_type().is_symlink() {
                return Err(JudgeError::Usage(format!(
                    "{}: a symbolic link in a submission folder (copy the file instead)",
                    path.display()
                )));
            }
            if !sandbox::rootfs::safe_box_path(&name) {
                return Err(JudgeError::Usage(format!(
                    "{}: a name the box cannot hold",
                    path.display()
                )));
            }
            let inside = if at.is_empty() {
                name.clone()
            } else {
                format!("{at}/{name}")
            };
            if meta.is_dir() {
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

/// A submission's sources, read once.
struct Sources {
    /// As the user named it.
    shown: PathBuf,
    ext: String,
    /// Relative paths (box-safe), contents, executable.
    files: Vec<(String, Vec<u8>, bool)>,
    /// The entry point.
    entry: String,
    /// Compiled together (`{src}` as a whole word): the entry point first.
    together: Vec<String>,
}

fn extension(name: &str) -> String {
    Path::new(name)
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A single source file.
fn read_single(src: &Path) -> Result<Sources, JudgeError> {
    let ext = src
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_string();
    let meta = std::fs::metadata(src).map_err(|e| JudgeError::io(src, e))?;
    if meta.len() > MAX_SOURCE_BYTES {
        return Err(JudgeError::Usage(format!(
            "{}: a source of more than {} MiB",
            src.display(),
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

/// A folder submission: everything in it (but what is hidden), its entry point, and the
/// sources compiled together.
fn read_folder(dir: &Path, builder: &Builder) -> Result<Sources, JudgeError> {
    let mut copies = Copies::default();
    copies.folder(dir, "", builder)?;
    if copies.bytes > MAX_SOURCE_BYTES {
        return Err(JudgeError::Usage(format!(
            "{}: a submission folder of more than {} MiB",
            dir.display(),
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
    let entry = match (mains.as_slice(), top.as_slice()) {
        ([one], _) | ([], [one]) => one.to_string(),
        _ => {
            return Err(JudgeError::Usage(format!(
                "{}: a submission folder needs one entry point (main.<ext>, Main.<ext>, or a \
                 single source file at its top); found {}",
                dir.display(),
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

/// Where things are in a command template.
struct Places<'a> {
    /// `{src}` as a whole word: every source compiled together; inside a word: the entry.
    src: &'a [String],
    out: String,
    dir: String,
    /// The entry point's name without extension.
    class: String,
}

/// A command template with its placeholders filled in, as words.
fn fill(template: &str, places: &Places) -> Vec<String> {
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

/// The words of a command as the box sees them, with its program located.
fn located(words: Vec<String>) -> Result<(PathBuf, Vec<String>, Vec<PathBuf>), JudgeError> {
    let (first, rest) = words
        .split_first()
        .ok_or_else(|| JudgeError::Usage("an empty build or run command".to_string()))?;
    if first.starts_with("/box/") {
        return Ok((PathBuf::from(first), rest.to_vec(), Vec::new()));
    }
    let (program, roots) = locate(first)?;
    Ok((program, rest.to_vec(), roots))
}

/// The first `limit` bytes of a compiler's message as text (cut at a character boundary),
/// and how many more there were.
pub fn capped_message(bytes: &[u8], limit: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim_end();
    if text.len() <= limit {
        return text.to_string();
    }
    let mut cut = limit;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}\n… ({} more bytes)", &text[..cut], text.len() - cut)
}

/// The toolchain's identity for the cache key: its executable's path, size, times and inode,
/// and what it says its version is (asked once per judge; kept in the cache folder per
/// executable, so a slow `kotlinc -version` is asked once per machine and toolchain update).
fn identity(builder: &Builder, program: &Path) -> String {
    let real = std::fs::canonicalize(program).unwrap_or_else(|_| program.to_path_buf());
    if let Some(known) = builder.identities.lock().unwrap().get(&real) {
        return known.clone();
    }
    let stat = std::fs::metadata(&real).map_or_else(
        |_| "missing".to_string(),
        |m| {
            format!(
                "{} size {} mtime {}.{} ctime {}.{} inode {}:{}",
                real.display(),
                m.len(),
                m.mtime(),
                m.mtime_nsec(),
                m.ctime(),
                m.ctime_nsec(),
                m.dev(),
                m.ino()
            )
        },
    );
    let remembered = builder.cache().map(|c| {
        c.root()
            .join("toolchains")
            .join(sha256_hex(stat.as_bytes()))
    });
    let version = remembered
        .as_ref()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .unwrap_or_else(|| {
            let name = real
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let args: &[&str] = match name.as_str() {
                "rustc" => &["-vV"],
                "go" => &["version"],
                "javac" | "kotlinc" | "kotlinc-jvm" => &["-version"],
                _ => &["--version"],
            };
            // The toolchain itself, on the host: no contestant input is involved.
            let version = std::process::Command::new(program)
                .args(args)
                .stdin(std::process::Stdio::null())
                .output()
                .map(|o| {
                    let mut text = String::from_utf8_lossy(&o.stdout).into_owned();
                    text.push_str(&String::from_utf8_lossy(&o.stderr));
                    text
                })
                .unwrap_or_default();
            if let Some(path) = &remembered {
                let _ = std::fs::create_dir_all(path.parent().unwrap_or(path));
                let temporary = path.with_extension(format!("tmp-{}", std::process::id()));
                if std::fs::write(&temporary, &version).is_ok() {
                    let _ = std::fs::rename(&temporary, path);
                }
            }
            version
        });
    let identity = format!("{stat}\n{}", version.trim_end());
    builder
        .identities
        .lock()
        .unwrap()
        .insert(real, identity.clone());
    identity
}

/// What building (and then running) a submission takes.
struct Prepared {
    sources: Sources,
    /// `None` for an interpreted language.
    build: Option<(Spec, Key, String)>,
    run_template: String,
    stem: String,
}

fn prepare(sources: Sources, builder: &Builder) -> Result<Prepared, JudgeError> {
    let (build, run) = toolchain(&sources.ext).ok_or_else(|| {
        JudgeError::Usage(format!(
            "{}: no toolchain for .{} files",
            sources.shown.display(),
            sources.ext
        ))
    })?;
    let stem = Path::new(&sources.entry)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "sol".to_string());
    if build.trim().is_empty() {
        return Ok(Prepared {
            sources,
            build: None,
            run_template: run,
            stem,
        });
    }
    let in_src: Vec<String> = sources
        .together
        .iter()
        .map(|p| format!("/box/src/{p}"))
        .collect();
    let places = Places {
        src: &in_src,
        out: format!("/box/out/{stem}"),
        dir: "/box/out/classes".to_string(),
        class: stem.clone(),
    };
    let mut words = fill(&build, &places);
    if let Some((_, flags)) = builder.extra_flags.iter().find(|(e, _)| *e == sources.ext) {
        words.splice(1..1, flags.iter().cloned());
    } else if builder.sanitizing {
        eprintln!(
            "--sanitize: {} is not C or C++: built and run as usual (the sanitizer options are set for its runs)",
            sources.shown.display()
        );
    }
    let shown = words.join(" ");
    let (program, args, roots) = located(words)?;
    let tool = TOOLCHAINS.iter().find(|t| t.ext == sources.ext);
    let env: Vec<(String, String)> = tool
        .map_or(&[][..], |t| t.build_env)
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let uses = |p: &str| build.contains(p) || run.contains(p);
    let mut outputs = Vec::new();
    let mut dirs = Vec::new();
    if uses("{out}") {
        outputs.push(Output {
            from: format!("out/{stem}"),
            to: stem.clone(),
            folder: false,
        });
    }
    if uses("{dir}") {
        outputs.push(Output {
            from: "out/classes".to_string(),
            to: "classes".to_string(),
            folder: true,
        });
        dirs.push("out/classes".to_string());
    }
    let files: Vec<BoxFile> = sources
        .files
        .iter()
        .map(|(path, bytes, executable)| BoxFile {
            path: format!("src/{path}"),
            contents: Arc::from(bytes.clone()),
            executable: *executable,
        })
        .collect();
    // Everything the artefact depends on.
    let mut material = format!(
        "language {}\ncommand {}\nprogram {}\nenv {:?}\noutputs {:?}\nroots {:?}\ntoolchain {}\n",
        sources.ext,
        shown,
        program.display(),
        env,
        outputs
            .iter()
            .map(|o| (&o.from, &o.to, o.folder))
            .collect::<Vec<_>>(),
        roots,
        identity(builder, &program)
    );
    for file in &files {
        material.push_str(&format!(
            "source {} {} {} {}\n",
            file.executable,
            file.contents.len(),
            sha256_hex(&file.contents),
            file.path
        ));
    }
    let mut files = files;
    if let Some(warm) = go_standard_cache(builder, &program, &roots, &env) {
        // Go's cache starts warm with the standard library (not part of the key: Go checks
        // every entry it uses, and the artefact does not depend on it).
        files.extend(warm.iter().map(|f| BoxFile {
            path: format!("tmp/{}", f.path),
            contents: f.contents.clone(),
            executable: false,
        }));
    }
    let spec = Spec {
        command: sandbox::Command {
            program,
            args,
            files,
            toolchain_roots: roots,
            env,
        },
        dirs,
        outputs,
        limits: builder.limits,
        hidden: builder.hidden.clone(),
    };
    Ok(Prepared {
        sources,
        build: Some((spec, Key::new(&material), shown)),
        run_template: run,
        stem,
    })
}

/// A program importing the standard library's packages contest programs use: built once per
/// Go toolchain (by the judge, in a build box), its build cache starts every Go build warm. Go
/// 1.20 and later ship no compiled standard library: without it each build compiles what it
/// imports.
const GO_WARM_SOURCE: &str = r#"package main

import (
	"bufio"
	"bytes"
	"container/heap"
	"container/list"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/bits"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

var _ = []interface{}{bufio.NewReader, bytes.NewBuffer, heap.Init, list.New, errors.New,
	fmt.Println, io.ReadAll, math.Sqrt, big.NewInt, bits.OnesCount, rand.Intn, os.Exit,
	sort.Ints, strconv.Itoa, strings.Fields, unicode.IsDigit}

func main() {}
"#;

/// Go's build cache after building [`GO_WARM_SOURCE`] with this toolchain, as files under
/// `go-cache/`: made once per judge (and kept in the build cache), `None` for a build that is
/// not `go` with its cache in the box, or if making it failed (the build then starts cold).
fn go_standard_cache(
    builder: &Builder,
    program: &Path,
    roots: &[PathBuf],
    env: &[(String, String)],
) -> Option<Arc<Vec<BoxFile>>> {
    if program.file_name().is_none_or(|n| n != "go")
        || !env.iter().any(|(k, v)| k == "GOCACHE" && v == GO_CACHE)
    {
        return None;
    }
    let identity = identity(builder, program);
    if let Some(known) = builder.go_caches.lock().unwrap().get(&identity) {
        return known.clone();
    }
    let key = Key::new(&format!(
        "go standard library cache\nsource {}\nenv {env:?}\ntoolchain {identity}\n",
        sha256_hex(GO_WARM_SOURCE.as_bytes())
    ));
    let warm = builder.cache().and_then(|c| c.get(&key)).or_else(|| {
        let spec = Spec {
            command: sandbox::Command {
                program: program.to_path_buf(),
                args: ["build", "-o", "/box/out/warm", "/box/src/warm.go"]
                    .map(String::from)
                    .to_vec(),
                files: vec![BoxFile {
                    path: "src/warm.go".to_string(),
                    contents: Arc::from(GO_WARM_SOURCE.as_bytes()),
                    executable: false,
                }],
                toolchain_roots: roots.to_vec(),
                env: env.to_vec(),
            },
            dirs: Vec::new(),
            outputs: vec![Output {
                from: "tmp/go-cache".to_string(),
                to: "go-cache".to_string(),
                folder: true,
            }],
            limits: builder.limits,
            hidden: builder.hidden.clone(),
        };
        match sandbox::build::build(&spec, builder.cancel.flag()) {
            Ok(Built::Artefact(files)) => {
                if let Some(cache) = builder.cache() {
                    let _ = cache.put(&key, &files);
                }
                Some(files)
            }
            _ => None,
        }
    });
    let warm = warm.map(Arc::new);
    builder
        .go_caches
        .lock()
        .unwrap()
        .insert(identity, warm.clone());
    warm
}

/// Builds (or takes from the cache, or from this judge's earlier build) `spec`.
fn build_once(builder: &Builder, spec: &Spec, key: &Key, shown: &str) -> Outcome {
    let cell = builder
        .built
        .lock()
        .unwrap()
        .entry(key.hash.clone())
        .or_default()
        .clone();
    cell.get_or_init(|| {
        if let Some(files) = builder.cache().and_then(|c| c.get(key)) {
            if builder.verbose {
                eprintln!("build: {shown} (cached)");
            }
            return Ok(Arc::new(files));
        }
        if builder.verbose {
            eprintln!("build: {shown}");
        }
        match sandbox::build::build(spec, builder.cancel.flag()) {
            Ok(Built::Artefact(files)) => {
                if let Some(cache) = builder.cache()
                    && let Err(e) = cache.put(key, &files)
                {
                    eprintln!(
                        "judge: could not write to the build cache {}: {e}",
                        cache.root().display()
                    );
                }
                Ok(Arc::new(files))
            }
            Ok(Built::Failed(failure)) => Err(BuildError::Ce(Failed {
                command: shown.to_string(),
                message: capped_message(&failure.message, MESSAGE_BYTES),
                reason: failure.reason,
            })),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Err(BuildError::Interrupted),
            Err(e) => Err(BuildError::Judge(e.to_string())),
        }
    })
    .clone()
}

/// Builds (if its language needs it) and resolves a submission's sources.
fn finish(prepared: Prepared, builder: &Builder) -> Result<sandbox::Command, JudgeError> {
    let Prepared {
        sources,
        build,
        run_template,
        stem,
    } = prepared;
    let (files, places_src) = match &build {
        None => {
            // Run by its interpreter: the files copied into /box, the entry point named.
            let files = sources
                .files
                .iter()
                .map(|(path, bytes, executable)| BoxFile {
                    path: path.clone(),
                    contents: Arc::from(bytes.clone()),
                    executable: *executable,
                })
                .collect();
            (files, vec![format!("/box/{}", sources.entry)])
        }
        Some((spec, key, shown)) => match build_once(builder, spec, key, shown) {
            Ok(files) => (files.as_ref().clone(), Vec::new()),
            Err(BuildError::Ce(failed)) => {
                return Err(JudgeError::Build {
                    source_file: sources.shown.clone(),
                    command: failed.command,
                    message: failed.message,
                    reason: failed.reason,
                });
            }
            Err(BuildError::Interrupted) => {
                return Err(JudgeError::Interrupted(format!(
                    "while building {}",
                    sources.shown.display()
                )));
            }
            Err(BuildError::Judge(why)) => {
                return Err(JudgeError::sandbox(
                    format!("building {}", sources.shown.display()),
                    std::io::Error::other(why),
                ));
            }
        },
    };
    let places = Places {
        src: &places_src,
        out: format!("/box/{stem}"),
        dir: "/box/classes".to_string(),
        class: stem,
    };
    let (program, args, roots) = located(fill(&run_template, &places))?;
    Ok(sandbox::Command {
        program,
        args,
        files,
        toolchain_roots: roots,
        env: Vec::new(),
    })
}

/// Builds (if the language needs it) and resolves a source file, or a folder submission.
pub fn from_source(
    src: &Path,
    cwd: &Path,
    builder: &Builder,
) -> Result<sandbox::Command, JudgeError> {
    let path = cwd.join(src);
    let sources = if path.is_dir() {
        read_folder(&path, builder)?
    } else {
        let mut sources = read_single(&path)?;
        sources.shown = src.to_path_buf();
        sources
    };
    finish(prepare(sources, builder)?, builder)
}

/// The build a source file (or folder submission) takes, without doing it: the box's command,
/// sources and outputs (`None` for an interpreted language). For benchmarks and tools.
pub fn build_spec(src: &Path, builder: &Builder) -> Result<Option<Spec>, JudgeError> {
    let sources = if src.is_dir() {
        read_folder(src, builder)?
    } else {
        read_single(src)?
    };
    Ok(prepare(sources, builder)?.build.map(|(spec, _, _)| spec))
}

/// The submission the user typed after `--`: one source file (built, or run by its
/// interpreter), one folder (a submission of several files), else a command as typed,
/// resolved from the current directory.
pub fn from_words(words: &[String], builder: &Builder) -> Result<sandbox::Command, JudgeError> {
    let cwd = std::env::current_dir().map_err(|e| JudgeError::io(".", e))?;
    match words {
        [single] if is_source(Path::new(single)) && cwd.join(single).is_file() => {
            from_source(Path::new(single), &cwd, builder)
        }
        [single] if cwd.join(single).is_dir() => from_source(Path::new(single), &cwd, builder),
        _ => resolve(words, &cwd, builder),
    }
}

/// A submission of a folder (`judge strength`): a source file, a folder, or an executable.
pub fn from_path(path: &Path, builder: &Builder) -> Result<sandbox::Command, JudgeError> {
    let cwd = std::env::current_dir().map_err(|e| JudgeError::io(".", e))?;
    if is_source(path) && cwd.join(path).is_file() || cwd.join(path).is_dir() {
        from_source(path, &cwd, builder)
    } else {
        resolve(&[path.display().to_string()], &cwd, builder)
    }
}

/// [`from_path`] for every path, `jobs` builds at a time (each distinct build once), in
/// order.
pub fn build_all(
    paths: &[PathBuf],
    builder: &Builder,
    jobs: usize,
) -> Vec<Result<sandbox::Command, JudgeError>> {
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<Result<sandbox::Command, JudgeError>>>> =
        paths.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, paths.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = paths.get(i) else { break };
                    let result = if builder.cancel.is_cancelled() {
                        Err(JudgeError::Interrupted(
                            "before every build was done".to_string(),
                        ))
                    } else {
                        from_path(path, builder)
                    };
                    *results[i].lock().unwrap() = Some(result);
                }
            });
        }
    });
    results
        .into_iter()
        .map(|r| r.into_inner().unwrap().expect("every path was built"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_capped_at_a_character_boundary() {
        let message = "é".repeat(10);
        let capped = capped_message(message.as_bytes(), 5);
        assert!(capped.starts_with("éé\n… (16 more bytes)"), "{capped}");
        assert_eq!(capped_message(b"short\n\n", 100), "short");
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
