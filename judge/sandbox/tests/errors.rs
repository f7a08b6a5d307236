//! The sandbox's failures come back typed ([`SandboxError`]: the stage, the errno, what it was
//! about) inside the `io::Error`s its functions return, with the messages and kinds callers
//! have always seen.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use sandbox::{BoxFile, ChildStage, Command, Limits, Options, Sandbox, SandboxError, Stage};

fn run_once(sandbox: &Sandbox) -> std::io::Result<sandbox::Finished> {
    let limits = Limits::new(Duration::from_secs(2), 64);
    sandbox.run(0, b"", &limits, &AtomicBool::new(false))
}

#[test]
fn a_program_that_cannot_be_executed_fails_at_exec_with_its_errno() {
    for fork_server in [true, false] {
        let sandbox = Sandbox::with(
            Command::system("/usr/bin/no-such-program-here", &[]),
            1,
            &Options {
                fork_server,
                ..Options::default()
            },
        )
        .unwrap();
        let way = sandbox.describe();
        let e = run_once(&sandbox).unwrap_err();
        let typed = SandboxError::of(&e).unwrap_or_else(|| panic!("{way}: untyped {e:?}"));
        assert_eq!(typed.stage, Stage::Child(ChildStage::Exec), "{way}: {e}");
        assert_eq!(typed.errno(), Some(libc::ENOENT), "{way}: {e}");
        assert_eq!(e.kind(), std::io::ErrorKind::Other, "{way}");
        assert_eq!(
            e.to_string(),
            "could not start the submission (execve): No such file or directory (os error 2)",
            "{way}"
        );
    }
}

#[test]
fn a_nul_byte_in_the_command_is_refused_before_anything_starts() {
    let sandbox = Sandbox::new(Command::system("/bin/echo", &["a\0b"]), 1).unwrap();
    let e = run_once(&sandbox).unwrap_err();
    assert_eq!(SandboxError::stage_of(&e), Some(Stage::NulByte), "{e}");
    assert_eq!(e.to_string(), "a NUL byte in the command");
}

#[test]
fn a_file_outside_the_box_is_refused() {
    let command = Command {
        program: "/box/escape".into(),
        files: vec![BoxFile {
            path: "../escape".to_string(),
            contents: Arc::from(&b"#!/bin/sh\n"[..]),
            executable: true,
        }],
        ..Command::default()
    };
    let Err(e) = Sandbox::new(command, 1) else {
        panic!("a box file named ../escape was accepted");
    };
    assert_eq!(SandboxError::stage_of(&e), Some(Stage::BoxPath), "{e}");
    assert_eq!(e.to_string(), "../escape: not a box path");
}
