//! The pool the cover chooses from: every family's first tests, one boundary case per
//! obligation, merged boundary cases and hunting cases.

use std::collections::HashSet;

use super::Candidate;
use crate::boundary::{Boundary, boundary_case_at, hunting_case, merged_case};
use crate::{Family, generate};

/// How many merged boundary cases (see [`merged_case`]) join the pool of the set cover.
const MERGED_POOL: u64 = 100;
/// How many hunting cases join the pool of the set cover; the hunt for a second rejection
/// goes on from there (`super::hunt`).
pub const HUNT_POOL: u64 = 300;

/// The first `each` tests of every family, in family order, none whose text is in `seen`
/// (a small family repeats itself: its duplicates are skipped, and it is given up after 20
/// tries per test rather than looped over for ever). Tests that repeat each other may both
/// be here: only taking one adds its text to `seen`.
pub fn first_tests_of_each_family<P: Boundary>(
    families: &[Family<P>],
    each: usize,
    seed: u64,
    seen: &HashSet<String>,
) -> Vec<Candidate<P::Input>> {
    let mut pool = Vec::new();
    for family in families {
        let (mut taken, mut index) = (0, 0u64);
        while taken < each && index < (each as u64) * 20 {
            let (input, params) = generate(family, index, seed);
            if !seen.contains(&P::write_input(&input)) {
                pool.push(Candidate {
                    input,
                    source: "generated",
                    family: family.name.to_string(),
                    index,
                    params,
                });
                taken += 1;
            }
            index += 1;
        }
    }
    pool
}

/// Boundary cases: one per obligation that has one (in obligation order), then
/// [`MERGED_POOL`] cases that merge several of them, then [`HUNT_POOL`] hunting cases.
pub fn boundary_cases<P: Boundary>(seed: u64) -> Vec<Candidate<P::Input>> {
    let boundary = |input, index, params| Candidate {
        input,
        source: "boundary",
        family: "boundary".to_string(),
        index,
        params,
    };
    let mut pool = Vec::new();
    let mut cases = Vec::new();
    for (id, _) in P::obligations() {
        if let Some(input) = boundary_case_at::<P>(&id, 0, seed) {
            cases.push((id.clone(), input.clone()));
            pool.push(boundary(input, 0, id));
        }
    }
    for index in 0..MERGED_POOL {
        if let Some(input) = merged_case::<P>(&cases, index, seed) {
            pool.push(boundary(input, index, "merged".to_string()));
        }
    }
    for index in 0..HUNT_POOL {
        if let Some(input) = hunting_case::<P>(index, seed) {
            pool.push(boundary(input, index, "hunt".to_string()));
        }
    }
    pool
}
