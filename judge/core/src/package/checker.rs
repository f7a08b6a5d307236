//! A package's checker ([`Checker`]): the format's default output validator in process, with
//! `problem.yaml`'s flags and the test group's `output_validator_args`; or the package's own
//! output validator, run per test in a jury box as the format says:
//! `validator /box/case/input.in /box/case/answer.ans /box/feedback/ [args] < output`,
//! exit 42 accepts, 43 rejects (with `judgemessage.txt` as the reason), anything else is a
//! jury error (exit 2), never the contestant's wrong answer.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::thread::ThreadId;

use package_format::TestCase;
use package_format::default_output_validator::{self, Flags};

use super::PackageProblem;
use super::jury::{ACCEPT, JuryProgram, REJECT, ended, validator_words};
use super::score::ValidatorScore;
use crate::error::{JudgeError, JuryError};
use crate::runner::{Checked, Checker, Loaded, Runs};
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
    /// An interactive problem: the output validator talks to the submission while it runs
    /// ([`PackageChecker::runs`]), and says its word then.
    interactive: bool,
    /// A multi-pass problem's most passes (`limits.validation_passes`): its runs are
    /// [`MultiPass`]'s, which say the validator's word as an interactive run's does.
    multi_pass: Option<u64>,
    /// What the validator said of each interactive run, by the runner's thread that ran it:
    /// the runner judges a run (`Checker::check`) on the thread that ran it (`Runs::run_test`),
    /// right after it, so the word is taken there.
    said: Mutex<HashMap<ThreadId, Said>>,
    /// A scoring problem: an accepted test's `score.txt` / `score_multiplier.txt` is read.
    scoring: bool,
    /// What the validator scored each accepted test, by test name, until taken
    /// ([`PackageChecker::take_scores`]).
    scores: Mutex<HashMap<String, ValidatorScore>>,
}

/// What an interactive run's validator said.
#[derive(Debug)]
enum Said {
    Accepted,
    Rejected(String),
    /// The validator failed (a jury error), in words.
    Failed(String),
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
            interactive: problem.package.metadata.problem_type.interactive,
            multi_pass: problem
                .package
                .metadata
                .problem_type
                .multi_pass
                .then_some(problem.package.metadata.limits.validation_passes),
            custom,
            never: AtomicBool::new(false),
            said: Mutex::new(HashMap::new()),
            scoring: problem.package.metadata.problem_type.scoring,
            scores: Mutex::new(HashMap::new()),
        })
    }

    /// What the output validator scored each accepted test since the last call, by test name
    /// (a scoring problem's `score.txt` or `score_multiplier.txt`).
    pub fn take_scores(&self) -> HashMap<String, ValidatorScore> {
        std::mem::take(&mut *self.scores.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Keeps what the validator scored accepted test `test` (its feedback folder `feedback`),
    /// for a scoring problem; `Err`: a score file it may not write, in words (a jury error).
    fn keep_score(&self, test: &Loaded, feedback: &[sandbox::FeedbackFile]) -> Result<(), String> {
        if !self.scoring {
            return Ok(());
        }
        let mut scores = self.scores.lock().unwrap_or_else(|e| e.into_inner());
        match validator_score(feedback) {
            Ok(Some(score)) => {
                scores.insert(test.test.name.clone(), score);
                Ok(())
            }
            Ok(None) => {
                // A rerun (a TLE judged again alone) must not keep the first run's.
                scores.remove(&test.test.name);
                Ok(())
            }
            Err(why) => Err(format!("test {}: {why}", test.test.name)),
        }
    }

    /// Whether the problem is interactive (its runs are [`PackageChecker::runs`]' pairs).
    pub fn is_interactive(&self) -> bool {
        self.interactive
    }

    /// What runs a submission (built into `submission`) on a test: the sandbox itself, or for
    /// an interactive problem the submission and the output validator connected by pipes.
    pub fn runs<'a>(&'a self, submission: &'a sandbox::Sandbox) -> Box<dyn Runs + 'a> {
        if let Some(passes) = self.multi_pass {
            Box::new(MultiPass {
                submission,
                checker: self,
                passes,
            })
        } else if self.interactive {
            Box::new(Interactive {
                submission,
                checker: self,
            })
        } else {
            Box::new(Borrowed(submission))
        }
    }

    fn case(&self, test: &Loaded) -> Result<&Case, JudgeError> {
        self.cases.get(&test.test.name).ok_or_else(|| {
            JuryError::Problem {
                problem: self.problem.clone(),
                why: format!("{}: a test the checker was not made for", test.test.name),
            }
            .into()
        })
    }

    /// The output validator's command-line arguments for a test: the format's three, then
    /// the test's `output_validator_args`.
    fn validator_args(case: &Case) -> Vec<String> {
        let mut args = vec![
            INPUT_IN_BOX.to_string(),
            ANSWER_IN_BOX.to_string(),
            FEEDBACK_IN_BOX.to_string(),
        ];
        args.extend(case.args.iter().cloned());
        args
    }

    /// A jury error: the validator ended as `f` says, neither accepting nor rejecting.
    fn validator_failed(
        &self,
        test: &Loaded,
        validator: &JuryProgram,
        f: &sandbox::Finished,
        message: &str,
    ) -> String {
        let words = validator_words(f);
        format!(
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
        )
    }
}

/// A submission's sandbox as [`Runs`], borrowed.
pub struct Borrowed<'a>(pub &'a sandbox::Sandbox);

