//! othello-flips: arbitrary bytes never make the parser panic, and an accepted input is canonical.
#![no_main]
use libfuzzer_sys::fuzz_target;
use solutions::OthelloFlips;

fuzz_target!(|data: &[u8]| generators::fuzz_bodies::parse::<OthelloFlips>(data));
