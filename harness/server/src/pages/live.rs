//! A match as it is played, on its page and on the home page: who plays, the moves so far in
//! words a reader can follow without script, and the board, which watch.js draws (with the
//! report's pieces) and keeps up to date from the match's server-sent events
//! (crate::http::live). The match page follows its match; the home page follows `/live`, one
//! match played now and then the next.

use maud::{html, Markup};

use super::assets::{REPLAY_SCRIPTS, WATCH_SCRIPT};
use crate::ladder::live::Frame;

/// The scripts a live section needs, in order: the report's pieces and board, then watch.js.
pub(super) const LIVE_SCRIPTS: [&str; 3] = [REPLAY_SCRIPTS[0], REPLAY_SCRIPTS[1], WATCH_SCRIPT];

/// The section of a match followed from `stream`, as it stands in `frames` (none: nothing is
/// being played there yet). `linked`: its heading links to the match's page.
pub(super) fn section(frames: &[Frame], stream: &str, linked: bool) -> Markup {
    let game = frames.iter().find_map(|f| match f {
        Frame::Game {
            id,
            game,
            first,
            second,
            rules,
        } => Some((*id, *game, first, second, rules)),
        _ => None,
    });
    let board = frames.iter().rev().find_map(|f| match f {
        Frame::Move { board, hand, .. } => Some((board.clone(), hand.clone())),
        _ => None,
    });
    html! {
        section id="live" data-stream=(stream) {
            p id="live-game" {
                @if let Some((id, number, first, second, rules)) = game {
                    @if linked { a href={ "/matches/" (id) } { "Match " (id) } ", " }
                    "game " (number) " (" (rules) "): " strong { (first) } " moves first against " strong { (second) }
                } @else {
                    "No game is being played here now."
                }
            }
            div class="live-board" id="live-board" role="img" aria-label="the board"
                data-board=[board.as_ref().map(|b| cells(&b.0))]
                data-hand=[board.as_ref().and_then(|b| b.1.clone())] {}
            ol id="live-moves" aria-live="polite" {
                @for f in frames {
                    @if let Frame::Move { ply, mv, by, .. } = f {
                        li data-ply=(ply) { (by) ": " code { (mv) } }
                    }
                }
            }
            ul id="live-results" {
                @for f in frames {
                    @if let Frame::Result { game, result, reason, .. } = f {
                        li data-game=(game) { "game " (game) ": " (result) " (" (reason) ")" }
                    }
                }
            }
        }
    }
}

/// The sixteen squares as the board's data attribute: piece letters or `-`, by spaces.
fn cells(board: &[Option<String>]) -> String {
    board
        .iter()
        .map(|c| c.as_deref().unwrap_or("-"))
        .collect::<Vec<_>>()
        .join(" ")
}
