//! Program folders with `build`/`run` scripts: the package format's rule for validators and
//! generators ("Programs"; not for submissions, which the format builds by their language). If
//! the folder has `build`, it runs in a copy of the folder — in the build box, confined and
//! limited like a compiler, since the folder comes from a package nobody vouches for — and then `run`, which must exist and be executable, is the program, run with
//! the folder's files (as `build` left them) in `/box`, read-only (the run's working directory
//! is its own `/tmp`, as for every run: a script finds its files by `$(dirname "$0")`).
//!
//! The artefact is the whole folder after `build`, taken out of the build box like Java's
//! class folder (regular files and folders only, no link followed, within the artefact cap) and
//! cached like any build. The scripts may call the compilers and interpreters the judge builds
//! submissions with (the format promises `cc`, `c++` and `python3`; the judge's own exports call
//! `rustc`): their folders are shown read-only and put on the `PATH` of the build and of the run,
//! as a submission's build sees them.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use sandbox::build::{Output, Spec};
use sandbox::{BoxFile, SANDBOX_PATH};

use super::super::cache::{Key, sha256_hex};
use super::build::{Builder, build_once, built_files, identity};
use super::command::{Copies, configured_roots, locate};
use super::toolchains::{TOOLCHAINS, toolchain};
use crate::error::JudgeError;

/// The script that builds the program (optional).
pub const BUILD_SCRIPT: &str = "build";
/// The program, as the folder holds it or as `build` leaves it.
pub const RUN_SCRIPT: &str = "run";

/// Where the folder is in the build box: the build's working directory (`/box/src`).
const IN_BUILD_BOX: &str = "src";
/// Where the build's output is carried before it lands at the run's `/box` (a build output
/// needs a folder name of its own; the prefix is taken off again).
const CARRIED_AS: &str = "program";

/// Is `dir` a folder with a `build` or `run` script at its top? (Anything not a folder by those
/// names counts, links included: a link is refused when the folder is read, with a reason.)
pub fn is_build_run(dir: &Path) -> bool {
    [BUILD_SCRIPT, RUN_SCRIPT].iter().any(|name| {
        std::fs::symlink_metadata(dir.join(name)).is_ok_and(|m| !m.file_type().is_dir())
    })
}

/// What the scripts see of the machine: the `PATH` (the toolchains' folders, then the box's
/// usual one) and the host folders shown read-only for it.
struct ToolchainView {
    path: String,
    roots: Vec<PathBuf>,
    /// The toolchains' programs, for the cache key.
    programs: Vec<PathBuf>,
}

/// The programs the judge builds and runs submissions with (as overridden from the
/// environment), plus those the format promises a build script: looked up once per judge.
fn toolchain_view() -> &'static ToolchainView {
    static VIEW: OnceLock<ToolchainView> = OnceLock::new();
    VIEW.get_or_init(|| {
        let mut names: Vec<String> = ["cc", "c++", "python3"].map(String::from).to_vec();
        for tool in &TOOLCHAINS {
            let Some((build, run)) = toolchain(tool.ext) else {
                continue;
            };
            for command in [build, run] {
                if let Some(first) = command.split_whitespace().next()
                    && !first.starts_with('{')
                    && !names.iter().any(|n| n == first)
                {
                    names.push(first.to_string());
                }
            }
        }
        let usual: Vec<&str> = SANDBOX_PATH.split(':').collect();
        let mut extra: Vec<String> = Vec::new();
        let mut roots = configured_roots();
        let mut programs = Vec::new();
        for name in names {
            // A toolchain this machine has not installed is simply not there for the scripts.
            let Ok((program, found_roots)) = locate(&name) else {
                continue;
            };
            if let Some(dir) = program.parent().and_then(|d| d.to_str())
                && !usual.contains(&dir)
                && !extra.iter().any(|e| e == dir)
                // A folder name with a `:` cannot stand in a PATH.
                && !dir.contains(':')
            {
                extra.push(dir.to_string());
            }
            for root in found_roots {
                if !roots.contains(&root) {
                    roots.push(root);
                }
            }
            programs.push(program);
        }
        extra.extend(usual.iter().map(|d| d.to_string()));
        ToolchainView {
            path: extra.join(":"),
            roots,
            programs,
        }
    })
}

/// `program` run with the toolchains' `PATH` (the sandbox sets its usual one): through
/// `/bin/sh`, which sets it and then `exec`s the program with the arguments after it.
fn with_path(view: &ToolchainView, program: &str) -> (PathBuf, Vec<String>) {
    if view.path == SANDBOX_PATH {
        return (PathBuf::from(program), Vec::new());
    }
    let args = [
        "-c",
        "PATH=$1; export PATH; shift; exec \"$@\"",
        "sh",
        &view.path,
        program,
    ];
    (
        PathBuf::from("/bin/sh"),
        args.iter().map(|a| a.to_string()).collect(),
    )
}

