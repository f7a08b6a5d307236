//! The shared case corpus, run against every solver of every problem.

use problems::corpus::{check, corpus};
use problems::{Attack25, GomokuChecker, Omok, OthelloFlips, Problem, Renju};

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

#[test]
fn gomoku_checker_corpus() {
    run::<GomokuChecker>();
}

#[test]
fn omok_corpus() {
    run::<Omok>();
}

#[test]
fn othello_flips_corpus() {
    run::<OthelloFlips>();
}

#[test]
fn attack25_corpus() {
    run::<Attack25>();
}

#[test]
fn renju_corpus() {
    run::<Renju>();
}
