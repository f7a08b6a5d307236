//! On structured inputs (or `T` + canonical text), the fast solver equals the reference.
//! The problem: `BOARDJUDGE_PROBLEM`, else the first byte.
#![no_main]
use libfuzzer_sys::{Corpus, fuzz_target};
use generators::fuzz_bodies::{Outcome, select};

fuzz_target!(|data: &[u8]| -> Corpus {
    let Some((targets, data)) = select(data) else {
        return Corpus::Reject;
    };
    match (targets.differential)(data) {
        Outcome::Reject => Corpus::Reject,
        Outcome::Agree => Corpus::Keep,
        Outcome::Disagree(case) => panic!("{case}"),
    }
});
