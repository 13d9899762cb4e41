//! A build's folder copied in (from the entrant's files) and out (to the folder its bot then
//! runs from). Links are copied as links, never followed; the copies' modes are made readable
//! by every user (0644, 0755 for what any bit made executable, 0755 for folders), since the
//! bot runs as another unprivileged user than its build.

use std::io::Result;
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use rustix::fs::{mkdirat, openat, symlinkat, unlinkat, AtFlags, Mode, OFlags};

/// Copies everything in `from` into the folder `to` (which exists).
pub fn tree(from: &Path, to: &Path) -> Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let meta = std::fs::symlink_metadata(&src)?;
        let kind = meta.file_type();
        if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&src)?, &dst)?;
        } else if kind.is_dir() {
            match std::fs::create_dir(&dst) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
            std::fs::set_permissions(&dst, std::fs::Permissions::from_mode(0o755))?;
            tree(&src, &dst)?;
        } else if kind.is_file() {
            let _ = std::fs::remove_file(&dst);
            std::fs::copy(&src, &dst)?;
            let mode = if meta.permissions().mode() & 0o111 != 0 {
                0o755
            } else {
                0o644
            };
            std::fs::set_permissions(&dst, std::fs::Permissions::from_mode(mode))?;
        }
        // Devices, sockets and pipes are not copied.
    }
    Ok(())
}

/// Copies everything in `from` into the folder open as `to`, by that handle alone (the build's
/// folder outside is no longer in the box's view when the build is over: its mount was
/// detached with the machine's root).
pub fn tree_into(from: &Path, to: BorrowedFd<'_>) -> Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let (src, name) = (entry.path(), entry.file_name());
        let meta = std::fs::symlink_metadata(&src)?;
        let kind = meta.file_type();
        if kind.is_symlink() {
            let _ = unlinkat(to, &name, AtFlags::empty());
            symlinkat(std::fs::read_link(&src)?, to, &name)?;
        } else if kind.is_dir() {
            match mkdirat(to, &name, Mode::from_raw_mode(0o755)) {
                Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                Err(e) => return Err(e.into()),
            }
            let sub = openat(
                to,
                &name,
                OFlags::DIRECTORY | OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::empty(),
            )?;
            rustix::fs::fchmod(&sub, Mode::from_raw_mode(0o755))?;
            tree_into(&src, sub.as_fd())?;
        } else if kind.is_file() {
            let mode = if meta.permissions().mode() & 0o111 != 0 {
                0o755
            } else {
                0o644
            };
            let _ = unlinkat(to, &name, AtFlags::empty());
            let out = openat(
                to,
                &name,
                OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::from_raw_mode(mode),
            )?;
            let mut out = std::fs::File::from(out);
            std::io::copy(&mut std::fs::File::open(&src)?, &mut out)?;
            rustix::fs::fchmod(&out, Mode::from_raw_mode(mode))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_is_copied_with_its_links_as_links_and_modes_for_everyone() {
        let dir = tempfile::tempdir().unwrap();
        let (from, to) = (dir.path().join("from"), dir.path().join("to"));
        std::fs::create_dir_all(from.join("sub")).unwrap();
        std::fs::create_dir(&to).unwrap();
        std::fs::write(from.join("sub/bot"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(from.join("sub/bot"), std::fs::Permissions::from_mode(0o700))
            .unwrap();
        std::fs::write(from.join("notes"), "n").unwrap();
        std::fs::set_permissions(from.join("notes"), std::fs::Permissions::from_mode(0o600))
            .unwrap();
        std::os::unix::fs::symlink("/etc/shadow", from.join("link")).unwrap();
        tree(&from, &to).unwrap();
        let mode = |p: &str| std::fs::metadata(to.join(p)).unwrap().permissions().mode() & 0o777;
        assert_eq!(
            (mode("sub"), mode("sub/bot"), mode("notes")),
            (0o755, 0o755, 0o644)
        );
        assert_eq!(
            std::fs::read_link(to.join("link")).unwrap(),
            Path::new("/etc/shadow")
        );
        assert_eq!(
            std::fs::read_to_string(to.join("sub/bot")).unwrap(),
            "#!/bin/sh\n"
        );
        let again = dir.path().join("again");
        std::fs::create_dir(&again).unwrap();
        let handle = std::fs::File::open(&again).unwrap();
        tree_into(&to, handle.as_fd()).unwrap();
        tree_into(&to, handle.as_fd()).unwrap(); // over what is there
        let mode = |p: &str| {
            std::fs::metadata(again.join(p))
                .unwrap()
                .permissions()
                .mode()
                & 0o777
        };
        assert_eq!(
            (mode("sub"), mode("sub/bot"), mode("notes")),
            (0o755, 0o755, 0o644)
        );
        assert_eq!(
            std::fs::read_link(again.join("link")).unwrap(),
            Path::new("/etc/shadow")
        );
        assert_eq!(
            std::fs::read_to_string(again.join("sub/bot")).unwrap(),
            "#!/bin/sh\n"
        );
    }
}
