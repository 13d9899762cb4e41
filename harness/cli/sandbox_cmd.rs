//! `quads sandbox`: which of the bots' protections this machine enforces, and why any is off.

use quads_referee::sandbox::{probe, SandboxSpec, PROTECTIONS};
use quads_referee::BotCommand;

/// Arguments of `quads sandbox`.
#[derive(clap::Args)]
pub struct Args {}

/// Prints one line per protection: `on` or `off` with the reason.
pub fn run(_: &Args) -> Result<(), String> {
    let found = probe().map_err(|e| e.to_string())?;
    for (name, what) in PROTECTIONS {
        match found.off(name) {
            None if found.protections.iter().any(|(n, _)| n == name) => {
                crate::outln!("on   {name:<12} {what}")
            }
            None => crate::outln!("off  {name:<12} not reported by the probe"),
            Some(why) => crate::outln!("off  {name:<12} {why}"),
        }
    }
    Ok(())
}

/// `--sandbox SPEC` for `quads match` and `quads check`: replaces every bot's walls.
#[derive(clap::Args)]
pub struct Flag {
    /// The walls around every bot: `on` (the default), `off`, or changes to the defaults such
    /// as `memory=2GiB,processes=128,network=on` (see `quads sandbox`).
    #[arg(long, value_name = "SPEC")]
    sandbox: Option<SandboxSpec>,
}

impl Flag {
    /// Puts the flag's walls on `commands` (when given), then prints a warning for each
    /// default protection this machine cannot give; fails on one the user named.
    pub fn apply<'a>(
        &self,
        commands: impl IntoIterator<Item = &'a mut BotCommand>,
    ) -> Result<(), String> {
        let mut specs = Vec::new();
        for c in commands {
            if let Some(s) = &self.sandbox {
                c.sandbox = s.clone();
            }
            specs.push(c.sandbox.clone());
        }
        warn(&specs)
    }
}

/// Prints each sandbox warning once, or fails on a protection asked for that cannot be had.
pub fn warn(specs: &[SandboxSpec]) -> Result<(), String> {
    for w in quads_results::walls::warnings(specs).map_err(|e| e.to_string())? {
        eprintln!("quads: warning: {w}");
    }
    Ok(())
}
