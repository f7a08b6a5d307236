//! One file per subcommand. A command writes what it prints to the `Write` it is given
//! (standard output), with `outln!` and `out!`: a write that fails (its reader went
//! away) is returned as `JudgeError::Output`, never a panic. What it says on standard error
//! goes through `errln!`.
//!
//! Names are data: a package's problem name, its test and file names, a submission's path may
//! hold escape sequences (a terminal's title, its screen cleared, a line rewritten). So
//! `outln!` and `errln!` show every control character of the line they print as `\x1b`
//! and the like (`judge_report::escape::terminal`), whatever the caller forgot; names on a
//! line of their own are still given `escape::line`, so that a newline in one cannot forge a
//! line. Only `out!` writes as is: a finding's board drawn in colour on a terminal.

/// `writeln!` to a command's output, control characters shown escaped; an error writing it
/// returns from the command.
macro_rules! outln {
    ($out:expr) => {
        writeln!($out).map_err(judge_core::JudgeError::Output)?
    };
    ($out:expr, $($arg:tt)*) => {
        writeln!($out, "{}", judge_report::escape::terminal(&format!($($arg)*)))
            .map_err(judge_core::JudgeError::Output)?
    };
}

/// `eprintln!`, control characters shown escaped (see the module's comment): the core's
/// `judge_core::say!`, which the library's own messages use too.
macro_rules! errln {
    ($($arg:tt)*) => {
        judge_core::say!($($arg)*)
    };
}

/// Says each of a package's warnings on standard error, one line each (a name in one cannot
/// forge a line of its own).
pub(crate) fn warn<'a>(warnings: impl IntoIterator<Item = &'a String>) {
    for warning in warnings {
        errln!("warning: {}", judge_report::escape::line(warning));
    }
}

/// `write!` to a command's output as is (a finding drawn in colour: its text was escaped
/// where it was made); an error writing it returns from the command.
macro_rules! out {
    ($out:expr, $($arg:tt)*) => {
        write!($out, $($arg)*).map_err(judge_core::JudgeError::Output)?
    };
}

pub mod bench;
pub mod families;
pub mod generate;
pub mod merge;
pub mod package;
pub mod problems;
pub mod run;
pub mod solutions;
pub mod solve;
pub mod strength;
pub mod stress;
pub mod testset;
pub mod timelimit;
pub mod validate;
pub mod verify;
