//! Where this machine offers each controller to this referee: the cgroup hierarchies in its
//! mount table, and its own cgroups in each, found once.

use std::io::{ErrorKind, Result};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::{read, write, BoxDir, Controller, Kind, PARENT};

/// Where this machine offers each controller to this referee.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cgroups {
    /// The folder under which boxes go, per hierarchy, with the controllers it gives boxes.
    parents: Vec<(Kind, PathBuf)>,
    /// Why each controller that cannot be had is missing.
    missing: Vec<(Controller, String)>,
}

impl Cgroups {
    /// The folders of a box named `name` (one per hierarchy used).
    pub fn box_dirs(&self, name: &str) -> Vec<BoxDir> {
        self.parents
            .iter()
            .map(|(kind, parent)| BoxDir {
                kind: kind.clone(),
                path: parent.join(name),
            })
            .collect()
    }

    /// Removes the box folders of referees that are gone (a keeper killed before it could
    /// remove its box's folders leaves them empty), and says how many went.
    pub fn remove_stale(&self) -> usize {
        let mut removed = 0;
        for (_, parent) in &self.parents {
            let Ok(entries) = std::fs::read_dir(parent) else {
                continue;
            };
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let Some(pid) = name
                    .split_once('-')
                    .and_then(|(p, _)| p.parse::<i32>().ok())
                else {
                    continue;
                };
                let alive = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None).is_ok();
                if !alive && std::fs::remove_dir(e.path()).is_ok() {
                    removed += 1;
                }
            }
        }
        removed
    }

    /// Why `c` cannot be had, if it cannot.
    pub fn missing(&self, c: Controller) -> Option<&str> {
        if self.parents.iter().any(|(k, _)| k.gives(c)) {
            return None;
        }
        Some(
            self.missing
                .iter()
                .find(|(m, _)| *m == c)
                .map_or("no cgroup hierarchy has it", |(_, why)| why.as_str()),
        )
    }

    /// What this machine gives this process, found from its mount table and its own cgroups.
    pub fn discover() -> Cgroups {
        let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
        let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        let root = nix::unistd::geteuid().is_root();
        let mut found = Cgroups::default();
        let mounts = parse_mounts(&mountinfo);
        // v2 first: a controller enabled there is taken from there.
        let mut v2_gives = Vec::new();
        if let Some(m) = mounts.iter().find(|m| m.v2) {
            match v2_parent(m, &own, root) {
                Ok((parent, controllers)) => {
                    v2_gives = controllers.clone();
                    found.parents.push((Kind::V2(controllers), parent));
                }
                Err(why) => found
                    .missing
                    .push((Controller::Freezer, format!("cgroup v2: {why}"))),
            }
        }
        let has_v2 = found.parents.iter().any(|(k, _)| matches!(k, Kind::V2(_)));
        let in_v2 = |c: Controller| v2_gives.contains(&c) || (c == Controller::Freezer && has_v2);
        // Each v1 hierarchy once, with the controllers of ours mounted in it.
        let mut seen: Vec<PathBuf> = Vec::new();
        for c in Controller::ALL {
            if in_v2(c) {
                continue;
            }
            let Some(m) = mounts
                .iter()
                .find(|m| !m.v2 && m.controllers.iter().any(|n| n == c.name()))
            else {
                if !matches!(c, Controller::Cpuacct | Controller::Cpuset) {
                    found.missing.push((
                        c,
                        format!("no cgroup hierarchy offers the {} controller", c.name()),
                    ));
                }
                continue;
            };
            if seen.contains(&m.point) {
                continue;
            }
            seen.push(m.point.clone());
            let list: Vec<Controller> = Controller::ALL
                .into_iter()
                .filter(|o| !in_v2(*o) && m.controllers.iter().any(|n| n == o.name()))
                .collect();
            match v1_parent(m, &own) {
                Ok(parent) => found.parents.push((Kind::V1(list), parent)),
                Err(why) => {
                    for o in list {
                        found.missing.push((o, why.clone()));
                    }
                }
            }
        }
        found
    }
}

