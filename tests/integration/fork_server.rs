//! The fork server and the Python zygote (issue 23): a case started from either gets the verdict
//! a case started afresh gets, and carries nothing over to the next case or to the case
//! prestarted beside it. Each program runs three ways — the default (fork server, zygote for
//! Python), `BOARDJUDGE_ZYGOTE=0` (the interpreter started per case, from the fork server) and
//! `BOARDJUDGE_FORK_SERVER=0` (fresh namespaces per case) — and the rows must agree.

use std::path::{Path, PathBuf};

use crate::generation::scratch;
use crate::util::*;

const SAMPLE_2: &str =
    "NNNNNNNN\nNNNNNNNN\nNNNNNNNN\nNNNWBNNN\nNNNBWNNN\nNNNNNNNN\nNNNNNNNN\nNNNNNNNP\n";

/// Is the test run as root (the fork server's condition)? Says it is skipped if not.
fn as_root() -> bool {
    // SAFETY: no preconditions.
    let root = unsafe { libc::geteuid() == 0 };
    if !root {
        skipped("the fork server needs root");
    }
    root
}

#[derive(serde::Deserialize, Debug, Clone)]
struct Row {
    test: String,
    verdict: String,
    exit: String,
    message: String,
    peak_kb: u64,
}

/// The ways a case can start, by the environment that selects them.
const WAYS: [(&str, &str, &str); 3] = [
    ("default", "BOARDJUDGE_UNUSED", "1"),
    ("interpreter per case", "BOARDJUDGE_ZYGOTE", "0"),
    ("namespaces per case", "BOARDJUDGE_FORK_SERVER", "0"),
];

/// `count` copies of sample 2 (answer `0`).
fn tests(dir: &Path, count: usize) -> PathBuf {
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    for k in 0..count {
        std::fs::write(tests.join(format!("copy-{k:02}.in")), SAMPLE_2).unwrap();
        std::fs::write(tests.join(format!("copy-{k:02}.ans")), "0\n").unwrap();
    }
    tests
}

/// Runs `file` (written with `source`) on `tests` one way; the judge's rows, in test order.
fn rows(
    dir: &Path,
    tests: &Path,
    file: &str,
    way: (&str, &str, &str),
    time_limit: &str,
) -> (std::process::Output, Vec<Row>) {
    let report = dir.join(format!("report-{}.json", way.1));
    let out = judge()
        .current_dir(dir)
        .env(way.1, way.2)
        .args(["run", "othello-flips", "--tests"])
        .arg(tests)
        .args([
            "--time-limit",
            time_limit,
            "--memory-limit",
            "64",
            "--jobs",
            "1",
        ])
        .arg("--report")
        .arg(&report)
        .args(["--", file])
        .output()
        .unwrap();
    assert_no_panic(&out);
    let rows: Vec<Row> = serde_json::from_slice(
        &std::fs::read(&report)
            .unwrap_or_else(|_| panic!("{}: no report; stderr: {}", way.0, text(&out.stderr))),
    )
    .unwrap();
    (out, rows)
}

/// Runs `probe` (a Python program that prints `0` when it finds nothing, else what it found)
/// on `count` tests each of `ways`: every test AC.
fn assert_the_probe_finds_nothing(
    name: &str,
    probe: &str,
    count: usize,
    ways: &[(&str, &str, &str)],
) {
    let dir = scratch(name);
    let tests = tests(&dir, count);
    // Named after the test: another test's cases (and judges) are not this one's leftovers.
    let file = format!("{name}.py");
    std::fs::write(dir.join(&file), probe).unwrap();
    for way in ways {
        let (out, rows) = rows(&dir, &tests, &file, *way, "2");
        assert_eq!(rows.len(), count, "{}: {}", way.0, text(&out.stderr));
        for row in &rows {
            let found = text(&out.stdout);
            assert_eq!(row.verdict, "AC", "{}: {row:?}\n{found}", way.0);
        }
    }
}

