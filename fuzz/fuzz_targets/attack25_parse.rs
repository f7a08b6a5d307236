//! attack25: arbitrary bytes never make the parser panic, and an accepted input is canonical.
#![no_main]
use libfuzzer_sys::fuzz_target;
use solutions::Attack25;

fuzz_target!(|data: &[u8]| generators::fuzz_bodies::parse::<Attack25>(data));
