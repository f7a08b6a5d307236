//! `judge stress PKG`: differential stress testing of a problem package, through the one
//! stress loop ([`crate::stress::driver::search`]). (A module of its own beside `stress` and
//! `package`, which it joins: `package` reaches `stress` through the runner and the registry.) Case `k` is the setter's generator program run
//! with `{seed}` replaced by a seed derived from the campaign's seed and `k` ([`case_seed`]),
//! so a finding replays from its case number; every generated input must pass the package's
//! input validators (an input they reject is the generator's fault: a jury error, not a
//! finding). The reference (the package's first accepted submission, or the setter's) answers
//! it, and the submission's output is judged by the package's checker against that answer (the
//! default output validator with the package's flags, or its own output validator).
//!
//! A disagreement is shrunk by [`crate::stress::shrink_generic`]: a variant is kept only if the input
//! validators accept it and the submission still fails against the reference's answer to it.
//! Every jury program (generator, validators, reference, output validator) that fails, or a
//! reference that does not answer a valid input, is a jury error (exit 2), never the
//! contestant's finding.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use package_format::TestCase;
use package_format::default_output_validator::{self, Flags};
use package_format::testdata::Category;
use rayon::prelude::*;
use sandbox::{Exit, JuryBox, Limits, Options, RunIo, Sandbox, Stdin, Stdout};

use crate::error::{JudgeError, JuryError};
use crate::package::PackageProblem;
use crate::package::checker::{ANSWER_IN_BOX, FEEDBACK_IN_BOX, INPUT_IN_BOX, judge_message};
use crate::package::jury::{ACCEPT, InputVerdict, Jury, REJECT, ended, validator_words};
use crate::runner::submission::{Builder, from_path};
use crate::runner::tests::Test;
use crate::runner::{Checked, Checker, Loaded, Runs};
use crate::session::Session;
use crate::stress::driver::{Search, pool, search};
use crate::stress::{Budget, Finding, Summary};
use crate::text::shorten;
use crate::verdict::{Verdict, judge};

/// How long shrinking may take (the built-in problems' budget).
const SHRINK_BUDGET: Duration = Duration::from_secs(30);
/// Where the generator's seed is in its box (its command line reads it from there: a jury
/// box's command is fixed, the seed is not).
const SEED_IN_BOX: &str = "/box/case/seed";
/// The most a generator may write: one input.
const GENERATED_BYTES: usize = 64 << 20;

/// The seed of case `case` of the campaign `seed`: what `{seed}` becomes in the generator's
/// command. A splitmix64 mix of the two, below 2^31 so that any generator can read it as an
/// `int`.
pub fn case_seed(seed: u64, case: u64) -> u64 {
    let mut z = seed ^ case.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE5_E9B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) & 0x7FFF_FFFF
}

/// `word` quoted for `sh`.
fn sh_quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// The generator: a jury program run once per case in a jury box with `{seed}` in its command
/// line replaced by the case's seed.
pub struct Generator {
    /// The command as the setter typed it.
    pub shown: String,
    sandbox: Sandbox,
    limits: Limits,
}

/// A jury program's (a generator's, a reference's) failure to build is a jury error (exit 2)
/// that says which, with the build command, the build limit that stopped it and the start of
/// the compiler's output; any other error is left as it is.
pub fn jury_build_failure(error: JudgeError, problem: &str, what: &str) -> JudgeError {
    match error {
        JudgeError::Build {
            command,
            message,
            reason,
            ..
        } => JuryError::Problem {
            problem: problem.to_string(),
            why: format!(
                "{what} does not build ({command}){}:\n{}",
                reason.map(|r| format!(": {r}")).unwrap_or_default(),
                shorten(message.trim(), 2000)
            ),
        }
        .into(),
        other => other,
    }
}

