//! The checker: compares a program's output with the answer file through the problem's
//! lenient answer reader (any whitespace between tokens).

use solutions::{AnswerError, Problem};

use crate::text::shorten;

/// Why an output is not the expected answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// The output is not UTF-8 text.
    #[error("the output is not UTF-8")]
    NotText,
    /// The output does not read as an answer.
    #[error("{0}")]
    Unreadable(AnswerError),
    /// The output reads as another answer than the expected one (both on one line).
    #[error("expected {expected}, got {got}")]
    Differs { expected: String, got: String },
    /// The answer file itself does not read (the runner checks every answer file before any
    /// submission runs, so a verdict never rests on this).
    #[error("the answer file does not read: {0}")]
    AnswerFile(AnswerError),
}

/// Does the answer file read? A test whose answer file does not is the jury's error, found
/// before the submission runs (so it is never taken for the contestant's wrong answer).
pub fn answer_file_reads<P: Problem>(expected: &str) -> Result<(), AnswerError> {
    P::read_answer(expected).map(|_| ())
}

/// Compares a program's output with the answer file; `Err` says why they differ.
pub fn check<P: Problem>(expected: &str, got: &[u8]) -> Result<(), Rejection> {
    let expected = P::read_answer(expected).map_err(Rejection::AnswerFile)?;
    let text = std::str::from_utf8(got).map_err(|_| Rejection::NotText)?;
    let got = P::read_answer(text).map_err(Rejection::Unreadable)?;
    if got == expected {
        Ok(())
    } else {
        let one_line = |answer: &P::Answer| {
            shorten(&P::write_answer(answer).trim_end().replace('\n', " / "), 60)
        };
        Err(Rejection::Differs {
            expected: one_line(&expected),
            got: one_line(&got),
        })
    }
}
