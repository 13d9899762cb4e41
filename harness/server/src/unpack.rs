//! An upload unpacked into a folder of the server's, entry by entry, under its own checks:
//! only plain files and folders, every path inside the folder (no `..`, no absolute path),
//! no links and no special files, no name twice, and bounded in files and in bytes as they
//! are really written (so a zip bomb stops at the bound, whatever its headers claim).

use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Component, Path, PathBuf};

use crate::Limits;

/// Why an upload cannot be unpacked.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnpackError {
    /// Neither gzip nor zip.
    #[error("the upload is neither a .tar.gz nor a .zip")]
    NotAnArchive,
    /// A path that leaves the folder, or is not a plain relative path.
    #[error("`{0}` is outside the bot's folder (an absolute path or a `..` step)")]
    Outside(String),
    /// A link or a special file.
    #[error("`{path}` is a {kind}: only plain files and folders may be uploaded")]
    NotPlain {
        /// The entry.
        path: String,
        /// What it is.
        kind: &'static str,
    },
    /// The same path twice.
    #[error("`{0}` is in the upload twice")]
    Twice(String),
    /// More bytes than the limit.
    #[error("the upload unpacks to more than {0} bytes")]
    TooBig(u64),
    /// More entries than the limit.
    #[error("the upload holds more than {0} files and folders")]
    TooMany(usize),
    /// The archive is damaged.
    #[error("the archive is damaged: {0}")]
    Damaged(String),
    /// The server's own disk.
    #[error("cannot write the upload: {0}")]
    Io(String),
}

/// What was unpacked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unpacked {
    /// Plain files written.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// An archive's kind, by its first bytes.
fn kind(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0x1f, 0x8b, ..] => Some("tar.gz"),
        [b'P', b'K', 3, 4, ..] | [b'P', b'K', 5, 6, ..] => Some("zip"),
        _ => None,
    }
}

/// Unpacks `archive` (.tar.gz or .zip) into `into`, an empty folder.
pub fn unpack(archive: &[u8], into: &Path, limits: &Limits) -> Result<Unpacked, UnpackError> {
    let mut w = Writer::new(into, limits);
    match kind(archive).ok_or(UnpackError::NotAnArchive)? {
        "tar.gz" => {
            let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(archive));
            let entries = tar.entries().map_err(damaged)?;
            for entry in entries {
                let mut entry = entry.map_err(damaged)?;
                let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
                let mode = entry.header().mode().unwrap_or(0o644);
                use tar::EntryType as T;
                match entry.header().entry_type() {
                    T::Regular | T::Continuous => w.file(&name, &mut entry, mode)?,
                    T::Directory => w.folder(&name)?,
                    T::Symlink => return Err(not_plain(name, "symbolic link")),
                    T::Link => return Err(not_plain(name, "hard link")),
                    T::Char | T::Block => return Err(not_plain(name, "device")),
                    T::Fifo => return Err(not_plain(name, "named pipe")),
                    // Metadata entries (pax headers, GNU long names) are read by `tar` itself.
                    T::XHeader | T::XGlobalHeader | T::GNULongName | T::GNULongLink => {}
                    _ => return Err(not_plain(name, "special entry")),
                }
            }
        }
        _ => {
            let mut zip = zip::ZipArchive::new(std::io::Cursor::new(archive)).map_err(damaged)?;
            for i in 0..zip.len() {
                let mut entry = zip.by_index(i).map_err(damaged)?;
                let name = entry.name().to_owned();
                let mode = entry.unix_mode().unwrap_or(0o644);
                match mode & 0o170000 {
                    0o120000 => return Err(not_plain(name, "symbolic link")),
                    0 | 0o100000 | 0o040000 => {}
                    _ => return Err(not_plain(name, "special file")),
                }
                if entry.is_dir() {
                    w.folder(&name)?;
                } else {
                    w.file(&name, &mut entry, mode)?;
                }
            }
        }
    }
    Ok(w.done)
}

/// Writes one file, `name`, into `into` (an upload of a single file).
pub fn one_file(
    name: &str,
    mut bytes: &[u8],
    into: &Path,
    limits: &Limits,
) -> Result<Unpacked, UnpackError> {
    if name.contains('/') || name.is_empty() || name == "." || name == ".." {
        return Err(UnpackError::Outside(name.to_owned()));
    }
    let mut w = Writer::new(into, limits);
    w.file(name, &mut bytes, 0o644)?;
    Ok(w.done)
}

fn damaged(e: impl std::fmt::Display) -> UnpackError {
    UnpackError::Damaged(e.to_string())
}

