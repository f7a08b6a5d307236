//! A seccomp filter for interfaces no contest program needs (issue 33.7): defense in depth,
//! should a kernel bug lie behind one of them. Every other isolation of the box is by design
//! (namespaces, a uid, Landlock); this filter only narrows the kernel surface a run can reach.
//!
//! Denied with `EPERM` (never a kill: runtimes that probe an interface fall back, as they do in
//! Docker's default profile): `io_uring_*`; a new user namespace (`unshare` or `clone` with
//! `CLONE_NEWUSER`); the mount family (`mount`, `umount2`, `pivot_root`, `move_mount`,
//! `fsopen`, `fsconfig`, `fsmount`, `fspick`, `open_tree`, `mount_setattr`); `bpf`; the keyring
//! calls (`keyctl`, `add_key`, `request_key`); `perf_event_open`; `userfaultfd`;
//! `open_by_handle_at`, `name_to_handle_at`; `kexec_*`; `init_module`, `finit_module`,
//! `delete_module`; `ptrace` (a fork server's case asks to be traced before the filter is
//! installed: that is all the server needs). `clone3` gets `ENOSYS`, since its flags lie in
//! memory a filter cannot read: libc then falls back to `clone`, whose flags it can (as
//! Docker and systemd do). A system call of another ABI (`int 0x80`'s i386 calls) kills the
//! process: no contest program makes one, and their numbers differ. An x32 call gets `ENOSYS`.
//!
//! The program is a constant, built at compile time: the code after a fork installs it
//! allocating nothing (`spawn/child.rs`, where the after-fork code is checked). x86_64 only: elsewhere [`FILTER`] is `None`, and the isolation line
//! says that there is no filter.

/// Why the filter is there or not, for the isolation line.
pub fn describe() -> &'static str {
    if FILTER.is_some() {
        "yes (io_uring, new user namespaces, mount, bpf, keyrings, perf, userfaultfd, \
         file handles, kexec, modules, ptrace denied)"
    } else {
        "no (x86_64 only)"
    }
}

/// The filter's program, where there is one.
#[cfg(target_arch = "x86_64")]
pub(crate) const FILTER: Option<&[libc::sock_filter]> = Some(&x86_64::PROGRAM);
#[cfg(not(target_arch = "x86_64"))]
pub(crate) const FILTER: Option<&[libc::sock_filter]> = None;

/// The program as bytes (`struct sock_filter` in the machine's order), for the Python zygote,
/// which installs it itself in each case; empty where there is no filter.
pub fn program_bytes() -> Vec<u8> {
    let mut bytes = Vec::new();
    for instruction in FILTER.unwrap_or(&[]) {
        bytes.extend_from_slice(&instruction.code.to_ne_bytes());
        bytes.push(instruction.jt);
        bytes.push(instruction.jf);
        bytes.extend_from_slice(&instruction.k.to_ne_bytes());
    }
    bytes
}

#[cfg(target_arch = "x86_64")]
mod x86_64 {
    use libc::sock_filter;

