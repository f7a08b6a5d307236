//! The fork server's own side, and its cases' until their `exec`: everything here runs in the
//! server (a fork of the multi-threaded judge) or in a case cloned from it, so it makes raw
//! system calls only, on data prepared before the fork, and never allocates.

use std::ffi::c_int;
use std::os::fd::RawFd;

use crate::clone::{self, Memory};
use crate::error::{ChildStage, ServerStep};
use crate::keeper::{self, KEEPER_STACK, KeeperState};
use crate::spawn;

use super::LanePlan;
use super::protocol::{
    FINISH, FINISHED, GO, GONE, MAX_RLIMITS, NEW_NETWORK, READY, REFRESH, REFRESHED, Reply,
    Request, Rlimit, START, STARTED, TMP_OPTIONS, UNPLACED, failed_child, failed_server,
    receive_message, send_message,
};

/// The stack of a case until its `exec`.
pub(super) const CASE_STACK: usize = 64 * 1024;

/// Everything the server needs, in its copy of the judge's memory.
pub(super) struct ServerArgs<'a> {
    pub(super) control: RawFd,
    pub(super) null: RawFd,
    pub(super) network: RawFd,
    pub(super) uts: RawFd,
    pub(super) mount: RawFd,
    /// Descriptors the server keeps, sorted (every other one is closed).
    pub(super) keep: &'a [RawFd],
    /// The submission's plans, and its zygotes' (in their own groups).
    pub(super) lanes: [&'a [LanePlan<'a>; 2]; 2],
    /// The submission's argument words, and its zygote's.
    pub(super) argv: [&'a [*const libc::c_char]; 2],
    pub(super) environments: [&'a [*const libc::c_char]; 2],
    /// The stack of its cases until their `exec` ([`CASE_STACK`] bytes, allocated by the judge
    /// before the fork).
    pub(super) case_stack: &'a mut [u8],
    /// Where the server and its cases run ([`crate::cpus`]).
    pub(super) cpus: Option<super::Cpus>,
}

/// The server: a [`crate::clone::clone`] child (a fork) of the judge, in the slot's new PID
/// namespace. Never returns.
///
/// # Safety
///
/// Called only as a [`crate::clone::clone`] child, with [`ServerArgs`] whose descriptors and
/// pointers were prepared by the judge before the fork.
pub(super) unsafe fn server_main(args: &mut ServerArgs<'_>) -> c_int {
    // SAFETY: the ServerArgs in this process's copy of the judge's memory.
    unsafe { serve(args) }
}

/// Sends a reply (and perhaps a descriptor) to the judge.
///
/// # Safety
///
/// `control` must be the server's end of its control socket, and `fd` -1 or a descriptor the
/// server owns (the judge gets a copy of it).
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

/// Kills a case's program (or the zygote) and reaps it, returning its wait status. (What is left
/// of a case's PID namespace goes with its keeper: [`end_lane_case`].)
///
/// # Safety
///
/// `pid` must be a child of the calling process that nothing else reaps: once reaped, its
/// number may be another process's.
unsafe fn end_case(pid: libc::pid_t) -> i32 {
    let mut status = 0;
    // SAFETY: signals to and reaping of our own child.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
        while libc::waitpid(pid, &mut status, 0) < 0 && errno() == libc::EINTR {}
    }
    status
}

/// A lane's keeper: the init of its case's PID namespace (see [`crate::keeper`]), on a stack
/// in the server's memory.
struct LaneKeeper {
    /// Its pid (0: none).
    pid: libc::pid_t,
    stack: [u8; KEEPER_STACK],
    state: KeeperState,
    /// A pidfd of its case's program, watched between requests ([`reap_ended`]), or -1.
    program: RawFd,
    /// The wait status of its case's program, once reaped by [`reap_ended`].
    ended: i32,
}

impl LaneKeeper {
    const fn new() -> LaneKeeper {
        LaneKeeper {
            pid: 0,
            stack: [0; KEEPER_STACK],
            state: KeeperState::new(-1),
            program: -1,
            ended: 0,
        }
    }
}