fn not_plain(path: String, kind: &'static str) -> UnpackError {
    UnpackError::NotPlain { path, kind }
}

struct Writer<'a> {
    root: &'a Path,
    limits: &'a Limits,
    done: Unpacked,
    entries: usize,
}

impl Writer<'_> {
    fn new<'a>(root: &'a Path, limits: &'a Limits) -> Writer<'a> {
        Writer {
            root,
            limits,
            done: Unpacked::default(),
            entries: 0,
        }
    }

    /// `name` as a path under the root, made only of plain steps.
    fn place(&mut self, name: &str) -> Result<Option<PathBuf>, UnpackError> {
        self.entries += 1;
        if self.entries > self.limits.files {
            return Err(UnpackError::TooMany(self.limits.files));
        }
        let mut rel = PathBuf::new();
        for c in Path::new(name).components() {
            match c {
                Component::Normal(part) => rel.push(part),
                Component::CurDir => {}
                _ => return Err(UnpackError::Outside(name.to_owned())),
            }
        }
        Ok((!rel.as_os_str().is_empty()).then(|| self.root.join(rel)))
    }

    fn folder(&mut self, name: &str) -> Result<(), UnpackError> {
        if let Some(path) = self.place(name)? {
            std::fs::create_dir_all(path).map_err(io)?;
        }
        Ok(())
    }

    fn file(&mut self, name: &str, from: &mut dyn Read, mode: u32) -> Result<(), UnpackError> {
        let Some(path) = self.place(name)? else {
            return Err(UnpackError::Outside(name.to_owned()));
        };
        if let Some(parent) = path.parent() {
            // Only folders of our own are ever made, never links: no step can lead out.
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        let mut out = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(if mode & 0o111 != 0 { 0o755 } else { 0o644 })
            .open(&path)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => UnpackError::Twice(name.to_owned()),
                _ => io(e),
            })?;
        let room = self.limits.unpacked_bytes - self.done.bytes;
        let copied =
            std::io::copy(&mut from.take(room + 1), &mut out).map_err(|e| match e.kind() {
                std::io::ErrorKind::InvalidData | std::io::ErrorKind::UnexpectedEof => damaged(e),
                _ => io(e),
            })?;
        if copied > room {
            return Err(UnpackError::TooBig(self.limits.unpacked_bytes));
        }
        out.flush().map_err(io)?;
        self.done.bytes += copied;
        self.done.files += 1;
        Ok(())
    }
}

