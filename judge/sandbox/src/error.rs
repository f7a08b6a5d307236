//! The sandbox's errors: [`SandboxError`] says at which stage the sandbox failed, the
//! operating system's reason when there is one, and what it was doing or about (a path, a
//! step of the root, the fork server's exchange).
//!
//! The crate's functions return `std::io::Result` (their callers map an `io::Error` to their
//! own messages); a failure of the sandbox's own is a `SandboxError` inside it, of the kind
//! [`SandboxError::kind`] says, and [`SandboxError::of`] finds it again.

use std::fmt;
use std::io;
use std::path::Path;

/// What the sandbox failed at, the reason the system gave, and what it was about.
#[derive(Debug, thiserror::Error)]
#[error("{context}{}", Reason(.source))]
pub struct SandboxError {
    pub stage: Stage,
    /// What was being done, or what it was about, in words (the message without the reason).
    pub context: String,
    /// The reason the system gave (an errno), or the error of a file operation.
    pub source: Option<io::Error>,
}

/// Where the sandbox failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The command (or a path the sandbox was given) holds a NUL byte.
    NulByte,
    /// A file or folder for the box has a name that is not a safe box path.
    BoxPath,
    /// A toolchain folder that cannot be shown in the box.
    ToolchainRoot,
    /// Building a slot's root: its namespaces, mounts and files.
    Root(RootStep),
    /// The slots' scratch directories (without a private root).
    Scratch,
    /// A slot lacks what it should have (its box, or its namespaces, groups or uids).
    Slot,
    /// Leasing the sandbox's uids.
    Uids,
    /// Making, readying or reading a cgroup.
    Cgroup,
    /// A child of the sandbox, between its clone and its `exec`.
    Child(ChildStage),
    /// A step of the fork server's own.
    Server(ServerStep),
    /// An exchange with the fork server: an answer out of turn, or none.
    Protocol,
    /// A lane's zygote: it did not start, fork or answer.
    Zygote,
    /// The zygote says the script is not for it (an `Unsupported` error).
    ZygoteRefused,
    /// The zygote did not say in time how a case ended (a `TimedOut` error).
    ZygoteTimedOut,
    /// The judge was interrupted (an `Interrupted` error).
    Interrupted,
}

/// The step at which a child failed before its program started, as it reports it (one byte,
/// written to its error pipe, or relayed by the fork server).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChildStage {
    Dup2 = 0,
    Chdir = 1,
    Setrlimit = 2,
    Landlock = 3,
    SetUid = 4,
    Exec = 5,
    JoinCgroups = 6,
    EnterNamespaces = 7,
    MountTmpProc = 8,
    ParentDeathSignal = 9,
    ReadOnlyTree = 10,
    SessionKeyring = 11,
    OwnUserNamespace = 12,
    CgroupNamespace = 13,
    StopAtExec = 14,
    Seccomp = 15,
}

impl ChildStage {
    const ALL: [ChildStage; 16] = [
        ChildStage::Dup2,
        ChildStage::Chdir,
        ChildStage::Setrlimit,
        ChildStage::Landlock,
        ChildStage::SetUid,
        ChildStage::Exec,
        ChildStage::JoinCgroups,
        ChildStage::EnterNamespaces,
        ChildStage::MountTmpProc,
        ChildStage::ParentDeathSignal,
        ChildStage::ReadOnlyTree,
        ChildStage::SessionKeyring,
        ChildStage::OwnUserNamespace,
        ChildStage::CgroupNamespace,
        ChildStage::StopAtExec,
        ChildStage::Seccomp,
    ];

    /// The stage a child reported as `byte`, if it is one.
    pub fn from_byte(byte: u8) -> Option<ChildStage> {
        ChildStage::ALL.get(usize::from(byte)).copied()
    }

    /// What the child was doing, in words.
    pub fn name(self) -> &'static str {
        match self {
            ChildStage::Dup2 => "dup2",
            ChildStage::Chdir => "chdir",
            ChildStage::Setrlimit => "setrlimit",
            ChildStage::Landlock => "landlock",
            ChildStage::SetUid => "setgid/setuid",
            ChildStage::Exec => "execve",
            ChildStage::JoinCgroups => "joining the cgroups",
            ChildStage::EnterNamespaces => "entering the slot's namespaces",
            ChildStage::MountTmpProc => "mounting /tmp and /proc",
            ChildStage::ParentDeathSignal => "parent-death signal",
            ChildStage::ReadOnlyTree => "making the tree read-only",
            ChildStage::SessionKeyring => "a session keyring of its own",
            ChildStage::OwnUserNamespace => "a user namespace of its own",
            ChildStage::CgroupNamespace => "a cgroup namespace of its own",
            ChildStage::StopAtExec => "stopping at exec (ptrace)",
            ChildStage::Seccomp => "the system-call filter (seccomp)",
        }
    }
}

