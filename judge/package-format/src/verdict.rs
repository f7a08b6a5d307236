//! Verdicts and sets of verdicts, with the names the formats and DOMjudge use for them.
//!
//! The crate keeps its own [`Verdict`] (it depends on nothing of boardjudge's); its short forms
//! `AC WA TLE MLE OLE RE CE JE` are the ones `judge` prints, so mapping is one `match`.
//!
//! The package format knows four verdict classes for expectations (`AC`, `WA`, `TLE`, `RTE`,
//! 2025-09 "Example submissions"). A finer verdict falls in one of them by
//! [`Verdict::spec_class`]: exceeding the memory or output limit is a run-time error there (as
//! BAPCtools maps `OUTPUT-LIMIT`, and as the ICPC reports a memory overrun).

use std::fmt;

/// The outcome of one run of a submission on one test case (or of its build).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// Accepted.
    Ac,
    /// Wrong answer: the output validator rejected the output.
    Wa,
    /// Time limit exceeded.
    Tle,
    /// Memory limit exceeded.
    Mle,
    /// Output limit exceeded.
    Ole,
    /// Run-time error (crash, non-zero exit).
    Re,
    /// Compile error: the submission never ran.
    Ce,
    /// Judge error: the jury's side failed (validator crashed or misbehaved).
    Je,
}

impl Verdict {
    /// Every verdict, in the order of the enum.
    pub const ALL: [Verdict; 8] = [
        Verdict::Ac,
        Verdict::Wa,
        Verdict::Tle,
        Verdict::Mle,
        Verdict::Ole,
        Verdict::Re,
        Verdict::Ce,
        Verdict::Je,
    ];

    /// The short form `judge` prints: `AC WA TLE MLE OLE RE CE JE`.
    pub fn short(self) -> &'static str {
        match self {
            Verdict::Ac => "AC",
            Verdict::Wa => "WA",
            Verdict::Tle => "TLE",
            Verdict::Mle => "MLE",
            Verdict::Ole => "OLE",
            Verdict::Re => "RE",
            Verdict::Ce => "CE",
            Verdict::Je => "JE",
        }
    }

    /// The class the package format's expectations speak of (`AC`, `WA`, `TLE`, `RTE`); `None`
    /// for a compile or judge error, which no `permitted`/`required` list can name.
    pub fn spec_class(self) -> Option<SpecClass> {
        match self {
            Verdict::Ac => Some(SpecClass::Ac),
            Verdict::Wa => Some(SpecClass::Wa),
            Verdict::Tle => Some(SpecClass::Tle),
            Verdict::Mle | Verdict::Ole | Verdict::Re => Some(SpecClass::Rte),
            Verdict::Ce | Verdict::Je => None,
        }
    }

    /// The verdict of a whole submission by the ICPC rule: the first test (in the package's
    /// order) that is not accepted decides; all accepted (or no tests) is `AC`.
    pub fn first_failure(tests: impl IntoIterator<Item = Verdict>) -> Verdict {
        tests
            .into_iter()
            .find(|v| *v != Verdict::Ac)
            .unwrap_or(Verdict::Ac)
    }

    /// Parse `AC WA TLE MLE OLE RE CE JE` (the short forms), case-sensitively.
    pub fn from_short(text: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.short() == text)
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.short())
    }
}

/// The four verdict classes of the package format's expectations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SpecClass {
    /// `AC`
    Ac,
    /// `WA`
    Wa,
    /// `TLE`
    Tle,
    /// `RTE`: run-time error, memory or output limit exceeded.
    Rte,
}

