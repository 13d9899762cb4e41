//! A finished game as the referee records one (`games.jsonl`, the bots' logs beside it), and
//! the solver's word on where it was decided.

use std::io::Write;
use std::path::{Path, PathBuf};

use quads_analysis::{Decided, Oracle};
use quads_i18n::Catalog;
use quads_record::{BotEntry, ByPlayer, EndReason, Failure, GameRecord, GameResult, Timing};
use quads_referee::Log;

use crate::game::Game;

/// What the record needs beyond the game.
pub struct Facts {
    /// The game's seed (sent to a bot).
    pub seed: u64,
    /// The time control, as the record writes it.
    pub time_control: String,
    /// Both players.
    pub entries: ByPlayer<BotEntry>,
    /// The result and how it came.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: EndReason,
    /// The forfeit, if there was one.
    pub failures: Vec<Failure>,
    /// When the game started (RFC 3339).
    pub started: String,
    /// Its length in ms.
    pub duration_ms: f64,
    /// Per side, the processes a bot left that had to be killed.
    pub leaked: ByPlayer<u32>,
}

/// The record of `game`.
pub fn record(game: &Game, number: u32, facts: Facts, logs: &ByPlayer<Log>) -> GameRecord {
    let ByPlayer { first, second } = facts.entries;
    GameRecord {
        game: number,
        round: None,
        pair: None,
        event: Some("play".to_owned()),
        event_seed: None,
        rules: game.rules().to_string(),
        seed: facts.seed,
        time_control: facts.time_control,
        start: game.start().to_string(),
        first,
        second,
        moves: game.moves().iter().map(|m| m.mv.to_string()).collect(),
        end: game.position().to_string(),
        result: facts.result,
        reason: facts.reason,
        failures: facts.failures,
        timing: Timing {
            started: facts.started,
            duration_ms: (facts.duration_ms * 1000.0).round() / 1000.0,
            moves_ms: game
                .moves()
                .iter()
                .map(|m| (m.took_ms * 1000.0).round() / 1000.0)
                .collect(),
            leaked: facts.leaked,
            log_bytes: logs.as_ref().map(|l| l.kept.len() as u64),
            log_dropped: logs.as_ref().map(|l| l.dropped),
        },
    }
}

/// The number the next game in `out/games.jsonl` takes.
pub fn next_number(out: &Path) -> u32 {
    std::fs::read_to_string(out.join(quads_record::files::GAMES))
        .map_or(0, |t| t.lines().filter(|l| !l.trim().is_empty()).count()) as u32
        + 1
}

/// Appends `record` to `out/games.jsonl` and writes the logs into `out/logs/`; returns the
/// file.
pub fn save(out: &Path, record: &GameRecord, logs: &ByPlayer<Log>) -> Result<PathBuf, String> {
    let logs_dir = out.join(quads_record::files::LOGS);
    std::fs::create_dir_all(&logs_dir)
        .map_err(|e| format!("cannot create {}: {e}", logs_dir.display()))?;
    let path = out.join(quads_record::files::GAMES);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    file.write_all((record.to_json() + "\n").as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    quads_referee::write_logs(&logs_dir, record, logs)
        .map_err(|(p, e)| format!("cannot write {}: {e}", p.display()))?;
    Ok(path)
}

fn value_word(c: &Catalog, v: quads_analysis::Value) -> String {
    c.text(match v {
        quads_analysis::Value::Win => "value-win",
        quads_analysis::Value::Draw => "value-draw",
        quads_analysis::Value::Loss => "value-loss",
    })
}

/// Where the solver says the game was decided, in a sentence; `names` are the players as the
/// screen calls them.
pub fn decided(c: &Catalog, record: &GameRecord, names: &ByPlayer<String>) -> String {
    let empty = quads_bots::SOLVE_EMPTY;
    let mut oracle = Oracle::new(64, 1);
    let Ok(analysis) = quads_analysis::game::judge(record, "play", empty, &mut oracle) else {
        return String::new();
    };
    match analysis.decided {
        Decided::Unjudged => c.with("end-decided-unjudged", &[("empty", empty.into())]),
        Decided::BeforeJudged => c.with("end-decided-before", &[("empty", empty.into())]),
        Decided::Forfeit => c.text("end-decided-forfeit"),
        Decided::Blunder {
            index,
            number,
            seat,
        } => {
            let judged = analysis
                .moves
                .iter()
                .find(|m| m.index == index)
                .expect("the deciding move was judged");
            c.with(
                "end-decided",
                &[
                    ("number", number.into()),
                    ("move", judged.played.clone().into()),
                    ("player", names[seat].clone().into()),
                    ("before", value_word(c, judged.before).into()),
                    ("after", value_word(c, judged.after).into()),
                ],
            )
        }
    }
}
