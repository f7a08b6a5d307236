//! One row of `judge run`'s per-test report (the report module writes it).

use serde::{Deserialize, Serialize};

use crate::verdict::Verdict;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    pub test: String,
    pub verdict: Verdict,
    pub cpu_ms: u64,
    pub wall_ms: u64,
    pub peak_kb: u64,
    pub exit: String,
    pub message: String,
    /// The start of what the submission printed on standard output and standard error,
    /// kept for non-AC tests only, for the HTML and JUnit reports (not CSV/JSON columns).
    #[serde(skip)]
    pub stdout: String,
    #[serde(skip)]
    pub stderr: String,
}
