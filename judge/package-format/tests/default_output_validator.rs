//! The default output validator against the spec, whole-file cases of our own, a public
//! conformance corpus when one is given (never committed), and a naive reference
//! implementation.

use std::path::Path;

use package_format::default_output_validator::{
    Flags, RejectionKind, check, is_space, matches_float_grammar, parse_number,
};
use proptest::prelude::*;

fn flags(args: &str) -> Flags {
    let args: Vec<String> = args.split_whitespace().map(str::to_string).collect();
    Flags::parse(&args).unwrap()
}

fn accepts(answer: &str, output: &str, args: &str) -> bool {
    check(answer.as_bytes(), output.as_bytes(), &flags(args)).is_ok()
}

/// Whole answer and output files, as a judge hands them over: long ones differing early or
/// only at the end, bytes that are no text, empty files, special answers.
#[test]
fn whole_files() {
    let long: String = (0..10_000).map(|i| format!("{i} {}\n", i * 7)).collect();
    let early = long.replacen("2 14\n", "2 15\n", 1);
    let extra = format!("{long}0\n");
    let short = long[..long.len() - "9999 69993\n".len()].to_string();
    let spaced = format!("\n  {}\t\n\n", long.replace('\n', " \r\n"));
    let binary: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    let cases: &[(&[u8], &[u8], &str, bool)] = &[
        (long.as_bytes(), long.as_bytes(), "", true),
        (long.as_bytes(), spaced.as_bytes(), "", true),
        (
            long.as_bytes(),
            spaced.as_bytes(),
            "space_change_sensitive",
            false,
        ),
        (long.as_bytes(), early.as_bytes(), "", false),
        (
            long.as_bytes(),
            early.as_bytes(),
            "float_absolute_tolerance 0.5",
            false,
        ),
        (
            long.as_bytes(),
            early.as_bytes(),
            "float_absolute_tolerance 1",
            true,
        ),
        (long.as_bytes(), extra.as_bytes(), "", false),
        (long.as_bytes(), short.as_bytes(), "", false),
        (long.as_bytes(), b"", "", false),
        (b"", b"", "", true),
        (b"\n", b"", "", true),
        (b"", b"0", "", false),
        (&binary, &binary, "", true),
        (long.as_bytes(), &binary, "", false),
        (b"1.5\n", &binary, "float_tolerance 1e-6", false),
        // Answers that are no finite number are compared as strings, even with a tolerance.
        (b"inf\n", b"INF\n", "float_tolerance 1e-6", true),
        (b"inf\n", b"1e999\n", "float_tolerance 1e-6", false),
        // A zero answer: the relative tolerance allows nothing, the absolute one does.
        (b"0\n", b"1e-12\n", "float_relative_tolerance 0.5", false),
        (b"0\n", b"1e-12\n", "float_tolerance 1e-9", true),
        // Case: ASCII letters only, and only without case_sensitive.
        (b"YES\nno\n", b"yes\nNO\n", "", true),
        (b"YES\nno\n", b"yes\nNO\n", "case_sensitive", false),
        (
            b"Yes 1.0\n",
            b"Yes 1.0000001\n",
            "case_sensitive space_change_sensitive float_tolerance 1e-6",
            true,
        ),
        (
            b"Yes 1.0\n",
            b"yes 1.0000001\n",
            "case_sensitive space_change_sensitive float_tolerance 1e-6",
            false,
        ),
    ];
    for (i, (answer, output, args, want)) in cases.iter().enumerate() {
        let got = check(answer, output, &flags(args));
        assert_eq!(got.is_ok(), *want, "case {i} ({args}): {got:?}");
    }
}

