//! The one stress loop, for every kind of [`Candidate`]. Cases go in rounds of consecutive
//! indices, split into tasks over `jobs` threads; a round's lowest failing index is the
//! finding, so the result does not depend on the number of jobs. The finding is then shrunk
//! with the problem's steps ([`generators::shrink`]), every step re-checked by the candidate.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use generators::{Generate, ImageCases, image_case, mixed_case};
use rayon::prelude::*;

use super::candidate::Candidate;
use super::{Budget, Finding, Summary};
use crate::error::JudgeError;
use crate::session::Session;

/// How long shrinking may take.
const SHRINK_BUDGET: Duration = Duration::from_secs(30);

/// The strongest known cases, tried before the family mix: (input, where from, parameters).
pub type Strongest<P> = [(<P as solutions::Problem>::Input, &'static str, String)];

/// Case `case` of the run: the strongest known cases first, then the family mix (with
/// `images`, every symmetric image of each mixed case: [`generators::image_case`]).
fn case_at<P: Generate>(
    strongest: &Strongest<P>,
    families: &[generators::Family<P>],
    images: bool,
    case: u64,
    seed: u64,
) -> (P::Input, &'static str, String) {
    match strongest.get(case as usize) {
        Some((input, family, params)) => (input.clone(), family, params.clone()),
        None if images => image_case(families, case - strongest.len() as u64, seed),
        None => mixed_case(families, case - strongest.len() as u64, seed),
    }
}

/// One stress run: what it compares, on which cases, with what.
struct Driver<'a, P: Generate> {
    budget: Budget,
    trusted: fn(&P::Input) -> P::Answer,
    candidate: &'a dyn Candidate<P>,
    strongest: &'a Strongest<P>,
    families: Vec<generators::Family<P>>,
    /// `jobs` threads: a submission's sandbox has that many slots.
    pool: rayon::ThreadPool,
    session: &'a Session<'a>,
}

/// Compares `candidate` with `trusted` on the budget's cases, on the session's jobs (a
/// submission's sandbox must have that many slots): first `strongest`, then the family mix.
pub fn run<P: Generate>(
    budget: Budget,
    trusted: fn(&P::Input) -> P::Answer,
    candidate: &dyn Candidate<P>,
    strongest: &Strongest<P>,
    session: &Session,
) -> Result<Summary, JudgeError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(session.jobs)
        .build()
        .map_err(|e| JudgeError::sandbox("starting worker threads", std::io::Error::other(e)))?;
    Driver {
        budget,
        trusted,
        candidate,
        strongest,
        families: P::families(),
        pool,
        session,
    }
    .search()
}

