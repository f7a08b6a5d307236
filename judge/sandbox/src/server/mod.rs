//! A fork server per slot: the slot's namespaces entered once, every case started from inside.
//!
//! Without it, every run pays for entering three namespaces, copying the slot's mount
//! namespace, mounting `/proc` and `/tmp`, and, when it ends, tearing that mount namespace
//! down (behind RCU grace periods: milliseconds now and then). The server is a copy of the
//! judge (`clone` without `CLONE_VM`, once per slot), PID 1 of the slot's own PID namespace. It
//! enters the slot's network, UTS and mount namespaces, mounts `/proc` once (`hidepid=
//! invisible`: a case sees its own processes only), and makes two *lanes*: mount namespaces of
//! its own, each with its own `/tmp`, leased uid and cgroups. For a case it mounts a fresh
//! `/tmp` in the lane and starts the program the way [`crate::spawn`] does
//! (`clone(CLONE_VM | CLONE_VFORK)`, then [`crate::spawn::become_submission`]): pid 2 of a PID
//! namespace of its own whose init is a keeper ([`crate::keeper`]), in new IPC and cgroup namespaces, with a session keyring, user
//! namespace and Landlock domain of its own, in the lane's groups whose figures the judge
//! reset. The case stops at the end of its `exec` (it asked to be traced by the server), before
//! the program's first instruction, until the judge has its input ready and asks the server to
//! let it go (`GO`: the server detaches). When the case ends the server kills and reaps it,
//! then its keeper (so its whole PID namespace), and unmounts its `/tmp`: nothing of it is left
//! for the next.
//!
//! A case's standard input is an input file ([`crate::input`]): it gets a read-only descriptor
//! of an empty one when it starts, and the judge writes and seals the file before it lets the
//! case go. (Or the descriptors a caller gives, an interactive pair's pipes: such a case is
//! started for its run.)
//!
//! While a case runs, the judge asks for the next one in the other lane ("prestart"): its
//! set-up and the kernel's part of its `exec` then happen while the judge checks the case
//! before. Nothing of the program runs before it is let go, where its wall clock starts: what
//! a program does before it reads its input (sleeping, say) must not get a head start that
//! depends on how long the case before it took. (A zygote's case waits on a start pipe of its
//! own, which the judge writes to let it go.)
//!
//! The server is a fork of a multi-threaded process: like a `vfork` child, it makes raw
//! system calls only, on data prepared before the fork, and never allocates.

mod child;
mod client;
mod protocol;
mod zygote;

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::Mutex;

use crate::clone::{self, Memory};
use crate::input::InputFile;
use crate::spawn;

use child::{CASE_STACK, ServerArgs, server_main};
use client::{failure, protocol_error, socket_pair};
pub use protocol::Rlimit;
use protocol::{GO, READY, Request};
use zygote::Zygote;
pub use zygote::{PYTHON_ZYGOTE, python_zygote};

/// What a case is started with; a prestarted case is used only for a run with the same.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseKey {
    pub rlimits: Vec<Rlimit>,
    /// The size of its `/tmp`.
    pub tmp_bytes: u64,
    /// With the sanitizers' options in its environment.
    pub sanitizer: bool,
}

/// A case the server (or its lane's zygote) started: the judge's ends of its standard streams,
/// and a pidfd of its top process (readable when it exits).
pub struct Started {
    pub lane: usize,
    key: CaseKey,
    /// Forked by the lane's zygote.
    zygote: bool,
    pub pidfd: OwnedFd,
    pub ends: Ends,
}

/// The judge's ends of a case's streams.
pub struct Ends {
    /// Its input file, to be filled before the case is let go (`None`: its input was given).
    pub(crate) input: Option<InputFile>,
    /// The read end of its standard output (`None`: its output was given).
    pub(crate) stdout: Option<OwnedFd>,
    pub(crate) stderr: OwnedFd,
    /// A zygote's case: the write end of the pipe it waits on before the script runs.
    start: Option<OwnedFd>,
}

/// Streams a caller gives a case instead of an input file and an output pipe of the judge's
/// (an interactive pair's pipes): such a case is started for its run, never prestarted.
pub struct Given {
    pub stdin: Option<OwnedFd>,
    pub stdout: Option<OwnedFd>,
}

/// A case asked for and not yet answered: the judge's ends of its streams.
struct Asked {
    lane: usize,
    key: CaseKey,
    /// Asked of the lane's zygote (its answer comes on the zygote's socket).
    zygote: bool,
    ends: Ends,
}

