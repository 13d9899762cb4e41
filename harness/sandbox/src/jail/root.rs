//! The box's view of the machine, built in its own mount namespace: a fresh root (a small
//! tmpfs, read-only once built) holding the system's folders and the bot's own folder bound
//! read-only at their own paths, a size-limited tmpfs as `/tmp` and `/dev/shm`, a minimal
//! `/dev`, the `/proc` of its own PID namespace, and the CPUs' descriptions in `/sys`. Nothing
//! else of the machine can be named from inside.
//!
//! The steps are bubblewrap's: make every mount private, mount a tmpfs over `/tmp`, pivot into
//! it with the old root below it, bind what the box shows from the old root into a new root,
//! detach the old root, and pivot into the new one.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use nix::mount::{mount, umount2, MntFlags, MsFlags};
use nix::sys::stat::Mode;
use nix::sys::statvfs::{statvfs, FsFlags};
use nix::unistd::{chdir, pivot_root};
use std::os::unix::fs::OpenOptionsExt;

use crate::plan::Plan;

const NONE: Option<&str> = None;

/// Where the old root is while the new one is built, and the new one.
const OLD: &str = "/oldroot";
const NEW: &str = "/newroot";

/// The devices a box has.
const DEVICES: [&str; 5] = ["null", "zero", "full", "random", "urandom"];

fn err(what: &str, path: &Path, e: impl std::fmt::Display) -> String {
    format!("cannot {what} {}: {e}", path.display())
}

fn inside(root: &str, path: &Path) -> PathBuf {
    Path::new(root).join(path.strip_prefix("/").unwrap_or(path))
}

/// What the box shows of the machine, opened while this process still has the referee's
/// rights on the machine's files (a folder such as `~/.pyenv` may lie below one only root may
/// enter): each is bound later from its open handle, whatever the path to it.
pub struct Sources {
    shown: Vec<(PathBuf, Source)>,
    work: Option<OwnedFd>,
}

enum Source {
    /// A folder or file, open (`O_PATH`).
    Open(OwnedFd),
    /// A symbolic link (`/bin` on a merged-/usr system), made again in the box.
    Link(PathBuf),
}

fn open_path(path: &Path) -> std::io::Result<OwnedFd> {
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_PATH | libc::O_NOFOLLOW)
        .open(path)
        .map(OwnedFd::from)
}

/// Opens what the box will show (what this machine does not have is left out).
pub fn open(plan: &Plan) -> Result<Sources, String> {
    let mut shown = Vec::new();
    if plan.walls.filesystem {
        for path in plan.read_only() {
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            let source = if meta.file_type().is_symlink() {
                Source::Link(std::fs::read_link(&path).map_err(|e| err("read", &path, e))?)
            } else {
                Source::Open(open_path(&path).map_err(|e| err("open", &path, e))?)
            };
            shown.push((path, source));
        }
    }
    let work = match &plan.work {
        Some(_) => Some(open_path(&plan.folder).map_err(|e| err("open", &plan.folder, e))?),
        None => None,
    };
    Ok(Sources { shown, work })
}

/// The path that names an open handle's file, from the old root.
fn handle(fd: &OwnedFd) -> PathBuf {
    use std::os::fd::AsRawFd;
    PathBuf::from(format!("{OLD}/proc/self/fd/{}", fd.as_raw_fd()))
}

