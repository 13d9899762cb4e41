//! Bots named in a bots file (`configs/bots.toml`) or given as command lines.

use std::path::Path;

use quads_referee::BotSpec;

/// The bots a file names.
pub fn read(path: &Path) -> Result<Vec<BotSpec>, String> {
    quads_tournament::read_bots_file(path).map_err(|e| e.to_string())
}

/// A bot command from one string: split like a shell would, or kept whole for `sh -c`.
pub fn command(text: &str, shell: bool) -> Result<quads_referee::BotCommand, String> {
    quads_tournament::command(text, shell, None).map_err(|e| e.to_string())
}

/// One bot: a name from the bots file (`file`, or `configs/bots.toml` when it exists), or a
/// command line.
pub fn one_bot(text: &str, file: Option<&Path>, shell: bool) -> Result<BotSpec, String> {
    let default = Path::new("configs/bots.toml");
    let named = match file {
        Some(path) => read(path)?,
        None if default.exists() => read(default)?,
        None => Vec::new(),
    };
    if let Some(found) = named.iter().find(|b| b.name == text) {
        return Ok(found.clone());
    }
    Ok(BotSpec {
        name: text.to_owned(),
        command: command(text, shell)?,
        options: Vec::new(),
        time: None,
    })
}

/// The two bots of a match or an SPRT: names from the bots file (`file`, or
/// `configs/bots.toml` when it exists), or command lines. Equal names get `#1` and `#2`.
pub fn two_bots(bots: &[String], file: Option<&Path>, shell: bool) -> Result<[BotSpec; 2], String> {
    let [a, b] = bots else {
        return Err(format!("give exactly two --bot (got {})", bots.len()));
    };
    let spec = |text: &String| one_bot(text, file, shell);
    let (mut a, mut b) = (spec(a)?, spec(b)?);
    if a.name == b.name {
        a.name.push_str("#1");
        b.name.push_str("#2");
    }
    Ok([a, b])
}
