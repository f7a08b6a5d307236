//! Running a submission on a test set, in parallel, in the sandbox.

pub mod cache;
#[cfg(test)]
mod fake_runs;
mod plan;
pub mod report;
mod seam;
pub mod submission;
pub mod tests;

use std::sync::mpsc;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use crate::verdict::{Verdict, describe_exit, judge};
use plan::{Next, Plan, Task};
use report::Row;
pub use seam::{AnswerFile, Checked, Checker, Runs};
use tests::Test;

use crate::cancel::Cancel;
use crate::error::{JudgeError, JuryError};
use crate::progress::Progress;
use crate::registry::{ProblemEntry, SolverKind};
use crate::session::Session;
use sandbox::{Exit, Finished, Limits};
use solutions::scan::MAX_INPUT_BYTES;

/// A test read once: its input and its answer file, which reads as an answer of the problem.
/// Everything that judges runs on a test set reads it through this, so no file is read twice.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub test: Test,
    pub input: Vec<u8>,
    pub answer: String,
}

/// Reads every test once and checks the jury's side before any submission runs: every input
/// is a valid input of the problem (canonical and within its constraints: an impossible or
/// malformed input would give a correct submission WA), every answer file reads as an answer
/// (a malformed one is the jury's mistake, never the contestant's WA) and, with `verify`, is
/// the reference solver's answer to its input. Each of these is a [`JuryError`] naming the
/// file (exit 2). An input is read up to [`MAX_INPUT_BYTES`] + 1 bytes: every valid input is
/// shorter, so a longer one is rejected where it is cut, and a huge file costs nothing.
pub fn load(
    problem: &dyn ProblemEntry,
    tests: Vec<Test>,
    verify: bool,
) -> Result<Vec<Loaded>, JudgeError> {
    tests
        .into_iter()
        .map(|test| {
            let input = read_input(&test.input)?;
            problem
                .validate(&input)
                .map_err(|error| JuryError::InvalidInput {
                    path: test.input.clone(),
                    error,
                })?;
            let bytes =
                std::fs::read(&test.answer).map_err(|source| JuryError::UnreadableAnswer {
                    path: test.answer.clone(),
                    source,
                })?;
            let malformed = |why: String| JuryError::MalformedAnswer {
                path: test.answer.clone(),
                why,
            };
            let answer = String::from_utf8(bytes)
                .map_err(|_| malformed("the answer file is not UTF-8 text".to_string()))?;
            problem
                .answer_file_reads(&answer)
                .map_err(|e| malformed(e.to_string()))?;
            if verify {
                let reference = problem
                    .solve(&input, SolverKind::Reference)
                    .map_err(|error| JuryError::InvalidInput {
                        path: test.input.clone(),
                        error,
                    })?;
                problem
                    .check(&reference, answer.as_bytes())
                    .map_err(|why| JuryError::AnswerDiffers {
                        path: test.answer.clone(),
                        input: test.input.clone(),
                        why: why
                            .to_string()
                            .replacen("expected", "the reference says", 1)
                            .replacen(", got", ", the file says", 1),
                    })?;
            }
            Ok(Loaded {
                test,
                input,
                answer,
            })
        })
        .collect()
}

