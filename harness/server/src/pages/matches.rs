//! `/matches/{id}`: a match, the command that replays it locally, its games listed and
//! replayed as report.html does (the report's own section and scripts, with the solver's
//! marks when the server judges its matches), live while it is played (its moves as they come,
//! crate::pages::live); to the host, rerun and cancel.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use maud::{html, PreEscaped};
use quads_reports::html::{games_data, DATA_ID, GAMES_SECTION, REPLAY_DIALOG};

use super::assets::{LIVE_SCRIPT, REPLAY_SCRIPTS};
use super::{badge, live, PageError, Seen};
use crate::domain::matches::{no_match, replay, replayed};
use crate::domain::App;
use crate::session::Visitor;

pub(super) async fn show(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    let seen = Seen::of(&app, &headers).await?;
    let row = app.0.store.match_row(id).await?.ok_or_else(no_match)?;
    let replay = replay(&app, &row);
    let data = replayed(&app, id).await?.map(|r| {
        games_data(
            &r.report,
            &[format!("/api/matches/{id}/")],
            r.judged.as_ref(),
        )
    });
    let pending = matches!(row.state.as_str(), "queued" | "running");
    let frames = app.0.live.watch(id).map(|(now, _)| now).unwrap_or_default();
    let live = format!("/api/matches/{id}?wait=60&from={}", row.state);
    let body = html! {
        dl class="facts" id="match" data-live=[pending.then_some(&live)] data-live-key="match.state" data-live-now=(row.state) {
            dt { "state" } dd { (badge(&row.state)) @if !row.reason.is_empty() { " " (row.reason) } }
            dt { "kind" } dd { (row.kind) @if row.kind == "test" { " (not rated)" } }
            dt { "first" } dd { a href={ "/entrants/" (row.first) } { (row.first) } " version " (row.first_version) }
            dt { "second" } dd { a href={ "/entrants/" (row.second) } { (row.second) } " version " (row.second_version) }
            dt { "variant" } dd { (row.rules) }
            dt { "seed" } dd { (row.seed) }
        }
        h3 { "Replay it on your machine" }
        p class="note" { "With both bots' folders as an entrants folder, this plays the same games:" }
        code class="command" id="replay-command" { (replay) }
        p { a href={ "/api/matches/" (id) "/games.jsonl" } { "the games' records (games.jsonl)" } }
        @if seen.visitor == Visitor::Host {
            form class="row" method="post" action="/admin/rerun" {
                (seen.field()) input type="hidden" name="match" value=(id);
                button type="submit" { "rerun" }
            }
            form class="row" method="post" action="/admin/cancel" {
                (seen.field()) input type="hidden" name="match" value=(id);
                button type="submit" { "cancel" }
            }
        }
        @if pending {
            h3 { "Live" }
            (live::section(&frames, &format!("/matches/{id}/live"), false))
        }
        @if let Some(data) = &data {
            (PreEscaped(GAMES_SECTION))
            (PreEscaped(REPLAY_DIALOG))
            script type="application/json" id=(DATA_ID) { (PreEscaped(data)) }
        } @else {
            p class="note" { "No games yet." }
        }
    };
    // The replay's scripts when there are games; the live one while the match is not over.
    let mut scripts: Vec<&str> = Vec::new();
    if data.is_some() {
        scripts.extend(REPLAY_SCRIPTS);
    }
    if pending {
        for s in live::LIVE_SCRIPTS {
            if !scripts.contains(&s) {
                scripts.push(s);
            }
        }
    }
    if pending || data.is_none() {
        scripts.push(LIVE_SCRIPT);
    }
    Ok(super::page(
        &app,
        &seen,
        &format!("Match {id}"),
        body,
        &scripts,
    ))
}
