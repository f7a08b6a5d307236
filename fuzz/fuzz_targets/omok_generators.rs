//! omok: every generated input (fuzzer-chosen seed, family, index) is valid and answered alike.
#![no_main]
use libfuzzer_sys::fuzz_target;
use solutions::Omok;

fuzz_target!(|data: &[u8]| generators::fuzz_bodies::generated::<Omok>(data));
