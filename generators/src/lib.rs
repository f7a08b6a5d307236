//! Generators of the board problems' inputs, and everything that plans test sets from them.
//!
//! Per problem, a folder with the same files: `families.rs` (its [`Generate`] impl: valid and
//! invalid families, shrinking steps, the fuzz decoder), `boundary.rs` (its obligations and
//! their builder), `tests.rs`; its data (pinned digests, the kept test set) is in
//! `tests/data/<id>/` (see `solutions::problem_files`). Shared: the seeded streams ([`rng`],
//! [`generate`]), stone placement ([`stones`]), format-level invalid inputs ([`invalid`]), the
//! case corpus reader ([`corpus`]), boundary obligations and their builders ([`obligations`],
//! [`boundary`]), the fuzz targets' bodies ([`fuzz_bodies`]) and the selection of a test set's
//! tests and of `judge stress`'s strongest cases ([`selection`]).
//!
//! The problems themselves (types, parsers, solvers) are the `solutions` crate; the per-problem
//! modules here are declared from its one list, `solutions::for_each_problem!`.

// Only the sandbox crate and the solvers' SIMD kernels may use `unsafe`.
#![forbid(unsafe_code)]

pub use generate::{
    Family, Generate, ImageCases, InvalidFamily, generate, generate_invalid, image_case,
    mixed_case, shrink, stream, valid_text,
};
pub use rng::Rng;

/// Declares each problem's generator module (its folder).
macro_rules! declare_generators {
    ([] $($module:ident: $problem:ty,)*) => {
        $(pub mod $module;)*
    };
}

solutions::for_each_problem!(declare_generators);

pub mod boundary;
pub mod corpus;
pub mod decoy;
pub mod fuzz_bodies;
pub mod generate;
pub mod invalid;
pub mod obligations;
pub mod probes;
pub mod rng;
pub mod selection;
pub mod shortest;
pub mod stones;
#[cfg(test)]
mod test_support;
