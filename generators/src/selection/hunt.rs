//! The hunt for a second rejecting test: a known-wrong solution the cover left rejected by
//! fewer than two tests is looked for among more hunting cases (edge cases with runs one
//! short: phantom fives behind aliased reads).

use std::collections::HashSet;

use solutions::Solver;

use super::Candidate;
use super::cover::{Cover, rejected_by};
use super::pool::HUNT_POOL;
use crate::boundary::{Boundary, hunting_case};

/// How many hunting cases are tried for one unrejected wrong solution.
const HUNT_TRIES: usize = 4000;

/// The hunting cases after the pool's (from index [`HUNT_POOL`] on), each with the wrong
/// solutions it rejects, made once as the hunts first reach them and shared by every hunt.
struct HuntingCases<'a, P: Boundary> {
    cases: Vec<(P::Input, Vec<usize>)>,
    wrong: &'a [Solver<P>],
    seed: u64,
    /// Stands in for an index without a hunting case, rejecting nothing: the first fixed test
    /// (or candidate of the pool).
    placeholder: Option<P::Input>,
}

impl<P: Boundary> HuntingCases<'_, P> {
    /// Hunting case `index` (from [`HUNT_POOL`] on) and what it rejects.
    fn at(&mut self, index: usize) -> &(P::Input, Vec<usize>) {
        let k = index - HUNT_POOL as usize;
        while self.cases.len() <= k {
            let next = HUNT_POOL + self.cases.len() as u64;
            let case = match hunting_case::<P>(next, self.seed) {
                Some(input) => {
                    let rejects = rejected_by(self.wrong, &input);
                    (input, rejects)
                }
                None => {
                    let placeholder = self.placeholder.clone();
                    (
                        placeholder.expect("a fixed test or a candidate"),
                        Vec::new(),
                    )
                }
            };
            self.cases.push(case);
        }
        &self.cases[k]
    }
}

/// For each wrong solution in turn that fewer than two tests of `cover` reject, tries hunting
/// cases (a long search for one no test rejects, a short one for a second test) and takes
/// each that rejects it and is new to `seen`, while the set holds fewer than its most ([`Boundary::MAX_TESTS`]).
/// The tests taken, which count as `cover`'s rejections and tests.
pub fn hunt_second_rejections<P: Boundary>(
    cover: &mut Cover<P::Input>,
    fixed: &[P::Input],
    wrong: &[Solver<P>],
    seed: u64,
    seen: &mut HashSet<String>,
) -> Vec<Candidate<P::Input>> {
    let mut hunted = Vec::new();
    let mut cases = HuntingCases {
        cases: Vec::new(),
        wrong,
        seed,
        placeholder: fixed
            .first()
            .or(cover.pool.first().map(|c| &c.input))
            .cloned(),
    };
    for k in 0..wrong.len() {
        let budget = if cover.rejections[k] == 0 {
            HUNT_TRIES
        } else {
            HUNT_POOL as usize * 2
        };
        let mut tries = HUNT_POOL as usize;
        while cover.rejections[k] < 2 && cover.count < cover.max && tries < budget {
            let (input, rejects) = cases.at(tries);
            if rejects.contains(&k) && seen.insert(P::write_input(input)) {
                for &j in rejects {
                    cover.rejections[j] += 1;
                }
                cover.count += 1;
                hunted.push(Candidate {
                    input: input.clone(),
                    source: "boundary",
                    family: "boundary".to_string(),
                    index: tries as u64,
                    params: "hunt".to_string(),
                });
            }
            tries += 1;
        }
    }
    hunted
}
