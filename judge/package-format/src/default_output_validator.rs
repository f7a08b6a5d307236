//! The format's default output validator ("Default output validator specification", 2025-09;
//! the same rules in legacy), in process.
//!
//! - Both files are split into tokens at runs of whitespace: space, form feed, line feed,
//!   carriage return, horizontal tab and vertical tab (0x20 0x0c 0x0a 0x0d 0x09 0x0b), bytes,
//!   not characters. Token counts must agree: a missing token or any extra token rejects.
//! - `case_sensitive`: tokens must be equal byte for byte; otherwise ASCII letters compare
//!   without case (`A`–`Z` ≡ `a`–`z`), other bytes exactly.
//! - `space_change_sensitive`: every run of whitespace (leading and trailing included) must
//!   equal the answer's byte for byte.
//! - `float_absolute_tolerance ε`, `float_relative_tolerance ε`, `float_tolerance ε` (both):
//!   an answer token that is a floating-point number by the format's grammar
//!   (`[+-]? (digits? . digits | digits . | digits) ([eE] [+-]? digits)?`) accepts an output
//!   token that is also one and lies within `|s − a| ≤ ε` (absolute) or `|s − a| ≤ ε·|a|`
//!   (relative), either when both are set. Integers are numbers too once a tolerance is set
//!   (the spec says so). An answer number met by a non-number is rejected (spec, and
//!   problemtools' `default_validator.cc`: "Expected float, got: …").
//! - As in problemtools (`isfloat()` there rejects `inf`/`nan` results), a token whose value is
//!   not finite (`1e999` overflows) is not a number: in the answer it is compared as a string,
//!   in the output it cannot match an answer number. `inf`, `nan` and hexadecimal floats are
//!   outside the grammar, so they are never numbers (problemtools' `strtod` would take `0x1p3`;
//!   the spec's grammar does not).
//!
//! Flags: 2025-09 makes repeating a tolerance, or giving `float_tolerance` with another
//! tolerance, an error ([`Flags::parse`]). problemtools (and so legacy packages judged by
//! Kattis) let the last one win, `float_tolerance` setting both ([`Flags::parse_lenient`]).
//! Unknown arguments are errors in both (problemtools exits with a judge error).
//!
//! The check streams over the two byte slices without allocating per token; a rejection says
//! where (output line, token) and what was expected.

use std::fmt;

/// The arguments of the default output validator.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Flags {
    /// `case_sensitive`.
    pub case_sensitive: bool,
    /// `space_change_sensitive`.
    pub space_change_sensitive: bool,
    /// `float_absolute_tolerance ε` (or `float_tolerance ε`).
    pub float_absolute_tolerance: Option<f64>,
    /// `float_relative_tolerance ε` (or `float_tolerance ε`).
    pub float_relative_tolerance: Option<f64>,
}

/// Arguments the default output validator does not accept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("default output validator arguments: {0}")]
pub struct FlagsError(pub String);

impl Flags {
    /// Parse arguments as 2025-09 defines them: each tolerance at most once, and
    /// `float_tolerance` alone.
    pub fn parse(args: &[String]) -> Result<Flags, FlagsError> {
        Flags::parse_with(args, true)
    }

    /// Parse arguments as problemtools does for legacy packages: a repeated tolerance
    /// replaces the earlier one, `float_tolerance` sets both.
    pub fn parse_lenient(args: &[String]) -> Result<Flags, FlagsError> {
        Flags::parse_with(args, false)
    }

    fn parse_with(args: &[String], strict: bool) -> Result<Flags, FlagsError> {
        let mut flags = Flags::default();
        let (mut absolute, mut relative, mut both) = (false, false, false);
        let mut i = 0;
        while i < args.len() {
            let arg = args[i].as_str();
            match arg {
                "case_sensitive" => flags.case_sensitive = true,
                "space_change_sensitive" => flags.space_change_sensitive = true,
                "float_absolute_tolerance" | "float_relative_tolerance" | "float_tolerance" => {
                    let value = args
                        .get(i + 1)
                        .ok_or_else(|| FlagsError(format!("`{arg}` needs a value")))?;
                    let epsilon = parse_number(value.as_bytes())
                        .filter(|e| *e >= 0.0)
                        .ok_or_else(|| {
                            FlagsError(format!(
                                "`{arg}` needs a non-negative number, found `{value}`"
                            ))
                        })?;
                    let seen = match arg {
                        "float_absolute_tolerance" => {
                            flags.float_absolute_tolerance = Some(epsilon);
                            std::mem::replace(&mut absolute, true) || both
                        }
                        "float_relative_tolerance" => {
                            flags.float_relative_tolerance = Some(epsilon);
                            std::mem::replace(&mut relative, true) || both
                        }
                        _ => {
                            flags.float_absolute_tolerance = Some(epsilon);
                            flags.float_relative_tolerance = Some(epsilon);
                            std::mem::replace(&mut both, true) || absolute || relative
                        }
                    };
                    if strict && seen {
                        return Err(FlagsError(format!(
                            "`{arg}` repeats a tolerance already given (each at most once; \
                             `float_tolerance` not with the other two)"
                        )));
                    }
                    i += 1;
                }
                _ => return Err(FlagsError(format!("unknown argument `{arg}`"))),
            }
            i += 1;
        }
        Ok(flags)
    }

