//! Building a submission in a build box: the [`Builder`] (limits, hidden folders, the cache
//! and what this judge built already), the cache key of a build, Go's warm standard library,
//! and the compile error a failed build is.

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use sandbox::BoxFile;
use sandbox::build::{BuildLimits, Built, Output, Spec};

use super::super::cache::{self, Cache, Key, sha256_hex};
use super::command::locate;
use super::sources::{Places, Sources, fill};
use super::toolchains::{GO_CACHE, SANITIZE_FLAGS, SANITIZED, TOOLCHAINS, toolchain};
use crate::cancel::Cancel;
use crate::error::JudgeError;

/// The start of a compiler's message shown in a CE.
pub const MESSAGE_BYTES: usize = 8 << 10;

/// A build that did not give a program: what a CE shows.
#[derive(Clone, Debug)]
pub(super) struct Failed {
    command: String,
    message: String,
    reason: Option<String>,
}

pub(super) type Outcome = Result<Arc<Vec<BoxFile>>, BuildError>;

/// The most bytes of built programs this judge keeps in memory for reuse (identical sources
/// submitted twice): beyond it the least recently built go, and come back from the build
/// cache (or are built again when the cache is off). A submission's program is otherwise held
/// only while it is judged.
const HELD_BYTES: u64 = 256 << 20;

/// How a key's first build in this judge ended (its program, if any, is in `Builder::held`).
type FirstBuild = OnceLock<Result<(), BuildError>>;

/// Built programs kept for reuse, least recently built first.
#[derive(Default)]
struct Held {
    order: std::collections::VecDeque<(String, u64)>,
    files: HashMap<String, Arc<Vec<BoxFile>>>,
    bytes: u64,
}

impl Held {
    fn keep(&mut self, hash: &str, files: &Arc<Vec<BoxFile>>) {
        if self.files.contains_key(hash) {
            return;
        }
        let size: u64 = files.iter().map(|f| f.contents.len() as u64).sum();
        self.order.push_back((hash.to_string(), size));
        self.files.insert(hash.to_string(), files.clone());
        self.bytes += size;
        while self.bytes > HELD_BYTES {
            let Some((old, size)) = self.order.pop_front() else {
                break;
            };
            self.files.remove(&old);
            self.bytes -= size;
        }
    }
}

#[derive(Clone, Debug)]
pub(super) enum BuildError {
    Ce(Failed),
    Interrupted,
    Judge(String),
}

