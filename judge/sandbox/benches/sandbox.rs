//! The cost of the sandbox per test: the same trivial compiled program (`/bin/cat`, which
//! reads its input and writes it back) run by a bare `std::process::Command` spawn-and-wait,
//! and by `Sandbox::run` (with the isolation this machine allows: as root a PID namespace, an
//! unprivileged uid, Landlock, rlimits). `cargo bench --bench sandbox`.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use sandbox::{Limits, Sandbox};

const INPUT: &[u8] =
    b"NNNNNNNN\nNNNNNNNN\nNNNNNNNN\nNNNWBNNN\nNNNBWNNN\nNNNNNNNN\nNNNNNNNN\nNNNNNNNP\n";

fn bare_once() {
    let mut child = Command::new("/bin/cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(INPUT).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.stdout, INPUT);
}

fn bare(c: &mut Criterion) {
    c.bench_function("bare spawn+wait /bin/cat", |b| b.iter(bare_once));
}

fn cat_sandbox() -> Sandbox {
    Sandbox::new(sandbox::Command::system("/bin/cat", &[]), 1).unwrap()
}

/// The three ways alternately, one run after the other, so that the machine's load (shared,
/// busy) weighs on all alike: the medians and their ratios, printed before criterion's figures.
/// The fork server's run was prestarted while the others ran (as in `judge stress`, where the
/// judge checks a case meanwhile); the per-run namespaces are how every run started before it.
fn interleaved(_: &mut Criterion) {
    let served = cat_sandbox();
    let fresh = Sandbox::with(
        sandbox::Command::system("/bin/cat", &[]),
        1,
        &sandbox::Options {
            fork_server: false,
            ..sandbox::Options::default()
        },
    )
    .unwrap();
    let limits = Limits::new(Duration::from_secs(2), 256);
    let never = AtomicBool::new(false);
    let mut times = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..1500 {
        let t = std::time::Instant::now();
        bare_once();
        times[0].push(t.elapsed());
        for (k, sandbox) in [(1, &fresh), (2, &served)] {
            let t = std::time::Instant::now();
            let out = sandbox.run(0, INPUT, &limits, &never).unwrap();
            times[k].push(t.elapsed());
            assert_eq!(out.stdout, INPUT);
        }
    }
    let medians = times.map(|mut t| {
        t.sort();
        t[750].as_secs_f64() * 1e6
    });
    let change = |x: f64| (x / medians[0] - 1.0) * 100.0;
    println!(
        "interleaved, 1500 runs each: median bare {:.0} µs, sandboxed with namespaces per run \
         {:.0} µs ({:+.0} %), from the fork server {:.0} µs ({:+.0} %)\n  ({})",
        medians[0],
        medians[1],
        change(medians[1]),
        medians[2],
        change(medians[2]),
        served.isolation.describe()
    );
}

fn sandboxed(c: &mut Criterion) {
    let sandbox = cat_sandbox();
    let limits = Limits::new(Duration::from_secs(2), 256);
    let never = AtomicBool::new(false);
    c.bench_function(
        &format!("sandboxed /bin/cat ({})", sandbox.isolation.describe()),
        |b| {
            b.iter(|| {
                let out = sandbox.run(0, INPUT, &limits, &never).unwrap();
                assert_eq!(out.stdout, INPUT);
            })
        },
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(60).measurement_time(Duration::from_secs(8));
    targets = interleaved, bare, sandboxed
}
criterion_main!(benches);
