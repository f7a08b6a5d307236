//! Which test runs next, which running ones to stop, and when a test set is done: the
//! runner's policy as a state machine without threads, clocks or a sandbox, so that each rule
//! is written once and tested alone.
//!
//! - First runs go in a secret order ([`super::secret_order`]), every slot busy.
//! - A TLE that load could have caused (see [`super::needs_rerun`]) is run again alone, with
//!   every other slot idle, and that run's verdict stands: with [`Stop::Never`] once every
//!   first run is done, in test order; with [`Stop::AtFirstFailure`] when it is the first
//!   failure and every test before it passed.
//! - With [`Stop::AtFirstFailure`]: no test after the lowest failure known starts; once a
//!   failure stands (no re-run pending) the running tests after it are stopped, and the tests
//!   before it that are left run lowest first (the verdict is a failure whatever they do, so
//!   their order tells a submission nothing it could use, and the lowest one may be the
//!   failure that ends the run). A stopped test goes back to waiting: if the failure turns
//!   out to be none (its run alone passes), it runs again.

use super::Stop;

/// A run the plan asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Task {
    /// A test's run among the parallel ones.
    First(usize),
    /// A TLE's run alone, every other slot idle.
    Alone(usize),
}

impl Task {
    pub(super) fn test(self) -> usize {
        match self {
            Task::First(i) | Task::Alone(i) => i,
        }
    }
}

/// What a free slot does now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Next {
    Start(Task),
    /// Nothing to start until a running test finishes.
    Wait,
    /// Every run that matters is done.
    Done,
}

/// How a finished run went, as far as the plan cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Outcome {
    /// Not AC.
    pub failed: bool,
    /// A TLE that load could have caused: its verdict stands only after a run alone.
    pub load_sensitive: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Waiting,
    Running,
    /// The first run finished; `alone`: it is to be run again alone before it stands.
    Ran {
        failed: bool,
        alone: bool,
    },
    RunningAlone,
    /// The run alone finished: its verdict stands.
    Settled {
        failed: bool,
    },
}

pub(super) struct Plan {
    stop: Stop,
    /// With one slot every run is alone already: nothing is run again.
    reruns: bool,
    /// `rank[i]`: test `i`'s place in the secret order.
    rank: Vec<usize>,
    state: Vec<State>,
}

impl Plan {
    /// A plan for `order.len()` tests whose first runs go in `order` (a permutation), on
    /// `slots` slots.
    pub(super) fn new(order: &[usize], stop: Stop, slots: usize) -> Plan {
        let mut rank = vec![0; order.len()];
        for (place, &test) in order.iter().enumerate() {
            rank[test] = place;
        }
        Plan {
            stop,
            reruns: slots > 1,
            rank,
            state: vec![State::Waiting; order.len()],
        }
    }

    fn running(&self) -> usize {
        self.state
            .iter()
            .filter(|s| matches!(s, State::Running | State::RunningAlone))
            .count()
    }

    /// The lowest test known to fail, and whether its failure stands (no run alone pending
    /// or going on).
    pub(super) fn first_failure(&self) -> Option<(usize, bool)> {
        self.state.iter().enumerate().find_map(|(i, s)| match *s {
            State::Ran {
                failed: true,
                alone,
            } => Some((i, !alone)),
            State::RunningAlone => Some((i, false)),
            State::Settled { failed: true } => Some((i, true)),
            _ => None,
        })
    }

    fn passed(&self, i: usize) -> bool {
        matches!(
            self.state[i],
            State::Ran { failed: false, .. } | State::Settled { failed: false }
        )
    }

    /// What a free slot does now; a started task is marked running.
    pub(super) fn next(&mut self) -> Next {
        let next = match self.stop {
            Stop::Never => self.next_of_all(),
            Stop::AtFirstFailure => self.next_to_first_failure(),
        };
        match next {
            Next::Start(Task::First(i)) => self.state[i] = State::Running,
            Next::Start(Task::Alone(i)) => self.state[i] = State::RunningAlone,
            // Waiting is only for a running test to finish: with none, nothing would ever
            // change (a plan that says so has a bug; ending beats hanging).
            Next::Wait if self.running() == 0 => {
                debug_assert!(false, "a plan waiting for nothing");
                return Next::Done;
            }
            _ => {}
        }
        next
    }

    /// The next in the secret order among the waiting tests below `bound`.
    fn next_secret(&self, bound: usize) -> Option<usize> {
        (0..bound)
            .filter(|&i| self.state[i] == State::Waiting)
            .min_by_key(|&i| self.rank[i])
    }

