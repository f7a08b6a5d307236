//! `judge bench`: throughput of the parser and both solvers on the generated distribution.

use std::hint::black_box;
use std::time::{Duration, Instant};

use generators::{Generate, mixed_case};

/// One measured line: what, cases, nanoseconds per case.
pub struct Measurement {
    pub what: &'static str,
    pub cases: u64,
    pub ns_per_case: f64,
}

/// Runs `f` over all inputs in whole passes, at least 5 and until `min` has passed, and
/// returns the median pass's nanoseconds per call: a median shrugs off the passes that another
/// process on the machine slowed down.
fn time_passes<T>(inputs: &[T], min: Duration, mut f: impl FnMut(&T)) -> f64 {
    let started = Instant::now();
    let mut passes = Vec::new();
    while passes.len() < 5 || started.elapsed() < min {
        let pass = Instant::now();
        for input in inputs {
            f(input);
        }
        passes.push(pass.elapsed().as_nanos() as f64 / inputs.len().max(1) as f64);
    }
    passes.sort_by(f64::total_cmp);
    passes[passes.len() / 2]
}

pub fn bench<P: Generate>(cases: u64, seed: u64) -> Vec<Measurement> {
    let families = P::families();
    let inputs: Vec<P::Input> = (0..cases)
        .map(|i| mixed_case(&families, i, seed).0)
        .collect();
    let texts: Vec<String> = inputs.iter().map(P::write_input).collect();
    let parse = time_passes(&texts, Duration::from_millis(300), |t| {
        black_box(P::parse(black_box(t.as_bytes())).is_ok());
    });
    let reference = time_passes(&inputs, Duration::from_millis(300), |i| {
        black_box(P::reference(black_box(i)));
    });
    let fast = time_passes(&inputs, Duration::from_millis(800), |i| {
        black_box(P::fast(black_box(i)));
    });
    vec![
        Measurement {
            what: "parse",
            cases,
            ns_per_case: parse,
        },
        Measurement {
            what: "reference",
            cases,
            ns_per_case: reference,
        },
        Measurement {
            what: "fast",
            cases,
            ns_per_case: fast,
        },
    ]
}
