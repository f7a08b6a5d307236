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
//! (`clone(CLONE_VM | CLONE_VFORK)`, then [`crate::spawn::become_submission`]): PID 1 of a PID
//! namespace of its own, in new IPC and cgroup namespaces, with a session keyring, user
//! namespace and Landlock domain of its own, in the lane's groups whose figures the judge
//! reset. The case stops at the end of its `exec` (it asked to be traced by the server), before
//! the program's first instruction, until the judge has its input ready and asks the server to
//! let it go (`GO`: the server detaches). When the case ends the server kills it (so its whole
//! PID namespace), reaps it and unmounts its `/tmp`: nothing of it is left for the next.
//!
//! While a case runs, the judge asks for the next one in the other lane ("prestart"): its
//! set-up and the kernel's part of its `exec` then happen while the judge checks the case
//! before. Nothing of the program runs before it is let go, where its wall clock starts: what
//! a program does before it reads its input (sleeping, say) must not get a head start that
//! depends on how long the case before it took.
//!
//! The server is a fork of a multi-threaded process: like a `vfork` child, it makes raw
//! system calls only, on data prepared before the fork, and never allocates.

use std::ffi::{CString, c_int, c_void};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::Mutex;

use crate::spawn;

/// Requests, judge to server.
const START: u32 = 1;
const FINISH: u32 = 2;
/// A fresh `/tmp` in a lane (for a zygote's next case).
const REFRESH: u32 = 3;
/// Let the lane's case, stopped at its `exec`, go.
const GO: u32 = 4;
/// Replies, server to judge.
const READY: u32 = 10;
const STARTED: u32 = 11;
const FINISHED: u32 = 12;
const REFRESHED: u32 = 13;
const GONE: u32 = 14;

/// The interpreter's zygote (Python), run with `python3 -c ZYGOTE SCRIPT`.
pub const PYTHON_ZYGOTE: &str = include_str!("zygote.py");

/// A stage of the server's own that failed (after [`spawn::STAGE_NAMES`]).
const STAGE_SERVER: u8 = 100;
/// The server's step that finds a case could not stop at its `exec`.
const STEP_NO_TRACING: u8 = 6;

const MAX_RLIMITS: usize = 8;
/// The stack of a case until its `exec`.
const CASE_STACK: usize = 64 * 1024;
const TMP_OPTIONS: usize = 96;

/// One resource limit: (resource, soft, hard).
pub type Rlimit = (libc::__rlimit_resource_t, u64, u64);

#[repr(C)]
#[derive(Clone, Copy)]
struct Request {
    kind: u32,
    lane: u32,
    /// Which environment (0 plain, 1 with the sanitizers' options).
    environment: u32,
    /// Which program (0 the submission, 1 its interpreter's zygote).
    program: u32,
    rlimit_count: u32,
    rlimits: [[u64; 3]; MAX_RLIMITS],
    /// The `/tmp` tmpfs's options, NUL-terminated.
    tmp_options: [u8; TMP_OPTIONS],
}

impl Request {
    /// A request about `lane` that carries nothing else.
    fn plain(kind: u32, lane: usize) -> Request {
        Request {
            kind,
            lane: lane as u32,
            environment: 0,
            program: 0,
            rlimit_count: 0,
            rlimits: [[0; 3]; MAX_RLIMITS],
            tmp_options: [0; TMP_OPTIONS],
        }
    }
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Reply {
    kind: u32,
    /// 0: it worked; else 1 + the stage that failed.
    failed: u32,
    errno: i32,
    /// FINISHED: the wait status of the case's top process.
    status: i32,
}

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
    pub stdin: OwnedFd,
    pub stdout: OwnedFd,
    pub stderr: OwnedFd,
}

/// A case asked for and not yet answered: the judge's ends of its streams.
struct Asked {
    lane: usize,
    key: CaseKey,
    /// Asked of the lane's zygote (its answer comes on the zygote's socket).
    zygote: bool,
    stdin: OwnedFd,
    stdout: OwnedFd,
    stderr: OwnedFd,
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
}

/// A lane's zygote: started with these limits, and the judge's end of its control socket.
struct Zygote {
    key: CaseKey,
    control: OwnedFd,
}

/// Readies a lane's groups for a case (figures back to zero).
pub type Prepare<'a> = &'a dyn Fn(usize) -> io::Result<()>;

/// What each lane's cases are started as (prepared by the judge before the fork).
pub struct LanePlan<'a> {
    pub plan: spawn::Plan<'a>,
    pub uid: u32,
}

