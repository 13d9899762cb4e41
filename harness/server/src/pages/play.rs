//! `/play`: the games of crate::domain::play in a browser, as plain forms that work without a
//! script, by touch, mouse or keyboard, from a phone held upright to a desktop. Choosing a
//! square and then the piece to give, and pressing "play", is the move (the button is the
//! confirmation); or the move typed in the project's notation. Every game at its own address,
//! `/play/ID`, which a reload or a link brings back.

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::{html, Markup};
use quads_i18n::Catalog;
use serde::Deserialize;

use super::assets::{CLOCK_SCRIPT, LIVE_SCRIPT};
use super::play_words::{
    about, after_links, clocks, foot, puzzle_result, refusal, status, title, waiting, words,
};
use super::reader::{self, Asked, Chosen, View};
use super::{form, page_in, see_other, Form, PageError, Seen};
use crate::domain::play::{self, NewPlay, Play, Refusal};
use crate::domain::{App, DomainError};
use crate::session::check_csrf;

/// A piece drawn: big or small, dark or light, round or square, hollow (a hole) or solid.
fn piece(c: &Catalog, code: &str) -> Markup {
    let b = code.as_bytes();
    let r = if b.first() == Some(&b'B') { 18.0 } else { 11.0 };
    let (fill, ink) = if b.get(1) == Some(&b'D') {
        ("#5a3a22", "#2b1a0e")
    } else {
        ("#e8c99a", "#8a6a40")
    };
    let round = b.get(2) == Some(&b'R');
    let hollow = b.get(3) == Some(&b'H');
    html! {
        svg class="piece" viewBox="0 0 48 48" role="img" aria-label=(words(c, code)) {
            @if round {
                circle cx="24" cy="24" r=(r) fill=(fill) stroke=(ink) stroke-width="2" {}
            } @else {
                rect x=(24.0 - r) y=(24.0 - r) width=(2.0 * r) height=(2.0 * r) fill=(fill) stroke=(ink) stroke-width="2" {}
            }
            @if hollow {
                circle cx="24" cy="24" r=(r / 2.5) fill="#fff" stroke=(ink) stroke-width="1.5" {}
            }
        }
    }
}

/// The square names A1 … D4 in the order of the game's board.
fn square_name(i: usize) -> String {
    format!("{}{}", (b'A' + (i % 4) as u8) as char, i / 4 + 1)
}

pub(super) async fn choose(
    State(app): State<App>,
    headers: HeaderMap,
    Query(asked): Query<Asked>,
) -> Result<Response, PageError> {
    let seen = Seen::of(&app, &headers).await?;
    let chosen = reader::chosen(&headers, &asked, app.0.config.secure_cookies)?;
    let bots = play::bots(&app).await?;
    let page = reader::with(chosen.lang, |c| {
        let body = html! {
            p { (c.text("web-intro")) }
            form class="box" id="new-game" method="post" action="/play" {
                (seen.field())
                label { (c.text("web-game")) " "
                    select name="mode" {
                        @for n in 1..=5usize {
                            option value={ "level-" (n) } selected[n == 2] {
                                (c.with("web-against-level", &[("level", n.into())]))
                                @if n == 1 { " " (c.text("web-random")) }
                                @if n == 5 { " " (c.text("web-perfect")) }
                            }
                        }
                        option value="two" { (c.text("web-two")) }
                        option value="puzzle" { (c.text("web-puzzle")) }
                        @if !bots.is_empty() {
                            optgroup label=(c.text("web-bots")) {
                                @for (name, _) in &bots {
                                    option value={ (play::BOT) (name) } { (c.with("web-against-bot", &[("name", name.as_str().into())])) }
                                }
                            }
                        }
                    }
                }
                label { (c.text("web-rules")) " "
                    select name="rules" {
                        @for (spec, words) in super::play_rules::OFFERED {
                            option value=(spec) { (c.text(words)) }
                        }
                    }
                }
                label { (c.text("web-clock")) " "
                    select name="clock" {
                        option value="" { (c.text("web-no-clock")) }
                        @for spec in CLOCKS { option value=(spec) { (spec) } }
                    }
                }
                label { input type="checkbox" name="second" value="1"; " " (c.text("web-level-begins")) }
                button type="submit" { (c.text("web-start")) }
            }
            p { a href="/play/rules" { (c.text("web-rules-link")) } }
            (reader::switch(c))
        };
        page_in(&app, &seen, c, &c.text("web-play"), body, &[])
    });
    Ok(chosen.answer(page))
}

/// The clocks the new-game form offers (any other may be asked for over the API).
const CLOCKS: [&str; 4] = ["1m", "3m+2s", "5m+3s", "10m+5s"];

#[derive(Deserialize)]
pub(super) struct Start {
    mode: String,
    rules: Option<String>,
    clock: Option<String>,
    second: Option<String>,
    csrf: Option<String>,
}

pub(super) async fn start(
    State(app): State<App>,
    headers: HeaderMap,
    f: Form<Start>,
) -> Result<Response, PageError> {
    let f = form(f)?;
    check_csrf(&headers, f.csrf.as_deref())?;
    // Against a level or a bot, the person may let it begin.
    let level = f.mode.starts_with("level-") || f.mode.starts_with(play::BOT);
    let new = NewPlay {
        // The puzzle sets its own rules and seat; two people both play.
        rules: f.rules.filter(|_| f.mode != "puzzle"),
        first: level.then_some(f.second.is_none()),
        clock: filled(&f.clock)
            .filter(|_| f.mode != "puzzle")
            .map(str::to_owned),
        mode: f.mode,
    };
    let game = play::start(&app, &new).await?;
    Ok(see_other(&format!("/play/{}", game.id)))
}

