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

    /// What the filter does with a call, by its number.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub(super) enum Outcome {
        Allow,
        /// `EPERM`.
        Refuse,
        /// `ENOSYS`.
        NoSuchCall,
        /// `EPERM` if its first argument (the flags of `clone` and `unshare`) asks for a new
        /// user namespace, else allowed.
        RefuseNewUser,
    }

    /// The calls the filter does not simply allow, by number.
    const fn outcome_of(number: u32) -> Outcome {
        if number >= X32_SYSCALL_BIT || number == libc::SYS_clone3 as u32 {
            return Outcome::NoSuchCall;
        }
        if number == libc::SYS_clone as u32 || number == libc::SYS_unshare as u32 {
            return Outcome::RefuseNewUser;
        }
        let mut i = 0;
        while i < DENIED.len() {
            if DENIED[i] as u32 == number {
                return Outcome::Refuse;
            }
            i += 1;
        }
        Outcome::Allow
    }

    /// Every number where the outcome changes: the first of a run of numbers with one outcome.
    /// Each one is some call's number or the one after it, or the x32 bit: the numbers below
    /// [`CANDIDATES_BELOW`] and that bit cover them all.
    const CANDIDATES_BELOW: u32 = 1024;

    const fn count_segments() -> usize {
        let mut count = 1;
        let mut number = 1;
        while number < CANDIDATES_BELOW {
            if !same(outcome_of(number), outcome_of(number - 1)) {
                count += 1;
            }
            number += 1;
        }
        if !same(
            outcome_of(X32_SYSCALL_BIT),
            outcome_of(CANDIDATES_BELOW - 1),
        ) {
            count += 1;
        }
        count
    }

    const fn same(a: Outcome, b: Outcome) -> bool {
        a as u8 == b as u8
    }

    /// The runs of numbers with one outcome, each by its first number, in order.
    const SEGMENT_COUNT: usize = count_segments();
    const SEGMENTS: [(u32, Outcome); SEGMENT_COUNT] = {
        let mut segments = [(0, Outcome::Allow); SEGMENT_COUNT];
        segments[0] = (0, outcome_of(0));
        let mut at = 1;
        let mut number = 1;
        while number < CANDIDATES_BELOW {
            if !same(outcome_of(number), outcome_of(number - 1)) {
                segments[at] = (number, outcome_of(number));
                at += 1;
            }
            number += 1;
        }
        if at < SEGMENT_COUNT {
            segments[at] = (X32_SYSCALL_BIT, outcome_of(X32_SYSCALL_BIT));
        }
        segments
    };

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
            jt: distance(at, to),
            jf: 0,
            k,
        }
    }

    const fn distance(at: usize, to: usize) -> u8 {
        assert!(
            to > at && to - at - 1 <= u8::MAX as usize,
            "a jump out of reach"
        );
        (to - at - 1) as u8
    }

    // The layout: the ABI check (3) and the number loaded (1); a binary search over the
    // segments, one `>=` comparison per boundary (a balanced tree: every call's number is
    // decided after at most log2(segments) + 1 comparisons, where a list of `==` would test
    // up to all of them — and the kernel runs the program for every call number when it
    // installs it, to learn which calls it may allow without running it: a long list cost
    // ~50 µs per case); then what each outcome does.
    const TREE: usize = 4;
    const ALLOW_AT: usize = TREE + SEGMENT_COUNT - 1;
    const FLAGS_CHECK: usize = ALLOW_AT + 1;
    const REFUSE_EPERM: usize = FLAGS_CHECK + 3;
    const REFUSE_ENOSYS: usize = REFUSE_EPERM + 1;
    const LENGTH: usize = REFUSE_ENOSYS + 1;

    const fn outcome_at(outcome: Outcome) -> usize {
        match outcome {
            Outcome::Allow => ALLOW_AT,
            Outcome::Refuse => REFUSE_EPERM,
            Outcome::NoSuchCall => REFUSE_ENOSYS,
            Outcome::RefuseNewUser => FLAGS_CHECK,
        }
    }

    /// Writes the search over `SEGMENTS[low..high]` (at least two) from instruction `at` on;
    /// returns the instruction after it. A subtree of one segment is no instruction: its
    /// jump goes straight to that segment's outcome.
    const fn search(
        program: &mut [sock_filter; LENGTH],
        at: usize,
        low: usize,
        high: usize,
    ) -> usize {
        let middle = (low + high).div_ceil(2);
        let mut next = at + 1;
        let below = if middle - low == 1 {
            outcome_at(SEGMENTS[low].1)
        } else {
            let start = next;
            next = search(program, start, low, middle);
            start
        };
        let above = if high - middle == 1 {
            outcome_at(SEGMENTS[middle].1)
        } else {
            let start = next;
            next = search(program, start, middle, high);
            start
        };
        program[at] = sock_filter {
            code: JUMP_AT_LEAST,
            jt: distance(at, above),
            jf: distance(at, below),
            k: SEGMENTS[middle].0,
        };
        next
    }

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
        assert!(SEGMENT_COUNT >= 2);
        let mut i = 0;
        while i < DENIED.len() {
            assert!(
                (DENIED[i] as u32) < CANDIDATES_BELOW,
                "a call the segments miss"
            );
            i += 1;
        }
        let end = search(&mut p, TREE, 0, SEGMENT_COUNT);
        assert!(
            end == ALLOW_AT,
            "the search fills the space before the outcomes"
        );
        p[ALLOW_AT] = statement(RETURN, ALLOW);
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

    /// For the tests: the outcome the filter should give each call number.
    #[cfg(test)]
    pub(super) const fn expected(number: u32) -> Outcome {
        outcome_of(number)
    }
}