/// Waits until the judge's next request is there, reaping meanwhile each lane's program that
/// ends (keeping its wait status for the case's end): a keeper's exit, which kills whatever its
/// program left and starts when the program ends, completes only once the program is reaped;
/// so it completes now, while the judge reads the case's output, and the case's end
/// ([`end_lane_case`]) need not wait for it to be scheduled.
///
/// # Safety
///
/// In the server only: `pids` and `keepers` its lanes' (each program a child of the server not
/// reaped elsewhere), `control` its socket.
unsafe fn reap_ended(control: RawFd, pids: &mut [libc::pid_t; 2], keepers: &mut [LaneKeeper; 2]) {
    // SAFETY: raw calls on the server's own descriptors and children.
    unsafe {
        loop {
            let mut fds = [
                libc::pollfd {
                    fd: control,
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: keepers[0].program,
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: keepers[1].program,
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            if fds[1].fd < 0 && fds[2].fd < 0 {
                return;
            }
            if libc::poll(fds.as_mut_ptr(), 3, -1) < 0 {
                if errno() == libc::EINTR {
                    continue;
                }
                return;
            }
            for lane in 0..2 {
                if fds[lane + 1].revents == 0 {
                    continue;
                }
                let mut status = 0;
                if pids[lane] > 0 && libc::waitpid(pids[lane], &mut status, libc::WNOHANG) > 0 {
                    keepers[lane].ended = status;
                    pids[lane] = 0;
                }
                libc::close(keepers[lane].program);
                keepers[lane].program = -1;
            }
            if fds[0].revents != 0 {
                return;
            }
        }
    }
}

/// Ends a lane's case: its program first (whose wait status this returns, 0 if none), then its
/// keeper, whose end waits for everything else of the case's PID namespace to be gone.
///
/// # Safety
///
/// `*pid` (0: none) must be a case the server started and has not reaped, `keeper` the lane's.
unsafe fn end_lane_case(pid: &mut libc::pid_t, keeper: &mut LaneKeeper) -> i32 {
    // SAFETY: our own children, reaped here only; the server's own descriptor.
    unsafe {
        let status = if *pid > 0 {
            end_case(*pid)
        } else {
            keeper.ended
        };
        *pid = 0;
        keeper.ended = 0;
        if keeper.program >= 0 {
            libc::close(keeper.program);
            keeper.program = -1;
        }
        end_keeper(keeper);
        status
    }
}

/// Kills and reaps a lane's keeper, if it has one (its program reaped first).
///
/// # Safety
///
/// The keeper's program must have been reaped.
unsafe fn end_keeper(keeper: &mut LaneKeeper) {
    if keeper.pid > 0 {
        // SAFETY: the server's own child.
        unsafe { keeper::end(keeper.pid) };
        keeper.pid = 0;
    }
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

/// A case: a [`crate::clone::clone`] child of the server, sharing its memory.
///
/// # Safety
///
/// As [`spawn::become_submission`]'s: called only as a [`crate::clone::clone`] child.
unsafe fn case_main(a: &mut CaseArgs<'_>) -> c_int {
    // SAFETY: the server's CaseArgs, alive until exec or exit (the server is suspended until
    // then: CLONE_VFORK).
    unsafe {
        spawn::become_submission(
            a.plan,
            a.rlimits,
            a.argv,
            a.envp,
            a.stdio,
            a.error_fd,
            // A submission's case stops at its exec; the zygote installs the filter in each
            // of its cases after making their namespaces.
            if a.stop_at_exec {
                spawn::Start::StoppedAtExec
            } else {
                spawn::Start::Zygote
            },
        )
    }
}

/// Closes every descriptor but those in `keep` (sorted).
///
/// # Safety
///
/// Every descriptor from 3 up not in `keep` is closed under whatever owns it: only for a
/// process where nothing else uses them (the server just after its fork: no other thread,
/// none of the judge's code runs there).
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

/// The server's life: it leaves the judge's session and signal state, keeps only its own
/// descriptors, enters the slot's namespaces, mounts `/proc`, makes the lanes, checks that a
/// case can stop at its `exec`, says it is ready, then answers the judge's requests until
/// the judge closes the socket; then it ends its cases and exits. Never returns.
///
/// # Safety
///
/// Only as the server: the [`crate::clone::clone`] child that [`server_main`] is (a copy of
/// the judge's memory, PID 1 of a new PID namespace), with `a` as the judge prepared it (its
/// descriptors open in this process, its pointers into this copy of the judge's memory).
unsafe fn serve(a: &mut ServerArgs<'_>) -> ! {
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
        let fail = |step: ServerStep| -> ! {
            reply(control, READY, failed_server(step), errno(), 0, -1);
            libc::_exit(1)
        };
        if libc::setns(a.network, libc::CLONE_NEWNET) != 0
            || libc::setns(a.uts, libc::CLONE_NEWUTS) != 0
            || libc::setns(a.mount, libc::CLONE_NEWNS) != 0
            || libc::unshare(libc::CLONE_NEWNS) != 0
        {
            fail(ServerStep::EnterSlotNamespaces);
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
            fail(ServerStep::MountProc);
        }
        // Each case mounts a /proc of its own over this one (its lane's, the same device):
        // what is unmounted after a case is anything else there.
        let server_proc = device_of(c"/proc");
        // The server's own PID namespace, where its children go back after a case's keeper
        // and program were made in a new one.
        let own_pid_namespace = libc::open(
            c"/proc/self/ns/pid".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        );
        if own_pid_namespace < 0 {
            fail(ServerStep::OpenNamespaces);
        }
        // Each lane's keeper (the stacks here, on the server's own stack: the server never
        // returns).
        let mut keepers = [LaneKeeper::new(), LaneKeeper::new()];
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
            fail(ServerStep::OpenNamespaces);
        }
        // Each lane: a mount namespace (its own /tmp) and a network namespace of its own (two
        // concurrent cases must not see each other's sockets, nor taken ports or names).
        let mut lanes = [(-1, -1); 2];
        for lane in &mut lanes {
            if libc::unshare(libc::CLONE_NEWNS | libc::CLONE_NEWNET) != 0 {
                fail(ServerStep::MakeLanes);
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
                fail(ServerStep::LaneNamespaces);
            }
        }
        // A case stops at its `exec` as the server's tracee: ptrace may be forbidden here (Yama's
        // ptrace_scope 3, or a judge that is itself being traced). Tried on a program of the
        // box's `/usr`: the submission never runs as root, not even stopped.
        if !stops_at_exec(c"/usr/bin/true", a.case_stack) {
            fail(ServerStep::NoTracing);
        }
        // Off the cases' CPU: what it starts (the next case, up to its `exec`; keepers) runs
        // here too. (A judge whose mask another changed meanwhile is still correct, only
        // slower.)
        let size = std::mem::size_of::<libc::cpu_set_t>();
        let mut cpus = a.cpus;
        if let Some(cpus) = &cpus {
            libc::sched_setaffinity(0, size, &cpus.server);
        }
        reply(control, READY, 0, 0, 0, -1);
        let mut pids: [libc::pid_t; 2] = [0; 2];
        let mut tmp = [false; 2];
        loop {
            reap_ended(control, &mut pids, &mut keepers);
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
                        &mut lanes[lane],
                        &mut pids[lane],
                        (&mut keepers[lane], own_pid_namespace),
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
                    let mut status = 0;
                    if pids[lane] > 0 {
                        // Onto the cases' CPU, before it runs its first instruction. If it cannot
                        // be moved (no CAP_SYS_NICE here), the server stops placing cases and
                        // goes back to every CPU, so that the next ones, which inherit its CPUs,
                        // are not crowded onto the judge's.
                        if let Some(placed) = &cpus
                            && libc::sched_setaffinity(pids[lane], size, &placed.case) != 0
                        {
                            libc::sched_setaffinity(0, size, &placed.all);
                            cpus = None;
                            status = UNPLACED;
                        }
                        libc::ptrace(libc::PTRACE_DETACH, pids[lane], 0, 0);
                    }
                    reply(control, GONE, 0, 0, status, -1);
                }
                REFRESH => {
                    // The zygote's case before is gone (the zygote reaped it): its sockets
                    // are closed, save those only the kernel's collector frees.
                    let mut renewed = false;
                    let failed = if libc::setns(lanes[lane].0, libc::CLONE_NEWNS) != 0
                        || libc::setns(lanes[lane].1, libc::CLONE_NEWNET) != 0
                    {
                        failed_server(ServerStep::EnterLane)
                    } else if !clean_network(&mut lanes[lane], &mut renewed) {
                        failed_server(ServerStep::LaneNamespaces)
                    } else {
                        fresh_tmp(&request, &mut tmp[lane])
                    };
                    // The zygote's next case too.
                    random_last_pid(last_pid, pid_max);
                    // A lane with a new network namespace needs a new zygote: the one it has
                    // stays in the old namespace, and so would its cases.
                    let status = if renewed { NEW_NETWORK } else { 0 };
                    reply(control, REFRESHED, failed, errno(), status, -1);
                }
                FINISH => {
                    let status = end_lane_case(&mut pids[lane], &mut keepers[lane]);
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
        for (pid, keeper) in pids.iter_mut().zip(&mut keepers) {
            end_lane_case(pid, keeper);
        }
        libc::_exit(0)
    }
}

/// Can a child of the server be traced by it, and stop at the end of its `exec` of `program`?
/// (Raw calls: for the server; `stack` is the case stack, free at the start.)
///
/// # Safety
///
/// In the server only (it waits with `__WALL`, as the only one reaping its children), with
/// `stack` in use by nothing else until it returns.
unsafe fn stops_at_exec(program: &std::ffi::CStr, stack: &mut [u8]) -> bool {
    let mut program = program;
    // SAFETY: a vfork-style child on the free case stack, reaped here.
    unsafe {
        let Ok(child) = clone::clone(Memory::Shared, 0, stack, traced_exec, &mut program) else {
            return false;
        };
        let mut status = 0;
        while libc::waitpid(child, &mut status, libc::__WALL) < 0 && errno() == libc::EINTR {}
        let stopped = libc::WIFSTOPPED(status);
        if stopped {
            end_case(child);
        }
        stopped
    }
}

/// The child of [`stops_at_exec`]: asks to be traced, then executes `program`.
///
/// # Safety
///
/// Called only as a [`crate::clone::clone`] child.
unsafe fn traced_exec(program: &mut &std::ffi::CStr) -> c_int {
    // SAFETY: `program` is a NUL-terminated path; raw calls, then exec or exit.
    unsafe {
        let argv = [program.as_ptr(), std::ptr::null()];
        let envp = [std::ptr::null::<libc::c_char>()];
        if libc::ptrace(libc::PTRACE_TRACEME, 0, 0, 0) == 0 {
            libc::execve(program.as_ptr(), argv.as_ptr(), envp.as_ptr());
        }
        libc::_exit(127)
    }
}

/// Starts one case in a lane: a fresh `/tmp`, then the program. Returns (failed, errno, pidfd).
///
/// # Safety
///
/// In the server only, between its requests: `a` as [`serve`]'s, `stdio` descriptors the
/// server owns (received with the request), `lane_namespaces` the lane's mount and network
/// namespaces, `*pid` the lane's case (0 if none: ended first), `keeper` the lane's keeper and
/// the server's own PID namespace, `*tmp` whether its `/tmp` is mounted, `server_proc` the
/// device of the server's `/proc`.
#[allow(clippy::too_many_arguments)]
unsafe fn start_case(
    a: &mut ServerArgs<'_>,
    request: Request,
    stdio: [RawFd; 3],
    lane_namespaces: &mut (RawFd, RawFd),
    pid: &mut libc::pid_t,
    (keeper, own_pid_namespace): (&mut LaneKeeper, RawFd),
    tmp: &mut bool,
    server_proc: u64,
) -> (u32, i32, RawFd) {
    let server_step = |step: ServerStep| (failed_server(step), errno(), -1);
    // SAFETY: raw system calls on the server's own data.
    unsafe {
        if stdio.iter().any(|&fd| fd < 0) {
            return (failed_server(ServerStep::BadStreams), libc::EBADF, -1);
        }
        end_lane_case(pid, keeper);
        if libc::setns(lane_namespaces.0, libc::CLONE_NEWNS) != 0
            || libc::setns(lane_namespaces.1, libc::CLONE_NEWNET) != 0
        {
            return server_step(ServerStep::EnterLane);
        }
        let mut renewed = false;
        if !clean_network(lane_namespaces, &mut renewed) {
            return server_step(ServerStep::LaneNamespaces);
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
            return server_step(ServerStep::ErrorPipe);
        }
        let program = (request.program as usize).min(1);
        let lane = &a.lanes[program][(request.lane as usize).min(1)];
        let mut args = CaseArgs {
            plan: &lane.plan,
            rlimits: &rlimits[..count],
            argv: a.argv[program],
            envp: a.environments[(request.environment as usize).min(1)],
            stdio,
            error_fd: error[1],
            // A zygote starts at once: nothing of the submission runs in it before a case.
            stop_at_exec: program == 0,
        };
        // A case is pid 2 of a PID namespace of its own, whose init is its keeper (the
        // program must not be init: the kernel would not let it die of its own signals), and
        // the server's own child (it traces it, and reaps it with its true status); everything
        // it starts is killed with the keeper. A zygote makes a namespace (and a keeper) per
        // case itself, in its own user namespace. (Without a keeper on this architecture the
        // case is the namespace's init.)
        let with_keeper = program == 0 && keeper::AVAILABLE;
        if with_keeper {
            match keeper::start(&mut keeper.stack, &keeper.state, own_pid_namespace) {
                Ok(started) => keeper.pid = started,
                Err(e) => {
                    libc::close(error[0]);
                    libc::close(error[1]);
                    return (
                        failed_server(ServerStep::Clone),
                        e.raw_os_error().unwrap_or(0),
                        -1,
                    );
                }
            }
        }
        let pid_namespace = if program == 0 && !with_keeper {
            libc::CLONE_NEWPID
        } else {
            0
        };
        let child = clone::clone(
            Memory::Shared,
            pid_namespace | libc::CLONE_NEWIPC,
            a.case_stack,
            case_main,
            &mut args,
        );
        let back = !with_keeper
            || keeper::program_started(&keeper.state, own_pid_namespace, child.is_ok());
        libc::close(error[1]);
        let child = match child {
            Ok(child) if back => child,
            Ok(child) => {
                // Its children would be made in this case's namespace from here on.
                libc::close(error[0]);
                let e = errno();
                end_case(child);
                end_keeper(keeper);
                return (failed_server(ServerStep::Clone), e, -1);
            }
            Err(e) => {
                libc::close(error[0]);
                end_keeper(keeper);
                return (
                    failed_server(ServerStep::Clone),
                    e.raw_os_error().unwrap_or(0),
                    -1,
                );
            }
        };
        // The child has exec'd or exited (CLONE_VFORK): a record here says why it stopped.
        let mut record = [0u8; 5];
        let n = libc::read(error[0], record.as_mut_ptr().cast(), record.len());
        libc::close(error[0]);
        if n == 5 {
            let mut status = 0;
            libc::waitpid(child, &mut status, 0);
            end_keeper(keeper);
            let errno = i32::from_ne_bytes([record[1], record[2], record[3], record[4]]);
            return (1 + u32::from(record[0]), errno, -1);
        }
        if program == 0 {
            // Stopped at the end of its `exec` (SIGTRAP, for its tracer), or ended there.
            let mut status = 0;
            while libc::waitpid(child, &mut status, libc::__WALL) < 0 && errno() == libc::EINTR {}
            if !libc::WIFSTOPPED(status) {
                // It ended (and is reaped) before its program's first instruction.
                end_keeper(keeper);
                return (failed_server(ServerStep::EndedAtExec), libc::ECHILD, -1);
            }
        }
        *pid = child;
        let pidfd = libc::syscall(libc::SYS_pidfd_open, child, 0) as RawFd;
        if pidfd < 0 {
            let e = errno();
            end_lane_case(pid, keeper);
            return (failed_server(ServerStep::Pidfd), e, -1);
        }
        if with_keeper {
            // The server's own copy, watched between requests ([`reap_ended`]).
            keeper.program = libc::fcntl(pidfd, libc::F_DUPFD_CLOEXEC, 3);
        }
        (0, 0, pidfd)
    }
}

/// In the server, in a lane's mount namespace: replaces its `/tmp` with an empty tmpfs (with the
/// request's options). Returns 0, or 1 + the stage that failed.
///
/// # Safety
///
/// In the server only, in a lane's mount namespace (it unmounts and mounts the calling
/// process's `/tmp`), with `*mounted` telling whether a case's `/tmp` is mounted there.
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
            return failed_child(ChildStage::MountTmpProc);
        }
        *mounted = true;
        0
    }
}

