//! Held-out strength of `judge stress`'s case order: each known-wrong solution (board-access
//! models included) is left out of the kill matrix that plans the strongest cases — as if it
//! were a contestant's bug nobody modelled — and the run counts how many cases `judge stress`
//! would take to find it: the set cover of the remaining solutions, then one boundary case per
//! obligation, then the random mix. A count, not a timing: multiply by a submission's cost per
//! case (a Python 3 program: about 10 ms here) for its time to find.
//!
//! `cargo bench -p judge-core --bench held_out [-- PROBLEM...]`

use generators::{Generate, boundary::Boundary, mixed_case};
use rayon::prelude::*;

/// Random cases tried after the strongest ones before giving up.
const RANDOM_CASES: u64 = 200_000;
const SEED: u64 = 1;

fn held_out<P: Generate + Boundary>(chosen: &[String]) {
    if !chosen.is_empty() && !chosen.iter().any(|c| c == P::ID) {
        return;
    }
    let all = P::wrong_solvers();
    let families = P::families();
    let (fixed, seen) = generators::selection::fixed_tests::<P>();
    let rows: Vec<(&str, Option<u64>, &str, usize, bool)> = (0..all.len())
        .into_par_iter()
        .map(|k| {
            let others: Vec<_> = all
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, s)| *s)
                .collect();
            let strongest = generators::selection::strongest_cases_against::<P>(SEED, &others);
            let differs = |input: &P::Input| (all[k].solve)(input) != P::reference(input);
            // The default test set (`judge testset P --seed 1`) planned without it.
            let mut seen = seen.clone();
            let rejected_by_testset = fixed.iter().any(differs)
                || generators::selection::choose_generated_against::<P>(
                    &fixed, SEED, &mut seen, &others,
                )
                .iter()
                .any(|c| differs(&c.input));
            let found = strongest
                .iter()
                .position(|(input, _, _)| differs(input))
                .map(|i| (i as u64, strongest[i].1))
                .or_else(|| {
                    (0..RANDOM_CASES)
                        .find(|&i| differs(&mixed_case(&families, i, SEED).0))
                        .map(|i| (strongest.len() as u64 + i, "random"))
                });
            (
                all[k].name,
                found.map(|f| f.0 + 1),
                found.map_or("not found", |f| f.1),
                strongest.len(),
                rejected_by_testset,
            )
        })
        .collect();
    println!(
        "{}: {} wrong solutions, each held out of the plan",
        P::ID,
        rows.len()
    );
    for (name, cases, phase, planned, rejected) in &rows {
        let testset = if *rejected { "rejected" } else { "ACCEPTED" };
        match cases {
            Some(n) => println!(
                "  {name}: default test set {testset}; stress finds it after {n} cases ({phase}; {planned} strongest cases)"
            ),
            None => println!(
                "  {name}: default test set {testset}; stress: NOT FOUND in {planned} strongest + {RANDOM_CASES} random cases"
            ),
        }
    }
    let mut counts: Vec<u64> = rows.iter().filter_map(|r| r.1).collect();
    counts.sort_unstable();
    let in_strongest = rows
        .iter()
        .filter(|r| r.2 != "random" && r.2 != "not found")
        .count();
    let rejected = rows.iter().filter(|r| r.4).count();
    println!(
        "{}: the default test set rejects {} of {}; stress finds {} ({} within the strongest cases); cases to find: median {}, max {}",
        P::ID,
        rejected,
        rows.len(),
        counts.len(),
        in_strongest,
        counts.get(counts.len() / 2).copied().unwrap_or(0),
        counts.last().copied().unwrap_or(0),
    );
}

macro_rules! every_problem {
    ([$chosen:ident] $($module:ident: $problem:ty,)*) => {
        $(held_out::<$problem>(&$chosen);)*
    };
}

fn main() {
    // `cargo bench` passes `--bench`; everything else names problems.
    let chosen: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    solutions::for_each_problem!(every_problem, chosen);
}