fn io(e: std::io::Error) -> UnpackError {
    UnpackError::Io(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            upload_bytes: 1 << 20,
            unpacked_bytes: 1 << 20,
            files: 50,
        }
    }

    /// A .tar.gz whose entries are written raw: (name, type, link target, contents).
    fn tar_gz(entries: &[(&str, tar::EntryType, &str, &[u8])]) -> Vec<u8> {
        let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let mut b = tar::Builder::new(gz);
        for (name, kind, link, data) in entries {
            let mut h = tar::Header::new_old();
            // The name goes in as bytes, as an attacker's tool would write it.
            h.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
            h.as_old_mut().linkname[..link.len()].copy_from_slice(link.as_bytes());
            h.set_entry_type(*kind);
            h.set_mode(0o644);
            h.set_size(data.len() as u64);
            h.set_cksum();
            b.append(&h, *data).unwrap();
        }
        b.into_inner().unwrap().finish().unwrap()
    }

    fn zip_of(entries: &[(&str, u32, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, mode, data) in entries {
            let o = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated)
                .unix_permissions(*mode);
            if *mode & 0o170000 == 0o120000 {
                w.add_symlink(*name, std::str::from_utf8(data).unwrap(), o)
                    .unwrap();
            } else {
                w.start_file(*name, o).unwrap();
                w.write_all(data).unwrap();
            }
        }
        w.finish().unwrap().into_inner()
    }

    fn try_unpack(archive: &[u8]) -> (Result<Unpacked, UnpackError>, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("in")).unwrap();
        (unpack(archive, &dir.path().join("in"), &limits()), dir)
    }

    /// Every file under `dir`, relative, sorted.
    fn files(dir: &Path) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![dir.to_owned()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    out.push(p.strip_prefix(dir).unwrap().display().to_string());
                }
            }
        }
        out.sort();
        out
    }

    use tar::EntryType as T;

    #[test]
    fn a_plain_folder_unpacks_and_packs_back_to_the_same_bytes() {
        let a = tar_gz(&[
            ("bot.toml", T::Regular, "", b"name = \"x\"\n"),
            ("src/", T::Directory, "", b""),
            ("src/bot.py", T::Regular, "", b"print(1)\n"),
        ]);
        let (got, dir) = try_unpack(&a);
        assert_eq!(
            got,
            Ok(Unpacked {
                files: 2,
                bytes: 20
            })
        );
        let root = dir.path().join("in");
        assert_eq!(files(&root), ["bot.toml", "src/bot.py"]);
        let packed = crate::pack::pack(&root).unwrap();
        let again = tempfile::tempdir().unwrap();
        unpack(&packed, again.path(), &limits()).unwrap();
        assert_eq!(crate::pack::pack(again.path()).unwrap(), packed);
    }

    #[test]
    fn paths_out_of_the_folder_are_refused_and_nothing_lands_outside() {
        for name in ["../evil", "a/../../evil", "/tmp/evil", "./../evil"] {
            let (got, dir) = try_unpack(&tar_gz(&[(name, T::Regular, "", b"x")]));
            assert_eq!(got, Err(UnpackError::Outside(name.to_owned())), "{name}");
            assert_eq!(files(dir.path()), Vec::<String>::new(), "{name}");
        }
        let (got, dir) = try_unpack(&zip_of(&[("../evil", 0o100644, b"x")]));
        assert_eq!(got, Err(UnpackError::Outside("../evil".to_owned())));
        assert!(files(dir.path()).is_empty());
    }

    #[test]
    fn links_devices_and_pipes_are_refused() {
        let cases = [
            (T::Symlink, "/etc/passwd", "symbolic link"),
            (T::Link, "/etc/passwd", "hard link"),
            (T::Char, "", "device"),
            (T::Block, "", "device"),
            (T::Fifo, "", "named pipe"),
        ];
        for (kind, link, word) in cases {
            let a = tar_gz(&[("x", kind, link, b"")]);
            let (got, dir) = try_unpack(&a);
            let want = UnpackError::NotPlain {
                path: "x".to_owned(),
                kind: word,
            };
            assert_eq!(got, Err(want));
            assert!(files(dir.path()).is_empty());
        }
        // A link, then a file written through it: the link is refused first.
        let a = tar_gz(&[
            ("d", T::Symlink, "/tmp", b""),
            ("d/evil", T::Regular, "", b"x"),
        ]);
        assert!(matches!(
            try_unpack(&a).0,
            Err(UnpackError::NotPlain { .. })
        ));
        let z = zip_of(&[("l", 0o120777, b"/etc/passwd")]);
        assert!(matches!(
            try_unpack(&z).0,
            Err(UnpackError::NotPlain {
                kind: "symbolic link",
                ..
            })
        ));
    }

    #[test]
    fn bombs_and_floods_stop_at_the_limits() {
        // 8 MiB of zeros compress to a few KiB: stopped at 1 MiB, as written.
        let zeros = vec![0u8; 8 << 20];
        let z = zip_of(&[("bomb", 0o100644, &zeros)]);
        assert!(z.len() < 64 << 10);
        assert_eq!(try_unpack(&z).0, Err(UnpackError::TooBig(1 << 20)));
        let t = tar_gz(&[("bomb", T::Regular, "", &zeros)]);
        assert_eq!(try_unpack(&t).0, Err(UnpackError::TooBig(1 << 20)));
        let many: Vec<(String, T, &str, &[u8])> = (0..60)
            .map(|i| (format!("f{i}"), T::Regular, "", &b"x"[..]))
            .collect();
        let refs: Vec<_> = many
            .iter()
            .map(|(n, k, l, d)| (n.as_str(), *k, *l, *d))
            .collect();
        assert_eq!(try_unpack(&tar_gz(&refs)).0, Err(UnpackError::TooMany(50)));
    }

    #[test]
    fn a_name_twice_garbage_and_bad_single_names_are_refused() {
        let a = tar_gz(&[("x", T::Regular, "", b"1"), ("x", T::Regular, "", b"2")]);
        assert_eq!(try_unpack(&a).0, Err(UnpackError::Twice("x".to_owned())));
        assert_eq!(try_unpack(b"hello").0, Err(UnpackError::NotAnArchive));
        let mut cut = tar_gz(&[("x", T::Regular, "", &[7u8; 5000])]);
        cut.truncate(cut.len() / 2);
        assert!(matches!(try_unpack(&cut).0, Err(UnpackError::Damaged(_))));
        let dir = tempfile::tempdir().unwrap();
        for name in ["../x", "a/b", "", ".."] {
            assert_eq!(
                one_file(name, b"x", dir.path(), &limits()),
                Err(UnpackError::Outside(name.to_owned()))
            );
        }
    }
}