impl Generator {
    /// Builds the generator `command` (`PROGRAM [ARGS…]`, `{seed}` anywhere in the arguments;
    /// PROGRAM a source file or an executable, found from the current folder, else in the
    /// package folder) with the jury's builder. `slots`: runs at a time.
    pub fn build(
        command: &str,
        package_dir: &Path,
        builder: &Builder,
        slots: usize,
    ) -> Result<Generator, JudgeError> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let Some((program, args)) = words.split_first() else {
            return Err(JudgeError::Usage(
                "--generator needs a command: PROGRAM [ARGS…] with {seed} in the arguments"
                    .to_string(),
            ));
        };
        if !args.iter().any(|a| a.contains("{seed}")) {
            return Err(JudgeError::Usage(format!(
                "--generator '{command}': no {{seed}} in its arguments, so every case would be \
                 the same input (write e.g. 'gen.py {{seed}}')"
            )));
        }
        let mut path = PathBuf::from(program);
        if !path.exists() && package_dir.join(program).exists() {
            path = package_dir.join(program);
        }
        if !path.exists() {
            return Err(JudgeError::Usage(format!(
                "--generator: {program}: no such file (here or in {})",
                package_dir.display()
            )));
        }
        let built = from_path(&path, builder).map_err(|e| {
            jury_build_failure(
                e,
                &package_dir.display().to_string(),
                &format!("the generator {program}"),
            )
        })?;
        // `sh` reads the case's seed from its file and runs the generator with it in place.
        let mut script = format!("read -r seed < {SEED_IN_BOX} || exit 125; exec ");
        script.push_str(&sh_quote(&built.program.display().to_string()));
        for arg in &built.args {
            script.push(' ');
            script.push_str(&sh_quote(arg));
        }
        for arg in args {
            script.push(' ');
            let parts: Vec<String> = arg.split("{seed}").map(sh_quote).collect();
            script.push_str(&parts.join("\"$seed\""));
        }
        let wrapped = sandbox::Command {
            program: PathBuf::from("/bin/sh"),
            args: vec!["-c".to_string(), script],
            ..built
        };
        let options = Options {
            jury: Some(JuryBox::default()),
            fork_server: false,
            ..Options::default()
        };
        let sandbox = Sandbox::with(wrapped, slots.max(1), &options)
            .map_err(|e| JudgeError::sandbox("setting up the generator's jury box", e))?;
        let mut limits = Limits::new(Duration::from_secs(30), 2048);
        limits.output_bytes = GENERATED_BYTES;
        Ok(Generator {
            shown: command.to_string(),
            sandbox,
            limits,
        })
    }

    /// The generator's input for `seed`, run in `slot`; `Err` (a jury error) when it fails.
    pub fn generate(
        &self,
        slot: usize,
        seed: u64,
        case: u64,
        problem: &str,
        stop: &AtomicBool,
    ) -> Result<Vec<u8>, JudgeError> {
        let seed_text = format!("{seed}\n");
        let files: [(&str, &[u8]); 1] = [(SEED_IN_BOX, seed_text.as_bytes())];
        let ran = self
            .sandbox
            .run_io(
                slot,
                RunIo {
                    stdin: Stdin::Bytes(b""),
                    stdout: Stdout::Capture,
                    files: &files,
                    feedback: false,
                    limits: &self.limits,
                    stop,
                },
            )
            .map_err(|e| JudgeError::sandbox("running the generator", e))?;
        let f = ran.finished;
        if f.interrupted {
            return Err(JudgeError::Interrupted(
                "while generating a case".to_string(),
            ));
        }
        let failed = f.exit != Exit::Code(0)
            || f.cpu_exceeded
            || f.wall_exceeded
            || f.memory_exceeded
            || f.output_exceeded;
        if failed {
            let words = validator_words(&sandbox::Finished {
                stdout: Vec::new(),
                ..f.clone()
            });
            return Err(JuryError::Problem {
                problem: problem.to_string(),
                why: format!(
                    "the generator '{}' {} on case {} (seed {seed}): a jury error, not the \
                     submission's{}",
                    self.shown,
                    ended(&f),
                    case + 1,
                    if words.is_empty() {
                        String::new()
                    } else {
                        format!(": {words}")
                    }
                ),
            }
            .into());
        }
        Ok(f.stdout)
    }
}

/// The package's checker for generated cases: its default output validator with the flags of
/// its first secret test, or its own output validator, with the reference's output as the
/// answer. (The package's own [`crate::package::checker::PackageChecker`] judges its tests,
/// whose answers are files.)
pub struct StressChecker<'a> {
    problem: String,
    jury: &'a Jury,
    /// The output validator arguments of the first secret test.
    args: Vec<String>,
    flags: Flags,
    never: AtomicBool,
}

