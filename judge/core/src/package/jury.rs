//! The jury's programs of a package: its input validators and its custom output validator,
//! each built once (in the build box, through the submissions' build path and cache) and run
//! in jury boxes ([`sandbox::JuryBox`]): confined like a submission, with the test's files
//! under [`sandbox::CASE_DIR`] and a feedback folder. A package is hostile like a submission:
//! its programs never see a submission's files, nor the judge's.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use package_format::{Program, ProgramKind, TestCase};
use rayon::prelude::*;
use sandbox::{Exit, JuryBox, Limits, Options, Ran, RunIo, Sandbox, Stdin, Stdout};

use super::PackageProblem;
use crate::error::{JudgeError, JuryError};
use crate::runner::Loaded;
use crate::runner::submission::{Builder, build_all};
use crate::text::shorten;

/// Exit code of a validator that accepts (input validators: a valid input; output
/// validators: a right output).
pub const ACCEPT: i32 = 42;
/// Exit code of a validator that rejects.
pub const REJECT: i32 = 43;

/// A jury program, built: the command to run and how it is named in messages (its path below
/// the package folder).
pub struct JuryProgram {
    /// `input_validators/validate.py`.
    pub shown: String,
    /// Its name as the package's arguments refer to it (`validate.py`).
    pub name: String,
    command: sandbox::Command,
    slots: usize,
    /// One sandbox per distinct argument list (a sandbox's command is fixed; a test group
    /// may give other arguments), each with a pool of free slots.
    boxes: Mutex<HashMap<Vec<String>, Arc<Pooled>>>,
}

/// A sandbox and which of its slots are free.
struct Pooled {
    sandbox: Sandbox,
    free: Mutex<Vec<usize>>,
    freed: Condvar,
}

impl JuryProgram {
    /// Runs the program once with `args` after its own, `stdin` as its standard input, the
    /// per-run `files` and (with `feedback`) a feedback folder, waiting for a free slot.
    pub fn run(
        &self,
        args: &[String],
        stdin: &[u8],
        files: &[(&str, &[u8])],
        feedback: bool,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<Ran, JudgeError> {
        self.with_slot(args, |sandbox, slot| {
            sandbox.run_io(
                slot,
                RunIo {
                    stdin: Stdin::Bytes(stdin),
                    stdout: Stdout::Capture,
                    files,
                    feedback,
                    limits,
                    stop,
                },
            )
        })?
        .map_err(|e| JudgeError::sandbox(format!("running {}", self.shown), e))
    }

    /// Calls `run` with the jury box of `args` (the program's own arguments after its
    /// command) and one of its slots, free until `run` returns; waits for a free slot.
    pub fn with_slot<T>(
        &self,
        args: &[String],
        run: impl FnOnce(&Sandbox, usize) -> T,
    ) -> Result<T, JudgeError> {
        let pooled = self.pooled(args)?;
        let slot = {
            let mut free = pooled.free.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(slot) = free.pop() {
                    break slot;
                }
                free = pooled.freed.wait(free).unwrap_or_else(|e| e.into_inner());
            }
        };
        let result = run(&pooled.sandbox, slot);
        pooled
            .free
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(slot);
        pooled.freed.notify_one();
        Ok(result)
    }

    fn pooled(&self, args: &[String]) -> Result<Arc<Pooled>, JudgeError> {
        let mut boxes = self.boxes.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(pooled) = boxes.get(args) {
            return Ok(pooled.clone());
        }
        let mut command = self.command.clone();
        command.args.extend(args.iter().cloned());
        let options = Options {
            jury: Some(JuryBox::default()),
            fork_server: false,
            ..Options::default()
        };
        let sandbox = Sandbox::with(command, self.slots, &options).map_err(|e| {
            JudgeError::sandbox(format!("setting up a jury box for {}", self.shown), e)
        })?;
        let pooled = Arc::new(Pooled {
            free: Mutex::new((0..sandbox.slots()).rev().collect()),
            sandbox,
            freed: Condvar::new(),
        });
        boxes.insert(args.to_vec(), pooled.clone());
        Ok(pooled)
    }
}

/// The package's jury programs, built, and what could not be used.
pub struct Jury {
    pub input_validators: Vec<JuryProgram>,
    pub output_validator: Option<JuryProgram>,
    /// Programs that are not run, each with why (a `.viva` script, an unknown kind, no
    /// `pyctd`): a warning; the submissions are judged anyway.
    pub warnings: Vec<String>,
    /// The limits of a jury program's run (`limits.validation_*`).
    pub limits: Limits,
    problem: String,
    /// Where converted checktestdata scripts are written; removed with the jury.
    scratch: Option<PathBuf>,
}

