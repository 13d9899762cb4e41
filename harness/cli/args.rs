//! Argument readers that several commands share: a rules spec, and a position checked
//! against its rules.

use quads_rules::{Position, Rules};

/// A rules spec (`quads`, `classic,claim=announce`), for clap.
pub fn parse_rules(spec: &str) -> Result<Rules, String> {
    spec.parse().map_err(|e| format!("{e}"))
}

/// Parses a position and checks that it can arise under `rules`.
pub fn checked_position(text: &str, rules: &Rules) -> Result<Position, String> {
    let pos: Position = text.parse().map_err(|e| format!("{e}"))?;
    pos.check(rules)
        .map_err(|why| format!("position `{text}` cannot arise under rules `{rules}`: {why}"))?;
    Ok(pos)
}