/// Everything the server needs, in its copy of the judge's memory.
struct ServerArgs<'a> {
    control: RawFd,
    null: RawFd,
    network: RawFd,
    uts: RawFd,
    mount: RawFd,
    /// Descriptors the server keeps, sorted (every other one is closed).
    keep: &'a [RawFd],
    /// The submission's plans, and its zygotes' (in their own groups).
    lanes: [&'a [LanePlan<'a>; 2]; 2],
    /// The submission's argument words, and its zygote's.
    argv: [&'a [*const libc::c_char]; 2],
    environments: [&'a [*const libc::c_char]; 2],
    /// [`CASE_STACK`] bytes.
    case_stack: *mut u8,
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
}

/// A connected pair of sequenced-packet sockets (messages keep their boundaries), closed at
/// `exec`.
fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut pair = [0; 2];
    // SAFETY: `pair` has room for two descriptors.
    if unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            pair.as_mut_ptr(),
        )
    } != 0
    {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both were just created.
    Ok(unsafe { (OwnedFd::from_raw_fd(pair[0]), OwnedFd::from_raw_fd(pair[1])) })
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
        let args = ServerArgs {
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
            case_stack: case_stack.as_mut_ptr(),
        };
        let mut stack = vec![0u8; 256 * 1024];
        let top = (stack.as_mut_ptr() as usize + stack.len()) & !15;
        // SAFETY: a fork (no CLONE_VM) onto a stack in the copied memory; the child makes raw
        // system calls only on data prepared above, which its copy keeps.
        let pid = unsafe {
            libc::clone(
                server_main,
                top as *mut c_void,
                libc::CLONE_NEWPID | libc::SIGCHLD,
                (&args as *const ServerArgs<'_>).cast_mut().cast(),
            )
        };
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
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
            return Err(io::Error::other("the fork server answered out of turn"));
        }
        if reply.failed != 0 {
            return Err(failure(&reply, "starting the fork server"));
        }
        Ok(server)
    }

    /// A started case for `key`: the prestarted one if it was started with the same, else
    /// one started now. `prepare(lane)` readies a lane's groups (figures back to zero).
    pub fn take(&self, key: &CaseKey, prepare: Prepare<'_>) -> io::Result<Started> {
        let mut state = self.lock()?;
        self.collect(&mut state);
        if state.broken {
            return Err(io::Error::other("the fork server stopped answering"));
        }
        let mut lane = 0;
        if let Some(ready) = state.ready.take() {
            if ready.key == *key {
                state.from_zygote[ready.lane] = ready.zygote;
                return Ok(ready);
            }
            lane = ready.lane;
            state.from_zygote[lane] = ready.zygote;
            drop(ready);
            self.end_case(&mut state, lane)?;
        }
        let asked = self.ask(&mut state, lane, key, prepare, true)?;
        let from_zygote = asked.zygote;
        let started = match self.collect_one(&mut state, asked) {
            Ok(started) => started,
            // The zygote could not set this case up (the lane's key quota still held by the
            // keys of the case before, say): this case starts from the server.
            Err(_) if from_zygote && !state.broken => {
                let asked = self.ask(&mut state, lane, key, prepare, false)?;
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
        let asked = self.ask(&mut state, 1 - busy, key, prepare, true)?;
        state.asked = Some(asked);
        Ok(())
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

    /// Lets a case taken with [`Server::take`] go: its program starts (its input should be
    /// there). A zygote's case has waited for its input itself. The server's answer is read
    /// with the next one: the program is on its way once the request is sent.
    pub fn go(&self, case: &Started) -> io::Result<()> {
        if case.zygote {
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

    fn end_case(&self, state: &mut State, lane: usize) -> io::Result<i32> {
        if std::mem::take(&mut state.from_zygote[lane])
            && let Some(zygote) = &state.zygotes[lane]
        {
            match zygote_end(zygote) {
                Ok(status) => return Ok(status),
                // The case's end is not known: no verdict can be made up for it (the lane is
                // ended, and gets a new zygote).
                Err(e) if e.kind() == io::ErrorKind::TimedOut => {
                    state.zygotes[lane] = None;
                    self.end(state, lane)?;
                    return Err(e);
                }
                // The zygote is gone (killed at its group's memory limit, say), and its case
                // with it (its parent-death signal): the lane is ended, and gets a new zygote.
                Err(_) => {
                    state.zygotes[lane] = None;
                    self.end(state, lane)?;
                    return Ok(libc::SIGKILL);
                }
            }
        }
        Ok(self.end(state, lane)?.status)
    }

    fn lock(&self) -> io::Result<std::sync::MutexGuard<'_, State>> {
        let state = self
            .state
            .lock()
            .map_err(|_| io::Error::other("the fork server's state is poisoned"))?;
        if state.broken {
            return Err(io::Error::other("the fork server stopped answering"));
        }
        Ok(state)
    }

    /// Reads the answer to an outstanding prestart, keeping the case if it started.
    fn collect(&self, state: &mut State) {
        if let Some(asked) = state.asked.take() {
            // A prestart that failed is not an error of any run: the next run starts its case
            // itself, and fails with the reason if there is one.
            if let Ok(started) = self.collect_one(state, asked) {
                state.ready = Some(started);
            }
        }
    }

    /// Reads the server's answer to a START: the pidfd it sent, or why `doing` failed.
    fn receive_started(&self, state: &mut State, doing: &str) -> io::Result<Option<OwnedFd>> {
        let (reply, pidfd) = self.next_reply(state)?;
        if reply.kind != STARTED {
            state.broken = true;
            return Err(io::Error::other("the fork server answered out of turn"));
        }
        if reply.failed != 0 {
            return Err(failure(&reply, doing));
        }
        Ok(pidfd)
    }

    fn collect_one(&self, state: &mut State, asked: Asked) -> io::Result<Started> {
        if asked.zygote {
            return self.collect_from_zygote(state, asked);
        }
        let pidfd = self.receive_started(state, "starting the submission")?;
        let Some(pidfd) = pidfd else {
            state.broken = true;
            return Err(io::Error::other("the fork server sent no pidfd"));
        };
        Ok(Started {
            lane: asked.lane,
            key: asked.key,
            zygote: false,
            pidfd,
            stdin: asked.stdin,
            stdout: asked.stdout,
            stderr: asked.stderr,
        })
    }

    /// Asks for a case in `lane`: from its zygote if it has one (and `zygote`), else from the
    /// server.
    fn ask(
        &self,
        state: &mut State,
        lane: usize,
        key: &CaseKey,
        prepare: Prepare<'_>,
        zygote: bool,
    ) -> io::Result<Asked> {
        if self.zygote && zygote && state.zygote_off.is_none() {
            // A zygote that died (at its group's memory limit with a case, say) is replaced
            // once; one that cannot start or answer ends zygotes for this slot, and so does one
            // that says the script is not for it.
            let mut tries = 0;
            let why = loop {
                tries += 1;
                match self.ask_zygote(state, lane, key, prepare) {
                    Ok(asked) => return Ok(asked),
                    Err(e) if state.broken => return Err(e),
                    Err(e) => {
                        if state.zygotes[lane].take().is_some() {
                            self.end(state, lane)?;
                        }
                        if tries == 2 || e.kind() == io::ErrorKind::Unsupported {
                            break e;
                        }
                    }
                }
            };
            state.zygote_off = Some(why.to_string());
        }
        // The zygote of a lane whose zygotes were turned off goes once its last case has
        // (the other lane's may have a case running now).
        if state.zygotes[lane].take().is_some() {
            self.end(state, lane)?;
        }
        prepare(lane)?;
        let (ours, theirs) = self.pipes(lane)?;
        let request = self.request(START, lane, key, 0);
        self.send(&request, &theirs.each_ref().map(|fd| fd.as_raw_fd()))
            .inspect_err(|_| state.broken = true)?;
        let [stdin, stdout, stderr] = ours;
        Ok(Asked {
            lane,
            key: key.clone(),
            zygote: false,
            stdin,
            stdout,
            stderr,
        })
    }

    /// The three pipes of a case in `lane`: the judge's ends (stdin's write end, stdout's and
    /// stderr's read ends) and the case's, which belong to the lane's user (`/dev/stdin`
    /// reopens the pipe, which checks its owner).
    fn pipes(&self, lane: usize) -> io::Result<([OwnedFd; 3], [OwnedFd; 3])> {
        let (in_r, in_w) = spawn::pipe()?;
        let (out_r, out_w) = spawn::pipe()?;
        let (err_r, err_w) = spawn::pipe()?;
        let uid = self.uids[lane];
        for fd in [&in_r, &out_w, &err_w] {
            // SAFETY: changing the owner of a pipe we just made.
            if unsafe { libc::fchown(fd.as_raw_fd(), uid, uid) } != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(([in_w, out_r, err_r], [in_r, out_w, err_w]))
    }

    /// A request about `lane` for a case with `key` (`program` 1: its zygote).
    fn request(&self, kind: u32, lane: usize, key: &CaseKey, program: u32) -> Request {
        let mut request = Request {
            kind,
            lane: lane as u32,
            environment: u32::from(key.sanitizer),
            program,
            rlimit_count: key.rlimits.len().min(MAX_RLIMITS) as u32,
            rlimits: [[0; 3]; MAX_RLIMITS],
            tmp_options: [0; TMP_OPTIONS],
        };
        for (slot, &(resource, soft, hard)) in request.rlimits.iter_mut().zip(&key.rlimits) {
            *slot = [u64::from(resource), soft, hard];
        }
        let uid = self.uids[lane];
        let options = format!("size={},mode=0700,uid={uid},gid={uid}", key.tmp_bytes);
        request.tmp_options[..options.len()].copy_from_slice(options.as_bytes());
        request
    }

    /// Asks the lane's zygote (started now if it has none for `key`) for a case.
    fn ask_zygote(
        &self,
        state: &mut State,
        lane: usize,
        key: &CaseKey,
        prepare: Prepare<'_>,
    ) -> io::Result<Asked> {
        if state.zygotes[lane].as_ref().is_none_or(|z| z.key != *key) {
            if state.zygotes[lane].take().is_some() {
                self.end(state, lane)?;
            }
            let zygote = self.start_zygote(state, lane, key)?;
            state.zygotes[lane] = Some(zygote);
        }
        // A fresh /tmp before the figures are reset: the last case's files were charged there.
        let reply = self.exchange(state, self.request(REFRESH, lane, key, 0))?;
        if reply.kind != REFRESHED || reply.failed != 0 {
            return Err(failure(&reply, "a fresh /tmp"));
        }
        prepare(lane)?;
        let Some(zygote) = &state.zygotes[lane] else {
            return Err(io::Error::other("no zygote"));
        };
        let (ours, theirs) = self.pipes(lane)?;
        let cpu = key
            .rlimits
            .iter()
            .find(|r| r.0 == libc::RLIMIT_CPU)
            .map_or((libc::RLIM_INFINITY, libc::RLIM_INFINITY), |r| (r.1, r.2));
        let mut message = vec![b'F'];
        message.extend(cpu.0.to_le_bytes());
        message.extend(cpu.1.to_le_bytes());
        // Its streams, then the lane's groups' files: the zygote moves the case there.
        let mut fds: Vec<RawFd> = theirs.iter().map(|fd| fd.as_raw_fd()).collect();
        fds.extend(&self.case_join[lane]);
        // SAFETY: a message of plain bytes and descriptors we own.
        let sent = unsafe { send_bytes(zygote.control.as_raw_fd(), &message, &fds) };
        if sent != message.len() as isize {
            return Err(io::Error::other("the zygote is gone"));
        }
        let [stdin, stdout, stderr] = ours;
        Ok(Asked {
            lane,
            key: key.clone(),
            zygote: true,
            stdin,
            stdout,
            stderr,
        })
    }

    /// Starts the zygote of `lane` for cases with `key`, and waits until it is ready.
    fn start_zygote(&self, state: &mut State, lane: usize, key: &CaseKey) -> io::Result<Zygote> {
        let (control, theirs) = socket_pair()?;
        let (output, output_w) = spawn::pipe()?;
        let uid = self.uids[lane];
        for fd in [&theirs, &output_w] {
            // SAFETY: changing the owner of a socket and a pipe we just made.
            if unsafe { libc::fchown(fd.as_raw_fd(), uid, uid) } != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        // The zygote lives through many cases: no CPU limit of its own (each case gets its
        // own, after the fork).
        let mut zygote_key = key.clone();
        for limit in &mut zygote_key.rlimits {
            if limit.0 == libc::RLIMIT_CPU {
                *limit = (libc::RLIMIT_CPU, libc::RLIM_INFINITY, libc::RLIM_INFINITY);
            }
        }
        let request = self.request(START, lane, &zygote_key, 1);
        let fds = [
            theirs.as_raw_fd(),
            output_w.as_raw_fd(),
            output_w.as_raw_fd(),
        ];
        self.send(&request, &fds)
            .inspect_err(|_| state.broken = true)?;
        drop((theirs, output_w));
        self.receive_started(state, "starting the zygote")?;
        // Its answer; what it writes meanwhile is drained (the last 4 KiB kept, for the reason
        // it gives if it fails), so that it cannot block on a full pipe.
        let mut said = Vec::new();
        let mut answer = [0u8; 512];
        let mut output_open = true;
        let deadline =
            std::time::Instant::now() + std::time::Duration::from_millis(ZYGOTE_START as u64);
        let n = loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                break 0;
            }
            let mut polls = [
                (control.as_raw_fd(), true),
                (output.as_raw_fd(), output_open),
            ]
            .map(|(fd, open)| libc::pollfd {
                fd: if open { fd } else { -1 },
                events: libc::POLLIN,
                revents: 0,
            });
            let millis = left.as_millis().min(60_000) as i32;
            // SAFETY: two pollfds (one perhaps ignored: fd -1).
            if unsafe { libc::poll(polls.as_mut_ptr(), 2, millis) } < 0 {
                if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                break 0;
            }
            if polls[0].revents != 0 {
                // SAFETY: reading into a local buffer.
                let n = unsafe {
                    libc::recv(
                        control.as_raw_fd(),
                        answer.as_mut_ptr().cast(),
                        answer.len(),
                        0,
                    )
                };
                break n.max(0) as usize;
            }
            if polls[1].revents != 0 {
                let mut chunk = [0u8; 4096];
                // SAFETY: reading into a local buffer (the pipe is readable, or closed).
                let got = unsafe {
                    libc::read(output.as_raw_fd(), chunk.as_mut_ptr().cast(), chunk.len())
                };
                if got <= 0 {
                    output_open = false;
                    continue;
                }
                said.extend_from_slice(&chunk[..got as usize]);
                let excess = said.len().saturating_sub(4096);
                said.drain(..excess);
            }
        };
        match answer[..n] {
            [b'R'] => Ok(Zygote {
                key: key.clone(),
                control,
            }),
            [b'N', ref why @ ..] => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!("not for this script: {}", String::from_utf8_lossy(why)),
            )),
            _ => {
                let said = String::from_utf8_lossy(&said);
                let last = said.lines().last().unwrap_or("no answer");
                Err(io::Error::other(format!(
                    "the zygote did not start: {last}"
                )))
            }
        }
    }

    /// Reads the zygote's answer to a case asked of it.
    fn collect_from_zygote(&self, state: &mut State, asked: Asked) -> io::Result<Started> {
        let Some(zygote) = &state.zygotes[asked.lane] else {
            return Err(io::Error::other("no zygote"));
        };
        let mut answer = [0u8; 256];
        let mut fd = -1;
        let n = if wait_readable(&zygote.control, ZYGOTE_ANSWER) {
            // SAFETY: into a local buffer and descriptor.
            unsafe {
                receive_message(
                    zygote.control.as_raw_fd(),
                    answer.as_mut_ptr(),
                    answer.len(),
                    std::slice::from_mut(&mut fd),
                )
            }
        } else {
            -1
        };
        // SAFETY: a descriptor the kernel just gave us.
        let pidfd = (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) });
        match (n, answer[0], pidfd) {
            (1.., b'S', Some(pidfd)) => Ok(Started {
                lane: asked.lane,
                key: asked.key,
                zygote: true,
                pidfd,
                stdin: asked.stdin,
                stdout: asked.stdout,
                stderr: asked.stderr,
            }),
            (1.., b'E', _) => Err(io::Error::other(format!(
                "the zygote could not fork: {}",
                String::from_utf8_lossy(&answer[1..n as usize])
            ))),
            _ => {
                // Gone or hanging: the lane's zygote is replaced at its next case.
                state.zygotes[asked.lane] = None;
                self.end(state, asked.lane)?;
                Err(io::Error::other("the zygote did not answer"))
            }
        }
    }

    /// Asks the server to end what runs in `lane` (a case, or its zygote) and reads its answer.
    fn end(&self, state: &mut State, lane: usize) -> io::Result<Reply> {
        let reply = self.exchange(state, Request::plain(FINISH, lane))?;
        if reply.failed != 0 {
            return Err(failure(&reply, "ending a case"));
        }
        Ok(reply)
    }

    /// Sends a request without descriptors and reads its answer (after an outstanding
    /// prestart's from the server, which is kept).
    fn exchange(&self, state: &mut State, request: Request) -> io::Result<Reply> {
        self.send(&request, &[])
            .inspect_err(|_| state.broken = true)?;
        if state.asked.as_ref().is_some_and(|a| !a.zygote) {
            self.collect(state);
        }
        if state.broken {
            return Err(io::Error::other("the fork server stopped answering"));
        }
        let (reply, _) = self.next_reply(state)?;
        let expected = match request.kind {
            FINISH => FINISHED,
            _ => REFRESHED,
        };
        if reply.kind != expected {
            state.broken = true;
            return Err(io::Error::other("the fork server answered out of turn"));
        }
        Ok(reply)
    }

    fn send(&self, request: &Request, fds: &[RawFd]) -> io::Result<()> {
        // SAFETY: a message of plain data and descriptors we own.
        let n = unsafe { send_message(self.control.as_raw_fd(), request, fds) };
        if n != std::mem::size_of::<Request>() as isize {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// The server's next answer, after those to GOs.
    fn next_reply(&self, state: &mut State) -> io::Result<(Reply, Option<OwnedFd>)> {
        loop {
            let (reply, fd) = self.receive().inspect_err(|_| state.broken = true)?;
            if reply.kind == GONE && state.going > 0 {
                state.going -= 1;
                continue;
            }
            return Ok((reply, fd));
        }
    }

    fn receive(&self) -> io::Result<(Reply, Option<OwnedFd>)> {
        let mut reply = Reply::default();
        let mut fd = -1;
        // SAFETY: into a local reply and descriptor.
        let n = unsafe {
            receive_message(
                self.control.as_raw_fd(),
                (&mut reply as *mut Reply).cast(),
                std::mem::size_of::<Reply>(),
                std::slice::from_mut(&mut fd),
            )
        };
        if n != std::mem::size_of::<Reply>() as isize {
            return Err(if n < 0 {
                io::Error::last_os_error()
            } else {
                io::Error::other("the fork server is gone")
            });
        }
        // SAFETY: a descriptor the kernel just gave us.
        let fd = (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) });
        Ok((reply, fd))
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

fn failure(reply: &Reply, doing: &str) -> io::Error {
    let stage = reply.failed.saturating_sub(1) as u8;
    if stage == STAGE_SERVER + STEP_NO_TRACING {
        io::Error::other(format!(
            "{doing}: a case cannot stop at its exec as the server's tracee here (ptrace is \
             not allowed: Yama's ptrace_scope, or the judge is being traced)"
        ))
    } else if stage >= STAGE_SERVER {
        io::Error::other(format!(
            "{doing}: the fork server's step {} failed: {}",
            stage - STAGE_SERVER,
            io::Error::from_raw_os_error(reply.errno)
        ))
    } else {
        spawn::start_error(stage, reply.errno)
    }
}

/// How long a zygote may take to start, and to answer for a case.
const ZYGOTE_START: i32 = 20_000;
const ZYGOTE_ANSWER: i32 = 10_000;

/// Waits up to `millis` for `fd` to be readable.
fn wait_readable(fd: &OwnedFd, millis: i32) -> bool {
    let mut poll = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    loop {
        // SAFETY: one valid pollfd.
        let n = unsafe { libc::poll(&mut poll, 1, millis) };
        if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
            continue;
        }
        return n == 1;
    }
}