impl Runs for Borrowed<'_> {
    fn slots(&self) -> usize {
        self.0.slots()
    }

    fn run_test(
        &self,
        slot: usize,
        test: &Loaded,
        limits: &sandbox::Limits,
        stop: &AtomicBool,
    ) -> std::io::Result<sandbox::Finished> {
        self.0.run_test(slot, test, limits, stop)
    }
}

/// An interactive problem's runs: the submission and the output validator at once, each in
/// its own box, the validator's standard output the submission's standard input and the other
/// way round (`validator input answer feedback_dir [args]`, as the format says). The
/// submission's CPU time and memory are its own.
struct Interactive<'a> {
    submission: &'a sandbox::Sandbox,
    checker: &'a PackageChecker,
}

impl Runs for Interactive<'_> {
    fn slots(&self) -> usize {
        self.submission.slots()
    }

    fn run_test(
        &self,
        slot: usize,
        test: &Loaded,
        limits: &sandbox::Limits,
        stop: &AtomicBool,
    ) -> std::io::Result<sandbox::Finished> {
        let checker = self.checker;
        let to_io = |e: JudgeError| std::io::Error::other(e.to_string());
        let case = checker.case(test).map_err(to_io)?;
        let Some((validator, jury_limits)) = &checker.custom else {
            return Err(std::io::Error::other(
                "an interactive problem without an output validator",
            ));
        };
        let args = PackageChecker::validator_args(case);
        let files: [(&str, &[u8]); 2] =
            [(INPUT_IN_BOX, &test.input), (ANSWER_IN_BOX, &case.answer)];
        let interaction = validator
            .with_slot(&args, |jury, jury_slot| {
                sandbox::interact(
                    (self.submission, slot, limits),
                    (
                        jury,
                        jury_slot,
                        sandbox::ValidatorIo {
                            files: &files,
                            feedback: true,
                            limits: jury_limits,
                        },
                    ),
                    stop,
                )
            })
            .map_err(to_io)??;
        let (finished, said) = interactive_verdict(&interaction, limits);
        let said = match said {
            Interacted::Said(Said::Accepted) => {
                match checker.keep_score(test, &interaction.validator.feedback) {
                    Ok(()) => Said::Accepted,
                    Err(why) => Said::Failed(why),
                }
            }
            Interacted::Said(said) => said,
            Interacted::ValidatorFailed(message) => Said::Failed(checker.validator_failed(
                test,
                validator,
                &interaction.validator.finished,
                &message,
            )),
        };
        checker
            .said
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(std::thread::current().id(), said);
        Ok(finished)
    }
}

/// The name of the file in which a multi-pass problem's output validator gives the next pass's
/// input.
pub const NEXT_PASS: &str = "nextpass.in";