/// Every program gets the same verdict, exit and message every way, and the expected verdict.
#[test]
fn python_cases_get_the_verdicts_of_a_fresh_interpreter() {
    if !as_root() {
        return;
    }
    // (name, source, verdict, a word the message holds)
    let programs: [(&str, &str, &str, &str); 23] = [
        (
            "correct",
            "import sys\nsys.stdin.read()\nprint(0)\n",
            "AC",
            "",
        ),
        ("wrong", "print(1)\n", "WA", ""),
        (
            "exception",
            "import sys\nsys.stdin.read()\nraise ValueError('boom')\n",
            "RE",
            "ValueError: boom",
        ),
        ("exit_code", "import sys\nsys.exit(3)\n", "RE", "exit 3"),
        (
            "exit_message",
            "import sys\nsys.exit('bad input')\n",
            "RE",
            "bad input",
        ),
        ("syntax_error", "print(0\n", "RE", "SyntaxError"),
        ("cpu_forever", "while True:\n    pass\n", "TLE", ""),
        ("memory", "x = bytearray(200 << 20)\nprint(0)\n", "MLE", ""),
        (
            "no_newline",
            "import sys\nsys.stdin.read()\nsys.stdout.write('0')\n",
            "AC",
            "",
        ),
        (
            "atexit",
            "import atexit, sys\nsys.stdin.read()\natexit.register(lambda: print(0))\n",
            "AC",
            "",
        ),
        (
            "thread",
            "import sys, threading, time\nsys.stdin.read()\n\
             threading.Thread(target=lambda: (time.sleep(0.2), print(0))).start()\n",
            "AC",
            "",
        ),
        (
            "fork",
            "import os, sys\nsys.stdin.read()\npid = os.fork()\nif pid == 0:\n    print(0)\n    \
             sys.stdout.flush()\n    os._exit(0)\nos.waitpid(pid, 0)\n",
            "AC",
            "",
        ),
        // A process-group leader (found by a hostile review: the zygote's case was not).
        (
            "setsid",
            "import os, sys\nsys.stdin.read()\ntry:\n    os.setsid()\n    print(1)\n\
             except PermissionError:\n    print(0)\n",
            "AC",
            "",
        ),
        // `__main__` as the interpreter makes it (found by a hostile review).
        (
            "annotations",
            "import sys\nsys.stdin.read()\nprint(len(__annotations__) + (__cached__ or 0))\n",
            "AC",
            "",
        ),
        // Its objects are finalized at exit while its globals are still there (found by a
        // hostile review: the zygote cleared them first, and the answer was lost).
        (
            "finalizer_reads_its_globals",
            "import sys\nclass Out:\n    def __init__(self): self.lines = []\n    \
             def __del__(self): sys.stdout.write(''.join(self.lines))\n\
             out = Out()\nsys.stdin.read()\nout.lines.append('0\\n')\n",
            "AC",
            "",
        ),
        // A replaced sys.stdout is dropped at exit, as the interpreter restores the original
        // (found by a hostile review).
        (
            "stdout_replaced",
            "import sys\nclass AtEnd:\n    def __init__(self): self.parts = []\n    \
             def write(self, s): self.parts.append(s)\n    def flush(self): pass\n    \
             def __del__(self): sys.__stdout__.write(''.join(self.parts))\n\
             sys.stdout = AtEnd()\nsys.stdin.read()\nprint(0)\n",
            "AC",
            "",
        ),
        // As deep as the interpreter lets a script recurse, and one deeper (the zygote ran the
        // script two calls deeper: found by a hostile review).
        (
            "recursion_to_the_limit",
            "import sys\ndef f(n):\n    return 0 if n == 0 else f(n - 1)\n\
             sys.stdin.read()\nprint(f(sys.getrecursionlimit() - 2))\n",
            "AC",
            "",
        ),
        (
            "recursion_past_the_limit",
            "import sys\ndef f(n):\n    return 0 if n == 0 else f(n - 1)\n\
             sys.stdin.read()\nprint(f(sys.getrecursionlimit() - 1))\n",
            "RE",
            "RecursionError",
        ),
        // A script named like a module the zygote loaded imports itself (found by a hostile
        // review: it got the standard library's).
        (
            "string",
            "import sys\nimport string\nmine = 0\nif __name__ == '__main__':\n    \
             sys.stdin.read()\n    print(string.mine)\n",
            "AC",
            "",
        ),
        // Its compiler's warnings (a zygote compiles the script once: found by a hostile review).
        (
            "compile_warning",
            "import sys\nx = 0\nif x is 1: pass\nsys.stdin.read()\nprint(0)\n",
            "AC",
            "",
        ),
        // An excepthook that fails, or exits; a message for sys.exit without sys.stderr (found
        // by a hostile review: the hook's error came out instead, the message on stdout).
        (
            "excepthook_fails",
            "import sys\ndef hook(*a): raise KeyError('in hook')\nsys.excepthook = hook\n\
             sys.stdin.read()\nraise ValueError('boom')\n",
            "RE",
            "ValueError: boom",
        ),
        (
            "excepthook_exits",
            "import sys\ndef hook(*a): sys.exit(7)\nsys.excepthook = hook\n\
             sys.stdin.read()\nraise ValueError('boom')\n",
            "RE",
            "exit 7",
        ),
        (
            "exit_message_without_stderr",
            "import sys\nsys.stdin.read()\nsys.stderr = None\nsys.exit('bad input')\n",
            "RE",
            "bad input",
        ),
    ];
    let dir = scratch("fork-server-verdicts");
    let tests = tests(&dir, 2);
    for (name, source, verdict, word) in programs {
        let file = format!("{name}.py");
        std::fs::write(dir.join(&file), source).unwrap();
        let mut seen: Vec<(&str, Vec<Row>)> = Vec::new();
        for way in WAYS {
            let (_, rows) = rows(&dir, &tests, &file, way, "1");
            for row in &rows {
                assert_eq!(row.verdict, verdict, "{name}, {}: {row:?}", way.0);
                assert!(row.message.contains(word), "{name}, {}: {row:?}", way.0);
            }
            seen.push((way.0, rows));
        }
        let (first, first_rows) = &seen[0];
        for (way, rows) in &seen[1..] {
            // Measured figures (a TLE's "1005 ms of CPU time") differ run to run.
            let words = |m: &str| m.replace(|c: char| c.is_ascii_digit(), "");
            for (a, b) in first_rows.iter().zip(rows) {
                assert_eq!(
                    (&a.test, &a.verdict, &a.exit, words(&a.message)),
                    (&b.test, &b.verdict, &b.exit, words(&b.message)),
                    "{name}: {first} and {way} differ"
                );
            }
        }
    }
}

