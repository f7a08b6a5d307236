//! The per-test report of `judge run`: CSV (the `csv` crate) or JSON, one row per test.

use std::path::Path;

use serde::Serialize;

use crate::error::JudgeError;
use crate::verdict::Verdict;

#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub test: String,
    pub verdict: Verdict,
    pub cpu_ms: u64,
    pub wall_ms: u64,
    pub peak_kb: u64,
    pub exit: String,
    pub message: String,
}

/// Writes `rows` to `path`: JSON if it ends in `.json`, CSV otherwise.
pub fn write(path: &Path, rows: &[Row]) -> Result<(), JudgeError> {
    if path.extension().is_some_and(|e| e == "json") {
        let text = serde_json::to_string_pretty(rows).map_err(|e| JudgeError::report(path, e))?;
        std::fs::write(path, text + "\n").map_err(|e| JudgeError::io(path, e))
    } else {
        // The header is written even with no rows (an interrupted run may have none yet).
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_path(path)
            .map_err(|e| JudgeError::report(path, e))?;
        writer
            .write_record([
                "test", "verdict", "cpu_ms", "wall_ms", "peak_kb", "exit", "message",
            ])
            .map_err(|e| JudgeError::report(path, e))?;
        for row in rows {
            writer
                .serialize(row)
                .map_err(|e| JudgeError::report(path, e))?;
        }
        writer.flush().map_err(|e| JudgeError::io(path, e))
    }
}