/// A multi-pass problem's runs (2025-09 "Multi-pass validation"): the submission runs on the
/// test's input, the output validator judges it (or, interactive, talks to it); when the
/// validator accepts and leaves `nextpass.in` in its feedback folder, the submission runs again
/// with that as its input, up to `passes` times. The validator's feedback folder is kept
/// between the passes of a test (the format guarantees it; `nextpass.in` itself is taken out),
/// carried by the judge from one run's box to the next ([`sandbox::Sandbox::run_io_with_feedback`]),
/// never into another test; the submission never sees it. Each pass is one run under the
/// submission's limits (the format: "the time and memory limit apply for each invocation
/// separately"); the test's run is the deciding pass's, with the slowest pass's CPU time, the
/// highest peak memory and the passes' wall time together. What the validator said is kept for
/// the checker, as an interactive run's is.
/// - A pass the submission itself fails (TLE, RE, MLE, OLE): that verdict, no further pass.
/// - 43: WA (its judge message, with the pass); 43 with `nextpass.in`: a jury error.
/// - 42 without `nextpass.in`: AC. 42 with it on the last pass allowed: a jury error (more
///   passes than `limits.validation_passes`).
/// - Anything else (another exit, the validator's limits): a jury error.
struct MultiPass<'a> {
    submission: &'a sandbox::Sandbox,
    checker: &'a PackageChecker,
    passes: u64,
}

/// What one pass of a multi-pass test came to.
enum Pass {
    /// The test is decided: this run, this word.
    Decided(sandbox::Finished, Said),
    /// Another pass follows, on this input, with this feedback folder.
    Next {
        run: sandbox::Finished,
        input: Vec<u8>,
        feedback: Vec<sandbox::FeedbackFile>,
    },
}

