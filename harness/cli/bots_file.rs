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
