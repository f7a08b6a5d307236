//! The shared case corpus, run against every solver of every problem.

use generators::corpus::{check, corpus};
use solutions::Problem;
use solutions::tests_per_problem;

fn run<P: Problem>() {
    let corpus = corpus::<P>();
    let hand_made = corpus.valid.iter().filter(|c| !c.sample).count();
    assert!(
        hand_made >= 25,
        "{}: only {hand_made} hand-made valid cases",
        P::ID
    );
    assert!(
        corpus.invalid.len() >= 10,
        "{}: only {} invalid cases",
        P::ID,
        corpus.invalid.len()
    );
    let failures = check::<P>(&P::solvers());
    assert!(
        failures.is_empty(),
        "{} corpus failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

solutions::for_each_problem!(tests_per_problem, corpus => run);
