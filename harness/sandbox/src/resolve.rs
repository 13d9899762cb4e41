//! What a command runs, found as the shell would find it, and what of the machine the box must
//! then show besides the system's folders and the bot's own: the program's file when it lies
//! elsewhere, and an interpreter's whole installation (pyenv's, nvm's, rustup's) by its real
//! prefix. The read list is never built from the command's other words.

use std::ffi::OsStr;
use std::io::{Error, Result};
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

/// The system's folders every box shows read-only (those this machine has).
/// (`/opt` is not among them: a host may keep anything there, its entrants included.)
pub const SYSTEM: [&str; 8] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
];

/// The box's own `PATH` after the interpreters' folders.
pub const BOX_PATH: &str = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin";

/// Where a program lies, for the box and for admission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// Inside the bot's own folder.
    Folder,
    /// In the system's folders.
    System,
    /// In an interpreter's installation outside them (shown whole, by its prefix).
    Installation(PathBuf),
    /// A file anywhere else (shown alone).
    Elsewhere,
}

/// A program found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Its real path (symbolic links followed): what the launcher executes.
    pub path: PathBuf,
    /// Where it lies.
    pub place: Place,
    /// The interpreter its `#!` line names, found the same way, if it is a script.
    pub interpreter: Option<Box<Program>>,
    /// The Python virtual environment it was named from (`VENV/bin/python`, a link to the
    /// real interpreter, with `VENV/pyvenv.cfg`): shown whole, read-only, so that Python finds
    /// its packages in the box.
    pub venv: Option<PathBuf>,
}