impl Checker for StressChecker<'_> {
    fn check(&self, test: &Loaded, output: &[u8]) -> Result<Checked, JudgeError> {
        let answer = test.answer.as_bytes();
        let Some(validator) = &self.jury.output_validator else {
            return Ok(
                match default_output_validator::check(answer, output, &self.flags) {
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
        args.extend(self.args.iter().cloned());
        let files: [(&str, &[u8]); 2] = [(INPUT_IN_BOX, &test.input), (ANSWER_IN_BOX, answer)];
        let ran = validator.run(&args, output, &files, true, &self.jury.limits, &self.never)?;
        let f = &ran.finished;
        let message = ran
            .feedback
            .iter()
            .find(|file| file.name == "judgemessage.txt")
            .map(|file| judge_message(&file.contents))
            .unwrap_or_default();
        let in_time = !f.cpu_exceeded && !f.wall_exceeded;
        match f.exit {
            Exit::Code(ACCEPT) if in_time => Ok(Checked::Accepted),
            Exit::Code(REJECT) if in_time => Ok(Checked::Rejected(if message.is_empty() {
                "rejected by the output validator".to_string()
            } else {
                message
            })),
            _ => Err(JuryError::Problem {
                problem: self.problem.clone(),
                why: format!(
                    "{}: output validator {} {} (42 accepts, 43 rejects){}",
                    test.test.name,
                    validator.shown,
                    ended(f),
                    [validator_words(f), message]
                        .iter()
                        .filter(|w| !w.is_empty())
                        .map(|w| format!(": {w}"))
                        .collect::<String>()
                ),
            }
            .into()),
        }
    }
}

/// What the command hands over: the package, its built programs, and the two submissions.
pub struct Setup<'a> {
    pub problem: &'a PackageProblem,
    pub generator: Generator,
    pub jury: Jury,
    /// The reference, built, and how it is named.
    pub reference: Sandbox,
    pub reference_shown: String,
    /// The submission under test, built.
    pub submission: &'a Sandbox,
}

/// The reference: `--reference` as given (a path from the current folder, else in the
/// package), else the package's first accepted submission (by folder, then name).
pub fn reference_path(
    problem: &PackageProblem,
    given: Option<&str>,
) -> Result<(PathBuf, String), JudgeError> {
    if let Some(given) = given {
        let here = PathBuf::from(given);
        let path = if here.exists() {
            here
        } else if problem.dir.join(given).exists() {
            problem.dir.join(given)
        } else {
            return Err(JudgeError::Usage(format!(
                "--reference {given}: no such file (here or in {})",
                problem.dir.display()
            )));
        };
        return Ok((path, given.to_string()));
    }
    problem
        .package
        .submissions
        .iter()
        .find(|s| s.expectation.is_accepted())
        .map(|s| (s.program.path.clone(), format!("submissions/{}", s.name)))
        .ok_or_else(|| {
            JuryError::Problem {
                problem: problem.name().to_string(),
                why: "no accepted submission to be the reference: give --reference SUBMISSION"
                    .to_string(),
            }
            .into()
        })
}

/// Builds the package's jury programs (input validators, output validator), refusing what
/// the stress path cannot judge (interactive and multi-pass problems).
pub fn prepare_jury(
    problem: &PackageProblem,
    builder: &Builder,
    jobs: usize,
) -> Result<Jury, JudgeError> {
    if let Some(why) = problem.unsupported() {
        return Err(JudgeError::Usage(why));
    }
    if problem.package.metadata.problem_type.interactive {
        return Err(JudgeError::Usage(format!(
            "{}: an interactive problem; judge stress compares a submission's output with a \
             reference's, which an interactive problem has not (judge run PKG -- SUB judges it \
             on the package's tests)",
            problem.dir.display()
        )));
    }
    let hidden = [problem.dir.join("data"), problem.dir.join("submissions")];
    Jury::prepare(problem, &builder.for_jury(&hidden), jobs)
}

/// The package stress run: the cases of `budget` from the generator, judged as the module
/// says, on the session's jobs and limits (the submission's and the reference's runs).
pub fn run(setup: &Setup, budget: Budget, session: &Session) -> Result<Summary, JudgeError> {
    let problem = setup.problem;
    let first_secret: Option<&TestCase> = problem
        .package
        .tests()
        .iter()
        .find(|t| t.category == Category::Secret);
    let flags = match first_secret {
        Some(case) if setup.jury.output_validator.is_none() => problem
            .package
            .default_validator_flags(case)
            .map_err(|e| JuryError::Problem {
                problem: problem.name().to_string(),
                why: format!(
                    "the default output validator's arguments for {}: {}",
                    case.name, e.0
                ),
            })?,
        _ => Flags::default(),
    };
    let checker = StressChecker {
        problem: problem.name().to_string(),
        jury: &setup.jury,
        args: first_secret
            .map(|c| c.output_validator_args.clone())
            .unwrap_or_default(),
        flags,
        never: AtomicBool::new(false),
    };
    let stress = PackageStress {
        setup,
        checker,
        case: first_secret,
        seed: budget.seed,
        session,
    };
    let pool = pool(session.jobs)?;
    search(budget, &stress, &pool, session)
}

/// One package stress run.
struct PackageStress<'a> {
    setup: &'a Setup<'a>,
    checker: StressChecker<'a>,
    /// The test whose validator arguments generated cases get (the first secret one).
    case: Option<&'a TestCase>,
    seed: u64,
    session: &'a Session<'a>,
}