/// Kills the zygote's case (with its PID namespace) and returns its wait status; an error of
/// kind `TimedOut` if the zygote did not answer in time, another if it is gone.
fn zygote_end(zygote: &Zygote) -> io::Result<i32> {
    // SAFETY: plain bytes over our socket.
    let sent = unsafe { send_bytes(zygote.control.as_raw_fd(), b"K", &[]) };
    if sent != 1 {
        return Err(io::Error::other("the zygote is gone"));
    }
    if !wait_readable(&zygote.control, ZYGOTE_ANSWER) {
        return Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the zygote did not say how the case ended",
        ));
    }
    let mut status = [0u8; 4];
    // SAFETY: into a local buffer.
    if unsafe { libc::recv(zygote.control.as_raw_fd(), status.as_mut_ptr().cast(), 4, 0) } != 4 {
        return Err(io::Error::other("the zygote is gone"));
    }
    Ok(i32::from_le_bytes(status))
}

/// `sendmsg` of plain bytes with `fds` attached.
unsafe fn send_bytes(socket: RawFd, bytes: &[u8], fds: &[RawFd]) -> isize {
    // SAFETY: the same message as `send_message`'s, over a byte slice.
    unsafe { send_raw(socket, bytes.as_ptr(), bytes.len(), fds) }
}

