//! What a jury submission is expected to get, and the check of a judged run against it.
//!
//! An [`Expectation`] is a list of [`Rule`]s, all of which must hold (2025-09 "Example
//! submissions"): each rule applies to every test, or to the tests matched by a glob over
//! test names (a test is matched when its name or one of its groups' is), and says
//!
//! - `permitted`: every matched test's verdict is in this set;
//! - `required`: at least one matched test's verdict is in this set (so a rule whose glob
//!   matches no test cannot hold);
//! - `final_verdicts` (DOMjudge's `@EXPECTED_RESULTS@`, legacy `partially_accepted`): the
//!   submission's verdict by the first-failure rule is in this set;
//! - `score`: the submission's score (or, under a test glob, the matched groups' scores) lies
//!   in the range;
//! - `message`: some matched test's `judgemessage.txt` contains this text.
//!
//! Verdicts are compared by the spec's classes (`RTE` covers MLE and OLE). A judge error on
//! any test never satisfies an expectation (it is the jury's fault, not the submission's); a
//! compile error satisfies only rules that name `CE` (only `@EXPECTED_RESULTS@` can).

use std::fmt;

use crate::glob::Glob;
use crate::verdict::{Verdict, VerdictSet};

/// Where a rule comes from, for messages.
#[derive(Clone, Debug, PartialEq)]
pub enum RuleOrigin {
    /// The format's default for a submissions folder (`wrong_answer`, …).
    Folder(String),
    /// An entry of `submissions/submissions.yaml`, by its submission glob.
    SubmissionsYaml(String),
    /// An `@EXPECTED_RESULTS@:` line in a source file (its path under `submissions/`).
    ExpectedResults(String),
}

impl fmt::Display for RuleOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleOrigin::Folder(folder) => write!(f, "folder {folder}/"),
            RuleOrigin::SubmissionsYaml(glob) => write!(f, "submissions.yaml `{glob}`"),
            RuleOrigin::ExpectedResults(file) => write!(f, "@EXPECTED_RESULTS@ in {file}"),
        }
    }
}

/// Whether and how a rule bounds the time limit (`use_for_time_limit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimeLimitUse {
    /// Not given: the spec's rule decides (see [`Rule::time_limit_role`]).
    #[default]
    Default,
    /// `false`: this rule does not bound the time limit.
    No,
    /// `lower`: its slowest matched run bounds the time limit from below.
    Lower,
    /// `upper`: its slowest matched run bounds the time limit from above.
    Upper,
}

/// How a rule bounds the time limit, after the spec's default rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeLimitRole {
    /// `time_limit ≥ slowest matched run × ac_to_time_limit`.
    Lower,
    /// `time_limit × time_limit_to_tle ≤ slowest matched run`.
    Upper,
}

/// One requirement on a submission's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// Where it comes from.
    pub origin: RuleOrigin,
    /// The tests it applies to: `None` for all.
    pub tests: Option<Glob>,
    /// Every matched test's verdict must be in this set.
    pub permitted: VerdictSet,
    /// At least one matched test's verdict must be in this set.
    pub required: VerdictSet,
    /// The submission's final verdict (first failure) must be in this set.
    pub final_verdicts: Option<VerdictSet>,
    /// The score must lie in this inclusive range.
    pub score: Option<(f64, f64)>,
    /// Some matched test's judge message must contain this.
    pub message: Option<String>,
    /// Legacy `partially_accepted`: the score must be below the maximum (the verdict itself is
    /// the grader's, which this crate does not compute).
    pub below_max_score: bool,
    /// `use_for_time_limit`.
    pub use_for_time_limit: TimeLimitUse,
}

impl Rule {
    /// A rule that allows anything a run can get, from `origin`, for all tests.
    pub fn new(origin: RuleOrigin) -> Rule {
        Rule {
            origin,
            tests: None,
            permitted: VerdictSet::any_run(),
            required: VerdictSet::any_run(),
            final_verdicts: None,
            score: None,
            message: None,
            below_max_score: false,
            use_for_time_limit: TimeLimitUse::Default,
        }
    }