pub(super) async fn show(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(asked): Query<Asked>,
) -> Result<Response, PageError> {
    let seen = Seen::of(&app, &headers).await?;
    let chosen = reader::chosen(&headers, &asked, app.0.config.secure_cookies)?;
    let game = play::get(&app, &id).await?;
    let page = game_page(&app, &seen, &chosen, &game, None);
    Ok(chosen.answer(page))
}

#[derive(Deserialize)]
pub(super) struct Move {
    square: Option<String>,
    give: Option<String>,
    typed: Option<String>,
    /// The "Quarto!" button: a claim, whatever else was chosen.
    claim: Option<String>,
    after: usize,
    csrf: Option<String>,
}

/// A form's field, if filled.
fn filled(o: &Option<String>) -> Option<&str> {
    o.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

pub(super) async fn play_move(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
    f: Form<Move>,
) -> Result<Response, PageError> {
    let f = form(f)?;
    check_csrf(&headers, f.csrf.as_deref())?;
    // A claim or a typed move goes as it is; else the square and the piece chosen.
    let played = match filled(&f.claim).or(filled(&f.typed)) {
        Some(typed) => play::play(&app, &id, typed, f.after).await,
        None => play::play_chosen(&app, &id, filled(&f.square), filled(&f.give), f.after).await,
    };
    match played {
        Ok(_) => Ok(see_other(&format!("/play/{id}"))),
        // Refused: the same page, saying why in the reader's words, the game as it is.
        Err(DomainError::Refused(why)) => {
            let seen = Seen::of(&app, &headers).await?;
            let chosen = reader::chosen(&headers, &Asked::default(), app.0.config.secure_cookies)?;
            let game = play::get(&app, &id).await?;
            let mut page = game_page(&app, &seen, &chosen, &game, Some(&why));
            *page.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
            Ok(page)
        }
        Err(e) => Err(e.into()),
    }
}

fn game_page(
    app: &App,
    seen: &Seen,
    chosen: &Chosen,
    game: &Play,
    refused: Option<&Refusal>,
) -> Response {
    reader::with(chosen.lang, |c| {
        let body = match chosen.view {
            View::Board => game_body(c, seen, game, refused),
            View::Text => super::play_text::body(c, seen, game, refused),
        };
        // While a bot's turn waits, the page looks again by itself once it is answered.
        let mut scripts: Vec<&str> = Vec::new();
        if game.waiting {
            scripts.push(LIVE_SCRIPT);
        }
        if game.clock.as_ref().is_some_and(|k| k.running.is_some()) {
            scripts.push(CLOCK_SCRIPT);
        }
        page_in(app, seen, c, &title(c, game), body, &scripts)
    })
}

fn game_body(c: &Catalog, seen: &Seen, game: &Play, refused: Option<&Refusal>) -> Markup {
    let after = game.moves.len();
    let yours = game.yours;
    let winning = |sq: &str| game.winning.iter().any(|w| w == sq);
    let last_square = game
        .last
        .as_deref()
        .and_then(|m| m.split(' ').next())
        .filter(|s| s.len() == 2);
    let placing = game.in_hand.as_deref().filter(|_| yours);
    html! {
        (about(c, game))
        @if let Some(why) = refused { p class="error" id="refused" role="alert" { (refusal(c, why)) } }
        p id="status" role="status" { (status(c, game)) }
        (clocks(c, game))
        (waiting(c, game))
        (puzzle_result(c, game))
        (after_links(c, game))
        form id="move" method="post" action={ "/play/" (game.id) } {
            (seen.field())
            input type="hidden" name="after" value=(after);
            fieldset class="board" {
                legend { @match placing {
                    Some(p) => (c.with("web-board-place", &[("piece", words(c, p).into())])),
                    None => (c.text("web-board")),
                } }
                div class="grid" {
                    // Row 4 at the top, as the board is drawn.
                    @for row in (0..4).rev() { @for col in 0..4 {
                        @let i = row * 4 + col;
                        @let name = square_name(i);
                        @let class = format!("sq{}{}", if winning(&name) { " won" } else { "" }, if last_square == Some(name.as_str()) { " last" } else { "" });
                        @match &game.board[i] {
                            Some(p) => div class=(class) { span class="name" { (name) } (piece(c, p)) span class="sr" { (words(c, p)) } },
                            None => {
                                @if placing.is_some() {
                                    label class=(class) { input type="radio" name="square" value=(name); span class="name" { (name) } }
                                } @else {
                                    div class=(class) { span class="name" { (name) } }
                                }
                            }
                        }
                    } }
                }
            }
            @if yours && !game.remaining.is_empty() {
                fieldset class="pieces" {
                    legend { (c.text("web-give")) }
                    @for p in &game.remaining {
                        label class="give" title=(words(c, p)) { input type="radio" name="give" value=(p); (piece(c, p)) span class="sr" { (words(c, p)) } }
                    }
                }
            }
            @if yours {
                label class="typed" { (c.text("web-typed")) " " input type="text" name="typed" autocomplete="off" placeholder="A2 BDRF"; }
                div class="row" {
                    button type="submit" id="play" { (c.text("web-play-button")) }
                    @if game.claimable { button type="submit" name="claim" value="quarto" id="claim" { (c.text("quarto-button")) } }
                }
            }
        }
        h3 { (c.text("panel-moves")) }
        @if game.moves.is_empty() { p class="note" { (c.text("web-no-moves")) } } @else {
            ol id="moves" { @for m in &game.moves { li { (m) } } }
        }
        (foot(c, game))
        (reader::view_switch(c, View::Board))
        (reader::switch(c))
    }
}
