//! A box's user: the user namespace's id maps, written by the keeper from outside, and the
//! switch to that user inside.
//!
//! When the referee is root, each box runs as an unprivileged id of its own outside (200000
//! and up, [`crate::ids`]), mapped to itself inside: files the box makes belong to it, it can
//! read only what any user may, and no capability it holds in its namespaces counts outside
//! them. A referee that is an ordinary user can map only its own id: the box runs as that id,
//! still with no capability.

use nix::unistd::{getegid, geteuid, setgroups, setresgid, setresuid, Gid, Pid, Uid};

fn write(pid: Pid, file: &str, text: &str) -> Result<(), String> {
    std::fs::write(format!("/proc/{pid}/{file}"), text)
        .map_err(|e| format!("cannot write /proc/{pid}/{file}: {e}"))
}

/// Writes the id maps of process `pid`'s new user namespace: `id` to itself when the referee
/// is root, else this user's own ids.
pub fn map(pid: Pid, id: Option<u32>) -> Result<(), String> {
    match id {
        Some(id) => {
            write(pid, "uid_map", &format!("{id} {id} 1"))?;
            write(pid, "gid_map", &format!("{id} {id} 1"))
        }
        None => {
            let (uid, gid) = (geteuid(), getegid());
            write(pid, "setgroups", "deny")?;
            write(pid, "uid_map", &format!("{uid} {uid} 1"))?;
            write(pid, "gid_map", &format!("{gid} {gid} 1"))
        }
    }
}

/// Inside, in the box's init: becomes the box's user (`id`, when the referee is root), keeping
/// the capabilities it holds in its own namespaces for building the box's root.
pub fn become_box_user(id: Option<u32>) -> Result<(), String> {
    let Some(id) = id else {
        return Ok(()); // an ordinary user's box already runs as that user
    };
    setgroups(&[]).map_err(|e| format!("cannot drop groups: {e}"))?;
    setresgid(Gid::from_raw(id), Gid::from_raw(id), Gid::from_raw(id))
        .map_err(|e| format!("cannot change group: {e}"))?;
    nix::sys::prctl::set_keepcaps(true).map_err(|e| format!("cannot keep capabilities: {e}"))?;
    setresuid(Uid::from_raw(id), Uid::from_raw(id), Uid::from_raw(id))
        .map_err(|e| format!("cannot change user: {e}"))?;
    let permitted =
        caps::read(None, caps::CapSet::Permitted).map_err(|e| format!("capabilities: {e}"))?;
    caps::set(None, caps::CapSet::Effective, &permitted).map_err(|e| format!("capabilities: {e}"))
}