impl Program {
    /// What the box must show for this program to run, beyond the system and the folder.
    pub fn shown(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        match &self.place {
            Place::Installation(prefix) => out.push(prefix.clone()),
            Place::Elsewhere => out.push(self.path.clone()),
            Place::Folder | Place::System => {}
        }
        if let Some(venv) = &self.venv {
            out.push(venv.clone());
        }
        if let Some(i) = &self.interpreter {
            for p in i.shown() {
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
        out
    }

    /// The installations' `bin` folders, to come first on the box's `PATH`.
    pub fn path_dirs(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        if let Some(venv) = &self.venv {
            out.push(venv.join("bin"));
        }
        if let Place::Installation(prefix) = &self.place {
            out.push(prefix.join("bin"));
        }
        if let Some(i) = &self.interpreter {
            for p in i.path_dirs() {
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
        out
    }

    /// Whether the program and its interpreter are the system's or the folder's own (what an
    /// entrant's command may run).
    pub fn admissible(&self) -> bool {
        !matches!(self.place, Place::Elsewhere)
            && self.interpreter.as_ref().map_or(true, |i| i.admissible())
    }
}

/// Whether `path` lies under one of the system's folders.
pub fn in_system(path: &Path) -> bool {
    SYSTEM.iter().any(|s| path.starts_with(s))
}

fn executable(p: &Path) -> bool {
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Finds `program` as `execvp` would: a path (relative to `folder`) when it has a `/`, else
/// the first executable file of that name on `search` (the referee's `PATH`). Pyenv's shims
/// and rustup's proxies are asked which real program they would run (in `folder`, so that a
/// `.python-version` or `rust-toolchain.toml` there counts).
///
/// What was found is remembered for the referee's life (a shim is asked once per command).
pub fn find(program: &str, folder: &Path, search: &OsStr) -> Result<Program> {
    type Key = (String, PathBuf, std::ffi::OsString);
    static FOUND: std::sync::Mutex<Vec<(Key, Program)>> = std::sync::Mutex::new(Vec::new());
    let key: Key = (program.to_owned(), folder.to_path_buf(), search.to_owned());
    if let Some((_, p)) = FOUND
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(k, _)| *k == key)
    {
        return Ok(p.clone());
    }
    let found = find_at(program, folder, search, 0)?;
    let mut cache = FOUND.lock().unwrap_or_else(|e| e.into_inner());
    if cache.len() < 1024 {
        cache.push((key, found.clone()));
    }
    Ok(found)
}

fn find_at(program: &str, folder: &Path, search: &OsStr, depth: u32) -> Result<Program> {
    let found = if program.contains('/') {
        let path = folder.join(program);
        if !path.exists() {
            return Err(Error::from_raw_os_error(libc::ENOENT));
        }
        if !executable(&path) {
            return Err(Error::from_raw_os_error(libc::EACCES));
        }
        path
    } else {
        std::env::split_paths(search)
            .filter(|d| d.is_absolute())
            .map(|d| d.join(program))
            .find(|p| executable(p))
            .ok_or_else(|| Error::from_raw_os_error(libc::ENOENT))?
    };
    let found = unshim(&found, program, folder).unwrap_or(found);
    let venv = venv_of(&found);
    let path = found.canonicalize()?;
    let folder = folder
        .canonicalize()
        .unwrap_or_else(|_| folder.to_path_buf());
    let place = if path.starts_with(&folder) {
        Place::Folder
    } else if in_system(&path) {
        Place::System
    } else if let Some(prefix) = installation(&path) {
        Place::Installation(prefix)
    } else {
        Place::Elsewhere
    };
    let interpreter = match (depth, shebang(&path)) {
        (0..=2, Some(interp)) => Some(Box::new(find_at(&interp, &folder, search, depth + 1)?)),
        _ => None,
    };
    Ok(Program {
        path,
        place,
        interpreter,
        venv,
    })
}

/// The virtual environment `found` (as named, links not followed) lies in: the folder above
/// its `bin`, when that folder has a `pyvenv.cfg`.
fn venv_of(found: &Path) -> Option<PathBuf> {
    let bin = found.parent()?;
    if bin.file_name()? != "bin" {
        return None;
    }
    let prefix = bin.parent()?;
    prefix.join("pyvenv.cfg").is_file().then(|| {
        prefix
            .canonicalize()
            .unwrap_or_else(|_| prefix.to_path_buf())
    })
}

/// The prefix of an installation a program lies in: the folder above its `bin`, when a `lib`
/// folder stands beside that `bin` (`~/.pyenv/versions/3.11.7`, `~/.nvm/versions/node/v20`,
/// a rustup toolchain). A home folder never counts as one.
fn installation(path: &Path) -> Option<PathBuf> {
    let bin = path.parent()?;
    if bin.file_name()? != "bin" {
        return None;
    }
    let prefix = bin.parent()?;
    let home = std::env::var_os("HOME").map(PathBuf::from);
    if prefix.join("lib").is_dir() && home.as_deref() != Some(prefix) && prefix != Path::new("/") {
        Some(prefix.to_path_buf())
    } else {
        None
    }
}

/// The program a pyenv shim or a rustup proxy stands for, by asking the tool itself.
fn unshim(found: &Path, program: &str, folder: &Path) -> Option<PathBuf> {
    let dir = found.parent()?;
    let tool = if dir.file_name()? == "shims" && dir.parent()?.join("bin/pyenv").exists() {
        dir.parent()?.join("bin/pyenv")
    } else if dir.file_name()? == "shims" && dir.parent()?.join("libexec/pyenv").exists() {
        dir.parent()?.join("libexec/pyenv")
    } else if dir.join("rustup").is_file() && found.file_name()? != "rustup" {
        dir.join("rustup")
    } else {
        return None;
    };
    let out = std::process::Command::new(&tool)
        .args(["which", program])
        .current_dir(folder)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let path = PathBuf::from(text.trim());
    (out.status.success() && path.is_absolute() && executable(&path)).then_some(path)
}

/// The interpreter a script's `#!` line names: `/usr/bin/python3`, or `python3` for
/// `#!/usr/bin/env python3`.
fn shebang(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(path).ok()?.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|&b| b == b'\n').unwrap_or(line.len())];
    let line = std::str::from_utf8(line).ok()?;
    let mut words = line.split_whitespace();
    let first = words.next()?;
    if Path::new(first).file_name()? == "env" {
        words
            .find(|w| !w.starts_with('-') && !w.contains('='))
            .map(str::to_owned)
    } else {
        Some(first.to_owned())
    }
}

/// Why a word of an entrant's command names something outside what its box shows: a `..`
/// step, or an absolute path outside the system's folders, `/tmp`, `/dev` and the folder.
pub fn foreign_word(word: &str, folder: &Path) -> Option<String> {
    for piece in word.split(['=', ':', ',']) {
        let path = Path::new(piece);
        if path.components().any(|c| c == Component::ParentDir) {
            return Some(format!("`{word}` steps out of the folder with `..`"));
        }
        if path.is_absolute()
            && !in_system(path)
            && !path.starts_with("/tmp")
            && !path.starts_with("/dev")
            && !path.starts_with(folder)
        {
            return Some(format!(
                "`{word}` names {piece}, outside the entrant's folder"
            ));
        }
    }
    None
}

/// The symbolic links inside `folder` that lead out of it (to anything but the folder itself
/// and the system's folders): `(link, where it leads)`, at most `limit` of them.
pub fn links_out(folder: &Path, limit: usize) -> Vec<(PathBuf, PathBuf)> {
    let root = folder
        .canonicalize()
        .unwrap_or_else(|_| folder.to_path_buf());
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    let mut seen = 0usize;
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > 100_000 || out.len() >= limit {
                return out;
            }
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_symlink() {
                let target = std::fs::read_link(&path).unwrap_or_default();
                let leads = normalize(&path.parent().unwrap_or(&root).join(&target));
                let leads = leads.canonicalize().unwrap_or(leads);
                if !leads.starts_with(&root) && !in_system(&leads) {
                    out.push((path, leads));
                }
            }
        }
    }
    out
}

