//! Issue 25: a contestant's source is as hostile as the program it becomes. Each attack is a
//! source (or program) in `tests/integration/hostile/`, with a control that shows it working
//! outside the judge's box (the compiler or program run directly, as judges built and ran
//! before), then the judge's outcome. `@TESTS@` in a source is the test folder, `@MARKER@` a
//! file in the host's temporary folder, `@ESC@` the escape character.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::generation::scratch;
use crate::util::*;

const SAMPLE_2: &str =
    "NNNNNNNN\nNNNNNNNN\nNNNNNNNN\nNNNWBNNN\nNNNBWNNN\nNNNNNNNN\nNNNNNNNN\nNNNNNNNP\n";

/// What a test folder's manifest holds: the secret a build must not learn.
const SECRET: &str = "SECRET-ANSWER-4242";

fn is_root() -> bool {
    // SAFETY: no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A scratch folder with a test folder `tests/` (sample 2 under `names`, answer 0, and a
/// manifest holding [`SECRET`]) and a marker file in the host's temporary folder.
struct Setup {
    dir: PathBuf,
    tests: PathBuf,
    marker: PathBuf,
}

impl Setup {
    fn new(name: &str, tests: &[&str]) -> Setup {
        let dir = scratch(&format!("box-{name}"));
        let folder = dir.join("tests");
        std::fs::create_dir_all(&folder).unwrap();
        for test in tests {
            std::fs::write(folder.join(format!("{test}.in")), SAMPLE_2).unwrap();
            std::fs::write(folder.join(format!("{test}.ans")), "0\n").unwrap();
        }
        std::fs::write(
            folder.join("manifest.csv"),
            format!("test,answer\nsample-2,0 {SECRET}\n"),
        )
        .unwrap();
        let marker =
            std::env::temp_dir().join(format!("boardjudge-marker-{name}-{}", std::process::id()));
        std::fs::write(&marker, "host\n").unwrap();
        Setup {
            dir,
            tests: folder,
            marker,
        }
    }

    /// `hostile/NAME` with its placeholders filled, written into `at` (relative to the
    /// scratch folder).
    fn source(&self, name: &str, at: &str) -> PathBuf {
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/integration/hostile")
                .join(name),
        )
        .unwrap()
        .replace("@TESTS@", &self.tests.display().to_string())
        .replace("@MARKER@", &self.marker.display().to_string())
        .replace("@ESC@", "\x1b");
        let path = self.dir.join(at);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// `judge run othello-flips --tests tests ARGS -- COMMAND` from the scratch folder.
    fn judge(&self, args: &[&str], command: &[&str]) -> Output {
        let out = judge()
            .current_dir(&self.dir)
            .args(["run", "othello-flips", "--tests"])
            .arg(&self.tests)
            .args(args)
            .arg("--")
            .args(command)
            .output()
            .unwrap();
        assert_no_panic(&out);
        out
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.marker);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The judge's standard output and error together.
fn both(out: &Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

/// Runs `program ARGS` on the host in `dir` (the control); its output and error together.
fn outside(dir: &Path, program: &str, args: &[&str]) -> (bool, String) {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (out.status.success(), both(&out))
}

/// A CE whose message leaks nothing: the build ran in the box. (It may quote what the source
/// itself says, paths included; never the judge's own path for the source.)
fn assert_blind_ce(out: &Output, setup: &Setup, source: &str, what: &str) {
    let all = both(out);
    assert_eq!(out.status.code(), Some(1), "{what}: {all}");
    assert!(text(&out.stdout).starts_with("CE   "), "{what}: {all}");
    for leak in [
        SECRET,
        "root:",
        "found the tests",
        "found an answer",
        "found /etc/shadow",
        "found the host's /tmp",
    ] {
        assert!(!all.contains(leak), "{what} leaked {leak:?}: {all}");
    }
    // The judge names the user's file; the compiler's message and command know box paths only.
    let message: String = text(&out.stdout)
        .lines()
        .skip(1)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        !message.contains(&setup.dir.join(source).display().to_string()),
        "{what}: the source's host path in the CE message: {all}"
    );
    assert!(all.contains("/box/src/"), "{what}: {all}");
}

/// 25.1/25.2: what a compiler reads (#include, __has_include, include_str!, cgo) comes from
/// the box, which holds the source alone and the toolchains: the tests, their manifest, the
/// host's root-only files and its /tmp are not there, so the CE message quotes none of them.
#[test]
fn builds_read_nothing_of_the_tests_or_the_host() {
    let setup = Setup::new("reads", &["sample-2"]);
    let mut cases = vec![
        (
            "build_include_manifest.c",
            "gcc",
            vec!["-c", "-o", "/dev/null"],
            SECRET,
        ),
        (
            "build_has_include.cpp",
            "g++",
            vec!["-c", "-o", "/dev/null"],
            "found the tests",
        ),
        (
            "build_compile_error_leak.rs",
            "rustc",
            vec!["--emit=metadata", "-o", "/dev/null"],
            SECRET,
        ),
    ];
    if is_root() {
        cases.push((
            "build_include_shadow.c",
            "gcc",
            vec!["-c", "-o", "/dev/null"],
            "root:",
        ));
    }
    if have("go") {
        cases.push((
            "build_cgo_include.go",
            "go",
            vec!["build", "-o", "/dev/null"],
            SECRET,
        ));
    }
    for (name, compiler, flags, leak) in cases {
        let source = setup.source(name, name);
        // Control: the compiler on the host quotes the file.
        let mut args = flags.clone();
        let path = source.display().to_string();
        args.push(&path);
        let (_, said) = outside(&setup.dir, compiler, &args);
        assert!(said.contains(leak), "control {name}: {said}");
        let out = setup.judge(&[], &[name]);
        assert_blind_ce(&out, &setup, name, name);
    }
}

/// 25.1: the answers cannot be built into the program (.incbin, include_str!, //go:embed
/// of a tests/ folder beside the source): the build fails in the box.
#[test]
fn builds_cannot_embed_the_answers() {
    let setup = Setup::new("embed", &["sample-2"]);
    let mut cases = vec![
        ("build_incbin_answers.c", "gcc", "incbin.c"),
        ("build_include_str_answer.rs", "rustc", "include_str.rs"),
    ];
    if have("go") {
        cases.push(("build_go_embed.go", "go", "embed.go"));
    }
    for (name, compiler, at) in cases {
        let source = setup.source(name, at);
        // Control: built on the host, the program prints the manifest.
        let program = setup.dir.join("control");
        let args: Vec<String> = match compiler {
            "go" => vec![
                "build".into(),
                "-o".into(),
                program.display().to_string(),
                at.into(),
            ],
            _ => vec![
                "-o".into(),
                program.display().to_string(),
                source.display().to_string(),
            ],
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (built, said) = outside(&setup.dir, compiler, &args);
        assert!(built, "control {name}: {said}");
        let (_, printed) = outside(&setup.dir, program.to_str().unwrap(), &[]);
        assert!(printed.contains(SECRET), "control {name}: {printed}");
        let out = setup.judge(&[], &[at]);
        assert_blind_ce(&out, &setup, at, name);
    }
}

/// 25.1: javac's default source path is the working directory: outside, Alice.java compiles
/// another team's Bob.java lying beside it; in the box there is nothing beside it.
#[test]
fn javac_does_not_compile_another_teams_file() {
    if !(have("javac") && have("java")) {
        skipped("no JDK (Debian: apt-get install default-jdk-headless)");
        return;
    }
    let setup = Setup::new("javac", &["sample-2"]);
    setup.source("build_Alice.java", "teams/Alice.java");
    setup.source("build_Bob.java", "teams/Bob.java");
    let (built, said) = outside(
        &setup.dir.join("teams"),
        "javac",
        &["-d", "../classes", "Alice.java"],
    );
    assert!(
        built && setup.dir.join("classes/Bob.class").exists(),
        "control: {said}"
    );
    let out = setup.judge(&[], &["teams/Alice.java"]);
    assert_blind_ce(&out, &setup, "teams/Alice.java", "Alice.java");
    assert!(both(&out).contains("cannot find symbol"), "{}", both(&out));
}

/// 25.1: a build that would run for hours (constant evaluation) stops at the build time limit
/// and is a CE saying so; outside, the compiler is still running.
#[test]
fn endless_builds_stop_at_the_build_time_limit() {
    let setup = Setup::new("forever", &["sample-2"]);
    let mut cases = vec![("build_constexpr_forever.cpp", "g++", "forever.cpp")];
    if have("rustc") {
        cases.push(("build_const_eval_forever.rs", "rustc", "forever.rs"));
    }
    for (name, compiler, at) in cases {
        let source = setup.source(name, at);
        let mut control = Command::new(compiler)
            .arg("-o")
            .arg(setup.dir.join("never"))
            .arg(&source)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_secs(5));
        let still = control.try_wait().unwrap().is_none();
        let _ = Command::new("pkill")
            .arg("-9")
            .arg("-P")
            .arg(control.id().to_string())
            .status();
        let _ = control.kill();
        let _ = control.wait();
        assert!(still, "control {name}: the compiler finished");
        let started = Instant::now();
        let out = setup.judge(&["--build-time-limit", "2"], &[at]);
        let all = both(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {all}");
        assert!(text(&out.stdout).starts_with("CE   "), "{name}: {all}");
        assert!(
            all.contains("stopped after 2.0 s of CPU time (the build time limit)"),
            "{name}: {all}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "{name}: {:?}",
            started.elapsed()
        );
    }
}

/// 25.1: a build writes at most its box (256 MiB) and files of at most 128 MiB: the
/// assembler's 304 MiB `.fill` is a CE; outside, it writes a program of that size.
#[test]
fn a_build_writes_no_more_than_its_limits() {
    let setup = Setup::new("fill", &["sample-2"]);
    let source = setup.source("build_fill_disk.c", "fill.c");
    let program = setup.dir.join("big");
    let (built, said) = outside(
        &setup.dir,
        "gcc",
        &["-o", program.to_str().unwrap(), source.to_str().unwrap()],
    );
    let size = std::fs::metadata(&program).map_or(0, |m| m.len());
    let _ = std::fs::remove_file(&program);
    assert!(built && size > 300 << 20, "control: {size} bytes {said}");
    let out = setup.judge(&[], &["fill.c"]);
    let all = both(&out);
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(text(&out.stdout).starts_with("CE   "), "{all}");
    assert!(
        all.contains("File size limit exceeded")
            || all.contains("file size limit")
            || all.contains("build folder is full"),
        "{all}"
    );
}

/// 25.1: what a build sees and may do, asked by a "compiler" of the judge's configuration
/// (`BOARDJUDGE_BUILD_C`, which runs in the box like any build): its own source only, no
/// root-only file, no test, nothing of the host's /tmp, no network, an unprivileged uid, at
/// most 128 processes and 1 GiB. Outside (as root) it gets all of them.
#[test]
fn a_build_sees_only_its_source_and_is_limited() {
    if !is_root() {
        skipped("needs root");
        return;
    }
    let setup = Setup::new("probe", &["sample-2"]);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let probe = setup.source("build_probe.py", "probe.c");
    let probe_text = std::fs::read_to_string(&probe)
        .unwrap()
        .replace("@PORT@", &port);
    std::fs::write(&probe, probe_text).unwrap();
    let (_, control) = outside(&setup.dir, "python3", &["probe.c"]);
    for found in [
        "uid: 0",
        "shadow: root",
        "tests: [",
        "host tmp: True",
        "network: connected",
        "processes: 300",
        "MiB: 1500",
    ] {
        assert!(control.contains(found), "control: {found} in {control}");
    }
    let got_in = listener.accept().is_ok();
    assert!(got_in, "control: the listener saw nothing");
    let out = judge()
        .current_dir(&setup.dir)
        .env("BOARDJUDGE_BUILD_C", "python3 {src}")
        .env("BOARDJUDGE_BUILD_CACHE", "off")
        .args(["run", "othello-flips", "--tests"])
        .arg(&setup.tests)
        .args(["--", "probe.c"])
        .output()
        .unwrap();
    let all = both(&out);
    assert_eq!(out.status.code(), Some(1), "{all}");
    for found in [
        "cwd: /box/src",
        "here: ['sol.c']",
        "shadow: failed",
        "tests: failed",
        "host tmp: False",
        "network: failed",
        "stopped at the build's memory limit (1024 MiB)",
    ] {
        assert!(all.contains(found), "{found} in {all}");
    }
    assert!(!all.contains("uid: 0\n"), "{all}");
    let processes: usize = all
        .lines()
        .find_map(|l| l.strip_prefix("processes: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    assert!((1..=128).contains(&processes), "{all}");
    assert!(
        listener.accept().is_err(),
        "the build reached the host's network"
    );
}

/// 25.1: the judge killed with SIGKILL during a build: the compiler dies with it (its PID
/// namespace does); outside, a compiler whose parent is killed keeps compiling. Nothing is
/// staged on the host's disk.
#[test]
fn a_build_dies_with_the_judge() {
    let setup = Setup::new("killed", &["sample-2"]);
    setup.source("build_constexpr_forever.cpp", "forever_7474747.cpp");
    // Control: g++ under a shell killed with SIGKILL keeps running.
    let mut shell = Command::new("sh")
        .arg("-c")
        .arg("g++ -o never forever_7474747.cpp; :")
        .current_dir(&setup.dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    shell.kill().unwrap();
    shell.wait().unwrap();
    std::thread::sleep(Duration::from_secs(1));
    let survivors = pids_of("forever_7474747");
    for pid in &survivors {
        // SAFETY: killing the control's orphaned compiler.
        unsafe { libc::kill(*pid, libc::SIGKILL) };
    }
    assert!(
        !survivors.is_empty(),
        "control: the compiler died with its parent"
    );
    let temporary_before = temporary_entries();
    let mut child = judge()
        .current_dir(&setup.dir)
        .args(["run", "othello-flips", "--tests"])
        .arg(&setup.tests)
        .args(["--", "forever_7474747.cpp"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while pids_of("forever_7474747").is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the build never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let started = Instant::now();
    while !pids_of("forever_7474747").is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the compiler outlived the judge: {:?}",
            pids_of("forever_7474747")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let left: Vec<String> = temporary_entries()
        .into_iter()
        .filter(|e| !temporary_before.contains(e) && e.contains(&child.id().to_string()))
        .collect();
    assert!(left.is_empty(), "left in the temporary folder: {left:?}");
}

/// The processes whose command line contains `marker`.
fn pids_of(marker: &str) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let pid: i32 = e.file_name().to_str()?.parse().ok()?;
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            String::from_utf8_lossy(&cmdline)
                .contains(marker)
                .then_some(pid)
        })
        .collect()
}

fn temporary_entries() -> Vec<String> {
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// 25.2: a CE's message is the compiler's, capped at 8 KiB, escaped (a raw escape sequence
/// in it reaches no terminal), and it names the source by its box path only.
#[test]
fn a_compile_error_is_capped_escaped_and_in_box_paths() {
    let setup = Setup::new("ce", &["sample-2"]);
    setup.source("build_huge_error.c", "huge.c");
    let (_, control) = outside(&setup.dir, "gcc", &["-o", "/dev/null", "huge.c"]);
    assert!(
        control.len() > 64 << 10 && control.contains('\x1b'),
        "control: {} bytes",
        control.len()
    );
    let report = setup.dir.join("r.json");
    let out = setup.judge(&["--report", report.to_str().unwrap()], &["huge.c"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        !stdout.contains('\x1b') && !text(&out.stderr).contains('\x1b'),
        "{stdout}"
    );
    assert!(
        stdout.contains("\\x1b[2J cleared your terminal"),
        "{stdout}"
    );
    assert!(stdout.contains("more bytes)"), "{stdout}");
    assert!(stdout.len() < 12 << 10, "{} bytes", stdout.len());
    assert!(stdout.contains("/box/src/sol.c"), "{stdout}");
    assert!(
        !stdout.contains(&setup.dir.display().to_string()),
        "{stdout}"
    );
    let rows = std::fs::read_to_string(&report).unwrap();
    assert!(rows.contains("\"CE\""), "{rows}");
}

/// 25.3: a script sees its own file, not the folder it came from (another team's source, a
/// copy of the answers); outside, it reads them all.
#[test]
fn a_script_sees_its_own_file_only() {
    let setup = Setup::new("sibling", &["sample-2"]);
    setup.source("run_sibling.py", "contest/sibling.py");
    std::fs::write(setup.dir.join("contest/team-bob.c"), "int main(void) {}\n").unwrap();
    std::fs::create_dir_all(setup.dir.join("contest/answers-backup")).unwrap();
    std::fs::write(setup.dir.join("contest/answers-backup/sample-2.ans"), "0\n").unwrap();
    let mut control = Command::new("python3")
        .arg("contest/sibling.py")
        .current_dir(&setup.dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    drop(control.stdin.take());
    let said = text(&control.wait_with_output().unwrap().stdout);
    assert!(
        said.contains("team-bob.c") && said.contains("answers-backup"),
        "control: {said}"
    );
    for command in [
        vec!["contest/sibling.py"],
        vec!["python3", "contest/sibling.py"],
    ] {
        let out = setup.judge(&[], &command);
        assert_eq!(out.status.code(), Some(0), "{command:?}: {}", both(&out));
    }
}

/// 25.3: a submission of several files is a folder: its files are copied into the box, its
/// entry point is main.<ext> (or Main), and a compiled language's sources are compiled
/// together.
#[test]
fn folder_submissions_hold_several_files() {
    let setup = Setup::new("folders", &["sample-2"]);
    let write = |path: &str, text: &str| {
        let path = setup.dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "c/main.c",
        "#include <stdio.h>\n#include \"answer.h\"\nint main(void) { printf(\"%d\\n\", answer()); return 0; }\n",
    );
    write("c/answer.h", "int answer(void);\n");
    write("c/answer.c", "int answer(void) { return 0; }\n");
    write(
        "py/main.py",
        "import sys\nfrom helper import answer\nsys.stdin.read()\nprint(answer())\n",
    );
    write("py/helper.py", "def answer():\n    return 0\n");
    let mut folders = vec!["c", "py"];
    if have("javac") {
        write(
            "java/Main.java",
            "public class Main { public static void main(String[] a) { System.out.println(Helper.answer()); } }\n",
        );
        write(
            "java/Helper.java",
            "public class Helper { static int answer() { return 0; } }\n",
        );
        folders.push("java");
    }
    for folder in folders {
        let out = setup.judge(&["--time-limit", "5", "--memory-limit", "512"], &[folder]);
        assert_eq!(out.status.code(), Some(0), "{folder}: {}", both(&out));
    }
    // Two entry points: the judge asks which (a usage error, not a verdict).
    write("two/a.py", "print(0)\n");
    write("two/b.py", "print(0)\n");
    let out = setup.judge(&[], &["two"]);
    assert_eq!(out.status.code(), Some(2), "{}", both(&out));
    assert!(
        text(&out.stderr).contains("one entry point"),
        "{}",
        both(&out)
    );
}

/// 25.4: a correct program that runs several processes (three short workers, or a shell
/// script running a helper three times) is AC beside another judge's CPU hog, although
/// outside it takes longer than its wall-clock limit: the time every process of the run
/// waited for a CPU, exited ones included, is given back.
#[test]
fn multi_process_programs_are_ac_beside_another_judges_cpu_hog() {
    let setup = Setup::new("load", &["sample-2"]);
    setup.source("fork_workers.c", "workers.c");
    setup.source("wrapper.sh", "wrapper/main.sh");
    let burn = setup.source("burn.c", "burn.c");
    let made = Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(setup.dir.join("wrapper/burn"))
        .arg(&burn)
        .status()
        .unwrap();
    assert!(made.success());
    let control_program = setup.dir.join("workers");
    assert!(
        Command::new("gcc")
            .args(["-O2", "-o"])
            .arg(&control_program)
            .arg(setup.dir.join("workers.c"))
            .status()
            .unwrap()
            .success()
    );
    // The hog: another judge keeping 4 endless programs per core busy.
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let hogs = Setup::new(
        "hog",
        &(0..4 * cores)
            .map(|k| format!("t{k}"))
            .collect::<Vec<_>>()
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    std::fs::write(
        hogs.dir.join("spin.c"),
        "int main(void) { volatile unsigned long x = 0; for (;;) x++; }\n",
    )
    .unwrap();
    // Built here, so that it runs in the box as `/box/spin` (a source would be `/box/sol`).
    assert!(
        Command::new("gcc")
            .args(["-O2", "-o"])
            .arg(hogs.dir.join("spin"))
            .arg(hogs.dir.join("spin.c"))
            .status()
            .unwrap()
            .success()
    );
    let hog = judge()
        .current_dir(&hogs.dir)
        .args(["run", "othello-flips", "--tests"])
        .arg(&hogs.tests)
        .args([
            "--time-limit",
            "120",
            "--jobs",
            &(4 * cores).to_string(),
            "--",
            "./spin",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Stopped however the test ends.
    struct Stop(std::process::Child);
    impl Drop for Stop {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let hog = Stop(hog);
    let started = Instant::now();
    while pids_of("/box/spin").len() < 4 * cores {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the hog never started"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // Control: outside, the program takes longer than the wall-clock limit of a 1 s CPU limit
    // (2 x 1 s + 1 s).
    let t = Instant::now();
    let mut control = Command::new(&control_program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    drop(control.stdin.take());
    let printed = text(&control.wait_with_output().unwrap().stdout);
    let elapsed = t.elapsed();
    let workers = setup.judge(&["--time-limit", "1", "--jobs", "1"], &["workers.c"]);
    let wrapper = setup.judge(&["--time-limit", "1", "--jobs", "1"], &["wrapper"]);
    drop(hog);
    assert_eq!(printed, "0\n");
    assert!(
        elapsed > Duration::from_secs(3),
        "control: {elapsed:?} beside the hog"
    );
    assert_eq!(
        workers.status.code(),
        Some(0),
        "workers: {}",
        both(&workers)
    );
    assert_eq!(
        wrapper.status.code(),
        Some(0),
        "wrapper: {}",
        both(&wrapper)
    );
}

/// Drops the page cache of the marker files `pagecache_counter.c` uses (the first 64
/// `/usr/share/doc/*/copyright` in name order): a fresh machine's state.
fn evict_markers() {
    let mut markers: Vec<PathBuf> = std::fs::read_dir("/usr/share/doc")
        .unwrap()
        .flatten()
        .map(|e| e.path().join("copyright"))
        .filter(|p| p.is_file())
        .collect();
    markers.sort();
    for marker in markers.iter().take(70) {
        let file = std::fs::File::open(marker).unwrap();
        // SAFETY: advice on a descriptor we own.
        unsafe {
            libc::posix_fadvise(
                std::os::fd::AsRawFd::as_raw_fd(&file),
                0,
                0,
                libc::POSIX_FADV_DONTNEED,
            )
        };
    }
}

/// 25.5: whatever a run can observe of the runs before it (here the page cache of a shared
/// read-only library: the k-th run finds k marker files cached) tells it how many ran before,
/// not which test it is on: the tests run in a secret order, new for every judge. Outside,
/// run after run, the count is the test's index.
#[test]
fn a_run_cannot_learn_which_test_it_is_on() {
    if !Path::new("/usr/share/doc").is_dir() {
        skipped("no /usr/share/doc");
        return;
    }
    let names: Vec<String> = (0..12).map(|k| format!("t{k:02}")).collect();
    let setup = Setup::new(
        "order",
        &names.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let source = setup.source("pagecache_counter.c", "counter.c");
    let program = setup.dir.join("counter");
    assert!(
        Command::new("gcc")
            .args(["-O2", "-o"])
            .arg(&program)
            .arg(&source)
            .status()
            .unwrap()
            .success()
    );
    // Another test reading files under /usr (a disk search, a probe) can cache markers in the
    // middle of a round and make the counter skip: a round is tried again then (the counter
    // must count 0..11 for the round to say anything).
    const ATTEMPTS: usize = 5;
    let mut control = Vec::new();
    for _ in 0..ATTEMPTS {
        evict_markers();
        control = (0..12)
            .map(|_| Command::new(&program).status().unwrap().code().unwrap())
            .collect();
        if control == (0..12).collect::<Vec<_>>() {
            break;
        }
    }
    assert_eq!(
        control,
        (0..12).collect::<Vec<_>>(),
        "control: the counter counts runs"
    );
    let mut orders = Vec::new();
    for round in 0..2 {
        let mut counts = Vec::new();
        for attempt in 0..ATTEMPTS {
            evict_markers();
            let report = setup.dir.join(format!("r{round}-{attempt}.json"));
            let out = setup.judge(
                &["--jobs", "1", "--report", report.to_str().unwrap()],
                &[program.to_str().unwrap()],
            );
            assert_no_panic(&out);
            let rows: Vec<serde_json::Value> =
                serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
            let tests: Vec<&str> = rows.iter().map(|r| r["test"].as_str().unwrap()).collect();
            assert_eq!(tests, names, "rows in test order");
            counts = rows
                .iter()
                .map(|r| {
                    let exit = r["exit"].as_str().unwrap();
                    exit.strip_prefix("exit ")
                        .and_then(|n| n.parse().ok())
                        .unwrap_or(-1)
                })
                .collect();
            let mut sorted = counts.clone();
            sorted.sort();
            if sorted == (0..12).collect::<Vec<_>>() {
                break;
            }
        }
        let mut sorted = counts.clone();
        sorted.sort();
        if sorted != (0..12).collect::<Vec<_>>() {
            // The run's page cache is charged to its memory group, which the judge may empty
            // between runs when much stays charged: under a full test suite the counter can
            // lose count in every attempt. That leaks even less; the order is still checked.
            eprintln!("the counter was disturbed in every attempt: {counts:?}");
        }
        assert_ne!(
            counts,
            (0..12).collect::<Vec<_>>(),
            "round {round}: the runs went in test order"
        );
        orders.push(counts);
    }
    assert_ne!(orders[0], orders[1], "the same order twice");
}

/// 25.5: what the judge prints and reports is in test order, byte for byte the same whatever
/// order the tests ran in: two judges of the same failing submission (each with its own
/// secret order) print the same lines and write the same report, but for what is measured
/// (CPU time, wall time, memory).
#[test]
fn output_is_in_test_order_whatever_the_order_of_the_runs() {
    let names: Vec<String> = (0..30).map(|k| format!("t{k:02}")).collect();
    let setup = Setup::new(
        "ordered",
        &names.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    std::fs::write(setup.dir.join("one.sh"), "cat > /dev/null\necho 1\n").unwrap();
    let tested = |out: &Output| -> Vec<String> {
        text(&out.stdout)
            .lines()
            .filter(|l| l.starts_with("WA "))
            .map(|l| l.split_whitespace().nth(1).unwrap().to_string())
            .collect()
    };
    // The report without its measured columns (cpu_ms, wall_ms, peak_kb).
    let unmeasured = |path: &Path| -> Vec<String> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|line| {
                let fields: Vec<&str> = line.split(',').collect();
                [&fields[..2], &fields[5..]].concat().join(",")
            })
            .collect()
    };
    let (r1, r2) = (setup.dir.join("r1.csv"), setup.dir.join("r2.csv"));
    let first = setup.judge(
        &["--jobs", "3", "--report", r1.to_str().unwrap()],
        &["one.sh"],
    );
    let second = setup.judge(
        &["--jobs", "3", "--report", r2.to_str().unwrap()],
        &["one.sh"],
    );
    // Every test is WA; the first 20 are printed, in test order.
    assert_eq!(tested(&first), names[..20].to_vec(), "{}", both(&first));
    // Byte for byte but for the measured numbers (`N ms`, `N KiB`).
    let masked = |out: &Output| -> Vec<String> {
        text(&out.stdout)
            .lines()
            .map(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                (0..words.len())
                    .map(|k| {
                        let unit = words.get(k + 1).map(|w| w.trim_end_matches([',', ')']));
                        if matches!(unit, Some("ms" | "KiB"))
                            && words[k].bytes().all(|b| b.is_ascii_digit())
                        {
                            "N"
                        } else {
                            words[k]
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    assert_eq!(masked(&first), masked(&second));
    let (a, b) = (unmeasured(&r1), unmeasured(&r2));
    assert_eq!(a.len(), 31, "{a:?}");
    let listed: Vec<&str> = a[1..]
        .iter()
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(listed, names, "report rows in test order");
    assert_eq!(a, b);
}

/// 25.6: a run sees no path of the host and no process of the judge: its cgroups read `/`
/// (a cgroup namespace), its mounts name box paths (nothing of the judge's groups, staging
/// or scratch folders), it is pid 2 (its namespace's keeper, pid 1, unseen) with no parent, its
/// host name is `box`. Outside, the same program sees the host's groups and its parent.
#[test]
fn a_run_sees_no_host_path_nor_the_judge() {
    let setup = Setup::new("env", &["sample-2"]);
    let source = setup.source("run_probe_env.c", "probe.c");
    let program = setup.dir.join("probe");
    assert!(
        Command::new("gcc")
            .args(["-O2", "-o"])
            .arg(&program)
            .arg(&source)
            .status()
            .unwrap()
            .success()
    );
    let host = format!("host={}", setup.dir.display());
    let (_, control) = outside(&setup.dir, program.to_str().unwrap(), &[&host]);
    assert!(control.contains("ppid"), "control: {control}");
    let report = setup.dir.join("r.json");
    let out = setup.judge(
        &["--report", report.to_str().unwrap()],
        &[program.to_str().unwrap(), &host],
    );
    assert_eq!(out.status.code(), Some(0), "{}", both(&out));
}

/// Runs `program ARGS` on the host in `dir` with `input` on its standard input (a pipe, as
/// in the box); its standard output, or `None` if it failed.
fn outside_with_input(dir: &Path, program: &str, args: &[&str], input: &str) -> Option<String> {
    use std::io::Write;
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("TMPDIR", std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .ok()?;
    let out = child.wait_with_output().ok()?;
    out.status.success().then(|| text(&out.stdout))
}

/// Builds `source` (in `dir`) on the host, bare, the way the judge's default build command
/// does, and says how to run it: the control of 25.7.
fn bare_build(dir: &Path, source: &Path) -> Option<(String, Vec<String>)> {
    let name = source.file_name()?.to_str()?;
    let stem = source.file_stem()?.to_str()?;
    let ext = source.extension()?.to_str()?;
    let out = dir.join(format!("bare-{stem}-{ext}"));
    let src = source.to_str()?;
    let o = out.to_str()?.to_string();
    let sh = |command: &str| {
        Command::new("sh")
            .args(["-c", command])
            .current_dir(dir)
            .status()
            .is_ok_and(|s| s.success())
    };
    let built = |ok: bool, run: (String, Vec<String>)| ok.then_some(run);
    match ext {
        "c" => built(sh(&format!("gcc -O2 -o '{o}' '{src}'")), (o, vec![])),
        "cpp" => built(sh(&format!("g++ -O2 -o '{o}' '{src}'")), (o, vec![])),
        "rs" => built(sh(&format!("rustc -O -o '{o}' '{src}'")), (o, vec![])),
        "go" => built(
            sh(&format!("GO111MODULE=off go build -o '{o}' '{src}'")),
            (o, vec![]),
        ),
        "java" => built(
            sh(&format!("mkdir -p '{o}' && javac -d '{o}' '{src}'")),
            ("java".into(), vec!["-cp".into(), o, stem.into()]),
        ),
        "kt" => built(
            sh(&format!(
                "kotlinc '{src}' -include-runtime -d '{o}.jar' 2>/dev/null"
            )),
            ("java".into(), vec!["-jar".into(), format!("{o}.jar")]),
        ),
        "py" => Some(("python3".into(), vec![name.into()])),
        "rb" => Some(("ruby".into(), vec![name.into()])),
        "js" => Some(("node".into(), vec![name.into()])),
        "sh" => Some(("sh".into(), vec![name.into()])),
        _ => None,
    }
}

/// 25.7: the box looks like any Linux to a correct program: `/dev/stdin`, `/dev/stdout` (links
/// into `/proc/self/fd`, onto pipes the run owns) in every language, and what programs
/// commonly expect of `/dev`, `/proc`, `/tmp` and the account database (`run_probe_dev.py`).
/// Control: each program, built bare on the host, prints the answer there (the judge before
/// this issue gave RE on every one of them: no `/dev/stdin` in the box).
#[test]
fn dev_stdin_and_the_rest_work_in_every_language() {
    let setup = Setup::new("dev", &["sample-2"]);
    let sources = [
        ("dev_stdin/dev_stdin.c", "gcc"),
        ("dev_stdin/dev_stdin.cpp", "g++"),
        ("dev_stdin/dev_stdin.rs", "rustc"),
        ("dev_stdin/dev_stdin.go", "go"),
        ("dev_stdin/Main.java", "javac"),
        ("dev_stdin/dev_stdin.kt", "kotlinc"),
        ("dev_stdin/dev_stdin.py", "python3"),
        ("dev_stdin/dev_stdin.rb", "ruby"),
        ("dev_stdin/dev_stdin.js", "node"),
        ("dev_stdin/dev_stdin.sh", "sh"),
        ("run_probe_dev.py", "python3"),
    ];
    let mut tried = 0;
    for (name, needs) in sources {
        if !have(needs) {
            skipped(&format!("{name}: {needs} is not installed"));
            continue;
        }
        tried += 1;
        let at = setup.source(name, name);
        // Control: correct outside.
        let folder = at.parent().unwrap();
        let (program, args) = bare_build(folder, &at).expect(name);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(
            outside_with_input(folder, &program, &args, SAMPLE_2).as_deref(),
            Some("0\n"),
            "control: {name} outside the box"
        );
        let out = setup.judge(
            &[
                "--time-limit",
                "10",
                "--memory-limit",
                "512",
                "--build-time-limit",
                "120",
            ],
            &[at.to_str().unwrap()],
        );
        assert_eq!(out.status.code(), Some(0), "{name}: {}", both(&out));
    }
    assert!(tried >= 2, "not even C and sh to try");
}

/// 23.3: each distinct build is done once: the same source again comes from the cache (no
/// compiler runs), a source that differs in one byte, or is built by another command, is
/// built; a damaged entry is never served.
#[test]
fn each_distinct_build_is_done_once() {
    let setup = Setup::new("cache", &["sample-2"]);
    let cache = setup.dir.join("cache");
    let run = |command: &str, build: Option<&str>| {
        let mut judge = judge();
        judge
            .current_dir(&setup.dir)
            .env("BOARDJUDGE_BUILD_CACHE", &cache)
            .args(["run", "othello-flips", "--tests"])
            .arg(&setup.tests)
            .args(["--", command]);
        if let Some(build) = build {
            judge.env("BOARDJUDGE_BUILD_C", build);
        }
        let out = judge.output().unwrap();
        assert_no_panic(&out);
        (out.status.code(), text(&out.stderr), text(&out.stdout))
    };
    std::fs::write(
        setup.dir.join("zero.c"),
        "#include <stdio.h>\nint main(void) { puts(\"0\"); return 0; }\n",
    )
    .unwrap();
    let (code, stderr, _) = run("zero.c", None);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("build: gcc") && !stderr.contains("(cached)"),
        "{stderr}"
    );
    let (code, stderr, _) = run("zero.c", None);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("(cached)"), "{stderr}");
    // One byte more: a different source, built, and its own verdict.
    std::fs::write(
        setup.dir.join("zero.c"),
        "#include <stdio.h>\nint main(void) { puts(\"1\"); return 0; }\n",
    )
    .unwrap();
    let (code, stderr, _) = run("zero.c", None);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(!stderr.contains("(cached)"), "{stderr}");
    // Another build command: built.
    let (_, stderr, _) = run("zero.c", Some("gcc -O0 -o {out} {src}"));
    assert!(
        stderr.contains("build: gcc -O0") && !stderr.contains("(cached)"),
        "{stderr}"
    );
    // Every entry damaged (into a program that would pass): rebuilt, never served.
    for entry in std::fs::read_dir(&cache).unwrap().flatten() {
        let file = entry.path().join("files/0");
        if file.exists() {
            std::fs::write(file, b"#!/bin/sh\necho 0\n").unwrap();
        }
    }
    let (code, stderr, _) = run("zero.c", None);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(!stderr.contains("(cached)"), "{stderr}");
}

/// 23.3: `judge strength` builds its submissions in parallel, up to --jobs: four builds of
/// 3 s each take about 3 s, not 12.
#[test]
fn strength_builds_in_parallel() {
    let setup = Setup::new("parallel", &["sample-2"]);
    let wrong = setup.dir.join("wrong");
    std::fs::create_dir_all(&wrong).unwrap();
    for k in 0..4 {
        // A "C source" that the build command below runs: it waits 3 s, then writes the program.
        std::fs::write(
            wrong.join(format!("w{k}.c")),
            format!("# {k}\nsleep 3\nprintf '#!/bin/sh\\ncat >/dev/null\\necho 1\\n' > \"$1\"\nchmod +x \"$1\"\n"),
        )
        .unwrap();
    }
    let started = Instant::now();
    let out = judge()
        .current_dir(&setup.dir)
        .env("BOARDJUDGE_BUILD_C", "sh {src} {out}")
        .env("BOARDJUDGE_BUILD_CACHE", "off")
        .args(["strength", "othello-flips", "--tests"])
        .arg(&setup.tests)
        .arg("--wrong")
        .arg(&wrong)
        .args(["--jobs", "4"])
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    assert_no_panic(&out);
    let stdout = text(&out.stdout);
    for k in 0..4 {
        assert!(
            stdout.contains(&format!("fragile   w{k}.c")),
            "{}",
            both(&out)
        );
    }
    assert!(
        elapsed < Duration::from_secs(10),
        "{elapsed:?}: the builds ran one at a time"
    );
}