    fn floats(&self) -> bool {
        self.float_absolute_tolerance.is_some() || self.float_relative_tolerance.is_some()
    }
}

/// Why an output was rejected, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejection {
    /// What went wrong.
    pub kind: RejectionKind,
    /// 1-based line of the output where it went wrong.
    pub line: usize,
    /// 1-based index of the output token (over the whole output) where it went wrong; for a
    /// missing token, the number of tokens the output had.
    pub token: usize,
    /// 1-based index of that token within its output line.
    pub token_in_line: usize,
    /// The answer's token (or whitespace), shortened for display.
    pub expected: String,
    /// The output's token (or whitespace), shortened for display.
    pub got: String,
}

/// The kinds of rejection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RejectionKind {
    /// Two tokens differ (as strings).
    TokenMismatch,
    /// The answer token is a number (a tolerance is set) but the output token is not.
    NotANumber,
    /// Both are numbers, too far apart.
    NumberOutOfTolerance {
        /// `|output − answer|`.
        difference: f64,
    },
    /// The output has fewer tokens than the answer.
    OutputEndsEarly,
    /// The output has more tokens than the answer.
    ExtraOutput,
    /// `space_change_sensitive`: a run of whitespace differs.
    WhitespaceMismatch,
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (line, token) = (self.line, self.token_in_line);
        match self.kind {
            RejectionKind::TokenMismatch => write!(
                f,
                "line {line}, token {token}: expected `{}`, got `{}`",
                self.expected, self.got
            ),
            RejectionKind::NotANumber => write!(
                f,
                "line {line}, token {token}: expected a number close to `{}`, got `{}`",
                self.expected, self.got
            ),
            RejectionKind::NumberOutOfTolerance { difference } => write!(
                f,
                "line {line}, token {token}: expected `{}`, got `{}` (difference {difference:e} is beyond the tolerance)",
                self.expected, self.got
            ),
            RejectionKind::OutputEndsEarly if self.token == 0 => write!(
                f,
                "the output has no tokens: expected `{}` first",
                self.expected
            ),
            RejectionKind::OutputEndsEarly => write!(
                f,
                "output ends early: expected `{}` after token {} (line {line})",
                self.expected, self.token
            ),
            RejectionKind::ExtraOutput => write!(
                f,
                "extra output after the answer: `{}` (line {line}, token {token})",
                self.got
            ),
            RejectionKind::WhitespaceMismatch => write!(
                f,
                "line {line}, after token {}: whitespace differs: expected \"{}\", got \"{}\"",
                self.token, self.expected, self.got
            ),
        }
    }
}

impl std::error::Error for Rejection {}

/// The format's whitespace bytes.
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\x0c' | b'\n' | b'\r' | b'\t' | b'\x0b')
}

/// The value of a token if it is a floating-point number by the format's grammar and finite
/// (see the module doc).
pub fn parse_number(token: &[u8]) -> Option<f64> {
    if !matches_float_grammar(token) {
        return None;
    }
    // The grammar admits only ASCII, so this cannot fail; Rust's parser rounds correctly
    // for any number of digits.
    let value: f64 = std::str::from_utf8(token).ok()?.parse().ok()?;
    value.is_finite().then_some(value)
}