/// Builds the box's view and moves into it (its working directory: the bot's folder). For a
/// build, returns the build's folder outside, to copy the result out with [`copy_out`].
pub fn build(plan: &Plan, sources: Sources) -> Result<Option<OwnedFd>, String> {
    let w = &plan.walls;
    if !w.filesystem && !w.isolation {
        return Ok(None);
    }
    nix::sys::stat::umask(Mode::from_bits_truncate(0o022));
    mount(NONE, "/", NONE, MsFlags::MS_REC | MsFlags::MS_PRIVATE, NONE)
        .map_err(|e| format!("cannot make the mounts private: {e}"))?;
    if !w.filesystem {
        // Processes of its own need a /proc of their own; the rest is the machine's.
        mount_proc(Path::new("/proc"))?;
        return Ok(None);
    }
    let base = Path::new("/tmp");
    mount(
        Some("tmpfs"),
        base,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some("size=1m,mode=0755"),
    )
    .map_err(|e| err("mount a tmpfs on", base, e))?;
    chdir(base).map_err(|e| err("enter", base, e))?;
    for d in ["newroot", "oldroot"] {
        std::fs::create_dir(d).map_err(|e| err("create", Path::new(d), e))?;
    }
    pivot_root(".", "oldroot").map_err(|e| format!("cannot pivot_root: {e}"))?;
    chdir("/").map_err(|e| err("enter", Path::new("/"), e))?;
    mount(
        Some("tmpfs"),
        NEW,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some("size=1m,mode=0755"),
    )
    .map_err(|e| err("mount a tmpfs on", Path::new(NEW), e))?;
    // Its own /proc, /dev and /tmp first: a folder of its own may lie below /tmp.
    let proc = inside(NEW, Path::new("/proc"));
    mkdir(&proc)?;
    if w.isolation {
        mount_proc(&proc)?;
    } else {
        bind(&inside(OLD, Path::new("/proc")), &proc)?;
    }
    devices(w.tmp)?;
    tmpfs(&inside(NEW, Path::new("/tmp")), w.tmp, "1777")?;
    for (path, source) in &sources.shown {
        bind_read_only(source, &inside(NEW, path))?;
    }
    let cpus = Path::new("/sys/devices/system/cpu");
    if let Ok(fd) = open_path(&inside(OLD, cpus)) {
        bind_read_only(&Source::Open(fd), &inside(NEW, cpus))?;
    }
    if w.isolation && !plan.cgroups.is_empty() {
        cgroup_view(plan)?;
    }
    let mut out = None;
    if let (Some(work), Some(outside)) = (&plan.work, sources.work) {
        tmpfs(&inside(NEW, &plan.folder), work.size, "0755")?;
        out = Some(outside);
    }
    // Leave the old root behind, then make the new one the root.
    mount(
        Some(OLD),
        OLD,
        NONE,
        MsFlags::MS_REC | MsFlags::MS_PRIVATE,
        NONE,
    )
    .map_err(|e| err("make private", Path::new(OLD), e))?;
    umount2(OLD, MntFlags::MNT_DETACH).map_err(|e| err("detach", Path::new(OLD), e))?;
    chdir(NEW).map_err(|e| err("enter", Path::new(NEW), e))?;
    pivot_root(".", ".").map_err(|e| format!("cannot pivot_root into the box: {e}"))?;
    umount2(".", MntFlags::MNT_DETACH).map_err(|e| format!("cannot detach the old root: {e}"))?;
    chdir("/").map_err(|e| err("enter", Path::new("/"), e))?;
    remount_read_only(Path::new("/"))?;
    chdir(&plan.folder).map_err(|e| err("enter its folder", &plan.folder, e))?;
    Ok(out)
}

/// After a build, copies its folder (`folder`, a tmpfs inside) to the same folder outside,
/// through the handle opened before the machine's root was left.
pub fn copy_out(folder: &Path, outside: OwnedFd) -> Result<(), String> {
    use std::os::fd::AsFd;
    super::copy::tree_into(folder, outside.as_fd()).map_err(|e| e.to_string())
}

fn mkdir(path: &Path) -> Result<(), String> {
    std::fs::create_dir_all(path).map_err(|e| err("create", path, e))
}