    /// How this rule bounds the time limit (2025-09 "Timelimit inference"): `upper` when it
    /// requires exactly TLE, `lower` when it does not permit TLE, unless `use_for_time_limit`
    /// says otherwise.
    pub fn time_limit_role(&self) -> Option<TimeLimitRole> {
        match self.use_for_time_limit {
            TimeLimitUse::No => None,
            TimeLimitUse::Lower => Some(TimeLimitRole::Lower),
            TimeLimitUse::Upper => Some(TimeLimitRole::Upper),
            TimeLimitUse::Default => {
                if self.required == VerdictSet::of(&[Verdict::Tle]) {
                    Some(TimeLimitRole::Upper)
                } else if !self.permitted.contains(Verdict::Tle) {
                    Some(TimeLimitRole::Lower)
                } else {
                    None
                }
            }
        }
    }

    fn applies_to(&self, test: &str) -> bool {
        self.tests.as_ref().is_none_or(|g| g.matches(test))
    }

    fn describe(&self) -> String {
        match &self.tests {
            None => self.origin.to_string(),
            Some(g) => format!("{} for `{}`", self.origin, g.as_str()),
        }
    }
}

/// Everything expected of one submission.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Expectation {
    /// The rules, all of which must hold.
    pub rules: Vec<Rule>,
}

/// One judged test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestResult<'a> {
    /// The test's name (path under `data/` without extension: `secret/group1/03`).
    pub name: &'a str,
    /// Its verdict.
    pub verdict: Verdict,
    /// The output validator's `judgemessage.txt` ("" if none).
    pub judge_message: &'a str,
}

/// A judged submission, to check against its [`Expectation`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome<'a> {
    /// Every test's result, in the package's order (all tests: an expectation can only be
    /// confirmed on a complete run). Empty for a compile error.
    pub tests: &'a [TestResult<'a>],
    /// `Some(Verdict::Ce)` when the submission did not compile; otherwise `None` and the
    /// final verdict is the first failure of `tests`.
    pub build_failure: Option<Verdict>,
    /// The submission's score, for scoring problems.
    pub score: Option<f64>,
    /// Scores of test groups by name (`secret/group1`), for scoring problems.
    pub group_scores: &'a [(&'a str, f64)],
    /// The highest score the problem gives, for scoring problems.
    pub max_score: Option<f64>,
}

impl Outcome<'_> {
    /// The submission's verdict: the build failure, else the first non-AC test, else AC.
    pub fn final_verdict(&self) -> Verdict {
        self.build_failure
            .unwrap_or_else(|| Verdict::first_failure(self.tests.iter().map(|t| t.verdict)))
    }
}

/// One way an outcome breaks an expectation.
#[derive(Clone, Debug, PartialEq)]
pub enum Reason {
    /// A test got a judge error: the jury's side failed, nothing can be concluded.
    JudgeError {
        /// The test.
        test: String,
    },
    /// The submission did not compile and the rule does not allow that.
    CompileError {
        /// The rule.
        rule: String,
    },
    /// A test's verdict is not permitted.
    NotPermitted {
        /// The rule.
        rule: String,
        /// The test.
        test: String,
        /// Its verdict.
        verdict: Verdict,
        /// What the rule permits.
        permitted: VerdictSet,
    },
    /// No matched test got a required verdict.
    NoneRequired {
        /// The rule.
        rule: String,
        /// What it requires.
        required: VerdictSet,
        /// What the matched tests got.
        got: VerdictSet,
        /// How many tests the rule matched.
        matched: usize,
    },
    /// The final verdict is not one the rule allows.
    FinalVerdict {
        /// The rule.
        rule: String,
        /// The final verdict.
        verdict: Verdict,
        /// What the rule allows.
        allowed: VerdictSet,
    },
    /// The score is outside the range, or unknown.
    Score {
        /// The rule.
        rule: String,
        /// The score, if known.
        score: Option<f64>,
        /// The range.
        range: (f64, f64),
    },
    /// Legacy `partially_accepted`: the score is not below the maximum, or unknown.
    NotPartial {
        /// The rule.
        rule: String,
        /// The score and the maximum, if known.
        score: Option<(f64, f64)>,
    },
    /// No judge message contains the text.
    Message {
        /// The rule.
        rule: String,
        /// The text.
        message: String,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::JudgeError { test } => write!(f, "judge error on {test}"),
            Reason::CompileError { rule } => write!(f, "{rule}: did not compile"),
            Reason::NotPermitted {
                rule,
                test,
                verdict,
                permitted,
            } => write!(f, "{rule}: {test} got {verdict}, permitted {permitted}"),
            Reason::NoneRequired {
                rule,
                required,
                got,
                matched,
            } => {
                if *matched == 0 {
                    write!(f, "{rule}: matches no test, so none got one of {required}")
                } else {
                    write!(f, "{rule}: no test got one of {required} (got {got})")
                }
            }
            Reason::FinalVerdict {
                rule,
                verdict,
                allowed,
            } => write!(
                f,
                "{rule}: final verdict {verdict}, expected one of {allowed}"
            ),
            Reason::Score { rule, score, range } => match score {
                Some(s) => write!(f, "{rule}: score {s} outside [{}, {}]", range.0, range.1),
                None => write!(
                    f,
                    "{rule}: score unknown, expected in [{}, {}]",
                    range.0, range.1
                ),
            },
            Reason::NotPartial { rule, score } => match score {
                Some((s, max)) => {
                    write!(f, "{rule}: score {s} is the maximum {max}, expected less")
                }
                None => write!(
                    f,
                    "{rule}: score or maximum unknown, expected a partial score"
                ),
            },
            Reason::Message { rule, message } => {
                write!(f, "{rule}: no judge message contains {message:?}")
            }
        }
    }
}