/// What a case may try to leave for the next one, or learn of its neighbour, checked by the
/// case itself: it prints `0` (AC) only when it finds nothing.
const PROBE: &str = r#"
import os, sys
sys.stdin.read()
found = []
if os.listdir('/tmp'):
    found.append('files in /tmp: %s' % os.listdir('/tmp'))
# Pid 2 of a PID namespace of its own, whose init (pid 1) is its keeper.
if os.getpid() != 2:
    found.append('pid %d' % os.getpid())
# Its /proc is its own PID namespace's: the numbers it sees there are its own (no counter it
# shares with the case beside it or before it), and /proc/<its pid> is itself; its keeper is
# not there.
if os.readlink('/proc/self') != '2' or not os.path.exists('/proc/%d/status' % os.getpid()):
    found.append('/proc/self is %s' % os.readlink('/proc/self'))
if os.path.exists('/proc/1'):
    found.append('/proc/1: %r' % open('/proc/1/cmdline', 'rb').read())
nspid = [l.split()[1:] for l in open('/proc/self/status') if l.startswith('NSpid')]
if nspid != [['2']]:
    found.append('NSpid %s' % nspid)
others = [p for p in os.listdir('/proc') if p.isdigit() and os.path.realpath('/proc/' + p) != os.path.realpath('/proc/self')]
if others:
    found.append('processes %s' % others)
# Its groups are the root of its cgroup namespace (a run that lasts is moved into a pressure
# group of the unified hierarchy, below that root, which shows there).
groups = open('/proc/self/cgroup').read().splitlines()
if any('..' in l for l in groups) or any(l.split(':')[-1] != '/' for l in groups if ':memory:' in l):
    found.append('cgroup %s' % groups)
import builtins
if hasattr(builtins, 'left_by_an_earlier_case'):
    found.append('a change to the interpreter')
for n in range(1, 200):
    try:
        os.kill(n, 0)
        if n != os.getpid():
            found.append('can signal %d' % n)
    except OSError:
        pass
# Leave something for the next case: a file, a process, a change to the interpreter.
open('/tmp/left', 'w').write('x')
builtins.left_by_an_earlier_case = True
if os.fork() == 0:
    os.setsid()
    import time
    time.sleep(60)
    os._exit(0)
print('\n'.join(found) if found else 0)
"#;

#[test]
fn a_case_finds_nothing_of_the_cases_before_it() {
    if !as_root() {
        return;
    }
    assert_the_probe_finds_nothing("fork-server-leftovers", PROBE, 8, &WAYS);
    // The sleepers died with their cases.
    let sleepers = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| {
            std::fs::read(e.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains("fork-server-leftovers.py"))
        })
        .count();
    assert_eq!(sleepers, 0, "a case's process outlived the judge");
}

