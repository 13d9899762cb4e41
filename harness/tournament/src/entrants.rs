//! A competition's entrants: a folder with one subfolder per entrant, each holding a manifest,
//! `bot.toml`:
//!
//! ```toml
//! name = "carol"                      # required: the name in every report and file name
//! author = "Carol"                    # required
//! command = "./carol"                 # required: split like a shell, run in this folder
//! build = "cc -O2 -o carol bot.c"     # optional: run once with `sh -c` in this folder
//! build_timeout = "5m"                # optional: at most the event's `entrants_build_timeout`,
//!                                     # which is also the default (BUILD_TIMEOUT unless set)
//! options = { depth = 6 }             # optional: set over the protocol, as for [[bot]]
//! language = "C"                      # optional, free text
//! ```
//!
//! This module reads the manifests. A manifest that cannot be used (bad TOML, an unknown key,
//! a missing one, a name taken twice or by a `[[bot]]`, no `bot.toml` at all, a command or a
//! build that names something outside the entrant's folder, `..` or an absolute path, a link
//! in the folder that leads out of it) leaves its entrant out with one line naming the file
//! and the line; the others go on. Building and
//! checking are in [`crate::admission`], the report in [`crate::entrants_report`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use quads_referee::sandbox::resolve::{foreign_word, links_out};
use quads_referee::{parse_duration, BotSpec};
use serde::Deserialize;
use toml::Spanned;

use crate::config::{command, line_of, one_line, option_texts};

/// The manifest's file name in each entrant's folder.
pub const MANIFEST: &str = "bot.toml";

pub use crate::config::BUILD_TIMEOUT;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    name: Spanned<String>,
    author: String,
    command: Spanned<String>,
    build: Option<Spanned<String>>,
    build_timeout: Option<Spanned<String>>,
    #[serde(default)]
    options: BTreeMap<String, toml::Value>,
    language: Option<String>,
}

/// Who an entrant is, as far as its manifest says (for the report).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct About {
    /// The entrant's name; its folder's name when the manifest does not give one.
    pub name: String,
    /// The author; empty when the manifest does not give one.
    pub author: String,
    /// The language; empty when not given.
    pub language: String,
    /// The entrant's folder: the entrants folder as the config gives it, joined with the
    /// subfolder's name.
    pub folder: PathBuf,
}

/// An entrant whose manifest is usable.
#[derive(Clone, Debug)]
pub struct Entrant {
    /// Name, author, language, folder.
    pub about: About,
    /// The build command, run with `sh -c` in the folder.
    pub build: Option<String>,
    /// The most the build may take, as the manifest asks (`None`: it does not say); the event
    /// caps it ([`Entrant::build_limit`]).
    pub build_timeout: Option<Duration>,
    /// The bot as a tournament runs it (working directory: the folder).
    pub bot: BotSpec,
}

/// One subfolder of the entrants folder: usable, or left out with a one-line reason.
#[derive(Clone, Debug)]
pub enum Listed {
    /// The manifest is usable.
    Entrant(Box<Entrant>),
    /// The manifest is not: `path:line: what is wrong`.
    Rejected(About, String),
}

impl Listed {
    /// Name, author, language, folder.
    pub fn about(&self) -> &About {
        match self {
            Listed::Entrant(e) => &e.about,
            Listed::Rejected(about, _) => about,
        }
    }
}

/// A problem with the entrants folder itself (not with one entrant).
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {source}", folder.display())]
pub struct FolderError {
    /// The entrants folder.
    pub folder: PathBuf,
    /// Why it cannot be listed.
    #[source]
    pub source: std::io::Error,
}

