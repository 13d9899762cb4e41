//! `quads ratings`: standings and charts from one or more games.jsonl files (see
//! `quads_results::rating`).

use std::path::PathBuf;

use quads_record::Anchor;
use quads_results::rating::Rate;

use crate::shown::Shown;

/// Arguments of `quads ratings`.
#[derive(clap::Args)]
pub struct Args {
    /// games.jsonl files (from tournaments or matches) to rate together.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Where to write standings and charts.
    #[arg(long, default_value = "out/ratings")]
    out: PathBuf,
    /// The event name in the reports [default: the records' event, else `ratings`].
    #[arg(long)]
    event: Option<String>,
    /// The bootstrap's seed [default: the records' tournament seed, else 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Pin a bot's rating, e.g. `greedy=1500` (otherwise the mean rating is 0).
    #[arg(long, value_name = "BOT=ELO", value_parser = parse_anchor)]
    anchor: Option<Anchor>,
    /// Rate each version as a player of its own (`NAME vN`), where the records say which
    /// version played (a server's export does).
    #[arg(long)]
    by_version: bool,
}

fn parse_anchor(text: &str) -> Result<Anchor, String> {
    let (bot, elo) = text
        .split_once('=')
        .ok_or("expected BOT=ELO, e.g. greedy=1500")?;
    let elo = elo
        .trim()
        .parse()
        .map_err(|_| format!("`{elo}` is not a rating"))?;
    Ok(Anchor {
        bot: bot.trim().to_owned(),
        elo,
    })
}

pub fn run(args: &Args) -> Result<(), String> {
    let rate = Rate {
        files: args.files.clone(),
        out: args.out.clone(),
        event: args.event.clone(),
        seed: args.seed,
        anchor: args.anchor.clone(),
        by_version: args.by_version,
    };
    let mut shown = Shown::new(false, "standings and charts");
    quads_results::rating::rate(&rate, &mut shown).map_err(|e| e.to_string())
}
