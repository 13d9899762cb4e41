//! Matches: one described with its games and the command that replays it, its records, a
//! bot's log (to its owner and the host only), and a test match asked for now.

use quads_record::{GameRecord, Player};
use serde::{Deserialize, Serialize};

use super::entrants::enabled;
use super::{App, DomainError};
use crate::ladder::worker::{folder, replay_command};
use crate::store::{Kind, MatchRow};

/// The refusal of a match that is not one.
pub fn no_match() -> DomainError {
    DomainError::NotFound("no such match".to_owned())
}

/// A match's records.
pub async fn records(app: &App, id: i64) -> Result<Vec<GameRecord>, DomainError> {
    app.0
        .store
        .match_games(id)
        .await?
        .iter()
        .map(|t| serde_json::from_str(t).map_err(DomainError::failed))
        .collect()
}

/// A match's games as its page replays them: the report over them and, when the server judges
/// its matches (config `analysis`), the solver's marks from the match's folder.
pub struct Replayed {
    pub report: quads_reports::report::Report,
    pub judged: Option<quads_reports::html::analysis::Analysis>,
}

/// Match `id`'s games to replay, or `None` before any is counted.
pub async fn replayed(app: &App, id: i64) -> Result<Option<Replayed>, DomainError> {
    let records = records(app, id).await?;
    if records.is_empty() {
        return Ok(None);
    }
    let judged = quads_reports::html::analysis::read(&folder(&app.0.config, id), &records)
        .map_err(DomainError::failed)?;
    let numbered = records.into_iter().map(|r| (0, r)).collect();
    let report = quads_reports::report::build(&app.0.config.name, numbered, &[], 1, None)
        .map_err(DomainError::failed)?;
    Ok(Some(Replayed { report, judged }))
}

/// A match's games in short.
#[derive(Debug, Clone, Serialize)]
pub struct GameLine {
    pub game: u32,
    pub first: String,
    pub second: String,
    pub result: String,
    pub reason: String,
    pub moves: usize,
    pub seed: u64,
    pub failures: Vec<Failure>,
}

/// A bot's failure in a game.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    pub seat: String,
    pub reason: String,
    pub detail: String,
}

/// A match as the front ends show it: its row, its games in short, the command that replays
/// it.
#[derive(Debug, Clone, Serialize)]
pub struct Described {
    #[serde(rename = "match")]
    pub row: MatchRow,
    pub games: Vec<GameLine>,
    pub replay: String,
}

/// The command that plays `row`'s games again on one's own machine.
pub fn replay(app: &App, row: &MatchRow) -> String {
    replay_command(&app.0.config, &row.first, &row.second, &row.rules, row.seed)
}

/// A match described: its row, its games in short, the command that replays it.
pub async fn described(app: &App, row: &MatchRow) -> Result<Described, DomainError> {
    let games = records(app, row.id)
        .await?
        .iter()
        .map(|r| GameLine {
            game: r.game,
            first: r.first.name.clone(),
            second: r.second.name.clone(),
            result: r.result.to_string(),
            reason: r.reason.to_string(),
            moves: r.moves.len(),
            seed: r.seed,
            failures: r
                .failures
                .iter()
                .map(|f| Failure {
                    seat: f.seat.to_string(),
                    reason: f.reason.to_string(),
                    detail: f.detail.clone(),
                })
                .collect(),
        })
        .collect();
    Ok(Described {
        row: row.clone(),
        games,
        replay: replay(app, row),
    })
}

/// The log `file` of match `id`, if `owner` (an entrant's name; `None`: the host) may read it.
pub async fn log_text(
    app: &App,
    id: i64,
    file: &str,
    owner: Option<&str>,
) -> Result<String, DomainError> {
    let refused =
        || DomainError::Forbidden("a bot's logs are for its owner and the host only".to_owned());
    app.0.store.match_row(id).await?.ok_or_else(no_match)?;
    let mut known = false;
    for r in records(app, id).await? {
        for seat in [Player::First, Player::Second] {
            if r.log_file(seat).as_deref() == Some(file) {
                known = true;
                if owner.is_some_and(|o| o != r.bot(seat).name) {
                    return Err(refused());
                }
            }
        }
    }
    if !known {
        return Err(DomainError::NotFound("no such log".to_owned()));
    }
    let path = folder(&app.0.config, id).join("logs").join(file);
    match tokio::fs::read(&path).await {
        Ok(b) => Ok(String::from_utf8_lossy(&b).into_owned()),
        // Named by a record, never handed in (a worker may hand in its games without logs):
        // nothing to show, and nothing wrong with the server.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(DomainError::NotFound(
            "this log was not handed in with the match's games".to_owned(),
        )),
        Err(e) => Err(DomainError::failed(format!("{}: {e}", path.display()))),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestMatch {
    pub opponent: String,
    pub rules: Option<String>,
}

/// Queues a test match of `who`'s against `opponent`'s active version: its id.
pub async fn queue_test(
    app: &App,
    who: &crate::store::Entrant,
    ask: &TestMatch,
) -> Result<i64, DomainError> {
    let store = &app.0.store;
    let conflict = DomainError::Conflict;
    enabled(who)?;
    if ask.opponent == who.name {
        return Err(DomainError::Invalid(
            "a test match needs an opponent other than you".to_owned(),
        ));
    }
    let other = store
        .entrant_named(&ask.opponent)
        .await?
        .filter(|o| o.disabled.is_none())
        .ok_or_else(|| {
            DomainError::NotFound(format!("no entrant `{}` on the ladder", ask.opponent))
        })?;
    let mine = store
        .active_of(who.id)
        .await?
        .ok_or_else(|| conflict("you have no admitted version yet".to_owned()))?;
    let theirs = store
        .active_of(other.id)
        .await?
        .ok_or_else(|| conflict(format!("{} has no admitted version yet", other.name)))?;
    let variants = &app.0.config.variants;
    let rules = match &ask.rules {
        None => variants[0],
        Some(spec) => spec
            .parse()
            .ok()
            .filter(|r| variants.contains(r))
            .ok_or_else(|| {
                let all: Vec<String> = variants.iter().map(ToString::to_string).collect();
                DomainError::Invalid(format!(
                    "variant `{spec}` is not one of the event's: {}",
                    all.join(", ")
                ))
            })?,
    };
    if let Some(id) = store.pending_test(who.id).await? {
        return Err(conflict(format!(
            "your test match {id} is not played yet: one at a time"
        )));
    }
    let id = store
        .queue_match(mine, theirs, Kind::Test, &rules.to_string(), Some(who.id))
        .await?;
    app.0.signals.bump();
    Ok(id)
}
