//! omok: on structured inputs (or `T` + canonical text), the fast solver equals the reference.
#![no_main]
use generators::fuzz_bodies::{Outcome, differential};
use libfuzzer_sys::{Corpus, fuzz_target};
use solutions::{Omok, Problem};

fuzz_target!(|data: &[u8]| -> Corpus {
    match differential::<Omok>(data, Omok::reference, Omok::fast) {
        Outcome::Reject => Corpus::Reject,
        Outcome::Agree => Corpus::Keep,
        Outcome::Disagree(case) => panic!("{case}"),
    }
});