/// A test's input, at most [`MAX_INPUT_BYTES`] + 1 bytes of it; unreadable: a jury error.
fn read_input(path: &std::path::Path) -> Result<Vec<u8>, JuryError> {
    use std::io::Read;
    let unreadable = |source| JuryError::UnreadableInput {
        path: path.to_path_buf(),
        source,
    };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(unreadable)?
        .take(MAX_INPUT_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    Ok(bytes)
}

/// A finished run, judged.
struct Judged {
    row: Row,
    /// A TLE that load could have caused ([`load_sensitive`]).
    load_sensitive: bool,
}

/// Runs `test` in `slot` and judges it; `None` if the run was stopped (`stop`) before it
/// finished.
fn run_one(
    judging: &Judging,
    slot: usize,
    test: &Loaded,
    stop: &Cancel,
) -> Result<Option<Judged>, JudgeError> {
    let finished = judging
        .runs
        .run_test(slot, test, judging.limits, stop.flag())
        .map_err(|e| JudgeError::sandbox(format!("running test {}", test.test.name), e))?;
    if finished.interrupted {
        return Ok(None);
    }
    // The checker's own failure (a jury error) is kept aside: the verdict rule asks the
    // checker only when the run ended well.
    let mut checker_failed = None;
    let (verdict, message) = judge(&finished, judging.limits, |out| {
        match judging.checker.check(test, out) {
            Ok(Checked::Accepted) => Ok(()),
            Ok(Checked::Rejected(why)) => Err(why),
            Err(e) => {
                checker_failed = Some(e);
                Ok(())
            }
        }
    });
    if let Some(e) = checker_failed {
        return Err(e);
    }
    // What a failing submission wrote, for the reports; 16 KiB of each is plenty to show.
    let kept = |bytes: &[u8]| {
        if verdict == Verdict::AC {
            String::new()
        } else {
            String::from_utf8_lossy(&bytes[..bytes.len().min(16 << 10)]).into_owned()
        }
    };
    Ok(Some(Judged {
        load_sensitive: load_sensitive(&finished, verdict, judging.limits),
        row: Row {
            stdout: kept(&finished.stdout),
            stderr: kept(&finished.stderr),
            test: test.test.name.clone(),
            verdict,
            cpu_ms: finished.cpu.as_millis() as u64,
            wall_ms: finished.wall.as_millis() as u64,
            peak_kb: finished.peak_kb,
            exit: describe_exit(&finished.exit),
            message,
        },
    }))
}

/// Could a busy machine have caused this TLE, so that it is run again alone before it
/// stands? Not when the run was stopped at its CPU limit (by the sandbox's CPU gauge or the
/// kernel's SIGXCPU): CPU time does not depend on load, and a run that used the whole limit
/// would only use it again (an endless loop costs one limit per test, not two). Yes when the
/// wall clock stopped it, or it ended on its own over the limit, with a CPU time near the
/// limit (a run that mostly slept, far under it, would only time out again).
pub fn load_sensitive(finished: &Finished, verdict: Verdict, limits: &Limits) -> bool {
    let stopped_at_cpu_limit =
        finished.cpu_exceeded || finished.exit == Exit::Signal(libc::SIGXCPU);
    let (cpu, limit) = (finished.cpu.as_millis(), limits.cpu.as_millis());
    verdict == Verdict::TLE && !stopped_at_cpu_limit && cpu * 2 >= limit && cpu * 2 < limit * 3
}

/// Which run of a test a row comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The test's run among the parallel ones; `rerun`: a TLE that load could have caused,
    /// which is run again alone (the row that stands comes as [`Stage::Rerun`]).
    First { rerun: bool },
    /// The run alone of such a TLE: this row stands.
    Rerun,
}

/// The order tests run in: a permutation drawn from the kernel's random source for every
/// call, never shown or reported. Whatever a run can observe of the runs before it (how much of
/// a shared library is in the page cache, global counters) then tells it how many runs came
/// before, not which test it is on: run 17 is a different test in every invocation.
pub fn secret_order(n: usize) -> Vec<usize> {
    let mut state = getrandom::u64().unwrap_or_else(|_| {
        // No kernel randomness (never on Linux ≥ 3.17): the clock, still unknown in advance.
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            ^ u64::from(std::process::id()) << 32
    });
    let mut next = move || {
        // SplitMix64.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// When a run of a test set stops before its last test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Every test runs (unless interrupted).
    Never,
    /// At the first non-AC test in test order, as Kattis and DOMjudge judge lazily: the rows
    /// are every test up to and including it, whatever the number of slots (a later test that
    /// ran in parallel is dropped, an earlier one always runs), so the result is the one of a
    /// run with one slot. Cheap: the tests after a failure that stands are stopped where they
    /// are and none starts ([`plan`]).
    AtFirstFailure,
}

/// What judging one program's runs takes: the program ([`Runs`]), its checker, the limits,
/// where progress goes and what stops it. Made by [`Session::judging`].
pub struct Judging<'a> {
    pub runs: &'a dyn Runs,
    pub checker: &'a dyn Checker,
    pub limits: &'a Limits,
    pub progress: &'a dyn Progress,
    pub cancel: &'a Cancel,
}

