//! The checker: compares a program's output with the answer file through the problem's
//! lenient answer reader (any whitespace between tokens).

use solutions::Problem;

use crate::text::shorten;

/// Does the answer file read? A test whose answer file does not is the jury's error, found
/// before the submission runs (so it is never taken for the contestant's wrong answer).
pub fn answer_file_reads<P: Problem>(expected: &str) -> Result<(), String> {
    P::read_answer(expected)
        .map(|_| ())
        .map_err(|e| format!("the answer file does not read as an answer: {e}"))
}

/// Compares a program's output with the answer file; `Err` says why they differ. The answer
/// file is checked first with [`answer_file_reads`]; if it does not read here anyway, the
/// message says so.
pub fn check<P: Problem>(expected: &str, got: &[u8]) -> Result<(), String> {
    let expected =
        P::read_answer(expected).map_err(|e| format!("the answer file does not read: {e}"))?;
    let text = std::str::from_utf8(got).map_err(|_| "the output is not UTF-8".to_string())?;
    let got = P::read_answer(text).map_err(|e| e.to_string())?;
    if got == expected {
        Ok(())
    } else {
        let one_line = |answer: &P::Answer| {
            shorten(&P::write_answer(answer).trim_end().replace('\n', " / "), 60)
        };
        Err(format!(
            "expected {}, got {}",
            one_line(&expected),
            one_line(&got)
        ))
    }
}
