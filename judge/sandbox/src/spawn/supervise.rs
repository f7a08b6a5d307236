//! The judge's side of a run once it started: its output collected, its clocks (wall, CPU,
//! time waiting for a CPU) watched, the other side of an interactive pair heeded, and it killed
//! and decoded. (Its input is a file the judge wrote before it started, or a descriptor the
//! caller gave: nothing to feed here.)

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::types::{Exit, Finished};

/// Limits the parent enforces while the child runs.
pub struct Watch<'a> {
    pub wall: Duration,
    pub output_cap: usize,
    pub stderr_cap: usize,
    pub interrupted: &'a std::sync::atomic::AtomicBool,
    /// The CPU-time limit, enforced while the run goes on when `cpu_usage` can tell.
    pub cpu_limit: Duration,
    /// CPU time of everything the run started so far (its cgroup), if known.
    pub cpu_usage: Option<&'a (dyn Fn() -> Option<Duration> + Sync)>,
    /// How long the run's processes were all kept waiting for a CPU since `adopt` was first
    /// called (its cgroup's pressure stall information), if known: given back on the wall
    /// clock.
    pub waited: Option<&'a (dyn Fn() -> Option<Duration> + Sync)>,
    /// Called once the run has lasted [`SAMPLE_WAITS`], and at every sample after: starts
    /// measuring its pressure.
    pub adopt: Option<&'a (dyn Fn() + Sync)>,
    /// The processes of the run (its cgroup's), if known; else only the child is looked at.
    /// Their waiting times (`/proc/PID/schedstat`) are summed too, as a second measure.
    pub tasks: Option<&'a (dyn Fn() -> Vec<libc::pid_t> + Sync)>,
    /// Stop the run when standard output passes `output_cap` (else the rest is drained).
    pub stop_at_output_cap: bool,
    /// Called once the run is under way (its input was there before it started): what the
    /// judge does then (start the next case of a fork server) overlaps the run.
    pub after_input: Option<&'a (dyn Fn() + Sync)>,
    /// One side of an interactive pair: the other side's end heeded.
    pub pair: Option<&'a Paired<'a>>,
}

/// One side of an interactive pair, as its watch sees it (see `interact.rs`).
pub struct Paired<'a> {
    /// An eventfd that becomes readable once the other side is over: this run then ends within
    /// `grace` (at once if what it reads is [`ABORT`] or more: the other side failed).
    pub other_over: RawFd,
    pub grace: Duration,
    /// Called once, when this run is over: its top process exited, or the watch ends it.
    pub over: &'a (dyn Fn() + Sync),
    /// Set when this run was killed at the end of its grace.
    pub cut_off: &'a AtomicBool,
}

/// What a side writes to the other's `other_over` when it failed (could not start, say): the
/// other is killed at once rather than after its grace.
pub const ABORT: u64 = 1 << 32;

/// How often the run's tasks' waiting times are sampled.
const SAMPLE_WAITS: Duration = Duration::from_millis(50);

/// Time the run's tasks spent runnable but waiting for a CPU, from `/proc/PID/schedstat`,
/// summed over every task ever seen (exited ones with their last sample, taken every
/// [`SAMPLE_WAITS`]).
#[derive(Default)]
struct QueueWaits {
    /// pid → last `run_delay` seen, ns.
    last: std::collections::HashMap<libc::pid_t, u64>,
    /// Waits of tasks whose pid was reused by a later task of the run.
    gone: u64,
}

impl QueueWaits {
    fn sample(&mut self, tasks: &[libc::pid_t]) {
        for &pid in tasks {
            let Some(delay) = std::fs::read_to_string(format!("/proc/{pid}/schedstat"))
                .ok()
                .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
            else {
                continue;
            };
            let last = self.last.entry(pid).or_insert(0);
            if delay < *last {
                // A new task with a pid the run used before.
                self.gone += *last;
            }
            *last = delay;
        }
    }

    fn total(&self) -> Duration {
        Duration::from_nanos(self.gone + self.last.values().sum::<u64>())
    }
}

pub(crate) fn decode(status: i32) -> Exit {
    if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    }
}