/// A failure of the folder itself (a script missing or not executable), as a build failure:
/// a jury program's is a jury error naming it, a submission's a compile error.
fn refused(shown: &Path, command: &str, reason: String) -> JudgeError {
    JudgeError::Build {
        source_file: shown.to_path_buf(),
        command: command.to_string(),
        message: String::new(),
        reason: Some(reason),
    }
}

/// Builds (with its `build` script, in the build box, once per distinct folder and
/// toolchain) and resolves the build/run folder `dir`, named `shown` in messages.
pub(super) fn from_build_run(
    dir: &Path,
    shown: &Path,
    builder: &Builder,
) -> Result<sandbox::Command, JudgeError> {
    let mut copies = Copies::default();
    copies.folder(dir, "", builder)?;
    // Everything in the folder is carried to the run: it must fit what a build may leave.
    let cap = builder.limits.artefact_bytes;
    if copies.bytes > cap {
        return Err(refused(
            shown,
            "not built",
            format!(
                "the program folder holds more than {} MiB, the most a built program may be",
                cap >> 20
            ),
        ));
    }
    let view = toolchain_view();
    let script = |name: &str| copies.files.iter().find(|f| f.path == name);
    let files: Vec<BoxFile> = match script(BUILD_SCRIPT) {
        None => copies.files.clone(),
        Some(build) if !build.executable => {
            return Err(refused(
                shown,
                "not built",
                format!(
                    "`{BUILD_SCRIPT}` is not executable: the package format runs it as a program \
                     (chmod +x {BUILD_SCRIPT})"
                ),
            ));
        }
        Some(_) => {
            let (program, args) = with_path(view, &format!("/box/{IN_BUILD_BOX}/{BUILD_SCRIPT}"));
            let in_box: Vec<BoxFile> = copies
                .files
                .iter()
                .map(|f| BoxFile {
                    path: format!("{IN_BUILD_BOX}/{}", f.path),
                    contents: f.contents.clone(),
                    executable: f.executable,
                })
                .collect();
            let outputs = vec![Output {
                from: IN_BUILD_BOX.to_string(),
                to: CARRIED_AS.to_string(),
                folder: true,
            }];
            // Everything the artefact depends on: the folder, the command, and every toolchain
            // the script may have called.
            let mut material = format!(
                "build/run folder\ncommand {}\nPATH {}\nroots {:?}\noutputs {:?}\n",
                program.display(),
                view.path,
                view.roots,
                outputs
                    .iter()
                    .map(|o| (&o.from, &o.to, o.folder))
                    .collect::<Vec<_>>(),
            );
            for tool in &view.programs {
                material.push_str(&format!("toolchain {}\n", identity(builder, tool)));
            }
            for file in &in_box {
                material.push_str(&format!(
                    "source {} {} {} {}\n",
                    file.executable,
                    file.contents.len(),
                    sha256_hex(&file.contents),
                    file.path
                ));
            }
            let spec = Spec {
                command: sandbox::Command {
                    program,
                    args,
                    files: in_box,
                    toolchain_roots: view.roots.clone(),
                    env: Vec::new(),
                },
                dirs: Vec::new(),
                outputs,
                limits: builder.limits,
                hidden: builder.hidden.clone(),
            };
            let shown_command = format!("./{BUILD_SCRIPT}");
            let outcome = build_once(builder, &spec, &Key::new(&material), &shown_command, shown);
            let carried = built_files(outcome, shown)?;
            let prefix = format!("{CARRIED_AS}/");
            carried
                .iter()
                .map(|f| BoxFile {
                    path: f.path.strip_prefix(&prefix).unwrap_or(&f.path).to_string(),
                    contents: f.contents.clone(),
                    executable: f.executable,
                })
                .collect()
        }
    };
    let (after, command) = if script(BUILD_SCRIPT).is_some() {
        (
            format!(" after `{BUILD_SCRIPT}`"),
            format!("./{BUILD_SCRIPT}"),
        )
    } else {
        (String::new(), "not built".to_string())
    };
    match files.iter().find(|f| f.path == RUN_SCRIPT) {
        None => {
            return Err(refused(
                shown,
                &command,
                format!("the folder has no `{RUN_SCRIPT}`{after}: the program to run"),
            ));
        }
        Some(run) if !run.executable => {
            return Err(refused(
                shown,
                &command,
                format!(
                    "`{RUN_SCRIPT}` is not executable{after}: the package format runs it as a \
                     program (chmod +x {RUN_SCRIPT})"
                ),
            ));
        }
        Some(_) => {}
    }
    let (program, args) = with_path(view, &format!("/box/{RUN_SCRIPT}"));
    Ok(sandbox::Command {
        program,
        args,
        files,
        toolchain_roots: view.roots.clone(),
        env: Vec::new(),
    })
}
