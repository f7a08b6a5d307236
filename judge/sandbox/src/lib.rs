//! The sandbox a submission runs in, and a contestant's source is built in. What it isolates
//! and what it does not is written down in the README ("The sandbox", a threat-model table).
//! In short, as root, each run gets: new PID, IPC and cgroup namespaces, its lane's mount and
//! empty network namespaces and its slot's UTS namespace; a private, read-only root holding
//! only `/usr`, `/etc` (with generated accounts), the toolchains' folders, a `/dev` like any
//! Linux's and the submission's own files **copied** into `/box` ([`rootfs`]), with a fresh
//! `/tmp` of its own; its lane's cgroups ([`cgroup`]: peak memory, CPU time of every process, a
//! process cap, and the time its processes waited for a CPU); a uid no other judge holds
//! ([`uids`]); Landlock (no TCP, no signals or abstract sockets outside); rlimits as a
//! backstop; a parent-death signal; and a wall clock. Runs start from a fork server per slot
//! ([`server`]: the slot's namespaces made once, two lanes, the next case prestarted; a Python
//! script's cases forked from a zygote). Its standard input is the test file: a sealed
//! `memfd` the judge wrote, read-only to it (`input.rs`). A build ([`build`]) gets the same box
//! with a writable `/box` of fixed size holding only its sources; a jury box ([`JuryBox`]) the
//! same box with per-run files in `/box/case` and a feedback folder `/box/feedback`
//! ([`Sandbox::run_io`]); an interactive pair ([`interact`]) a submission and a validator, each
//! in its own box, talking through two pipes. Without root: a PID
//! namespace inside a user namespace with new IPC and network namespaces and every mount
//! read-only except the scratch directory (where the kernel allows user namespaces), Landlock
//! on files, and rlimits in place of cgroups.
//!
//! The files follow the concern and where their code runs. The judge's side: [`Sandbox`]
//! (`slot/`: the slots, a run in one, the slot's fork server, a jury box's folders, the files
//! on the host without a private root), the input file (`input.rs`), files opened beneath a
//! folder a run could write (`beneath.rs`), [`interact`] (an
//! interactive pair), [`Isolation`] (what this machine allows, `isolation.rs`), the plain types
//! (`types.rs`), the failures ([`error`]), and per concern [`rootfs`], [`spawn`] (`mod.rs`
//! starts a run, `supervise.rs` watches it, `probe.rs` asks the kernel), [`server`]
//! (`mod.rs` the handle, `protocol.rs` the wire, `client.rs` the judge's side of it,
//! `zygote.rs` the Python zygote), [`cgroup`], [`uids`], [`landlock`] and [`build`]. The
//! children's side, code that runs after a `fork` or `clone` of the multi-threaded judge
//! (raw system calls on data prepared before, no allocation: `tests/after_fork.rs` checks
//! it), is the `child.rs` files of `spawn/`, `server/` and `rootfs/`; every child starts from
//! the one helper in `clone.rs`.

mod beneath;
pub mod build;
pub mod cgroup;
mod clone;
mod cpus;
pub mod error;
mod input;
pub mod interact;
mod isolation;
mod keeper;
pub mod landlock;
mod leases;
pub mod remove;
pub mod rootfs;
pub mod seccomp;
pub mod server;
mod slot;
pub mod spawn;
mod types;
pub mod uids;

pub use error::{ChildStage, RootStep, SandboxError, ServerStep, Stage};
pub use interact::{Interaction, Side, ValidatorIo, interact, interact_with_feedback};
pub use isolation::Isolation;
pub use slot::Sandbox;
pub use types::{
    BOX, BoxFile, BuildBox, CASE_DIR, Command, Exit, FEEDBACK_DIR, FeedbackFile, Finished, JuryBox,
    Limits, Missing, Options, PROCESSES_PER_SLOT, Ran, RunIo, SANDBOX_PATH, SANITIZER_OPTIONS,
    Stdin, Stdout,
};
