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
/// folder's sandbox.txt, event.json and report.html. The report is built from the games as
/// they were played, kept in memory: reading games.jsonl back had been a tenth of a
/// 1,000-game match's instructions, and the page is the same bytes either way
/// (`quads report DIR` rebuilds it from the folder).
pub fn play_match(
    config: &MatchConfig,
    mut each: impl FnMut(&GameRecord),
) -> Result<Played, ResultsError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ResultsError::Runtime)?;
    let mut played = Vec::new();
    let scores = runtime.block_on(run_match(config, |record| {
        played.push((0, record.clone()));
        each(record);
    }))?;
    walls::record(&config.out, &config.bots.clone().into_array())?;
    let names: Vec<String> = config.bots.values().map(|b| b.name.clone()).collect();
    let event = EventInfo {
        name: format!("match: {} vs {}", names[0], names[1]),
        seed: Some(config.seed),
        bots: names,
        anchor: None,
        machine: Some(machine()),
        games: vec![GAMES.to_owned()],
    };
    write_event(&config.out, &event)?;
    // (A match of no games has no report: the rebuild finds no games in the folder and says
    // so, as `quads report` would.)
    let report = if played.is_empty() {
        None
    } else {
        Some(page::report_of(&event, played)?)
    };
    let page = page::rebuild(&config.out, report)?;
    Ok(Played { scores, page })
}
