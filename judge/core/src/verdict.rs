//! Verdicts: what a finished run means.

use std::fmt;

use serde::{Deserialize, Serialize};

use sandbox::{Exit, Finished, Limits};

use crate::text::shorten;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Verdict {
    AC,
    WA,
    TLE,
    MLE,
    OLE,
    RE,
    /// Compile error: the submission's source did not build (no test was run).
    CE,
}

impl Verdict {
    /// Every verdict, in the order reports count them.
    pub const ALL: [Verdict; 7] = [
        Verdict::AC,
        Verdict::WA,
        Verdict::TLE,
        Verdict::MLE,
        Verdict::OLE,
        Verdict::RE,
        Verdict::CE,
    ];
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A signal's name (`SIGSEGV`), or its number.
pub fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGKILL => "SIGKILL",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGINT => "SIGINT",
        _ => return format!("signal {signal}"),
    };
    name.to_string()
}

pub fn describe_exit(exit: &Exit) -> String {
    match exit {
        Exit::Code(c) => format!("exit {c}"),
        Exit::Signal(s) => signal_name(*s),
    }
}

/// The verdict of a run, in this order: output flood (OLE), time (TLE: CPU over the limit or
/// the wall clock ran out), memory (MLE: killed at the limit, or peak over it), abnormal end
/// (RE), then the checker's word on the output (AC or WA, with its reason).
pub fn judge(
    run: &Finished,
    limits: &Limits,
    check: impl FnOnce(&[u8]) -> Result<(), crate::checker::Rejection>,
) -> (Verdict, String) {
    if run.output_exceeded {
        return (
            Verdict::OLE,
            format!("more than {} bytes of output", limits.output_bytes),
        );
    }
    if run.cpu > limits.cpu {
        return (
            Verdict::TLE,
            format!(
                "{} ms of CPU time, limit {} ms",
                run.cpu.as_millis(),
                limits.cpu.as_millis()
            ),
        );
    }
    if run.wall_exceeded {
        return (
            Verdict::TLE,
            format!(
                "still running after {} ms of wall time",
                limits.wall.as_millis()
            ),
        );
    }
    if run.memory_exceeded {
        return (
            Verdict::MLE,
            format!(
                "killed at the memory limit, {} KiB (peak {} KiB)",
                limits.memory_bytes / 1024,
                run.peak_kb
            ),
        );
    }
    if run.peak_kb * 1024 > limits.memory_bytes {
        return (
            Verdict::MLE,
            format!(
                "{} KiB peak memory, limit {} KiB",
                run.peak_kb,
                limits.memory_bytes / 1024
            ),
        );
    }
    if run.exit != Exit::Code(0) {
        let mut message = describe_exit(&run.exit);
        // The submission's own words, as written: every writer escapes them for its format
        // (`judge_report::escape`).
        let tail = String::from_utf8_lossy(&run.stderr);
        if let Some(last) = tail.lines().rev().find(|l| !l.trim().is_empty()) {
            message.push_str(&format!(": {}", shorten(last.trim(), 120)));
        }
        return (Verdict::RE, message);
    }
    match check(&run.stdout) {
        Ok(()) => (Verdict::AC, String::new()),
        // The checker may quote the output: kept as written, escaped by every writer.
        Err(why) => (Verdict::WA, why.to_string()),
    }
}