fn mount_proc(at: &Path) -> Result<(), String> {
    mount(
        Some("proc"),
        at,
        Some("proc"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
        NONE,
    )
    .map_err(|e| err("mount its own /proc on", at, e))
}

fn tmpfs(at: &Path, size: u64, mode: &str) -> Result<(), String> {
    mkdir(at)?;
    let options = format!("size={size},mode={mode}");
    mount(
        Some("tmpfs"),
        at,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some(options.as_str()),
    )
    .map_err(|e| err("mount a tmpfs on", at, e))
}

fn bind(from: &Path, to: &Path) -> Result<(), String> {
    mount(
        Some(from),
        to,
        NONE,
        MsFlags::MS_BIND | MsFlags::MS_REC,
        NONE,
    )
    .map_err(|e| err(&format!("bind {} on", from.display()), to, e))
}

/// Shows `source` read-only at `to` (in the new root): a folder or a file bound there with
/// everything mounted below it, or a symbolic link made again.
fn bind_read_only(source: &Source, to: &Path) -> Result<(), String> {
    if let Some(parent) = to.parent() {
        mkdir(parent)?;
    }
    let fd = match source {
        Source::Link(target) => {
            return std::os::unix::fs::symlink(target, to).map_err(|e| err("link", to, e));
        }
        Source::Open(fd) => fd,
    };
    let from = handle(fd);
    if from.is_dir() {
        mkdir(to)?;
    } else {
        std::fs::File::create(to).map_err(|e| err("create", to, e))?;
    }
    bind(&from, to)?;
    remount_read_only(to)?;
    for below in mounts_below(to) {
        remount_read_only(&below)?;
    }
    Ok(())
}

/// Remounts the mount at `path` read-only, keeping the flags it has (a user namespace may not
/// clear the ones the machine set).
fn remount_read_only(path: &Path) -> Result<(), String> {
    let have = statvfs(path).map_err(|e| err("look at", path, e))?.flags();
    let mut flags =
        MsFlags::MS_BIND | MsFlags::MS_REMOUNT | MsFlags::MS_RDONLY | MsFlags::MS_NOSUID;
    for (fs, ms) in [
        (FsFlags::ST_NODEV, MsFlags::MS_NODEV),
        (FsFlags::ST_NOEXEC, MsFlags::MS_NOEXEC),
        (FsFlags::ST_NOATIME, MsFlags::MS_NOATIME),
        (FsFlags::ST_NODIRATIME, MsFlags::MS_NODIRATIME),
        (FsFlags::ST_RELATIME, MsFlags::MS_RELATIME),
    ] {
        if have.contains(fs) {
            flags |= ms;
        }
    }
    mount(NONE, path, NONE, flags, NONE).map_err(|e| err("make read-only", path, e))
}

/// The mount points below `path`, as this process's mount table shows them.
fn mounts_below(path: &Path) -> Vec<PathBuf> {
    let table = std::fs::read_to_string(format!("{OLD}/proc/self/mountinfo")).unwrap_or_default();
    table
        .lines()
        .filter_map(|l| l.split(' ').nth(4))
        .map(|p| PathBuf::from(crate::cgroup::unescape(p)))
        .filter(|p| p != path && p.starts_with(path))
        .collect()
}

/// The box's own cgroups, read-only, where runtimes look for their limits (the JVM and .NET
/// size their heaps and threads from them): in the box's cgroup namespace, each hierarchy's
/// root is the box itself. With a v1 hierarchy among them, each goes to
/// `/sys/fs/cgroup/CONTROLLER` and v2 to `/sys/fs/cgroup/unified`; with v2 alone, v2 is
/// `/sys/fs/cgroup`.
fn cgroup_view(plan: &Plan) -> Result<(), String> {
    use crate::cgroup::Kind;
    let top = inside(NEW, Path::new("/sys/fs/cgroup"));
    let v1 = plan.cgroups.iter().any(|d| matches!(d.kind, Kind::V1(_)));
    let read_only =
        MsFlags::MS_RDONLY | MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC;
    if v1 {
        tmpfs(&top, 64 << 10, "0755")?;
    } else {
        mkdir(&top)?;
    }
    for dir in &plan.cgroups {
        let (at, fs, data) = match &dir.kind {
            Kind::V1(_) => (top.join(dir.kind.names(",")), "cgroup", dir.kind.names(",")),
            Kind::V2(_) if v1 => (top.join("unified"), "cgroup2", String::new()),
            Kind::V2(_) => (top.clone(), "cgroup2", String::new()),
        };
        mkdir(&at)?;
        mount(
            Some("cgroup"),
            &at,
            Some(fs),
            read_only,
            Some(data.as_str()),
        )
        .map_err(|e| err("mount its cgroups on", &at, e))?;
    }
    if v1 {
        remount_read_only(&top)?;
    }
    Ok(())
}

/// A minimal `/dev`: a small tmpfs with the harmless devices bound in, the usual links, and a
/// tmpfs of `shm` bytes as `/dev/shm`.
fn devices(shm: u64) -> Result<(), String> {
    let dev = inside(NEW, Path::new("/dev"));
    tmpfs(&dev, 64 << 10, "0755")?;
    for d in DEVICES {
        let (from, to) = (inside(OLD, &Path::new("/dev").join(d)), dev.join(d));
        std::fs::File::create(&to).map_err(|e| err("create", &to, e))?;
        bind(&from, &to)?;
    }
    for (link, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        std::os::unix::fs::symlink(target, dev.join(link))
            .map_err(|e| err("link", &dev.join(link), e))?;
    }
    tmpfs(&dev.join("shm"), shm, "1777")
}