pub(super) fn kill_all(pid: libc::pid_t, namespace: bool) {
    // SAFETY: signals to our own child (and, without a namespace, its process group).
    unsafe {
        if namespace {
            libc::kill(pid, libc::SIGKILL);
        } else {
            libc::kill(-pid, libc::SIGKILL);
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// Collects standard output (when `stdout` is the judge's end of it) and error, and watches
/// the clock, the output cap, the interrupt flag and the other side of a pair, until the
/// submission has exited and its pipes are closed. `pidfd` becomes readable when the
/// submission's top process exits; `pid` (in this process's PID namespace, 0 if unknown) is
/// whose waits are sampled when `watch` has no task list.
pub(crate) fn supervise(
    pidfd: &OwnedFd,
    pid: libc::pid_t,
    stdout: Option<OwnedFd>,
    stderr: OwnedFd,
    watch: &Watch<'_>,
    started: Instant,
) -> io::Result<Finished> {
    use std::sync::atomic::Ordering;
    for fd in stdout.iter().chain([&stderr]) {
        // SAFETY: setting O_NONBLOCK on the judge's ends of the pipes.
        unsafe {
            let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
            libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
    }
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let (mut out_open, mut err_open, mut exited) = (stdout.is_some(), true, false);
    // When the other side of a pair is over: the end of this run's grace.
    let mut cut_off_at: Option<Instant> = None;
    let mut over = watch.pair.map(|p| p.over);
    let mut finished = Finished {
        exit: Exit::Code(0),
        cpu: Duration::ZERO,
        wall: Duration::ZERO,
        peak_kb: 0,
        stdout: Vec::new(),
        stderr: Vec::new(),
        output_exceeded: false,
        wall_exceeded: false,
        cpu_exceeded: false,
        memory_exceeded: false,
        interrupted: false,
    };
    // When to look at the CPU time next (nothing of the run has run before its input).
    let mut cpu_look_at = started + Duration::from_millis(2);
    // Its input was there before it started.
    if let Some(hook) = watch.after_input {
        hook();
    }
    // Asked once: it reads the cgroup's CPU quota files, every time.
    static CORES: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let cores =
        *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()) as u32);
    let mut buffer = vec![0u8; 16 * 1024];
    let mut deadline = started + watch.wall;
    let mut queue = QueueWaits::default();
    // A run shorter than this is never near its wall clock: nothing to sample.
    let mut sample_at = started + SAMPLE_WAITS;
    // After the exit, how long pipes held open by leftovers (without a namespace) may delay us.
    let mut grace: Option<Instant> = None;
    loop {
        if exited && !out_open && !err_open {
            break;
        }
        let now = Instant::now();
        if !exited && now >= sample_at {
            sample_at = now + SAMPLE_WAITS;
            if let Some(adopt) = watch.adopt {
                adopt();
            }
            queue.sample(&watch.tasks.map_or_else(|| vec![pid], |t| t()));
        }
        if now >= deadline && !exited {
            // The wall clock is there for runs that sleep or block. A run that was kept
            // waiting for a CPU by others' load gets that time back (up to 10 x the wall
            // limit in all), for every process it ran, exited ones included: the verdict
            // must not depend on the machine's load. Two measures, each short of the truth,
            // the larger stands: the group's pressure (exact for exited processes, but
            // averaged over the CPUs the run's tasks moved between, so short of the wait
            // when they move) and the sum of every task's own wait (exact per task, but an
            // exited task's last ≤ 50 ms are not seen). Both start after the run's first
            // SAMPLE_WAITS.
            queue.sample(&watch.tasks.map_or_else(|| vec![pid], |t| t()));
            let pressure = watch.waited.and_then(|w| w()).unwrap_or(Duration::ZERO);
            let waited = pressure.max(queue.total());
            let elapsed = now.duration_since(started);
            if elapsed.saturating_sub(waited) < watch.wall && elapsed < watch.wall * 10 {
                deadline = started + watch.wall + waited.max(Duration::from_millis(10));
                continue;
            }
            finished.wall_exceeded = true;
            break;
        }
        if grace.is_some_and(|g| now >= g) {
            break;
        }
        if !exited
            && let (Some(at), Some(pair)) = (cut_off_at, watch.pair)
            && now >= at
        {
            pair.cut_off.store(true, Ordering::Relaxed);
            break;
        }
        if watch.interrupted.load(Ordering::Relaxed) {
            finished.interrupted = true;
            break;
        }
        let mut fds = [libc::pollfd {
            fd: -1,
            events: 0,
            revents: 0,
        }; 4];
        if let (Some(pair), None, false) = (watch.pair, cut_off_at, exited) {
            fds[0] = libc::pollfd {
                fd: pair.other_over,
                events: libc::POLLIN,
                revents: 0,
            };
        }
        if let (true, Some(stdout)) = (out_open, &stdout) {
            fds[1] = libc::pollfd {
                fd: stdout.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
        }
        if err_open {
            fds[2] = libc::pollfd {
                fd: stderr.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
        }
        if !exited {
            fds[3] = libc::pollfd {
                fd: pidfd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
        }
        // With a CPU gauge, look again before the run could have used what it has left,
        // however many cores it keeps busy: a CPU-bound run is stopped just past its limit.
        let mut next_look = now + Duration::from_millis(100);
        if let (Some(usage), false) = (watch.cpu_usage, exited) {
            if now >= cpu_look_at {
                cpu_look_at = now + Duration::from_millis(100);
                if let Some(used) = usage() {
                    if used > watch.cpu_limit {
                        finished.cpu_exceeded = true;
                        break;
                    }
                    let left = (watch.cpu_limit - used) / cores;
                    cpu_look_at =
                        now + left.clamp(Duration::from_millis(2), Duration::from_millis(100));
                }
            }
            next_look = cpu_look_at;
        }
        if !exited {
            next_look = next_look.min(sample_at);
        }
        let mut until = grace.unwrap_or(deadline).min(next_look);
        if let (Some(at), false) = (cut_off_at, exited) {
            until = until.min(at);
        }
        let timeout = until
            .saturating_duration_since(now)
            .as_millis()
            .clamp(1, 100) as i32;
        // SAFETY: a valid array of pollfd (negative fds are ignored by poll).
        unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout) };
        if let (true, Some(pair)) = (fds[0].revents != 0, watch.pair) {
            let mut value = 0u64;
            // SAFETY: reading an eventfd's counter into a local integer.
            unsafe { libc::read(pair.other_over, (&mut value as *mut u64).cast(), 8) };
            let grace = if value >= ABORT {
                Duration::ZERO
            } else {
                pair.grace
            };
            cut_off_at = Some(Instant::now() + grace);
        }
        for (k, open) in [(1, &mut out_open), (2, &mut err_open)] {
            if fds[k].revents == 0 {
                continue;
            }
            // SAFETY: reading into our buffer.
            let n = unsafe { libc::read(fds[k].fd, buffer.as_mut_ptr().cast(), buffer.len()) };
            if n == 0 || n < 0 && io::Error::last_os_error().kind() != io::ErrorKind::WouldBlock {
                *open = false;
            } else if n > 0 {
                let chunk = &buffer[..n as usize];
                if k == 1 {
                    if out.len() <= watch.output_cap {
                        out.extend_from_slice(chunk);
                    }
                    if out.len() > watch.output_cap {
                        out.truncate(watch.output_cap);
                        finished.output_exceeded = true;
                    }
                } else if err.len() < watch.stderr_cap {
                    // Keep the start of standard error; drain the rest.
                    let keep = (watch.stderr_cap - err.len()).min(chunk.len());
                    err.extend_from_slice(&chunk[..keep]);
                }
            }
        }
        if fds[3].revents != 0 {
            exited = true;
            grace = Some(Instant::now() + Duration::from_secs(2));
            if let Some(over) = over.take() {
                over();
            }
        }
        if finished.output_exceeded && watch.stop_at_output_cap {
            break;
        }
    }
    // Ended by the watch (it is killed as this returns), if it did not exit.
    if let Some(over) = over.take() {
        over();
    }
    finished.wall = started.elapsed();
    finished.stdout = out;
    finished.stderr = err;
    Ok(finished)
}