/// `sign? ( digit* "." digit+ | digit+ "." | digit+ ) ( [Ee] sign? digit+ )?`
pub fn matches_float_grammar(token: &[u8]) -> bool {
    let mut i = 0;
    if matches!(token.first(), Some(b'+' | b'-')) {
        i = 1;
    }
    let start = i;
    while i < token.len() && token[i].is_ascii_digit() {
        i += 1;
    }
    let whole = i - start;
    if i < token.len() && token[i] == b'.' {
        i += 1;
        let fraction_start = i;
        while i < token.len() && token[i].is_ascii_digit() {
            i += 1;
        }
        if whole == 0 && i == fraction_start {
            return false;
        }
    } else if whole == 0 {
        return false;
    }
    if i < token.len() && matches!(token[i], b'e' | b'E') {
        i += 1;
        if i < token.len() && matches!(token[i], b'+' | b'-') {
            i += 1;
        }
        let exponent_start = i;
        while i < token.len() && token[i].is_ascii_digit() {
            i += 1;
        }
        if i == exponent_start {
            return false;
        }
    }
    i == token.len()
}

/// A cursor over one file: tokens, whitespace runs, lines.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    line: usize,
    tokens: usize,
    tokens_in_line: usize,
}

impl<'a> Cursor<'a> {
    fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor {
            bytes,
            at: 0,
            line: 1,
            tokens: 0,
            tokens_in_line: 0,
        }
    }

    /// Skip whitespace, returning it.
    fn space(&mut self) -> &'a [u8] {
        let start = self.at;
        while self.at < self.bytes.len() && is_space(self.bytes[self.at]) {
            if self.bytes[self.at] == b'\n' {
                self.line += 1;
                self.tokens_in_line = 0;
            }
            self.at += 1;
        }
        &self.bytes[start..self.at]
    }

    /// The next token (call after `space`).
    fn token(&mut self) -> Option<&'a [u8]> {
        let start = self.at;
        while self.at < self.bytes.len() && !is_space(self.bytes[self.at]) {
            self.at += 1;
        }
        if self.at == start {
            return None;
        }
        self.tokens += 1;
        self.tokens_in_line += 1;
        Some(&self.bytes[start..self.at])
    }
}

/// Longest token text shown in a message.
const SHOWN: usize = 40;

fn show(bytes: &[u8]) -> String {
    let cut = &bytes[..bytes.len().min(SHOWN)];
    let mut text = String::from_utf8_lossy(cut).into_owned();
    if bytes.len() > SHOWN {
        text.push('…');
    }
    text
}

fn show_space(bytes: &[u8]) -> String {
    let mut text = String::new();
    for b in bytes.iter().take(SHOWN) {
        match b {
            b'\n' => text.push_str("\\n"),
            b'\r' => text.push_str("\\r"),
            b'\t' => text.push_str("\\t"),
            b'\x0b' => text.push_str("\\v"),
            b'\x0c' => text.push_str("\\f"),
            _ => text.push(*b as char),
        }
    }
    if bytes.len() > SHOWN {
        text.push('…');
    }
    text
}

