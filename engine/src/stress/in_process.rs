//! The in-process stress loop: no processes at all, as fast as the machine allows. Cases run
//! in rounds of consecutive indices split across rayon's threads; a round's lowest failing
//! index is the finding, so the result does not depend on the number of jobs.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use problems::{Generate, mixed_case, shrink};
use rayon::prelude::*;

use super::{Budget, Finding, Summary};
use crate::progress::Progress;

/// Compares `candidate` with `trusted` on the budget's cases. `jobs` threads.
pub fn run<P: Generate>(
    budget: Budget,
    jobs: usize,
    trusted: fn(&P::Input) -> P::Answer,
    candidate: fn(&P::Input) -> P::Answer,
    progress: &Progress,
) -> Summary {
    let families = P::families();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .expect("a thread pool");
    let started = Instant::now();
    let done = AtomicU64::new(0);
    let mut next = 0u64; // shard-local index of the next case
    let mut round = 1u64 << 12;
    let limit = budget.cases.unwrap_or(u64::MAX);
    let mut failure = None;
    while next < limit && failure.is_none() {
        if budget.time.is_some_and(|t| started.elapsed() >= t) {
            break;
        }
        let end = next.saturating_add(round).min(limit);
        let round_started = Instant::now();
        // Blocks of 256 consecutive cases per task: each task does tens of microseconds of
        // work or more, far above rayon's per-task cost.
        let first_bad = pool.install(|| {
            let blocks = (end - next).div_ceil(256);
            (0..blocks)
                .into_par_iter()
                .filter_map(|b| {
                    let block = next + b * 256;
                    let stop = (block + 256).min(end);
                    let bad = (block..stop).find(|&i| {
                        let (input, _, _) =
                            mixed_case(&families, budget.shard.case(i), budget.seed);
                        candidate(&input) != trusted(&input)
                    });
                    done.fetch_add(stop - block, Ordering::Relaxed);
                    progress.set(done.load(Ordering::Relaxed));
                    bad
                })
                .min()
        });
        failure = first_bad;
        next = end;
        if round_started.elapsed() < Duration::from_millis(250) && round < 1 << 22 {
            round *= 2;
        }
    }
    let cases = match failure {
        Some(i) => i + 1,
        None => next,
    };
    let to_find = started.elapsed();
    let finding = failure.map(|i| {
        let case = budget.shard.case(i);
        let (input, family, params) = mixed_case(&families, case, budget.seed);
        progress.message(&format!("shrinking case {case}"));
        let (shrunk, steps, complete) = shrink::<P>(
            &input,
            |c| candidate(c) != trusted(c),
            Duration::from_secs(10),
            |steps| progress.message(&format!("shrinking case {case}: {steps} steps")),
        );
        Finding {
            case,
            family,
            params,
            input: P::write_input(&input),
            expected: P::write_answer(&trusted(&input)),
            got: P::write_answer(&candidate(&input)),
            shrunk_input: P::write_input(&shrunk),
            shrunk_expected: P::write_answer(&trusted(&shrunk)),
            shrunk_got: P::write_answer(&candidate(&shrunk)),
            shrink_steps: steps,
            shrink_complete: complete,
        }
    });
    Summary {
        cases,
        elapsed: started.elapsed(),
        to_find,
        finding,
    }
}
