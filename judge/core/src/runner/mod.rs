//! Running a submission on a test set, in parallel, in the sandbox.

pub mod report;
pub mod submission;
pub mod tests;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crate::verdict::{Verdict, describe_exit, judge};
use report::Row;
use tests::Test;

use crate::cancel::Cancel;
use crate::error::JudgeError;
use crate::progress::Progress;
use crate::registry::ProblemEntry;
use sandbox::{Limits, Sandbox};

/// Runs test `test` in `slot` and judges it.
pub fn run_one(
    problem: &dyn ProblemEntry,
    sandbox: &Sandbox,
    slot: usize,
    test: &Test,
    limits: &Limits,
    cancel: &Cancel,
) -> Result<Option<Row>, JudgeError> {
    let input = std::fs::read(&test.input).map_err(|e| JudgeError::io(&test.input, e))?;
    let answer = std::fs::read_to_string(&test.answer)
        .map_err(|e| JudgeError::Jury(format!("{}: {e}", test.answer.display())))?;
    problem
        .answer_file_reads(&answer)
        .map_err(|e| JudgeError::Jury(format!("{}: {e}", test.answer.display())))?;
    let finished = sandbox
        .run(slot, &input, limits, cancel.flag())
        .map_err(|e| JudgeError::sandbox(format!("running test {}", test.name), e))?;
    if finished.interrupted {
        return Ok(None);
    }
    let (verdict, message) = judge(&finished, limits, |out| problem.check(&answer, out));
    // What a failing submission wrote, for the reports; 16 KiB of each is plenty to show.
    let kept = |bytes: &[u8]| {
        if verdict == Verdict::AC {
            String::new()
        } else {
            String::from_utf8_lossy(&bytes[..bytes.len().min(16 << 10)]).into_owned()
        }
    };
    Ok(Some(Row {
        stdout: kept(&finished.stdout),
        stderr: kept(&finished.stderr),
        test: test.name.clone(),
        verdict,
        cpu_ms: finished.cpu.as_millis() as u64,
        wall_ms: finished.wall.as_millis() as u64,
        peak_kb: finished.peak_kb,
        exit: describe_exit(&finished.exit),
        message,
    }))
}

/// Is this TLE close enough to the limit that a busy machine could have caused it? (A run
/// that mostly slept, far under the CPU limit, would only time out again.)
pub fn near_limit(row: &Row, limits: &Limits) -> bool {
    let (cpu, limit) = (u128::from(row.cpu_ms), limits.cpu.as_millis());
    row.verdict == Verdict::TLE && cpu * 2 >= limit && cpu * 2 < limit * 3
}

/// Runs every test with `sandbox.slots()` in parallel. A TLE near the limit is re-run alone
/// before it stands. `on_row` sees every row as it finishes (before any re-run). Returns the
/// rows finished (all of them unless interrupted).
pub fn run_all(
    problem: &dyn ProblemEntry,
    sandbox: &Sandbox,
    tests: &[Test],
    limits: &Limits,
    progress: &Progress,
    cancel: &Cancel,
    on_row: &mut dyn FnMut(usize, &Row),
) -> Result<Vec<Row>, JudgeError> {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(usize, Result<Option<Row>, JudgeError>)>();
    let mut rows: Vec<Option<Row>> = vec![None; tests.len()];
    let mut first_error = None;
    std::thread::scope(|scope| {
        for slot in 0..sandbox.slots().min(tests.len()) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    if cancel.is_cancelled() {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(test) = tests.get(i) else { break };
                    let result = run_one(problem, sandbox, slot, test, limits, cancel);
                    let failed = result.is_err();
                    if sender.send((i, result)).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut done = 0;
        for (i, result) in receiver {
            done += 1;
            progress.set(done);
            match result {
                Ok(row) => {
                    if let Some(row) = &row {
                        on_row(i, row);
                    }
                    rows[i] = row;
                }
                Err(e) => {
                    cancel.cancel();
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = first_error {
        return Err(e);
    }
    if sandbox.slots() > 1 && !cancel.is_cancelled() {
        for (i, test) in tests.iter().enumerate() {
            if rows[i].as_ref().is_some_and(|r| near_limit(r, limits)) {
                progress.message(&format!("re-running {} alone", test.name));
                if let Some(mut again) = run_one(problem, sandbox, 0, test, limits, cancel)? {
                    again.message = if again.message.is_empty() {
                        "re-run alone".to_string()
                    } else {
                        format!("{} (re-run alone)", again.message)
                    };
                    rows[i] = Some(again);
                }
            }
        }
    }
    Ok(rows.into_iter().flatten().collect())
}

/// The default wall-clock allowance for a CPU limit.
pub fn default_limits(time_limit: f64, memory_mb: u64) -> Limits {
    Limits::new(Duration::from_secs_f64(time_limit), memory_mb)
}
