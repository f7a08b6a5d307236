//! Criterion benches of every problem's parser and solvers on the generated distribution (the
//! same mix `judge stress` and `judge bench` use). `cargo bench -p solutions`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use generators::{Generate, mixed_case};

fn bench_problem<P: Generate>(c: &mut Criterion) {
    let families = P::families();
    let inputs: Vec<P::Input> = (0..4096).map(|i| mixed_case(&families, i, 1).0).collect();
    let texts: Vec<String> = inputs.iter().map(P::write_input).collect();
    let mut group = c.benchmark_group(P::ID);
    // One iteration = one pass over all 4096 inputs; the reported time divided by 4096 is the
    // time per case.
    group.bench_function("fast x4096", |b| {
        b.iter(|| {
            for i in &inputs {
                black_box(P::fast(black_box(i)));
            }
        })
    });
    group.bench_function("reference x4096", |b| {
        b.iter(|| {
            for i in &inputs {
                black_box(P::reference(black_box(i)));
            }
        })
    });
    group.bench_function("parse x4096", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(P::parse(black_box(t.as_bytes())).is_ok());
            }
        })
    });
    group.finish();
}

macro_rules! bench_every_problem {
    ([$c:ident] $($module:ident: $problem:ty,)*) => {
        $(bench_problem::<$problem>($c);)*
    };
}

fn benches(c: &mut Criterion) {
    solutions::for_each_problem!(bench_every_problem, c);
}

criterion_group! {
    name = solvers;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(solvers);