impl SpecClass {
    /// The spec's spelling: `AC`, `WA`, `TLE`, `RTE`.
    pub fn name(self) -> &'static str {
        match self {
            SpecClass::Ac => "AC",
            SpecClass::Wa => "WA",
            SpecClass::Tle => "TLE",
            SpecClass::Rte => "RTE",
        }
    }

    /// Parse the spec's spelling (`submissions.yaml`'s `permitted`/`required`), exactly.
    pub fn from_name(text: &str) -> Option<SpecClass> {
        match text {
            "AC" => Some(SpecClass::Ac),
            "WA" => Some(SpecClass::Wa),
            "TLE" => Some(SpecClass::Tle),
            "RTE" => Some(SpecClass::Rte),
            _ => None,
        }
    }

    /// The verdicts of this class.
    pub fn verdicts(self) -> VerdictSet {
        match self {
            SpecClass::Ac => VerdictSet::of(&[Verdict::Ac]),
            SpecClass::Wa => VerdictSet::of(&[Verdict::Wa]),
            SpecClass::Tle => VerdictSet::of(&[Verdict::Tle]),
            SpecClass::Rte => VerdictSet::of(&[Verdict::Re, Verdict::Mle, Verdict::Ole]),
        }
    }
}

/// A set of verdicts (a bit set).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct VerdictSet(u8);

impl VerdictSet {
    /// No verdict.
    pub const EMPTY: VerdictSet = VerdictSet(0);

    /// The spec's default for `permitted` and `required`: `[AC, WA, TLE, RTE]`, that is every
    /// verdict a run can get (not a compile or judge error).
    pub fn any_run() -> VerdictSet {
        VerdictSet::of_classes(&[SpecClass::Ac, SpecClass::Wa, SpecClass::Tle, SpecClass::Rte])
    }

    /// The set of the given verdicts.
    pub fn of(verdicts: &[Verdict]) -> VerdictSet {
        let mut set = VerdictSet::EMPTY;
        for v in verdicts {
            set.insert(*v);
        }
        set
    }

    /// The union of the given classes' verdicts.
    pub fn of_classes(classes: &[SpecClass]) -> VerdictSet {
        let mut set = VerdictSet::EMPTY;
        for c in classes {
            set = set.union(c.verdicts());
        }
        set
    }

    /// Add a verdict.
    pub fn insert(&mut self, verdict: Verdict) {
        self.0 |= 1 << verdict as u8;
    }

    /// Whether the verdict is in the set.
    pub fn contains(self, verdict: Verdict) -> bool {
        self.0 & (1 << verdict as u8) != 0
    }

    /// Both sets together.
    pub fn union(self, other: VerdictSet) -> VerdictSet {
        VerdictSet(self.0 | other.0)
    }

    /// What both sets have.
    pub fn intersection(self, other: VerdictSet) -> VerdictSet {
        VerdictSet(self.0 & other.0)
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The verdicts in the set, in the enum's order.
    pub fn iter(self) -> impl Iterator<Item = Verdict> {
        Verdict::ALL.into_iter().filter(move |v| self.contains(*v))
    }

    /// The short forms, for reports: `["AC", "WA"]`.
    pub fn shorts(self) -> Vec<&'static str> {
        self.iter().map(Verdict::short).collect()
    }
}

impl fmt::Debug for VerdictSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.shorts().join(", "))
    }
}

impl fmt::Display for VerdictSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// What one word of an `@EXPECTED_RESULTS@:` line means (DOMjudge's convention, as BAPCtools
/// reads it: `doc/implementation_notes.md` there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DomjudgeResult {
    /// A verdict (several spellings map to the same one).
    Verdict(Verdict),
    /// `CHECK-MANUALLY`: a human decides; nothing to check automatically.
    CheckManually,
}

