//! Interactive problems: a submission and the jury's validator run at once, each in its own box
//! (its own uid, groups and namespaces), talking through two pipes: the validator's standard
//! output is the submission's standard input, and the submission's standard output the
//! validator's standard input.
//!
//! The submission's CPU time and memory are its own (its groups'), and so is the validator's;
//! each has its own wall clock, started with it, so the submission's covers the time it waits
//! for the validator. When the validator is over (it exited, or its limits ended it), the
//! submission gets [`GRACE`] (or what is left of its wall clock, if less) to end too, then is
//! killed; when the submission is over, the validator runs on to its own end, and what it still
//! writes to the submission is read and thrown away (up to [`DRAINED`] bytes, as Kattis,
//! DOMjudge and BAPCtools let a validator say its last line). Beyond that, a write to a pipe
//! whose reader is gone kills the writer (`SIGPIPE` is the default in both boxes, as on DOMjudge
//! and Kattis), the run's top process too — except without root, where a run is the first
//! process of its PID namespace, which the kernel does not kill with a signal left at its
//! default action: its write fails with `EPIPE` there (most runtimes then end with an error, or
//! are cut off). When `stop` is set, or the judge dies,
//! both are killed. Which of the two decides
//! the verdict is the caller's to say, from the spec; [`Interaction::first`] says which was
//! over first. The end of a side reaches the other (end of file, a closed pipe) only once the
//! judge has noted it: a submission that closes its standard output and runs on is not over
//! for the validator, and one that crashes is over before the validator rejects what it did.
//!
//! Both pipes can be reopened through `/dev/stdin` and `/dev/stdout` by either side (they are
//! `0666`: a pipe has one owner, the two sides have two uids; nothing outside the two boxes can
//! reach them).

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::Duration;

use crate::error::{SandboxError, Stage};
use crate::slot::Sandbox;
use crate::spawn::{self, ABORT, Paired};
use crate::types::{FeedbackFile, Finished, Limits, Ran, RunIo, Stdin, Stdout};

/// How long the submission may go on once the validator is over.
pub const GRACE: Duration = Duration::from_secs(1);

/// What the validator gets besides its standard streams (the pair's pipes).
#[derive(Clone, Copy, Debug)]
pub struct ValidatorIo<'a> {
    /// Its per-run files, under [`crate::CASE_DIR`] (see [`RunIo::files`]).
    pub files: &'a [(&'a str, &'a [u8])],
    /// A feedback folder it may write (see [`RunIo::feedback`]).
    pub feedback: bool,
    pub limits: &'a Limits,
}

/// A side of an interactive pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Submission,
    Validator,
}

/// How an interaction ended.
#[derive(Clone, Debug)]
pub struct Interaction {
    pub submission: Finished,
    pub validator: Ran,
    /// The side that was over first: its top process exited, or its limits (or `stop`) ended
    /// it, as the judge saw it. A side that ends *because* the other did (on reading the end
    /// of its input, or killed writing to a closed pipe) is always second: the judge holds
    /// the pipes' far ends until it has noted the first end. Two sides ending on their own
    /// within a millisecond or so of each other may come in either order.
    pub first: Side,
    /// The submission was killed at the end of its grace, the validator being over.
    pub submission_cut_off: bool,
}

/// An eventfd: one side tells the other it is over (the count written: 1, or [`ABORT`]).
struct EventFd(OwnedFd);

impl EventFd {
    fn new() -> io::Result<EventFd> {
        // SAFETY: no pointers.
        let fd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the kernel just returned this descriptor.
        Ok(EventFd(unsafe { OwnedFd::from_raw_fd(fd) }))
    }

    fn signal(&self, count: u64) {
        // SAFETY: eight bytes from a local integer to our eventfd (it cannot block: at worst
        // the counter is full, and then it is readable already).
        unsafe { libc::write(self.0.as_raw_fd(), (&count as *const u64).cast(), 8) };
    }

    fn raw(&self) -> RawFd {
        self.0.as_raw_fd()
    }
}

/// What the judge reads (and throws away) of a validator's writes to a submission that is
/// over, before those writes fail: a validator's last words (a line it flushes on exit) must
/// not make it crash with a broken pipe, as Kattis (which keeps that pipe open), DOMjudge and
/// BAPCtools (which relay it) let it finish; one that floods is cut off at this bound.
const DRAINED: u64 = 1 << 20;

/// Reads `pipe` to its end (every writer gone: the validator over) or [`DRAINED`] bytes,
/// discarding them, on a thread of its own; then closes it.
fn drain(pipe: OwnedFd) {
    let spawned = std::thread::Builder::new()
        .name("interact-drain".to_string())
        .spawn(move || {
            use std::io::Read;
            let _ = io::copy(
                &mut std::fs::File::from(pipe).take(DRAINED),
                &mut io::sink(),
            );
        });
    // No thread: the pipe (moved into the failed closure) is closed now, as before.
    drop(spawned);
}

/// Which side was over first, in an atomic: 0 neither yet.
const NEITHER: u8 = 0;
const SUBMISSION: u8 = 1;
const VALIDATOR: u8 = 2;