impl Drop for Jury {
    fn drop(&mut self) {
        if let Some(dir) = &self.scratch {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// What input validation says of one input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputVerdict {
    Valid,
    /// Rejected (exit 43) by `validator`, with its words.
    Invalid {
        validator: String,
        message: String,
    },
}

/// The `pyctd` that converts checktestdata scripts: `BOARDJUDGE_PYCTD`, else `pyctd` on `PATH`.
pub fn pyctd() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("BOARDJUDGE_PYCTD") {
        return Some(PathBuf::from(path));
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join("pyctd"))
        .find(|p| p.is_file())
}

/// Converts the checktestdata script `script` to a standalone Python validator at `out` with
/// `pyctd -c` (at most 60 s); `Err` says why not.
fn convert_ctd(pyctd: &Path, script: &Path, out: &Path) -> Result<(), String> {
    let mut child = std::process::Command::new(pyctd)
        .arg("-c")
        .arg(out)
        .arg(script)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", pyctd.display()))?;
    let started = std::time::Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() && out.is_file() => return Ok(()),
            Ok(Some(status)) => {
                let mut stderr = String::new();
                if let Some(mut pipe) = child.stderr.take() {
                    use std::io::Read;
                    let _ = (&mut pipe).take(4096).read_to_string(&mut stderr);
                }
                return Err(format!(
                    "pyctd -c failed ({status}): {}",
                    shorten(stderr.trim(), 300)
                ));
            }
            Ok(None) if started.elapsed() > Duration::from_secs(60) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err("pyctd -c ran for more than 60 s".to_string());
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// A fresh folder for converted scripts.
fn scratch_dir() -> Result<PathBuf, JudgeError> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "boardjudge-jury-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).map_err(|e| JudgeError::io(&dir, e))?;
    Ok(dir)
}

fn jury_error(problem: &str, why: String) -> JudgeError {
    JuryError::Problem {
        problem: problem.to_string(),
        why,
    }
    .into()
}

impl Jury {
    /// Builds the package's input validators and custom output validator (`jobs` builds at a
    /// time, each once, from the build cache when built before). A jury program that does not
    /// build is a jury error naming it; a kind the judge cannot run is a warning (an input
    /// validator) or a jury error (the output validator: nothing could judge). `builder` is a
    /// jury builder ([`Builder::for_jury`]), which builds `build`/`run` folders by their scripts.
    pub fn prepare(
        problem: &PackageProblem,
        builder: &Builder,
        jobs: usize,
    ) -> Result<Jury, JudgeError> {
        let package = &problem.package;
        let limits_of = &package.metadata.limits;
        let mut limits = Limits::new(
            Duration::from_secs(limits_of.validation_time_s.max(1)),
            limits_of.validation_memory_mib.max(16),
        );
        limits.output_bytes =
            usize::try_from(limits_of.validation_output_mib.saturating_mul(1 << 20))
                .unwrap_or(usize::MAX);
        let mut jury = Jury {
            input_validators: Vec::new(),
            output_validator: None,
            warnings: Vec::new(),
            limits,
            problem: problem.name().to_string(),
            scratch: None,
        };
        // What to build: (program, path of the source to build).
        let mut to_build: Vec<(&Program, PathBuf, bool)> = Vec::new();
        for program in &package.input_validators {
            let shown = program.relative.display().to_string();
            match &program.kind {
                // A `build`/`run` folder is built by its `build` script in the build box (the
                // build path knows the folder by its scripts).
                ProgramKind::Source { .. } | ProgramKind::BuildRun { .. } => {
                    to_build.push((program, program.path.clone(), false))
                }
                ProgramKind::Checktestdata => {
                    let Some(pyctd) = pyctd() else {
                        jury.warnings.push(format!(
                            "{shown}: not run: checktestdata needs pyctd (pip install \
                             checktestdata; or set BOARDJUDGE_PYCTD)"
                        ));
                        continue;
                    };
                    if jury.scratch.is_none() {
                        jury.scratch = Some(scratch_dir()?);
                    }
                    let stem = program
                        .path
                        .file_stem()
                        .map_or("ctd".into(), |s| s.to_string_lossy().into_owned());
                    let out = jury
                        .scratch
                        .as_ref()
                        .expect("made above")
                        .join(format!("{}_{stem}.py", to_build.len()));
                    let script =
                        super::with_constants(package, &program.path, &out.with_extension("ctd"))?;
                    convert_ctd(&pyctd, &script, &out)
                        .map_err(|why| jury_error(&jury.problem, format!("{shown}: {why}")))?;
                    to_build.push((program, out, false));
                }
                ProgramKind::Viva => jury.warnings.push(format!(
                    "{shown}: not run: VIVA input validators are not supported; the data is \
                     judged unchecked by it"
                )),
                ProgramKind::Unknown { reason } => {
                    jury.warnings.push(format!("{shown}: not run: {reason}"))
                }
            }
        }
        if let Some(program) = &package.output_validator {
            let shown = program.relative.display().to_string();
            match &program.kind {
                ProgramKind::Source { .. } | ProgramKind::BuildRun { .. } => {
                    to_build.push((program, program.path.clone(), true))
                }
                other => {
                    return Err(jury_error(
                        &jury.problem,
                        format!("{shown}: cannot be run as an output validator ({other:?})"),
                    ));
                }
            }
        }
        let paths: Vec<PathBuf> = to_build.iter().map(|(_, p, _)| p.clone()).collect();
        let built = build_all(&paths, builder, jobs);
        for ((program, _, is_output), built) in to_build.into_iter().zip(built) {
            let shown = program.relative.display().to_string();
            let command = match built {
                Ok(command) => command,
                Err(JudgeError::Build {
                    command,
                    message,
                    reason,
                    ..
                }) => {
                    // A build/run folder refused before or after its build (no `run`) has a
                    // reason and no build output.
                    let output = match message.trim() {
                        "" => String::new(),
                        text => format!(":\n{}", shorten(text, 2000)),
                    };
                    return Err(jury_error(
                        &jury.problem,
                        format!(
                            "{shown}: the jury's program does not build ({command}){}{output}",
                            reason.map(|r| format!(": {r}")).unwrap_or_default(),
                        ),
                    ));
                }
                Err(other) => return Err(other),
            };
            let program = JuryProgram {
                shown,
                name: program.name.clone(),
                command,
                slots: jobs.max(1),
                boxes: Mutex::new(HashMap::new()),
            };
            if is_output {
                jury.output_validator = Some(program);
            } else {
                jury.input_validators.push(program);
            }
        }
        Ok(jury)
    }

