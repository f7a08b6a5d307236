//! A lane's zygote (an interpreter started once, its cases forked from it): started by the
//! server as a case that does not stop at its `exec`, then asked over a socket of its own for
//! each case, and for how the case ended.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use crate::error::{SandboxError, Stage};
use crate::spawn;

use super::client::{failure, socket_pair};
use super::protocol::{NEW_NETWORK, REFRESH, REFRESHED, START, receive_message, send_bytes};
use super::{Asked, CaseKey, Given, Prepare, Server, Started, State};

/// The interpreter's zygote (Python), run with `python3 -c ZYGOTE SCRIPT`, as written: see
/// [`python_zygote`] for what is run.
pub const PYTHON_ZYGOTE: &str = include_str!("zygote.py");

/// The zygote's source as it is run: [`PYTHON_ZYGOTE`] with the system-call filter
/// ([`crate::seccomp`]) put in, which each of its cases installs.
pub fn python_zygote() -> String {
    let filter: String = crate::seccomp::program_bytes()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    PYTHON_ZYGOTE.replacen(
        "\nSECCOMP_FILTER = b''\n",
        &format!("\nSECCOMP_FILTER = bytes.fromhex('{filter}')\n"),
        1,
    )
}

/// A lane's zygote: started with these limits, and the judge's end of its control socket.
pub(super) struct Zygote {
    key: CaseKey,
    control: OwnedFd,
}

impl Server {
    /// Asks the lane's zygote (started now if it has none for `key`) for a case.
    pub(super) fn ask_zygote(
        &self,
        state: &mut State,
        lane: usize,
        key: &CaseKey,
        prepare: Prepare<'_>,
        given: Option<&Given>,
    ) -> io::Result<Asked> {
        if state.zygotes[lane].as_ref().is_none_or(|z| z.key != *key) {
            if state.zygotes[lane].take().is_some() {
                self.end(state, lane)?;
            }
            let zygote = self.start_zygote(state, lane, key)?;
            state.zygotes[lane] = Some(zygote);
        }
        // A fresh /tmp before the figures are reset: the last case's files were charged there.
        let mut reply = self.exchange(state, self.request(REFRESH, lane, key, 0))?;
        if reply.kind == REFRESHED && reply.failed == 0 && reply.status == NEW_NETWORK {
            // The case before left a socket behind, and the lane has a new network namespace
            // (issue 33.4): the zygote, and so its next case, is still in the old one.
            if state.zygotes[lane].take().is_some() {
                self.end(state, lane)?;
            }
            let zygote = self.start_zygote(state, lane, key)?;
            state.zygotes[lane] = Some(zygote);
            reply = self.exchange(state, self.request(REFRESH, lane, key, 0))?;
        }
        if reply.kind != REFRESHED || reply.failed != 0 {
            return Err(failure(&reply, "a fresh /tmp").into());
        }
        prepare(lane)?;
        let Some(zygote) = &state.zygotes[lane] else {
            return Err(zygote_error("no zygote"));
        };
        let (mut ends, theirs) = self.streams(lane, given)?;
        // The case waits on this pipe before the script runs (its input is a file, readable at
        // once, or an interactive pair's pipe, which may stay empty until the script writes).
        let (start_r, start_w) = spawn::pipe()?;
        ends.start = Some(start_w);
        let cpu = key
            .rlimits
            .iter()
            .find(|r| r.0 == libc::RLIMIT_CPU)
            .map_or((libc::RLIM_INFINITY, libc::RLIM_INFINITY), |r| (r.1, r.2));
        let mut message = vec![b'F'];
        message.extend(cpu.0.to_le_bytes());
        message.extend(cpu.1.to_le_bytes());
        // Its streams, its start pipe, then the lane's groups' files: the zygote moves the case
        // there.
        let mut fds: Vec<RawFd> = theirs.iter().map(|fd| fd.as_raw_fd()).collect();
        fds.push(start_r.as_raw_fd());
        fds.extend(&self.case_join[lane]);
        // SAFETY: a message of plain bytes and descriptors we own.
        let sent = unsafe { send_bytes(zygote.control.as_raw_fd(), &message, &fds) };
        if sent != message.len() as isize {
            return Err(zygote_error("the zygote is gone"));
        }
        Ok(Asked {
            lane,
            key: key.clone(),
            zygote: true,
            ends,
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
            [b'N', ref why @ ..] => Err(SandboxError::new(
                Stage::ZygoteRefused,
                format!("not for this script: {}", String::from_utf8_lossy(why)),
            )
            .into()),
            _ => {
                let said = String::from_utf8_lossy(&said);
                let last = said.lines().last().unwrap_or("no answer");
                Err(zygote_error(&format!("the zygote did not start: {last}")))
            }
        }
    }

    /// Reads the zygote's answer to a case asked of it.
    pub(super) fn collect_from_zygote(
        &self,
        state: &mut State,
        asked: Asked,
    ) -> io::Result<Started> {
        let Some(zygote) = &state.zygotes[asked.lane] else {
            return Err(zygote_error("no zygote"));
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
                ends: asked.ends,
            }),
            (1.., b'E', _) => Err(zygote_error(&format!(
                "the zygote could not fork: {}",
                String::from_utf8_lossy(&answer[1..n as usize])
            ))),
            _ => {
                // Gone or hanging: the lane's zygote is replaced at its next case.
                state.zygotes[asked.lane] = None;
                self.end(state, asked.lane)?;
                Err(zygote_error("the zygote did not answer"))
            }
        }
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
/// at [`Stage::ZygoteTimedOut`] if the zygote did not answer in time, another if it is gone.
pub(super) fn zygote_end(zygote: &Zygote) -> io::Result<i32> {
    // SAFETY: plain bytes over our socket.
    let sent = unsafe { send_bytes(zygote.control.as_raw_fd(), b"K", &[]) };
    if sent != 1 {
        return Err(zygote_error("the zygote is gone"));
    }
    if !wait_readable(&zygote.control, ZYGOTE_ANSWER) {
        return Err(SandboxError::new(
            Stage::ZygoteTimedOut,
            "the zygote did not say how the case ended",
        )
        .into());
    }
    let mut status = [0u8; 4];
    // SAFETY: into a local buffer.
    if unsafe { libc::recv(zygote.control.as_raw_fd(), status.as_mut_ptr().cast(), 4, 0) } != 4 {
        return Err(zygote_error("the zygote is gone"));
    }
    Ok(i32::from_le_bytes(status))
}

/// The lane's zygote failed (`what`).
fn zygote_error(what: &str) -> io::Error {
    SandboxError::new(Stage::Zygote, what).into()
}

// Here rather than in `seccomp`'s tests: the zygote depends on the filter, not the other way
// round (the layering test keeps modules free of cycles).
#[cfg(test)]
mod tests {
    #[test]
    fn the_zygote_gets_the_program() {
        let source = crate::server::python_zygote();
        let hex: String = crate::seccomp::program_bytes()
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        assert!(source.contains(&format!("SECCOMP_FILTER = bytes.fromhex('{hex}')")));
        assert!(!source.contains("\nSECCOMP_FILTER = b''\n"));
    }
}