/// Builds submissions: the build limits, the folders the build must not see, the cache and
/// what this judge built already.
pub struct Builder {
    pub limits: BuildLimits,
    pub(super) hidden: Vec<PathBuf>,
    /// Opened on the first build.
    cache: OnceLock<Option<Cache>>,
    /// Each key's first build in this judge (its programs, if any, are in `held`).
    built: Mutex<HashMap<String, Arc<FirstBuild>>>,
    held: Mutex<Held>,
    identities: Mutex<HashMap<PathBuf, String>>,
    /// Go's build cache warmed with the standard library, per Go toolchain (its identity).
    go_caches: Mutex<HashMap<String, Option<Arc<Vec<BoxFile>>>>>,
    /// Flags added to the build command of a language, right after the compiler: (extension,
    /// flags). Part of the build command, so of the cache key.
    pub extra_flags: Vec<(String, Vec<String>)>,
    pub(super) cancel: Cancel,
    /// Say on standard error how each source is built (`build: …`).
    pub verbose: bool,
    /// `--sanitize`: C and C++ get [`SANITIZE_FLAGS`]; a source in another language is
    /// built as usual, with a note.
    sanitizing: bool,
    /// Folders with `build`/`run` scripts are built and run by them
    /// ([`super::build_run`]): for a package's own programs (validators, generators), which
    /// the format lets be such folders. Never for submissions, which the format does not (and
    /// whose folders run only code the judge stores and shows).
    pub(super) program_folders: bool,
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
            held: Mutex::new(Held::default()),
            identities: Mutex::new(HashMap::new()),
            go_caches: Mutex::new(HashMap::new()),
            extra_flags: Vec::new(),
            cancel: cancel.clone(),
            verbose: true,
            sanitizing: false,
            program_folders: false,
        }
    }

    /// A builder for a problem package's own programs (validators, generators), with this one's
    /// build limits and cache: it hides only `hidden` (the package's test data), not the jury
    /// folders a submission must not see, since those hold the very programs it builds. Never
    /// sanitized: `--sanitize` is about the submissions. A folder with `build`/`run` scripts is
    /// built and run by them, as the package format says of its programs.
    pub fn for_jury(&self, hidden: &[PathBuf]) -> Builder {
        let mut jury = Builder::new(None, hidden, &self.cancel);
        jury.limits = self.limits;
        jury.verbose = self.verbose;
        jury.program_folders = true;
        jury
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
                        crate::say!(
                            "judge: the build cache {} is unusable ({e}): building without it",
                            crate::escape::path(&dir)
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

    pub(super) fn is_hidden(&self, path: &Path) -> bool {
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
pub(super) fn identity(builder: &Builder, program: &Path) -> String {
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
pub(super) struct Prepared {
    sources: Sources,
    /// `None` for an interpreted language.
    pub(super) build: Option<(Spec, Key, String)>,
    run_template: String,
    stem: String,
}

pub(super) fn prepare(sources: Sources, builder: &Builder) -> Result<Prepared, JudgeError> {
    let (build, run) = toolchain(&sources.ext).ok_or_else(|| {
        JudgeError::Usage(format!(
            "{}: no toolchain for .{} files",
            crate::escape::path(&sources.shown),
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
        crate::say!(
            "--sanitize: {} is not C or C++: built and run as usual (the sanitizer options are set for its runs)",
            crate::escape::path(&sources.shown)
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
            // Not a contestant's program: the judge's own warm cache, as big as the box lets it.
            limits: BuildLimits {
                artefact_bytes: builder.limits.box_bytes,
                ..builder.limits
            },
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

/// Builds (or takes from the cache, or from this judge's earlier build) `spec`, the build of
/// the submission `source` (named in the `build:` line: with many submissions, the command
/// alone, the same for each, does not say whose build it is): each key is built (and said on
/// standard error) once per judge; a program let go from memory ([`HELD_BYTES`]) comes back
/// from the build cache, else is built again.
pub(super) fn build_once(
    builder: &Builder,
    spec: &Spec,
    key: &Key,
    shown: &str,
    source: &Path,
) -> Outcome {
    // As a shell comment after the command, so the line still starts with the command. The
    // name is the user's but may hold control characters: shown as `?`.
    let whose: String = source
        .display()
        .to_string()
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    let cell = builder
        .built
        .lock()
        .unwrap()
        .entry(key.hash.clone())
        .or_default()
        .clone();
    let mut fresh = None;
    let first = cell.get_or_init(|| {
        let outcome = build_or_fetch(builder, spec, key, shown, &whose, builder.verbose);
        match outcome {
            Ok(files) => {
                builder.held.lock().unwrap().keep(&key.hash, &files);
                fresh = Some(files);
                Ok(())
            }
            Err(e) => Err(e),
        }
    });
    if let Some(files) = fresh {
        return Ok(files);
    }
    first.clone()?;
    if let Some(files) = builder.held.lock().unwrap().files.get(&key.hash) {
        return Ok(files.clone());
    }
    // Built before in this judge and let go: from the cache (or built again), not said again.
    let files = build_or_fetch(builder, spec, key, shown, &whose, false)?;
    builder.held.lock().unwrap().keep(&key.hash, &files);
    Ok(files)
}

/// The artefact of `spec` from the build cache, else built (and put in the cache); `whose`
/// names the submission in the `build:` line, said only if `say`.
fn build_or_fetch(
    builder: &Builder,
    spec: &Spec,
    key: &Key,
    shown: &str,
    whose: &str,
    say: bool,
) -> Outcome {
    if let Some(files) = builder.cache().and_then(|c| c.get(key)) {
        if say {
            crate::say!("build: {shown}  # {whose} (cached)");
        }
        return Ok(Arc::new(files));
    }
    if say {
        crate::say!("build: {shown}  # {whose}");
    }
    match sandbox::build::build(spec, builder.cancel.flag()) {
        Ok(Built::Artefact(files)) => {
            if let Some(cache) = builder.cache()
                && let Err(e) = cache.put(key, &files)
            {
                crate::say!(
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
}

/// The program a build gave, or what stopped it: the source's compile error, an
/// interruption, or the judge's own failure (`source` names whose build it was).
pub(super) fn built_files(
    outcome: Outcome,
    source: &Path,
) -> Result<Arc<Vec<BoxFile>>, JudgeError> {
    match outcome {
        Ok(files) => Ok(files),
        Err(BuildError::Ce(failed)) => Err(JudgeError::Build {
            source_file: source.to_path_buf(),
            command: failed.command,
            message: failed.message,
            reason: failed.reason,
        }),
        Err(BuildError::Interrupted) => Err(JudgeError::Interrupted(format!(
            "while building {}",
            crate::escape::path(source)
        ))),
        Err(BuildError::Judge(why)) => Err(JudgeError::sandbox(
            format!("building {}", crate::escape::path(source)),
            std::io::Error::other(why),
        )),
    }
}

/// Builds (if its language needs it) and resolves a submission's sources.
pub(super) fn finish(
    prepared: Prepared,
    builder: &Builder,
) -> Result<sandbox::Command, JudgeError> {
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
        Some((spec, key, shown)) => {
            let outcome = build_once(builder, spec, key, shown, &sources.shown);
            (
                built_files(outcome, &sources.shown)?.as_ref().clone(),
                Vec::new(),
            )
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_programs_kept_for_reuse_stay_under_their_cap_newest_kept() {
        // One allocation of 100 MiB shared by every "program": the sizes count, not memory.
        let contents: Arc<[u8]> = Arc::from(vec![0u8; 100 << 20]);
        let program = || {
            Arc::new(vec![BoxFile {
                path: "sol".to_string(),
                contents: contents.clone(),
                executable: true,
            }])
        };
        let mut held = Held::default();
        for k in 0..10 {
            held.keep(&format!("key{k}"), &program());
            assert!(held.bytes <= HELD_BYTES, "{} bytes held", held.bytes);
        }
        assert_eq!(held.files.len(), 2);
        assert!(held.files.contains_key("key9") && held.files.contains_key("key8"));
    }

    #[test]
    fn a_message_is_capped_at_a_character_boundary() {
        let message = "é".repeat(10);
        let capped = capped_message(message.as_bytes(), 5);
        assert!(capped.starts_with("éé\n… (16 more bytes)"), "{capped}");
        assert_eq!(capped_message(b"short\n\n", 100), "short");
    }
}