/// A conformance corpus from outside the repository, in the layout of problemtools'
/// `tests/default_validator_tests` (a folder per case with `judge.ans`, `user.out`, optional
/// `args.txt`, and `expected_exit_code.txt`: 42 accept, 43 reject): every exit code must be
/// ours. `BOARDJUDGE_DEFAULT_VALIDATOR_CASES=/path/to/that/folder`; skipped without it.
#[test]
fn public_corpus_exit_codes() {
    const VARIABLE: &str = "BOARDJUDGE_DEFAULT_VALIDATOR_CASES";
    let Some(root) = std::env::var_os(VARIABLE) else {
        eprintln!(
            "SKIPPED: {VARIABLE} is unset (a folder of cases like problemtools' tests/default_validator_tests)"
        );
        return;
    };
    let root = Path::new(&root);
    let mut dirs: Vec<_> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{VARIABLE}={}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|d| d.join("expected_exit_code.txt").is_file())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no cases in {}", root.display());
    for dir in &dirs {
        let read = |name: &str| std::fs::read(dir.join(name)).unwrap_or_default();
        let args = String::from_utf8(read("args.txt")).unwrap();
        let code: u8 = String::from_utf8(read("expected_exit_code.txt"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let result = check(&read("judge.ans"), &read("user.out"), &flags(&args));
        let ours = if result.is_ok() { 42 } else { 43 };
        assert_eq!(ours, code, "{}: {result:?}", dir.display());
    }
    println!("{} cases agree", dirs.len());
}

/// The spec's rules, one line each: (answer, output, arguments, accepted?).
#[test]
fn spec_table() {
    let table: &[(&str, &str, &str, bool)] = &[
        // Tokens separated by any whitespace run; leading/trailing whitespace ignored.
        ("1 2 3\n", "1 2 3\n", "", true),
        ("1 2 3\n", "  1\t2\r\n3", "", true),
        ("1 2 3\n", "1\x0b2\x0c3", "", true),
        ("1 2 3\n", "1 2", "", false),
        ("1 2 3\n", "1 2 3 4", "", false),
        ("", "", "", true),
        ("", "\n\n", "", true),
        ("", "x", "", false),
        ("12", "1 2", "", false),
        // Case: ASCII letters only.
        ("Yes", "yes", "", true),
        ("Yes", "YES", "", true),
        ("Yes", "yes", "case_sensitive", false),
        ("Yes", "Yes", "case_sensitive", true),
        ("Ä", "ä", "", false),
        // Without a tolerance numbers are strings.
        ("1.0", "1", "", false),
        ("1.0", "1.00", "", false),
        ("0.5", ".5", "", false),
        // With one, any formatting of the number.
        ("0.0314", "3.14000000e-2", "float_tolerance 1e-9", true),
        ("1.0", "1", "float_absolute_tolerance 0", true),
        ("1", "1.0000001", "float_absolute_tolerance 1e-6", true),
        ("1", "1.000002", "float_absolute_tolerance 1e-6", false),
        ("100", "100.5", "float_relative_tolerance 0.01", true),
        ("100", "102", "float_relative_tolerance 0.01", false),
        // Relative to the answer, not to the output.
        ("100", "110.5", "float_relative_tolerance 0.1", false),
        ("-100", "-90", "float_relative_tolerance 0.1", true),
        // Either tolerance suffices when both are set.
        (
            "1000",
            "1009",
            "float_absolute_tolerance 1 float_relative_tolerance 0.01",
            true,
        ),
        (
            "0.001",
            "0.5",
            "float_absolute_tolerance 1 float_relative_tolerance 0.01",
            true,
        ),
        (
            "1000",
            "1011",
            "float_absolute_tolerance 1 float_relative_tolerance 0.01",
            false,
        ),
        // Relative to zero: only exact (absolute tolerance unset).
        ("0", "0.0", "float_relative_tolerance 0.5", true),
        ("0", "1e-300", "float_relative_tolerance 0.5", false),
        ("-0", "0", "float_relative_tolerance 0", true),
        ("0", "-0.0", "float_tolerance 0", true),
        // Integers are numbers too once a tolerance is set (spec note).
        ("5", "5.0000001", "float_tolerance 1e-6", true),
        // An answer number needs an output number.
        ("1.5", "abc", "float_tolerance 1", false),
        ("1.5", "inf", "float_tolerance 1", false),
        ("1.5", "nan", "float_tolerance 1", false),
        ("1.5", "0x1.8p0", "float_tolerance 1", false),
        ("1.5", "1,5", "float_tolerance 1", false),
        // Answer tokens that are not numbers compare as strings, even with a tolerance.
        ("abc", "ABC", "float_tolerance 1", true),
        ("inf", "INF", "float_tolerance 1", true),
        ("inf", "0", "float_tolerance 0.5", false),
        // Overflow: not a number (problemtools' isfloat rejects inf results).
        ("1e999", "1e999", "float_tolerance 1", true),
        ("1e999", "1E999", "float_tolerance 1", true),
        ("1", "1e999", "float_tolerance 1", false),
        // Huge exponents and long digit strings parse correctly.
        (
            "1e300",
            "1.0000000001e300",
            "float_relative_tolerance 1e-9",
            true,
        ),
        ("1e-300", "0", "float_absolute_tolerance 1e-299", true),
        (
            "123456789012345678901234567890.123456789012345678901234567890",
            "1.2345678901234567890123456789e29",
            "float_relative_tolerance 1e-15",
            true,
        ),
        (
            "0.000000000000000000000000000001",
            "1e-30",
            "float_relative_tolerance 1e-12",
            true,
        ),
        // space_change_sensitive: every whitespace run exactly, leading and trailing too.
        ("1 2\n", "1 2\n", "space_change_sensitive", true),
        ("1 2\n", "1  2\n", "space_change_sensitive", false),
        ("1 2\n", "1\t2\n", "space_change_sensitive", false),
        ("1 2\n", "1 2", "space_change_sensitive", false),
        ("1 2", "1 2\n", "space_change_sensitive", false),
        ("1 2\n", " 1 2\n", "space_change_sensitive", false),
        ("1 2\n", "1 2\r\n", "space_change_sensitive", false),
        ("a\n", "A\n", "space_change_sensitive", true),
        (
            "1.0 2\n",
            "1 2\n",
            "space_change_sensitive float_tolerance 1e-9",
            true,
        ),
    ];
    for (answer, output, args, want) in table {
        assert_eq!(
            accepts(answer, output, args),
            *want,
            "answer {answer:?} output {output:?} args {args:?}"
        );
    }
}

#[test]
fn rejection_kinds() {
    let kind = |a: &str, o: &str, args: &str| {
        check(a.as_bytes(), o.as_bytes(), &flags(args))
            .unwrap_err()
            .kind
    };
    assert_eq!(kind("1", "2", ""), RejectionKind::TokenMismatch);
    assert_eq!(
        kind("1.5", "x", "float_tolerance 0"),
        RejectionKind::NotANumber
    );
    assert!(matches!(
        kind("1.5", "2.5", "float_tolerance 0.1"),
        RejectionKind::NumberOutOfTolerance { difference } if (difference - 1.0).abs() < 1e-12
    ));
    assert_eq!(kind("1 2", "1", ""), RejectionKind::OutputEndsEarly);
    assert_eq!(kind("1", "1 2", ""), RejectionKind::ExtraOutput);
    assert_eq!(
        kind("1 2", "1\n2", "space_change_sensitive"),
        RejectionKind::WhitespaceMismatch
    );
}

#[test]
fn large_outputs_are_fast() {
    // 10^6 numbers, a few MB: one pass, no allocation per token.
    let answer: String = (0..1_000_000).map(|i| format!("{}.5\n", i)).collect();
    let output = answer.replace(".5\n", ".5000001\n");
    let start = std::time::Instant::now();
    assert!(
        check(
            answer.as_bytes(),
            output.as_bytes(),
            &flags("float_absolute_tolerance 1e-6")
        )
        .is_ok()
    );
    assert!(check(answer.as_bytes(), answer.as_bytes(), &flags("")).is_ok());
    let elapsed = start.elapsed();
    // A generous bound for an unoptimised test build on a loaded machine.
    assert!(elapsed.as_secs() < 20, "{elapsed:?}");
}

/// An obviously correct implementation: split, compare pairwise.
fn naive(answer: &[u8], output: &[u8], f: &Flags) -> bool {
    let split = |b: &[u8]| -> Vec<Vec<u8>> {
        b.split(|c| is_space(*c))
            .filter(|t| !t.is_empty())
            .map(<[u8]>::to_vec)
            .collect()
    };
    let spaces = |b: &[u8]| -> Vec<Vec<u8>> {
        b.split(|c| !is_space(*c))
            .map(<[u8]>::to_vec)
            .filter(|s| !s.is_empty())
            .collect()
    };
    if f.space_change_sensitive {
        // Same whitespace runs in the same places: compare the runs and where they start.
        let runs = |b: &[u8]| -> (Vec<Vec<u8>>, bool) {
            (spaces(b), b.first().is_some_and(|c| is_space(*c)))
        };
        if runs(answer) != runs(output) {
            return false;
        }
    }
    let (a, o) = (split(answer), split(output));
    if a.len() != o.len() {
        return false;
    }
    a.iter().zip(&o).all(|(a, o)| {
        let floats = f.float_absolute_tolerance.is_some() || f.float_relative_tolerance.is_some();
        let as_number = |t: &[u8]| -> Option<f64> {
            let s = std::str::from_utf8(t).ok()?;
            let ok = !s.is_empty()
                && s.chars().all(|c| c.is_ascii_digit() || "+-.eE".contains(c))
                && matches_float_grammar(t);
            ok.then(|| s.parse::<f64>().ok())
                .flatten()
                .filter(|v| v.is_finite())
        };
        if floats && let Some(x) = as_number(a) {
            let Some(y) = as_number(o) else {
                return false;
            };
            let d = (x - y).abs();
            return f.float_absolute_tolerance.is_some_and(|e| d <= e)
                || f.float_relative_tolerance.is_some_and(|e| d <= e * x.abs());
        }
        if f.case_sensitive {
            a == o
        } else {
            a.eq_ignore_ascii_case(o)
        }
    })
}

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{1,3}",
        "-?[0-9]{1,3}\\.[0-9]{0,3}",
        "[0-9]\\.[0-9]e-?[0-9]",
        "[a-cA-C]{1,3}",
        Just("inf".to_string()),
        Just(".5".to_string()),
    ]
}

