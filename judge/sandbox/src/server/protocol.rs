//! The fork server's wire protocol: the requests and replies (plain `repr(C)` data, one
//! sequenced packet each, with descriptors attached), and the raw `sendmsg`/`recvmsg` both
//! sides use (the server's side may only make raw system calls).

use std::os::fd::RawFd;

use crate::error::{ChildStage, ServerStep};

/// Requests, judge to server.
pub(super) const START: u32 = 1;
pub(super) const FINISH: u32 = 2;
/// A fresh `/tmp` in a lane (for a zygote's next case).
pub(super) const REFRESH: u32 = 3;
/// Let the lane's case, stopped at its `exec`, go.
pub(super) const GO: u32 = 4;
/// Replies, server to judge.
pub(super) const READY: u32 = 10;
pub(super) const STARTED: u32 = 11;
pub(super) const FINISHED: u32 = 12;
pub(super) const REFRESHED: u32 = 13;
/// `Reply::status` of `REFRESHED`: the lane got a new network namespace (its zygote, in the
/// old one, must be replaced).
pub(super) const NEW_NETWORK: i32 = 1;
pub(super) const GONE: u32 = 14;
/// `Reply::status` of `GONE`: the case could not be moved onto its slot's CPU (no
/// `CAP_SYS_NICE`), and the server places no more cases ([`crate::cpus`]).
pub(super) const UNPLACED: i32 = 1;

/// Where the server's own steps start among the stages a reply names (the [`ChildStage`]s a
/// case relays come before).
pub(super) const STAGE_SERVER: u8 = 100;

/// `Reply::failed` of a case that failed at `stage` before its `exec` (0 is success).
pub(super) const fn failed_child(stage: ChildStage) -> u32 {
    1 + stage as u32
}

/// `Reply::failed` of the server's own step `step`.
pub(super) const fn failed_server(step: ServerStep) -> u32 {
    1 + STAGE_SERVER as u32 + step as u32
}

pub(super) const MAX_RLIMITS: usize = 8;

pub(super) const TMP_OPTIONS: usize = 96;

/// One resource limit: (resource, soft, hard).
pub type Rlimit = (libc::__rlimit_resource_t, u64, u64);

#[repr(C)]
#[derive(Clone, Copy)]
pub(super) struct Request {
    pub(super) kind: u32,
    pub(super) lane: u32,
    /// Which environment (0 plain, 1 with the sanitizers' options).
    pub(super) environment: u32,
    /// Which program (0 the submission, 1 its interpreter's zygote).
    pub(super) program: u32,
    pub(super) rlimit_count: u32,
    pub(super) rlimits: [[u64; 3]; MAX_RLIMITS],
    /// The `/tmp` tmpfs's options, NUL-terminated.
    pub(super) tmp_options: [u8; TMP_OPTIONS],
}

impl Request {
    /// A request about `lane` that carries nothing else.
    pub(super) fn plain(kind: u32, lane: usize) -> Request {
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
pub(super) struct Reply {
    pub(super) kind: u32,
    /// 0: it worked; else 1 + the stage that failed.
    pub(super) failed: u32,
    pub(super) errno: i32,
    /// FINISHED: the wait status of the case's top process.
    pub(super) status: i32,
}

/// `sendmsg` of plain bytes with `fds` attached.
///
/// # Safety
///
/// As [`send_raw`]'s, for `socket` and `fds`.
pub(super) unsafe fn send_bytes(socket: RawFd, bytes: &[u8], fds: &[RawFd]) -> isize {
    // SAFETY: the same message as `send_message`'s, over a byte slice.
    unsafe { send_raw(socket, bytes.as_ptr(), bytes.len(), fds) }
}

/// Room for eight descriptors in a control message (`CMSG_SPACE(32)` = 48 on Linux).
#[repr(C, align(8))]
struct ControlBuffer([u8; 64]);

/// The most descriptors a message carries: a case's streams and a lane's three v1 groups.
const MAX_FDS: usize = 8;

/// `sendmsg` of `data` with `fds` attached. Raw: the server uses it too.
///
/// # Safety
///
/// `T` must be plain data whose every byte is initialised (a `repr(C)` struct of integers
/// without padding, as [`Request`] and [`Reply`]): its bytes are sent as they are. Else as
/// [`send_raw`]'s.
pub(super) unsafe fn send_message<T>(socket: RawFd, data: &T, fds: &[RawFd]) -> isize {
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

/// `sendmsg` of the `len` bytes at `data` with `fds` (up to [`MAX_FDS`]; a longer list sends
/// none) attached, on `socket`. Returns what `sendmsg` returns.
///
/// # Safety
///
/// `data` must point at `len` readable, initialised bytes; `socket` must be a connected socket
/// the caller owns, and `fds` descriptors it owns (the receiver gets copies).
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
///
/// # Safety
///
/// `data` must point at `len` writable bytes, and any bytes written there must make a valid
/// value of what it holds (plain data: integers). `socket` must be a socket the caller owns.
/// The descriptors put into `fds` are the caller's to close (more than `fds.len()` are closed
/// here).
pub(super) unsafe fn receive_message(
    socket: RawFd,
    data: *mut u8,
    len: usize,
    fds: &mut [RawFd],
) -> isize {
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
