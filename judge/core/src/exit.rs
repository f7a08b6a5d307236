//! The exit codes of `judge`, as documented in `shared/cli.md` and the README.

/// The answer was printed, all tests passed, no disagreement was found.
pub const SUCCESS: i32 = 0;
/// A finding: invalid input (`validate`), a non-AC verdict (`run`), a disagreement (`stress`),
/// a surviving wrong solution (`strength`); a submission that does not build (CE) is a finding
/// in `run`, `stress` and `strength` alike.
pub const FINDING: i32 = 1;
/// A usage error, an unreadable file, invalid input to `solve`, or a failure of the judge.
pub const FAILURE: i32 = 2;