impl<'a> Session<'a> {
    /// What the runner needs to judge one program's runs with `checker` in this session.
    pub fn judging<'b>(&'b self, runs: &'b dyn Runs, checker: &'b dyn Checker) -> Judging<'b>
    where
        'a: 'b,
    {
        Judging {
            runs,
            checker,
            limits: &self.limits,
            progress: self.progress,
            cancel: &self.cancel,
        }
    }
}

/// What sees each row as it stands: `(test index, row, stage)`. An `Err` (standard output
/// closed under the rows being printed) stops the run and is returned.
pub type OnRow<'a> = dyn FnMut(usize, &Row, Stage) -> Result<(), JudgeError> + 'a;

/// Runs every test, `runs.slots()` at a time, in a secret random order ([`secret_order`]); a
/// TLE that load could have caused is run again alone before it stands. Returns the rows that
/// stand, in test order (all of them unless interrupted).
pub fn run_all(judging: &Judging, tests: &[Loaded]) -> Result<Vec<Row>, JudgeError> {
    run_tests(judging, tests, Stop::Never, &mut |_, _, _| Ok(()))
}

/// [`run_all`], stopping as `stop` says ([`plan`] has the rules). `on_row` sees every first
/// run's row **in test order** (a row once every test before it is done, whatever order they
/// ran in), and every run alone's row as it finishes; so what is printed and reported never
/// depends on the order. With [`Stop::AtFirstFailure`] it may also see rows of tests after
/// the failure that ran in parallel and are dropped. Returns the rows that stand, in test
/// order: with [`Stop::AtFirstFailure`] those up to the first failure; interrupted, those
/// that finished.
pub fn run_tests(
    judging: &Judging,
    tests: &[Loaded],
    stop: Stop,
    on_row: &mut OnRow,
) -> Result<Vec<Row>, JudgeError> {
    let slots = judging.runs.slots().max(1);
    let shared = Mutex::new(Shared {
        plan: Plan::new(&secret_order(tests.len()), stop, slots),
        running: vec![None; slots],
    });
    let changed = Condvar::new();
    // Cancelled on the first error, stopping this run's workers (not the whole command's).
    let local = judging.cancel.child();
    // Each finished run, with whether it is held for a run alone; the plan knows it already.
    let (sender, receiver) = mpsc::channel::<(Task, Result<Option<Judged>, JudgeError>, bool)>();
    let mut rows: Vec<Option<Row>> = vec![None; tests.len()];
    // First runs finished, not yet handed to `on_row` in test order, each with whether it is
    // held for a run alone.
    let mut finished: Vec<Option<(Judged, bool)>> = (0..tests.len()).map(|_| None).collect();
    let mut delivered = 0;
    let mut done = 0;
    let mut first_error = None;
    std::thread::scope(|scope| {
        for slot in 0..slots.min(tests.len()) {
            let sender = sender.clone();
            let (shared, changed, local) = (&shared, &changed, &local);
            scope.spawn(move || {
                while let Some((task, stop_this)) = take_task(shared, changed, local, slot) {
                    if let Task::Alone(i) = task {
                        judging
                            .progress
                            .message(&format!("re-running {} alone", tests[i].test.name));
                    }
                    let result = run_one(judging, slot, &tests[task.test()], &stop_this);
                    // The plan learns of the run before this worker asks it for the next:
                    // nothing starts on a plan that is behind.
                    let held = finish(shared, changed, slot, task, &result);
                    if result.is_err() {
                        local.cancel();
                    }
                    if sender.send((task, result, held)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (task, result, held) in receiver {
            let judged = match result {
                Ok(judged) => judged,
                Err(e) => {
                    first_error.get_or_insert(e);
                    None
                }
            };
            if first_error.is_some() {
                continue;
            }
            let Some(judged) = judged else { continue };
            let handed = match task {
                Task::First(i) => {
                    done += 1;
                    judging.progress.set(done);
                    finished[i] = Some((judged, held));
                    let mut handed = Ok(());
                    while let Some((judged, rerun)) =
                        finished.get_mut(delivered).and_then(Option::take)
                    {
                        handed = handed
                            .and_then(|()| on_row(delivered, &judged.row, Stage::First { rerun }));
                        rows[delivered] = Some(judged.row);
                        delivered += 1;
                    }
                    handed
                }
                Task::Alone(i) => {
                    let mut row = judged.row;
                    row.message = if row.message.is_empty() {
                        "re-run alone".to_string()
                    } else {
                        format!("{} (re-run alone)", row.message)
                    };
                    let handed = on_row(i, &row, Stage::Rerun);
                    rows[i] = Some(row);
                    handed
                }
            };
            if let Err(e) = handed {
                first_error = Some(e);
                local.cancel();
            }
        }
    });
    if let Some(e) = first_error {
        return Err(e);
    }
    // Interrupted (or stopped at a failure with later rows left over): the rows that did
    // finish, still in test order.
    for (i, judged) in finished.into_iter().enumerate() {
        if let Some((judged, rerun)) = judged {
            on_row(i, &judged.row, Stage::First { rerun })?;
            rows[i] = Some(judged.row);
        }
    }
    if !judging.cancel.is_cancelled() {
        let reported = lock(&shared).plan.reported();
        rows.truncate(reported);
    }
    Ok(rows.into_iter().flatten().collect())
}

/// Tells the plan how `task` (run in `slot`) went, stops the runs it says to stop and wakes the
/// workers waiting for it; returns whether the test is held for a run alone.
fn finish(
    shared: &Mutex<Shared>,
    changed: &Condvar,
    slot: usize,
    task: Task,
    result: &Result<Option<Judged>, JudgeError>,
) -> bool {
    let mut shared = lock(shared);
    shared.running[slot] = None;
    let outcome = match result {
        Ok(Some(judged)) => Some(plan::Outcome {
            failed: judged.row.verdict != Verdict::AC,
            load_sensitive: judged.load_sensitive,
        }),
        _ => None,
    };
    for stopped in shared.plan.finished(task, outcome) {
        for (test, token) in shared.running.iter().flatten() {
            if *test == stopped {
                token.cancel();
            }
        }
    }
    changed.notify_all();
    shared.plan.held_for_rerun(task.test())
}

/// The runner's state shared by its workers: the plan, and what each slot runs (the test
/// and what stops that run alone).
struct Shared {
    plan: Plan,
    running: Vec<Option<(usize, Cancel)>>,
}

fn lock(shared: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    // A worker that panicked left the plan as it was: the others may go on with it.
    shared.lock().unwrap_or_else(|e| e.into_inner())
}

/// The next task for `slot` and what stops it, once the plan has one; `None` when the plan is
/// done or the run was stopped.
fn take_task(
    shared: &Mutex<Shared>,
    changed: &Condvar,
    local: &Cancel,
    slot: usize,
) -> Option<(Task, Cancel)> {
    let mut guard = lock(shared);
    loop {
        if local.is_cancelled() {
            return None;
        }
        match guard.plan.next() {
            Next::Start(task) => {
                let token = local.child();
                guard.running[slot] = Some((task.test(), token.clone()));
                return Some((task, token));
            }
            Next::Wait => {
                // Woken when a run finishes; the timeout only notices an interruption.
                guard = changed
                    .wait_timeout(guard, Duration::from_millis(50))
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
            Next::Done => {
                changed.notify_all();
                return None;
            }
        }
    }
}

/// The rows of a submission that did not build: CE on every test, the compiler's message as
/// each row's standard error.
pub fn compile_error_rows(tests: &[Loaded], message: &str) -> Vec<Row> {
    tests
        .iter()
        .map(|test| Row {
            test: test.test.name.clone(),
            verdict: Verdict::CE,
            cpu_ms: 0,
            wall_ms: 0,
            peak_kb: 0,
            exit: String::new(),
            message: "compile error".to_string(),
            stdout: String::new(),
            stderr: message.to_string(),
        })
        .collect()
}

/// The default wall-clock allowance for a CPU limit.
pub fn default_limits(time_limit: f64, memory_mb: u64) -> Limits {
    Limits::new(Duration::from_secs_f64(time_limit), memory_mb)
}

#[cfg(test)]
mod order_tests {
    use super::secret_order;

    #[test]
    fn the_order_is_a_permutation_and_differs_between_calls() {
        let a = secret_order(50);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        // 50! orders: two equal draws (or the identity) mean the randomness is broken.
        assert_ne!(a, secret_order(50));
        assert_ne!(a, (0..50).collect::<Vec<_>>());
        assert!(secret_order(0).is_empty());
        assert_eq!(secret_order(1), [0]);
    }
}
