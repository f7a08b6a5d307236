//! Argument types that several commands share: the sandbox's limits and parallelism, time
//! limits and counts. (The command line itself, and the dispatch to the commands, is
//! `cli.rs`; commands import this module, never `cli`, so the two do not depend on each other.)

/// The sandbox's limits and parallelism: one set of flags for `run`, `stress` and `strength`.
#[derive(clap::Args, Debug, Clone)]
pub struct SandboxArgs {
    /// CPU-time limit per test, in seconds (the judged time; the wall clock allows 2 x this + 1 s).
    #[arg(long, default_value_t = 2.0, value_parser = seconds)]
    pub time_limit: f64,
    /// Peak memory limit per test, in MiB.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub memory_limit: u64,
    /// Tests run in parallel (default: the number of cores); also the builds of `judge
    /// strength` run in parallel.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
    /// CPU-time limit of building a source file, in seconds (each build runs in a box of its
    /// own; the wall clock allows 2 x this + 10 s) [default: 30].
    #[arg(long, value_parser = seconds)]
    pub build_time_limit: Option<f64>,
}

impl SandboxArgs {
    pub fn limits(&self) -> sandbox::Limits {
        judge_core::runner::default_limits(self.time_limit, self.memory_limit)
    }

    pub fn jobs(&self) -> usize {
        jobs(self.jobs)
    }

    /// What builds the submissions: the build limits, the test data hidden from the builds
    /// too, stopped by `cancel`.
    pub fn builder(
        &self,
        hidden: &[std::path::PathBuf],
        cancel: &judge_core::cancel::Cancel,
    ) -> judge_core::runner::submission::Builder {
        judge_core::runner::submission::Builder::new(
            self.build_time_limit
                .map(std::time::Duration::from_secs_f64),
            hidden,
            cancel,
        )
    }
}

/// `--jobs`, or the number of cores.
pub fn jobs(requested: Option<u16>) -> usize {
    requested.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    )
}

/// An argument value that makes no sense (clap prints it with the option's name, exit 2).
#[derive(Debug, thiserror::Error)]
pub enum BadValue {
    #[error("'{0}' is not a number of seconds")]
    NotSeconds(String),
    #[error("takes seconds, more than 0 and at most 3600")]
    SecondsOutOfRange,
    #[error("'{0}': expected a whole number, at least 1")]
    NotACount(String),
}

/// A time limit: seconds, more than 0 and at most an hour.
fn seconds(text: &str) -> Result<f64, BadValue> {
    let value: f64 = text
        .parse()
        .map_err(|_| BadValue::NotSeconds(text.to_string()))?;
    if value.is_finite() && value > 0.0 && value <= 3600.0 {
        Ok(value)
    } else {
        Err(BadValue::SecondsOutOfRange)
    }
}

/// A count that must be at least 1 (`--cases`, `--count`): 0 would do nothing.
pub fn count(text: &str) -> Result<u64, BadValue> {
    match text.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(BadValue::NotACount(text.to_string())),
    }
}