/// `a/b/../c` as `a/c`, without asking the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::ErrorKind;
    use std::os::unix::fs::symlink;

    fn script(path: &Path, text: &str) {
        std::fs::write(path, text).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn a_program_is_found_where_the_shell_would_and_placed() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("bot");
        let tools = dir.path().join("tools");
        let prefix = dir.path().join("lang/versions/9.9");
        for d in [&folder, &tools, &prefix.join("bin"), &prefix.join("lib")] {
            std::fs::create_dir_all(d).unwrap();
        }
        script(&prefix.join("bin/lang9.9"), "\x7fELF");
        symlink(prefix.join("bin/lang9.9"), prefix.join("bin/lang")).unwrap();
        script(&tools.join("helper"), "\x7fELF");
        script(&folder.join("bot.lang"), "#!/usr/bin/env lang\n");
        let search =
            std::env::join_paths([prefix.join("bin"), tools.clone(), "/usr/bin".into()]).unwrap();

        let interp = find("lang", &folder, &search).unwrap();
        assert_eq!(interp.path, prefix.join("bin/lang9.9"));
        assert_eq!(interp.place, Place::Installation(prefix.clone()));
        assert_eq!(interp.path_dirs(), [prefix.join("bin")]);

        let bot = find("./bot.lang", &folder, &search).unwrap();
        assert_eq!(bot.place, Place::Folder);
        assert_eq!(bot.shown(), std::slice::from_ref(&prefix));
        assert!(bot.admissible());

        let helper = find("helper", &folder, &search).unwrap();
        assert_eq!(
            (helper.place.clone(), helper.shown()),
            (Place::Elsewhere, vec![tools.join("helper")])
        );
        assert!(!helper.admissible());

        assert_eq!(find("sh", &folder, &search).unwrap().place, Place::System);
        assert_eq!(
            find("nothing-of-the-kind", &folder, &search)
                .unwrap_err()
                .kind(),
            ErrorKind::NotFound
        );
        std::fs::write(folder.join("data"), "x").unwrap();
        assert_eq!(
            find("./data", &folder, &search).unwrap_err().kind(),
            ErrorKind::PermissionDenied
        );
    }

    #[test]
    fn shebangs_name_their_interpreter() {
        let dir = tempfile::tempdir().unwrap();
        let s = dir.path().join("s");
        for (line, want) in [
            ("#!/usr/bin/env python3\n", Some("python3")),
            ("#!/usr/bin/env -S node --stack-size=99\n", Some("node")),
            ("#! /bin/sh -e\n", Some("/bin/sh")),
            ("print(1)\n", None),
        ] {
            std::fs::write(&s, line).unwrap();
            assert_eq!(shebang(&s).as_deref(), want, "{line}");
        }
    }

    #[test]
    fn words_that_leave_the_folder_are_named() {
        let folder = Path::new("/srv/event/entrants/bob");
        assert_eq!(
            foreign_word("../alice/bot.py", folder).as_deref(),
            Some("`../alice/bot.py` steps out of the folder with `..`")
        );
        assert_eq!(foreign_word("/srv/event/entrants/alice/bot.py", folder).as_deref(), Some("`/srv/event/entrants/alice/bot.py` names /srv/event/entrants/alice/bot.py, outside the entrant's folder"));
        assert_eq!(
            foreign_word("-cp=lib:/home/x/classes", folder).as_deref(),
            Some("`-cp=lib:/home/x/classes` names /home/x/classes, outside the entrant's folder")
        );
        for fine in [
            "bot.py",
            "--depth=3",
            "/usr/share/dict/words",
            "/srv/event/entrants/bob/data",
            "/tmp/cache",
            "-cp",
            ".:lib/*",
        ] {
            assert_eq!(foreign_word(fine, folder), None, "{fine}");
        }
    }

    #[test]
    fn links_out_of_the_folder_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("bot");
        std::fs::create_dir_all(folder.join("lib")).unwrap();
        std::fs::write(dir.path().join("secret"), "s").unwrap();
        symlink("../../secret", folder.join("lib/key")).unwrap();
        symlink("../bot.py", folder.join("lib/self")).unwrap();
        symlink("/usr/bin/python3", folder.join("python")).unwrap();
        symlink("/root/.ssh/id_rsa", folder.join("dangling")).unwrap();
        let mut found = links_out(&folder, 10);
        found.sort();
        let root = folder.canonicalize().unwrap();
        assert_eq!(
            found,
            [
                (root.join("dangling"), PathBuf::from("/root/.ssh/id_rsa")),
                (
                    root.join("lib/key"),
                    dir.path().canonicalize().unwrap().join("secret")
                ),
            ]
        );
    }
}
