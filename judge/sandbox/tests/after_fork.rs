//! Code that runs after a `fork` or `clone` of the judge allocates nothing: the judge is
//! multi-threaded, and an allocator lock another thread held at the fork stays held in the
//! child forever (the child hangs, or, sharing the judge's memory, corrupts its heap). That code
//! lives in the `child.rs` files (the Landlock call included), in `keeper.rs` (a run's keeper,
//! the init of its PID namespace), in `clone.rs` (the one helper
//! every child starts from) and in the raw messaging of `server/protocol.rs`, which the fork
//! server uses too.
//!
//! Checked twice: on the source (no construct that allocates, panics or formats), and by
//! watching the allocator while the sandbox does everything it forks or clones for, as far as
//! this machine allows: the isolation probes, a slot's root built, runs started afresh and
//! from a fork server (its cases, and its check that a case can stop at its `exec`), a Python
//! script's zygote, a jury box and a build box.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::time::Duration;

use sandbox::{BoxFile, Command, Limits, Sandbox};

/// The pid of this test process once the watch starts (0: not yet). An allocation in any other
/// process is in a child of the sandbox's: a `clone` sharing this memory, or the fork server's
/// copy of it.
static WATCHED_PID: AtomicI32 = AtomicI32::new(0);

/// Allocations (and frees) made by children that share this process's memory.
static IN_CHILDREN: AtomicUsize = AtomicUsize::new(0);

/// The exit status of a child that allocated: it stops there (the allocator may be locked
/// for good), so that a run, or the fork server, visibly fails.
const ALLOCATED: i32 = 93;

/// The system allocator, watched: every call first checks which process makes it.
struct Watched;

fn check_process() {
    let watched = WATCHED_PID.load(Ordering::Relaxed);
    // SAFETY: getpid has no preconditions (the system call: glibc no longer caches it).
    if watched == 0 || unsafe { libc::getpid() } == watched {
        return;
    }
    IN_CHILDREN.fetch_add(1, Ordering::Relaxed);
    const SAID: &[u8] = b"after_fork: a child of the sandbox called the allocator\n";
    // SAFETY: raw system calls on a static message; the child ends here.
    unsafe {
        libc::write(2, SAID.as_ptr().cast(), SAID.len());
        libc::_exit(ALLOCATED);
    }
}

