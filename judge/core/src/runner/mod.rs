//! Running a submission on a test set, in parallel, in the sandbox.

pub mod cache;
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
use crate::error::{JudgeError, JuryError};
use crate::progress::Progress;
use crate::registry::{ProblemEntry, SolverKind};
use sandbox::{Limits, Sandbox};
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

/// Runs `test` in `slot` and judges it; `None` if the run was interrupted.
pub fn run_one(
    problem: &dyn ProblemEntry,
    sandbox: &Sandbox,
    slot: usize,
    test: &Loaded,
    limits: &Limits,
    cancel: &Cancel,
) -> Result<Option<Row>, JudgeError> {
    let finished = sandbox
        .run(slot, &test.input, limits, cancel.flag())
        .map_err(|e| JudgeError::sandbox(format!("running test {}", test.test.name), e))?;
    if finished.interrupted {
        return Ok(None);
    }
    let (verdict, message) = judge(&finished, limits, |out| problem.check(&test.answer, out));
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
        test: test.test.name.clone(),
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
fn near_limit(row: &Row, limits: &Limits) -> bool {
    let (cpu, limit) = (u128::from(row.cpu_ms), limits.cpu.as_millis());
    row.verdict == Verdict::TLE && cpu * 2 >= limit && cpu * 2 < limit * 3
}

/// Which run of a test a row comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The test's run among the parallel ones; `rerun`: a TLE near the limit, which is run
    /// again alone once every test is done (the row that stands comes as [`Stage::Rerun`]).
    First { rerun: bool },
    /// The run alone of a TLE near the limit: this row stands.
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
    /// run with one slot.
    AtFirstFailure,
}

/// Runs every test with `sandbox.slots()` in parallel, in a secret random order
/// ([`secret_order`]). A TLE near the limit is re-run alone before it stands (with more than
/// one slot: the rule lives here only). `on_row` sees every row **in test order** (a row once
/// every test before it is done, whatever order they ran in), then every re-run's in test
/// order; so what is printed and reported never depends on the order. Returns the rows that
/// stand, in test order (all of them unless interrupted).
pub fn run_all(
    problem: &dyn ProblemEntry,
    sandbox: &Sandbox,
    tests: &[Loaded],
    limits: &Limits,
    progress: &Progress,
    cancel: &Cancel,
    on_row: &mut dyn FnMut(usize, &Row, Stage),
) -> Result<Vec<Row>, JudgeError> {
    run_tests(
        problem,
        sandbox,
        tests,
        limits,
        Stop::Never,
        progress,
        cancel,
        on_row,
    )
}

/// [`run_all`], stopping as `stop` says. With [`Stop::AtFirstFailure`] the rows are the tests
/// up to the first that fails (a TLE near the limit is re-run alone before it counts as that
/// failure), and `on_row` also sees rows of later tests that ran in parallel and are dropped.
/// The tests still run in a secret order: a test after a failing one that is known starts no
/// more, but one may run before the failure is known (and is then dropped).
#[allow(clippy::too_many_arguments)]
pub fn run_tests(
    problem: &dyn ProblemEntry,
    sandbox: &Sandbox,
    tests: &[Loaded],
    limits: &Limits,
    stop: Stop,
    progress: &Progress,
    cancel: &Cancel,
    on_row: &mut dyn FnMut(usize, &Row, Stage),
) -> Result<Vec<Row>, JudgeError> {
    let mut rows: Vec<Option<Row>> = vec![None; tests.len()];
    let parallel = sandbox.slots() > 1;
    let first_failure = |rows: &[Option<Row>], from: usize| {
        (from..rows.len()).find(|&i| rows[i].as_ref().is_some_and(|r| r.verdict != Verdict::AC))
    };
    let mut start = 0;
    loop {
        let pending: Vec<usize> = (start..tests.len())
            .filter(|&i| rows[i].is_none())
            .collect();
        // With Stop::AtFirstFailure no test after a failing one is started.
        let bound = match stop {
            Stop::Never => usize::MAX,
            Stop::AtFirstFailure => first_failure(&rows, start).unwrap_or(usize::MAX),
        };
        run_phase(
            problem, sandbox, tests, &pending, bound, stop, limits, progress, cancel, &mut rows,
            on_row,
        )?;
        if stop == Stop::Never || cancel.is_cancelled() {
            break;
        }
        let Some(failed) = first_failure(&rows, 0) else {
            break;
        };
        let row = rows[failed].as_ref().expect("found above");
        if parallel
            && near_limit(row, limits)
            && let Some(again) = rerun_alone(problem, sandbox, &tests[failed], limits, cancel)?
        {
            on_row(failed, &again, Stage::Rerun);
            let passed = again.verdict == Verdict::AC;
            rows[failed] = Some(again);
            if passed {
                // Not a failure after all: the tests after it run now.
                start = failed + 1;
                continue;
            }
        }
        for later in &mut rows[failed + 1..] {
            *later = None;
        }
        break;
    }
    if stop == Stop::Never && parallel && !cancel.is_cancelled() {
        for (i, test) in tests.iter().enumerate() {
            if rows[i].as_ref().is_some_and(|r| near_limit(r, limits)) {
                progress.message(&format!("re-running {} alone", test.test.name));
                if let Some(again) = rerun_alone(problem, sandbox, test, limits, cancel)? {
                    on_row(i, &again, Stage::Rerun);
                    rows[i] = Some(again);
                }
            }
        }
    }
    Ok(rows.into_iter().flatten().collect())
}