/// Room for eight descriptors in a control message (`CMSG_SPACE(32)` = 48 on Linux).
#[repr(C, align(8))]
struct ControlBuffer([u8; 64]);

/// The most descriptors a message carries: a case's streams and a lane's three v1 groups.
const MAX_FDS: usize = 8;

/// `sendmsg` of `data` with `fds` attached. Raw: the server uses it too.
unsafe fn send_message<T>(socket: RawFd, data: &T, fds: &[RawFd]) -> isize {
    // SAFETY: a plain-data value, sent as its bytes.
    unsafe {
        send_raw(
            socket,
            (data as *const T).cast(),
            std::mem::size_of::<T>(),
            fds,
        )
    }
}

unsafe fn send_raw(socket: RawFd, data: *const u8, len: usize, fds: &[RawFd]) -> isize {
    // SAFETY: building a msghdr over local buffers; `fds` fits in the control buffer.
    unsafe {
        let mut iov = libc::iovec {
            iov_base: data.cast_mut().cast(),
            iov_len: len,
        };
        let mut control = ControlBuffer([0; 64]);
        let mut message: libc::msghdr = std::mem::zeroed();
        message.msg_iov = &mut iov;
        message.msg_iovlen = 1;
        if !fds.is_empty() && fds.len() <= MAX_FDS {
            let bytes = std::mem::size_of_val(fds) as u32;
            message.msg_control = control.0.as_mut_ptr().cast();
            message.msg_controllen = libc::CMSG_SPACE(bytes) as usize;
            let header = libc::CMSG_FIRSTHDR(&message);
            (*header).cmsg_level = libc::SOL_SOCKET;
            (*header).cmsg_type = libc::SCM_RIGHTS;
            (*header).cmsg_len = libc::CMSG_LEN(bytes) as usize;
            std::ptr::copy_nonoverlapping(
                fds.as_ptr().cast::<u8>(),
                libc::CMSG_DATA(header),
                bytes as usize,
            );
        }
        libc::sendmsg(socket, &message, libc::MSG_NOSIGNAL)
    }
}