/// A generated input and its case number.
struct Case {
    case: u64,
    input: Vec<u8>,
}

/// How a submission did on one input, against the reference's answer.
enum Judged {
    /// Right: nothing to show.
    Agrees,
    /// Wrong: the reference's answer and what the submission printed (or why it failed).
    Disagrees { expected: String, got: String },
}

impl PackageStress<'_> {
    fn name(&self) -> &str {
        self.setup.problem.name()
    }

    fn jury_error(&self, why: String) -> JudgeError {
        JuryError::Problem {
            problem: self.name().to_string(),
            why,
        }
        .into()
    }

    /// Do the input validators accept `input`? A validator that fails is a jury error.
    fn valid(&self, input: &[u8], shown: &str) -> Result<Result<(), String>, JudgeError> {
        let stop = self.session.cancel.flag();
        Ok(
            match self.setup.jury.check_input(input, shown, self.case, stop)? {
                InputVerdict::Valid => Ok(()),
                InputVerdict::Invalid { validator, message } => Err(format!(
                    "rejected by {validator}{}",
                    if message.is_empty() {
                        String::new()
                    } else {
                        format!(": {message}")
                    }
                )),
            },
        )
    }

    /// The reference's answer to `input` (a valid input): what it printed. A reference that
    /// does not end well within the limits is a jury error.
    fn expected(
        &self,
        slot: usize,
        input: &[u8],
        shown: &str,
    ) -> Result<Option<String>, JudgeError> {
        let loaded = loaded(shown, input, String::new());
        let session = self.session;
        let run = self
            .setup
            .reference
            .run_test(slot, &loaded, &session.limits, session.cancel.flag())
            .map_err(|e| JudgeError::sandbox("running the reference", e))?;
        if run.interrupted {
            return Ok(None);
        }
        let (verdict, message) = judge(&run, &session.limits, |_| Ok::<(), String>(()));
        if verdict != Verdict::AC {
            return Err(self.jury_error(format!(
                "the reference {} got {verdict} on {shown}, a valid input ({message}): a jury \
                 error, not the submission's{}",
                self.setup.reference_shown,
                input_excerpt(input)
            )));
        }
        Ok(Some(String::from_utf8_lossy(&run.stdout).into_owned()))
    }

    /// Judges the submission on a valid `input` against the reference (`None`: interrupted).
    fn judge(&self, slot: usize, input: &[u8], shown: &str) -> Result<Option<Judged>, JudgeError> {
        let Some(expected) = self.expected(slot, input, shown)? else {
            return Ok(None);
        };
        let session = self.session;
        let loaded = loaded(shown, input, expected);
        let run = self
            .setup
            .submission
            .run_test(slot, &loaded, &session.limits, session.cancel.flag())
            .map_err(|e| JudgeError::sandbox("running a stress case", e))?;
        if run.interrupted {
            return Ok(None);
        }
        let mut jury_error = None;
        let (verdict, message) = judge(&run, &session.limits, |out| {
            match self.checker.check(&loaded, out) {
                Ok(Checked::Accepted) => Ok(()),
                Ok(Checked::Rejected(why)) => Err(why),
                Err(e) => {
                    let why = e.to_string();
                    jury_error = Some(e);
                    Err(why)
                }
            }
        });
        if let Some(e) = jury_error {
            return Err(e);
        }
        // What the submission printed, as written (the finding's renderer escapes it).
        let shown_output = String::from_utf8_lossy(&run.stdout).into_owned();
        Ok(Some(match verdict {
            Verdict::AC => Judged::Agrees,
            Verdict::WA => Judged::Disagrees {
                expected: loaded.answer,
                got: shown_output,
            },
            other => Judged::Disagrees {
                expected: loaded.answer,
                got: format!("{other}: {message}\n{shown_output}"),
            },
        }))
    }

    /// Case `case`'s input, generated and validated.
    fn generate(&self, slot: usize, case: u64) -> Result<Vec<u8>, JudgeError> {
        let seed = case_seed(self.seed, case);
        let input = self.setup.generator.generate(
            slot,
            seed,
            case,
            self.name(),
            self.session.cancel.flag(),
        )?;
        let shown = format!("generated case {} (seed {seed})", case + 1);
        if let Err(why) = self.valid(&input, &shown)? {
            return Err(self.jury_error(format!(
                "the generator '{}' made an invalid input for case {} (seed {seed}), {why}: the \
                 generator's fault, not the submission's; it is run as: {}{}",
                self.setup.generator.shown,
                case + 1,
                self.setup
                    .generator
                    .shown
                    .replace("{seed}", &seed.to_string()),
                input_excerpt(&input)
            )));
        }
        Ok(input)
    }
}