impl MultiPass<'_> {
    /// Runs pass `pass` of `test` on `input`, the validator's feedback folder holding `seed`.
    #[allow(clippy::too_many_arguments)]
    fn pass(
        &self,
        slot: usize,
        test: &Loaded,
        case: &Case,
        pass: u64,
        input: &[u8],
        seed: &[sandbox::FeedbackFile],
        limits: &sandbox::Limits,
        stop: &AtomicBool,
    ) -> std::io::Result<Pass> {
        let checker = self.checker;
        let to_io = |e: JudgeError| std::io::Error::other(e.to_string());
        let Some((validator, jury_limits)) = &checker.custom else {
            return Err(std::io::Error::other(
                "a multi-pass problem without an output validator",
            ));
        };
        let args = PackageChecker::validator_args(case);
        // The validator's input file is this pass's input (as BAPCtools gives it): the
        // test's `.in` on the first pass, the `nextpass.in` it wrote after.
        let files: [(&str, &[u8]); 2] = [(INPUT_IN_BOX, input), (ANSWER_IN_BOX, &case.answer)];
        let (run, ran) = if checker.interactive {
            let interaction = validator
                .with_slot(&args, |jury, jury_slot| {
                    sandbox::interact_with_feedback(
                        (self.submission, slot, limits),
                        (
                            jury,
                            jury_slot,
                            sandbox::ValidatorIo {
                                files: &files,
                                feedback: true,
                                limits: jury_limits,
                            },
                        ),
                        seed,
                        stop,
                    )
                })
                .map_err(to_io)??;
            let (run, interacted) = interactive_verdict(&interaction, limits);
            match interacted {
                Interacted::ValidatorFailed(message) => {
                    let why = checker.validator_failed(
                        test,
                        validator,
                        &interaction.validator.finished,
                        &message,
                    );
                    return Ok(Pass::Decided(run, Said::Failed(in_pass(pass, &why))));
                }
                _ if run.interrupted || !ended_well(&run, limits) => {
                    return Ok(Pass::Decided(run, Said::Accepted));
                }
                Interacted::Said(_) => (run, interaction.validator),
            }
        } else {
            let run = self.submission.run(slot, input, limits, stop)?;
            if run.interrupted || !ended_well(&run, limits) {
                // Its own verdict: the validator has nothing to judge.
                return Ok(Pass::Decided(run, Said::Accepted));
            }
            let ran = validator
                .with_slot(&args, |jury, jury_slot| {
                    jury.run_io_with_feedback(
                        jury_slot,
                        sandbox::RunIo {
                            stdin: sandbox::Stdin::Bytes(&run.stdout),
                            stdout: sandbox::Stdout::Capture,
                            files: &files,
                            feedback: true,
                            limits: jury_limits,
                            stop,
                        },
                        seed,
                    )
                })
                .map_err(to_io)?
                .map_err(|e| std::io::Error::other(format!("running {}: {e}", validator.shown)))?;
            if ran.finished.interrupted {
                let mut run = run;
                run.interrupted = true;
                return Ok(Pass::Decided(run, Said::Accepted));
            }
            (run, ran)
        };
        Ok(self.after_validator(test, validator, pass, run, ran))
    }

    /// What the validator's end (`ran`) and feedback folder make of pass `pass`, whose run
    /// (`run`) ended well.
    fn after_validator(
        &self,
        test: &Loaded,
        validator: &JuryProgram,
        pass: u64,
        run: sandbox::Finished,
        ran: sandbox::Ran,
    ) -> Pass {
        let f = &ran.finished;
        let message = ran
            .feedback
            .iter()
            .find(|file| file.name == "judgemessage.txt")
            .map(|file| judge_message(&file.contents))
            .unwrap_or_default();
        let next = ran.feedback.iter().find(|file| file.name == NEXT_PASS);
        let failed = |why: String| Pass::Decided(run.clone(), Said::Failed(in_pass(pass, &why)));
        let ended_in_time = !f.cpu_exceeded && !f.wall_exceeded;
        match f.exit {
            sandbox::Exit::Code(REJECT) if ended_in_time => {
                if next.is_some() {
                    return failed(format!(
                        "test {}: output validator {} rejected (43) and wrote {NEXT_PASS}: \
                         only an accepted pass may have a next (the format calls this a judge \
                         error)",
                        test.test.name, validator.shown
                    ));
                }
                let why = if message.is_empty() {
                    "rejected by the output validator".to_string()
                } else {
                    message
                };
                Pass::Decided(run, Said::Rejected(in_pass(pass, &why)))
            }
            sandbox::Exit::Code(ACCEPT) if ended_in_time => {
                let Some(next) = next else {
                    return match self.checker.keep_score(test, &ran.feedback) {
                        Ok(()) => Pass::Decided(run, Said::Accepted),
                        Err(why) => failed(why),
                    };
                };
                if pass >= self.passes {
                    return failed(format!(
                        "test {}: output validator {} wrote {NEXT_PASS} after pass {pass}, the \
                         last that limits.validation_passes ({}) allows",
                        test.test.name, validator.shown, self.passes
                    ));
                }
                // The next pass must see the folder as the validator left it; what the judge
                // could not carry (cut at the box's cap; a link, a folder) would change it.
                if let Some(cut) = ran.feedback.iter().find(|file| file.truncated) {
                    return failed(format!(
                        "test {}: output validator {} left {} larger than its feedback folder \
                         may hold ({} bytes in all)",
                        test.test.name,
                        validator.shown,
                        cut.name,
                        sandbox::JuryBox::default().feedback_bytes
                    ));
                }
                if let Some(skipped) = ran.feedback_skipped.first() {
                    return failed(format!(
                        "test {}: output validator {} left what the next pass cannot be given \
                         ({skipped}): only regular files are kept between passes",
                        test.test.name, validator.shown
                    ));
                }
                let input = next.contents.clone();
                let feedback = ran
                    .feedback
                    .into_iter()
                    .filter(|file| file.name != NEXT_PASS)
                    .collect();
                Pass::Next {
                    run,
                    input,
                    feedback,
                }
            }
            _ => failed(self.checker.validator_failed(test, validator, f, &message)),
        }
    }
}

/// A multi-pass message, naming its pass.
fn in_pass(pass: u64, why: &str) -> String {
    format!("pass {pass}: {why}")
}

/// Whether a run ended well by the verdict rule (no TLE, MLE, OLE, RE): only then does its
/// output go to the validator.
fn ended_well(run: &sandbox::Finished, limits: &sandbox::Limits) -> bool {
    crate::verdict::judge(run, limits, |_| Ok::<(), String>(())).0 == crate::verdict::Verdict::AC
}