/// A step of the fork server's own that failed, as it reports it (after the child stages on
/// the wire: see `server::protocol`).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerStep {
    EnterSlotNamespaces = 0,
    MountProc = 1,
    OpenNamespaces = 2,
    MakeLanes = 3,
    LaneNamespaces = 4,
    EnterLane = 5,
    ErrorPipe = 6,
    Clone = 7,
    Pidfd = 8,
    EndedAtExec = 9,
    BadStreams = 10,
    /// A case cannot stop at its `exec` as the server's tracee (ptrace is not allowed).
    NoTracing = 11,
}

impl ServerStep {
    const ALL: [ServerStep; 12] = [
        ServerStep::EnterSlotNamespaces,
        ServerStep::MountProc,
        ServerStep::OpenNamespaces,
        ServerStep::MakeLanes,
        ServerStep::LaneNamespaces,
        ServerStep::EnterLane,
        ServerStep::ErrorPipe,
        ServerStep::Clone,
        ServerStep::Pidfd,
        ServerStep::EndedAtExec,
        ServerStep::BadStreams,
        ServerStep::NoTracing,
    ];

    /// The step the server reported as `byte`, if it is one.
    pub fn from_byte(byte: u8) -> Option<ServerStep> {
        ServerStep::ALL.get(usize::from(byte)).copied()
    }

    /// What the server was doing, in words.
    pub fn name(self) -> &'static str {
        match self {
            ServerStep::EnterSlotNamespaces => "entering the slot's namespaces",
            ServerStep::MountProc => "mounting /proc",
            ServerStep::OpenNamespaces => "opening its namespaces",
            ServerStep::MakeLanes => "making the lanes' namespaces",
            ServerStep::LaneNamespaces => "opening the lanes' namespaces",
            ServerStep::EnterLane => "entering a lane's namespaces",
            ServerStep::ErrorPipe => "a case's error pipe",
            ServerStep::Clone => "clone",
            ServerStep::Pidfd => "pidfd_open",
            ServerStep::EndedAtExec => "the case ended at its exec",
            ServerStep::BadStreams => "the case's streams",
            ServerStep::NoTracing => "stopping a case at its exec",
        }
    }
}

/// The step at which the child that builds a slot's root failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootStep {
    /// `unshare` of the mount, network and UTS namespaces.
    Unshare,
    /// Making `/` private (nothing done propagates to the host).
    MakePrivate,
    /// Opening the new namespaces.
    OpenNamespaces,
    /// Opening a host path to bind.
    OpenSource,
    /// Mounting the root's tmpfs.
    MountRoot,
    /// Step `k` of the plan (a mkdir, a bind, a file written, …).
    Plan(usize),
    /// `pivot_root` into the new root.
    PivotRoot,
    /// Remounting the new root read-only.
    ReadOnly,
    /// The child ended without a namespace or the box, and said nothing.
    Unknown,
}

impl RootStep {
    /// What the child was doing, in words (a step of the plan is named by the caller).
    pub fn name(self) -> &'static str {
        match self {
            RootStep::Unshare => "unshare(mount, network, uts)",
            RootStep::MakePrivate => "making / private",
            RootStep::OpenNamespaces => "opening the namespaces",
            RootStep::OpenSource => "opening a path to bind",
            RootStep::MountRoot => "mounting the root tmpfs",
            RootStep::Plan(_) => "a step of the plan",
            RootStep::PivotRoot => "pivot_root",
            RootStep::ReadOnly => "making the root read-only",
            RootStep::Unknown => "failed",
        }
    }
}

/// `: reason`, when there is one.
struct Reason<'a>(&'a Option<io::Error>);

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(reason) => write!(f, ": {reason}"),
            None => Ok(()),
        }
    }
}

impl SandboxError {
    /// A failure at `stage` with no reason from the system: `context` says it all.
    pub fn new(stage: Stage, context: impl Into<String>) -> SandboxError {
        SandboxError {
            stage,
            context: context.into(),
            source: None,
        }
    }

    /// A failure at `stage`, about `context`, for the reason `source`.
    pub fn because(stage: Stage, context: impl Into<String>, source: io::Error) -> SandboxError {
        SandboxError {
            stage,
            context: context.into(),
            source: Some(source),
        }
    }

    /// A failure at `stage`, about `context`, with the system's error number `errno`.
    pub fn errno_at(stage: Stage, context: impl Into<String>, errno: i32) -> SandboxError {
        SandboxError::because(stage, context, io::Error::from_raw_os_error(errno))
    }

    /// A file operation on `path` failed at `stage` (`path: reason`).
    pub fn at_path(stage: Stage, path: &Path, source: io::Error) -> SandboxError {
        SandboxError::because(stage, path.display().to_string(), source)
    }

    /// A NUL byte in `what` (`a path`, `the command`).
    pub fn nul_byte(what: &str) -> SandboxError {
        SandboxError::new(Stage::NulByte, format!("a NUL byte in {what}"))
    }

