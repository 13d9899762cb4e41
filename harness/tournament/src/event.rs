//! An event over a folder of entrants, as typed settings rather than text: what a competition
//! server gives to admit an upload (checked by the same code that checks a config file, with
//! no text in between) and to write its final tournament's config for the host to run (the
//! same settings as TOML, which `quads tournament` reads back to the same tournament).

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::config::check_file;
use crate::config_file::{ConfigFile, TimeSection};
use crate::{ConfigError, Overrides, Tournament};

/// A round robin of the admitted entrants of a folder, under one time control.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EntrantsEvent {
    /// The event's name.
    pub name: String,
    /// The seed.
    pub seed: u64,
    /// The output folder.
    pub out: PathBuf,
    /// The entrants' folder (`entrants` in a config).
    pub entrants: PathBuf,
    /// The most an entrant's build may take, as a duration such as `5m`.
    pub entrants_build_timeout: String,
    /// The variants, as rules specs.
    pub variants: Vec<String>,
    /// Game pairs per pairing per variant (the config's default when not given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<u32>,
    /// The time control.
    pub time: EventTime,
}

/// An event's time control.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EventTime {
    /// Each move's limit, as a duration such as `1s`.
    pub movetime: String,
}

impl EntrantsEvent {
    /// The tournament, checked as a config file's would be; `source` names the settings in
    /// errors.
    pub fn tournament(&self, source: &Path) -> Result<Tournament, ConfigError> {
        check_file(self.file(), source, &Overrides::default())
    }

    /// The settings as a config file's TOML (`quads tournament FILE` reads it back to the same
    /// tournament), or why it cannot be written: a path that is not UTF-8, named by `source`.
    pub fn to_toml(&self, source: &Path) -> Result<String, ConfigError> {
        toml::to_string(self).map_err(|e| ConfigError::Write {
            path: source.to_owned(),
            message: crate::config::one_line(&e.to_string()),
        })
    }

    fn file(&self) -> ConfigFile {
        ConfigFile {
            name: Some(self.name.clone()),
            seed: Some(self.seed),
            out: Some(self.out.clone()),
            concurrency: None,
            format: None,
            gauntlet: Vec::new(),
            pairs: self.pairs,
            variants: Some(self.variants.clone()),
            keep_alive: None,
            ponder: None,
            openings: None,
            time: Some(TimeSection {
                movetime: Some(self.time.movetime.clone()),
                clock: None,
                margin: None,
            }),
            handshake_timeout: None,
            log_cap: None,
            anchor: None,
            sprt: None,
            entrants: Some(self.entrants.clone()),
            entrants_ponder: None,
            entrants_build_timeout: Some(self.entrants_build_timeout.clone()),
            sandbox: None,
            analyze: None,
            bot: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_config;

    /// An event over `dir`'s entrants folder (it must exist, as a file's must).
    fn event(dir: &Path, pairs: Option<u32>) -> EntrantsEvent {
        std::fs::create_dir_all(dir.join("entrants")).expect("entrants folder");
        EntrantsEvent {
            name: "cup \"of\" 2026".to_owned(),
            seed: 7,
            out: dir.join("out"),
            entrants: dir.join("entrants"),
            entrants_build_timeout: "90s".to_owned(),
            variants: vec!["classic".to_owned(), "quads".to_owned()],
            pairs,
            time: EventTime {
                movetime: "250ms".to_owned(),
            },
        }
    }

    #[test]
    fn the_settings_and_their_toml_check_to_the_same_tournament() {
        let dir = tempfile::tempdir().expect("a folder");
        for pairs in [None, Some(10)] {
            let e = event(dir.path(), pairs);
            let source = Path::new("event.toml");
            let typed = e.tournament(source).expect("typed settings check");
            let text = e.to_toml(source).expect("written");
            let read = parse_config(&text, source, &Overrides::default()).expect("read back");
            assert_eq!(format!("{typed:?}"), format!("{read:?}"), "{text}");
            assert_eq!(typed.name, "cup \"of\" 2026");
            assert_eq!(typed.pairs, pairs.unwrap_or(read.pairs));
            assert_eq!(typed.variants.len(), 2);
        }
    }

    #[test]
    fn a_folder_toml_cannot_name_is_refused_in_one_line() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().expect("a folder");
        let mut e = event(dir.path(), None);
        e.out = dir.path().join(std::ffi::OsStr::from_bytes(b"out-\xff"));
        let err = e.to_toml(Path::new("event.toml")).unwrap_err();
        assert!(matches!(err, ConfigError::Write { .. }), "{err:?}");
        let line = err.to_string();
        assert!(
            line.starts_with("cannot write event.toml as TOML: "),
            "{line}"
        );
        assert!(!line.contains('\n'), "{line}");
    }

    #[test]
    fn a_bad_value_is_refused_as_in_a_file() {
        let dir = tempfile::tempdir().expect("a folder");
        let mut e = event(dir.path(), None);
        e.time.movetime = "soon".to_owned();
        let err = e.tournament(Path::new("event")).unwrap_err().to_string();
        assert!(err.starts_with("event: "), "{err}");
        assert!(err.contains("soon"), "{err}");
    }
}