/// Runs `submission` (its sandbox, slot and limits) against `validator` (a jury box's sandbox,
/// slot and files), connected by two pipes, until both are over; see the module's
/// documentation. `Err` is the judge's failure (either could not start, say: the other is then
/// killed at once), never a program's.
pub fn interact(
    submission: (&Sandbox, usize, &Limits),
    validator: (&Sandbox, usize, ValidatorIo<'_>),
    stop: &AtomicBool,
) -> io::Result<Interaction> {
    interact_with_feedback(submission, validator, &[], stop)
}

/// [`interact`] with the validator's feedback folder holding `seed`'s files at the start (see
/// [`Sandbox::run_io_with_feedback`]): a pass of an interactive multi-pass problem after the
/// first.
pub fn interact_with_feedback(
    submission: (&Sandbox, usize, &Limits),
    validator: (&Sandbox, usize, ValidatorIo<'_>),
    seed: &[FeedbackFile],
    stop: &AtomicBool,
) -> io::Result<Interaction> {
    let (sandbox, slot, limits) = submission;
    let (jury, jury_slot, io) = validator;
    if std::ptr::eq(sandbox, jury) && slot == jury_slot {
        // One slot runs one program at a time.
        return Err(SandboxError::new(
            Stage::Slot,
            "the submission and the validator cannot share a slot",
        )
        .into());
    }
    let (to_submission_r, to_submission_w) = spawn::pipe()?;
    let (to_validator_r, to_validator_w) = spawn::pipe()?;
    for pipe in [&to_submission_r, &to_validator_r] {
        // SAFETY: changing the mode of a pipe we just made (both ends share it).
        if unsafe { libc::fchmod(pipe.as_raw_fd(), 0o666) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    // The validator is told only that the submission could not run (it runs on otherwise).
    let submission_failed = EventFd::new()?;
    let validator_over = EventFd::new()?;
    let first = AtomicU8::new(NEITHER);
    let cut_off = [AtomicBool::new(false), AtomicBool::new(false)];
    // The judge holds a copy of the submission's ends of both pipes until it has seen the
    // submission end, and of the validator's until it has seen the validator end (as
    // BAPCtools' relay delays the end of file): a side cannot learn that the other is over
    // (the end of its input, a write to a pipe without a reader) before the judge has noted
    // which was over first, so a side that ends *because* the other did is always second, and
    // a submission that closes its standard output and runs on is not over for the validator.
    let held_for_submission = Mutex::new(Some((
        to_validator_w.try_clone()?,
        to_submission_r.try_clone()?,
    )));
    let held_for_validator = Mutex::new(Some((
        to_submission_w.try_clone()?,
        to_validator_r.try_clone()?,
    )));
    let submission_ended = || {
        let _ = first.compare_exchange(NEITHER, SUBMISSION, Ordering::SeqCst, Ordering::SeqCst);
        let held = held_for_submission
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some((to_validator_w, to_submission_r)) = held {
            // The validator reads the end of its input now; what it still writes to the
            // submission that is gone is drained, up to DRAINED bytes, before its writes fail.
            drop(to_validator_w);
            drain(to_submission_r);
        }
    };
    let validator_ended = || {
        let _ = first.compare_exchange(NEITHER, VALIDATOR, Ordering::SeqCst, Ordering::SeqCst);
        drop(
            held_for_validator
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take(),
        );
        validator_over.signal(1);
    };
    let submission_pair = Paired {
        other_over: validator_over.raw(),
        grace: GRACE,
        over: &submission_ended,
        cut_off: &cut_off[0],
    };
    let validator_pair = Paired {
        other_over: submission_failed.raw(),
        grace: Duration::ZERO,
        over: &validator_ended,
        cut_off: &cut_off[1],
    };
    let (finished, ran) = std::thread::scope(|scope| {
        let validator_run = scope.spawn(|| {
            let run = RunIo {
                stdin: Stdin::Fd(to_validator_r),
                stdout: Stdout::Fd(to_submission_w),
                files: io.files,
                feedback: io.feedback,
                limits: io.limits,
                stop,
            };
            let ran = jury.run_paired(jury_slot, run, seed, Some(&validator_pair));
            if ran.is_err() {
                validator_over.signal(ABORT);
            }
            ran
        });
        let run = RunIo {
            stdin: Stdin::Fd(to_submission_r),
            stdout: Stdout::Fd(to_validator_w),
            files: &[],
            feedback: false,
            limits,
            stop,
        };
        let finished = sandbox
            .run_paired(slot, run, &[], Some(&submission_pair))
            .map(|ran| ran.finished);
        if finished.is_err() {
            submission_failed.signal(ABORT);
        }
        let ran = validator_run
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (finished, ran)
    });
    let (submission, validator) = (finished?, ran?);
    Ok(Interaction {
        submission,
        validator,
        first: if first.load(Ordering::SeqCst) == VALIDATOR {
            Side::Validator
        } else {
            Side::Submission
        },
        submission_cut_off: cut_off[0].load(Ordering::SeqCst),
    })
}