impl Runs for MultiPass<'_> {
    fn slots(&self) -> usize {
        self.submission.slots()
    }

    fn run_test(
        &self,
        slot: usize,
        test: &Loaded,
        limits: &sandbox::Limits,
        stop: &AtomicBool,
    ) -> std::io::Result<sandbox::Finished> {
        let case = self
            .checker
            .case(test)
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        let mut input = std::borrow::Cow::Borrowed(&test.input[..]);
        let mut seed = Vec::new();
        // The passes so far: the slowest CPU time, the highest peak, the wall time in all.
        let mut cpu = std::time::Duration::ZERO;
        let mut peak_kb = 0;
        let mut wall = std::time::Duration::ZERO;
        let mut pass = 1;
        let (mut run, said) = loop {
            match self.pass(slot, test, case, pass, &input, &seed, limits, stop)? {
                Pass::Decided(run, said) => break (run, said),
                Pass::Next {
                    run,
                    input: next,
                    feedback,
                } => {
                    cpu = cpu.max(run.cpu);
                    peak_kb = peak_kb.max(run.peak_kb);
                    wall += run.wall;
                    input = std::borrow::Cow::Owned(next);
                    seed = feedback;
                    pass += 1;
                }
            }
        };
        run.cpu = run.cpu.max(cpu);
        run.peak_kb = run.peak_kb.max(peak_kb);
        run.wall += wall;
        self.checker
            .said
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(std::thread::current().id(), said);
        Ok(run)
    }
}

/// How an interaction went, for the verdict.
#[derive(Debug)]
enum Interacted {
    Said(Said),
    /// The validator neither accepted nor rejected; its judge message.
    ValidatorFailed(String),
}

/// The verdict of an interaction by the format's rules, as problemtools and BAPCtools decide
/// it: from the two exit codes and which side was over first (reliable when one side ends
/// because the other did: see [`sandbox::Interaction::first`]): the run to judge (the
/// runner's verdict rule then reads its time, memory and exit) and what the validator said,
/// for the checker.
/// - The validator neither accepted (42) nor rejected (43), or its own limits ended it: a jury
///   error, whatever the submission did.
/// - The submission over its time limit: TLE (a validator that then read the end of its input
///   and rejected does not make it WA).
/// - The validator rejected (43) first: WA, even if the submission crashed after it (killed
///   writing to a closed pipe, say): the run is given as one that ended well.
/// - The submission was over first: its own end decides (RE, MLE), and if it ended well, the
///   validator's verdict (a rejection of an early crash is the crash's consequence: RE).
/// - The validator accepted (42): the submission's own end decides (RE, MLE, or AC); one still
///   running a grace period after the validator accepted is TLE.
fn interactive_verdict(
    interaction: &sandbox::Interaction,
    limits: &sandbox::Limits,
) -> (sandbox::Finished, Interacted) {
    let validator = &interaction.validator.finished;
    let message = interaction
        .validator
        .feedback
        .iter()
        .find(|file| file.name == "judgemessage.txt")
        .map(|file| judge_message(&file.contents))
        .unwrap_or_default();
    let mut run = interaction.submission.clone();
    // What the submission wrote went to the validator: nothing of it is shown as output.
    run.stdout.clear();
    if run.interrupted || validator.interrupted {
        run.interrupted = true;
        return (run, Interacted::Said(Said::Accepted));
    }
    let validator_ended_well = !validator.cpu_exceeded && !validator.wall_exceeded;
    let said = match validator.exit {
        sandbox::Exit::Code(ACCEPT) if validator_ended_well => Said::Accepted,
        sandbox::Exit::Code(REJECT) if validator_ended_well => {
            Said::Rejected(if message.is_empty() {
                "rejected by the output validator".to_string()
            } else {
                message
            })
        }
        _ => {
            // The runner must reach the checker, which reports the jury error.
            let clean = sandbox::Finished {
                exit: sandbox::Exit::Code(0),
                cpu: std::time::Duration::ZERO,
                peak_kb: 0,
                output_exceeded: false,
                wall_exceeded: false,
                cpu_exceeded: false,
                memory_exceeded: false,
                ..run
            };
            return (clean, Interacted::ValidatorFailed(message));
        }
    };
    let over_time = run.cpu > limits.cpu || (run.wall_exceeded && !interaction.submission_cut_off);
    let validator_first = interaction.first == sandbox::Side::Validator;
    match said {
        _ if over_time => {}
        Said::Rejected(_) if validator_first => {
            run.exit = sandbox::Exit::Code(0);
            run.output_exceeded = false;
            run.memory_exceeded = false;
            run.wall_exceeded = false;
            run.cpu_exceeded = false;
            run.peak_kb = run.peak_kb.min(limits.memory_cap() / 1024);
        }
        _ if interaction.submission_cut_off => run.wall_exceeded = true,
        _ => {}
    }
    (run, Interacted::Said(said))
}

