//! What a box's walls are ([`Sandbox`]), with the defaults written once, and the protections
//! `quads sandbox` reports, each with the kernel mechanism that enforces it.

/// The protections of one box. `None` or `false` turns one off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sandbox {
    /// Bytes of memory for the whole box, shared memory and its `/tmp` included (the memory
    /// cgroup), and for each of its processes (`RLIMIT_DATA`).
    pub memory: Option<u64>,
    /// Threads and processes in the whole box (the pids cgroup; `RLIMIT_NPROC` where no
    /// cgroup can be had).
    pub processes: Option<u64>,
    /// CPU seconds for each of its processes: `RLIMIT_CPU`, a runaway guard.
    pub cpu: Option<u64>,
    /// The most CPU the whole box may use at once, in thousandths of a core (the cpu
    /// cgroup's quota).
    pub cores: Option<u32>,
    /// The largest file it may write, in bytes: `RLIMIT_FSIZE`.
    pub file_size: Option<u64>,
    /// The size of its private `/tmp` (a tmpfs, also its `TMPDIR`, `HOME` and `/dev/shm`).
    pub tmp: u64,
    /// Whether it may use the network; if not, it has a network namespace of its own (a
    /// loopback that is down) and Landlock denies TCP.
    pub network: bool,
    /// Whether it sees a root of its own: the system's folders and its own folder read-only,
    /// a private `/tmp`, a minimal `/dev`, nothing else (a mount namespace; Landlock behind it).
    pub filesystem: bool,
    /// Whether it lives in namespaces of its own for processes, IPC and the host name (it sees
    /// and signals only its own processes; they all end with it), with Landlock's scopes.
    pub isolation: bool,
    /// Whether the system calls that reach into the kernel's own business are refused
    /// (seccomp: namespaces, mounts, tracing, keys, BPF, perf, modules, reboot...).
    pub syscalls: bool,
}

/// One core, in the unit of [`Sandbox::cores`].
pub const CORE: u32 = 1000;

impl Default for Sandbox {
    /// Every protection on: 1 GiB of memory, 64 threads and processes, 10 CPU minutes per
    /// process, one core, 64 MiB files, a 64 MiB `/tmp`, no network, a root of its own,
    /// namespaces of its own, the syscall filter.
    fn default() -> Sandbox {
        Sandbox {
            memory: Some(1 << 30),
            processes: Some(64),
            cpu: Some(600),
            cores: Some(CORE),
            file_size: Some(64 << 20),
            tmp: 64 << 20,
            network: false,
            filesystem: true,
            isolation: true,
            syscalls: true,
        }
    }
}

impl Sandbox {
    /// No protection at all: the bot runs with the referee's rights, in the referee's view.
    pub const OFF: Sandbox = Sandbox {
        memory: None,
        processes: None,
        cpu: None,
        cores: None,
        file_size: None,
        tmp: 64 << 20,
        network: true,
        filesystem: false,
        isolation: false,
        syscalls: false,
    };

    /// The walls of a build: as a bot's, but room for a compiler (4 GiB, 512 threads and
    /// processes, every core, 512 MiB files, a 1 GiB `/tmp`) and no CPU-time guard (a build
    /// has a time limit of its own).
    pub fn build() -> Sandbox {
        Sandbox {
            memory: Some(4 << 30),
            processes: Some(512),
            cpu: None,
            cores: None,
            file_size: Some(512 << 20),
            tmp: 1 << 30,
            ..Sandbox::default()
        }
    }

    /// Whether anything is on (a box is built at all).
    pub fn is_on(&self) -> bool {
        Sandbox {
            tmp: 0,
            ..self.clone()
        } != Sandbox {
            tmp: 0,
            ..Sandbox::OFF
        }
    }
}

/// Each protection `quads-jail --probe` reports, with what it does by default and how.
pub const PROTECTIONS: [(&str, &str); 13] = [
    ("filesystem", "a root of its own: the system's folders and its own folder read-only, nothing else (mount namespace, pivot_root)"),
    ("tmp", "a private /tmp of 64 MiB, also its TMPDIR, HOME and /dev/shm, gone with it (tmpfs)"),
    ("isolation", "its own processes only, all ended with it; its own IPC and host name (PID, IPC, UTS namespaces)"),
    ("network", "a network namespace of its own: nothing but a loopback that is down"),
    ("memory", "1 GiB for the whole box, shared memory and /tmp included (memory cgroup)"),
    ("processes", "64 threads and processes for the whole box (pids cgroup)"),
    ("cores", "at most one core at a time (cpu cgroup quota)"),
    ("pause", "the whole box stopped on the opponent's turn when pondering is off (freezer cgroup)"),
    ("cpu", "600 CPU seconds per process, a runaway guard (RLIMIT_CPU)"),
    ("file_size", "files of at most 64 MiB (RLIMIT_FSIZE)"),
    ("syscalls", "no namespaces, mounts, tracing, keys, BPF, perf events or modules (seccomp)"),
    ("landlock", "a second wall: reads and runs only inside its root, writes only its /tmp, no TCP, no signals or abstract sockets outside (Landlock)"),
    ("privileges", "an unprivileged user of its own, no capability, no_new_privs, a clean environment, a new session"),
];
