//! The runner's policy against a fake program ([`Runs`]) that does what each test tells it
//! and counts what it was asked: the TLE re-run rule, stopping at the first failure, the
//! secret order and the order rows are reported in, without a sandbox or a clock.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use sandbox::{Exit, Finished, Limits};

use super::tests::Test;
use super::{Checked, Checker, Judging, Loaded, Runs, Stage, Stop, run_all, run_tests};
use crate::cancel::Cancel;
use crate::error::JudgeError;
use crate::progress::Hidden;
use crate::verdict::Verdict;

/// What a fake run does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Act {
    /// Prints the answer.
    Pass,
    /// Prints something else.
    Wrong,
    /// An endless loop the CPU gauge stopped just past the limit.
    StoppedAtCpuLimit,
    /// Killed by the SIGXCPU of RLIMIT_CPU (no CPU gauge).
    Sigxcpu,
    /// The wall clock stopped it with 80% of the limit used: load could have done it.
    WallNearLimit,
    /// Ended by itself with 120% of the limit used: load could have done it.
    OverLimitUnstopped,
    /// The wall clock stopped it with 10% of the limit used: it slept.
    Slept,
    /// Runs until it is stopped (at most 30 s, then as [`Act::StoppedAtCpuLimit`]).
    UntilStopped,
    /// The sandbox fails.
    Broken,
}

const LIMIT: Duration = Duration::from_millis(1000);

/// A run the fake was asked for.
#[derive(Clone, Debug)]
struct Started {
    test: usize,
    /// Other runs going on when it started.
    alongside: usize,
    /// Stopped by the runner before it finished.
    stopped: bool,
}

struct Fake {
    slots: usize,
    /// `act(test, how many runs of it came before)`.
    act: Box<dyn Fn(usize, usize) -> Act + Sync>,
    /// Each run lasts this long unless stopped (so that runs overlap).
    takes: Duration,
    log: Mutex<Vec<Started>>,
    going: AtomicUsize,
}

impl Fake {
    fn new(slots: usize, act: impl Fn(usize, usize) -> Act + Sync + 'static) -> Fake {
        Fake {
            slots,
            act: Box::new(act),
            takes: Duration::ZERO,
            log: Mutex::new(Vec::new()),
            going: AtomicUsize::new(0),
        }
    }

    fn taking(mut self, takes: Duration) -> Fake {
        self.takes = takes;
        self
    }

    fn started(&self) -> Vec<Started> {
        self.log.lock().unwrap().clone()
    }

    fn runs_of(&self, test: usize) -> usize {
        self.started().iter().filter(|s| s.test == test).count()
    }
}

fn finished(exit: Exit, cpu: Duration, wall: Duration) -> Finished {
    Finished {
        exit,
        cpu,
        wall,
        peak_kb: 1024,
        stdout: Vec::new(),
        stderr: Vec::new(),
        output_exceeded: false,
        wall_exceeded: false,
        cpu_exceeded: false,
        memory_exceeded: false,
        interrupted: false,
    }
}

impl Runs for Fake {
    fn slots(&self) -> usize {
        self.slots
    }

