//! The one stress loop, for every kind of [`Search`]: a built-in problem's (its families and
//! a [`Candidate`]) or a package's (`package_stress`: a generator program, a reference and
//! a submission). Cases go in rounds of consecutive indices, split into tasks over `jobs`
//! threads; a round's lowest failing index is the finding, so the result does not depend on
//! the number of jobs. The finding is then shrunk by the search's own steps (a built-in
//! problem's [`generators::shrink`], a package's [`super::shrink_generic`]), every step
//! re-checked.

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

/// What one stress run searches: its cases in index order, how one is judged, and how a
/// failing one is shrunk. [`search`] runs it.
pub trait Search: Sync {
    /// One case's input.
    type Input;
    /// What a task (a run of consecutive cases on one thread) keeps from case to case.
    type Task<'s>
    where
        Self: 's;

    /// Consecutive cases per parallel task: many when a case costs microseconds (in process),
    /// one when it costs a process.
    fn cases_per_task(&self) -> u64;

    /// A task's state, new.
    fn task(&self) -> Self::Task<'_>;

    /// The input of global case `case`. `Err` is the judge's or the jury's failure (a
    /// generator that fails, an input its validators reject), never a finding.
    fn input(&self, task: &mut Self::Task<'_>, case: u64) -> Result<Self::Input, JudgeError>;

    /// `None` when the candidate answers `input` right; else what it printed (or why it
    /// failed). `slot` (below the run's number of jobs) is the worker asking.
    fn failure(&self, slot: usize, input: &Self::Input) -> Result<Option<String>, JudgeError>;

    /// Shrinks failing case `case` (the candidate printed `got`), judging up to the session's
    /// jobs variants at a time on `pool`, and describes it.
    fn shrink(
        &self,
        case: u64,
        got: String,
        pool: &rayon::ThreadPool,
        session: &Session,
    ) -> Result<Finding, JudgeError>;
}

/// The worker threads of a run: `jobs` of them (a submission's sandbox has that many slots).
pub fn pool(jobs: usize) -> Result<rayon::ThreadPool, JudgeError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| JudgeError::sandbox("starting worker threads", std::io::Error::other(e)))
}

/// One stress run of a built-in problem: what it compares, on which cases, with what.
struct Driver<'a, P: Generate> {
    budget: Budget,
    trusted: fn(&P::Input) -> P::Answer,
    candidate: &'a dyn Candidate<P>,
    strongest: &'a Strongest<P>,
    families: Vec<generators::Family<P>>,
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
    let pool = pool(session.jobs)?;
    let driver = Driver {
        budget,
        trusted,
        candidate,
        strongest,
        families: P::families(),
    };
    search(budget, &driver, &pool, session)
}

impl<'a, P: Generate> Search for Driver<'a, P> {
    type Input = P::Input;
    // Consecutive cases share their generated position (its images).
    type Task<'s>
        = ImageCases<'s, P>
    where
        Self: 's;

    fn cases_per_task(&self) -> u64 {
        self.candidate.cases_per_task()
    }

    fn task(&self) -> ImageCases<'_, P> {
        ImageCases::new(&self.families, self.budget.seed)
    }

    fn input(&self, images: &mut ImageCases<'_, P>, case: u64) -> Result<P::Input, JudgeError> {
        let strongest = self.strongest;
        Ok(match strongest.get(case as usize) {
            Some((input, _, _)) => input.clone(),
            None if self.candidate.images() => images.input(case - strongest.len() as u64),
            None => {
                mixed_case(
                    &self.families,
                    case - strongest.len() as u64,
                    self.budget.seed,
                )
                .0
            }
        })
    }

    fn failure(&self, slot: usize, input: &P::Input) -> Result<Option<String>, JudgeError> {
        self.candidate.failure(slot, input, &(self.trusted)(input))
    }

    fn shrink(
        &self,
        case: u64,
        got: String,
        pool: &rayon::ThreadPool,
        session: &Session,
    ) -> Result<Finding, JudgeError> {
        self.shrink_case(case, got, pool, session)
    }
}

/// Runs the cases of `budget` in rounds until the budget is spent or a case fails; shrinks a
/// failure. `pool` has the session's jobs threads.
pub fn search<S: Search>(
    budget: Budget,
    search: &S,
    pool: &rayon::ThreadPool,
    session: &Session,
) -> Result<Summary, JudgeError> {
    let (progress, cancel) = (session.progress, &session.cancel);
    let per_task = search.cases_per_task();
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
                let mut state = search.task();
                for i in first..stop {
                    if i >= lowest.load(Ordering::Relaxed) || cancel.is_cancelled() {
                        break;
                    }
                    let case = budget.shard.stress_case(i);
                    let judged = search
                        .input(&mut state, case)
                        .and_then(|input| search.failure(slot, &input));
                    match judged {
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
        Some((i, got)) => Some(search.shrink(budget.shard.stress_case(i), got, pool, session)?),
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

impl<P: Generate> Driver<'_, P> {
    /// Shrinks the failing case `case` and describes it, judging `jobs` shrink variants at a
    /// time.
    fn shrink_case(
        &self,
        case: u64,
        got: String,
        pool: &rayon::ThreadPool,
        session: &Session,
    ) -> Result<Finding, JudgeError> {
        let Driver {
            budget,
            trusted,
            candidate,
            strongest,
            ref families,
            ..
        } = *self;
        let (progress, cancel, jobs) = (session.progress, &session.cancel, session.jobs);
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