/// A problem that stops the event: the folder cannot be read, a report cannot be written, or
/// a resumed run cannot admit again what the first run admitted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EntrantsError {
    /// The entrants folder itself.
    #[error(transparent)]
    Folder(#[from] FolderError),
    /// No folder for the entrants' copies.
    #[error("cannot make a folder for the entrants' copies: {0}")]
    Staging(#[source] std::io::Error),
    /// A folder of the results cannot be made.
    #[error("cannot create {}: {source}", path.display())]
    Create {
        /// The folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// `entrants.json` cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// `entrants.json` is not one.
    #[error("{}: {source}", path.display())]
    Saved {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: serde_json::Error,
    },
    /// A report cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A resumed run: an admitted entrant's manifest no longer reads.
    #[error("{} admitted `{name}`, whose manifest is no longer usable ({why}); remove {} to start afresh", saved.display(), out.display())]
    NoLongerUsable {
        /// entrants.json.
        saved: PathBuf,
        /// The entrant.
        name: String,
        /// What is wrong with its manifest.
        why: String,
        /// The results folder.
        out: PathBuf,
    },
    /// A resumed run: an admitted entrant's folder is gone.
    #[error("{} admitted `{name}` from {}, which is gone; remove {} to start afresh", saved.display(), folder.display(), out.display())]
    Gone {
        /// entrants.json.
        saved: PathBuf,
        /// The entrant.
        name: String,
        /// Its folder.
        folder: PathBuf,
        /// The results folder.
        out: PathBuf,
    },
    /// A resumed run: an admitted entrant no longer builds.
    #[error("`{name}` was admitted, but now its {reason}; remove {} to start afresh", out.display())]
    NowFails {
        /// The entrant.
        name: String,
        /// What fails.
        reason: String,
        /// The results folder.
        out: PathBuf,
    },
}

/// Reads every subfolder of `folder` (hidden ones aside) in the order of their names. `taken`
/// are the names of the config's `[[bot]]` bots, which no entrant may use.
pub fn read_entrants(folder: &Path, taken: &[String]) -> Result<Vec<Listed>, FolderError> {
    let entries = std::fs::read_dir(folder).map_err(|source| FolderError {
        folder: folder.to_owned(),
        source,
    })?;
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| FolderError {
            folder: folder.to_owned(),
            source,
        })?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') && entry.path().is_dir() {
            names.push(name);
        }
    }
    names.sort();
    // The manifest that holds each name so far, to name it when another takes it again.
    let mut holders: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut listed = Vec::new();
    for sub in names {
        let dir = folder.join(&sub);
        let item = match read_manifest(&dir, &sub, taken, &holders) {
            Ok(entrant) => {
                holders.insert(entrant.about.name.clone(), dir.join(MANIFEST));
                Listed::Entrant(Box::new(entrant))
            }
            Err((about, reason)) => Listed::Rejected(about, one_line(&reason)),
        };
        listed.push(item);
    }
    Ok(listed)
}

/// Whether a name is usable in file names and reports: letters, digits, `-`, `_` and `.`,
/// not starting with `.`.
fn good_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Reads one entrant's manifest; on failure, what is known about the entrant and one line.
fn read_manifest(
    dir: &Path,
    sub: &str,
    taken: &[String],
    holders: &BTreeMap<String, PathBuf>,
) -> Result<Entrant, (About, String)> {
    let path = dir.join(MANIFEST);
    let mut about = About {
        name: sub.to_owned(),
        author: String::new(),
        language: String::new(),
        folder: dir.to_path_buf(),
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let why = format!(
                "{}: missing (each entrant's folder needs a {MANIFEST})",
                path.display()
            );
            return Err((about, why));
        }
        Err(e) => return Err((about, format!("{}: cannot read: {e}", path.display()))),
    };
    let manifest: Manifest = match toml::from_str(&text) {
        Ok(m) => m,
        Err(e) => {
            // Who it is, for the report, if the file is TOML at all.
            if let Ok(table) = text.parse::<toml::Table>() {
                let field = |key: &str| table.get(key).and_then(toml::Value::as_str);
                about.name = field("name").unwrap_or(sub).to_owned();
                about.author = field("author").unwrap_or_default().to_owned();
                about.language = field("language").unwrap_or_default().to_owned();
            }
            let at = match e.span() {
                Some(s) => format!("{}:{}", path.display(), line_of(&text, s.start)),
                None => path.display().to_string(),
            };
            return Err((about, format!("{at}: {}", one_line(e.message()))));
        }
    };
    about.author = manifest.author;
    about.language = manifest.language.unwrap_or_default();
    let at =
        |span: std::ops::Range<usize>| format!("{}:{}", path.display(), line_of(&text, span.start));
    let name_at = at(manifest.name.span());
    let name = manifest.name.into_inner();
    about.name = name.clone();
    if !good_name(&name) {
        let why = format!(
            "{name_at}: name `{name}`: use letters, digits, `-`, `_` and `.` (it names files), not starting with `.`"
        );
        return Err((about, why));
    }
    if taken.contains(&name) {
        let why = format!("{name_at}: name `{name}` is taken by a [[bot]] of the config");
        return Err((about, why));
    }
    if let Some(holder) = holders.get(&name) {
        let why = format!("{name_at}: name `{name}` is taken by {}", holder.display());
        return Err((about, why));
    }
    let command_at = at(manifest.command.span());
    let bot_command = match command(manifest.command.get_ref(), false, Some(dir.to_path_buf())) {
        Ok(c) => c,
        Err(e) => return Err((about, format!("{command_at}: {e}"))),
    };
    // The entrant's box shows it its own folder and the system's only: a command or a build
    // that names anything else is refused here, in one line, rather than failing in the box.
    let own = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    for word in &bot_command.argv {
        if let Some(why) = foreign_word(word, &own) {
            return Err((about, format!("{command_at}: command: {why}")));
        }
    }
    // `/tmp` and `/dev` are the box's own, empty at each start: a program there never is.
    let program = Path::new(&bot_command.argv[0]);
    if ["/tmp", "/dev"].iter().any(|d| program.starts_with(d)) {
        let why = format!(
            "{command_at}: command: `{}` runs a program under {}, which the entrant's box starts empty: run a file of the entrant's folder",
            bot_command.argv[0],
            if program.starts_with("/tmp") { "/tmp" } else { "/dev" }
        );
        return Err((about, why));
    }
    if let Some(build) = &manifest.build {
        let build_at = at(build.span());
        for word in shlex::split(build.get_ref()).unwrap_or_default() {
            if let Some(why) = foreign_word(&word, &own) {
                return Err((about, format!("{build_at}: build: {why}")));
            }
        }
    }
    if let Some((link, leads)) = links_out(dir, 1).into_iter().next() {
        let name = link.strip_prefix(&own).unwrap_or(&link);
        let why = format!(
            "{}: `{}` is a link out of the entrant's folder (to {})",
            path.display(),
            name.display(),
            leads.display()
        );
        return Err((about, why));
    }
    let build_timeout = match manifest.build_timeout {
        None => None,
        Some(t) => match parse_duration(t.get_ref()) {
            Ok(d) if !d.is_zero() => Some(d),
            Ok(_) => return Err((about, format!("{}: build_timeout is zero", at(t.span())))),
            Err(e) => return Err((about, format!("{}: build_timeout: {e}", at(t.span())))),
        },
    };
    Ok(Entrant {
        bot: BotSpec {
            name: name.clone(),
            command: bot_command,
            options: option_texts(manifest.options),
            time: None,
        },
        about,
        build: manifest.build.map(Spanned::into_inner),
        build_timeout,
    })
}

