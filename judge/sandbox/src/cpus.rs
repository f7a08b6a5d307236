//! Where a slot's cases run: each on a CPU of its own, when the judge may use at least as many
//! CPUs as it has slots.
//!
//! A case's program then runs alone on its CPU, as DOMjudge's judgehosts do when they are
//! pinned to cores: it does not migrate, and where the judge has CPUs to spare, the slot's fork
//! server (which starts the next case while this one runs) and what that starts before a
//! case's turn keep to those and never preempt it (measured: `judge stress` +5 to +29 % at 1
//! job and +1 to +24 % at 2 jobs on two CPUs, see `docs/performance.md`). Its CPU time is
//! measured the same way, by its cgroup. What changes for the program: it sees one CPU
//! (`sched_getaffinity`, which the JVM and Go's runtime size themselves by).
//!
//! A CPU is claimed as a [lease](crate::leases) (`/run/lock/boardjudge/cpu-N`), so that two
//! judges on one machine (sharing `/run`) do not put their cases on the same CPU. A judge that
//! cannot claim one CPU per slot leaves placement to the kernel, as before; so does
//! `BOARDJUDGE_OWN_CPU=0`.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use crate::leases;

/// The CPUs of a sandbox's slots, claimed for its lifetime.
pub(crate) struct Placement {
    /// Each slot's CPU (one per slot, in slot order).
    pub(crate) cases: Vec<usize>,
    /// The CPUs the judge's side of a slot (its fork server, and what that starts before a
    /// case is let go) keeps to: every allowed one that no judge claimed, or every allowed one
    /// when none is left.
    pub(crate) judge: libc::cpu_set_t,
    /// Every CPU the judge may use: the server's again should a case refuse to be moved.
    pub(crate) all: libc::cpu_set_t,
    /// The claims, released when the sandbox is dropped.
    _claims: Vec<File>,
}

/// A set of `cpus` (each below `CPU_SETSIZE`).
fn set_of(cpus: impl IntoIterator<Item = usize>) -> libc::cpu_set_t {
    // SAFETY: an empty set, and CPUs below CPU_SETSIZE (they came from [`allowed`]).
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for cpu in cpus {
            libc::CPU_SET(cpu, &mut set);
        }
        set
    }
}

/// The CPUs in `set`, in increasing order.
fn members(set: &libc::cpu_set_t) -> Vec<usize> {
    // SAFETY: CPU_ISSET reads the set within its size (CPU_SETSIZE bits).
    (0..libc::CPU_SETSIZE as usize)
        .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, set) })
        .collect()
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
    Ok(members(&set))
}

/// Where the CPU leases are: the judges' lease folder, or `BOARDJUDGE_CPU_LEASES` (a folder of
/// its own, for tests that must not see the CPUs other judges beside them hold; it can only
/// make placement collide, never weaken the box).
fn lease_dir() -> io::Result<PathBuf> {
    match std::env::var_os("BOARDJUDGE_CPU_LEASES") {
        Some(dir) => Ok(PathBuf::from(dir)),
        None => leases::dir(),
    }
}

/// Claims `cpu`: its lease file in `dir`, if no judge holds it.
fn claim(dir: &Path, cpu: usize) -> Option<File> {
    leases::hold(&dir.join(format!("cpu-{cpu}"))).ok().flatten()
}

/// One CPU per slot, claimed, and the CPUs no judge claimed for the judge; `None` when the
/// judge may use fewer CPUs than it has slots (or only one), when it cannot claim one per slot
/// (other judges hold them), or when `BOARDJUDGE_OWN_CPU=0`.
pub(crate) fn place(slots: usize) -> Option<Placement> {
    if std::env::var_os("BOARDJUDGE_OWN_CPU").is_some_and(|v| v == "0") {
        return None;
    }
    place_among(&allowed().ok()?, slots, &lease_dir().ok()?)
}