/// Why an outcome does not meet its expectation: every broken rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Why {
    /// The reasons, rule by rule in order.
    pub reasons: Vec<Reason>,
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let texts: Vec<String> = self.reasons.iter().map(Reason::to_string).collect();
        f.write_str(&texts.join("; "))
    }
}

impl std::error::Error for Why {}

/// Verdicts in the spec's classes: a rule naming `RTE` accepts MLE and OLE too.
fn class_set(set: VerdictSet) -> VerdictSet {
    let mut out = set;
    for v in set.iter() {
        if let Some(class) = v.spec_class() {
            out = out.union(class.verdicts());
        }
    }
    out
}

impl Expectation {
    /// Check a judged submission (see the module doc). `Err` lists every broken rule.
    pub fn allows(&self, outcome: &Outcome) -> Result<(), Why> {
        let mut reasons = Vec::new();
        if let Some(t) = outcome.tests.iter().find(|t| t.verdict == Verdict::Je) {
            reasons.push(Reason::JudgeError {
                test: t.name.to_string(),
            });
            return Err(Why { reasons });
        }
        let final_verdict = outcome.final_verdict();
        if final_verdict == Verdict::Ce && outcome.build_failure.is_some() {
            for rule in self.rules.iter().filter(|r| r.tests.is_none()) {
                let ok = rule.permitted.contains(Verdict::Ce)
                    || rule.final_verdicts.is_some_and(|f| f.contains(Verdict::Ce));
                if !ok {
                    reasons.push(Reason::CompileError {
                        rule: rule.describe(),
                    });
                }
            }
            return if reasons.is_empty() {
                Ok(())
            } else {
                Err(Why { reasons })
            };
        }
        for rule in &self.rules {
            let permitted = class_set(rule.permitted);
            let required = class_set(rule.required);
            let mut got = VerdictSet::EMPTY;
            let mut matched = 0usize;
            let mut message_found = false;
            for test in outcome.tests.iter().filter(|t| rule.applies_to(t.name)) {
                matched += 1;
                got.insert(test.verdict);
                if !permitted.contains(test.verdict) {
                    reasons.push(Reason::NotPermitted {
                        rule: rule.describe(),
                        test: test.name.to_string(),
                        verdict: test.verdict,
                        permitted: rule.permitted,
                    });
                }
                if let Some(m) = &rule.message {
                    message_found |= test.judge_message.contains(m.as_str());
                }
            }
            if got.intersection(required).is_empty() {
                reasons.push(Reason::NoneRequired {
                    rule: rule.describe(),
                    required: rule.required,
                    got,
                    matched,
                });
            }
            if let Some(finals) = rule.final_verdicts
                && !class_set(finals).contains(final_verdict)
            {
                reasons.push(Reason::FinalVerdict {
                    rule: rule.describe(),
                    verdict: final_verdict,
                    allowed: finals,
                });
            }
            if let Some(range) = rule.score {
                let in_range = |s: f64| s >= range.0 && s <= range.1;
                match &rule.tests {
                    None => {
                        if !outcome.score.is_some_and(in_range) {
                            reasons.push(Reason::Score {
                                rule: rule.describe(),
                                score: outcome.score,
                                range,
                            });
                        }
                    }
                    Some(glob) => {
                        let scores: Vec<f64> = outcome
                            .group_scores
                            .iter()
                            .filter(|(name, _)| glob.matches(name))
                            .map(|(_, s)| *s)
                            .collect();
                        let bad = scores.iter().copied().find(|s| !in_range(*s));
                        if scores.is_empty() || bad.is_some() {
                            reasons.push(Reason::Score {
                                rule: rule.describe(),
                                score: bad,
                                range,
                            });
                        }
                    }
                }
            }
            if rule.below_max_score {
                match outcome.score.zip(outcome.max_score) {
                    Some((s, max)) if s < max => {}
                    known => reasons.push(Reason::NotPartial {
                        rule: rule.describe(),
                        score: known,
                    }),
                }
            }
            if let Some(m) = &rule.message
                && !message_found
            {
                reasons.push(Reason::Message {
                    rule: rule.describe(),
                    message: m.clone(),
                });
            }
        }
        if reasons.is_empty() {
            Ok(())
        } else {
            Err(Why { reasons })
        }
    }