/// A test of a generated input, for the seam.
fn loaded(name: &str, input: &[u8], answer: String) -> Loaded {
    Loaded {
        test: Test {
            name: name.to_string(),
            input: PathBuf::new(),
            answer: PathBuf::new(),
        },
        input: input.to_vec(),
        answer,
    }
}

/// The start of an input for a jury error: its first lines, escaped by the error's writer.
fn input_excerpt(input: &[u8]) -> String {
    let text = String::from_utf8_lossy(&input[..input.len().min(2000)]).into_owned();
    let lines: Vec<&str> = text.lines().take(10).collect();
    let more = if text.lines().count() > 10 || input.len() > 2000 {
        "\n…"
    } else {
        ""
    };
    format!("\n{}{more}", lines.join("\n"))
}

/// The worker asking: a slot of the sandboxes (the pool has one thread per slot).
fn slot() -> usize {
    rayon::current_thread_index().unwrap_or(0)
}

impl Search for PackageStress<'_> {
    type Input = Case;
    type Task<'s>
        = ()
    where
        Self: 's;

    fn cases_per_task(&self) -> u64 {
        // A case costs processes.
        1
    }

    fn task(&self) {}

    fn input(&self, _task: &mut (), case: u64) -> Result<Case, JudgeError> {
        Ok(Case {
            case,
            input: self.generate(slot(), case)?,
        })
    }

    fn failure(&self, slot: usize, case: &Case) -> Result<Option<String>, JudgeError> {
        let shown = format!("case {}", case.case + 1);
        Ok(match self.judge(slot, &case.input, &shown)? {
            None | Some(Judged::Agrees) => None,
            Some(Judged::Disagrees { got, .. }) => Some(got),
        })
    }

    fn shrink(
        &self,
        case: u64,
        got: String,
        pool: &rayon::ThreadPool,
        session: &Session,
    ) -> Result<Finding, JudgeError> {
        let (progress, cancel, jobs) = (session.progress, &session.cancel, session.jobs);
        let seed = case_seed(self.seed, case);
        let input = self.generate(0, case)?;
        let shown = format!("case {}", case + 1);
        let (expected, got) = match self.judge(0, &input, &shown)? {
            Some(Judged::Disagrees { expected, got }) => (expected, got),
            Some(Judged::Agrees) => {
                // The generator or the submission is not deterministic: the case found is not
                // the one generated again. Shown as found, not shrunk.
                crate::say!(
                    "judge: warning: case {} (seed {seed}) no longer disagrees when generated and \
                     run again: the generator or the submission is not deterministic; not shrunk",
                    case + 1
                );
                return Ok(self.finding(case, seed, &input, String::new(), got, None, 0, false));
            }
            None => {
                return Ok(self.finding(case, seed, &input, String::new(), got, None, 0, false));
            }
        };
        if self.setup.jury.input_validators.is_empty() {
            crate::say!(
                "judge: warning: the package has no input validator the judge runs: shrinking \
                 could not keep the input valid, so the case is shown as generated"
            );
            return Ok(self.finding(case, seed, &input, expected, got, None, 0, false));
        }
        progress.message(&format!("shrinking case {}", case + 1));
        let mut error = None;
        let mut last = (expected.clone(), got.clone());
        let (shrunk, steps, complete) = crate::stress::shrink_generic::shrink(
            &input,
            |variants| {
                if error.is_some() || cancel.is_cancelled() {
                    return None;
                }
                // Every variant of the batch is judged at once, one per slot; the first failing
                // one in order wins, so the result is the one-at-a-time result.
                let results: Vec<Result<Option<Judged>, JudgeError>> = pool.install(|| {
                    variants
                        .par_iter()
                        .map(|v| {
                            let shown = format!("a shrink candidate of case {}", case + 1);
                            match self.valid(v, &shown)? {
                                Ok(()) => self.judge(slot(), v, &shown),
                                Err(_) => Ok(Some(Judged::Agrees)),
                            }
                        })
                        .collect()
                });
                for (k, result) in results.into_iter().enumerate() {
                    match result {
                        Ok(Some(Judged::Disagrees { expected, got })) => {
                            last = (expected, got);
                            return Some(k);
                        }
                        Ok(_) => {}
                        Err(e) => {
                            error = Some(e);
                            return None;
                        }
                    }
                }
                None
            },
            jobs,
            SHRINK_BUDGET,
            |steps| progress.message(&format!("shrinking case {}: {steps} steps", case + 1)),
        );
        if let Some(e) = error {
            return Err(e);
        }
        let complete = complete && !cancel.is_cancelled();
        Ok(self.finding(
            case,
            seed,
            &input,
            expected,
            got,
            Some((shrunk, last)),
            steps,
            complete,
        ))
    }
}

