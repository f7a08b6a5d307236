//! Which tests a test set holds: the selection half of `judge testset` and `judge stress`'s
//! case order. The default test set is the fixed tests (the corpus's valid cases) and a
//! choice of generated ones ([`choose_generated`]), in steps, each its own module: the random
//! floor (`floor.rs`), a pool of candidates (`pool.rs`), a greedy cover of the boundary
//! obligations and of the known-wrong solutions' kill matrix (`cover.rs`), hunts for the
//! solutions still rejected by fewer than two tests (`hunt.rs`) and a round-robin fill from the
//! families (`fill.rs`). `judge stress` runs [`strongest_cases`] first (`strongest.rs`). Writing
//! the chosen tests (answers, names, layouts, manifests) is `judge_core::testgen`.

use std::collections::HashSet;

use solutions::Problem;

use crate::boundary::Boundary;
use crate::corpus::corpus;

mod cover;
mod fill;
mod floor;
mod hunt;
mod pool;
mod strongest;

pub use floor::{RANDOM_FLOOR, random_floor};
pub use strongest::{strongest_cases, strongest_cases_against};

/// How many tests each generated family contributes, given the fixed (sample and corpus)
/// tests: the set stays between 30 and 100 tests, small and sharp.
pub fn per_family(fixed: usize, families: usize) -> usize {
    ((95usize.saturating_sub(fixed)) / families.max(1)).clamp(2, 6)
}

/// A generated test the selection may take.
pub struct Candidate<I> {
    pub input: I,
    pub source: &'static str,
    pub family: String,
    pub index: u64,
    pub params: String,
}

/// The most tests a default test set holds, unless its problem says otherwise
/// ([`Boundary::MAX_TESTS`]).
pub const MAX_TESTS: usize = crate::boundary::DEFAULT_MAX_TESTS;

/// Which generated tests join the fixed ones (samples and corpus), chosen by greedy set
/// cover over (a) the boundary obligations and (b) the kill matrix of the known-wrong
/// solutions (each should be rejected by two tests, so none is one test away from
/// surviving), from a pool of every family's first tests and one boundary case per
/// obligation; then every family gets at least one test, and the set is filled round-robin
/// from the families up to the usual size, never past [`MAX_TESTS`]. Deterministic: the
/// pool comes from the seed's streams and ties go to the earlier candidate. Generated tests
/// come out in family order, then boundary cases in obligation order.
pub fn choose_generated<P: Boundary>(
    fixed: &[P::Input],
    seed: u64,
    seen: &mut HashSet<String>,
) -> Vec<Candidate<P::Input>> {
    choose_generated_against(fixed, seed, seen, &P::wrong_solvers())
}

/// [`choose_generated`] with the kill matrix of the wrong solutions `wrong` (the held-out
/// benchmark leaves one out, as a contestant's bug nobody modelled).
pub fn choose_generated_against<P: Boundary>(
    fixed: &[P::Input],
    seed: u64,
    seen: &mut HashSet<String>,
    wrong: &[solutions::Solver<P>],
) -> Vec<Candidate<P::Input>> {
    let families = P::families();
    // The random floor first: chosen from the random families without the kill matrix, so a
    // change of the plan never drops ordinary positions.
    let floor = random_floor::<P>(seed, seen);
    let each = per_family(fixed.len(), families.len());
    let mut candidates = pool::first_tests_of_each_family::<P>(&families, each, seed, seen);
    candidates.extend(pool::boundary_cases::<P>(seed));
    let mut set = cover::Cover::new::<P>(fixed, candidates, floor, wrong);
    set.cover_obligations_and_rejections(seen);
    let hunted = hunt::hunt_second_rejections::<P>(&mut set, fixed, wrong, seed, seen);
    fill::fill_round_robin::<P>(&mut set, &families, fixed.len(), seen);
    set.into_chosen().chain(hunted).collect()
}

/// The tests every test set of `P` starts with (the corpus's valid cases), and their texts.
pub fn fixed_tests<P: Problem>() -> (Vec<P::Input>, HashSet<String>) {
    let corpus = corpus::<P>();
    let fixed = corpus
        .valid
        .iter()
        .filter_map(|c| P::parse(c.input.as_bytes()).ok())
        .collect();
    let seen = corpus.valid.iter().map(|c| c.input.clone()).collect();
    (fixed, seen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use solutions::tests_per_problem;

    /// Every default test set keeps its random floor whatever the kill matrix: planned with no
    /// known-wrong solver at all, the same tests are chosen; they are sparse and dense.
    fn the_random_floor_is_chosen_without_the_kill_matrix<P: Boundary>() {
        let (fixed, seen) = fixed_tests::<P>();
        let floor = |chosen: Vec<Candidate<P::Input>>| -> Vec<P::Input> {
            chosen
                .into_iter()
                .filter(|c| c.params.starts_with("random floor"))
                .map(|c| c.input)
                .collect()
        };
        let planned = floor(choose_generated::<P>(&fixed, 1, &mut seen.clone()));
        let blind = floor(choose_generated_against::<P>(
            &fixed,
            1,
            &mut seen.clone(),
            &[],
        ));
        assert_eq!(planned.len(), RANDOM_FLOOR, "{}", P::ID);
        assert!(
            planned == blind,
            "{}: the floor depends on the kill matrix",
            P::ID
        );
        let filled: Vec<f64> = planned
            .iter()
            .map(|input| {
                let picture = P::picture(input);
                let taken = picture
                    .cells
                    .iter()
                    .filter(|&&i| i != solutions::picture::Ink::Empty)
                    .count();
                taken as f64 / picture.cells.len() as f64
            })
            .collect();
        let (sparse, dense) = (
            filled.iter().cloned().fold(1.0, f64::min),
            filled.iter().cloned().fold(0.0, f64::max),
        );
        assert!(
            sparse < 0.3 && dense > 0.35,
            "{}: the floor fills {sparse:.2} to {dense:.2} of the board",
            P::ID
        );
    }

    solutions::for_each_problem!(tests_per_problem, random_floor => the_random_floor_is_chosen_without_the_kill_matrix);
}
