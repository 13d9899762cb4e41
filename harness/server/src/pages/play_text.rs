//! The play page's text mode, for screen readers (`/play/ID?view=text`, kept in a cookie): a
//! view of its own rather than labels on the board, as lichess's blind mode is. The board is
//! read row by row, every piece in words; the move is typed in the notation into the one field
//! the page opens on, and answered in words: the last move, what to do now, every move so far.
//! Nothing depends on seeing the board or its colours.

use maud::{html, Markup};
use quads_i18n::{Arg, Catalog};

use super::play_words::{about, after_links, foot, named, puzzle_result, refusal, status, who};
use super::reader::{self, View};
use super::Seen;
use crate::domain::play::{Play, Refusal, Turn};

/// A move in words.
fn turn(c: &Catalog, game: &Play, t: &Turn) -> String {
    let (w, player) = who(c, game, t.seat);
    let mut args: Vec<(&str, Arg)> = vec![("who", w.into()), ("player", player.into())];
    let named = |p: &Option<String>| named(c, p.as_deref().unwrap_or(""));
    let key = match (&t.square, &t.gave) {
        (None, Some(_)) => "web-turn-give",
        (None, None) => "web-turn-claim",
        (Some(_), Some(_)) => "web-turn-place",
        (Some(_), None) if t.quarto => "web-turn-quarto",
        (Some(_), None) => "web-turn-end",
    };
    if let Some(sq) = &t.square {
        args.push(("placed", named(&t.placed).into()));
        args.push(("square", sq.as_str().into()));
    }
    if t.gave.is_some() {
        args.push(("piece", named(&t.gave).into()));
    }
    c.with(key, &args)
}

/// Row `row` (1 to 4) in words: each square and what is on it.
fn row(c: &Catalog, game: &Play, row: usize) -> String {
    let squares: Vec<String> = (0..4)
        .map(|col| {
            let i = (row - 1) * 4 + col;
            let name = format!("{}{row}", (b'A' + col as u8) as char);
            match &game.board[i] {
                Some(p) => format!("{name} {}", named(c, p)),
                None => format!("{name} {}", c.text("web-empty")),
            }
        })
        .collect();
    c.with(
        "web-row",
        &[("row", row.into()), ("squares", squares.join(", ").into())],
    )
}

/// The text mode's body.
pub(super) fn body(c: &Catalog, seen: &Seen, game: &Play, refused: Option<&Refusal>) -> Markup {
    let pieces: Vec<String> = game.remaining.iter().map(|p| named(c, p)).collect();
    html! {
        (about(c, game))
        @if let Some(why) = refused { p class="error" id="refused" role="alert" { (refusal(c, why)) } }
        @if let Some(t) = game.turns.last() {
            p id="last" { (c.with("web-last", &[("turn", turn(c, game, t).into())])) }
        }
        p id="status" role="status" { (status(c, game)) }
        (super::play_words::clocks(c, game))
        (super::play_words::waiting(c, game))
        @if game.claimable && game.yours { p id="claimable" { (c.text("web-claimable")) } }
        (puzzle_result(c, game))
        (after_links(c, game))
        h3 { (c.text("web-rows")) }
        ul id="rows" { @for r in (1..=4).rev() { li { (row(c, game, r)) } } }
        @if game.yours {
            @if let Some(p) = &game.in_hand { p id="hand" { (c.with("web-in-hand", &[("piece", named(c, p).into())])) } }
            @if !pieces.is_empty() { p id="left" { (c.with("web-left", &[("pieces", pieces.join("; ").into())])) } }
            form id="move" method="post" action={ "/play/" (game.id) } {
                (seen.field())
                input type="hidden" name="after" value=(game.moves.len());
                label for="typed" { (c.text("web-your-move")) }
                " "
                input type="text" id="typed" name="typed" autocomplete="off" autofocus;
                " "
                button type="submit" id="play" { (c.text("web-play-button")) }
            }
        }
        h3 { (c.text("panel-moves")) }
        @if game.turns.is_empty() { p class="note" { (c.text("web-no-moves")) } } @else {
            ol id="turns" { @for t in &game.turns { li { (turn(c, game, t)) } } }
        }
        (foot(c, game))
        (reader::view_switch(c, View::Text))
        (reader::switch(c))
    }
}
