//! othello-flips: on structured inputs (or `T` + canonical text), the fast solver equals the reference.
#![no_main]
use generators::fuzz_bodies::{Outcome, differential};
use libfuzzer_sys::{Corpus, fuzz_target};
use solutions::{OthelloFlips, Problem};

fuzz_target!(|data: &[u8]| -> Corpus {
    match differential::<OthelloFlips>(data, OthelloFlips::reference, OthelloFlips::fast) {
        Outcome::Reject => Corpus::Reject,
        Outcome::Agree => Corpus::Keep,
        Outcome::Disagree(case) => panic!("{case}"),
    }
});
