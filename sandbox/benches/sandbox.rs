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

fn bare(c: &mut Criterion) {
    c.bench_function("bare spawn+wait /bin/cat", |b| {
        b.iter(|| {
            let mut child = Command::new("/bin/cat")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            child.stdin.take().unwrap().write_all(INPUT).unwrap();
            let out = child.wait_with_output().unwrap();
            assert_eq!(out.stdout, INPUT);
        })
    });
}

fn sandboxed(c: &mut Criterion) {
    let command = sandbox::Command {
        program: "/bin/cat".into(),
        args: vec![],
        readable: vec![],
    };
    let sandbox = Sandbox::new(command, 1).unwrap();
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
    targets = bare, sandboxed
}
criterion_main!(benches);
