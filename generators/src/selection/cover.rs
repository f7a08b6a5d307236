//! The test set being chosen from the pool, and what it covers: the boundary obligations its
//! tests meet and how many of its tests reject each known-wrong solution.

use std::collections::{BTreeSet, HashSet};

use solutions::{Problem, Solver};

use super::Candidate;
use crate::boundary::Boundary;

/// The wrong solutions (by index into `wrong`) that give another answer than the reference
/// on `input`: one row of the kill matrix.
pub fn rejected_by<P: Problem>(wrong: &[Solver<P>], input: &P::Input) -> Vec<usize> {
    let want = P::reference(input);
    (0..wrong.len())
        .filter(|&k| (wrong[k].solve)(input) != want)
        .collect()
}

/// A test set in the making: the fixed tests, the pool's candidates taken so far, and what
/// they cover.
pub struct Cover<I> {
    pub pool: Vec<Candidate<I>>,
    /// The obligations each candidate meets, and the wrong solutions it rejects.
    meets: Vec<BTreeSet<String>>,
    pub rejects: Vec<Vec<usize>>,
    pub chosen: Vec<bool>,
    /// Each candidate's input text until it is looked at: taken, or found to repeat a test
    /// already in the set.
    texts: Vec<Option<String>>,
    /// The obligations the set meets.
    covered: BTreeSet<String>,
    /// How many tests of the set reject each wrong solution.
    pub rejections: Vec<usize>,
    /// How many tests the set holds, the fixed ones included.
    pub count: usize,
    /// The most tests it may hold ([`Boundary::MAX_TESTS`]).
    pub max: usize,
}

impl<I> Cover<I> {
    /// The set of the `fixed` tests and the candidates `floor` (already in `seen`), with
    /// `pool` (the floor appended) to choose more from.
    pub fn new<P: Boundary<Input = I>>(
        fixed: &[I],
        mut pool: Vec<Candidate<I>>,
        floor: Vec<Candidate<I>>,
        wrong: &[Solver<P>],
    ) -> Self {
        let floor_start = pool.len();
        pool.extend(floor);
        let mut cover = Cover {
            meets: pool.iter().map(|c| P::met(&c.input)).collect(),
            rejects: pool.iter().map(|c| rejected_by(wrong, &c.input)).collect(),
            chosen: vec![false; pool.len()],
            texts: pool
                .iter()
                .map(|c| Some(P::write_input(&c.input)))
                .collect(),
            covered: BTreeSet::new(),
            rejections: vec![0; wrong.len()],
            count: fixed.len(),
            max: P::MAX_TESTS,
            pool,
        };
        for input in fixed {
            cover.covered.extend(P::met(input));
            for k in rejected_by(wrong, input) {
                cover.rejections[k] += 1;
            }
        }
        for i in floor_start..cover.pool.len() {
            // Already in `seen` (the floor was drawn first): taken as they are.
            cover.texts[i] = None;
            cover.chosen[i] = true;
            cover.count += 1;
            cover.add_coverage_of(i);
        }
        cover
    }

    fn add_coverage_of(&mut self, i: usize) {
        self.covered.extend(self.meets[i].iter().cloned());
        for &k in &self.rejects[i] {
            self.rejections[k] += 1;
        }
    }

    /// Can candidate `i` still be taken (not taken, not found to repeat a test)?
    pub fn open(&self, i: usize) -> bool {
        !self.chosen[i] && self.texts[i].is_some()
    }

    /// Takes candidate `i` unless a test with its text is already in the set (`seen`); either
    /// way it is not looked at again. Whether it was taken.
    pub fn take(&mut self, i: usize, seen: &mut HashSet<String>) -> bool {
        let text = self.texts[i]
            .take()
            .expect("each candidate is looked at once");
        if seen.insert(text) {
            self.chosen[i] = true;
            self.count += 1;
            true
        } else {
            false
        }
    }

    /// What candidate `i` adds: the obligations it meets that no test meets yet, and per wrong
    /// solution it rejects, 2 if no test rejects it yet, 1 if one does (each should be
    /// rejected by two tests, so none is one test away from surviving).
    fn gain(&self, i: usize) -> usize {
        let new_obligations = self.meets[i]
            .iter()
            .filter(|id| !self.covered.contains(*id))
            .count();
        let rejection_gain: usize = self.rejects[i]
            .iter()
            .map(|&k| match self.rejections[k] {
                0 => 2,
                1 => 1,
                _ => 0,
            })
            .sum();
        new_obligations + rejection_gain
    }

    /// Greedy set cover: takes the candidate with the largest [`Cover::gain`] (ties to the
    /// earlier one) until nothing gains or the set holds [`Cover::max`] tests.
    pub fn cover_obligations_and_rejections(&mut self, seen: &mut HashSet<String>) {
        while self.count < self.max {
            let best = (0..self.pool.len())
                .filter(|&i| self.open(i))
                .map(|i| (self.gain(i), i))
                .max_by_key(|&(g, i)| (g, std::cmp::Reverse(i)));
            let Some((g, i)) = best else { break };
            if g == 0 {
                break;
            }
            if self.take(i, seen) {
                self.add_coverage_of(i);
            }
        }
    }

    /// The chosen candidates, in pool order.
    pub fn into_chosen(self) -> impl Iterator<Item = Candidate<I>> {
        self.pool
            .into_iter()
            .zip(self.chosen)
            .filter(|(_, c)| *c)
            .map(|(candidate, _)| candidate)
    }
}
