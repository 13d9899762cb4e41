//! A match: N games between two bots, alternating who moves first, each record appended to
//! `games.jsonl` as the game ends, each bot's log written beside it.

use std::io::Write;
use std::path::{Path, PathBuf};

use quads_rules::{ByPlayer, Player};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tokio::sync::mpsc::UnboundedSender;

use crate::bot::{Bot, BotSpec};
use crate::game::{play_game, GameSpec, Moved};
use crate::process::Log;
use crate::settings::{MatchError, Settings};
use quads_record::GameRecord;

/// What to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two bots; the first of them moves first in odd-numbered games.
    pub bots: ByPlayer<BotSpec>,
    /// Rules, time control, limits.
    pub settings: Settings,
    /// How many games.
    pub games: u32,
    /// The match seed; each game's seed is drawn from it.
    pub seed: u64,
    /// Keep bots alive across games (a bot that failed is restarted).
    pub keep_alive: bool,
    /// Where `games.jsonl` and `logs/` go.
    pub out: PathBuf,
}

/// One bot's results in a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

fn output_error(path: &Path) -> impl FnOnce(std::io::Error) -> MatchError + '_ {
    move |source| MatchError::Output {
        path: path.display().to_string(),
        source,
    }
}

/// Plays the match; calls `report` after each game. The scores are the configured first
/// bot's and second bot's, whichever seat each had in a game.
pub async fn run_match(
    config: &MatchConfig,
    report: impl FnMut(&GameRecord),
) -> Result<ByPlayer<Score>, MatchError> {
    run_match_watched(config, None, report).await
}

/// Whether the configured bots swap seats in game `game` (from 1): the configured first bot
/// moves first in games 1, 3, 5…
pub fn swapped(game: u32) -> bool {
    game % 2 == 0
}

/// [`run_match`], with `watch` told of each move as it is played (a server showing the match
/// live).
pub async fn run_match_watched(
    config: &MatchConfig,
    watch: Option<&UnboundedSender<Moved>>,
    mut report: impl FnMut(&GameRecord),
) -> Result<ByPlayer<Score>, MatchError> {
    let logs = config.out.join(quads_record::files::LOGS);
    std::fs::create_dir_all(&logs).map_err(output_error(&logs))?;
    let records_path = config.out.join(quads_record::files::GAMES);
    let mut records = std::fs::File::create(&records_path).map_err(output_error(&records_path))?;
    let mut seeds = ChaCha8Rng::seed_from_u64(config.seed);
    let mut bots = config.bots.clone().map(Bot::new);
    let mut scores = ByPlayer::<Score>::default();
    let mut outcome = Ok(());
    for game in 1..=config.games {
        let seed = seeds.next_u64();
        let swapped = swapped(game);
        let ByPlayer {
            first: a,
            second: b,
        } = bots.as_mut();
        let seated = if swapped {
            ByPlayer {
                first: b,
                second: a,
            }
        } else {
            ByPlayer {
                first: a,
                second: b,
            }
        };
        let spec = GameSpec {
            keep_alive: config.keep_alive,
            watch,
            ..GameSpec::new(game, seed)
        };
        let played = match play_game(seated, &config.settings, spec).await {
            Ok(played) => played,
            Err(e) => {
                outcome = Err(e);
                break;
            }
        };
        let record = &played.record;
        let line = record.to_json() + "\n";
        if let Err(e) = records
            .write_all(line.as_bytes())
            .and_then(|()| records.flush())
        {
            outcome = Err(output_error(&records_path)(e));
            break;
        }
        if let Err((path, e)) = write_logs(&logs, record, &played.logs) {
            outcome = Err(output_error(&path)(e));
        }
        for &seat in Player::ALL {
            // The configured bot that sat in `seat` this game.
            let bot = if swapped { seat.other() } else { seat };
            let score = &mut scores[bot];
            match record.result.winner() {
                None => score.draws += 1,
                Some(w) if w == seat => score.wins += 1,
                Some(_) => score.losses += 1,
            }
        }
        report(record);
        if outcome.is_err() {
            break;
        }
    }
    for bot in [&mut bots.first, &mut bots.second] {
        bot.stop(config.settings.grace).await;
    }
    outcome.map(|()| scores)
}

/// Writes each bot's log of a game into `dir` as `game-NNNN-SEAT-NAME.log` (a bot that wrote
/// nothing gets no file), with a last line counting the bytes past the cap. On failure, the
/// path that could not be written.
pub fn write_logs(
    dir: &Path,
    record: &GameRecord,
    logs: &ByPlayer<Log>,
) -> Result<(), (PathBuf, std::io::Error)> {
    for (seat, log) in logs.iter() {
        let entry = record.bot(seat);
        if log.kept.is_empty() && log.dropped == 0 {
            continue;
        }
        let name = quads_record::log_file_name(record.game, seat, &entry.name);
        let path = dir.join(name);
        let mut text = log.kept.clone();
        if log.dropped > 0 {
            text.extend_from_slice(format!("\n[{} more bytes not kept]\n", log.dropped).as_bytes());
        }
        std::fs::write(&path, text).map_err(|e| (path, e))?;
    }
    Ok(())
}
