//! Board-access models (see `solutions::access`): with the correct accessor the generic
//! reference is the reference; every other model is either a wrong solver that some valid input
//! tells apart, or listed as equivalent with its argument.

use generators::{Generate, mixed_case};

use solutions::Problem;

fn disagreements<P: Generate>(cases: u64) -> Vec<(&'static str, u64)> {
    let families = P::families();
    let models = P::wrong_solvers();
    let mut counts: Vec<(&'static str, u64)> = models.iter().map(|m| (m.name, 0)).collect();
    for i in 0..cases {
        let (input, _, _) = mixed_case(&families, i, 99);
        let want = P::reference(&input);
        for (k, m) in models.iter().enumerate() {
            if (m.solve)(&input) != want {
                counts[k].1 += 1;
            }
        }
    }
    counts
}

#[test]
#[ignore = "a survey, printed: cargo test --release -p generators --test access_models -- --ignored --nocapture"]
fn survey() {
    macro_rules! each {
        ([] $($m:ident: $p:ty,)*) => {$(
            for (name, n) in disagreements::<$p>(20000) {
                println!("{} {name} {n}", <$p>::ID);
            }
        )*};
    }
    solutions::for_each_problem!(each);
}

/// Every model is, for every problem, either a wrong solver or listed as equivalent (never
/// silently dropped), and never both.
#[test]
fn every_model_is_a_wrong_solver_or_equivalent() {
    macro_rules! each {
        ([] $($m:ident: $p:ty,)*) => {$({
            let wrong: Vec<&str> = <$p>::wrong_solvers().iter().map(|s| s.name).collect();
            let equivalent: Vec<&str> = <$p>::EQUIVALENT_MODELS.iter().map(|e| e.model).collect();
            for model in solutions::access::models() {
                let w = wrong.contains(&model.name);
                let e = equivalent.contains(&model.name);
                assert!(w != e, "{}: {} is {}", <$p>::ID, model.name,
                    if w { "both a wrong solver and equivalent" } else { "neither" });
            }
        })*};
    }
    solutions::for_each_problem!(each);
}

use solutions::access::{Colour, Exact, ModelFns, Read, models};
use solutions::board::LINES;

fn model(name: &str) -> ModelFns {
    models().into_iter().find(|m| m.name == name).unwrap()
}

/// The premise shared by the equivalence arguments of othello-flips and renju: on the board
/// the model reads exactly; a walk that leaves the board (from any cell, in any direction)
/// meets only white stones off it until its first non-white read, which is nothing (never
/// black, never a board cell), so a walk that leaves the board is never closed by black and
/// never comes back; scans and the cells read beyond a run are the reference's. Checked for
/// every cell, direction and walk length up to three board widths.
fn never_black_off_the_board(m: &ModelFns, n: i32) -> bool {
    let exact_inside =
        (0..n).all(|r| (0..n).all(|c| (m.read)(r, c, n) == Read::Cell(r as usize, c as usize)));
    let walks_never_closed = (0..n).all(|r| {
        (0..n).all(|c| {
            solutions::board::DIRECTIONS.iter().all(|&(dr, dc)| {
                let first_off = (1..)
                    .find(|&k| !((0..n).contains(&(r + k * dr)) && (0..n).contains(&(c + k * dc))))
                    .unwrap();
                for k in first_off..first_off + 3 * n {
                    match (m.read)(r + k * dr, c + k * dc, n) {
                        Read::Stray(Colour::Second) => continue,
                        Read::Nothing => return true,
                        _ => return false,
                    }
                }
                true
            })
        })
    });
    exact_inside && walks_never_closed && default_scans_and_beyond(m, n)
}

fn default_scans_and_beyond(m: &ModelFns, n: i32) -> bool {
    let dirs = solutions::board::DIRECTIONS;
    (-1..=n).all(|r| {
        (-1..=n).all(|c| {
            dirs.iter().all(|&d| {
                (m.beyond)((r, c), d) == (r, c)
                    && (1..=n + 2).all(|len| (m.scans)((r, c), d, len, n))
            })
        })
    })
}

#[test]
fn equivalence_arguments_hold() {
    for e in <solutions::OthelloFlips as Problem>::EQUIVALENT_MODELS {
        assert!(
            never_black_off_the_board(&model(e.model), 8),
            "othello-flips: {}",
            e.model
        );
    }
    for e in <solutions::Renju as Problem>::EQUIVALENT_MODELS {
        assert!(
            never_black_off_the_board(&model(e.model), 15),
            "renju: {}",
            e.model
        );
    }
    // The renju argument also needs the solver to compare reads with black only.
    let renju = include_str!("../../solutions/src/renju/reference.rs");
    assert!(
        !renju.contains("Stone::White"),
        "renju's reference now reads white stones"
    );
    let othello = include_str!("../../solutions/src/othello_flips/reference.rs");
    assert!(othello.contains("Read::Stray(Colour::Second) => Found::White(0)"));

    // gomoku-checker: every read its scan can make is (r + k·dr, c + k·dc) from a stone on
    // the board, along a LINES direction, k in 0..5; the pad-thin-left models agree with the
    // reference on all of them (none has a negative column).
    let n = 19;
    for e in <solutions::GomokuChecker as Problem>::EQUIVALENT_MODELS {
        let m = model(e.model);
        if e.model.starts_with("access-pad-thin-left") {
            assert!(default_scans_and_beyond(&m, n));
            for r in 0..n {
                for c in 0..n {
                    for (dr, dc) in LINES {
                        for k in 0..5 {
                            let (rr, cc) = (r + k * dr, c + k * dc);
                            assert_eq!(
                                (m.read)(rr, cc, n),
                                <Exact as solutions::access::BoardAccess>::read(rr, cc, n),
                                "{}",
                                e.model
                            );
                        }
                    }
                }
            }
        } else {
            assert_eq!(e.model, "six-check-parallel-line");
            // Reads and scans exact; the only change is `beyond`, which the solver never calls.
            for r in -2 * n..3 * n {
                for c in -2 * n..3 * n {
                    assert_eq!(
                        (m.read)(r, c, n),
                        <Exact as solutions::access::BoardAccess>::read(r, c, n)
                    );
                }
            }
            let source = include_str!("../../solutions/src/gomoku_checker/reference.rs");
            assert!(
                !source.contains("beyond("),
                "gomoku-checker's reference now reads beyond runs"
            );
        }
    }
}

/// Evidence beside the arguments: the equivalent models agree with the reference on 20,000
/// generated inputs of every family.
#[test]
fn equivalent_models_agree_on_generated_inputs() {
    macro_rules! each {
        ([] $($m:ident: $p:ty,)*) => {$({
            let equivalent: Vec<&str> = <$p>::EQUIVALENT_MODELS.iter().map(|e| e.model).collect();
            if !equivalent.is_empty() {
                let solvers: Vec<_> = solutions::problem::model_solvers::<$p>()
                    .into_iter().filter(|s| equivalent.contains(&s.name)).collect();
                let families = <$p>::families();
                for i in 0..20_000 {
                    let (input, _, _) = mixed_case(&families, i, 5);
                    let want = <$p>::reference(&input);
                    for s in &solvers {
                        assert_eq!((s.solve)(&input), want, "{} {}: {}", <$p>::ID, s.name, <$p>::write_input(&input));
                    }
                }
            }
        })*};
    }
    solutions::for_each_problem!(each);
}