impl<P: Generate> Driver<'_, P> {
    /// Runs the cases in rounds until the budget is spent or a case fails; shrinks a failure.
    fn search(&self) -> Result<Summary, JudgeError> {
        let Driver {
            budget,
            trusted,
            candidate,
            strongest,
            ref families,
            ref pool,
            session,
        } = *self;
        let (progress, cancel) = (session.progress, &session.cancel);
        let families = &families[..];
        let per_task = candidate.cases_per_task();
        let started = Instant::now();
        let done = AtomicU64::new(0);
        // `--cases` is the whole campaign: this shard's share of the global indices below it.
        let limit = budget
            .cases
            .map_or(u64::MAX, |cases| budget.shard.stress_local_count(cases));
        let mut next = 0u64; // shard-local index of the next case
        let mut round = per_task * 64;
        let mut found: Option<(u64, String)> = None;
        let mut interrupted = false;
        while next < limit && found.is_none() {
            if cancel.is_cancelled() {
                interrupted = true;
                break;
            }
            if budget.time.is_some_and(|t| started.elapsed() >= t) {
                break;
            }
            let end = next.saturating_add(round).min(limit);
            let round_started = Instant::now();
            let tasks = (end - next).div_ceil(per_task);
            // How far each task got (the first index it did not run), so that an interrupted
            // round still says exactly which prefix of cases was run.
            let reached: Vec<AtomicU64> = (0..tasks)
                .map(|task| AtomicU64::new(next + task * per_task))
                .collect();
            // Failures at or above the lowest known one cannot be the finding: skip them.
            let lowest = AtomicU64::new(u64::MAX);
            let failure: Mutex<Option<(u64, String)>> = Mutex::new(None);
            let error: Mutex<Option<JudgeError>> = Mutex::new(None);
            pool.install(|| {
                (0..tasks).into_par_iter().for_each(|task| {
                    let slot = rayon::current_thread_index().unwrap_or(0);
                    let first = next + task * per_task;
                    let stop = (first + per_task).min(end);
                    // Consecutive cases share their generated position (its images).
                    let mut images = ImageCases::new(families, budget.seed);
                    for i in first..stop {
                        if i >= lowest.load(Ordering::Relaxed) || cancel.is_cancelled() {
                            break;
                        }
                        let case = budget.shard.stress_case(i);
                        let input = match strongest.get(case as usize) {
                            Some((input, _, _)) => input.clone(),
                            None if candidate.images() => {
                                images.input(case - strongest.len() as u64)
                            }
                            None => {
                                mixed_case(families, case - strongest.len() as u64, budget.seed).0
                            }
                        };
                        match candidate.failure(slot, &input, &trusted(&input)) {
                            // A run cut short by the interruption says nothing: not counted.
                            Ok(None) if cancel.is_cancelled() => break,
                            Ok(None) => reached[task as usize].store(i + 1, Ordering::Relaxed),
                            Ok(Some(got)) => {
                                reached[task as usize].store(i + 1, Ordering::Relaxed);
                                let mut failure = failure.lock().unwrap_or_else(|e| e.into_inner());
                                if failure.as_ref().is_none_or(|(j, _)| i < *j) {
                                    *failure = Some((i, got));
                                    lowest.fetch_min(i, Ordering::Relaxed);
                                }
                                break;
                            }
                            Err(e) => {
                                error
                                    .lock()
                                    .unwrap_or_else(|e| e.into_inner())
                                    .get_or_insert(e);
                                cancel.cancel();
                                break;
                            }
                        }
                    }
                    progress.set(done.fetch_add(stop - first, Ordering::Relaxed) + stop - first);
                });
            });
            if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
                return Err(e);
            }
            let failure = failure.into_inner().unwrap_or_else(|e| e.into_inner());
            if cancel.is_cancelled() {
                // Interrupted in this round: the cases run are the prefix up to the first task
                // that stopped short; a failure counts only if every case before it was run
                // (else a lower one may hide in the part not run).
                let mut prefix = end;
                for (task, reached) in reached.iter().enumerate() {
                    let stop = (next + (task as u64 + 1) * per_task).min(end);
                    let reached = reached.load(Ordering::Relaxed);
                    if reached < stop {
                        prefix = reached;
                        break;
                    }
                }
                found = failure.filter(|(i, _)| *i < prefix);
                next = prefix;
                interrupted = found.is_none() && next < limit;
                break;
            }
            found = failure;
            next = end;
            if round_started.elapsed() < Duration::from_millis(250) && round < per_task << 14 {
                round *= 2;
            }
        }
        let cases = found.as_ref().map_or(next, |(i, _)| i + 1);
        let to_find = started.elapsed();
        let finding = match found {
            None => None,
            Some((i, got)) => Some(self.shrink(i, got)?),
        };
        if finding.as_ref().is_some_and(|f| f.shrink_interrupted) {
            interrupted = true;
        }
        Ok(Summary {
            cases,
            elapsed: started.elapsed(),
            to_find,
            finding,
            interrupted,
        })
    }

    /// Shrinks the failing case `i` and describes it, judging `jobs` shrink variants at a
    /// time.
    fn shrink(&self, i: u64, got: String) -> Result<Finding, JudgeError> {
        let Driver {
            budget,
            trusted,
            candidate,
            strongest,
            ref families,
            ref pool,
            session,
        } = *self;
        let (progress, cancel, jobs) = (session.progress, &session.cancel, session.jobs);
        let case = budget.shard.stress_case(i);
        let (input, family, params) =
            case_at(strongest, families, candidate.images(), case, budget.seed);
        progress.message(&format!("shrinking case {case}"));
        let mut error = None;
        let mut shrunk_got = got.clone();
        let (shrunk, steps, complete) = generators::shrink::<P>(
            &input,
            |variants| {
                if error.is_some() || cancel.is_cancelled() {
                    return None;
                }
                // Every variant of the batch is judged, one per slot at once; the first failing
                // one in order wins, so the result is the one-at-a-time result.
                let results: Vec<Result<Option<String>, JudgeError>> = pool.install(|| {
                    variants
                        .par_iter()
                        .map(|v| {
                            let slot = rayon::current_thread_index().unwrap_or(0);
                            candidate.failure(slot, v, &trusted(v))
                        })
                        .collect()
                });
                for (k, result) in results.into_iter().enumerate() {
                    match result {
                        Ok(Some(got)) => {
                            shrunk_got = got;
                            return Some(k);
                        }
                        Ok(None) => {}
                        Err(e) => {
                            error = Some(e);
                            return None;
                        }
                    }
                }
                None
            },
            jobs,
            SHRINK_BUDGET,
            |steps| progress.message(&format!("shrinking case {case}: {steps} steps")),
        );
        if let Some(e) = error {
            return Err(e);
        }
        Ok(Finding {
            case,
            family: family.to_string(),
            params,
            input: P::write_input(&input),
            expected: P::write_answer(&trusted(&input)),
            got,
            shrunk_input: P::write_input(&shrunk),
            shrunk_expected: P::write_answer(&trusted(&shrunk)),
            shrunk_got,
            shrink_steps: steps,
            shrink_complete: complete && !cancel.is_cancelled(),
            shrink_interrupted: cancel.is_cancelled(),
        })
    }
}
