//! Arbitrary bytes never make a validator panic, and an accepted input is its own canonical
//! text and meets the constraints. The problem: `BOARDJUDGE_PROBLEM`, else the first byte.
#![no_main]
use libfuzzer_sys::fuzz_target;
use generators::fuzz_bodies::select;

fuzz_target!(|data: &[u8]| {
    if let Some((targets, data)) = select(data) {
        (targets.parse)(data);
    }
});
