//! The bodies of the fuzz targets (`fuzz/fuzz_targets/*.rs` only call these), so plain
//! `cargo test` on stable replays committed inputs, and so the differential body can be
//! pointed at any pair of solvers.
//!
//! Differential and generator bodies read structured values with `arbitrary`. An input that
//! starts with `T` is instead the canonical text of a problem input (so the case corpus and
//! generated test sets seed the structured targets as they are).

use arbitrary::Unstructured;
use solutions::Problem;

use crate::{Generate, generate};

/// Canonical round trip: whatever the bytes, parsing does not panic, and an accepted input is
/// exactly its own canonical text and meets the constraints.
pub fn parse<P: Problem>(data: &[u8]) {
    if let Ok(input) = P::parse(data) {
        assert_eq!(
            P::write_input(&input).as_bytes(),
            data,
            "{}: an accepted input must be canonical",
            P::ID
        );
        assert!(
            P::valid(&input),
            "{}: the parser accepted an input that breaks a constraint",
            P::ID
        );
    }
}

/// The input a differential target tests: text mode, or structured from `arbitrary`.
pub fn decode<P: Generate>(data: &[u8]) -> Option<P::Input> {
    match data.split_first() {
        Some((b'T', text)) => P::parse(text).ok(),
        _ => P::decode(&mut Unstructured::new(data))
            .ok()
            .filter(P::valid),
    }
}

/// What a differential run found.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Not a valid input: the fuzzer should not keep it.
    Reject,
    Agree,
    /// The case in the problem's input format, ready to paste into the corpus.
    Disagree(String),
}

/// Compares `trusted` and `candidate` on the input decoded from `data`.
pub fn differential<P: Generate>(
    data: &[u8],
    trusted: fn(&P::Input) -> P::Answer,
    candidate: fn(&P::Input) -> P::Answer,
) -> Outcome {
    let Some(input) = decode::<P>(data) else {
        return Outcome::Reject;
    };
    let (want, got) = (trusted(&input), candidate(&input));
    if want == got {
        Outcome::Agree
    } else {
        Outcome::Disagree(format!(
            "{}: the solvers disagree (expected {:?}, got {:?}) on this input:\n{}",
            P::ID,
            P::write_answer(&want).trim_end(),
            P::write_answer(&got).trim_end(),
            P::write_input(&input)
        ))
    }
}

/// A generated input from a fuzzer-chosen seed, family and index is valid (through the text
/// validator too) and both solvers agree on it.
pub fn generated<P: Generate>(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let (Ok(seed), Ok(family), Ok(index)) = (
        u.arbitrary::<u64>(),
        u.arbitrary::<u8>(),
        u.int_in_range(0u64..=1_000_000),
    ) else {
        return;
    };
    let families = P::families();
    let family = &families[usize::from(family) % families.len()];
    let (input, params) = generate(family, index, seed);
    let text = P::write_input(&input);
    assert_eq!(
        P::parse(text.as_bytes()).ok().as_ref(),
        Some(&input),
        "{}/{} #{index} seed {seed} ({params}) is not valid:\n{text}",
        P::ID,
        family.name
    );
    assert_eq!(
        P::reference(&input),
        P::fast(&input),
        "{}/{} #{index} seed {seed}: the solvers disagree on:\n{text}",
        P::ID,
        family.name
    );
}

/// Stones for a square board from fuzzer bytes: a few lines (to make runs likely) and
/// scattered stones.
pub fn decode_stones<const N: usize>(
    u: &mut Unstructured<'_>,
) -> arbitrary::Result<solutions::board::Board<N>> {
    use solutions::board::{Board, LINES, Stone};
    let mut board = Board::<N>::empty();
    let colour = |white: bool| if white { Stone::White } else { Stone::Black };
    for _ in 0..u.int_in_range(0u8..=4)? {
        let (r, c) = (
            u.int_in_range(0..=N as i32 - 1)?,
            u.int_in_range(0..=N as i32 - 1)?,
        );
        let (dr, dc) = LINES[u.int_in_range(0usize..=3)?];
        let (len, white) = (u.int_in_range(1i32..=11)?, u.arbitrary::<bool>()?);
        for k in 0..len {
            if Board::<N>::on_board(r + k * dr, c + k * dc) {
                board.set(
                    (r + k * dr) as usize,
                    (c + k * dc) as usize,
                    Some(colour(white)),
                );
            }
        }
    }
    for _ in 0..u.int_in_range(0u16..=200)? {
        let cell = u.int_in_range(0..=N * N - 1)?;
        board.set(cell / N, cell % N, Some(colour(u.arbitrary::<bool>()?)));
    }
    Ok(board)
}

/// The three fuzz targets of one problem, with the problem's types erased, so that
/// `fuzz/fuzz_targets/` has one file per kind of target rather than one per problem.
pub struct Targets {
    pub id: &'static str,
    pub parse: fn(&[u8]),
    pub differential: fn(&[u8]) -> Outcome,
    pub generated: fn(&[u8]),
}

fn fast_against_reference<P: Generate>(data: &[u8]) -> Outcome {
    differential::<P>(data, P::reference, P::fast)
}

macro_rules! targets_of_every_problem {
    ([] $($module:ident: $problem:ty,)*) => {
        &[$(Targets {
            id: <$problem as Problem>::ID,
            parse: parse::<$problem>,
            differential: fast_against_reference::<$problem>,
            generated: generated::<$problem>,
        }),*]
    };
}

/// Every problem's targets, in the list's order.
pub static ALL: &[Targets] = solutions::for_each_problem!(targets_of_every_problem);

/// The environment variable that names the problem a fuzz target works on.
pub const PROBLEM_VARIABLE: &str = "BOARDJUDGE_PROBLEM";

/// The problem a fuzz target works on, and the bytes meant for it: the problem named by
/// `BOARDJUDGE_PROBLEM` and all of `data`, or, when the variable is not set, the problem chosen
/// by the first byte and the rest (so that one fuzzing run covers every problem).
pub fn select(data: &[u8]) -> Option<(&'static Targets, &[u8])> {
    static NAMED: std::sync::OnceLock<Option<&'static Targets>> = std::sync::OnceLock::new();
    let named = NAMED.get_or_init(|| {
        let id = std::env::var(PROBLEM_VARIABLE).ok()?;
        match ALL.iter().find(|t| t.id == id) {
            Some(targets) => Some(targets),
            None => panic!(
                "{PROBLEM_VARIABLE}={id} is not a problem; one of: {}",
                ALL.iter().map(|t| t.id).collect::<Vec<_>>().join(", ")
            ),
        }
    });
    match named {
        Some(targets) => Some((targets, data)),
        None => {
            let (&first, rest) = data.split_first()?;
            Some((&ALL[usize::from(first) % ALL.len()], rest))
        }
    }
}