/// A signal a program sends itself ends it, as it does outside and on every real judge: RE
/// with that signal, every way a case starts (found by a review: the program was the init of
/// its PID namespace, which the kernel does not let die of its own signals at their default
/// action: `raise(SIGTERM)` went on to print a wrong answer, WA, and `abort()` ended in
/// glibc's fallback fault, SIGSEGV). Control: each outside the judge.
#[test]
fn a_signal_a_program_sends_itself_ends_it_every_way() {
    if !as_root() {
        return;
    }
    let dir = scratch("fork-server-own-signals");
    let tests = tests(&dir, 3);
    // (file, source, the signal it dies of)
    let programs = [
        (
            "term.c",
            "#include <signal.h>\n#include <stdio.h>\n\
             int main(void) { raise(SIGTERM); puts(\"0\"); return 0; }\n",
            libc::SIGTERM,
        ),
        (
            "abort.c",
            "#include <stdio.h>\n#include <stdlib.h>\n\
             int main(void) { abort(); puts(\"0\"); return 0; }\n",
            libc::SIGABRT,
        ),
        (
            "assert.c",
            "#include <assert.h>\n#include <stdio.h>\n\
             int main(void) { assert(0); puts(\"0\"); return 0; }\n",
            libc::SIGABRT,
        ),
        (
            "kill.c",
            "#include <signal.h>\n#include <stdio.h>\n#include <unistd.h>\n\
             int main(void) { kill(getpid(), SIGKILL); puts(\"0\"); return 0; }\n",
            libc::SIGKILL,
        ),
        (
            "term.py",
            "import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\nprint(0)\n",
            libc::SIGTERM,
        ),
        (
            "kill.py",
            "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\nprint(0)\n",
            libc::SIGKILL,
        ),
    ];
    let names = [
        (libc::SIGTERM, "SIGTERM"),
        (libc::SIGABRT, "SIGABRT"),
        (libc::SIGKILL, "SIGKILL"),
    ];
    for (file, source, signal) in programs {
        std::fs::write(dir.join(file), source).unwrap();
        // Control: outside, it dies of that signal.
        let outside = if let Some(stem) = file.strip_suffix(".c") {
            let program = dir.join(stem);
            let built = std::process::Command::new("gcc")
                .arg("-o")
                .arg(&program)
                .arg(dir.join(file))
                .status()
                .unwrap();
            assert!(built.success(), "{file}");
            std::process::Command::new(&program).output().unwrap()
        } else {
            std::process::Command::new("python3")
                .arg(dir.join(file))
                .output()
                .unwrap()
        };
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(outside.status.signal(), Some(signal), "{file} outside");
        let name = names.iter().find(|(s, _)| *s == signal).unwrap().1;
        for way in WAYS {
            let (out, rows) = rows(&dir, &tests, file, way, "1");
            assert_eq!(rows.len(), 3, "{file}, {}: {}", way.0, text(&out.stderr));
            for row in &rows {
                assert_eq!(
                    (row.verdict.as_str(), row.exit.as_str()),
                    ("RE", name),
                    "{file}, {}: {row:?}",
                    way.0
                );
            }
        }
    }
}

/// What a program leaves running when it exits ends with it, at once, not when the judge ends
/// the case: a child that holds its standard output and spins would otherwise be charged to
/// the case (TLE) and hold the judge's pipe open (2 s more), and run into the next case. Its
/// namespace's keeper exits when the program does, which kills the rest. Every way a case
/// starts, eight cases; afterwards no process of it is left.
#[test]
fn a_child_left_running_ends_with_its_program() {
    if !as_root() {
        return;
    }
    let dir = scratch("fork-server-left-running");
    let tests = tests(&dir, 8);
    let source = "import os, sys\nsys.stdin.read()\nif os.fork() == 0:\n    while True:\n        \
                  pass\nprint(0)\n";
    let file = "left-running-spinner.py";
    std::fs::write(dir.join(file), source).unwrap();
    for way in WAYS {
        let started = std::time::Instant::now();
        let (out, rows) = rows(&dir, &tests, file, way, "1");
        let took = started.elapsed();
        assert_eq!(rows.len(), 8, "{}: {}", way.0, text(&out.stderr));
        for row in &rows {
            assert_eq!(row.verdict, "AC", "{}: {row:?}", way.0);
        }
        // Eight cases that each waited for the spinner's end would take 16 s more.
        assert!(
            took < std::time::Duration::from_secs(12),
            "{}: {took:?}",
            way.0
        );
    }
    let left = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| {
            std::fs::read(e.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(file))
        })
        .count();
    assert_eq!(left, 0, "a case's process outlived the judge");
}

/// The zygote's memory is not the case's: a Python case's peak is its own pages (what a fresh
/// interpreter charges, give or take its start-up), not the interpreter's and its modules'.
#[test]
fn a_zygote_case_is_charged_for_its_own_memory() {
    if !as_root() {
        return;
    }
    let dir = scratch("fork-server-memory");
    let tests = tests(&dir, 2);
    let source = "import sys\nsys.stdin.read()\nx = bytearray(20 << 20)\nfor i in range(0, len(x), 4096):\n    x[i] = 1\nprint(0)\n";
    std::fs::write(dir.join("twenty.py"), source).unwrap();
    let peak = |way| {
        let (_, rows) = rows(&dir, &tests, "twenty.py", way, "2");
        rows.iter().map(|r| r.peak_kb).max().unwrap()
    };
    let zygote = peak(WAYS[0]);
    let fresh = peak(WAYS[1]);
    // 20 MiB touched: both see it; they differ by the interpreter's start at most.
    assert!(zygote >= 20 << 10 && fresh >= 20 << 10, "{zygote} {fresh}");
    assert!(
        zygote.abs_diff(fresh) < 8 << 10,
        "zygote {zygote} KiB, fresh {fresh} KiB"
    );
}