impl Checker for PackageChecker {
    fn check(&self, test: &Loaded, output: &[u8]) -> Result<Checked, JudgeError> {
        if self.interactive || self.multi_pass.is_some() {
            let said = self
                .said
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&std::thread::current().id());
            return match said {
                Some(Said::Accepted) => Ok(Checked::Accepted),
                Some(Said::Rejected(why)) => Ok(Checked::Rejected(why)),
                Some(Said::Failed(why)) => Err(JuryError::Problem {
                    problem: self.problem.clone(),
                    why,
                }
                .into()),
                None => Err(JuryError::Problem {
                    problem: self.problem.clone(),
                    why: format!(
                        "test {}: a run judged without its validator's word (interactive or \
                         multi-pass)",
                        test.test.name
                    ),
                }
                .into()),
            };
        }
        let case = self.case(test)?;
        let Some((validator, limits)) = &self.custom else {
            return Ok(
                match default_output_validator::check(&case.answer, output, &case.flags) {
                    Ok(()) => Checked::Accepted,
                    Err(rejection) => Checked::Rejected(rejection.to_string()),
                },
            );
        };
        let args = PackageChecker::validator_args(case);
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
                self.keep_score(test, &ran.feedback)
                    .map_err(|why| JuryError::Problem {
                        problem: self.problem.clone(),
                        why,
                    })?;
                Ok(Checked::Accepted)
            }
            sandbox::Exit::Code(REJECT) if !f.cpu_exceeded && !f.wall_exceeded => {
                Ok(Checked::Rejected(if message.is_empty() {
                    "rejected by the output validator".to_string()
                } else {
                    message
                }))
            }
            _ => Err(JuryError::Problem {
                problem: self.problem.clone(),
                why: self.validator_failed(test, validator, f, &message),
            }
            .into()),
        }
    }
}

