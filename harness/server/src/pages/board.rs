//! `/`: the leaderboard (live: it reloads when a game is played) and the latest matches.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use maud::{html, Markup};

use super::assets::LIVE_SCRIPT;
use super::{badge, page, PageError, Seen};
use crate::domain::App;
use crate::store::MatchRow;

/// A rating's interval as the leaderboard shows it: an unbounded end is ∞.
fn end(v: Option<f64>, sign: &str) -> String {
    v.map_or_else(|| format!("{sign}∞"), |x| format!("{x:.0}"))
}

pub(super) async fn home(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    let seen = Seen::of(&app, &headers).await?;
    let board = crate::domain::board(&app).await?;
    let board = &board.standings;
    let (games, rated, rows) = (board.games, board.rated, &board.rows);
    let matches = app.0.store.match_rows(None, 20).await?;
    let live = format!("/api/leaderboard?games={}&wait=60", games + 1);
    let body = html! {
        p class="note" {
            (games) " ladder games; " (board.active) " bots on the ladder. "
            "Bots are ranked by their rating, the Bradley–Terry fit of all ladder games, with 95% intervals"
            @if rated != games { ", refitted as games come (these are fitted on " (rated) ")" }
            "; the page follows new games."
        }
        table id="leaderboard" tabindex="0" data-live=(live) data-live-key="games" data-live-now=(games) {
            thead { tr { th { "#" } th class="bot" { "bot" } th { "rating" } th { "95% interval" } th { "games" } th { "won" } th { "drawn" } th { "lost" } th { "score %" } } }
            tbody {
                @for r in rows {
                    @let name = &r.name;
                    tr {
                        td { @if let Some(rank) = r.rank { (rank) } @else { "–" } }
                        td class="bot" { a href={ "/entrants/" (name) } { (name) } }
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
        h2 { "Latest matches" }
        (match_table(&matches))
    };
    Ok(page(&app, &seen, "Leaderboard", body, &[LIVE_SCRIPT]))
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