    const LOAD_WORD: u16 = (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16;
    const JUMP_EQUAL: u16 = (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16;
    const JUMP_AT_LEAST: u16 = (libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K) as u16;
    const JUMP_ANY_BIT: u16 = (libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K) as u16;
    const RETURN: u16 = (libc::BPF_RET | libc::BPF_K) as u16;

    /// `struct seccomp_data`: the call's number, its ABI, then (after the instruction pointer)
    /// its arguments, 8 bytes each; the first argument's low half (little-endian).
    const NUMBER: u32 = 0;
    const ARCH: u32 = 4;
    const FIRST_ARGUMENT_LOW: u32 = 16;
    const AUDIT_ARCH_X86_64: u32 = 0xc000_003e;
    const X32_SYSCALL_BIT: u32 = 0x4000_0000;

    const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;
    const KILL: u32 = libc::SECCOMP_RET_KILL_PROCESS;
    const EPERM: u32 = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
    const ENOSYS: u32 = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;

    /// Denied whatever their arguments.
    const DENIED: [libc::c_long; 27] = [
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_move_mount,
        libc::SYS_fsopen,
        libc::SYS_fsconfig,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_open_tree,
        libc::SYS_mount_setattr,
        libc::SYS_bpf,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
        libc::SYS_open_by_handle_at,
        libc::SYS_name_to_handle_at,
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_ptrace,
    ];

    const fn statement(code: u16, k: u32) -> sock_filter {
        sock_filter {
            code,
            jt: 0,
            jf: 0,
            k,
        }
    }

    /// A jump from instruction `at` to `to` if true, to the next one if false.
    const fn jump(code: u16, k: u32, at: usize, to: usize) -> sock_filter {
        sock_filter {
            code,
            jt: (to - at - 1) as u8,
            jf: 0,
            k,
        }
    }

    // The layout: the ABI check (3), the number loaded (1), x32 (1), clone3 (1), clone and
    // unshare (2), the denied calls, allow; then the flags check (3), and the two refusals.
    const HEAD: usize = 8;
    const FLAGS_CHECK: usize = HEAD + DENIED.len() + 1;
    const REFUSE_EPERM: usize = FLAGS_CHECK + 3;
    const REFUSE_ENOSYS: usize = REFUSE_EPERM + 1;
    const LENGTH: usize = REFUSE_ENOSYS + 1;

    pub(super) const PROGRAM: [sock_filter; LENGTH] = {
        let mut p = [statement(RETURN, ALLOW); LENGTH];
        p[0] = statement(LOAD_WORD, ARCH);
        p[1] = sock_filter {
            code: JUMP_EQUAL,
            jt: 1,
            jf: 0,
            k: AUDIT_ARCH_X86_64,
        };
        p[2] = statement(RETURN, KILL);
        p[3] = statement(LOAD_WORD, NUMBER);
        p[4] = jump(JUMP_AT_LEAST, X32_SYSCALL_BIT, 4, REFUSE_ENOSYS);
        p[5] = jump(JUMP_EQUAL, libc::SYS_clone3 as u32, 5, REFUSE_ENOSYS);
        p[6] = jump(JUMP_EQUAL, libc::SYS_clone as u32, 6, FLAGS_CHECK);
        p[7] = jump(JUMP_EQUAL, libc::SYS_unshare as u32, 7, FLAGS_CHECK);
        let mut i = 0;
        while i < DENIED.len() {
            p[HEAD + i] = jump(JUMP_EQUAL, DENIED[i] as u32, HEAD + i, REFUSE_EPERM);
            i += 1;
        }
        p[HEAD + DENIED.len()] = statement(RETURN, ALLOW);
        // clone's flags are its first argument on x86_64, unshare's its only one.
        p[FLAGS_CHECK] = statement(LOAD_WORD, FIRST_ARGUMENT_LOW);
        p[FLAGS_CHECK + 1] = jump(
            JUMP_ANY_BIT,
            libc::CLONE_NEWUSER as u32,
            FLAGS_CHECK + 1,
            REFUSE_EPERM,
        );
        p[FLAGS_CHECK + 2] = statement(RETURN, ALLOW);
        p[REFUSE_EPERM] = statement(RETURN, EPERM);
        p[REFUSE_ENOSYS] = statement(RETURN, ENOSYS);
        p
    };
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_program_checks_the_abi_first_and_ends_in_returns() {
        let program = super::FILTER.unwrap();
        assert_eq!(program.len(), 41);
        assert_eq!((program[0].code, program[0].k), (0x20, 4), "load the ABI");
        assert_eq!(program[1].k, 0xc000_003e);
        // Every jump lands inside the program, and the last two instructions refuse.
        for (at, instruction) in program.iter().enumerate() {
            if u32::from(instruction.code) & 0x07 == libc::BPF_JMP {
                assert!(at + 1 + usize::from(instruction.jt) < program.len(), "{at}");
                assert!(at + 1 + usize::from(instruction.jf) < program.len(), "{at}");
            }
        }
        assert_eq!(
            program.last().unwrap().code,
            (libc::BPF_RET | libc::BPF_K) as u16
        );
        let last = &program[program.len() - 2..];
        assert_eq!(
            (last[0].k, last[1].k),
            (
                libc::SECCOMP_RET_ERRNO | libc::EPERM as u32,
                libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32
            )
        );
        assert_eq!(super::program_bytes().len(), 8 * program.len());
    }
}