impl PackageStress<'_> {
    /// The finding of case `case`: its input and answers, and the shrunk ones (none: the
    /// original stands for itself).
    #[allow(clippy::too_many_arguments)]
    fn finding(
        &self,
        case: u64,
        seed: u64,
        input: &[u8],
        expected: String,
        got: String,
        shrunk: Option<(Vec<u8>, (String, String))>,
        steps: usize,
        complete: bool,
    ) -> Finding {
        let cancelled = self.session.cancel.is_cancelled();
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        let (shrunk_input, (shrunk_expected, shrunk_got)) =
            shrunk.unwrap_or_else(|| (input.to_vec(), (expected.clone(), got.clone())));
        Finding {
            case,
            family: "generator".to_string(),
            params: format!("seed {seed}"),
            input: text(input),
            expected,
            got,
            shrunk_input: text(&shrunk_input),
            shrunk_expected,
            shrunk_got,
            shrink_steps: steps,
            shrink_complete: complete,
            shrink_interrupted: cancelled,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_seeds_are_fixed_distinct_and_small() {
        // Fixed: a finding replays from its case number, today and later.
        assert_eq!(case_seed(1, 0), case_seed(1, 0));
        let seeds: std::collections::HashSet<u64> = (0..10_000).map(|c| case_seed(7, c)).collect();
        assert_eq!(seeds.len(), 10_000);
        assert!(seeds.iter().all(|&s| s < 1 << 31));
        assert_ne!(case_seed(1, 5), case_seed(2, 5));
    }

    #[test]
    fn words_are_quoted_for_the_shell() {
        assert_eq!(sh_quote("a b"), "'a b'");
        assert_eq!(sh_quote("it's"), "'it'\\''s'");
    }
}
