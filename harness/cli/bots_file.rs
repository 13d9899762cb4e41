//! Bots files: named bots in TOML (`configs/bots.toml`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use quads_referee::{BotCommand, BotSpec};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    bot: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: String,
    command: String,
    #[serde(default)]
    shell: bool,
    dir: Option<PathBuf>,
    #[serde(default)]
    options: BTreeMap<String, toml::Value>,
}

/// The bots a file names.
pub fn read(path: &Path) -> Result<Vec<BotSpec>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let file: File = toml::from_str(&text).map_err(|e| {
        let first = e.to_string().lines().next().unwrap_or_default().to_owned();
        format!("{}: {first}: {}", path.display(), e.message())
    })?;
    let mut bots = Vec::new();
    for entry in file.bot {
        if bots.iter().any(|b: &BotSpec| b.name == entry.name) {
            return Err(format!(
                "{}: bot `{}` is named twice",
                path.display(),
                entry.name
            ));
        }
        let options = entry
            .options
            .into_iter()
            .map(|(k, v)| {
                let value = match v {
                    toml::Value::String(s) => s,
                    other => other.to_string(),
                };
                (k, value)
            })
            .collect();
        bots.push(BotSpec {
            command: command(&entry.command, entry.shell, entry.dir)?,
            name: entry.name,
            options,
        });
    }
    Ok(bots)
}

/// A bot command from one string: split like a shell would, or kept whole for `sh -c`.
pub fn command(text: &str, shell: bool, dir: Option<PathBuf>) -> Result<BotCommand, String> {
    let argv = if shell {
        vec![text.to_owned()]
    } else {
        shlex::split(text)
            .ok_or_else(|| format!("cannot split bot command `{text}` (unbalanced quotes?)"))?
    };
    if argv.is_empty() || argv[0].is_empty() {
        return Err("empty bot command".to_owned());
    }
    Ok(BotCommand { argv, shell, dir })
}
