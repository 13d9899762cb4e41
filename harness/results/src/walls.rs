//! `sandbox.txt`: the walls each bot ran inside, as they stand on this machine; and the
//! warnings for walls this machine cannot give.

use std::path::Path;

use quads_record::files::SANDBOX;
use quads_referee::sandbox::{enforce, preflight, SandboxSpec};
use quads_referee::BotSpec;

use crate::folder::write;
use crate::ResultsError;

/// Writes `OUT/sandbox.txt`: each bot's walls as they stand on this machine (a canonical
/// spec, or `off`), so that the results say what protected them.
pub fn record(out: &Path, bots: &[BotSpec]) -> Result<(), ResultsError> {
    let mut text = String::from(
        "# The walls each bot ran inside (docs/sandbox.md); `quads sandbox` says why any is off.\n",
    );
    for bot in bots {
        let (walls, _) = enforce(&bot.command.sandbox)?;
        text.push_str(&format!("{}: {walls}\n", bot.name));
    }
    write(&out.join(SANDBOX), text.as_bytes())
}

/// Each default wall this machine cannot give, once, in words; an error for a wall asked for
/// by name that cannot be had.
pub fn warnings(specs: &[SandboxSpec]) -> Result<Vec<String>, ResultsError> {
    Ok(preflight(specs)?)
}