/// Reads a small decimal number from a file (raw calls: for the server).
/// Makes sure that nothing of the lane's cases before is left in its network namespace (the
/// server is in it): a socket outlives its processes when it is in flight in a cycle (two
/// sockets holding each other, sent with `SCM_RIGHTS`) until the kernel's collector frees it,
/// which may be seconds later, and an abstract name it is bound to stays taken meanwhile (a
/// channel to the next case: issue 33.4). At rest a lane holds no socket, so one counted in
/// `/proc/self/net/sockstat` is such a leftover: the lane then gets a new network namespace
/// (a few milliseconds, only after such a case), into which the server moves, and `*renewed`
/// says so. False if that failed.
///
/// # Safety
///
/// In the server only: `lane` its lane's (mount, network) namespace descriptors, the server
/// in that network namespace.
unsafe fn clean_network(lane: &mut (RawFd, RawFd), renewed: &mut bool) -> bool {
    if spawn::sockets_in_use() == Some(0) {
        return true;
    }
    // SAFETY: raw calls on the server's own descriptors.
    unsafe {
        if libc::unshare(libc::CLONE_NEWNET) != 0 {
            return false;
        }
        let network = libc::open(
            c"/proc/self/ns/net".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        );
        if network < 0 {
            return false;
        }
        libc::close(lane.1);
        lane.1 = network;
        *renewed = true;
        true
    }
}

fn read_number(path: &std::ffi::CStr) -> Option<u64> {
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
///
/// # Safety
///
/// `last_pid` must be -1 or the server's own descriptor of `/proc/sys/kernel/ns_last_pid`,
/// open for writing.
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
fn device_of(path: &std::ffi::CStr) -> u64 {
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
///
/// # Safety
///
/// In the server only, in a lane's mount namespace (it unmounts the calling process's
/// `/proc` until the one of device `server_proc`, the server's own, shows).
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