/// Parse one result name of an `@EXPECTED_RESULTS@:` line, case-insensitively, with `-` and
/// `_` alike: DOMjudge's `CORRECT WRONG-ANSWER TIMELIMIT RUN-ERROR NO-OUTPUT OUTPUT-LIMIT
/// MEMORY-LIMIT COMPILER-ERROR CHECK-MANUALLY`, the format's long names (`ACCEPTED`,
/// `WRONG_ANSWER`, `TIME_LIMIT_EXCEEDED`, `RUN_TIME_ERROR`) and short ones (`AC WA TLE RTE`).
/// `NO-OUTPUT` is a wrong answer (empty output), as in BAPCtools.
pub fn parse_domjudge_result(word: &str) -> Option<DomjudgeResult> {
    let normal = word.trim().to_ascii_uppercase().replace('-', "_");
    let verdict = match normal.as_str() {
        "CORRECT" | "ACCEPTED" | "AC" => Verdict::Ac,
        "WRONG_ANSWER" | "NO_OUTPUT" | "WA" => Verdict::Wa,
        "TIMELIMIT" | "TIME_LIMIT" | "TIME_LIMIT_EXCEEDED" | "TLE" => Verdict::Tle,
        "RUN_ERROR" | "RUN_TIME_ERROR" | "RUNTIME_ERROR" | "RTE" | "RE" => Verdict::Re,
        "OUTPUT_LIMIT" | "OUTPUT_LIMIT_EXCEEDED" | "OLE" => Verdict::Ole,
        "MEMORY_LIMIT" | "MEMORY_LIMIT_EXCEEDED" | "MLE" => Verdict::Mle,
        "COMPILER_ERROR" | "COMPILE_ERROR" | "CE" => Verdict::Ce,
        "CHECK_MANUALLY" => return Some(DomjudgeResult::CheckManually),
        _ => return None,
    };
    Some(DomjudgeResult::Verdict(verdict))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_forms_round_trip() {
        for v in Verdict::ALL {
            assert_eq!(Verdict::from_short(v.short()), Some(v));
        }
        assert_eq!(Verdict::from_short("ac"), None);
    }

    #[test]
    fn memory_and_output_limits_are_run_time_errors_for_expectations() {
        assert_eq!(Verdict::Mle.spec_class(), Some(SpecClass::Rte));
        assert_eq!(Verdict::Ole.spec_class(), Some(SpecClass::Rte));
        assert_eq!(Verdict::Ce.spec_class(), None);
        let rte = SpecClass::Rte.verdicts();
        assert!(rte.contains(Verdict::Re) && rte.contains(Verdict::Mle));
        assert!(!rte.contains(Verdict::Wa));
    }

    #[test]
    fn the_first_failure_decides() {
        use Verdict::*;
        assert_eq!(Verdict::first_failure([Ac, Ac, Tle, Wa]), Tle);
        assert_eq!(Verdict::first_failure([Ac, Ac]), Ac);
        assert_eq!(Verdict::first_failure([]), Ac);
    }

    #[test]
    fn set_operations() {
        let mut s = VerdictSet::EMPTY;
        assert!(s.is_empty());
        s.insert(Verdict::Wa);
        s.insert(Verdict::Je);
        assert_eq!(s.shorts(), ["WA", "JE"]);
        assert_eq!(format!("{s}"), "[WA, JE]");
        assert!(s.intersection(VerdictSet::any_run()).contains(Verdict::Wa));
        assert!(!VerdictSet::any_run().contains(Verdict::Ce));
        assert_eq!(VerdictSet::any_run().iter().count(), 6);
    }

    #[test]
    fn domjudge_names() {
        use DomjudgeResult::*;
        let cases = [
            ("CORRECT", Verdict(super::Verdict::Ac)),
            ("accepted", Verdict(super::Verdict::Ac)),
            ("WRONG-ANSWER", Verdict(super::Verdict::Wa)),
            ("no-output", Verdict(super::Verdict::Wa)),
            ("TIMELIMIT", Verdict(super::Verdict::Tle)),
            ("TIME_LIMIT_EXCEEDED", Verdict(super::Verdict::Tle)),
            ("RUN-ERROR", Verdict(super::Verdict::Re)),
            ("RUN_TIME_ERROR", Verdict(super::Verdict::Re)),
            ("OUTPUT-LIMIT", Verdict(super::Verdict::Ole)),
            ("MEMORY-LIMIT", Verdict(super::Verdict::Mle)),
            ("COMPILER-ERROR", Verdict(super::Verdict::Ce)),
            (" CHECK-MANUALLY ", CheckManually),
        ];
        for (word, want) in cases {
            assert_eq!(parse_domjudge_result(word), Some(want), "{word}");
        }
        assert_eq!(parse_domjudge_result("PRESENTATION-ERROR"), None);
    }
}