impl Entrant {
    /// How long its build may take in an event whose cap is `cap`: what the manifest asks, at
    /// most the cap; the cap when it asks nothing. The event's limits are the event's, never
    /// the entrant's.
    pub fn build_limit(&self, cap: Duration) -> Duration {
        self.build_timeout.map_or(cap, |asked| asked.min(cap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(manifests: &[(&str, Option<&str>)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (sub, text) in manifests {
            std::fs::create_dir(dir.path().join(sub)).unwrap();
            if let Some(text) = text {
                std::fs::write(dir.path().join(sub).join(MANIFEST), text).unwrap();
            }
        }
        dir
    }

    fn reasons(listed: &[Listed], root: &Path) -> Vec<String> {
        listed
            .iter()
            .map(|l| match l {
                Listed::Entrant(e) => format!("ok {}", e.about.name),
                Listed::Rejected(_, why) => why.replace(&root.display().to_string(), "ROOT"),
            })
            .collect()
    }

    #[test]
    fn each_bad_manifest_is_one_line_with_its_file_and_line() {
        let good = "name = \"ann\"\nauthor = \"Ann\"\ncommand = \"./ann --fast\"\n";
        let dir = folder(&[
            ("a", Some(good)),
            (
                "b",
                Some("name = \"ann\"\nauthor = \"B\"\ncommand = \"x\"\n"),
            ),
            (
                "c",
                Some("name = \"cy\"\nauthor = \"C\"\ncommand = \"x 'y\"\n"),
            ),
            (
                "d",
                Some("name = \"d\"\nauthor = \"D\"\ncommand = \"x\"\nbuild_timeout = \"soon\"\n"),
            ),
            (
                "e",
                Some("name = \"greedy\"\nauthor = \"E\"\ncommand = \"x\"\n"),
            ),
            (
                "f",
                Some("name = \"f f\"\nauthor = \"F\"\ncommand = \"x\"\n"),
            ),
            ("g", None),
            (".hidden", None),
        ]);
        std::fs::write(dir.path().join("README.md"), "not a folder").unwrap();
        let listed = read_entrants(dir.path(), &["greedy".to_owned()]).unwrap();
        assert_eq!(
            reasons(&listed, dir.path()),
            [
                "ok ann",
                "ROOT/b/bot.toml:1: name `ann` is taken by ROOT/a/bot.toml",
                "ROOT/c/bot.toml:3: cannot split bot command `x 'y` (unbalanced quotes?)",
                "ROOT/d/bot.toml:4: build_timeout: bad duration `soon`: expected number at 0 (examples: 60s, 500ms, 5m)",
                "ROOT/e/bot.toml:1: name `greedy` is taken by a [[bot]] of the config",
                "ROOT/f/bot.toml:1: name `f f`: use letters, digits, `-`, `_` and `.` (it names files), not starting with `.`",
                "ROOT/g/bot.toml: missing (each entrant's folder needs a bot.toml)",
            ]
        );
        let Listed::Entrant(ann) = &listed[0] else {
            unreachable!()
        };
        assert_eq!(ann.bot.command.argv, ["./ann", "--fast"]);
        assert_eq!(
            ann.bot.command.dir.as_deref(),
            Some(dir.path().join("a").as_path())
        );
        assert_eq!(ann.build_timeout, None);
        assert_eq!(ann.build_limit(BUILD_TIMEOUT), BUILD_TIMEOUT);
        let mut asked = ann.clone();
        asked.build_timeout = Some(Duration::from_secs(360_000)); // 100 hours
        assert_eq!(asked.build_limit(BUILD_TIMEOUT), BUILD_TIMEOUT);
        asked.build_timeout = Some(Duration::from_secs(7));
        assert_eq!(asked.build_limit(BUILD_TIMEOUT), Duration::from_secs(7));
    }
}
