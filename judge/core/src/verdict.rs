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
/// (RE), then the checker's word on the output (AC or WA, with its reason: any checker's,
/// the built-in problems' [`crate::checker::Rejection`] or a line of text).
pub fn judge<Why: fmt::Display>(
    run: &Finished,
    limits: &Limits,
    check: impl FnOnce(&[u8]) -> Result<(), Why>,
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
                limits.memory_cap() / 1024,
                run.peak_kb
            ),
        );
    }
    if run.peak_kb * 1024 > limits.memory_cap() {
        return (
            Verdict::MLE,
            format!(
                "{} KiB peak memory, limit {} KiB",
                run.peak_kb,
                limits.memory_cap() / 1024
            ),
        );
    }
    // A sanitized run's report is its own verdict, whatever the output: memory the sanitizer
    // refused is MLE, anything else (a read outside an array, undefined behaviour) RE.
    if limits.sanitizer
        && let Some(report) = sanitizer_report(&run.stderr)
    {
        if report.out_of_memory {
            return (Verdict::MLE, format!("sanitizer: {}", report.detail));
        }
        let output = match check(&run.stdout) {
            _ if run.exit != Exit::Code(0) => format!("; {}", describe_exit(&run.exit)),
            Ok(()) => " (the output was right)".to_string(),
            Err(why) => format!(" (and the output was wrong: {why})"),
        };
        return (Verdict::RE, format!("sanitizer: {}{output}", report.detail));
    }
    if run.exit != Exit::Code(0) {
        let mut message = describe_exit(&run.exit);
        // The submission's own words, as written: every writer escapes them for its format
        // (`crate::escape`).
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

/// What a sanitizer reported, from the first report on standard error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanitizerReport {
    /// One line: what went wrong and where, e.g. `global-buffer-overflow READ of size 4 in
    /// main reads-past.cpp:25` or `runtime error: index 19 out of bounds for type 'int [19]'
    /// at reads-past.cpp:25:51`. Written by the submission's runtime: escape it for display.
    pub detail: String,
    /// The sanitizer refused memory (ASan's RSS or malloc limit, an allocation too big).
    pub out_of_memory: bool,
}

/// The first AddressSanitizer report in `stderr`, else the first UndefinedBehaviorSanitizer
/// report, if any.
pub fn sanitizer_report(stderr: &[u8]) -> Option<SanitizerReport> {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().collect();
    // AddressSanitizer's report first (it says whether memory was read or written), then
    // UndefinedBehaviorSanitizer's.
    for (i, line) in lines.iter().enumerate() {
        if let Some(at) = line.find("ERROR: AddressSanitizer: ") {
            let what = &line[at + "ERROR: AddressSanitizer: ".len()..];
            let kind = what.split(" on address").next().unwrap_or(what).trim();
            let kind = kind
                .split(" on unknown address")
                .next()
                .unwrap_or(kind)
                .trim();
            let rest = &lines[i + 1..lines.len().min(i + 12)];
            let access = rest
                .iter()
                .map(|l| l.trim())
                .find(|l| l.starts_with("READ of size") || l.starts_with("WRITE of size"))
                .and_then(|l| l.split(" at ").next());
            // The first frame: `#0 0xADDR in FUNCTION FILE:LINE`.
            let frame = rest
                .iter()
                .map(|l| l.trim())
                .find(|l| l.starts_with("#0 "))
                .and_then(|l| l.split_once(" in "))
                .map(|(_, place)| match place.rsplit_once(' ') {
                    Some((function, file)) => format!("in {function} {}", base_name(file)),
                    None => format!("in {place}"),
                });
            let detail = [Some(kind.to_string()), access.map(str::to_string), frame]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" ");
            let out_of_memory = [
                "out of memory",
                "rss limit",
                "allocation size",
                "malloc limit",
                "allocation-size-too-big",
            ]
            .iter()
            .any(|k| kind.contains(k));
            return Some(SanitizerReport {
                detail: shorten(&detail, 200),
                out_of_memory,
            });
        }
    }
    for line in &lines {
        if let Some(at) = line.find(": runtime error: ") {
            // UBSan: `FILE:LINE:COL: runtime error: MESSAGE`.
            let place = base_name(&line[..at]);
            let message = &line[at + ": runtime error: ".len()..];
            return Some(SanitizerReport {
                detail: shorten(&format!("runtime error: {message} at {place}"), 200),
                out_of_memory: false,
            });
        }
    }
    None
}

/// `/a/b/c.cpp:25:3` → `c.cpp:25:3` (the build folder's path says nothing).
fn base_name(place: &str) -> &str {
    match place.rfind('/') {
        Some(i) => &place[i + 1..],
        None => place,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_sanitizer_report_becomes_one_line() {
        let stderr = b"=================================================================\n\
==11927==ERROR: AddressSanitizer: global-buffer-overflow on address 0x560af30bfdf4 at pc 0x560af30bb59a bp 0x7ffd73345cb0 sp 0x7ffd73345ca8\n\
READ of size 4 at 0x560af30bfdf4 thread T0\n\
    #0 0x560af30bb599 in main /tmp/staging/reads-before-the-board.cpp:25\n\
    #1 0x7ff725c45249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58\n";
        let report = sanitizer_report(stderr).unwrap();
        assert_eq!(
            report.detail,
            "global-buffer-overflow READ of size 4 in main reads-before-the-board.cpp:25"
        );
        assert!(!report.out_of_memory);
    }

    #[test]
    fn an_undefined_behaviour_report_becomes_one_line() {
        let stderr =
            b"/box/0/x.cpp:25:51: runtime error: index -1 out of bounds for type 'int [19]'\n";
        assert_eq!(
            sanitizer_report(stderr).unwrap().detail,
            "runtime error: index -1 out of bounds for type 'int [19]' at x.cpp:25:51"
        );
    }

    #[test]
    fn memory_the_sanitizer_refuses_is_out_of_memory() {
        let stderr = b"==7==ERROR: AddressSanitizer: hard rss limit exhausted (576Mb vs 577Mb)\n";
        assert!(sanitizer_report(stderr).unwrap().out_of_memory);
        assert_eq!(
            sanitizer_report(b"Segmentation fault\nno report here\n"),
            None
        );
    }
}
