//! The fuzz targets' bodies on stable: committed inputs replay cleanly, the parse body holds
//! on every corpus input and on random bytes, and the differential body finds a planted bug.

use generators::corpus::corpus;
use generators::fuzz_bodies::{Outcome, differential, generated, parse};
use generators::{Generate, Rng};
use solutions::problem_files::{FUZZ_DIFFERENTIAL, FUZZ_GENERATORS, FUZZ_PARSE};
use solutions::{GomokuChecker, Problem, tests_per_problem};

fn replay<P: Generate>(module: &str) {
    let mut replayed = 0;
    for (target, kind) in [
        (FUZZ_PARSE, 0),
        (FUZZ_DIFFERENTIAL, 1),
        (FUZZ_GENERATORS, 2),
    ] {
        for path in target.files(P::ID) {
            if path.extension().is_some_and(|e| e == "txt") {
                continue; // the decoded board kept beside a binary input
            }
            let data = std::fs::read(&path).unwrap();
            match kind {
                0 => parse::<P>(&data),
                1 => match differential::<P>(&data, P::reference, P::fast) {
                    Outcome::Agree => {}
                    Outcome::Reject => panic!("{} decodes to no valid input", path.display()),
                    Outcome::Disagree(case) => panic!("{}: {case}", path.display()),
                },
                _ => generated::<P>(&data),
            }
            replayed += 1;
        }
    }
    assert!(replayed > 0, "{module}: no committed inputs");
}

fn parse_holds_on_corpus_and_noise<P: Problem>() {
    let corpus = corpus::<P>();
    for case in &corpus.valid {
        parse::<P>(case.input.as_bytes());
    }
    for case in &corpus.invalid {
        parse::<P>(case.input.as_bytes());
    }
    let mut rng = Rng::from_parts(&[P::ID.as_bytes(), b"noise"], &[0]);
    for _ in 0..2000 {
        let len = rng.below(800) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| rng.pick(b"oxXO.NBWP0123456789 ,\n\r\tRG#"))
            .collect();
        parse::<P>(&bytes);
    }
}

fn committed_inputs_replay_cleanly<P: Generate>() {
    replay::<P>(&P::ID.replace('-', "_"));
}

fn differential_body_agrees_on_random_bytes<P: Generate>() {
    let mut rng = Rng::from_parts(&[b"fuzz-agree"], &[0]);
    for _ in 0..3000 {
        let bytes: Vec<u8> = (0..rng.below(600)).map(|_| rng.u32() as u8).collect();
        if let Outcome::Disagree(case) = differential::<P>(&bytes, P::reference, P::fast) {
            panic!("{case}");
        }
    }
}

solutions::for_each_problem!(tests_per_problem, committed_inputs => committed_inputs_replay_cleanly);
solutions::for_each_problem!(tests_per_problem, parse_body_holds => parse_holds_on_corpus_and_noise);
solutions::for_each_problem!(tests_per_problem, differential_body_agrees => differential_body_agrees_on_random_bytes);

#[test]
fn every_problem_has_fuzz_targets_and_the_variable_selects_it() {
    let ids: Vec<&str> = generators::fuzz_bodies::ALL.iter().map(|t| t.id).collect();
    let mut listed = Vec::new();
    macro_rules! collect {
        ([] $($module:ident: $problem:ty,)*) => { $(listed.push(<$problem as Problem>::ID);)* };
    }
    solutions::for_each_problem!(collect);
    assert_eq!(ids, listed);
    // Without the variable, the first byte picks the problem and is not passed on.
    let (targets, rest) = generators::fuzz_bodies::select(&[1, 9, 9]).unwrap();
    assert_eq!((targets.id, rest), (listed[1], &[9u8, 9][..]));
}

#[test]
fn differential_body_catches_white_ahead_acceptance_within_bounded_iterations() {
    let wrong = GomokuChecker::wrong_solvers()
        .into_iter()
        .find(|s| s.name == "white-ahead-accepted")
        .unwrap();
    let mut rng = Rng::from_parts(&[b"fuzz-white-ahead"], &[0]);
    const BOUND: usize = 20_000;
    for iteration in 0..BOUND {
        let bytes: Vec<u8> = (0..rng.below(400)).map(|_| rng.u32() as u8).collect();
        if let Outcome::Disagree(case) =
            differential::<GomokuChecker>(&bytes, GomokuChecker::reference, wrong.solve)
        {
            assert!(case.contains("expected \"NO\", got \"YES\""), "{case}");
            eprintln!("found after {} iterations:\n{case}", iteration + 1);
            return;
        }
    }
    panic!("the differential body did not catch the white-ahead bug in {BOUND} random inputs");
}