/// [`place`] among the CPUs `allowed`, with the leases in `dir`.
fn place_among(allowed: &[usize], slots: usize, dir: &Path) -> Option<Placement> {
    if allowed.len() < slots.max(2) {
        return None;
    }
    let mut cases = Vec::new();
    let mut taken = Vec::new(); // by another judge
    let mut claims = Vec::new();
    // From the highest CPU down: the kernel's housekeeping tends to the lowest ones, and the
    // judge keeps what is left.
    for &cpu in allowed.iter().rev() {
        if cases.len() == slots {
            break;
        }
        match claim(dir, cpu) {
            Some(lease) => {
                cases.push(cpu);
                claims.push(lease);
            }
            None => taken.push(cpu),
        }
    }
    if cases.len() < slots {
        return None;
    }
    let free: Vec<usize> = allowed
        .iter()
        .copied()
        .filter(|cpu| !cases.contains(cpu) && !taken.contains(cpu))
        .collect();
    let judge = if free.is_empty() {
        set_of(allowed.iter().copied())
    } else {
        set_of(free)
    };
    Some(Placement {
        cases,
        judge,
        all: set_of(allowed.iter().copied()),
        _claims: claims,
    })
}

/// A set of the one CPU `cpu`.
pub(crate) fn only(cpu: usize) -> libc::cpu_set_t {
    set_of([cpu])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leases(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cpu-leases-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_claimed_cpu_cannot_be_claimed_again_until_it_is_released() {
        let dir = leases("claim");
        let first = claim(&dir, 3).expect("a free claim");
        assert!(claim(&dir, 3).is_none());
        drop(first);
        assert!(claim(&dir, 3).is_some());
    }

    #[test]
    fn slots_get_the_highest_cpus_and_the_judge_keeps_the_others() {
        let dir = leases("spare");
        let placement = place_among(&[0, 2, 5, 7], 2, &dir).unwrap();
        assert_eq!(placement.cases, [7, 5]);
        assert_eq!(members(&placement.judge), [0, 2]);
        assert_eq!(members(&placement.all), [0, 2, 5, 7]);
        // A second judge beside it gets the next ones, and keeps to what nobody claimed.
        let second = place_among(&[0, 2, 5, 7], 1, &dir).unwrap();
        assert_eq!(second.cases, [2]);
        assert_eq!(members(&second.judge), [0]);
        // A third gets the last one, and its server may use them all; a fourth gets none.
        let third = place_among(&[0, 2, 5, 7], 1, &dir).unwrap();
        assert_eq!(third.cases, [0]);
        assert_eq!(members(&third.judge), [0, 2, 5, 7]);
        assert!(place_among(&[0, 2, 5, 7], 1, &dir).is_none());
        drop(placement);
        assert_eq!(place_among(&[0, 2, 5, 7], 1, &dir).unwrap().cases, [7]);
    }

    #[test]
    fn with_as_many_slots_as_cpus_each_slot_gets_one_and_the_judge_may_use_all() {
        let dir = leases("all");
        let placement = place_among(&[0, 1], 2, &dir).unwrap();
        assert_eq!(placement.cases, [1, 0]);
        assert_eq!(members(&placement.judge), [0, 1]);
        assert!(place_among(&[0, 1], 3, &leases("more")).is_none());
        assert!(place_among(&[0], 1, &leases("one")).is_none());
    }

    #[test]
    fn cpus_another_judge_holds_are_neither_a_slots_nor_the_judges() {
        let dir = leases("taken");
        let other = claim(&dir, 3).unwrap();
        let placement = place_among(&[0, 1, 2, 3], 1, &dir).unwrap();
        assert_eq!(placement.cases, [2]);
        assert_eq!(members(&placement.judge), [0, 1]);
        // Two slots on two free CPUs of three: the judge shares them all (none is unclaimed).
        drop(placement);
        let placement = place_among(&[1, 2, 3], 2, &dir).unwrap();
        assert_eq!(placement.cases, [2, 1]);
        assert_eq!(members(&placement.judge), [1, 2, 3]);
        drop(other);
    }
}