/// Python cases that the memory limit kills, between cases that answer, in one judge: the
/// limit is the case's group's, the zygote is in its own, and every case gets its own verdict.
#[test]
fn cases_after_a_memory_limit_kill_get_their_verdicts() {
    if !as_root() {
        return;
    }
    let dir = scratch("fork-server-after-mle");
    let tests = tests(&dir, 3);
    let generated = dir.join("generated");
    let out = judge()
        .args([
            "gen",
            "othello-flips",
            "--seed",
            "3",
            "--count",
            "6",
            "--out",
        ])
        .arg(&generated)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    for entry in std::fs::read_dir(&generated).unwrap().flatten() {
        std::fs::copy(entry.path(), tests.join(entry.file_name())).unwrap();
    }
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/languages/othello.py"),
    )
    .unwrap();
    // Correct, except that sample 2 makes it allocate without end.
    let program = format!(
        "import sys\ndata = sys.stdin.read()\nif data == {SAMPLE_2:?}:\n    x = []\n    \
         while True:\n        x.append(bytearray(1 << 20))\n{}",
        source.replace("sys.stdin.read()", "data")
    );
    std::fs::write(dir.join("hungry.py"), program).unwrap();
    for way in WAYS {
        let (_, rows) = rows(&dir, &tests, "hungry.py", way, "2");
        assert_eq!(rows.len(), 9);
        for row in &rows {
            let expected = if row.test.starts_with("copy-") {
                "MLE"
            } else {
                "AC"
            };
            assert_eq!(row.verdict, expected, "{}: {row:?}", way.0);
        }
    }
}

/// `judge stress` finds the same first disagreement of a wrong Python submission, with the same
/// output, every way.
#[test]
fn stress_finds_the_same_disagreement_every_way() {
    if !as_root() {
        return;
    }
    let dir = scratch("fork-server-stress");
    std::fs::create_dir_all(&dir).unwrap();
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/languages/othello.py"),
    )
    .unwrap();
    // Seven directions of eight: wrong only when the last diagonal flips.
    let wrong = source.replace("DIRECTIONS = 8", "DIRECTIONS = 7");
    assert_ne!(wrong, source);
    std::fs::write(dir.join("straight.py"), wrong).unwrap();
    let mut outputs = Vec::new();
    for way in WAYS {
        let out = judge()
            .current_dir(&dir)
            .env(way.1, way.2)
            .args(["stress", "othello-flips", "--seed", "5", "--cases", "300"])
            .args(["--jobs", "1", "--", "straight.py"])
            .output()
            .unwrap();
        assert_no_panic(&out);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}: {}",
            way.0,
            text(&out.stderr)
        );
        // All but the timings ("found after 12 cases in 0.06 s").
        let output = text(&out.stdout)
            .lines()
            .filter(|l| !l.starts_with("found after"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(output.contains("DISAGREEMENT"), "{}: {output}", way.0);
        outputs.push((way.0, output));
    }
    for (way, output) in &outputs[1..] {
        assert_eq!(&outputs[0].1, output, "default and {way} differ");
    }
}

/// The case prestarted in a slot's other lane runs beside the case being judged: neither sees
/// the other's sockets (abstract names in `/proc/net/unix`, a UDP port taken), processes or
/// files. Each case names a socket and takes a port before it reads its input, then, once it
/// has it, looks for its neighbour's.
#[test]
fn two_cases_at_once_cannot_see_each_other() {
    if !as_root() {
        return;
    }
    let probe = r#"
import os, socket, sys, time
mine = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
mine.bind('\0boardjudge-neighbour-%d' % os.getpid() + os.urandom(4).hex())
port = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
taken = []
try:
    port.bind(('0.0.0.0', 40000))
except OSError as e:
    taken.append('port 40000: %s' % e)
sys.stdin.read()
time.sleep(0.1)  # the next case is prestarted by now
names = [l.split()[-1] for l in open('/proc/net/unix') if 'boardjudge-neighbour' in l]
seen = [n for n in names if n != '@' + mine.getsockname()[1:].decode(errors='replace')]
others = [p for p in os.listdir('/proc') if p.isdigit() and os.path.realpath('/proc/' + p) != os.path.realpath('/proc/self')]
found = taken + ['socket %s' % n for n in seen] + ['process %s' % p for p in others]
print('\n'.join(found) if found else 0)
"#;
    // Through the zygote, and the interpreter per case (the prestarted case is then a fresh
    // interpreter that has not read its input yet).
    assert_the_probe_finds_nothing("fork-server-neighbours", probe, 6, &WAYS[..2]);
}