#[cfg(test)]
mod tests {
    /// Runs a classic BPF program the way the kernel runs a seccomp filter, on `struct
    /// seccomp_data` (the number, the ABI, then the arguments); returns the action and how many
    /// instructions it ran. Only the instructions the filter uses.
    #[cfg(target_arch = "x86_64")]
    fn run(
        program: &[libc::sock_filter],
        number: u32,
        arch: u32,
        first_argument: u64,
    ) -> (u32, usize) {
        let mut data = [0u8; 64];
        data[0..4].copy_from_slice(&number.to_ne_bytes());
        data[4..8].copy_from_slice(&arch.to_ne_bytes());
        data[16..24].copy_from_slice(&first_argument.to_ne_bytes());
        let (mut pc, mut a, mut steps) = (0usize, 0u32, 0usize);
        loop {
            let instruction = program[pc];
            steps += 1;
            let k = instruction.k;
            match u32::from(instruction.code) {
                code if code == libc::BPF_LD | libc::BPF_W | libc::BPF_ABS => {
                    let at = k as usize;
                    a = u32::from_ne_bytes(data[at..at + 4].try_into().unwrap());
                    pc += 1;
                }
                code if code & 0x07 == libc::BPF_JMP => {
                    let taken = match code & 0xf0 {
                        c if c == libc::BPF_JEQ => a == k,
                        c if c == libc::BPF_JGE => a >= k,
                        c if c == libc::BPF_JGT => a > k,
                        c if c == libc::BPF_JSET => a & k != 0,
                        other => panic!("jump {other:#x} at {pc}"),
                    };
                    let offset = if taken {
                        instruction.jt
                    } else {
                        instruction.jf
                    };
                    pc += 1 + usize::from(offset);
                }
                code if code == libc::BPF_RET | libc::BPF_K => return (k, steps),
                other => panic!("instruction {other:#x} at {pc}"),
            }
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn every_call_number_gets_what_the_module_doc_says() {
        use super::x86_64::{Outcome, expected};
        const X86_64: u32 = 0xc000_003e;
        let program = super::FILTER.unwrap();
        let eperm = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
        let enosys = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
        let new_user = libc::CLONE_NEWUSER as u64;
        let numbers = (0..2048u32).chain([
            0x3fff_ffff,
            0x4000_0000,
            0x4000_0001,
            0x4000_0000 + 60,
            u32::MAX,
        ]);
        let mut refused = Vec::new();
        for number in numbers {
            let (action, _) = run(program, number, X86_64, 0);
            let (with_new_user, _) = run(program, number, X86_64, new_user);
            let want = match expected(number) {
                Outcome::Allow => (libc::SECCOMP_RET_ALLOW, libc::SECCOMP_RET_ALLOW),
                Outcome::Refuse => (eperm, eperm),
                Outcome::NoSuchCall => (enosys, enosys),
                Outcome::RefuseNewUser => (libc::SECCOMP_RET_ALLOW, eperm),
            };
            assert_eq!((action, with_new_user), want, "call {number}");
            if action == eperm && number < 0x4000_0000 {
                refused.push(i64::from(number));
            }
            // Another ABI's call is killed, whatever its number.
            assert_eq!(
                run(program, number, 0x4000_0003, 0).0,
                libc::SECCOMP_RET_KILL_PROCESS
            );
        }
        // The list the module's doc gives, by name.
        let mut named = vec![
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
        named.sort_unstable();
        assert_eq!(refused, named);
        assert_eq!(run(program, libc::SYS_clone3 as u32, X86_64, 0).0, enosys);
        for call in [libc::SYS_clone, libc::SYS_unshare] {
            assert_eq!(run(program, call as u32, X86_64, new_user | 0x11).0, eperm);
            assert_eq!(
                run(program, call as u32, X86_64, 0x11).0,
                libc::SECCOMP_RET_ALLOW
            );
        }
        for call in [
            libc::SYS_read,
            libc::SYS_write,
            libc::SYS_mmap,
            libc::SYS_exit_group,
        ] {
            assert_eq!(
                run(program, call as u32, X86_64, 0).0,
                libc::SECCOMP_RET_ALLOW
            );
        }
    }

    /// The kernel runs the program once per call number when it installs it (to learn which
    /// calls need no run at all), in every case: each run must be short. A list of `==`
    /// comparisons took up to 36 steps a number and ~50 µs a case; the search takes at most
    /// 12 (4 before the search, 6 comparisons among its 34 runs of numbers, then at most 3 for
    /// `clone`'s and `unshare`'s flags: 13 would mean one comparison more, 36 a list again).
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn every_call_is_decided_in_a_few_steps() {
        let program = super::FILTER.unwrap();
        let longest = (0..1024u32)
            .map(|number| run(program, number, 0xc000_003e, 0).1)
            .max()
            .unwrap();
        assert!(longest <= 12, "{longest} steps");
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_program_checks_the_abi_first_and_every_jump_lands_inside() {
        let program = super::FILTER.unwrap();
        assert!(program.len() <= 64, "{}", program.len());
        assert_eq!((program[0].code, program[0].k), (0x20, 4), "load the ABI");
        assert_eq!(program[1].k, 0xc000_003e);
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
        assert_eq!(super::program_bytes().len(), 8 * program.len());
    }
}
