//! One file per subcommand. A command writes what it prints to the `Write` it is given
//! (standard output), with [`outln!`] and [`out!`]: a write that fails (its reader went
//! away) is returned as `JudgeError::Output`, never a panic.

/// `writeln!` to a command's output; an error writing it returns from the command.
macro_rules! outln {
    ($out:expr) => {
        writeln!($out).map_err(judge_core::JudgeError::Output)?
    };
    ($out:expr, $($arg:tt)*) => {
        writeln!($out, $($arg)*).map_err(judge_core::JudgeError::Output)?
    };
}

/// `write!` to a command's output; an error writing it returns from the command.
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
