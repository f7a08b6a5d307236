//! The stress loop for an external submission: every case runs in the sandbox (same limits as
//! `judge run`), on `jobs` slots at once. Cases go in rounds of consecutive indices; a round's
//! lowest failing index is the finding, so the result does not depend on the number of jobs.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::{Budget, Finding, Summary};
use crate::error::JudgeError;
use crate::progress::Progress;
use crate::registry::ProblemEntry;
use crate::runner::INTERRUPTED;
use crate::runner::verdict::{Verdict, judge};
use sandbox::{Limits, Sandbox};

/// A case: its input and the trusted answer.
pub struct Case {
    pub input: String,
    pub answer: String,
    pub family: &'static str,
    pub params: String,
}

/// What the problem side provides: case generation, shrinking steps, and the checker (all
/// through the registry, so this loop knows no board).
pub trait CaseSource: Sync {
    fn case(&self, index: u64) -> Case;
    /// Smaller valid inputs with their trusted answers.
    fn shrink_candidates(&self, input: &str) -> Vec<(String, String)>;
}

/// Runs the submission on one case; `None` when it passes, else what it printed or why not.
fn failure(
    problem: &dyn ProblemEntry,
    sandbox: &Sandbox,
    slot: usize,
    input: &str,
    answer: &str,
    limits: &Limits,
) -> Result<Option<String>, JudgeError> {
    let run = sandbox
        .run(slot, input.as_bytes(), limits, &INTERRUPTED)
        .map_err(|e| JudgeError::Other(e.to_string()))?;
    if run.interrupted {
        return Ok(None);
    }
    let (verdict, message) = judge(&run, limits, |out| problem.check(answer, out));
    Ok(match verdict {
        Verdict::AC => None,
        Verdict::WA => Some(String::from_utf8_lossy(&run.stdout).into_owned()),
        other => Some(format!(
            "{other}: {message}\n{}",
            String::from_utf8_lossy(&run.stdout)
        )),
    })
}

pub fn run(
    problem: &dyn ProblemEntry,
    source: &dyn CaseSource,
    sandbox: &Sandbox,
    budget: Budget,
    limits: &Limits,
    progress: &Progress,
) -> Result<Summary, JudgeError> {
    crate::runner::catch_interrupts();
    let started = Instant::now();
    let limit = budget.cases.unwrap_or(u64::MAX);
    let done = AtomicU64::new(0);
    let mut next = 0u64;
    let mut round = 64u64;
    let mut found: Option<(u64, String)> = None;
    while next < limit && found.is_none() && !INTERRUPTED.load(Ordering::Relaxed) {
        if budget.time.is_some_and(|t| started.elapsed() >= t) {
            break;
        }
        let end = next.saturating_add(round).min(limit);
        let round_started = Instant::now();
        let cursor = AtomicU64::new(next);
        let failures: Mutex<Vec<(u64, String)>> = Mutex::new(Vec::new());
        let error: Mutex<Option<JudgeError>> = Mutex::new(None);
        std::thread::scope(|scope| {
            for slot in 0..sandbox.slots() {
                let (cursor, failures, error, done) = (&cursor, &failures, &error, &done);
                scope.spawn(move || {
                    loop {
                        let i = cursor.fetch_add(1, Ordering::Relaxed);
                        if i >= end || INTERRUPTED.load(Ordering::Relaxed) {
                            break;
                        }
                        // A failure at a lower index already decides this round.
                        if failures
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .iter()
                            .any(|(j, _)| *j < i)
                        {
                            continue;
                        }
                        let case = source.case(budget.shard.case(i));
                        match failure(problem, sandbox, slot, &case.input, &case.answer, limits) {
                            Ok(Some(got)) => failures
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .push((i, got)),
                            Ok(None) => {}
                            Err(e) => {
                                error
                                    .lock()
                                    .unwrap_or_else(|e| e.into_inner())
                                    .get_or_insert(e);
                                INTERRUPTED.store(true, Ordering::SeqCst);
                            }
                        }
                        progress.set(done.fetch_add(1, Ordering::Relaxed) + 1);
                    }
                });
            }
        });
        if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        found = failures
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .into_iter()
            .min_by_key(|(i, _)| *i);
        next = end;
        if round_started.elapsed() < Duration::from_millis(500) && round < 4096 {
            round *= 2;
        }
    }
    let cases = found.as_ref().map_or(next, |(i, _)| i + 1);
    let to_find = started.elapsed();
    let finding = match found {
        None => None,
        Some((i, got)) => {
            let case_index = budget.shard.case(i);
            let case = source.case(case_index);
            progress.message(&format!("shrinking case {case_index}"));
            let (mut input, mut answer, mut got_now) =
                (case.input.clone(), case.answer.clone(), got.clone());
            let mut steps = 0;
            let mut complete = false;
            let shrink_started = Instant::now();
            // Candidates are judged `slots` at a time; the first failing one in candidate
            // order is taken, exactly as one at a time would, so the result does not depend
            // on the number of jobs. Ends when no candidate fails (1-minimal for the shrink
            // steps) or after 10 s.
            'outer: while shrink_started.elapsed() < Duration::from_secs(10) {
                let candidates = source.shrink_candidates(&input);
                for chunk in candidates.chunks(sandbox.slots().max(1)) {
                    if shrink_started.elapsed() >= Duration::from_secs(10)
                        || INTERRUPTED.load(Ordering::Relaxed)
                    {
                        break 'outer;
                    }
                    let results: Vec<Result<Option<String>, JudgeError>> =
                        std::thread::scope(|scope| {
                            let handles: Vec<_> = chunk
                                .iter()
                                .enumerate()
                                .map(|(slot, (candidate, candidate_answer))| {
                                    scope.spawn(move || {
                                        failure(
                                            problem,
                                            sandbox,
                                            slot,
                                            candidate,
                                            candidate_answer,
                                            limits,
                                        )
                                    })
                                })
                                .collect();
                            handles
                                .into_iter()
                                .map(|h| h.join().expect("a shrink worker panicked"))
                                .collect()
                        });
                    for ((candidate, candidate_answer), result) in chunk.iter().zip(results) {
                        if let Some(g) = result? {
                            (input, answer, got_now) =
                                (candidate.clone(), candidate_answer.clone(), g);
                            steps += 1;
                            progress
                                .message(&format!("shrinking case {case_index}: {steps} steps"));
                            continue 'outer;
                        }
                    }
                }
                complete = true;
                break;
            }
            Some(Finding {
                case: case_index,
                family: case.family,
                params: case.params,
                input: case.input,
                expected: case.answer,
                got,
                shrunk_input: input,
                shrunk_expected: answer,
                shrunk_got: got_now,
                shrink_steps: steps,
                shrink_complete: complete,
            })
        }
    };
    Ok(Summary {
        cases,
        elapsed: started.elapsed(),
        to_find,
        finding,
    })
}