/// A SysV segment one case leaves behind is not counted in a later case's memory: it dies with
/// the case's IPC namespace, and a lane's figures are reset only once it is gone.
#[test]
fn a_segment_left_by_a_case_is_not_charged_to_the_next() {
    if !as_root() {
        return;
    }
    let dir = scratch("fork-server-segment");
    let tests = dir.join("tests");
    let out = judge()
        .args([
            "gen",
            "othello-flips",
            "--seed",
            "4",
            "--count",
            "10",
            "--out",
        ])
        .arg(&tests)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/languages/othello.py"),
    )
    .unwrap();
    // Correct; on an input whose bytes add up to an even number it also leaves a 100 MiB
    // segment behind (created, touched, detached, never removed).
    let program = format!(
        "import ctypes, sys\ndata = sys.stdin.read()\n\
         if sum(data.encode()) % 2 == 0:\n    libc = ctypes.CDLL(None)\n    \
         libc.shmat.restype = ctypes.c_void_p\n    \
         segment = libc.shmget(0, ctypes.c_size_t(100 << 20), 0o1600)\n    \
         address = libc.shmat(segment, None, 0)\n    \
         ctypes.memset(address, 1, 100 << 20)\n    libc.shmdt(ctypes.c_void_p(address))\n{}",
        source.replace("sys.stdin.read()", "data")
    );
    std::fs::write(dir.join("segment.py"), program).unwrap();
    let leaves = |test: &str| {
        let input = std::fs::read(tests.join(format!("{test}.in"))).unwrap();
        input.iter().map(|&b| u64::from(b)).sum::<u64>() % 2 == 0
    };
    for way in WAYS {
        let report = dir.join("report.json");
        let out = judge()
            .current_dir(&dir)
            .env(way.1, way.2)
            .args(["run", "othello-flips", "--tests"])
            .arg(&tests)
            .args(["--memory-limit", "256", "--jobs", "1", "--report"])
            .arg(&report)
            .args(["--", "segment.py"])
            .output()
            .unwrap();
        assert_no_panic(&out);
        let rows: Vec<Row> = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
        assert!(rows.iter().any(|r| leaves(&r.test)) && rows.iter().any(|r| !leaves(&r.test)));
        for row in &rows {
            assert_eq!(row.verdict, "AC", "{}: {row:?}", way.0);
            if !leaves(&row.test) {
                assert!(row.peak_kb < 50 << 10, "{}: {row:?}", way.0);
            }
        }
    }
}

/// Nothing of a program runs before its input is written, where its wall clock starts: a case
/// started ahead of its turn (prestarted) gets no head start from the case before it (found by a
/// review: a program that slept 2.3 s under a 2 s wall limit was AC when the case before it had
/// run long enough, TLE when not).
#[test]
fn a_prestarted_case_gets_no_head_start() {
    if !as_root() {
        return;
    }
    let dir = scratch("fork-server-head-start");
    let tests = tests(&dir, 3);
    // A 0.2 s limit allows 1.4 s of wall clock; it sleeps 1.6 s before it reads its input.
    let source = "import sys, time\ntime.sleep(1.6)\nsys.stdin.read()\nprint(0)\n";
    std::fs::write(dir.join("sleeper.py"), source).unwrap();
    for way in WAYS {
        let (out, rows) = rows(&dir, &tests, "sleeper.py", way, "0.2");
        assert_eq!(rows.len(), 3, "{}: {}", way.0, text(&out.stderr));
        for row in &rows {
            assert_eq!(row.verdict, "TLE", "{}: {row:?}", way.0);
        }
    }
}

/// 33.3: a program's standard input is the test file, as on real judges: a regular file of the
/// input's size at offset 0, which it may map (`mmap` of descriptor 0 at the size `fstat`
/// gives), seek in (`lseek`, `pread`) and read whole in one call of that size (Python's
/// `os.read(0, os.fstat(0).st_size)`); and which it cannot change (written through descriptor
/// 0, `/proc/self/fd/0` or `/dev/stdin`, truncated, mapped shared and writable, its mode or
/// seals changed). Every way a case starts, prestarted cases among them (three tests each).
/// Control: each prints its answer with the board in a file, and a wrong one from a pipe (the
/// judge before this issue gave WA to all four: its input was a pipe, which one of them could
/// even reopen for writing and fill itself).
#[test]
fn standard_input_is_the_test_file_every_way() {
    let ways: &[(&str, &str, &str)] = if as_root() { &WAYS } else { &WAYS[..1] };
    let dir = scratch("fork-server-stdin-file");
    let tests = tests(&dir, 3);
    // A copy for the controls: outside the judge, one of them does write into its input.
    let board = dir.join("control.in");
    let hostile = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/hostile");
    for file in [
        "stdin_mmap.c",
        "stdin_seek.c",
        "stdin_size.py",
        "stdin_write.c",
    ] {
        std::fs::copy(hostile.join(file), dir.join(file)).unwrap();
        std::fs::write(&board, SAMPLE_2).unwrap();
        // Control: right from a file, wrong from a pipe.
        let program = if let Some(stem) = file.strip_suffix(".c") {
            let binary = dir.join(stem);
            let built = std::process::Command::new("gcc")
                .arg("-O2")
                .arg("-o")
                .arg(&binary)
                .arg(dir.join(file))
                .status()
                .unwrap();
            assert!(built.success(), "{file}");
            vec![binary.display().to_string()]
        } else {
            vec!["python3".to_string(), dir.join(file).display().to_string()]
        };
        let from_file = std::process::Command::new(&program[0])
            .args(&program[1..])
            .stdin(std::fs::File::open(&board).unwrap())
            .output()
            .unwrap();
        let from_pipe = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("cat '{}' | \"$@\"", board.display()))
            .arg("sh")
            .args(&program)
            .output()
            .unwrap();
        if file != "stdin_write.c" {
            assert_eq!(
                text(&from_file.stdout),
                "0\n",
                "control: {file} from a file"
            );
        }
        assert_ne!(
            text(&from_pipe.stdout),
            "0\n",
            "control: {file} from a pipe"
        );
        for way in ways {
            let (out, rows) = rows(&dir, &tests, file, *way, "2");
            assert_eq!(rows.len(), 3, "{file}, {}: {}", way.0, text(&out.stderr));
            for row in &rows {
                assert_eq!(row.verdict, "AC", "{file}, {}: {row:?}", way.0);
            }
        }
    }
}

