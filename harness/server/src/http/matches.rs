//! Matches: the latest, one match with its games and the command that replays it, its
//! records, a bot's logs (to its owner and the host only), a test match asked for now, and
//! the downloads of games (an entrant's own, the host's all).

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use quads_record::{GameRecord, Player};
use serde::Deserialize;
use serde_json::json;

use super::{body, caller, entrant, host_reader, query, reader, App, Body, Query, UrlPath, Waiter};
use crate::ladder::worker::{folder, replay_command};
use crate::session::Visitor;
use crate::store::{Kind, MatchRow};
use crate::ApiError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct List {
    entrant: Option<String>,
    limit: Option<i64>,
}

/// The most matches one list gives.
const MAX_LIST: i64 = 500;

pub(super) async fn list(State(app): State<App>, q: Query<List>) -> Result<Response, ApiError> {
    let q = query(q)?;
    let limit = q.limit.unwrap_or(50).clamp(1, MAX_LIST);
    let rows = app.0.store.match_rows(q.entrant.as_deref(), limit).await?;
    Ok(Json(json!({ "matches": rows })).into_response())
}

fn no_match() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such match")
}

/// A match's records.
pub(crate) async fn records(app: &App, id: i64) -> Result<Vec<GameRecord>, ApiError> {
    app.0
        .store
        .match_games(id)
        .await?
        .iter()
        .map(|t| serde_json::from_str(t).map_err(ApiError::internal))
        .collect()
}

/// A match as the API shows it: its row, its games in short, the command that replays it.
pub(crate) async fn described(app: &App, row: &MatchRow) -> Result<serde_json::Value, ApiError> {
    let games: Vec<serde_json::Value> = records(app, row.id)
        .await?
        .iter()
        .map(|r| {
            let failures: Vec<serde_json::Value> = r
                .failures
                .iter()
                .map(|f| json!({ "seat": f.seat.to_string(), "reason": f.reason.to_string(), "detail": f.detail }))
                .collect();
            json!({
                "game": r.game, "first": r.first.name, "second": r.second.name,
                "result": r.result.to_string(), "reason": r.reason.to_string(),
                "moves": r.moves.len(), "seed": r.seed, "failures": failures,
            })
        })
        .collect();
    let replay = replay_command(&app.0.config, &row.first, &row.second, &row.rules, row.seed);
    Ok(json!({ "match": row, "games": games, "replay": replay }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Wait {
    /// Seconds to wait for the match to be over (or, with `from`, to leave that state).
    wait: Option<u64>,
    from: Option<String>,
}

pub(super) async fn show(
    State(app): State<App>,
    UrlPath(id): UrlPath<i64>,
    q: Query<Wait>,
) -> Result<Response, ApiError> {
    let q = query(q)?;
    let mut waiter = Waiter::new(&app, q.wait);
    loop {
        // A match not queued yet is waited for too.
        let Some(row) = app.0.store.match_row(id).await? else {
            if waiter.again().await {
                continue;
            }
            return Err(no_match());
        };
        let pending = match &q.from {
            Some(from) => row.state == *from,
            None => matches!(row.state.as_str(), "queued" | "running"),
        };
        if !pending || !waiter.again().await {
            return Ok(Json(described(&app, &row).await?).into_response());
        }
    }
}

/// Records as games.jsonl holds them.
pub(crate) fn jsonl(lines: &[String], name: &str) -> Response {
    let mut text = lines.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    (
        [
            (header::CONTENT_TYPE, "application/x-ndjson".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        text,
    )
        .into_response()
}

pub(super) async fn games(
    State(app): State<App>,
    UrlPath(id): UrlPath<i64>,
) -> Result<Response, ApiError> {
    app.0.store.match_row(id).await?.ok_or_else(no_match)?;
    let lines = app.0.store.match_games(id).await?;
    Ok(jsonl(&lines, &format!("match-{id}-games.jsonl")))
}

pub(super) async fn my_games(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let who = reader(&app, &headers).await?;
    let lines = app.0.store.games_of(Some(who.id)).await?;
    Ok(jsonl(&lines, &format!("{}-games.jsonl", who.name)))
}

pub(super) async fn all_games(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    host_reader(&app, &headers).await?;
    let lines = app.0.store.games_of(None).await?;
    Ok(jsonl(&lines, &format!("{}-games.jsonl", app.0.config.name)))
}

/// The log `file` of match `id`, if `owner` (an entrant's name; `None`: the host) may read it.
pub(crate) async fn log_text(
    app: &App,
    id: i64,
    file: &str,
    owner: Option<&str>,
) -> Result<String, ApiError> {
    let refused = || {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "a bot's logs are for its owner and the host only",
        )
    };
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
        return Err(ApiError::new(StatusCode::NOT_FOUND, "no such log"));
    }
    let path = folder(&app.0.config, id).join("logs").join(file);
    match tokio::fs::read(&path).await {
        Ok(b) => Ok(String::from_utf8_lossy(&b).into_owned()),
        // Named by a record, never handed in (a worker may hand in its games without logs):
        // nothing to show, and nothing wrong with the server.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "this log was not handed in with the match's games",
        )),
        Err(e) => Err(ApiError::internal(format!("{}: {e}", path.display()))),
    }
}

pub(super) async fn log(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath((id, file)): UrlPath<(i64, String)>,
) -> Result<Response, ApiError> {
    let owner = match caller(&app, &headers).await? {
        Visitor::Host => None,
        Visitor::Entrant(e) => Some(e.name),
        Visitor::Anonymous => return Err(super::unauthorized()),
    };
    let text = log_text(&app, id, &file, owner.as_deref()).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TestMatch {
    pub opponent: String,
    pub rules: Option<String>,
}

/// Queues a test match of `who`'s against `opponent`'s active version: its id.
pub(crate) async fn queue_test(
    app: &App,
    who: &crate::store::Entrant,
    ask: &TestMatch,
) -> Result<i64, ApiError> {
    let store = &app.0.store;
    let conflict = |m: String| ApiError::new(StatusCode::CONFLICT, m);
    super::enabled(who)?;
    if ask.opponent == who.name {
        return Err(ApiError::bad(
            "a test match needs an opponent other than you",
        ));
    }
    let other = store
        .entrant_named(&ask.opponent)
        .await?
        .filter(|o| o.disabled.is_none())
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!("no entrant `{}` on the ladder", ask.opponent),
            )
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
                ApiError::bad(format!(
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
    app.0.signals.changed.send_modify(|n| *n += 1);
    Ok(id)
}

pub(super) async fn test_match(
    State(app): State<App>,
    headers: HeaderMap,
    b: Body<TestMatch>,
) -> Result<Response, ApiError> {
    let who = entrant(&app, &headers).await?;
    let ask = body(b)?;
    let id = queue_test(&app, &who, &ask).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "match": id, "state": "queued" })),
    )
        .into_response())
}