/// Check `output` against `answer` with `flags`: `Ok` is accepted (exit 42), `Err` says why
/// it is a wrong answer (exit 43).
pub fn check(answer: &[u8], output: &[u8], flags: &Flags) -> Result<(), Rejection> {
    let mut ans = Cursor::new(answer);
    let mut out = Cursor::new(output);
    let floats = flags.floats();
    let reject = |kind, out: &Cursor, expected: String, got: String| Rejection {
        kind,
        line: out.line,
        token: out.tokens,
        token_in_line: out.tokens_in_line,
        expected,
        got,
    };
    loop {
        let ans_space = ans.space();
        let out_space = out.space();
        if flags.space_change_sensitive && ans_space != out_space {
            // Report at the line where the whitespace starts to differ.
            return Err(Rejection {
                kind: RejectionKind::WhitespaceMismatch,
                line: out.line - out_space.iter().filter(|b| **b == b'\n').count(),
                token: out.tokens,
                token_in_line: out.tokens_in_line,
                expected: show_space(ans_space),
                got: show_space(out_space),
            });
        }
        let Some(expected) = ans.token() else {
            return match out.token() {
                None => Ok(()),
                Some(extra) => Err(reject(
                    RejectionKind::ExtraOutput,
                    &out,
                    String::new(),
                    show(extra),
                )),
            };
        };
        let Some(got) = out.token() else {
            return Err(reject(
                RejectionKind::OutputEndsEarly,
                &out,
                show(expected),
                String::new(),
            ));
        };
        if floats && let Some(a) = parse_number(expected) {
            let Some(s) = parse_number(got) else {
                return Err(reject(
                    RejectionKind::NotANumber,
                    &out,
                    show(expected),
                    show(got),
                ));
            };
            let difference = (s - a).abs();
            let absolute_ok = flags
                .float_absolute_tolerance
                .is_some_and(|e| difference <= e);
            let relative_ok = flags
                .float_relative_tolerance
                .is_some_and(|e| difference <= e * a.abs());
            if !(absolute_ok || relative_ok) {
                return Err(reject(
                    RejectionKind::NumberOutOfTolerance { difference },
                    &out,
                    show(expected),
                    show(got),
                ));
            }
            continue;
        }
        let same = if flags.case_sensitive {
            expected == got
        } else {
            expected.eq_ignore_ascii_case(got)
        };
        if !same {
            return Err(reject(
                RejectionKind::TokenMismatch,
                &out,
                show(expected),
                show(got),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(args: &str) -> Flags {
        let args: Vec<String> = args.split_whitespace().map(str::to_string).collect();
        Flags::parse(&args).unwrap()
    }

    #[test]
    fn grammar() {
        for ok in [
            "0", "-0", "+5", "1.", ".5", "1.5", "1e5", "1E+5", "-1.5e-7", "007",
        ] {
            assert!(matches_float_grammar(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "", ".", "+", "-.", "e5", "1e", "1e+", "1.5.2", "inf", "nan", "0x10", "1,5", "1 ",
        ] {
            assert!(!matches_float_grammar(bad.as_bytes()), "{bad}");
        }
        assert_eq!(parse_number(b"1e999"), None, "overflow is not a number");
        assert_eq!(parse_number(b"1e-999"), Some(0.0), "underflow is zero");
    }

    #[test]
    fn flags_parse() {
        let f = flags("case_sensitive float_tolerance 1e-6");
        assert!(f.case_sensitive && !f.space_change_sensitive);
        assert_eq!(f.float_absolute_tolerance, Some(1e-6));
        assert_eq!(f.float_relative_tolerance, Some(1e-6));
        let f = flags("float_absolute_tolerance 0.5 float_relative_tolerance 0.25");
        assert_eq!(
            (f.float_absolute_tolerance, f.float_relative_tolerance),
            (Some(0.5), Some(0.25))
        );
        let err = |a: &str| {
            let args: Vec<String> = a.split_whitespace().map(str::to_string).collect();
            Flags::parse(&args).unwrap_err().0
        };
        assert!(err("bogus").contains("unknown argument `bogus`"));
        assert!(err("float_tolerance").contains("needs a value"));
        assert!(err("float_tolerance -1").contains("non-negative"));
        assert!(err("float_tolerance abc").contains("non-negative"));
        assert!(err("float_tolerance 1 float_tolerance 2").contains("repeats"));
        assert!(err("float_tolerance 1 float_absolute_tolerance 2").contains("repeats"));
        assert!(err("float_relative_tolerance 1 float_tolerance 2").contains("repeats"));
        let lenient = Flags::parse_lenient(&[
            "float_tolerance".into(),
            "1".into(),
            "float_absolute_tolerance".into(),
            "2".into(),
        ])
        .unwrap();
        assert_eq!(
            (
                lenient.float_absolute_tolerance,
                lenient.float_relative_tolerance
            ),
            (Some(2.0), Some(1.0))
        );
        assert!(Flags::parse_lenient(&["x".into()]).is_err());
    }

    #[test]
    fn messages() {
        let f = Flags::default();
        let e = check(b"1 2\n3 5\n", b"1 2\n3 7\n", &f).unwrap_err();
        assert_eq!(e.to_string(), "line 2, token 2: expected `5`, got `7`");
        assert_eq!((e.line, e.token, e.token_in_line), (2, 4, 2));
        let e = check(b"1 2 3", b"1 2", &f).unwrap_err();
        assert_eq!(
            e.to_string(),
            "output ends early: expected `3` after token 2 (line 1)"
        );
        let e = check(b"1", b"", &f).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the output has no tokens: expected `1` first"
        );
        let e = check(b"1\n", b"1\n\n2\n", &f).unwrap_err();
        assert_eq!(
            e.to_string(),
            "extra output after the answer: `2` (line 3, token 1)"
        );
        let e = check(b"1.5", b"x", &flags("float_tolerance 1e-6")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, token 1: expected a number close to `1.5`, got `x`"
        );
        let e = check(b"1 2\n", b"1  2\n", &flags("space_change_sensitive")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, after token 1: whitespace differs: expected \" \", got \"  \""
        );
        let long = "x".repeat(100);
        let e = check(long.as_bytes(), b"y", &f).unwrap_err();
        assert!(
            e.to_string().contains(&format!("{}…", "x".repeat(40))),
            "{e}"
        );
    }
}