/// A case that fills its uid's key quota (the kernel collects the keys a moment after the case
/// ends) does not fail the case after it in its lane (found by a review: the zygote's next case
/// could not make its session keyring, and was RE).
#[test]
fn a_case_that_fills_the_key_quota_does_not_fail_the_next() {
    if !as_root() {
        return;
    }
    let source = r#"
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
n = 0
# add_key("user", "kN", "x", 1, KEY_SPEC_SESSION_KEYRING) until the quota says no.
while n < 100000 and libc.syscall(248, b"user", b"k%d" % n, b"x", 1, ctypes.c_int(-3)) >= 0:
    n += 1
sys.stdin.read()
print(0)
"#;
    assert_the_probe_finds_nothing("fork-server-key-quota", source, 6, &WAYS);
}

/// A script the zygote cannot give what `python3 SCRIPT` would (one that warns as it compiles,
/// one named like a module the zygote loaded) runs with the interpreter started per case, and
/// `-v` says why; another script's cases start from the zygote. (Found by a hostile review: a
/// script with 300 KB of compile warnings filled the zygote's output and stalled the judge for
/// 40 s before it gave up on zygotes.)
#[test]
fn scripts_the_zygote_cannot_serve_run_per_case() {
    if !as_root() {
        return;
    }
    let dir = scratch("fork-server-not-for-zygote");
    let tests = tests(&dir, 2);
    let mut warnings = String::from("import sys\nx = 0\n");
    for k in 0..3000 {
        warnings.push_str(&format!("if x is {k}: pass\n"));
    }
    warnings.push_str("sys.stdin.read()\nprint(0)\n");
    // A table of a megabyte: compiling it costs a fresh interpreter's case 100 ms and more
    // (found by a hostile review: under the zygote the case was not charged for it).
    let table = format!(
        "import sys\nTABLE = [{}]\nsys.stdin.read()\nprint(0)\n",
        "1234567, ".repeat(100_000)
    );
    let scripts = [
        (
            "warns.py",
            warnings.as_str(),
            "Python zygote: no (not for this script: /box/warns.py warns as it compiles)",
        ),
        ("table.py", table.as_str(), "/box/table.py takes "),
        (
            "heapq.py",
            "import sys\nsys.stdin.read()\nprint(0)\n",
            "Python zygote: no (not for this script: heapq.py in /box is named like a module the zygote loaded)",
        ),
        (
            "plain.py",
            "import sys\nsys.stdin.read()\nprint(0)\n",
            "Python zygote: yes",
        ),
    ];
    for (file, source, said) in scripts {
        std::fs::write(dir.join(file), source).unwrap();
        let out = judge()
            .current_dir(&dir)
            .args(["-v", "run", "othello-flips", "--tests"])
            .arg(&tests)
            .args(["--", file])
            .output()
            .unwrap();
        assert_no_panic(&out);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{file}: {stderr}");
        assert!(stderr.contains(said), "{file}: {stderr}");
    }
}

/// The CPUs this test may run on, in increasing order.
fn allowed_cpus() -> Vec<usize> {
    // SAFETY: an empty set, filled by the call for this thread.
    let set = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        assert_eq!(
            libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set),
            0
        );
        set
    };
    // SAFETY: reading the set within its size.
    (0..libc::CPU_SETSIZE as usize)
        .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
        .collect()
}

