//! The judge's own failures (exit code 2), typed so that callers can tell them apart: above
//! all a failure of the jury's side (a bad answer file, solvers that disagree) from anything a
//! contestant did. Findings are not errors: commands report them through [`crate::Outcome`].

use std::path::PathBuf;

use solutions::ParseError;

#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    /// A file or folder could not be read or written.
    #[error("{}: {source}", crate::escape::path(path))]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// An input given to `solve` is not valid (an invalid input of a test set is the jury's:
    /// [`JuryError::InvalidInput`]).
    #[error("{source_name}:{}:{}: invalid input: {}", error.line, error.col, error.message)]
    Invalid {
        source_name: String,
        error: ParseError,
    },
    /// The arguments make no sense together.
    #[error("usage: {0}")]
    Usage(String),
    /// The jury's side is wrong: a malformed or missing answer file, a test set that does not
    /// read, reference and fast solvers that disagree. Never the contestant's fault.
    #[error("jury error: {0}")]
    Jury(#[from] JuryError),
    /// Standard output could not be written: above all, its reader went away (`judge … |
    /// head -1`), which ends any command quietly with exit 2.
    #[error("standard output: {0}")]
    Output(#[source] std::io::Error),
    /// A report or manifest could not be written.
    #[error("{}: {source}", crate::escape::path(path))]
    Report {
        path: PathBuf,
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Building a submission from source failed: a compile error, the submission's fault
    /// (`judge run`, `judge stress` and `judge strength` make it a CE verdict: exit 1). `command` is the build command
    /// as the box ran it (box paths), `message` the start of the compiler's output as written
    /// (escaped by whoever shows it), `reason` a build limit that stopped it.
    #[error(
        "build of {} failed ({command}){}:\n{message}",
        crate::escape::path(source_file),
        reason.as_ref().map(|r| format!(": {r}")).unwrap_or_default()
    )]
    Build {
        source_file: PathBuf,
        command: String,
        message: String,
        reason: Option<String>,
    },
    /// The sandbox could not be set up or could not run a program.
    #[error("sandbox: {context}: {source}")]
    Sandbox {
        context: String,
        source: std::io::Error,
    },
    /// Ctrl-C or SIGTERM: the work was stopped; `0` says how far it got.
    #[error("interrupted: {0}")]
    Interrupted(String),
    /// `--shard auto` found no shard in the environment, or variables that disagree.
    #[error("usage: {0}")]
    AutoShard(#[from] AutoShardError),
    /// `judge merge`: the shards do not make up one complete campaign.
    #[error("{0}")]
    Merge(#[from] MergeError),
}

/// Why `--shard auto` found no shard: a usage error (exit 2).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum AutoShardError {
    #[error(
        "--shard auto: neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set; outside a scheduler give --shard K/N"
    )]
    NoScheduler,
    #[error("--shard auto: {name}='{value}' is not a whole number")]
    NotANumber { name: &'static str, value: String },
    #[error(
        "--shard auto: SLURM_ARRAY_TASK_ID is set but {0} is not (Slurm sets it in every array task): give --shard K/N"
    )]
    SlurmMissing(&'static str),
    #[error(
        "--shard auto: the job array {min}-{max}:{step} of {count} tasks is not an evenly stepped range (e.g. --array=1,2,5,9): give --shard K/N yourself"
    )]
    UnevenArray {
        min: u64,
        max: u64,
        step: u64,
        count: u64,
    },
    #[error(
        "--shard auto: SLURM_ARRAY_TASK_ID={id} is not a task of the array {min}-{max}:{step} (SLURM_ARRAY_TASK_MIN, _STEP, _COUNT)"
    )]
    NotInArray {
        id: u64,
        min: u64,
        max: u64,
        step: u64,
    },
    #[error(
        "--shard auto: JOB_COMPLETION_INDEX is set but BOARDJUDGE_SHARDS is not: Kubernetes does not tell a pod the Job's completions, so set BOARDJUDGE_SHARDS to the same number"
    )]
    NoShardCount,
    #[error(
        "--shard auto: JOB_COMPLETION_INDEX={index} but BOARDJUDGE_SHARDS={count}: the index must be below the count (set BOARDJUDGE_SHARDS to the Job's completions)"
    )]
    IndexOutOfRange { index: u64, count: u64 },
    #[error(
        "--shard auto: the Slurm array variables say shard {slurm} but JOB_COMPLETION_INDEX/BOARDJUDGE_SHARDS say {kubernetes}; unset one of them"
    )]
    Disagree { slurm: String, kubernetes: String },
}

