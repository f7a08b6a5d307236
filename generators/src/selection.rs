//! Which tests a test set holds: the selection half of `judge testset` and `judge stress`'s
//! case order. The default test set is the fixed tests (the corpus's valid cases) and a
//! choice of generated ones ([`choose_generated`]): a random floor, a greedy cover of the
//! boundary obligations and of the known-wrong solutions' kill matrix, hunts for the
//! solutions still rejected by fewer than two tests, and a round-robin fill from the families.
//! `judge stress` runs [`strongest_cases`] first. Writing the chosen tests (answers, names,
//! layouts, manifests) is `judge_core::testgen`.

use std::collections::{BTreeSet, HashSet};

use solutions::Problem;

use crate::boundary::{Boundary, boundary_case_at, hunting_case, merged_case};
use crate::corpus::corpus;
use crate::{Generate, generate};

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

/// The most tests a default test set holds.
pub const MAX_TESTS: usize = 100;

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
    let each = per_family(fixed.len(), families.len());
    // The random floor first: chosen from the random families without the kill matrix, so a
    // change of the plan never drops ordinary positions.
    let floor = random_floor::<P>(seed, seen);
    let mut pool: Vec<Candidate<P::Input>> = Vec::new();
    for family in &families {
        let (mut taken, mut index) = (0, 0u64);
        // Skip duplicates (small families repeat themselves); give up on a family after
        // enough tries rather than loop forever.
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
    let generated = pool.len();
    let mut cases = Vec::new();
    for (id, _) in P::obligations() {
        if let Some(input) = boundary_case_at::<P>(&id, 0, seed) {
            cases.push((id.clone(), input.clone()));
            pool.push(Candidate {
                input,
                source: "boundary",
                family: "boundary".to_string(),
                index: 0,
                params: id,
            });
        }
    }
    for index in 0..MERGED_POOL {
        if let Some(input) = merged_case::<P>(&cases, index, seed) {
            pool.push(Candidate {
                input,
                source: "boundary",
                family: "boundary".to_string(),
                index,
                params: "merged".to_string(),
            });
        }
    }
    for index in 0..HUNT_POOL {
        if let Some(input) = hunting_case::<P>(index, seed) {
            pool.push(Candidate {
                input,
                source: "boundary",
                family: "boundary".to_string(),
                index,
                params: "hunt".to_string(),
            });
        }
    }

    let floor_start = pool.len();
    pool.extend(floor);

    let kills = |input: &P::Input| -> Vec<usize> {
        let want = P::reference(input);
        (0..wrong.len())
            .filter(|&k| (wrong[k].solve)(input) != want)
            .collect()
    };
    let mut covered: BTreeSet<String> = BTreeSet::new();
    let mut killed = vec![0usize; wrong.len()];
    for input in fixed {
        covered.extend(P::met(input));
        for k in kills(input) {
            killed[k] += 1;
        }
    }
    let pool_met: Vec<BTreeSet<String>> = pool.iter().map(|c| P::met(&c.input)).collect();
    let pool_kills: Vec<Vec<usize>> = pool.iter().map(|c| kills(&c.input)).collect();
    let mut chosen = vec![false; pool.len()];
    let mut texts: Vec<Option<String>> = pool
        .iter()
        .map(|c| Some(P::write_input(&c.input)))
        .collect();
    let mut count = fixed.len();
    for i in floor_start..pool.len() {
        // Already in `seen` (the floor was drawn first): taken as they are.
        texts[i] = None;
        chosen[i] = true;
        count += 1;
        covered.extend(pool_met[i].iter().cloned());
        for &k in &pool_kills[i] {
            killed[k] += 1;
        }
    }
    // Takes candidate `i` unless a test with its text is already in the set.
    let take = |i: usize,
                texts: &mut [Option<String>],
                seen: &mut HashSet<String>,
                chosen: &mut [bool],
                count: &mut usize|
     -> bool {
        let text = texts[i].take().expect("each candidate is looked at once");
        if seen.insert(text) {
            chosen[i] = true;
            *count += 1;
            true
        } else {
            false
        }
    };
    // Greedy set cover: obligations met, and wrong solvers brought to two rejecting tests.
    while count < MAX_TESTS {
        let gain = |i: usize| -> usize {
            let new_obligations = pool_met[i]
                .iter()
                .filter(|id| !covered.contains(*id))
                .count();
            let kill_gain: usize = pool_kills[i]
                .iter()
                .map(|&k| match killed[k] {
                    0 => 2,
                    1 => 1,
                    _ => 0,
                })
                .sum();
            new_obligations + kill_gain
        };
        let best = (0..pool.len())
            .filter(|&i| !chosen[i] && texts[i].is_some())
            .map(|i| (gain(i), i))
            .max_by_key(|&(g, i)| (g, std::cmp::Reverse(i)));
        let Some((g, i)) = best else { break };
        if g == 0 {
            break;
        }
        if take(i, &mut texts, seen, &mut chosen, &mut count) {
            covered.extend(pool_met[i].iter().cloned());
            for &k in &pool_kills[i] {
                killed[k] += 1;
            }
        }
    }
    // A known-wrong solution still rejected by fewer than two tests: hunt for more among
    // edge cases with runs one short (phantom fives behind aliased reads).
    let mut hunted: Vec<Candidate<P::Input>> = Vec::new();
    let mut hunt_index = 0u64;
    let mut hunts: Vec<(P::Input, Vec<usize>)> = Vec::new();
    for k in 0..wrong.len() {
        let mut tries = HUNT_POOL as usize;
        // Unrejected: search long; rejected once: a shorter search for a second test.
        let budget = if killed[k] == 0 {
            HUNT_TRIES
        } else {
            HUNT_POOL as usize * 2
        };
        while killed[k] < 2 && count < MAX_TESTS && tries < budget {
            if hunts.len() + (HUNT_POOL as usize) <= tries {
                if let Some(input) = hunting_case::<P>(hunt_index + HUNT_POOL, seed) {
                    let k = kills(&input);
                    hunts.push((input, k));
                } else {
                    hunts.push((
                        fixed
                            .first()
                            .cloned()
                            .unwrap_or_else(|| pool[0].input.clone()),
                        Vec::new(),
                    ));
                }
                hunt_index += 1;
            }
            let (input, its_kills) = &hunts[tries - HUNT_POOL as usize];
            if its_kills.contains(&k) && seen.insert(P::write_input(input)) {
                for &j in its_kills {
                    killed[j] += 1;
                }
                count += 1;
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
    // Every family at least once, then round-robin up to the usual size.
    let target = (fixed.len() + each * families.len()).min(MAX_TESTS);
    for round in 0..each {
        for family in &families {
            if count >= target.max(if round == 0 { MAX_TESTS } else { 0 }) {
                break;
            }
            let mine: Vec<usize> = (0..generated)
                .chain(floor_start..pool.len())
                .filter(|&i| pool[i].family == family.name)
                .collect();
            let have = mine.iter().filter(|&&i| chosen[i]).count();
            if have > round {
                continue;
            }
            if let Some(&i) = mine.iter().find(|&&i| !chosen[i] && texts[i].is_some()) {
                take(i, &mut texts, seen, &mut chosen, &mut count);
            }
        }
    }
    pool.into_iter()
        .zip(chosen)
        .filter(|(_, c)| *c)
        .map(|(candidate, _)| candidate)
        .chain(hunted)
        .collect()
}

/// How many tests of the random families every default test set keeps, chosen without the
/// kill matrix.
pub const RANDOM_FLOOR: usize = 20;

/// The first index of a random family's floor tests: apart from the indices the families'
/// first tests use, so the floor never depends on which of those the plan takes.
const FLOOR_FIRST_INDEX: u64 = 1000;

/// The random floor of a test set: [`RANDOM_FLOOR`] tests of the problem's random families
/// (round-robin, each test its own stream), none already in `seen` (which they join).
pub fn random_floor<P: Generate>(
    seed: u64,
    seen: &mut HashSet<String>,
) -> Vec<Candidate<P::Input>> {
    let families: Vec<_> = P::families()
        .into_iter()
        .filter(|f| P::RANDOM_FAMILIES.contains(&f.name))
        .collect();
    let mut floor = Vec::new();
    let mut index = FLOOR_FIRST_INDEX;
    while floor.len() < RANDOM_FLOOR && !families.is_empty() && index < FLOOR_FIRST_INDEX + 1000 {
        for family in &families {
            if floor.len() == RANDOM_FLOOR {
                break;
            }
            let (input, params) = generate(family, index, seed);
            if seen.insert(P::write_input(&input)) {
                floor.push(Candidate {
                    input,
                    source: "generated",
                    family: family.name.to_string(),
                    index,
                    params: format!("random floor; {params}"),
                });
            }
        }
        index += 1;
    }
    floor
}

/// How many hunting cases are tried for one unrejected wrong solution.
const HUNT_TRIES: usize = 4000;
/// How many merged boundary cases (see [`merged_case`]) join the pool of the set cover.
const MERGED_POOL: u64 = 100;
/// How many hunting cases join the pool of the set cover.
const HUNT_POOL: u64 = 300;

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

/// The strongest known cases of problem `P` under `seed`, strongest first, for `judge
/// stress`: the default test set's set cover (greedy over the kill matrix of the known-wrong
/// solutions, board-access models included: each next test rejects the most solutions no
/// earlier one rejects), then the rest of the default test set, then one boundary case per
/// obligation (each with its obligation id).
/// (The hunting cases are not added: with them, wrong solutions that the plan does not know
/// took longer to find, not shorter — `cargo bench -p judge-core --bench held_out`.)
pub fn strongest_cases<P: Boundary>(seed: u64) -> Vec<(P::Input, &'static str, String)> {
    strongest_cases_against::<P>(seed, &P::wrong_solvers())
}

/// [`strongest_cases`] planned with the kill matrix of the wrong solutions `wrong` only.
pub fn strongest_cases_against<P: Boundary>(
    seed: u64,
    wrong: &[solutions::Solver<P>],
) -> Vec<(P::Input, &'static str, String)> {
    let (fixed, mut seen) = fixed_tests::<P>();
    let mut tests = fixed.clone();
    tests.extend(
        choose_generated_against::<P>(&fixed, seed, &mut seen, wrong)
            .into_iter()
            .map(|c| c.input),
    );
    let kills: Vec<Vec<usize>> = tests
        .iter()
        .map(|input| {
            let want = P::reference(input);
            (0..wrong.len())
                .filter(|&k| (wrong[k].solve)(input) != want)
                .collect()
        })
        .collect();
    let mut rejected = vec![false; wrong.len()];
    let mut used = vec![false; tests.len()];
    let mut out = Vec::new();
    loop {
        let best = (0..tests.len())
            .filter(|&i| !used[i])
            .map(|i| (kills[i].iter().filter(|&&k| !rejected[k]).count(), i))
            .max_by_key(|&(gain, i)| (gain, std::cmp::Reverse(i)));
        let Some((gain, i)) = best else { break };
        if gain == 0 {
            break;
        }
        used[i] = true;
        for &k in &kills[i] {
            rejected[k] = true;
        }
        out.push((tests[i].clone(), "testset-cover", String::new()));
    }
    // Then the rest of the default test set: a test that rejects no known-wrong solution may
    // still reject a bug nobody modelled (it meets an obligation), so stress is never weaker
    // than the test set.
    for i in (0..tests.len()).filter(|&i| !used[i]) {
        out.push((tests[i].clone(), "testset", String::new()));
    }
    for (id, _) in P::obligations() {
        if let Some(input) = boundary_case_at::<P>(&id, 0, seed) {
            out.push((input, "boundary", id));
        }
    }
    out
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
