//! Matches over the API (what they are: crate::domain::matches): the latest, one match with its games and the command that replays it, its
//! records, a bot's logs (to its owner and the host only), a test match asked for now, and
//! the downloads of games (an entrant's own, the host's all).

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::{body, caller, entrant, host_reader, query, reader, App, Body, Query, UrlPath, Waiter};
use crate::domain::matches::{described, log_text, no_match, queue_test, TestMatch};
use crate::session::Visitor;
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
            return Err(no_match().into());
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
