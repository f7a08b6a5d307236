//! A package's checker ([`Checker`]): the format's default output validator in process, with
//! `problem.yaml`'s flags and the test group's `output_validator_args`; or the package's own
//! output validator, run per test in a jury box as the format says:
//! `validator /box/case/input.in /box/case/answer.ans /box/feedback/ [args] < output`,
//! exit 42 accepts, 43 rejects (with `judgemessage.txt` as the reason), anything else is a
//! jury error (exit 2), never the contestant's wrong answer.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use package_format::TestCase;
use package_format::default_output_validator::{self, Flags};

use super::PackageProblem;
use super::jury::{ACCEPT, JuryProgram, REJECT, ended, validator_words};
use crate::error::{JudgeError, JuryError};
use crate::runner::{Checked, Checker, Loaded};
use crate::text::shorten;

/// Where the test's input and answer are in the output validator's box.
pub const INPUT_IN_BOX: &str = "/box/case/input.in";
pub const ANSWER_IN_BOX: &str = "/box/case/answer.ans";
pub const FEEDBACK_IN_BOX: &str = "/box/feedback/";

/// The longest judge message kept in a verdict line.
const MESSAGE_CHARS: usize = 300;

/// What the checker needs of one test.
struct Case {
    /// The answer file's bytes (the default validator compares bytes, not text).
    answer: Vec<u8>,
    /// Its output validator arguments.
    args: Vec<String>,
    /// The default validator's flags for it.
    flags: Flags,
}

pub struct PackageChecker {
    problem: String,
    cases: HashMap<String, Case>,
    /// The custom output validator; `None`: the default one.
    custom: Option<(JuryProgram, sandbox::Limits)>,
    /// Never set: a validator's own limits end it.
    never: AtomicBool,
}

impl PackageChecker {
    /// The checker of `problem` for `tests` (`cases[i]`: the package's test case of
    /// `tests[i]`, if it is one; tests of another folder get no arguments).
    /// `custom`: the built output validator and its limits, when the package has one.
    pub fn new(
        problem: &PackageProblem,
        tests: &[Loaded],
        cases: &[Option<&TestCase>],
        custom: Option<(JuryProgram, sandbox::Limits)>,
    ) -> Result<PackageChecker, JudgeError> {
        let mut by_name = HashMap::new();
        for (i, test) in tests.iter().enumerate() {
            let case = cases.get(i).copied().flatten();
            let answer =
                std::fs::read(&test.test.answer).map_err(|source| JuryError::UnreadableAnswer {
                    path: test.test.answer.clone(),
                    source,
                })?;
            let flags = match case {
                Some(case) if custom.is_none() => problem
                    .package
                    .default_validator_flags(case)
                    .map_err(|e| JuryError::Problem {
                        problem: problem.name().to_string(),
                        why: format!(
                            "{}: the default output validator's arguments for {}: {}",
                            problem.dir.display(),
                            case.name,
                            e.0
                        ),
                    })?,
                _ => Flags::default(),
            };
            by_name.insert(
                test.test.name.clone(),
                Case {
                    answer,
                    args: case
                        .map(|c| c.output_validator_args.clone())
                        .unwrap_or_default(),
                    flags,
                },
            );
        }
        Ok(PackageChecker {
            problem: problem.name().to_string(),
            cases: by_name,
            custom,
            never: AtomicBool::new(false),
        })
    }
}

impl Checker for PackageChecker {
    fn check(&self, test: &Loaded, output: &[u8]) -> Result<Checked, JudgeError> {
        let Some(case) = self.cases.get(&test.test.name) else {
            return Err(JuryError::Problem {
                problem: self.problem.clone(),
                why: format!("{}: a test the checker was not made for", test.test.name),
            }
            .into());
        };
        let Some((validator, limits)) = &self.custom else {
            return Ok(
                match default_output_validator::check(&case.answer, output, &case.flags) {
                    Ok(()) => Checked::Accepted,
                    Err(rejection) => Checked::Rejected(rejection.to_string()),
                },
            );
        };
        let mut args = vec![
            INPUT_IN_BOX.to_string(),
            ANSWER_IN_BOX.to_string(),
            FEEDBACK_IN_BOX.to_string(),
        ];
        args.extend(case.args.iter().cloned());
        let files: [(&str, &[u8]); 2] =
            [(INPUT_IN_BOX, &test.input), (ANSWER_IN_BOX, &case.answer)];
        let ran = validator.run(&args, output, &files, true, limits, &self.never)?;
        let f = &ran.finished;
        let message = ran
            .feedback
            .iter()
            .find(|file| file.name == "judgemessage.txt")
            .map(|file| judge_message(&file.contents))
            .unwrap_or_default();
        match f.exit {
            sandbox::Exit::Code(ACCEPT) if !f.cpu_exceeded && !f.wall_exceeded => {
                Ok(Checked::Accepted)
            }
            sandbox::Exit::Code(REJECT) if !f.cpu_exceeded && !f.wall_exceeded => {
                Ok(Checked::Rejected(if message.is_empty() {
                    "rejected by the output validator".to_string()
                } else {
                    message
                }))
            }
            _ => {
                let words = validator_words(f);
                Err(JuryError::Problem {
                    problem: self.problem.clone(),
                    why: format!(
                        "test {}: output validator {} {} (42 accepts, 43 rejects){}{}",
                        test.test.name,
                        validator.shown,
                        ended(f),
                        if words.is_empty() {
                            String::new()
                        } else {
                            format!(": {words}")
                        },
                        if message.is_empty() {
                            String::new()
                        } else {
                            format!(" (judgemessage.txt: {message})")
                        }
                    ),
                }
                .into())
            }
        }
    }
}

/// A validator's `judgemessage.txt` in one line for a verdict: its lines joined, shortened.
/// Kept as written (control characters included): every writer escapes what it shows.
pub fn judge_message(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(64 << 10)]).into_owned();
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    shorten(&lines.join(" / "), MESSAGE_CHARS)
}

#[cfg(test)]
mod tests {
    use super::judge_message;

    #[test]
    fn a_judge_message_is_one_shortened_line() {
        assert_eq!(
            judge_message(b"wrong\n\n  at line 3 \n"),
            "wrong / at line 3"
        );
        let long = vec![b'x'; 10_000];
        assert!(judge_message(&long).chars().count() <= 301);
        assert_eq!(judge_message(b""), "");
    }
}