/// This machine's cgroups, found once.
pub fn machine() -> &'static Cgroups {
    static MACHINE: OnceLock<Cgroups> = OnceLock::new();
    MACHINE.get_or_init(Cgroups::discover)
}

/// A cgroup file system in the mount table.
#[derive(Debug)]
struct Mount {
    v2: bool,
    /// The mount's root within the hierarchy (`/` unless a part of it is mounted).
    root: String,
    point: PathBuf,
    controllers: Vec<String>,
}

fn parse_mounts(mountinfo: &str) -> Vec<Mount> {
    let mut out = Vec::new();
    for line in mountinfo.lines() {
        // ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTIONS
        let Some((left, right)) = line.split_once(" - ") else {
            continue;
        };
        let fields: Vec<&str> = left.split(' ').collect();
        let rest: Vec<&str> = right.split(' ').collect();
        if fields.len() < 5 || rest.len() < 3 {
            continue;
        }
        let v2 = match rest[0] {
            "cgroup2" => true,
            "cgroup" => false,
            _ => continue,
        };
        out.push(Mount {
            v2,
            root: unescape(fields[3]),
            point: PathBuf::from(unescape(fields[4])),
            controllers: rest[2].split(',').map(str::to_owned).collect(),
        });
    }
    out
}

/// Mount table paths escape spaces and a few other bytes as `\040`.
pub(crate) fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes
            .get(i + 1..i + 4)
            .filter(|d| d.iter().all(|b| (b'0'..=b'7').contains(b)));
        match (bytes[i], octal) {
            (b'\\', Some(d)) => {
                out.push(
                    d.iter()
                        .fold(0u8, |v, b| v.wrapping_mul(8).wrapping_add(b - b'0')),
                );
                i += 4;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// This process's cgroup in hierarchy `id` (`0` for v2, a v1 line's controller list
/// otherwise), from /proc/self/cgroup.
fn own_path(own: &str, matches: impl Fn(&str) -> bool) -> Option<&str> {
    own.lines().find_map(|l| {
        let mut parts = l.splitn(3, ':');
        let (_, list, path) = (parts.next()?, parts.next()?, parts.next()?);
        matches(list).then_some(path)
    })
}

/// Where the mount shows cgroup `path` of its hierarchy.
fn shown_at(m: &Mount, path: &str) -> Option<PathBuf> {
    let rel = path
        .strip_prefix(m.root.trim_end_matches('/'))
        .unwrap_or(path);
    let rel = rel.trim_start_matches('/');
    let dir = if rel.is_empty() {
        m.point.clone()
    } else {
        m.point.join(rel)
    };
    dir.is_dir().then_some(dir)
}

fn writable(dir: &Path) -> bool {
    nix::unistd::access(dir, nix::unistd::AccessFlags::W_OK).is_ok()
}

fn v1_parent(m: &Mount, own: &str) -> std::result::Result<PathBuf, String> {
    let path = own_path(own, |list| {
        list.split(',')
            .any(|c| m.controllers.iter().any(|o| o == c))
    })
    .unwrap_or("/");
    let dir = shown_at(m, path).ok_or_else(|| {
        format!(
            "this process's cgroup {path} is not under {}",
            m.point.display()
        )
    })?;
    if !writable(&dir) {
        return Err(format!("{} is not writable by this user", dir.display()));
    }
    Ok(dir.join(PARENT))
}

/// The v2 folder that holds boxes, and the controllers boxes get there.
fn v2_parent(
    m: &Mount,
    own: &str,
    root: bool,
) -> std::result::Result<(PathBuf, Vec<Controller>), String> {
    let available = |dir: &Path| -> Vec<Controller> {
        read(dir, "cgroup.controllers")
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(Controller::from_name)
            .filter(|c| matches!(c, Controller::Memory | Controller::Pids | Controller::Cpu))
            .collect()
    };
    if root {
        if !writable(&m.point) {
            return Err(format!("{} is not writable", m.point.display()));
        }
        let controllers = available(&m.point);
        return Ok((m.point.join(PARENT), controllers));
    }
    // An ordinary user: only a delegated cgroup of its own.
    let path = own_path(own, |list| list.is_empty()).unwrap_or("/");
    let dir =
        shown_at(m, path).ok_or_else(|| format!("this process's cgroup {path} is not shown"))?;
    if path == "/" || !writable(&dir) || !writable(&dir.join("cgroup.procs")) {
        return Err(format!("this user's cgroup {path} is not delegated to it"));
    }
    Ok((dir.join(PARENT), available(&dir)))
}

/// An ordinary user's delegated v2 cgroup holds the referee; boxes with controllers may only
/// be its children once it holds no process: the referee moves itself into a leaf
/// (`referee`) first, and enables the controllers it offers for the children.
pub fn prepare_delegated() -> Result<()> {
    let m = machine();
    for (kind, parent) in &m.parents {
        let Kind::V2(controllers) = kind else {
            continue;
        };
        if nix::unistd::geteuid().is_root() {
            // The root's parent: enable the controllers in the root and in the parent.
            if !controllers.is_empty() {
                let root = parent.parent().unwrap_or(Path::new("/"));
                let list: Vec<String> = controllers
                    .iter()
                    .map(|c| format!("+{}", c.name()))
                    .collect();
                let _ = write(root, "cgroup.subtree_control", &list.join(" "));
                match std::fs::create_dir(parent) {
                    Ok(()) => {}
                    Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
                    Err(e) => return Err(e),
                }
                write(parent, "cgroup.subtree_control", &list.join(" "))?;
            }
            continue;
        }
        let own = parent.parent().unwrap_or(Path::new("/"));
        let leaf = own.join("referee");
        match std::fs::create_dir(&leaf) {
            Ok(()) => {}
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
        write(&leaf, "cgroup.procs", &std::process::id().to_string())?;
        if !controllers.is_empty() {
            let list: Vec<String> = controllers
                .iter()
                .map(|c| format!("+{}", c.name()))
                .collect();
            write(own, "cgroup.subtree_control", &list.join(" "))?;
            match std::fs::create_dir(parent) {
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
            write(parent, "cgroup.subtree_control", &list.join(" "))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HYBRID: &str = "\
30 25 0:26 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
31 25 0:27 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
32 25 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
33 25 0:29 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
34 25 0:30 /sub /mnt/my\\040cg rw - cgroup cgroup rw,freezer
20 1 8:1 / / rw - ext4 /dev/sda1 rw
";

    #[test]
    fn the_mount_table_gives_each_hierarchy() {
        let m = parse_mounts(HYBRID);
        assert_eq!(m.len(), 5);
        assert_eq!(
            (m[2].point.to_str(), m[2].controllers.clone()),
            (
                Some("/sys/fs/cgroup/cpu,cpuacct"),
                vec!["rw".to_owned(), "cpu".to_owned(), "cpuacct".to_owned()]
            )
        );
        assert!(m[3].v2 && !m[0].v2);
        assert_eq!(
            (m[4].root.as_str(), m[4].point.to_str()),
            ("/sub", Some("/mnt/my cg"))
        );
    }

    #[test]
    fn own_cgroups_are_read_per_hierarchy() {
        let own = "9:name=systemd:/\n4:memory:/process_api/4f80\n2:cpu,cpuacct:/\n0::/user.slice\n";
        assert_eq!(
            own_path(own, |l| l.split(',').any(|c| c == "memory")),
            Some("/process_api/4f80")
        );
        assert_eq!(
            own_path(own, |l| l.split(',').any(|c| c == "cpu")),
            Some("/")
        );
        assert_eq!(own_path(own, str::is_empty), Some("/user.slice"));
    }
}
