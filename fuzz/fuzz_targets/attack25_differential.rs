//! attack25: on structured inputs (or `T` + canonical text), the fast solver equals the reference.
#![no_main]
use generators::fuzz_bodies::{Outcome, differential};
use libfuzzer_sys::{Corpus, fuzz_target};
use solutions::{Attack25, Problem};

fuzz_target!(|data: &[u8]| -> Corpus {
    match differential::<Attack25>(data, Attack25::reference, Attack25::fast) {
        Outcome::Reject => Corpus::Reject,
        Outcome::Agree => Corpus::Keep,
        Outcome::Disagree(case) => panic!("{case}"),
    }
});