#[derive(Default)]
struct State {
    /// A prestart whose answer is still to be read (answers come in the order asked).
    asked: Option<Asked>,
    /// The prestarted case, ready for a run.
    ready: Option<Started>,
    /// A failed exchange leaves the server's state unknown: no more cases.
    broken: bool,
    /// Each lane's zygote, if it has one.
    zygotes: [Option<Zygote>; 2],
    /// The case running in each lane came from its zygote.
    from_zygote: [bool; 2],
    /// Why this slot's cases no longer start from zygotes.
    zygote_off: Option<String>,
    /// GOs sent whose answers are still to be read (they come before later answers).
    going: u32,
    /// A case could not be moved onto the slot's CPU: the server places no more.
    unplaced: bool,
}

/// Readies a lane's groups for a case (figures back to zero).
pub type Prepare<'a> = &'a dyn Fn(usize) -> io::Result<()>;

/// What each lane's cases are started as (prepared by the judge before the fork).
pub struct LanePlan<'a> {
    pub plan: spawn::Plan<'a>,
    pub uid: u32,
}

/// The judge's handle on a slot's server.
pub struct Server {
    pid: libc::pid_t,
    control: OwnedFd,
    uids: [u32; 2],
    /// Cases may start from a zygote in each lane, and join these descriptors (each lane's
    /// groups' `tasks`/`cgroup.procs`, held by the slot).
    zygote: bool,
    case_join: [Vec<RawFd>; 2],
    state: Mutex<State>,
}

/// How a lane's zygote starts: its argument words, its plans (in groups of their own), and the
/// lanes' groups its cases join.
pub struct ZygoteSetup<'a> {
    pub argv: &'a [CString],
    pub lanes: [LanePlan<'a>; 2],
    pub case_join: [Vec<RawFd>; 2],
}

