//! `judge stress`'s case order: the strongest known cases first.

use super::cover::rejected_by;
use super::{choose_generated_against, fixed_tests};
use crate::boundary::{Boundary, boundary_case_at};

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
    let covering = cover_order::<P>(&tests, wrong);
    let mut out: Vec<_> = covering
        .iter()
        .map(|&i| (tests[i].clone(), "testset-cover", String::new()))
        .collect();
    // Then the rest of the default test set: a test that rejects no known-wrong solution may
    // still reject a bug nobody modelled (it meets an obligation), so stress is never weaker
    // than the test set.
    out.extend(
        (0..tests.len())
            .filter(|i| !covering.contains(i))
            .map(|i| (tests[i].clone(), "testset", String::new())),
    );
    for (id, _) in P::obligations() {
        if let Some(input) = boundary_case_at::<P>(&id, 0, seed) {
            out.push((input, "boundary", id));
        }
    }
    out
}

/// A greedy cover of the wrong solutions by `tests`, as indices into `tests` in the order
/// taken: each next test rejects the most solutions no earlier one rejects (ties to the earlier
/// test), until no test rejects one more.
fn cover_order<P: Boundary>(tests: &[P::Input], wrong: &[solutions::Solver<P>]) -> Vec<usize> {
    let rejects: Vec<Vec<usize>> = tests.iter().map(|t| rejected_by(wrong, t)).collect();
    let mut rejected = vec![false; wrong.len()];
    let mut used = vec![false; tests.len()];
    let mut order = Vec::new();
    loop {
        let best = (0..tests.len())
            .filter(|&i| !used[i])
            .map(|i| (rejects[i].iter().filter(|&&k| !rejected[k]).count(), i))
            .max_by_key(|&(gain, i)| (gain, std::cmp::Reverse(i)));
        let Some((gain, i)) = best else { break };
        if gain == 0 {
            break;
        }
        used[i] = true;
        for &k in &rejects[i] {
            rejected[k] = true;
        }
        order.push(i);
    }
    order
}