    /// Check a run given as (test name, verdict) pairs in order and the final verdict (`CE`
    /// for a submission that did not compile, with no tests).
    pub fn allows_verdicts(
        &self,
        tests: &[(&str, Verdict)],
        final_verdict: Verdict,
    ) -> Result<(), Why> {
        let results: Vec<TestResult> = tests
            .iter()
            .map(|(name, verdict)| TestResult {
                name,
                verdict: *verdict,
                judge_message: "",
            })
            .collect();
        let outcome = Outcome {
            tests: &results,
            build_failure: (final_verdict == Verdict::Ce).then_some(Verdict::Ce),
            score: None,
            group_scores: &[],
            max_score: None,
        };
        self.allows(&outcome)
    }

    /// Whether the submission must be accepted on every test (a rule for all tests permits
    /// only AC): a reference solution.
    pub fn is_accepted(&self) -> bool {
        self.rules
            .iter()
            .any(|r| r.tests.is_none() && r.permitted == VerdictSet::of(&[Verdict::Ac]))
    }

    /// The final verdicts (first-failure rule) that the rules for all tests can allow, for
    /// reports: the intersection over those rules of `permitted` (and `final_verdicts`),
    /// without AC when a rule requires some failure. Rules for some tests are not reflected.
    pub fn expected_final_verdicts(&self) -> VerdictSet {
        let mut set = VerdictSet::any_run();
        for rule in self.rules.iter().filter(|r| r.tests.is_none()) {
            let mut allowed = class_set(rule.permitted);
            if let Some(finals) = rule.final_verdicts {
                allowed = allowed.intersection(class_set(finals));
            }
            if !class_set(rule.required).contains(Verdict::Ac) {
                let mut without_ac = VerdictSet::EMPTY;
                for v in allowed.iter().filter(|v| *v != Verdict::Ac) {
                    without_ac.insert(v);
                }
                allowed = without_ac;
            }
            set = set.intersection(allowed);
        }
        let mut roots = self.rules.iter().filter(|r| r.tests.is_none()).peekable();
        let has_roots = roots.peek().is_some();
        if has_roots
            && roots.all(|r| {
                r.permitted.contains(Verdict::Ce)
                    || r.final_verdicts.is_some_and(|f| f.contains(Verdict::Ce))
            })
        {
            set.insert(Verdict::Ce);
        }
        // Report the spec's classes by their main verdict: RE stands for MLE and OLE too.
        let mut shown = VerdictSet::EMPTY;
        for v in set.iter() {
            shown.insert(match v {
                Verdict::Mle | Verdict::Ole => Verdict::Re,
                other => other,
            });
        }
        shown
    }