/// `recvmsg` into `data`, with up to `fds.len()` descriptors (close-on-exec) into `fds`
/// (unset ones stay as they were). Raw: the server uses it too.
unsafe fn receive_message(socket: RawFd, data: *mut u8, len: usize, fds: &mut [RawFd]) -> isize {
    // SAFETY: a msghdr over local buffers; descriptors are copied out of the control data.
    unsafe {
        let mut iov = libc::iovec {
            iov_base: data.cast(),
            iov_len: len,
        };
        let mut control = ControlBuffer([0; 64]);
        let mut message: libc::msghdr = std::mem::zeroed();
        message.msg_iov = &mut iov;
        message.msg_iovlen = 1;
        message.msg_control = control.0.as_mut_ptr().cast();
        message.msg_controllen = control.0.len();
        let n = libc::recvmsg(socket, &mut message, libc::MSG_CMSG_CLOEXEC);
        let mut header = libc::CMSG_FIRSTHDR(&message);
        while !header.is_null() {
            if (*header).cmsg_level == libc::SOL_SOCKET && (*header).cmsg_type == libc::SCM_RIGHTS {
                let count = ((*header).cmsg_len - libc::CMSG_LEN(0) as usize)
                    / std::mem::size_of::<RawFd>();
                let data = libc::CMSG_DATA(header).cast::<RawFd>();
                for k in 0..count {
                    let fd = data.add(k).read_unaligned();
                    match fds.get_mut(k) {
                        Some(slot) => *slot = fd,
                        None => {
                            libc::close(fd);
                        }
                    }
                }
            }
            header = libc::CMSG_NXTHDR(&message, header);
        }
        n
    }
}

// ---- The server's side: raw system calls only, no allocation. ----