    /// `path` is no safe box path.
    pub fn not_a_box_path(path: &str) -> SandboxError {
        SandboxError::new(Stage::BoxPath, format!("{path}: not a box path"))
    }

    /// A child that could not start the program: the stage it reported (`byte`) and why.
    pub fn child(byte: u8, errno: i32) -> SandboxError {
        let (stage, name) = match ChildStage::from_byte(byte) {
            Some(stage) => (Stage::Child(stage), stage.name()),
            None => (Stage::Protocol, "start"),
        };
        SandboxError::errno_at(
            stage,
            format!("could not start the submission ({name})"),
            errno,
        )
    }

    /// The system's error number, if the system gave the reason.
    pub fn errno(&self) -> Option<i32> {
        self.source.as_ref().and_then(io::Error::raw_os_error)
    }

    /// The kind of `io::Error` this is as: the stage's for an interruption and the zygote's
    /// refusal and silence, the file operation's for the cgroup and uid files, else `Other`.
    /// An errno of the sandbox's own steps (a child's `EINTR`, say) does not make it an error
    /// of that kind for the caller (an `Interrupted` build is the user's Ctrl-C).
    pub fn kind(&self) -> io::ErrorKind {
        match self.stage {
            Stage::Interrupted => io::ErrorKind::Interrupted,
            Stage::ZygoteRefused => io::ErrorKind::Unsupported,
            Stage::ZygoteTimedOut => io::ErrorKind::TimedOut,
            Stage::Cgroup | Stage::Uids => self
                .source
                .as_ref()
                .map_or(io::ErrorKind::Other, io::Error::kind),
            _ => io::ErrorKind::Other,
        }
    }

    /// The `SandboxError` inside an `io::Error` this crate returned, if it is one.
    pub fn of(error: &io::Error) -> Option<&SandboxError> {
        error.get_ref()?.downcast_ref::<SandboxError>()
    }

    /// The stage of the `SandboxError` inside `error`, if it is one.
    pub fn stage_of(error: &io::Error) -> Option<Stage> {
        SandboxError::of(error).map(|e| e.stage)
    }
}

impl From<SandboxError> for io::Error {
    fn from(error: SandboxError) -> io::Error {
        io::Error::new(error.kind(), error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_is_the_context_then_the_reason() {
        let e = SandboxError::child(ChildStage::Exec as u8, libc::ENOENT);
        assert_eq!(e.stage, Stage::Child(ChildStage::Exec));
        assert_eq!(e.errno(), Some(libc::ENOENT));
        let io: io::Error = e.into();
        assert_eq!(
            io.to_string(),
            "could not start the submission (execve): No such file or directory (os error 2)"
        );
        assert_eq!(io.kind(), io::ErrorKind::Other);
        assert_eq!(
            SandboxError::stage_of(&io),
            Some(Stage::Child(ChildStage::Exec))
        );
        let plain: io::Error = SandboxError::nul_byte("a path").into();
        assert_eq!(plain.to_string(), "a NUL byte in a path");
        assert_eq!(plain.kind(), io::ErrorKind::Other);
    }

    #[test]
    fn refusals_keep_the_kinds_callers_look_for() {
        for (stage, kind) in [
            (Stage::Interrupted, io::ErrorKind::Interrupted),
            (Stage::ZygoteRefused, io::ErrorKind::Unsupported),
            (Stage::ZygoteTimedOut, io::ErrorKind::TimedOut),
        ] {
            let e: io::Error = SandboxError::new(stage, "x").into();
            assert_eq!(e.kind(), kind);
        }
        let at = SandboxError::at_path(
            Stage::Cgroup,
            Path::new("/sys/fs/cgroup/x"),
            io::Error::from_raw_os_error(libc::EACCES),
        );
        let e: io::Error = at.into();
        assert_eq!(e.kind(), io::ErrorKind::PermissionDenied);
        let interrupted_child: io::Error = SandboxError::child(0, libc::EINTR).into();
        assert_eq!(interrupted_child.kind(), io::ErrorKind::Other);
        assert_eq!(
            e.to_string(),
            "/sys/fs/cgroup/x: Permission denied (os error 13)"
        );
    }

    #[test]
    fn every_stage_byte_comes_back_as_its_stage() {
        for stage in ChildStage::ALL {
            assert_eq!(ChildStage::from_byte(stage as u8), Some(stage));
        }
        for step in ServerStep::ALL {
            assert_eq!(ServerStep::from_byte(step as u8), Some(step));
        }
        assert_eq!(ChildStage::from_byte(16), None);
        assert_eq!(ServerStep::from_byte(12), None);
        let unknown = SandboxError::child(200, libc::EIO);
        assert_eq!(unknown.stage, Stage::Protocol);
        assert!(
            unknown
                .to_string()
                .starts_with("could not start the submission (start): ")
        );
    }
}
