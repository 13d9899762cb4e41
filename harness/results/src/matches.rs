//! `quads match`: N games between two bots, with the folder's walls, event and report.

use std::path::PathBuf;

use quads_record::files::GAMES;
use quads_record::{ByPlayer, GameRecord};
use quads_referee::{run_match, MatchConfig, Score};
use quads_reports::html::EventInfo;

use crate::folder::{machine, write_event};
use crate::{page, walls, ResultsError};

/// What a match left.
#[derive(Debug)]
pub struct Played {
    /// Each bot's wins, draws and losses, in the config's order.
    pub scores: ByPlayer<Score>,
    /// Its report.html.
    pub page: PathBuf,
}

/// Plays `config`'s games (telling `each` of every game as it ends), then writes the
/// folder's sandbox.txt, event.json and report.html.
pub fn play_match(
    config: &MatchConfig,
    each: impl FnMut(&GameRecord),
) -> Result<Played, ResultsError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ResultsError::Runtime)?;
    let scores = runtime.block_on(run_match(config, each))?;
    walls::record(&config.out, &config.bots.clone().into_array())?;
    let names: Vec<String> = config.bots.values().map(|b| b.name.clone()).collect();
    write_event(
        &config.out,
        &EventInfo {
            name: format!("match: {} vs {}", names[0], names[1]),
            seed: Some(config.seed),
            bots: names,
            anchor: None,
            machine: Some(machine()),
            games: vec![GAMES.to_owned()],
        },
    )?;
    let page = page::rebuild(&config.out, None)?;
    Ok(Played { scores, page })
}