/// Why `judge merge DIR` cannot say what the single-machine run would have said (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{}: no shard results here (the shard-K-of-N folders that --shard K/N --save DIR writes)", dir.display())]
    NoShards { dir: PathBuf },
    #[error("{}: shard folders of campaigns of different sizes ({sizes}): one campaign per folder", dir.display())]
    MixedSizes { dir: PathBuf, sizes: String },
    #[error("{}: shard folders of different commands ({commands}): one campaign per folder", dir.display())]
    MixedCommands { dir: PathBuf, commands: String },
    #[error("{}: the shards are not of one campaign:\n  {}", dir.display(), lines.join("\n  "))]
    DifferentCampaigns { dir: PathBuf, lines: Vec<String> },
    /// A shard's result does not add up, or a shard folder is not what a shard writes: forged
    /// or damaged, refused.
    #[error("{}: refused: shard results that do not add up (forged or damaged: run those shards again):\n  {}", dir.display(), lines.join("\n  "))]
    Inconsistent { dir: PathBuf, lines: Vec<String> },
    #[error(
        "{}: {} of {n} shards missing or incomplete, so this is not yet the single run's result:\n  {}{}",
        dir.display(),
        lines.len(),
        lines.join("\n  "),
        known.as_ref().map(|k| format!("\n{k}")).unwrap_or_default()
    )]
    Incomplete {
        dir: PathBuf,
        n: u64,
        lines: Vec<String>,
        known: Option<String>,
    },
}

/// What is wrong on the jury's side (exit 2, never a verdict). Every message starts with the
/// file or the problem it is about.
#[derive(Debug, thiserror::Error)]
pub enum JuryError {
    /// A test's input has no answer file beside it.
    #[error(
        "{}: missing: every test needs its answer file (found {})",
        crate::escape::path(answer),
        crate::escape::path(input)
    )]
    MissingAnswer { answer: PathBuf, input: PathBuf },
    /// A test's input file cannot be read.
    #[error("{}: {source}", crate::escape::path(path))]
    UnreadableInput {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A test's answer file cannot be read.
    #[error("{}: {source}", crate::escape::path(path))]
    UnreadableAnswer {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A test's answer file is not text, or does not read as an answer of the problem.
    #[error(
        "{}: the answer file does not read as an answer: {why}",
        crate::escape::path(path)
    )]
    MalformedAnswer { path: PathBuf, why: String },
    /// A test's answer file is not the reference solver's answer to its input.
    #[error(
        "{}: not the reference solver's answer to {} ({why})",
        crate::escape::path(path),
        crate::escape::path(input)
    )]
    AnswerDiffers {
        path: PathBuf,
        input: PathBuf,
        why: String,
    },
    /// A test's input is not a valid input of the problem.
    #[error("{}:{}:{}: invalid test input: {}", crate::escape::path(path), error.line, error.col, error.message)]
    InvalidInput { path: PathBuf, error: ParseError },
    /// The reference and the fast solver disagree on an input that is to become a test.
    #[error(
        "{origin}: the reference ({reference}) and the fast solver ({fast}) disagree on this input; please report it:\n{input}"
    )]
    SolversDisagree {
        origin: String,
        reference: String,
        fast: String,
        input: String,
    },
    /// A corpus case's input is not a valid input of its problem.
    #[error("{corpus} (case {case}):{}:{}: invalid input: {}", error.line, error.col, error.message)]
    InvalidCorpusInput {
        corpus: String,
        case: String,
        error: ParseError,
    },
    /// A corpus case's answer, worked out by hand, is not what the trusted solvers say.
    #[error("corpus case {case} expects {expected:?} but the solvers say {got:?}")]
    CorpusMismatch {
        case: String,
        expected: String,
        got: String,
    },
    /// A problem's own files or programs are broken (its statement, an exported program, a
    /// generated invalid input the validator accepts).
    #[error("{}: {why}", crate::escape::line(problem))]
    Problem { problem: String, why: String },
}

impl JudgeError {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> JudgeError {
        JudgeError::Io {
            path: path.into(),
            source,
        }
    }

    pub fn report(
        path: impl Into<PathBuf>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> JudgeError {
        JudgeError::Report {
            path: path.into(),
            source: Box::new(source),
        }
    }

    pub fn sandbox(context: impl Into<String>, source: std::io::Error) -> JudgeError {
        JudgeError::Sandbox {
            context: context.into(),
            source,
        }
    }
}