    fn run_test(
        &self,
        _slot: usize,
        test: &Loaded,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> std::io::Result<Finished> {
        let index: usize = test.test.name[1..].parse().unwrap();
        let entry = {
            let mut log = self.log.lock().unwrap();
            let before = log.iter().filter(|s| s.test == index).count();
            let alongside = self.going.fetch_add(1, Ordering::SeqCst);
            log.push(Started {
                test: index,
                alongside,
                stopped: false,
            });
            (log.len() - 1, (self.act)(index, before))
        };
        let (at, act) = entry;
        let until = Instant::now()
            + if act == Act::UntilStopped {
                Duration::from_secs(30)
            } else {
                self.takes
            };
        let mut stopped = false;
        while Instant::now() < until {
            if stop.load(Ordering::SeqCst) {
                stopped = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        self.going.fetch_sub(1, Ordering::SeqCst);
        if stopped {
            self.log.lock().unwrap()[at].stopped = true;
            let mut run = finished(Exit::Signal(libc::SIGKILL), Duration::ZERO, Duration::ZERO);
            run.interrupted = true;
            return Ok(run);
        }
        let cpu = |percent: u32| limits.cpu * percent / 100;
        let wall = limits.wall;
        Ok(match act {
            Act::Pass | Act::Wrong => {
                let mut run = finished(Exit::Code(0), cpu(1), cpu(1));
                run.stdout = if act == Act::Pass {
                    test.answer.clone().into_bytes()
                } else {
                    b"something else\n".to_vec()
                };
                run
            }
            Act::StoppedAtCpuLimit | Act::UntilStopped => {
                let mut run = finished(Exit::Signal(libc::SIGKILL), cpu(101), cpu(101));
                run.cpu_exceeded = true;
                run
            }
            Act::Sigxcpu => finished(Exit::Signal(libc::SIGXCPU), cpu(110), cpu(110)),
            Act::WallNearLimit => {
                let mut run = finished(Exit::Signal(libc::SIGKILL), cpu(80), wall);
                run.wall_exceeded = true;
                run
            }
            Act::OverLimitUnstopped => finished(Exit::Code(0), cpu(120), cpu(120)),
            Act::Slept => {
                let mut run = finished(Exit::Signal(libc::SIGKILL), cpu(10), wall);
                run.wall_exceeded = true;
                run
            }
            Act::Broken => return Err(std::io::Error::other("the fake sandbox broke")),
        })
    }
}

/// Right when the output is the answer file's text.
struct SameText;

impl Checker for SameText {
    fn check(&self, test: &Loaded, output: &[u8]) -> Result<Checked, JudgeError> {
        Ok(if output == test.answer.as_bytes() {
            Checked::Accepted
        } else {
            Checked::Rejected("not the answer".to_string())
        })
    }
}

fn tests(n: usize) -> Vec<Loaded> {
    (0..n)
        .map(|i| Loaded {
            test: Test {
                name: format!("t{i:03}"),
                input: PathBuf::from(format!("t{i:03}.in")),
                answer: PathBuf::from(format!("t{i:03}.ans")),
            },
            input: format!("{i}\n").into_bytes(),
            answer: format!("answer {i}\n"),
        })
        .collect()
}

/// Judges `fake` on `n` tests; every row `on_row` saw (test index, verdict, stage), and the
/// rows that stand.
#[allow(clippy::type_complexity)]
fn judge(
    fake: &Fake,
    n: usize,
    stop: Stop,
) -> (
    Vec<(usize, Verdict, Stage)>,
    Result<Vec<super::report::Row>, JudgeError>,
) {
    let limits = Limits::new(LIMIT, 64);
    let cancel = Cancel::new();
    let judging = Judging {
        runs: fake,
        checker: &SameText,
        limits: &limits,
        progress: &Hidden,
        cancel: &cancel,
    };
    let mut seen = Vec::new();
    let rows = run_tests(&judging, &tests(n), stop, &mut |i, row, stage| {
        seen.push((i, row.verdict, stage));
        Ok(())
    });
    (seen, rows)
}

fn verdicts(rows: &[super::report::Row]) -> Vec<Verdict> {
    rows.iter().map(|r| r.verdict).collect()
}

#[test]
fn a_tle_stopped_at_its_cpu_limit_is_not_run_again() {
    for act in [Act::StoppedAtCpuLimit, Act::Sigxcpu] {
        let fake = Fake::new(2, move |_, _| act);
        let (seen, rows) = judge(&fake, 8, Stop::Never);
        let rows = rows.unwrap();
        assert_eq!(verdicts(&rows), [Verdict::TLE; 8], "{act:?}");
        // Each test once: an endless loop costs one limit per test.
        assert_eq!(fake.started().len(), 8, "{act:?}");
        assert!(
            rows.iter().all(|r| !r.message.contains("re-run")),
            "{act:?}"
        );
        assert!(
            seen.iter()
                .all(|(_, _, s)| *s == Stage::First { rerun: false }),
            "{act:?}: {seen:?}"
        );
    }
}

#[test]
fn a_tle_load_could_have_caused_is_run_again_alone_and_that_run_stands() {
    for act in [Act::WallNearLimit, Act::OverLimitUnstopped] {
        // Test 3 times out near the limit on its first run and passes alone.
        let fake = Fake::new(3, move |test, before| match (test, before) {
            (3, 0) => act,
            _ => Act::Pass,
        })
        .taking(Duration::from_millis(2));
        let (seen, rows) = judge(&fake, 8, Stop::Never);
        let rows = rows.unwrap();
        assert_eq!(verdicts(&rows), [Verdict::AC; 8], "{act:?}");
        assert_eq!(rows[3].message, "re-run alone");
        assert_eq!(fake.runs_of(3), 2);
        let again = fake.started().into_iter().rfind(|s| s.test == 3).unwrap();
        assert_eq!(again.alongside, 0, "{act:?}: the re-run was not alone");
        // Held back first, then the run alone's row.
        assert!(seen.contains(&(3, Verdict::TLE, Stage::First { rerun: true })));
        assert_eq!(seen.last(), Some(&(3, Verdict::AC, Stage::Rerun)));
    }
}

#[test]
fn a_run_that_slept_or_ran_alone_already_is_not_run_again() {
    // Far under the CPU limit: it slept, and would only time out again.
    let fake = Fake::new(2, |test, _| if test == 1 { Act::Slept } else { Act::Pass });
    let rows = judge(&fake, 4, Stop::Never).1.unwrap();
    assert_eq!(rows[1].verdict, Verdict::TLE);
    assert_eq!(fake.runs_of(1), 1);
    // With one slot every run is alone already.
    let fake = Fake::new(1, |test, _| {
        if test == 1 {
            Act::WallNearLimit
        } else {
            Act::Pass
        }
    });
    let rows = judge(&fake, 4, Stop::Never).1.unwrap();
    assert_eq!(rows[1].verdict, Verdict::TLE);
    assert_eq!(fake.runs_of(1), 1);
}

#[test]
fn rows_come_in_test_order_whatever_order_the_runs_finish_in() {
    // Four slots, runs of random lengths: they finish out of order.
    let fake = Fake::new(
        4,
        |test, _| {
            if test % 5 == 2 { Act::Wrong } else { Act::Pass }
        },
    )
    .taking(Duration::from_millis(3));
    let (seen, rows) = judge(&fake, 30, Stop::Never);
    let rows = rows.unwrap();
    let indices: Vec<usize> = seen.iter().map(|(i, _, _)| *i).collect();
    assert_eq!(indices, (0..30).collect::<Vec<_>>());
    let names: Vec<&str> = rows.iter().map(|r| r.test.as_str()).collect();
    let expected: Vec<String> = (0..30).map(|i| format!("t{i:03}")).collect();
    assert_eq!(names, expected);
    assert_eq!(rows[2].verdict, Verdict::WA);
    assert_eq!(rows[2].message, "not the answer");
}

#[test]
fn the_tests_start_in_a_secret_order_that_differs_between_runs() {
    let order = || {
        let fake = Fake::new(1, |_, _| Act::Pass);
        judge(&fake, 40, Stop::Never).1.unwrap();
        fake.started().iter().map(|s| s.test).collect::<Vec<_>>()
    };
    let (a, b) = (order(), order());
    let mut sorted = a.clone();
    sorted.sort();
    assert_eq!(sorted, (0..40).collect::<Vec<_>>());
    // 40! orders: equal draws, or test order, mean the order is not secret.
    assert_ne!(a, b);
    assert_ne!(a, sorted);
}

#[test]
fn a_failure_stops_the_runs_after_it_at_once() {
    // Every test starts at once; test 0 fails at once, every other runs until stopped.
    let n = 6;
    let fake = Fake::new(n, |test, _| {
        if test == 0 {
            Act::Wrong
        } else {
            Act::UntilStopped
        }
    });
    let started = Instant::now();
    let (_, rows) = judge(&fake, n, Stop::AtFirstFailure);
    let rows = rows.unwrap();
    assert_eq!(verdicts(&rows), [Verdict::WA]);
    // Every run after the failure was stopped (none ran to its end, 30 s).
    assert!(
        fake.started()
            .iter()
            .filter(|s| s.test != 0)
            .all(|s| s.stopped),
        "{:?}",
        fake.started()
    );
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn an_endless_loop_with_stop_at_first_failure_costs_two_rounds_at_most() {
    // 40 tests, 2 slots, every run stopped at the CPU limit: the first round (2 runs, in the
    // secret order), then test 0 (and at most one more beside it), whatever the order.
    for _ in 0..20 {
        let fake = Fake::new(2, |_, _| Act::StoppedAtCpuLimit).taking(Duration::from_millis(1));
        let rows = judge(&fake, 40, Stop::AtFirstFailure).1.unwrap();
        assert_eq!(verdicts(&rows), [Verdict::TLE]);
        assert_eq!(rows[0].test, "t000");
        let runs = fake.started().len();
        assert!((1..=4).contains(&runs), "{runs} runs: {:?}", fake.started());
        assert_eq!(fake.runs_of(0), 1);
    }
}

#[test]
fn stop_at_first_failure_reports_every_test_up_to_the_first_failure() {
    for slots in [1, 3] {
        let fake = Fake::new(slots, |test, _| match test {
            5 | 9 => Act::Wrong,
            _ => Act::Pass,
        })
        .taking(Duration::from_millis(1));
        let rows = judge(&fake, 12, Stop::AtFirstFailure).1.unwrap();
        let mut expected = vec![Verdict::AC; 5];
        expected.push(Verdict::WA);
        assert_eq!(verdicts(&rows), expected, "{slots} slots");
        // Nothing after test 9 (a known failure) starts once 9 is known… and nothing after
        // 5 once 5 is: at most the tests that started before either was known.
        assert!(fake.started().len() <= 12);
    }
}

#[test]
fn a_failure_load_could_have_caused_is_settled_alone_before_it_stops_the_run() {
    // Test 2 times out near the limit, then passes alone: the run goes on, and test 7's WA
    // is the first failure.
    let fake = Fake::new(2, |test, before| match (test, before) {
        (2, 0) => Act::WallNearLimit,
        (7, _) => Act::Wrong,
        _ => Act::Pass,
    })
    .taking(Duration::from_millis(1));
    let rows = judge(&fake, 10, Stop::AtFirstFailure).1.unwrap();
    let mut expected = vec![Verdict::AC; 7];
    expected.push(Verdict::WA);
    assert_eq!(verdicts(&rows), expected);
    assert_eq!(rows[2].message, "re-run alone");
    let again = fake.started().into_iter().rfind(|s| s.test == 2).unwrap();
    assert_eq!(again.alongside, 0);
}

#[test]
fn a_sandbox_failure_is_the_judges_error_and_stops_the_other_runs() {
    // Every test starts at once: the others are running when test 4's run fails.
    let fake = Fake::new(9, |test, _| match test {
        4 => Act::Broken,
        _ => Act::UntilStopped,
    });
    let started = Instant::now();
    let limits = Limits::new(LIMIT, 64);
    let cancel = Cancel::new();
    let judging = Judging {
        runs: &fake,
        checker: &SameText,
        limits: &limits,
        progress: &Hidden,
        cancel: &cancel,
    };
    let error = run_all(&judging, &tests(9)).unwrap_err();
    assert!(
        error.to_string().contains("the fake sandbox broke"),
        "{error}"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    // The command's own token is not cancelled by the runner's error.
    assert!(!cancel.is_cancelled());
}

#[test]
fn an_error_handing_on_a_row_stops_the_run_and_is_returned() {
    // Every test starts at once: the others are running when test 0's row cannot be shown.
    let fake = Fake::new(5, |test, _| {
        if test == 0 {
            Act::Wrong
        } else {
            Act::UntilStopped
        }
    });
    let limits = Limits::new(LIMIT, 64);
    let cancel = Cancel::new();
    let judging = Judging {
        runs: &fake,
        checker: &SameText,
        limits: &limits,
        progress: &Hidden,
        cancel: &cancel,
    };
    let started = Instant::now();
    let closed = || JudgeError::Output(std::io::ErrorKind::BrokenPipe.into());
    let error = run_tests(&judging, &tests(5), Stop::Never, &mut |_, _, _| {
        Err(closed())
    });
    assert!(matches!(error, Err(JudgeError::Output(_))));
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn an_interrupted_run_returns_the_rows_that_finished() {
    let fake = Fake::new(2, |test, _| {
        if test < 3 {
            Act::Pass
        } else {
            Act::UntilStopped
        }
    });
    let limits = Limits::new(LIMIT, 64);
    let cancel = Cancel::new();
    let judging = Judging {
        runs: &fake,
        checker: &SameText,
        limits: &limits,
        progress: &Hidden,
        cancel: &cancel,
    };
    let interrupt = cancel.clone();
    let fake = &fake;
    let rows = std::thread::scope(|scope| {
        scope.spawn(move || {
            // Once the looping tests hold both slots.
            while fake.going.load(Ordering::SeqCst) < 2
                || fake.started().iter().filter(|s| s.test >= 3).count() < 2
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            interrupt.cancel();
        });
        run_all(&judging, &tests(6)).unwrap()
    });
    // Whatever finished before the interruption (the passing tests that ran), nothing else.
    assert!(rows.iter().all(|r| r.verdict == Verdict::AC), "{rows:?}");
    assert!(rows.len() < 6);
}
