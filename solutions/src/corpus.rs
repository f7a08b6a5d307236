//! The case corpus of a problem: data, not code (`solutions/testdata/<problem>.toml`), in the
//! manner of regex's `testdata/*.toml`. The same cases are fed to every solver the problem
//! has, in process, and to the `judge` binary and external submissions by the integration
//! tests.

use serde::Deserialize;

use crate::problem::Problem;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Corpus {
    #[serde(default)]
    pub valid: Vec<ValidCase>,
    #[serde(default)]
    pub invalid: Vec<InvalidCase>,
}

/// A valid input and its answer, with the one rule or corner it pins.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidCase {
    pub name: String,
    pub why: String,
    pub input: String,
    pub answer: String,
    /// A sample of the spec (goes to `data/sample` in a Kattis test set).
    #[serde(default)]
    pub sample: bool,
}

/// An input the validator must reject, and text its error message must contain (typically
/// the position, `line L, column C`, and a word of the reason).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InvalidCase {
    pub name: String,
    pub why: String,
    pub input: String,
    pub error: String,
}

/// The corpus of problem `P`. The corpus files are part of the build, so a malformed one is a
/// bug of this repository and fails loudly.
pub fn corpus<P: Problem>() -> Corpus {
    match toml::from_str(P::CORPUS) {
        Ok(corpus) => corpus,
        Err(e) => panic!("solutions/testdata/{}.toml is malformed: {e}", P::ID),
    }
}
