//! The cost of building in the box: the same source built by the judge's build command in a
//! build box ([`sandbox::build::build`]: namespaces, a leased uid, cgroups, a tmpfs box, the
//! artefact taken out) and bare (the same command, run by the judge's user on the host in a
//! temporary folder, as judges built before), alternately, for every language. Each round
//! builds a new variant of the source (a comment with the round's number), so no compiler
//! cache (Go's) serves a whole earlier build; bare Go keeps the user's warm `GOCACHE` as the
//! judge did. Wall time is the whole build (for the box: making it and taking the artefact
//! out too); CPU time is the compiler's and its children's (`RUSAGE_CHILDREN`).
//!
//! `cargo bench -p judge-core --bench build_box [-- ROUNDS [LANG...]]` (as root).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use judge_core::cancel::Cancel;
use judge_core::runner::submission::{Builder, build_spec};

const SOURCES: [&str; 12] = [
    "hello.c",
    "othello.c",
    "hello.cpp",
    "othello.cpp",
    "hello.rs",
    "othello.rs",
    "hello.go",
    "othello.go",
    "Hello.java",
    "Othello.java",
    "hello.kt",
    "othello.kt",
];

/// CPU time of this process's reaped children so far.
fn children_cpu() -> Duration {
    // SAFETY: a zeroed rusage is a valid value to be overwritten.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a local structure for the call.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let micros = |t: libc::timeval| (t.tv_sec * 1_000_000 + t.tv_usec) as u64;
    Duration::from_micros(micros(usage.ru_utime) + micros(usage.ru_stime))
}

/// `word` with the box's `/box` replaced by `dir`.
fn bare_path(word: &str, dir: &Path) -> String {
    match word.strip_prefix("/box") {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => {
            format!("{}{rest}", dir.display())
        }
        _ => word.to_string(),
    }
}

/// The same build, bare: the box's folders in `dir`, the command as the box runs it.
fn bare(spec: &sandbox::build::Spec, dir: &Path, user_env: bool) -> bool {
    let _ = std::fs::remove_dir_all(dir);
    for sub in ["src", "out", "tmp"]
        .iter()
        .map(|s| s.to_string())
        .chain(spec.dirs.iter().cloned())
    {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    for file in &spec.command.files {
        let path = dir.join(&file.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &file.contents).unwrap();
    }
    let mut command = std::process::Command::new(&spec.command.program);
    command
        .args(spec.command.args.iter().map(|a| bare_path(a, dir)))
        .current_dir(dir.join("src"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    if !user_env {
        command
            .env("HOME", dir.join("tmp"))
            .env("TMPDIR", dir.join("tmp"));
        for (key, value) in &spec.command.env {
            command.env(key, bare_path(value, dir));
        }
    }
    command.status().is_ok_and(|s| s.success())
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let rounds: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(5);
    let chosen: Vec<&String> = args.iter().skip(1).collect();
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("build_box: needs root (the build box's isolation)");
        return;
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{rounds} rounds, bare and box alternately; load average at start: {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    // SAFETY: setting this process's environment before any thread starts.
    unsafe { std::env::set_var("BOARDJUDGE_BUILD_CACHE", "off") };
    // The hello programs are the bench's own; the othello ones are the languages test's.
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/build_box");
    let languages = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/integration/languages");
    let work: PathBuf =
        std::env::temp_dir().join(format!("build-box-bench-{}", std::process::id()));
    let never = AtomicBool::new(false);
    let builder = Builder::new(None, &[], &Cancel::new());
    println!(
        "{:<14} {:>9} {:>9} {:>7}   {:>8} {:>8} {:>7}",
        "source", "bare ms", "box ms", "wall", "bare CPU", "box CPU", "CPU"
    );
    for name in SOURCES {
        let ext = Path::new(name).extension().unwrap().to_string_lossy();
        if !chosen.is_empty() && !chosen.iter().any(|c| **c == ext) {
            continue;
        }
        let folder = if name.to_lowercase().starts_with("hello") {
            &here
        } else {
            &languages
        };
        let original = std::fs::read_to_string(folder.join(name)).unwrap();
        let (mut bare_wall, mut box_wall, mut bare_cpu, mut box_cpu) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut failed = false;
        for round in 0..rounds {
            std::fs::create_dir_all(&work).unwrap();
            let variant = work.join(name);
            std::fs::write(
                &variant,
                format!("{original}\n// round {round} {}\n", std::process::id()),
            )
            .unwrap();
            let spec = match build_spec(&variant, &builder) {
                Ok(Some(spec)) => spec,
                other => {
                    eprintln!("{name}: {other:?}");
                    failed = true;
                    break;
                }
            };
            let (cpu, t) = (children_cpu(), Instant::now());
            failed |= !bare(&spec, &work.join("bare"), ext == "go");
            bare_wall.push(t.elapsed());
            bare_cpu.push(children_cpu() - cpu);
            let (cpu, t) = (children_cpu(), Instant::now());
            let built = sandbox::build::build(&spec, &never);
            box_wall.push(t.elapsed());
            box_cpu.push(children_cpu() - cpu);
            failed |= !matches!(built, Ok(sandbox::build::Built::Artefact(_)));
        }
        if failed {
            println!("{name:<14} a build failed");
            continue;
        }
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let (bw, xw, bc, xc) = (
            median(bare_wall),
            median(box_wall),
            median(bare_cpu),
            median(box_cpu),
        );
        println!(
            "{name:<14} {:>9.0} {:>9.0} {:>+6.0}%   {:>8.0} {:>8.0} {:>+6.0}%",
            ms(bw),
            ms(xw),
            (ms(xw) / ms(bw) - 1.0) * 100.0,
            ms(bc),
            ms(xc),
            (ms(xc) / ms(bc).max(1e-9) - 1.0) * 100.0
        );
    }
    let _ = std::fs::remove_dir_all(&work);
}