/// What [`Server::start`] needs of the slot.
pub struct Setup<'a> {
    pub network: RawFd,
    pub uts: RawFd,
    pub mount: RawFd,
    pub lanes: [LanePlan<'a>; 2],
    /// The program's argument words, its name first (the program itself is in the plans).
    pub argv: &'a [CString],
    /// The interpreter's zygote, where the program is an interpreter that has one.
    pub zygote: Option<ZygoteSetup<'a>>,
    /// Plain, and with the sanitizers' options.
    pub environments: [&'a [CString]; 2],
    /// Other descriptors the lanes' plans use (Landlock ruleset, cgroup files, judge pidfd).
    pub keep: Vec<RawFd>,
    /// Where the server and its cases run ([`crate::cpus`]); `None`: the kernel's choice.
    pub cpus: Option<Cpus>,
}

/// The CPUs of a slot whose cases run on a CPU of their own ([`crate::cpus`]).
#[derive(Clone, Copy)]
pub struct Cpus {
    /// The server's, and what it starts before a case's turn.
    pub server: libc::cpu_set_t,
    /// A case's, from its turn on.
    pub case: libc::cpu_set_t,
    /// Every CPU the judge may use: the server's again if a case cannot be moved (without
    /// `CAP_SYS_NICE`), when it stops placing cases.
    pub all: libc::cpu_set_t,
}

fn pointers(strings: &[CString]) -> Vec<*const libc::c_char> {
    strings
        .iter()
        .map(|s| s.as_ptr())
        .chain([std::ptr::null()])
        .collect()
}

impl Server {
    /// Forks the server into the slot's namespaces and waits until it is ready.
    pub fn start(setup: Setup<'_>) -> io::Result<Server> {
        let (control, theirs) = socket_pair()?;
        let null = std::fs::File::options()
            .read(true)
            .write(true)
            .open("/dev/null")?;
        let argv_pointers = pointers(setup.argv);
        let zygote_pointers = pointers(setup.zygote.as_ref().map_or(&[], |z| z.argv));
        let plain = pointers(setup.environments[0]);
        let sanitized = pointers(setup.environments[1]);
        let mut keep = setup.keep.clone();
        keep.extend([
            theirs.as_raw_fd(),
            null.as_raw_fd(),
            setup.network,
            setup.uts,
            setup.mount,
        ]);
        keep.sort_unstable();
        keep.dedup();
        let mut case_stack = vec![0u8; CASE_STACK];
        let mut args = ServerArgs {
            control: theirs.as_raw_fd(),
            null: null.as_raw_fd(),
            network: setup.network,
            uts: setup.uts,
            mount: setup.mount,
            keep: &keep,
            lanes: [
                &setup.lanes,
                setup.zygote.as_ref().map_or(&setup.lanes, |z| &z.lanes),
            ],
            argv: [&argv_pointers, &zygote_pointers],
            environments: [&plain, &sanitized],
            case_stack: &mut case_stack,
            cpus: setup.cpus,
        };
        let mut stack = vec![0u8; 256 * 1024];
        // SAFETY: a fork (no CLONE_VM) onto a stack in the copied memory; the child makes raw
        // system calls only on data prepared above, which its copy keeps.
        let pid = unsafe {
            clone::clone(
                Memory::Copied,
                libc::CLONE_NEWPID,
                &mut stack,
                server_main,
                &mut args,
            )?
        };
        drop(theirs);
        let server = Server {
            pid,
            control,
            uids: [setup.lanes[0].uid, setup.lanes[1].uid],
            zygote: setup.zygote.is_some(),
            case_join: setup
                .zygote
                .as_ref()
                .map_or_else(Default::default, |z| z.case_join.clone()),
            state: Mutex::new(State::default()),
        };
        let (reply, _) = server.receive()?;
        if reply.kind != READY {
            return Err(protocol_error("the fork server answered out of turn"));
        }
        if reply.failed != 0 {
            return Err(failure(&reply, "starting the fork server").into());
        }
        Ok(server)
    }

    /// A started case for `key`: the prestarted one if it was started with the same (and no
    /// streams are `given`), else one started now. `prepare(lane)` readies a lane's groups
    /// (figures back to zero).
    pub fn take(
        &self,
        key: &CaseKey,
        prepare: Prepare<'_>,
        given: Option<&Given>,
    ) -> io::Result<Started> {
        let mut state = self.lock()?;
        self.collect(&mut state);
        if state.broken {
            return Err(protocol_error("the fork server stopped answering"));
        }
        let mut lane = 0;
        if let Some(ready) = state.ready.take() {
            if ready.key == *key && given.is_none() {
                state.from_zygote[ready.lane] = ready.zygote;
                return Ok(ready);
            }
            lane = ready.lane;
            state.from_zygote[lane] = ready.zygote;
            drop(ready);
            self.end_case(&mut state, lane)?;
        }
        let asked = self.ask(&mut state, lane, key, prepare, true, given)?;
        let from_zygote = asked.zygote;
        let started = match self.collect_one(&mut state, asked) {
            Ok(started) => started,
            // The zygote could not set this case up (the lane's key quota still held by the
            // keys of the case before, say): this case starts from the server.
            Err(_) if from_zygote && !state.broken => {
                let asked = self.ask(&mut state, lane, key, prepare, false, given)?;
                self.collect_one(&mut state, asked)?
            }
            Err(e) => return Err(e),
        };
        state.from_zygote[lane] = started.zygote;
        Ok(started)
    }

    /// Asks for a case for `key` in the lane other than `busy`, without waiting for it.
    pub fn prestart(&self, key: &CaseKey, busy: usize, prepare: Prepare<'_>) -> io::Result<()> {
        let mut state = self.lock()?;
        let asked = self.ask(&mut state, 1 - busy, key, prepare, true, None)?;
        state.asked = Some(asked);
        Ok(())
    }

    /// Did a case refuse to be moved onto the slot's CPU, so that the server places no more
    /// ([`crate::cpus`])? (Known once the answer to its GO was read.)
    pub fn unplaced(&self) -> bool {
        self.state.lock().is_ok_and(|state| state.unplaced)
    }

    /// `None` if this server's cases have no zygote, else whether they still start from it
    /// (or why not).
    pub fn zygote_state(&self) -> Option<Result<(), String>> {
        if !self.zygote {
            return None;
        }
        let state = self.state.lock().ok()?;
        Some(match &state.zygote_off {
            Some(why) => Err(why.clone()),
            None => Ok(()),
        })
    }

    /// Lets a case taken with [`Server::take`] go: its program starts (its input must be
    /// there: its input file filled). A zygote's case is told on its start pipe; for another,
    /// the server's answer is read with the next one: the program is on its way once the
    /// request is sent.
    pub fn go(&self, case: &Started) -> io::Result<()> {
        if case.zygote {
            let Some(start) = &case.ends.start else {
                return Err(protocol_error("a zygote's case without its start pipe"));
            };
            // A case that is gone already (killed at its memory limit, say) is the judge's to
            // see: its pidfd says it ended.
            // SAFETY: one byte from a static buffer to our own pipe.
            unsafe { libc::write(start.as_raw_fd(), b"1".as_ptr().cast(), 1) };
            return Ok(());
        }
        let mut state = self.lock()?;
        self.send(&Request::plain(GO, case.lane), &[])
            .inspect_err(|_| state.broken = true)?;
        state.going += 1;
        Ok(())
    }

    /// Ends the case in `lane` (killing whatever of it is left) and returns the wait status of
    /// its top process.
    pub fn finish(&self, lane: usize) -> io::Result<i32> {
        let mut state = self.lock()?;
        self.end_case(&mut state, lane)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(mut state) = self.state.lock() {
            state.asked = None;
            state.ready = None;
            state.zygotes = [None, None];
        }
        // Closing our end tells the server to kill its cases and exit (as PID 1 of the slot's
        // namespace, its exit ends anything left there).
        // SAFETY: shutting down a socket we own.
        unsafe { libc::shutdown(self.control.as_raw_fd(), libc::SHUT_RDWR) };
        let mut status = 0;
        // SAFETY: reaping our own child.
        unsafe { libc::waitpid(self.pid, &mut status, 0) };
    }
}
