//! A match: N games between two bots, alternating who moves first, each record appended to
//! `games.jsonl` as the game ends, each bot's log written beside it.

use std::io::Write;
use std::path::{Path, PathBuf};

use quads_rules::Position;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::game::play_game;
use crate::process::Log;
use crate::seat::{BotSpec, Seat};
use crate::settings::{MatchError, Settings};
use quads_record::{GameRecord, GameResult, Seat as Side};

/// What to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two bots; the first of them moves first in odd-numbered games.
    pub bots: [BotSpec; 2],
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

/// Plays the match; calls `report` after each game. The scores are for `bots[0]` and `bots[1]`.
pub async fn run_match(
    config: &MatchConfig,
    mut report: impl FnMut(&GameRecord),
) -> Result<[Score; 2], MatchError> {
    let logs = config.out.join("logs");
    std::fs::create_dir_all(&logs).map_err(output_error(&logs))?;
    let records_path = config.out.join("games.jsonl");
    let mut records = std::fs::File::create(&records_path).map_err(output_error(&records_path))?;
    let mut seeds = ChaCha8Rng::seed_from_u64(config.seed);
    let mut seats = config.bots.clone().map(Seat::new);
    let mut scores = [Score::default(); 2];
    let mut outcome = Ok(());
    for game in 1..=config.games {
        let seed = seeds.next_u64();
        let [a, b] = &mut seats;
        // Bot 0 moves first in games 1, 3, 5…
        let swapped = game % 2 == 0;
        let (first, second) = if swapped { (b, a) } else { (a, b) };
        let played = match play_game(
            first,
            second,
            &config.settings,
            game,
            seed,
            Position::START,
            config.keep_alive,
        )
        .await
        {
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
        let (first_score, second_score) = match record.result {
            GameResult::FirstWins => ((1, 0, 0), (0, 0, 1)),
            GameResult::SecondWins => ((0, 0, 1), (1, 0, 0)),
            GameResult::Draw => ((0, 1, 0), (0, 1, 0)),
        };
        let (s0, s1) = if swapped {
            (second_score, first_score)
        } else {
            (first_score, second_score)
        };
        for (score, (w, d, l)) in scores.iter_mut().zip([s0, s1]) {
            score.wins += w;
            score.draws += d;
            score.losses += l;
        }
        report(record);
        if outcome.is_err() {
            break;
        }
    }
    for seat in &mut seats {
        seat.stop(config.settings.grace).await;
    }
    outcome.map(|()| scores)
}

/// Writes each bot's log of a game into `dir` as `game-NNNN-SEAT-NAME.log` (a bot that wrote
/// nothing gets no file), with a last line counting the bytes past the cap. On failure, the
/// path that could not be written.
pub fn write_logs(
    dir: &Path,
    record: &GameRecord,
    logs: &[Log; 2],
) -> Result<(), (PathBuf, std::io::Error)> {
    for (seat, log) in Side::ALL.iter().zip(logs) {
        let entry = record.bot(*seat);
        if log.kept.is_empty() && log.dropped == 0 {
            continue;
        }
        let name = quads_record::log_file_name(record.game, *seat, &entry.name);
        let path = dir.join(name);
        let mut text = log.kept.clone();
        if log.dropped > 0 {
            text.extend_from_slice(format!("\n[{} more bytes not kept]\n", log.dropped).as_bytes());
        }
        std::fs::write(&path, text).map_err(|e| (path, e))?;
    }
    Ok(())
}
