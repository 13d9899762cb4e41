//! A folder as the server keeps it and `quads submit` sends it: a .tar.gz of its plain files
//! and folders in name order, with no owner, no time and modes 0644 or 0755, so that the same
//! files always give the same bytes, and their SHA-256 names them.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// Why a folder cannot be packed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PackError {
    /// A link or a special file in it.
    #[error("{} is not a plain file or folder: only those are packed", .0.display())]
    NotPlain(PathBuf),
    /// Reading it.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// What.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

/// The canonical .tar.gz of `folder`'s contents.
pub fn pack(folder: &Path) -> Result<Vec<u8>, PackError> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    add(&mut tar, folder, Path::new(""))?;
    let read = |source| PackError::Read {
        path: folder.to_owned(),
        source,
    };
    tar.into_inner().map_err(read)?.finish().map_err(read)
}

/// The SHA-256 of bytes, in hex: a pack's name.
pub fn digest(bytes: &[u8]) -> String {
    crate::secret::hex(&Sha256::digest(bytes))
}

fn add<W: std::io::Write>(
    tar: &mut tar::Builder<W>,
    dir: &Path,
    rel: &Path,
) -> Result<(), PackError> {
    let read = |path: &Path| {
        let path = path.to_owned();
        move |source| PackError::Read { path, source }
    };
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(read(dir))?
        .collect::<Result<_, _>>()
        .map_err(read(dir))?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let name = rel.join(entry.file_name());
        let meta = std::fs::symlink_metadata(&path).map_err(read(&path))?;
        let mut header = tar::Header::new_gnu();
        header.set_mtime(0);
        header.set_uid(0);
        header.set_gid(0);
        if meta.is_dir() {
            header.set_entry_type(tar::EntryType::Directory);
            header.set_mode(0o755);
            header.set_size(0);
            tar.append_data(&mut header, &name, std::io::empty())
                .map_err(read(&path))?;
            add(tar, &path, &name)?;
        } else if meta.is_file() {
            use std::os::unix::fs::PermissionsExt;
            let exec = meta.permissions().mode() & 0o111 != 0;
            header.set_entry_type(tar::EntryType::Regular);
            header.set_mode(if exec { 0o755 } else { 0o644 });
            header.set_size(meta.len());
            let file = std::fs::File::open(&path).map_err(read(&path))?;
            tar.append_data(&mut header, &name, file)
                .map_err(read(&path))?;
        } else {
            return Err(PackError::NotPlain(path));
        }
    }
    Ok(())
}