/// What a validator's feedback folder says of an accepted test's score: `score.txt` (a
/// non-negative number) or `score_multiplier.txt` (a number in [0, 1]), or neither; both, or
/// contents that are not such a number, are an `Err` in words (the format: a judge error).
pub fn validator_score(
    feedback: &[sandbox::FeedbackFile],
) -> Result<Option<ValidatorScore>, String> {
    let read = |name: &str, max: f64| -> Result<Option<f64>, String> {
        let Some(file) = feedback.iter().find(|f| f.name == name) else {
            return Ok(None);
        };
        let text = String::from_utf8_lossy(&file.contents);
        match text.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && (0.0..=max).contains(&x) && !file.truncated => Ok(Some(x)),
            _ => Err(format!(
                "the output validator's {name} holds {:?}, not a number in [0, {max}]",
                shorten(text.trim(), 40)
            )),
        }
    };
    match (
        read("score.txt", f64::MAX)?,
        read("score_multiplier.txt", 1.0)?,
    ) {
        (Some(_), Some(_)) => {
            Err("the output validator wrote both score.txt and score_multiplier.txt".to_string())
        }
        (Some(score), None) => Ok(Some(ValidatorScore::Score(score))),
        (None, Some(multiplier)) => Ok(Some(ValidatorScore::Multiplier(multiplier))),
        (None, None) => Ok(None),
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
    use super::{Interacted, Said, interactive_verdict, judge_message};
    use crate::verdict::{Verdict, judge};
    use sandbox::{Exit, FeedbackFile, Finished, Interaction, Limits, Ran, Side};
    use std::time::Duration;

    fn ended(exit: Exit, cpu_ms: u64) -> Finished {
        Finished {
            exit,
            cpu: Duration::from_millis(cpu_ms),
            wall: Duration::from_millis(cpu_ms),
            peak_kb: 1024,
            stdout: Vec::new(),
            stderr: Vec::new(),
            output_exceeded: false,
            wall_exceeded: false,
            cpu_exceeded: false,
            memory_exceeded: false,
            interrupted: false,
        }
    }

    /// The verdict the runner gives an interaction in which the submission ended as
    /// `submission` and the validator with `validator_exit`, `first` ending first, and what
    /// the validator said.
    fn verdict_of(
        submission: Finished,
        validator_exit: Exit,
        first: Side,
        cut_off: bool,
    ) -> (Verdict, Option<String>) {
        let limits = Limits::new(Duration::from_secs(1), 256);
        let interaction = Interaction {
            submission,
            validator: Ran {
                finished: ended(validator_exit, 1),
                feedback: vec![FeedbackFile {
                    name: "judgemessage.txt".to_string(),
                    contents: b"said so\n".to_vec(),
                    truncated: false,
                }],
                feedback_skipped: Vec::new(),
            },
            first,
            submission_cut_off: cut_off,
        };
        let (run, interacted) = interactive_verdict(&interaction, &limits);
        let said = match interacted {
            Interacted::Said(said) => said,
            Interacted::ValidatorFailed(message) => return (Verdict::CE, Some(message)),
        };
        let (verdict, _) = judge(&run, &limits, |_| match &said {
            Said::Accepted => Ok(()),
            Said::Rejected(why) => Err(why.clone()),
            Said::Failed(why) => Err(why.clone()),
        });
        (verdict, None)
    }

    #[test]
    fn an_interaction_is_judged_by_the_exit_codes_and_who_ended_first() {
        use Side::{Submission, Validator};
        let ok = || ended(Exit::Code(0), 10);
        let crashed = || ended(Exit::Signal(libc::SIGPIPE), 10);
        for first in [Submission, Validator] {
            assert_eq!(
                verdict_of(ok(), Exit::Code(42), first, false).0,
                Verdict::AC
            );
            assert_eq!(
                verdict_of(ok(), Exit::Code(43), first, false).0,
                Verdict::WA
            );
            // Accepted, and the submission crashed: its own verdict.
            assert_eq!(
                verdict_of(crashed(), Exit::Code(42), first, false).0,
                Verdict::RE
            );
            // Over its time, whatever the validator made of the end of its input.
            assert_eq!(
                verdict_of(ended(Exit::Signal(9), 1500), Exit::Code(43), first, false).0,
                Verdict::TLE
            );
        }
        // Rejected, then the submission died writing to the closed pipe: still WA.
        assert_eq!(
            verdict_of(crashed(), Exit::Code(43), Validator, false).0,
            Verdict::WA
        );
        // The submission crashed first, and the validator rejected the little it said: RE
        // (problemtools and BAPCtools judge it so).
        assert_eq!(
            verdict_of(crashed(), Exit::Code(43), Submission, false).0,
            Verdict::RE
        );
        // Still running a grace period after an accepting validator: TLE; after a
        // rejecting one: WA.
        let killed = || ended(Exit::Signal(9), 5);
        assert_eq!(
            verdict_of(killed(), Exit::Code(42), Validator, true).0,
            Verdict::TLE
        );
        assert_eq!(
            verdict_of(killed(), Exit::Code(43), Validator, true).0,
            Verdict::WA
        );
        // A validator that neither accepts nor rejects fails the jury, whatever the
        // submission did.
        for first in [Submission, Validator] {
            for submission in [ok(), crashed(), ended(Exit::Code(0), 1500)] {
                let (_, failed) = verdict_of(submission, Exit::Code(1), first, false);
                assert_eq!(failed.as_deref(), Some("said so"));
            }
        }
    }

    #[test]
    fn a_score_file_is_one_number_in_range() {
        use super::{ValidatorScore, validator_score};
        let file = |name: &str, text: &str| FeedbackFile {
            name: name.to_string(),
            contents: text.as_bytes().to_vec(),
            truncated: false,
        };
        assert_eq!(validator_score(&[file("judgemessage.txt", "x")]), Ok(None));
        assert_eq!(
            validator_score(&[file("score.txt", " 12.5\n")]),
            Ok(Some(ValidatorScore::Score(12.5)))
        );
        assert_eq!(
            validator_score(&[file("score_multiplier.txt", "0.25")]),
            Ok(Some(ValidatorScore::Multiplier(0.25)))
        );
        for bad in [
            vec![file("score.txt", "-1")],
            vec![file("score.txt", "lots")],
            vec![file("score.txt", "inf")],
            vec![file("score_multiplier.txt", "1.5")],
            vec![file("score.txt", "1"), file("score_multiplier.txt", "1")],
        ] {
            assert!(validator_score(&bad).is_err(), "{bad:?}");
        }
    }

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