    fn next_of_all(&self) -> Next {
        if let Some(i) = self.next_secret(self.state.len()) {
            return Next::Start(Task::First(i));
        }
        if self.running() > 0 {
            // Runs alone come once every first run is done.
            return Next::Wait;
        }
        match (0..self.state.len())
            .find(|&i| matches!(self.state[i], State::Ran { alone: true, .. }))
        {
            Some(i) => Next::Start(Task::Alone(i)),
            None => Next::Done,
        }
    }

    fn next_to_first_failure(&self) -> Next {
        let failure = self.first_failure();
        let bound = failure.map_or(self.state.len(), |(f, _)| f);
        let candidate = match failure {
            // The failure stands: the lowest test before it first.
            Some((_, true)) => (0..bound).find(|&i| self.state[i] == State::Waiting),
            _ => self.next_secret(bound),
        };
        if let Some(i) = candidate {
            return Next::Start(Task::First(i));
        }
        let Some((f, stands)) = failure else {
            return if self.running() > 0 {
                Next::Wait
            } else {
                Next::Done
            };
        };
        if !(0..f).all(|i| self.passed(i)) {
            // A test before the failure is still running.
            return Next::Wait;
        }
        match self.state[f] {
            State::Ran { alone: true, .. } if self.running() == 0 => Next::Start(Task::Alone(f)),
            _ if !stands || self.running() > 0 => Next::Wait,
            // The failure stands and every test before it passed; the tests after it that
            // were stopped are back.
            _ => Next::Done,
        }
    }

