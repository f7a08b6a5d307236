//! Where a slot's cases run: each on a CPU of its own, when the judge may use at least as many
//! CPUs as it has slots.
//!
//! A case's program then runs alone on its CPU, as DOMjudge's judgehosts do when they are
//! pinned to cores: it does not migrate, and where the judge has CPUs to spare, the judge's
//! side of the slot (its fork server, which starts the next case while this one runs, and what
//! that starts before a case's turn) keeps to those and never preempts it (measured: `judge
//! stress` +5 to +29 % at 1 job and +1 to +24 % at 2 jobs on two CPUs, see
//! `docs/performance.md`). Its CPU time is measured the same way, by its cgroup; only its
//! neighbours change.
//!
//! A CPU is *claimed* machine-wide by binding an abstract Unix socket named after it (no file,
//! so nothing another user can plant; released by the kernel when the judge exits), so that two
//! judges side by side do not put their cases on the same CPU. A judge that cannot claim one
//! CPU per slot leaves placement to the kernel, as before; so does `BOARDJUDGE_OWN_CPU=0`.

use std::io;
use std::os::linux::net::SocketAddrExt;
use std::os::unix::net::{SocketAddr, UnixListener};

/// The CPUs of a sandbox's slots, claimed for its lifetime.
pub(crate) struct Placement {
    /// Each slot's CPU (one per slot, in slot order).
    pub(crate) cases: Vec<usize>,
    /// The CPUs the judge's side of a slot (its fork server, and what that starts before a
    /// case is let go) keeps to: every allowed one but those claimed here, or every allowed
    /// one when there is none to spare.
    pub(crate) judge: libc::cpu_set_t,
    /// The claims, released when the sandbox is dropped.
    _claims: Vec<UnixListener>,
}

/// The CPUs this process may run on (its affinity mask), in increasing order.
fn allowed() -> io::Result<Vec<usize>> {
    // SAFETY: a zeroed cpu_set_t is an empty set; the call fills it for this process.
    let set = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Err(io::Error::last_os_error());
        }
        set
    };
    // SAFETY: CPU_ISSET reads the set within its size (CPU_SETSIZE bits).
    Ok((0..libc::CPU_SETSIZE as usize)
        .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
        .collect())
}

/// Claims `cpu` machine-wide (in this network namespace, where judges side by side are).
fn claim(cpu: usize) -> Option<UnixListener> {
    let name = format!("boardjudge-cpu-{cpu}");
    let address = SocketAddr::from_abstract_name(name.as_bytes()).ok()?;
    UnixListener::bind_addr(&address).ok()
}

/// One CPU per slot, claimed, and the rest for the judge (all of them when there is none to
/// spare); `None` when the judge may use fewer CPUs than it has slots (or only one), when it
/// cannot claim one per slot (other judges hold them), or when `BOARDJUDGE_OWN_CPU=0`.
pub(crate) fn place(slots: usize) -> Option<Placement> {
    if std::env::var_os("BOARDJUDGE_OWN_CPU").is_some_and(|v| v == "0") {
        return None;
    }
    let allowed = allowed().ok()?;
    if allowed.len() < slots.max(2) {
        return None;
    }
    let spare = allowed.len() > slots;
    let mut cases = Vec::new();
    let mut claims = Vec::new();
    // From the highest CPU down: the kernel's housekeeping tends to the lowest ones. Where
    // there is one to spare, at least one CPU is left to the judge.
    for &cpu in allowed.iter().rev() {
        if cases.len() == slots || (spare && allowed.len() - cases.len() == 1) {
            break;
        }
        if let Some(listener) = claim(cpu) {
            cases.push(cpu);
            claims.push(listener);
        }
    }
    if cases.len() < slots {
        return None;
    }
    // SAFETY: an empty set, filled with CPUs below CPU_SETSIZE.
    let judge = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &cpu in allowed.iter().filter(|cpu| !spare || !cases.contains(cpu)) {
            libc::CPU_SET(cpu, &mut set);
        }
        set
    };
    Some(Placement {
        cases,
        judge,
        _claims: claims,
    })
}

/// A set of the one CPU `cpu`.
pub(crate) fn only(cpu: usize) -> libc::cpu_set_t {
    // SAFETY: an empty set, and one CPU below CPU_SETSIZE (it came from [`allowed`]).
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claimed_cpu_cannot_be_claimed_again_until_it_is_released() {
        // A CPU number no machine has: no other judge holds it.
        let first = claim(100_000 + std::process::id() as usize).expect("a free claim");
        assert!(claim(100_000 + std::process::id() as usize).is_none());
        drop(first);
        assert!(claim(100_000 + std::process::id() as usize).is_some());
    }

    #[test]
    fn with_as_many_slots_as_cpus_each_slot_gets_one_and_the_judge_may_use_all() {
        let allowed = allowed().unwrap();
        let Some(placement) = place(allowed.len()) else {
            // One CPU only, or another judge holds some.
            return;
        };
        let mut cases = placement.cases.clone();
        cases.sort();
        assert_eq!(cases, allowed);
        let in_judge = |cpu: usize| {
            // SAFETY: reading a set within its size.
            unsafe { libc::CPU_ISSET(cpu, &placement.judge) }
        };
        assert!(allowed.iter().all(|&cpu| in_judge(cpu)));
        assert!(place(allowed.len() + 1).is_none());
    }

    #[test]
    fn slots_get_distinct_cpus_and_the_judge_keeps_the_others() {
        let allowed = allowed().unwrap();
        let Some(placement) = place(allowed.len() - 1) else {
            // One CPU only, or another judge holds some: nothing to place.
            return;
        };
        let mut cases = placement.cases.clone();
        cases.sort();
        cases.dedup();
        assert_eq!(cases.len(), allowed.len() - 1);
        let judge: Vec<usize> = allowed
            .iter()
            .copied()
            // SAFETY: reading a set within its size.
            .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &placement.judge) })
            .collect();
        assert_eq!(judge.len(), 1);
        assert!(!cases.contains(&judge[0]));
        // A second sandbox beside it gets none of the claimed CPUs.
        if let Some(second) = place(1) {
            assert!(second.cases.iter().all(|cpu| !cases.contains(cpu)));
        }
        drop(placement);
    }
}