extern "C" fn server_main(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` points at the ServerArgs in this process's copy of the judge's memory.
    unsafe { serve(&*(arg as *const ServerArgs<'_>)) }
}

/// Sends a reply (and perhaps a descriptor) to the judge.
unsafe fn reply(control: RawFd, kind: u32, failed: u32, errno: i32, status: i32, fd: RawFd) {
    let reply = Reply {
        kind,
        failed,
        errno,
        status,
    };
    // SAFETY: a message of plain data.
    unsafe {
        if fd >= 0 {
            send_message(control, &reply, &[fd]);
        } else {
            send_message(control, &reply, &[]);
        }
    }
}

fn errno() -> i32 {
    // SAFETY: reading this thread's errno.
    unsafe { *libc::__errno_location() }
}

/// Kills a case's top process (the kernel then kills its whole PID namespace) and reaps it.
unsafe fn end_case(pid: libc::pid_t) -> i32 {
    let mut status = 0;
    // SAFETY: signals to and reaping of our own child.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
        while libc::waitpid(pid, &mut status, 0) < 0 && errno() == libc::EINTR {}
    }
    status
}

/// The case's side of the clone: set up and exec (see [`spawn::become_submission`]).
struct CaseArgs<'a> {
    plan: &'a spawn::Plan<'a>,
    rlimits: &'a [Rlimit],
    argv: &'a [*const libc::c_char],
    envp: &'a [*const libc::c_char],
    stdio: [RawFd; 3],
    error_fd: RawFd,
    /// A submission's case: it stops at the end of its `exec` until the server lets it go.
    stop_at_exec: bool,
}

extern "C" fn case_main(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` points at the server's CaseArgs, alive until exec or exit (the server is
    // suspended until then: CLONE_VFORK).
    unsafe {
        let a = &*(arg as *const CaseArgs<'_>);
        spawn::become_submission(
            a.plan,
            a.rlimits,
            a.argv,
            a.envp,
            a.stdio,
            a.error_fd,
            a.stop_at_exec,
        )
    }
}

/// Closes every descriptor but those in `keep` (sorted).
unsafe fn close_all_but(keep: &[RawFd]) {
    let mut from = 3u32;
    // SAFETY: closing descriptors of this process.
    unsafe {
        for &fd in keep {
            let fd = fd as u32;
            if fd < from {
                continue;
            }
            if fd > from {
                libc::syscall(libc::SYS_close_range, from, fd - 1, 0u32);
            }
            from = fd + 1;
        }
        libc::syscall(libc::SYS_close_range, from, u32::MAX, 0u32);
    }
}

unsafe fn serve(a: &ServerArgs<'_>) -> ! {
    // SAFETY: raw system calls on data prepared before the fork.
    unsafe {
        // Not in the judge's session: a terminal's Ctrl-C goes to the judge, which ends the
        // server by closing its socket. None of the judge's signal handlers runs here.
        libc::setsid();
        for signal in 1..32 {
            if signal != libc::SIGKILL && signal != libc::SIGSTOP {
                libc::signal(signal, libc::SIG_DFL);
            }
        }
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        // Its memory is the judge's: nobody may read it.
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        // A judge thread may have held it at the fork; here only the server and its vfork
        // children run, one at a time.
        spawn::unlock_uid_change();
        for target in 0..3 {
            libc::dup2(a.null, target);
        }
        close_all_but(a.keep);
        let control = a.control;
        let fail = |step: u8| -> ! {
            reply(
                control,
                READY,
                1 + u32::from(STAGE_SERVER + step),
                errno(),
                0,
                -1,
            );
            libc::_exit(1)
        };
        if libc::setns(a.network, libc::CLONE_NEWNET) != 0
            || libc::setns(a.uts, libc::CLONE_NEWUTS) != 0
            || libc::setns(a.mount, libc::CLONE_NEWNS) != 0
            || libc::unshare(libc::CLONE_NEWNS) != 0
        {
            fail(0);
        }
        // A `/proc` of the slot's PID namespace where a process sees only those it could
        // trace: its own (not the server, nor the other lane's case).
        if libc::mount(
            c"proc".as_ptr(),
            c"/proc".as_ptr(),
            c"proc".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            c"hidepid=invisible".as_ptr().cast(),
        ) != 0
        {
            fail(1);
        }
        // Each case mounts a /proc of its own over this one (its lane's, the same device):
        // what is unmounted after a case is anything else there.
        let server_proc = device_of(c"/proc");
        // Each case's pid in this namespace (what `/proc/self` names) is drawn at random: it
        // can neither count cases nor learn how many processes the other lane's case has.
        let last_pid = libc::open(
            c"/proc/sys/kernel/ns_last_pid".as_ptr(),
            libc::O_WRONLY | libc::O_CLOEXEC,
        );
        let pid_max = read_number(c"/proc/sys/kernel/pid_max").unwrap_or(32768);
        let base = libc::open(
            c"/proc/self/ns/mnt".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        );
        let base_network = libc::open(
            c"/proc/self/ns/net".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        );
        if base < 0 || base_network < 0 {
            fail(2);
        }
        // Each lane: a mount namespace (its own /tmp) and a network namespace of its own (two
        // concurrent cases must not see each other's sockets, nor taken ports or names).
        let mut lanes = [(-1, -1); 2];
        for lane in &mut lanes {
            if libc::unshare(libc::CLONE_NEWNS | libc::CLONE_NEWNET) != 0 {
                fail(3);
            }
            lane.0 = libc::open(
                c"/proc/self/ns/mnt".as_ptr(),
                libc::O_RDONLY | libc::O_CLOEXEC,
            );
            lane.1 = libc::open(
                c"/proc/self/ns/net".as_ptr(),
                libc::O_RDONLY | libc::O_CLOEXEC,
            );
            if lane.0 < 0
                || lane.1 < 0
                || libc::setns(base, libc::CLONE_NEWNS) != 0
                || libc::setns(base_network, libc::CLONE_NEWNET) != 0
            {
                fail(4);
            }
        }
        // A case stops at its `exec` as the server's tracee: ptrace may be forbidden here (Yama's
        // ptrace_scope 3, or a judge that is itself being traced). Tried on a program of the
        // box's `/usr`: the submission never runs as root, not even stopped.
        if !stops_at_exec(c"/usr/bin/true", a.case_stack) {
            fail(STEP_NO_TRACING);
        }
        reply(control, READY, 0, 0, 0, -1);
        let mut pids: [libc::pid_t; 2] = [0; 2];
        let mut tmp = [false; 2];
        loop {
            let mut request: Request = std::mem::zeroed();
            let mut fds = [-1; 3];
            let n = receive_message(
                control,
                (&mut request as *mut Request).cast(),
                std::mem::size_of::<Request>(),
                &mut fds,
            );
            if n != std::mem::size_of::<Request>() as isize {
                if n < 0 && errno() == libc::EINTR {
                    continue;
                }
                // The judge is gone (or closed the socket): end everything.
                break;
            }
            let lane = (request.lane as usize).min(1);
            match request.kind {
                START => {
                    random_last_pid(last_pid, pid_max);
                    let (failed, error, fd) = start_case(
                        a,
                        request,
                        fds,
                        lanes[lane],
                        &mut pids[lane],
                        &mut tmp[lane],
                        server_proc,
                    );
                    reply(control, STARTED, failed, error, 0, fd);
                    if fd >= 0 {
                        libc::close(fd);
                    }
                }
                GO => {
                    // A case that is gone already (killed at its memory limit in its `exec`,
                    // say) is the judge's to see: its pidfd says it ended.
                    if pids[lane] > 0 {
                        libc::ptrace(libc::PTRACE_DETACH, pids[lane], 0, 0);
                    }
                    reply(control, GONE, 0, 0, 0, -1);
                }
                REFRESH => {
                    let failed = if libc::setns(lanes[lane].0, libc::CLONE_NEWNS) != 0 {
                        1 + u32::from(STAGE_SERVER + 5)
                    } else {
                        fresh_tmp(&request, &mut tmp[lane])
                    };
                    // The zygote's next case too.
                    random_last_pid(last_pid, pid_max);
                    reply(control, REFRESHED, failed, errno(), 0, -1);
                }
                FINISH => {
                    let status = if pids[lane] > 0 {
                        end_case(pids[lane])
                    } else {
                        0
                    };
                    pids[lane] = 0;
                    reply(control, FINISHED, 0, 0, status, -1);
                    // Its /proc and its files go now, while the judge checks the case: before
                    // the server reads its next request. (The files' pages are charged to the
                    // lane's memory group: the judge, resetting its figures, waits for them to
                    // go if they have not.)
                    if libc::setns(lanes[lane].0, libc::CLONE_NEWNS) == 0 {
                        unmount_case_proc(server_proc);
                        if tmp[lane] {
                            libc::umount2(c"/tmp".as_ptr(), libc::MNT_DETACH);
                            tmp[lane] = false;
                        }
                    }
                }
                _ => {}
            }
            for fd in fds {
                if fd >= 0 {
                    libc::close(fd);
                }
            }
        }
        for pid in pids {
            if pid > 0 {
                end_case(pid);
            }
        }
        libc::_exit(0)
    }
}

/// Can a child of the server be traced by it, and stop at the end of its `exec` of `program`?
/// (Raw calls: for the server; `stack` is the case stack, free at the start.)
unsafe fn stops_at_exec(program: &std::ffi::CStr, stack: *mut u8) -> bool {
    extern "C" fn probe(arg: *mut c_void) -> c_int {
        // SAFETY: `arg` is the program's NUL-terminated path; raw calls, then exec or exit.
        unsafe {
            let argv = [arg as *const libc::c_char, std::ptr::null()];
            let envp = [std::ptr::null::<libc::c_char>()];
            if libc::ptrace(libc::PTRACE_TRACEME, 0, 0, 0) == 0 {
                libc::execve(arg as *const libc::c_char, argv.as_ptr(), envp.as_ptr());
            }
            libc::_exit(127)
        }
    }
    // SAFETY: a vfork-style child on the free case stack, reaped here.
    unsafe {
        let top = (stack as usize + CASE_STACK) & !15;
        let child = libc::clone(
            probe,
            top as *mut c_void,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            program.as_ptr().cast_mut().cast(),
        );
        if child < 0 {
            return false;
        }
        let mut status = 0;
        while libc::waitpid(child, &mut status, libc::__WALL) < 0 && errno() == libc::EINTR {}
        let stopped = libc::WIFSTOPPED(status);
        if stopped {
            end_case(child);
        }
        stopped
    }
}

/// Starts one case in a lane: a fresh `/tmp`, then the program. Returns (failed, errno, pidfd).
unsafe fn start_case(
    a: &ServerArgs<'_>,
    request: Request,
    stdio: [RawFd; 3],
    lane_namespaces: (RawFd, RawFd),
    pid: &mut libc::pid_t,
    tmp: &mut bool,
    server_proc: u64,
) -> (u32, i32, RawFd) {
    let server_step = |step: u8| (1 + u32::from(STAGE_SERVER + step), errno(), -1);
    // SAFETY: raw system calls on the server's own data.
    unsafe {
        if stdio.iter().any(|&fd| fd < 0) {
            return (1 + u32::from(STAGE_SERVER + 10), libc::EBADF, -1);
        }
        if *pid > 0 {
            end_case(*pid);
            *pid = 0;
        }
        if libc::setns(lane_namespaces.0, libc::CLONE_NEWNS) != 0
            || libc::setns(lane_namespaces.1, libc::CLONE_NEWNET) != 0
        {
            return server_step(5);
        }
        // One an earlier case mounted and did not get to run with (it failed to start).
        unmount_case_proc(server_proc);
        let failed = fresh_tmp(&request, tmp);
        if failed != 0 {
            return (failed, errno(), -1);
        }
        let mut rlimits: [Rlimit; MAX_RLIMITS] = [(0, 0, 0); MAX_RLIMITS];
        let count = (request.rlimit_count as usize).min(MAX_RLIMITS);
        for (slot, limit) in rlimits.iter_mut().zip(&request.rlimits[..count]) {
            *slot = (limit[0] as libc::__rlimit_resource_t, limit[1], limit[2]);
        }
        let mut error = [0; 2];
        if libc::pipe2(error.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return server_step(6);
        }
        let program = (request.program as usize).min(1);
        let lane = &a.lanes[program][(request.lane as usize).min(1)];
        let args = CaseArgs {
            plan: &lane.plan,
            rlimits: &rlimits[..count],
            argv: a.argv[program],
            envp: a.environments[(request.environment as usize).min(1)],
            stdio,
            error_fd: error[1],
            // A zygote starts at once: nothing of the submission runs in it before a case.
            stop_at_exec: program == 0,
        };
        let top = (a.case_stack as usize + CASE_STACK) & !15;
        // A case is PID 1 of a PID namespace of its own (killed with everything it started);
        // a zygote makes one per case itself, in its own user namespace.
        let pid_namespace = if program == 0 { libc::CLONE_NEWPID } else { 0 };
        let child = libc::clone(
            case_main,
            top as *mut c_void,
            libc::CLONE_VM | libc::CLONE_VFORK | pid_namespace | libc::CLONE_NEWIPC | libc::SIGCHLD,
            (&args as *const CaseArgs<'_>).cast_mut().cast(),
        );
        let clone_errno = errno();
        libc::close(error[1]);
        if child < 0 {
            libc::close(error[0]);
            return (1 + u32::from(STAGE_SERVER + 7), clone_errno, -1);
        }
        // The child has exec'd or exited (CLONE_VFORK): a record here says why it stopped.
        let mut record = [0u8; 5];
        let n = libc::read(error[0], record.as_mut_ptr().cast(), record.len());
        libc::close(error[0]);
        if n == 5 {
            let mut status = 0;
            libc::waitpid(child, &mut status, 0);
            let errno = i32::from_ne_bytes([record[1], record[2], record[3], record[4]]);
            return (1 + u32::from(record[0]), errno, -1);
        }
        if program == 0 {
            // Stopped at the end of its `exec` (SIGTRAP, for its tracer), or ended there.
            let mut status = 0;
            while libc::waitpid(child, &mut status, libc::__WALL) < 0 && errno() == libc::EINTR {}
            if !libc::WIFSTOPPED(status) {
                // It ended (and is reaped) before its program's first instruction.
                return (1 + u32::from(STAGE_SERVER + 9), libc::ECHILD, -1);
            }
        }
        *pid = child;
        let pidfd = libc::syscall(libc::SYS_pidfd_open, child, 0) as RawFd;
        if pidfd < 0 {
            let e = errno();
            end_case(child);
            *pid = 0;
            return (1 + u32::from(STAGE_SERVER + 8), e, -1);
        }
        (0, 0, pidfd)
    }
}

/// In the server, in a lane's mount namespace: replaces its `/tmp` with an empty tmpfs (with the
/// request's options). Returns 0, or 1 + the stage that failed.
unsafe fn fresh_tmp(request: &Request, mounted: &mut bool) -> u32 {
    // SAFETY: raw system calls on the server's own data.
    unsafe {
        if *mounted {
            libc::umount2(c"/tmp".as_ptr(), libc::MNT_DETACH);
            *mounted = false;
        }
        let mut options = request.tmp_options;
        options[TMP_OPTIONS - 1] = 0;
        if libc::mount(
            c"tmp".as_ptr(),
            c"/tmp".as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            options.as_ptr().cast(),
        ) != 0
        {
            return 1 + 8;
        }
        *mounted = true;
        0
    }
}

/// Reads a small decimal number from a file (raw calls: for the server).
unsafe fn read_number(path: &std::ffi::CStr) -> Option<u64> {
    // SAFETY: raw system calls into a local buffer.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return None;
        }
        let mut buffer = [0u8; 32];
        let n = libc::read(fd, buffer.as_mut_ptr().cast(), buffer.len());
        libc::close(fd);
        let mut value = 0u64;
        let mut digits = 0;
        for &b in buffer.iter().take(n.max(0) as usize) {
            if !b.is_ascii_digit() {
                break;
            }
            value = value * 10 + u64::from(b - b'0');
            digits += 1;
        }
        (digits > 0).then_some(value)
    }
}