/// A TLE near the limit run again alone (slot 0; every other slot is idle), marked so.
fn rerun_alone(
    problem: &dyn ProblemEntry,
    sandbox: &Sandbox,
    test: &Loaded,
    limits: &Limits,
    cancel: &Cancel,
) -> Result<Option<Row>, JudgeError> {
    let again = run_one(problem, sandbox, 0, test, limits, cancel)?;
    Ok(again.map(|mut again| {
        again.message = if again.message.is_empty() {
            "re-run alone".to_string()
        } else {
            format!("{} (re-run alone)", again.message)
        };
        again
    }))
}

/// Runs the tests `pending` (indices, increasing) on every slot at once into `rows`, in a
/// secret order, handing each row to `on_row` once every pending test before it is done
/// (so in test order). With [`Stop::AtFirstFailure`] no test after the lowest failing one
/// known (at first `bound`) starts.
#[allow(clippy::too_many_arguments)]
fn run_phase(
    problem: &dyn ProblemEntry,
    sandbox: &Sandbox,
    tests: &[Loaded],
    pending: &[usize],
    bound: usize,
    stop: Stop,
    limits: &Limits,
    progress: &Progress,
    cancel: &Cancel,
    rows: &mut [Option<Row>],
    on_row: &mut dyn FnMut(usize, &Row, Stage),
) -> Result<(), JudgeError> {
    let order: Vec<usize> = secret_order(pending.len())
        .into_iter()
        .map(|k| pending[k])
        .collect();
    let next = AtomicUsize::new(0);
    let bound = AtomicUsize::new(bound);
    let (sender, receiver) = mpsc::channel::<(usize, Result<Option<Row>, JudgeError>)>();
    let mut first_error = None;
    let parallel = sandbox.slots() > 1;
    // Finished (by position in `pending`), not yet handed to `on_row` in test order.
    let mut finished: Vec<Option<Option<Row>>> = vec![None; pending.len()];
    let mut delivered = 0;
    let done_before = rows.iter().filter(|r| r.is_some()).count();
    let mut done = 0;
    let mut deliver = |i: usize, row: Option<Row>, rows: &mut [Option<Row>]| {
        if let Some(row) = &row {
            let rerun = parallel && near_limit(row, limits);
            on_row(i, row, Stage::First { rerun });
        }
        rows[i] = row;
    };
    std::thread::scope(|scope| {
        for slot in 0..sandbox.slots().min(pending.len()) {
            let sender = sender.clone();
            let (next, bound, order) = (&next, &bound, &order);
            scope.spawn(move || {
                loop {
                    if cancel.is_cancelled() {
                        break;
                    }
                    let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    if i > bound.load(Ordering::SeqCst) {
                        // After a known failure: not run (a later one in the order may be
                        // before it).
                        continue;
                    }
                    let result = run_one(problem, sandbox, slot, &tests[i], limits, cancel);
                    let failed = result.is_err();
                    if sender.send((i, result)).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (i, result) in receiver {
            match result {
                Ok(row) => {
                    if let Some(row) = &row
                        && stop == Stop::AtFirstFailure
                        && row.verdict != Verdict::AC
                    {
                        bound.fetch_min(i, Ordering::SeqCst);
                    }
                    done += 1;
                    progress.set((done_before + done) as u64);
                    let at = pending.binary_search(&i).expect("a pending test");
                    finished[at] = Some(row);
                    while let Some(row) = finished.get_mut(delivered).and_then(Option::take) {
                        deliver(pending[delivered], row, rows);
                        delivered += 1;
                    }
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
    // Interrupted, or stopped at a failure: the rows that did finish, still in test order.
    for (at, row) in finished.into_iter().enumerate() {
        if let Some(row) = row {
            deliver(pending[at], row, rows);
        }
    }
    Ok(())
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
