//! The judge's side of the fork server's protocol: requests sent, replies read in the order
//! asked, and what a failed reply means.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use crate::error::{SandboxError, ServerStep, Stage};
use crate::input::InputFile;
use crate::spawn;

use super::protocol::{
    FINISH, FINISHED, GONE, MAX_RLIMITS, REFRESHED, Reply, Request, STAGE_SERVER, START, STARTED,
    TMP_OPTIONS, UNPLACED, receive_message, send_message,
};
use super::zygote::zygote_end;
use super::{Asked, CaseKey, Ends, Given, Prepare, Server, Started, State};

/// A connected pair of sequenced-packet sockets (messages keep their boundaries), closed at
/// `exec`.
pub(super) fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
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

impl Server {
    pub(super) fn end_case(&self, state: &mut State, lane: usize) -> io::Result<i32> {
        if std::mem::take(&mut state.from_zygote[lane])
            && let Some(zygote) = &state.zygotes[lane]
        {
            match zygote_end(zygote) {
                Ok(status) => return Ok(status),
                // The case's end is not known: no verdict can be made up for it (the lane is
                // ended, and gets a new zygote).
                Err(e) if SandboxError::stage_of(&e) == Some(Stage::ZygoteTimedOut) => {
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

    pub(super) fn lock(&self) -> io::Result<std::sync::MutexGuard<'_, State>> {
        let state = self
            .state
            .lock()
            .map_err(|_| protocol_error("the fork server's state is poisoned"))?;
        if state.broken {
            return Err(protocol_error("the fork server stopped answering"));
        }
        Ok(state)
    }

    /// Reads the answer to an outstanding prestart, keeping the case if it started.
    pub(super) fn collect(&self, state: &mut State) {
        if let Some(asked) = state.asked.take() {
            // A prestart that failed is not an error of any run: the next run starts its case
            // itself, and fails with the reason if there is one.
            if let Ok(started) = self.collect_one(state, asked) {
                state.ready = Some(started);
            }
        }
    }

    /// Reads the server's answer to a START: the pidfd it sent, or why `doing` failed.
    pub(super) fn receive_started(
        &self,
        state: &mut State,
        doing: &str,
    ) -> io::Result<Option<OwnedFd>> {
        let (reply, pidfd) = self.next_reply(state)?;
        if reply.kind != STARTED {
            state.broken = true;
            return Err(protocol_error("the fork server answered out of turn"));
        }
        if reply.failed != 0 {
            return Err(failure(&reply, doing).into());
        }
        Ok(pidfd)
    }

    pub(super) fn collect_one(&self, state: &mut State, asked: Asked) -> io::Result<Started> {
        if asked.zygote {
            return self.collect_from_zygote(state, asked);
        }
        let pidfd = self.receive_started(state, "starting the submission")?;
        let Some(pidfd) = pidfd else {
            state.broken = true;
            return Err(protocol_error("the fork server sent no pidfd"));
        };
        Ok(Started {
            lane: asked.lane,
            key: asked.key,
            zygote: false,
            pidfd,
            ends: asked.ends,
        })
    }

    /// Asks for a case in `lane`: from its zygote if it has one (and `zygote`), else from the
    /// server; with the streams `given`, if any.
    pub(super) fn ask(
        &self,
        state: &mut State,
        lane: usize,
        key: &CaseKey,
        prepare: Prepare<'_>,
        zygote: bool,
        given: Option<&Given>,
    ) -> io::Result<Asked> {
        if self.zygote && zygote && state.zygote_off.is_none() {
            // A zygote that died (at its group's memory limit with a case, say) is replaced
            // once; one that cannot start or answer ends zygotes for this slot, and so does one
            // that says the script is not for it.
            let mut tries = 0;
            let why = loop {
                tries += 1;
                match self.ask_zygote(state, lane, key, prepare, given) {
                    Ok(asked) => return Ok(asked),
                    Err(e) if state.broken => return Err(e),
                    Err(e) => {
                        if state.zygotes[lane].take().is_some() {
                            self.end(state, lane)?;
                        }
                        if tries == 2 || SandboxError::stage_of(&e) == Some(Stage::ZygoteRefused) {
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
        let (ends, theirs) = self.streams(lane, given)?;
        let request = self.request(START, lane, key, 0);
        self.send(&request, &theirs.each_ref().map(|fd| fd.as_raw_fd()))
            .inspect_err(|_| state.broken = true)?;
        Ok(Asked {
            lane,
            key: key.clone(),
            zygote: false,
            ends,
        })
    }

    /// The standard streams of a case in `lane`: the judge's ends and the case's. Its input is
    /// the reader of an empty input file (filled before the case goes), its output and error
    /// pipes that belong to the lane's user (`/dev/stdout` reopens the pipe, which checks its
    /// owner); or copies of the streams `given`.
    pub(super) fn streams(
        &self,
        lane: usize,
        given: Option<&Given>,
    ) -> io::Result<(Ends, [OwnedFd; 3])> {
        let copy = |fd: Option<&OwnedFd>| fd.map(OwnedFd::try_clone).transpose();
        let (input, stdin) = match copy(given.and_then(|g| g.stdin.as_ref()))? {
            Some(stdin) => (None, stdin),
            None => {
                let input = InputFile::new()?;
                let reader = input.reader()?;
                (Some(input), reader)
            }
        };
        let uid = self.uids[lane];
        let owned = |(r, w): (OwnedFd, OwnedFd)| -> io::Result<(OwnedFd, OwnedFd)> {
            // SAFETY: changing the owner of a pipe we just made.
            if unsafe { libc::fchown(w.as_raw_fd(), uid, uid) } != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok((r, w))
        };
        let (stdout_r, stdout) = match copy(given.and_then(|g| g.stdout.as_ref()))? {
            Some(stdout) => (None, stdout),
            None => {
                let (r, w) = owned(spawn::pipe()?)?;
                (Some(r), w)
            }
        };
        let (err_r, err_w) = owned(spawn::pipe()?)?;
        let ends = Ends {
            input,
            stdout: stdout_r,
            stderr: err_r,
            start: None,
        };
        Ok((ends, [stdin, stdout, err_w]))
    }

    /// A request about `lane` for a case with `key` (`program` 1: its zygote).
    pub(super) fn request(&self, kind: u32, lane: usize, key: &CaseKey, program: u32) -> Request {
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

    /// Asks the server to end what runs in `lane` (a case, or its zygote) and reads its answer.
    pub(super) fn end(&self, state: &mut State, lane: usize) -> io::Result<Reply> {
        let reply = self.exchange(state, Request::plain(FINISH, lane))?;
        if reply.failed != 0 {
            return Err(failure(&reply, "ending a case").into());
        }
        Ok(reply)
    }

    /// Sends a request without descriptors and reads its answer (after an outstanding
    /// prestart's from the server, which is kept).
    pub(super) fn exchange(&self, state: &mut State, request: Request) -> io::Result<Reply> {
        self.send(&request, &[])
            .inspect_err(|_| state.broken = true)?;
        if state.asked.as_ref().is_some_and(|a| !a.zygote) {
            self.collect(state);
        }
        if state.broken {
            return Err(protocol_error("the fork server stopped answering"));
        }
        let (reply, _) = self.next_reply(state)?;
        let expected = match request.kind {
            FINISH => FINISHED,
            _ => REFRESHED,
        };
        if reply.kind != expected {
            state.broken = true;
            return Err(protocol_error("the fork server answered out of turn"));
        }
        Ok(reply)
    }

    pub(super) fn send(&self, request: &Request, fds: &[RawFd]) -> io::Result<()> {
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
                state.unplaced |= reply.status == UNPLACED;
                continue;
            }
            return Ok((reply, fd));
        }
    }

    pub(super) fn receive(&self) -> io::Result<(Reply, Option<OwnedFd>)> {
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
                protocol_error("the fork server is gone")
            });
        }
        // SAFETY: a descriptor the kernel just gave us.
        let fd = (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) });
        Ok((reply, fd))
    }
}

/// Why `doing` failed, from the server's reply: a step of the server's own, or the stage at
/// which the case failed before its `exec`.
pub(super) fn failure(reply: &Reply, doing: &str) -> SandboxError {
    let stage = reply.failed.saturating_sub(1) as u8;
    if stage < STAGE_SERVER {
        return SandboxError::child(stage, reply.errno);
    }
    match ServerStep::from_byte(stage - STAGE_SERVER) {
        Some(ServerStep::NoTracing) => SandboxError::new(
            Stage::Server(ServerStep::NoTracing),
            format!(
                "{doing}: a case cannot stop at its exec as the server's tracee here (ptrace is \
                 not allowed: Yama's ptrace_scope, or the judge is being traced)"
            ),
        ),
        Some(step) => SandboxError::errno_at(
            Stage::Server(step),
            format!(
                "{doing}: the fork server's step {} ({}) failed",
                step as u8,
                step.name()
            ),
            reply.errno,
        ),
        None => SandboxError::errno_at(
            Stage::Protocol,
            format!(
                "{doing}: the fork server's step {} failed",
                stage - STAGE_SERVER
            ),
            reply.errno,
        ),
    }
}

/// The fork server's exchange went wrong (`what`): its state is unknown from here.
pub(super) fn protocol_error(what: &str) -> io::Error {
    SandboxError::new(Stage::Protocol, what).into()
}

#[cfg(test)]
mod tests {
    use super::super::protocol::{failed_child, failed_server};
    use super::*;
    use crate::error::ChildStage;

    fn reply(failed: u32, errno: i32) -> Reply {
        Reply {
            kind: STARTED,
            failed,
            errno,
            status: 0,
        }
    }

    #[test]
    fn a_failed_reply_names_the_server_step_or_the_case_stage() {
        let pipe = failure(
            &reply(failed_server(ServerStep::ErrorPipe), libc::EMFILE),
            "x",
        );
        assert_eq!(pipe.stage, Stage::Server(ServerStep::ErrorPipe));
        assert_eq!(
            pipe.to_string(),
            "x: the fork server's step 6 (a case's error pipe) failed: \
             Too many open files (os error 24)"
        );
        // Its own step: an error pipe the server could not make is no ptrace refusal.
        let tracing = failure(&reply(failed_server(ServerStep::NoTracing), 0), "x");
        assert_eq!(tracing.stage, Stage::Server(ServerStep::NoTracing));
        assert!(
            tracing.to_string().contains("ptrace is not allowed"),
            "{tracing}"
        );
        assert_eq!(tracing.errno(), None);
        let exec = failure(&reply(failed_child(ChildStage::Exec), libc::EACCES), "x");
        assert_eq!(exec.stage, Stage::Child(ChildStage::Exec));
        assert_eq!(exec.errno(), Some(libc::EACCES));
    }
}