/// Sets the PID namespace's last pid to a random number, so that the next process's pid there
/// tells nothing (raw calls: for the server).
unsafe fn random_last_pid(last_pid: RawFd, pid_max: u64) {
    if last_pid < 0 || pid_max < 4096 {
        return;
    }
    let mut random = [0u8; 8];
    // SAFETY: raw system calls into local buffers.
    unsafe {
        // The system call itself: glibc's getrandom may keep state per thread, which a raw
        // fork of the judge's thread does not set up.
        if libc::syscall(libc::SYS_getrandom, random.as_mut_ptr(), random.len(), 0u32) != 8 {
            return;
        }
        // Clear of the lowest pids (the server, the zygotes) and of the top (wrapping).
        let value = 1000 + u64::from_ne_bytes(random) % (pid_max - 2048);
        let mut text = [0u8; 20];
        let mut start = text.len();
        let mut rest = value;
        loop {
            start -= 1;
            text[start] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        libc::pwrite(
            last_pid,
            text[start..].as_ptr().cast(),
            text.len() - start,
            0,
        );
    }
}

/// The device of a path (0 if it cannot be read), raw: for the server.
unsafe fn device_of(path: &std::ffi::CStr) -> u64 {
    // SAFETY: a raw system call into a zeroed local structure.
    unsafe {
        let mut stat: libc::stat = std::mem::zeroed();
        if libc::stat(path.as_ptr(), &mut stat) != 0 {
            return 0;
        }
        stat.st_dev
    }
}

/// In a lane's mount namespace: unmounts the `/proc` a case mounted over the server's.
unsafe fn unmount_case_proc(server_proc: u64) {
    // SAFETY: raw system calls on static strings.
    unsafe {
        while device_of(c"/proc") != server_proc {
            if libc::umount2(c"/proc".as_ptr(), libc::MNT_DETACH) != 0 {
                break;
            }
        }
    }
}