/// 36.1: with at least as many CPUs as jobs, a slot's cases run alone on a CPU of their own
/// (the highest the judge may use, leased) when the fork server starts them; a zygote's cases,
/// cases with `BOARDJUDGE_OWN_CPU=0` and cases in fresh namespaces per case are placed by the
/// kernel and may use every CPU; with as many jobs as CPUs each slot has one. Each way's program
/// prints the answer only when it sees the CPUs expected for that way (planted: a server that
/// does not move its cases gets WA on the first way).
#[test]
fn a_slots_cases_run_on_a_cpu_of_their_own() {
    if !as_root() {
        return;
    }
    let allowed = allowed_cpus();
    if allowed.len() < 2 {
        skipped("one CPU: no CPU to spare for the cases");
        return;
    }
    let dir = scratch("fork-server-own-cpu");
    let tests = tests(&dir, 3);
    let leases = dir.join("cpu-leases");
    std::fs::create_dir_all(&leases).unwrap();
    let own = vec![*allowed.last().unwrap()];
    let ways: [(&str, &str, &str, &Vec<usize>); 4] = [
        ("interpreter per case", "BOARDJUDGE_ZYGOTE", "0", &own),
        ("zygote (not placed)", "BOARDJUDGE_UNUSED", "1", &allowed),
        ("placement off", "BOARDJUDGE_OWN_CPU", "0", &allowed),
        (
            "namespaces per case",
            "BOARDJUDGE_FORK_SERVER",
            "0",
            &allowed,
        ),
    ];
    // With as many jobs as CPUs, each slot's cases are on one CPU (which one, the program
    // cannot know).
    let one = "len(cpus) == 1".to_string();
    let checks = ways
        .iter()
        .map(|(name, key, value, expected)| {
            (*name, *key, *value, format!("cpus == {expected:?}"), 1)
        })
        .chain([(
            "as many jobs as CPUs",
            "BOARDJUDGE_ZYGOTE",
            "0",
            one,
            allowed.len(),
        )]);
    for (name, key, value, condition, jobs) in checks {
        let file = format!("cpus-{key}-{jobs}.py");
        std::fs::write(
            dir.join(&file),
            format!(
                "import os, sys\nsys.stdin.read()\ncpus = sorted(os.sched_getaffinity(0))\n\
                 print(0 if {condition} else cpus)\n"
            ),
        )
        .unwrap();
        let report = dir.join(format!("report-{key}-{jobs}.json"));
        // CPU leases of its own: those of the judges of other tests running beside it are not
        // seen.
        let out = judge()
            .current_dir(&dir)
            .env("BOARDJUDGE_CPU_LEASES", &leases)
            .env(key, value)
            .args(["run", "othello-flips", "--tests"])
            .arg(&tests)
            .args(["--time-limit", "2", "--memory-limit", "64", "--jobs"])
            .arg(jobs.to_string())
            .arg("--report")
            .arg(&report)
            .args(["--", &file])
            .output()
            .unwrap();
        assert_no_panic(&out);
        let rows: Vec<Row> = serde_json::from_slice(
            &std::fs::read(&report)
                .unwrap_or_else(|_| panic!("{name}: no report; stderr: {}", text(&out.stderr))),
        )
        .unwrap();
        assert_eq!(rows.len(), 3, "{name}");
        for row in &rows {
            assert_eq!(row.verdict, "AC", "{name}: {row:?}");
        }
    }
}

/// Without `CAP_SYS_NICE` the server cannot move a case onto its slot's CPU: it goes back to
/// every CPU and places no more cases, the verdicts are unchanged, and the judge says so
/// (`sandbox:` without "a CPU per job"; `-v` says why).
#[test]
fn without_cap_sys_nice_cases_are_not_placed_and_the_judge_says_so() {
    if !as_root() {
        return;
    }
    if allowed_cpus().len() < 2 {
        skipped("one CPU: no CPU to spare for the cases");
        return;
    }
    if std::process::Command::new("capsh")
        .arg("--help")
        .output()
        .is_err()
    {
        skipped("capsh is not installed");
        return;
    }
    let dir = scratch("fork-server-no-cap-sys-nice");
    let tests = tests(&dir, 4);
    let leases = dir.join("cpu-leases");
    std::fs::create_dir_all(&leases).unwrap();
    std::fs::write(
        dir.join("cpus.py"),
        "import os, sys\nsys.stdin.read()\nprint(0)\nprint(sorted(os.sched_getaffinity(0)), file=sys.stderr)\n",
    )
    .unwrap();
    let judge = env!("CARGO_BIN_EXE_judge");
    let out = std::process::Command::new("capsh")
        .arg("--drop=cap_sys_nice")
        .arg("--")
        .arg("-c")
        .arg(format!(
            "'{judge}' run othello-flips --tests '{}' --jobs 1 -v -- cpus.py",
            tests.display()
        ))
        .current_dir(&dir)
        .env("BOARDJUDGE_CPU_LEASES", &leases)
        .env("BOARDJUDGE_ZYGOTE", "0")
        .output()
        .unwrap();
    assert_no_panic(&out);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(text(&out.stdout).contains("AC 4"), "{}", text(&out.stdout));
    assert!(
        stderr.contains("a CPU per job: no (a case could not be moved onto its CPU"),
        "{stderr}"
    );
}
