//! `/`: the leaderboard (live: it reloads when a game is played), per entrant or per version,
//! or as it stood at a past moment, and the latest matches.

use std::time::UNIX_EPOCH;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use maud::{html, Markup};

use super::assets::LIVE_SCRIPT;
use super::{badge, live, page, PageError, Seen};
use crate::domain::App;
use crate::ladder::Standings;
use crate::store::MatchRow;
use crate::ApiError;
use serde::Deserialize;

/// A rating's interval as the leaderboard shows it: an unbounded end is ∞.
fn end(v: Option<f64>, sign: &str) -> String {
    v.map_or_else(|| format!("{sign}∞"), |x| format!("{x:.0}"))
}

/// What the home page shows: the standings now per entrant (the default) or per version, or
/// the standings at a past moment (`at`, UTC, as a `datetime-local` input gives it).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Shown {
    by: Option<String>,
    at: Option<String>,
}

/// `2026-12-07T12:00` or `2026-12-07T12:00:30` (UTC) in milliseconds since 1970.
fn moment(at: &str) -> Result<i64, PageError> {
    let full = if at.len() == 16 {
        format!("{at}:00")
    } else {
        at.to_owned()
    };
    let bad = || {
        PageError(ApiError::bad(format!(
            "`{at}` is not a moment such as 2026-12-07T12:00 (UTC)"
        )))
    };
    let t = humantime::parse_rfc3339_weak(&full).map_err(|_| bad())?;
    let ms = t.duration_since(UNIX_EPOCH).map_err(|_| bad())?.as_millis();
    i64::try_from(ms).map_err(|_| bad())
}

pub(super) async fn home(
    State(app): State<App>,
    headers: HeaderMap,
    shown: Result<Query<Shown>, QueryRejection>,
) -> Result<Response, PageError> {
    let shown = shown
        .map_err(|e| PageError(ApiError::bad(e.body_text())))?
        .0;
    let seen = Seen::of(&app, &headers).await?;
    let by_version = match shown.by.as_deref() {
        None | Some("entrant") => false,
        Some("version") => true,
        Some(other) => {
            return Err(PageError(ApiError::bad(format!(
                "`{other}` is not a way to show the board: entrant or version"
            ))))
        }
    };
    let past = match shown.at.as_deref().filter(|a| !a.is_empty()) {
        Some(at) => {
            let body = crate::domain::history::standings_at(&app, moment(at)?).await?;
            let standings: Standings = serde_json::from_str(&body).map_err(ApiError::internal)?;
            Some((at.to_owned(), standings))
        }
        None => None,
    };
    let now = match (&past, by_version) {
        (Some(_), _) => None,
        (None, true) => Some(crate::domain::board_by_version(&app).await?),
        (None, false) => Some(crate::domain::board(&app).await?.standings.clone()),
    };
    let board = past
        .as_ref()
        .map_or_else(|| now.as_ref().expect("one of them"), |p| &p.1);
    let (games, rated, rows) = (board.games, board.rated, &board.rows);
    let matches = app.0.store.match_rows(None, 20).await?;
    // The game shown playing now: the stream (`/live`) follows it, then the next.
    let playing = match crate::domain::watch::chosen(&app).await {
        Some(id) => app.0.live.watch(id).map(|(now, _)| now).unwrap_or_default(),
        None => Vec::new(),
    };
    let live = format!("/api/leaderboard?games={}&wait=60", games + 1);
    let body = html! {
        div class="views" {
            @if past.is_none() && !by_version { strong { "per entrant" } } @else { a href="/" { "per entrant" } }
            " · "
            @if past.is_none() && by_version { strong { "per version" } } @else { a href="/?by=version" { "per version" } }
            form method="get" action="/" {
                label { " · the standings at (UTC) " input type="datetime-local" name="at" value=[past.as_ref().map(|p| &p.0)]; }
                " " button type="submit" { "show" }
            }
        }
        @if let Some((at, _)) = &past {
            p class="note" id="past" {
                "The standings at " (at) " UTC, as last fitted then, on " (rated) " ladder games. "
                a href="/" { "The standings now" }
            }
        } @else {
            p class="note" {
                (games) " ladder games; " (board.active) " bots on the ladder. "
                @if by_version { "Each version is a player of its own, " }
                "ranked by rating, the Bradley–Terry fit of all ladder games, with 95% intervals"
                @if rated != games { ", refitted as games come (these are fitted on " (rated) ")" }
                "; the page follows new games."
            }
        }
        table id="leaderboard" tabindex="0" data-live=[past.is_none().then_some(&live)] data-live-key="games" data-live-now=(games) {
            thead { tr { th { "#" } th class="bot" { "bot" } th { "rating" } th { "95% interval" } th { "games" } th { "won" } th { "drawn" } th { "lost" } th { "score %" } } }
            tbody {
                @for r in rows {
                    @let name = &r.name;
                    tr {
                        td { @if let Some(rank) = r.rank { (rank) } @else { "–" } }
                        @let entrant = if by_version { name.rsplit_once(" v").map_or(name.as_str(), |(e, _)| e) } else { name.as_str() };
                        td class="bot" { a href={ "/entrants/" (entrant) } { (name) } }
                        @if r.elo.is_none() {
                            td { "not yet" } td {}
                        } @else {
                            td { (end(r.elo, "")) }
                            td { (end(r.elo_low, "-")) " … " (end(r.elo_high, "+")) }
                        }
                        td { (r.games) } td { (r.wins) } td { (r.draws) } td { (r.losses) }
                        td { (format!("{:.1}", r.score)) }
                    }
                }
            }
        }
        @if rows.is_empty() { p class="note" { "No games yet: the ladder starts once two bots are admitted." } }
        @if past.is_none() {
            h2 { "Playing now" }
            (live::section(&playing, "/live", true))
        }
        h2 { "Latest matches" }
        (match_table(&matches))
    };
    let mut scripts = vec![LIVE_SCRIPT];
    if past.is_none() {
        scripts.extend(live::LIVE_SCRIPTS);
    }
    Ok(page(&app, &seen, "Leaderboard", body, &scripts))
}

/// Matches as a table, each linking to its page.
pub(super) fn match_table(matches: &[MatchRow]) -> Markup {
    html! {
        @if matches.is_empty() {
            p class="note" { "No matches yet." }
        } @else {
            table class="matches" tabindex="0" {
                thead { tr { th { "match" } th class="bot" { "first" } th class="bot" { "second" } th { "variant" } th { "kind" } th { "state" } } }
                tbody {
                    @for m in matches {
                        tr {
                            td { a href={ "/matches/" (m.id) } { (m.id) } }
                            td class="bot" { (m.first) " v" (m.first_version) }
                            td class="bot" { (m.second) " v" (m.second_version) }
                            td { (m.rules) } td { (m.kind) } td { (badge(&m.state)) }
                        }
                    }
                }
            }
        }
    }
}