fn document() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            token(),
            prop_oneof![Just(" "), Just("\n"), Just("  "), Just("\t"), Just("\r\n")],
        ),
        0..8,
    )
    .prop_map(|parts| parts.into_iter().map(|(t, s)| format!("{t}{s}")).collect())
}

fn any_flags() -> impl Strategy<Value = Flags> {
    (
        any::<bool>(),
        any::<bool>(),
        prop::option::of(0.0..2.0f64),
        prop::option::of(0.0..0.5f64),
    )
        .prop_map(
            |(case_sensitive, space_change_sensitive, absolute, relative)| Flags {
                case_sensitive,
                space_change_sensitive,
                float_absolute_tolerance: absolute,
                float_relative_tolerance: relative,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn agrees_with_the_naive_implementation(answer in document(), output in document(), f in any_flags()) {
        prop_assert_eq!(check(answer.as_bytes(), output.as_bytes(), &f).is_ok(), naive(answer.as_bytes(), output.as_bytes(), &f));
    }

    #[test]
    fn numbers_near_the_tolerance(values in prop::collection::vec(-1e6..1e6f64, 1..6), shifts in prop::collection::vec(-2.0..2.0f64, 6), epsilon in 1e-9..0.5f64, relative in any::<bool>()) {
        let answer: String = values.iter().map(|v| format!("{v} ")).collect();
        let output: String = values
            .iter()
            .zip(&shifts)
            .map(|(v, k)| {
                let scale = if relative { v.abs() } else { 1.0 };
                format!("{:e} ", v + k * epsilon * scale)
            })
            .collect();
        let f = Flags {
            float_absolute_tolerance: (!relative).then_some(epsilon),
            float_relative_tolerance: relative.then_some(epsilon),
            ..Flags::default()
        };
        prop_assert_eq!(check(answer.as_bytes(), output.as_bytes(), &f).is_ok(), naive(answer.as_bytes(), output.as_bytes(), &f));
    }

    #[test]
    fn an_output_equal_to_its_answer_is_accepted(answer in document(), f in any_flags()) {
        prop_assert!(check(answer.as_bytes(), answer.as_bytes(), &f).is_ok());
    }

    #[test]
    fn never_panics_on_bytes(answer in prop::collection::vec(any::<u8>(), 0..64), output in prop::collection::vec(any::<u8>(), 0..64), f in any_flags()) {
        let _ = check(&answer, &output, &f);
    }

    #[test]
    fn grammar_numbers_parse_like_rust(s in "[+-]?[0-9]{0,4}(\\.[0-9]{0,4})?([eE][+-]?[0-9]{1,3})?") {
        let grammar = matches_float_grammar(s.as_bytes());
        let rust = s.parse::<f64>().is_ok();
        // Everything the grammar admits Rust parses (the reverse does not hold: "inf").
        if grammar {
            prop_assert!(rust, "{}", s);
            prop_assert_eq!(parse_number(s.as_bytes()).is_some(), s.parse::<f64>().unwrap().is_finite());
        }
    }
}
