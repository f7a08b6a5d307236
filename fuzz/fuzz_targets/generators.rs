//! Every generated input (fuzzer-chosen seed, family, index) is valid and answered alike by
//! both solvers. The problem: `BOARDJUDGE_PROBLEM`, else the first byte.
#![no_main]
use libfuzzer_sys::fuzz_target;
use generators::fuzz_bodies::select;

fuzz_target!(|data: &[u8]| {
    if let Some((targets, data)) = select(data) {
        (targets.generated)(data);
    }
});