    /// Records how `task` went (`None`: it was stopped before it finished); returns the
    /// running tests to stop now.
    pub(super) fn finished(&mut self, task: Task, outcome: Option<Outcome>) -> Vec<usize> {
        self.state[task.test()] = match (task, outcome) {
            // Stopped: it waits again (if it is needed after all, it runs again).
            (Task::First(_), None) => State::Waiting,
            (Task::First(_), Some(o)) => State::Ran {
                failed: o.failed,
                alone: o.failed && o.load_sensitive && self.reruns,
            },
            // Stopped alone: still to be run alone.
            (Task::Alone(_), None) => State::Ran {
                failed: true,
                alone: true,
            },
            (Task::Alone(_), Some(o)) => State::Settled { failed: o.failed },
        };
        match (self.stop, self.first_failure()) {
            (Stop::AtFirstFailure, Some((f, true))) => (f + 1..self.state.len())
                .filter(|&i| self.state[i] == State::Running)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The tests whose rows stand once the plan is done: all of them, or with
    /// [`Stop::AtFirstFailure`] those up to the first failure.
    pub(super) fn reported(&self) -> usize {
        match (self.stop, self.first_failure()) {
            (Stop::AtFirstFailure, Some((f, _))) => f + 1,
            _ => self.state.len(),
        }
    }

    /// Is `test` to be run alone before its verdict stands?
    pub(super) fn held_for_rerun(&self, test: usize) -> bool {
        matches!(self.state[test], State::Ran { alone: true, .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAIL: Option<Outcome> = Some(Outcome {
        failed: true,
        load_sensitive: false,
    });
    const PASS: Option<Outcome> = Some(Outcome {
        failed: false,
        load_sensitive: false,
    });
    const NEAR_LIMIT: Option<Outcome> = Some(Outcome {
        failed: true,
        load_sensitive: true,
    });

    fn start(plan: &mut Plan) -> Task {
        match plan.next() {
            Next::Start(task) => task,
            other => panic!("expected a run, got {other:?}"),
        }
    }

    #[test]
    fn first_runs_follow_the_secret_order_and_reruns_come_alone_at_the_end() {
        let mut plan = Plan::new(&[2, 0, 1], Stop::Never, 2);
        assert_eq!(start(&mut plan), Task::First(2));
        assert_eq!(start(&mut plan), Task::First(0));
        assert!(plan.finished(Task::First(2), NEAR_LIMIT).is_empty());
        assert_eq!(start(&mut plan), Task::First(1));
        // Test 0 still runs: the run alone waits for it and for test 1.
        assert_eq!(plan.next(), Next::Wait);
        plan.finished(Task::First(0), PASS);
        assert_eq!(plan.next(), Next::Wait);
        plan.finished(Task::First(1), PASS);
        assert_eq!(start(&mut plan), Task::Alone(2));
        assert_eq!(plan.next(), Next::Wait);
        plan.finished(Task::Alone(2), PASS);
        assert_eq!(plan.next(), Next::Done);
        assert_eq!(plan.reported(), 3);
    }

    #[test]
    fn with_one_slot_nothing_is_run_again() {
        let mut plan = Plan::new(&[0, 1], Stop::Never, 1);
        start(&mut plan);
        plan.finished(Task::First(0), NEAR_LIMIT);
        start(&mut plan);
        plan.finished(Task::First(1), PASS);
        assert_eq!(plan.next(), Next::Done);
    }

    #[test]
    fn a_standing_failure_stops_the_tests_after_it_and_the_rest_run_lowest_first() {
        let mut plan = Plan::new(&[3, 4, 0, 1, 2], Stop::AtFirstFailure, 2);
        assert_eq!(start(&mut plan), Task::First(3));
        assert_eq!(start(&mut plan), Task::First(4));
        // Test 3 fails for good: test 4, running, is to be stopped.
        assert_eq!(plan.finished(Task::First(3), FAIL), [4]);
        // The tests before 3 now run lowest first (not in the secret order 0, 1, 2 … here
        // the same, so start with a plan where it differs below).
        assert_eq!(start(&mut plan), Task::First(0));
        plan.finished(Task::First(4), None);
        assert_eq!(start(&mut plan), Task::First(1));
        assert_eq!(plan.finished(Task::First(1), FAIL), Vec::<usize>::new());
        // Test 0 still runs; test 2 (after the new failure) never starts.
        assert_eq!(plan.next(), Next::Wait);
        plan.finished(Task::First(0), PASS);
        assert_eq!(plan.next(), Next::Done);
        assert_eq!(plan.reported(), 2);
    }

    #[test]
    fn after_a_standing_failure_the_lowest_test_goes_first_whatever_the_secret_order() {
        let mut plan = Plan::new(&[5, 4, 3, 2, 1, 0], Stop::AtFirstFailure, 1);
        assert_eq!(start(&mut plan), Task::First(5));
        plan.finished(Task::First(5), FAIL);
        assert_eq!(start(&mut plan), Task::First(0));
        plan.finished(Task::First(0), FAIL);
        assert_eq!(plan.next(), Next::Done);
        assert_eq!(plan.reported(), 1);
    }

    #[test]
    fn a_failure_that_may_be_load_keeps_the_secret_order_and_its_run_alone_decides() {
        let mut plan = Plan::new(&[2, 4, 1, 0, 3], Stop::AtFirstFailure, 2);
        assert_eq!(start(&mut plan), Task::First(2));
        assert_eq!(start(&mut plan), Task::First(4));
        // Near the limit: not yet a failure that stands, nothing is stopped.
        assert!(plan.finished(Task::First(2), NEAR_LIMIT).is_empty());
        // The secret order goes on below it: 1, then 0.
        assert_eq!(start(&mut plan), Task::First(1));
        plan.finished(Task::First(1), PASS);
        assert_eq!(start(&mut plan), Task::First(0));
        plan.finished(Task::First(0), PASS);
        // Test 4 still runs: the run alone waits for it.
        assert_eq!(plan.next(), Next::Wait);
        plan.finished(Task::First(4), PASS);
        assert_eq!(start(&mut plan), Task::Alone(2));
        plan.finished(Task::Alone(2), PASS);
        // Not a failure after all: test 3 runs now.
        assert_eq!(start(&mut plan), Task::First(3));
        plan.finished(Task::First(3), PASS);
        assert_eq!(plan.next(), Next::Done);
        assert_eq!(plan.reported(), 5);
    }

    #[test]
    fn a_test_stopped_for_a_failure_that_was_none_runs_again() {
        let mut plan = Plan::new(&[1, 2, 0], Stop::AtFirstFailure, 2);
        assert_eq!(start(&mut plan), Task::First(1));
        assert_eq!(start(&mut plan), Task::First(2));
        assert!(plan.finished(Task::First(1), NEAR_LIMIT).is_empty());
        assert_eq!(start(&mut plan), Task::First(0));
        plan.finished(Task::First(0), PASS);
        plan.finished(Task::First(2), None);
        assert_eq!(start(&mut plan), Task::Alone(1));
        plan.finished(Task::Alone(1), PASS);
        assert_eq!(start(&mut plan), Task::First(2));
        plan.finished(Task::First(2), PASS);
        assert_eq!(plan.next(), Next::Done);
    }

    #[test]
    fn without_a_failure_every_test_runs() {
        let mut plan = Plan::new(&[1, 0], Stop::AtFirstFailure, 2);
        start(&mut plan);
        start(&mut plan);
        assert_eq!(plan.next(), Next::Wait);
        plan.finished(Task::First(0), PASS);
        plan.finished(Task::First(1), PASS);
        assert_eq!(plan.next(), Next::Done);
        assert_eq!(plan.reported(), 2);
    }
}