// SAFETY: every call is passed on to the system allocator unchanged, after a check that
// allocates nothing.
unsafe impl GlobalAlloc for Watched {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        check_process();
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        check_process();
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        check_process();
        // SAFETY: the caller's block and sizes, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        check_process();
        // SAFETY: the caller's block, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Watched = Watched;

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

const INPUT: &[u8] = b"NNNWBNNN\nNNNBWNNN\n";

/// Runs `sandbox` on [`INPUT`] a few times (a fork server's prestarted cases among them) and
/// checks each run echoed it back.
fn runs_echo(sandbox: &Sandbox, what: &str) {
    let limits = Limits::new(Duration::from_secs(2), 256);
    let never = AtomicBool::new(false);
    for k in 0..4 {
        let finished = sandbox
            .run(0, INPUT, &limits, &never)
            .unwrap_or_else(|e| panic!("{what}, run {k}: {e}"));
        assert_eq!(
            finished.exit,
            sandbox::Exit::Code(0),
            "{what}, run {k}: {finished:?}"
        );
        assert_eq!(finished.stdout, INPUT, "{what}, run {k}");
    }
}

#[test]
fn nothing_allocates_after_a_fork_or_clone() {
    // SAFETY: getpid has no preconditions.
    WATCHED_PID.store(unsafe { libc::getpid() }, Ordering::Relaxed);
    let cat = || Command::system("/bin/cat", &[]);

    // The probes (Isolation::detect), a slot's root, and the fork server with its cases.
    let served = Sandbox::new(cat(), 1).unwrap();
    let isolation = &served.isolation;
    if is_root() && isolation.private_root.is_ok() && isolation.cgroup.is_ok() {
        // A server that allocated would have died before it was ready: it must be up.
        assert_eq!(isolation.fork_server, Ok(()), "{}", served.describe());
    }
    runs_echo(&served, "from the fork server");

    // Runs started afresh, each in namespaces of its own.
    let fresh = Sandbox::with(
        cat(),
        1,
        &sandbox::Options {
            fork_server: false,
            ..sandbox::Options::default()
        },
    )
    .unwrap();
    runs_echo(&fresh, "started afresh");

    // A Python script: its cases come from the lane's zygote, which the server started.
    if Path::new("/usr/bin/python3").exists() {
        let script = BoxFile {
            path: "echo.py".to_string(),
            contents: Arc::from(&b"import sys\nsys.stdout.write(sys.stdin.read())\n"[..]),
            executable: false,
        };
        let python = Sandbox::new(
            Command {
                program: "/usr/bin/python3".into(),
                args: vec!["/box/echo.py".to_string()],
                files: vec![script],
                ..Command::default()
            },
            1,
        )
        .unwrap();
        runs_echo(&python, "a Python script");
        if python.isolation.fork_server.is_ok() {
            assert_eq!(python.zygote(), Some(Ok(())), "{}", python.describe());
        }
    }

    // A jury box: its root has a case folder and a feedback folder of their own.
    let jury = Sandbox::with(
        Command::system(
            "/bin/sh",
            &["-c", "cat /box/case/input.in > /box/feedback/copy"],
        ),
        1,
        &sandbox::Options {
            jury: Some(sandbox::JuryBox::default()),
            ..sandbox::Options::default()
        },
    )
    .unwrap();
    let limits = Limits::new(Duration::from_secs(2), 256);
    let ran = jury
        .run_io(
            0,
            sandbox::RunIo {
                stdin: sandbox::Stdin::Bytes(b""),
                stdout: sandbox::Stdout::Capture,
                files: &[("/box/case/input.in", INPUT)],
                feedback: true,
                limits: &limits,
                stop: &AtomicBool::new(false),
            },
        )
        .unwrap();
    assert_eq!(ran.finished.exit, sandbox::Exit::Code(0), "{ran:?}");
    assert_eq!(ran.feedback.len(), 1, "{ran:?}");
    assert_eq!(ran.feedback[0].contents, INPUT);

    // A build box: a writable /box, the artefact taken out.
    let spec = sandbox::build::Spec {
        command: Command {
            program: "/bin/cp".into(),
            args: vec!["/box/src/in".to_string(), "/box/out/artefact".to_string()],
            files: vec![BoxFile {
                path: "src/in".to_string(),
                contents: Arc::from(INPUT),
                executable: false,
            }],
            ..Command::default()
        },
        dirs: Vec::new(),
        outputs: vec![sandbox::build::Output {
            from: "out/artefact".to_string(),
            to: "artefact".to_string(),
            folder: false,
        }],
        limits: sandbox::build::BuildLimits::new(Duration::from_secs(5)),
        hidden: Vec::new(),
    };
    match sandbox::build::build(&spec, &AtomicBool::new(false)).unwrap() {
        sandbox::build::Built::Artefact(files) => {
            assert_eq!(files.len(), 1);
            assert_eq!(&*files[0].contents, INPUT);
        }
        sandbox::build::Built::Failed(failure) => panic!("the build failed: {failure:?}"),
    }

    drop((served, fresh));
    assert_eq!(
        IN_CHILDREN.load(Ordering::Relaxed),
        0,
        "a child sharing the judge's memory called the allocator"
    );
}

/// The files whose code runs after a fork or clone, whole.
const AFTER_FORK: &[&str] = &[
    "src/clone.rs",
    "src/keeper.rs",
    "src/spawn/child.rs",
    "src/server/child.rs",
    "src/server/protocol.rs",
    "src/rootfs/child.rs",
];

/// Constructs that allocate, or format, or panic (a panic allocates its message and runs the
/// panic hook), as they are written.
const FORBIDDEN: &[&str] = &[
    "format!",
    "format_args!",
    "write!",
    "writeln!",
    "print!",
    "println!",
    "eprint!",
    "eprintln!",
    "panic!",
    "assert!",
    "assert_eq!",
    "assert_ne!",
    "debug_assert!",
    "debug_assert_eq!",
    "debug_assert_ne!",
    "unreachable!",
    "todo!",
    "unimplemented!",
    ".unwrap(",
    ".expect(",
    "vec!",
    "Vec",
    "String",
    "Box",
    "Arc",
    "Rc<",
    "HashMap",
    "BTreeMap",
    "CString::new",
    ".to_string(",
    ".to_owned(",
    ".to_vec(",
    ".collect",
    ".clone()",
    "Error::new",
    "Error::other",
    "std::fs::",
    "std::thread::",
    "Mutex",
];

/// The code of `text` without its comments (line comments, doc comments included, and block
/// comments), string literals blanked (their words are no code).
fn code_of(text: &str) -> String {
    let mut code = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        code.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    if c == '\n' {
                        code.push('\n');
                    }
                    last = c;
                }
            }
            ('"', _) => {
                code.push('"');
                let mut escaped = false;
                for c in chars.by_ref() {
                    if c == '"' && !escaped {
                        break;
                    }
                    escaped = c == '\\' && !escaped;
                }
                code.push('"');
            }
            _ => code.push(c),
        }
    }
    code
}

/// Does `line` name `construct` as a whole (`Box`, not `OpenBox`; `String`, not `CString`)?
fn uses(line: &str, construct: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices(construct).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + construct.len()..].chars().next();
        let glued_before = construct.starts_with(word) && before.is_some_and(word);
        let glued_after = construct.ends_with(word) && after.is_some_and(word);
        !glued_before && !glued_after
    })
}

#[test]
fn the_code_after_a_fork_uses_nothing_that_allocates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for file in AFTER_FORK {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        for (number, line) in code_of(&text).lines().enumerate() {
            for construct in FORBIDDEN {
                if uses(line, construct) {
                    found.push(format!(
                        "{file}:{}: {construct}: {}",
                        number + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "code that runs after a fork must not allocate, format or panic:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_source_check_sees_code_only_and_whole_names() {
    let code = code_of("let a = 1; // format!(\"x\")\n/* Vec */ let b = \"String\";\nvec![1]");
    assert!(!uses(&code, "format!") && !uses(&code, "Vec") && !uses(&code, "String"));
    assert!(code.contains("let a = 1;") && uses(&code, "vec!"));
    assert!(uses("let v: Vec<u8>;", "Vec") && uses("x.unwrap();", ".unwrap("));
    assert!(!uses("Step::OpenBox(at)", "Box") && !uses("&CString", "String"));
    assert!(uses("Box::new(1)", "Box") && !uses("debug_assert!(x)", "assert!"));
}
