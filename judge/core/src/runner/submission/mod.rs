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
//! - For a package's own programs ([`Builder::for_jury`]), a folder with a `build` or `run`
//!   script at its top is built and run by them, as the package format says of validators and
//!   generators ([`build_run`]): `build` in the build box, then `run` is the program.
//! - A problem package's programs get what the format gives them ([`package_sources`]): its
//!   `{{constants}}` substituted, `submissions.yaml`'s entry point, links the package may
//!   follow; in the copy the box gets, never in the package.
//! - Each distinct build is done once: a cache keyed by the sources' bytes, the language, the
//!   full build command and the toolchain's identity ([`cache`](super::cache)), and builds of
//!   several submissions run in parallel ([`build_all`]).

mod build;
mod build_run;
mod command;
mod package_sources;
mod sources;
mod toolchains;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use sandbox::build::Spec;

pub use build::{Builder, MESSAGE_BYTES, capped_message};
pub use build_run::{BUILD_SCRIPT, RUN_SCRIPT, is_build_run};
pub use command::resolve;
pub use package_sources::{PackageSources, register as register_package_sources};
pub use toolchains::{SANITIZE_FLAGS, SANITIZED, TOOLCHAINS, Toolchain, is_source, toolchain};

use crate::error::JudgeError;
use build::{finish, prepare};
use sources::{read_folder, read_single, substitute_constants};

/// A submission that does not build: its verdict is CE (a finding, exit 1, in every
/// command), never a failure of the judge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    pub source_file: PathBuf,
    /// The build command as the box ran it (box paths).
    pub command: String,
    /// The start of the compiler's output as written (escaped by whoever shows it).
    pub message: String,
    /// A build limit that stopped it.
    pub reason: Option<String>,
}

impl CompileError {
    /// What its CE rows carry as standard error: the judge's reason (a build limit) first,
    /// then the compiler's words.
    pub fn output(&self) -> String {
        match &self.reason {
            Some(reason) => format!("{reason}\n{}", self.message),
            None => self.message.clone(),
        }
    }

    /// The build command and [`CompileError::output`], as a batch of submissions keeps it.
    pub fn detail(&self) -> String {
        format!("({}):\n{}", self.command, self.output())
    }

    /// The build command and one line: the build limit that stopped it, else the compiler's
    /// first line.
    pub fn summary(&self) -> String {
        let first = self
            .reason
            .clone()
            .or_else(|| {
                self.message
                    .lines()
                    .find(|l| !l.trim().is_empty())
                    .map(String::from)
            })
            .unwrap_or_default();
        format!("({}): {first}", self.command)
    }
}

/// A build's result as the judge sees it: the program to run, or the submission's compile
/// error (its verdict); anything else is the judge's own failure.
pub fn compiled(
    built: Result<sandbox::Command, JudgeError>,
) -> Result<Result<sandbox::Command, CompileError>, JudgeError> {
    match built {
        Ok(command) => Ok(Ok(command)),
        Err(JudgeError::Build {
            source_file,
            command,
            message,
            reason,
        }) => Ok(Err(CompileError {
            source_file,
            command,
            message,
            reason,
        })),
        Err(other) => Err(other),
    }
}

/// Builds (if the language needs it) and resolves a source file, or a folder submission.
pub fn from_source(
    src: &Path,
    cwd: &Path,
    builder: &Builder,
) -> Result<sandbox::Command, JudgeError> {
    let path = cwd.join(src);
    if builder.program_folders && path.is_dir() && is_build_run(&path) {
        return build_run::from_build_run(&path, src, builder);
    }
    let mut sources = if path.is_dir() {
        read_folder(&path, builder)?
    } else {
        let mut sources = read_single(&path)?;
        sources.shown = src.to_path_buf();
        sources
    };
    substitute_constants(&mut sources, &path);
    finish(prepare(sources, builder)?, builder)
}

/// The build a source file (or folder submission) takes, without doing it: the box's command,
/// sources and outputs (`None` for an interpreted language). For benchmarks and tools.
pub fn build_spec(src: &Path, builder: &Builder) -> Result<Option<Spec>, JudgeError> {
    let mut sources = if src.is_dir() {
        read_folder(src, builder)?
    } else {
        read_single(src)?
    };
    substitute_constants(&mut sources, src);
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

/// Submissions built ahead of judging, per job (`judge run --submissions`, `judge strength`):
/// enough to keep the builds parallel, few enough that the programs held at once stay a
/// handful (each at most the build's artefact cap).
pub const WINDOW_PER_JOB: usize = 2;

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
    use super::{CompileError, compiled};
    use crate::error::JudgeError;

    #[test]
    fn a_compile_error_reads_the_same_wherever_it_is_shown() {
        let failed = |reason: Option<&str>| CompileError {
            source_file: "sol.c".into(),
            command: "gcc sol.c".to_string(),
            message: "\nsol.c:1: error: expected ';'\nmore".to_string(),
            reason: reason.map(String::from),
        };
        let plain = failed(None);
        assert_eq!(plain.output(), "\nsol.c:1: error: expected ';'\nmore");
        assert_eq!(
            plain.detail(),
            "(gcc sol.c):\n\nsol.c:1: error: expected ';'\nmore"
        );
        assert_eq!(plain.summary(), "(gcc sol.c): sol.c:1: error: expected ';'");
        let stopped = failed(Some("the build ran out of time"));
        assert!(stopped.output().starts_with("the build ran out of time\n"));
        assert_eq!(stopped.summary(), "(gcc sol.c): the build ran out of time");
        // Only a build's failure is a compile error; the judge's own stays an error.
        let build = JudgeError::Build {
            source_file: "sol.c".into(),
            command: "gcc sol.c".to_string(),
            message: String::new(),
            reason: None,
        };
        assert!(matches!(compiled(Err(build)), Ok(Err(_))));
        let usage = JudgeError::Usage("no such file".to_string());
        assert!(matches!(compiled(Err(usage)), Err(JudgeError::Usage(_))));
    }
}