    /// Each rule's time-limit role with the tests it applies to (`None`: all).
    pub fn time_limit_roles(&self) -> Vec<(Option<&Glob>, TimeLimitRole)> {
        self.rules
            .iter()
            .filter_map(|r| r.time_limit_role().map(|role| (r.tests.as_ref(), role)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::SpecClass;
    use Verdict::*;

    fn rule(permitted: &[SpecClass], required: &[SpecClass]) -> Rule {
        let mut r = Rule::new(RuleOrigin::Folder("x".into()));
        if !permitted.is_empty() {
            r.permitted = VerdictSet::of_classes(permitted);
        }
        if !required.is_empty() {
            r.required = VerdictSet::of_classes(required);
        }
        r
    }

    fn run<'a>(verdicts: &'a [(&'a str, Verdict)]) -> Vec<(&'a str, Verdict)> {
        verdicts.to_vec()
    }

    #[test]
    fn wrong_answer_folder() {
        use SpecClass as C;
        let e = Expectation {
            rules: vec![rule(&[C::Ac, C::Wa], &[C::Wa])],
        };
        let ok = run(&[("sample/1", Ac), ("secret/1", Wa)]);
        assert_eq!(e.allows_verdicts(&ok, Wa), Ok(()));
        let all_ac = run(&[("sample/1", Ac), ("secret/1", Ac)]);
        let why = e.allows_verdicts(&all_ac, Ac).unwrap_err();
        assert_eq!(
            why.to_string(),
            "folder x/: no test got one of [WA] (got [AC])"
        );
        let tle = run(&[("sample/1", Wa), ("secret/1", Tle)]);
        let why = e.allows_verdicts(&tle, Wa).unwrap_err();
        assert_eq!(
            why.to_string(),
            "folder x/: secret/1 got TLE, permitted [AC, WA]"
        );
    }

    #[test]
    fn rte_covers_memory_and_output_limits() {
        use SpecClass as C;
        let e = Expectation {
            rules: vec![rule(&[C::Ac, C::Rte], &[C::Rte])],
        };
        assert!(e.allows_verdicts(&[("a", Mle)], Mle).is_ok());
        assert!(e.allows_verdicts(&[("a", Ole)], Ole).is_ok());
        assert_eq!(e.expected_final_verdicts().shorts(), ["RE"]);
    }

    #[test]
    fn judge_and_compile_errors() {
        let e = Expectation {
            rules: vec![rule(&[SpecClass::Ac], &[])],
        };
        let why = e.allows_verdicts(&[("a", Ac), ("b", Je)], Je).unwrap_err();
        assert_eq!(why.reasons, [Reason::JudgeError { test: "b".into() }]);
        let why = e.allows_verdicts(&[], Ce).unwrap_err();
        assert!(matches!(why.reasons[0], Reason::CompileError { .. }));
        let mut expected = Rule::new(RuleOrigin::ExpectedResults("a.c".into()));
        expected.permitted = VerdictSet::of(&[Ac, Ce]);
        expected.final_verdicts = Some(VerdictSet::of(&[Ac, Ce]));
        let e = Expectation {
            rules: vec![expected],
        };
        assert!(e.allows_verdicts(&[], Ce).is_ok());
        assert!(e.expected_final_verdicts().contains(Ce));
    }

    #[test]
    fn a_glob_matching_nothing_cannot_require() {
        let mut r = Rule::new(RuleOrigin::SubmissionsYaml("a.py".into()));
        r.tests = Some(Glob::new("secret/nothing").unwrap());
        let e = Expectation { rules: vec![r] };
        let why = e.allows_verdicts(&[("secret/1", Ac)], Ac).unwrap_err();
        assert!(why.to_string().contains("matches no test"), "{why}");
    }

    #[test]
    fn final_verdicts_of_expected_results() {
        let mut r = Rule::new(RuleOrigin::ExpectedResults("x.c".into()));
        r.permitted = VerdictSet::of(&[Ac, Wa, Tle]);
        r.final_verdicts = Some(VerdictSet::of(&[Wa, Tle]));
        let e = Expectation { rules: vec![r] };
        assert!(
            e.allows_verdicts(&[("a", Ac), ("b", Tle), ("c", Wa)], Tle)
                .is_ok()
        );
        let why = e.allows_verdicts(&[("a", Ac)], Ac).unwrap_err();
        assert!(why.to_string().contains("final verdict AC"), "{why}");
        assert_eq!(e.expected_final_verdicts().shorts(), ["WA", "TLE"]);
    }

    #[test]
    fn scores_and_messages() {
        let mut r = Rule::new(RuleOrigin::SubmissionsYaml("s".into()));
        r.score = Some((10.0, 20.0));
        r.message = Some("hello".into());
        let e = Expectation { rules: vec![r] };
        let tests = [TestResult {
            name: "secret/1",
            verdict: Wa,
            judge_message: "expected 1, got hello",
        }];
        let outcome = Outcome {
            tests: &tests,
            build_failure: None,
            score: Some(15.0),
            group_scores: &[],
            max_score: None,
        };
        assert!(e.allows(&outcome).is_ok());
        let outcome = Outcome {
            score: Some(25.0),
            ..outcome
        };
        let why = e.allows(&outcome).unwrap_err();
        assert_eq!(why.reasons.len(), 1, "{why}");
        let quiet = [TestResult {
            judge_message: "",
            ..tests[0]
        }];
        let outcome = Outcome {
            tests: &quiet,
            score: Some(15.0),
            ..outcome
        };
        assert!(matches!(
            e.allows(&outcome).unwrap_err().reasons[0],
            Reason::Message { .. }
        ));
    }

    #[test]
    fn group_scores() {
        let mut r = Rule::new(RuleOrigin::SubmissionsYaml("s".into()));
        r.tests = Some(Glob::new("secret/group1").unwrap());
        r.score = Some((0.0, 30.0));
        let e = Expectation { rules: vec![r] };
        let tests = [TestResult {
            name: "secret/group1/1",
            verdict: Ac,
            judge_message: "",
        }];
        let outcome = Outcome {
            tests: &tests,
            group_scores: &[("secret/group1", 30.0), ("secret/group2", 70.0)],
            ..Outcome::default()
        };
        assert!(e.allows(&outcome).is_ok());
        let outcome = Outcome {
            group_scores: &[("secret/group1", 31.0)],
            ..outcome
        };
        assert!(e.allows(&outcome).is_err());
        let outcome = Outcome {
            group_scores: &[],
            ..outcome
        };
        assert!(
            e.allows(&outcome).is_err(),
            "an unknown group score cannot confirm a range"
        );
    }

    #[test]
    fn partially_accepted_needs_a_score_below_the_maximum() {
        let mut r = Rule::new(RuleOrigin::Folder("partially_accepted".into()));
        r.below_max_score = true;
        let e = Expectation { rules: vec![r] };
        let tests = [TestResult {
            name: "secret/1",
            verdict: Ac,
            judge_message: "",
        }];
        let outcome = |score, max_score| Outcome {
            tests: &tests,
            score,
            max_score,
            ..Outcome::default()
        };
        assert!(e.allows(&outcome(Some(50.0), Some(100.0))).is_ok());
        assert!(e.allows(&outcome(Some(100.0), Some(100.0))).is_err());
        assert!(e.allows(&outcome(None, Some(100.0))).is_err());
    }

    #[test]
    fn time_limit_roles_by_the_spec() {
        use SpecClass as C;
        assert_eq!(
            rule(&[C::Ac], &[]).time_limit_role(),
            Some(TimeLimitRole::Lower)
        );
        assert_eq!(
            rule(&[C::Ac, C::Wa], &[C::Wa]).time_limit_role(),
            Some(TimeLimitRole::Lower)
        );
        assert_eq!(
            rule(&[C::Ac, C::Tle], &[C::Tle]).time_limit_role(),
            Some(TimeLimitRole::Upper)
        );
        assert_eq!(
            rule(&[C::Ac, C::Rte, C::Tle], &[C::Rte, C::Tle]).time_limit_role(),
            None
        );
        let mut r = rule(&[C::Ac], &[]);
        r.use_for_time_limit = TimeLimitUse::No;
        assert_eq!(r.time_limit_role(), None);
        r.use_for_time_limit = TimeLimitUse::Upper;
        assert_eq!(r.time_limit_role(), Some(TimeLimitRole::Upper));
    }
}