    /// Runs every input validator on `input` (with the arguments `case` gives each, none
    /// without a case). A validator that neither accepts nor rejects (another exit code, a
    /// crash, its limits) is a jury error naming it, the input and its words.
    pub fn check_input(
        &self,
        input: &[u8],
        shown: &str,
        case: Option<&TestCase>,
        stop: &AtomicBool,
    ) -> Result<InputVerdict, JudgeError> {
        for validator in &self.input_validators {
            let args = case.map_or(&[][..], |c| {
                c.input_validator_args.for_validator(&validator.name)
            });
            let ran = validator.run(args, input, &[], false, &self.limits, stop)?;
            let f = &ran.finished;
            let words = validator_words(f);
            match f.exit {
                Exit::Code(ACCEPT) if !f.wall_exceeded && !f.cpu_exceeded => {}
                Exit::Code(REJECT) => {
                    return Ok(InputVerdict::Invalid {
                        validator: validator.shown.clone(),
                        message: words,
                    });
                }
                _ if f.interrupted => {
                    return Err(JudgeError::Interrupted(
                        "while validating the inputs".to_string(),
                    ));
                }
                _ => {
                    return Err(jury_error(
                        &self.problem,
                        format!(
                            "{}: input validator {} {} (42 accepts, 43 rejects){}",
                            shown,
                            validator.shown,
                            ended(f),
                            if words.is_empty() {
                                String::new()
                            } else {
                                format!(": {words}")
                            }
                        ),
                    ));
                }
            }
        }
        Ok(InputVerdict::Valid)
    }

    /// Checks every test's input with every input validator before any submission runs, in
    /// parallel; the first inputs rejected (at most 10 named) are a jury error.
    pub fn validate_inputs(
        &self,
        tests: &[Loaded],
        cases: &[Option<&TestCase>],
        stop: &AtomicBool,
    ) -> Result<(), JudgeError> {
        if self.input_validators.is_empty() {
            return Ok(());
        }
        let results: Vec<Result<InputVerdict, JudgeError>> = tests
            .par_iter()
            .enumerate()
            .map(|(i, test)| {
                self.check_input(
                    &test.input,
                    &test.test.input.display().to_string(),
                    cases.get(i).copied().flatten(),
                    stop,
                )
            })
            .collect();
        let mut rejected = Vec::new();
        for (test, result) in tests.iter().zip(results) {
            match result? {
                InputVerdict::Valid => {}
                InputVerdict::Invalid { validator, message } => rejected.push(format!(
                    "{}: rejected by {validator}{}",
                    test.test.input.display(),
                    if message.is_empty() {
                        String::new()
                    } else {
                        format!(": {message}")
                    }
                )),
            }
        }
        if rejected.is_empty() {
            return Ok(());
        }
        let more = rejected.len().saturating_sub(10);
        rejected.truncate(10);
        if more > 0 {
            rejected.push(format!("… and {more} more"));
        }
        Err(jury_error(
            &self.problem,
            format!(
                "the package's own test data fails its input validators:\n  {}",
                rejected.join("\n  ")
            ),
        ))
    }
}

/// How a jury program's run ended, in words.
pub fn ended(f: &sandbox::Finished) -> String {
    if f.cpu_exceeded || f.wall_exceeded {
        "ran out of time".to_string()
    } else if f.memory_exceeded {
        "ran out of memory".to_string()
    } else if f.output_exceeded {
        "wrote too much".to_string()
    } else {
        match f.exit {
            Exit::Code(c) => format!("exited with {c}"),
            Exit::Signal(s) => format!("was killed by {}", crate::verdict::signal_name(s)),
        }
    }
}

/// What a validator said: the last lines of its standard error, else of its standard output,
/// in one line, shortened (as written: every writer escapes it).
pub fn validator_words(f: &sandbox::Finished) -> String {
    let pick = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]).into_owned();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        lines[lines.len().saturating_sub(3)..].join(" / ")
    };
    let words = pick(&f.stderr);
    let words = if words.is_empty() {
        pick(&f.stdout)
    } else {
        words
    };
    shorten(words.trim(), 300)
}
