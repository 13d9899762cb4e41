//! `/play`: the games of crate::domain::play in a browser, as plain forms that work without a
//! script, by touch, mouse or keyboard, from a phone held upright to a desktop. Choosing a
//! square and then the piece to give, and pressing "play", is the move (the button is the
//! confirmation); or the move typed in the project's notation. Every game at its own address,
//! `/play/ID`, which a reload or a link brings back.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::{html, Markup};
use serde::Deserialize;

use super::{form, page, see_other, Form, PageError, Seen};
use crate::domain::play::{self, NewPlay, Play};
use crate::domain::{App, DomainError};
use crate::session::check_csrf;

/// A piece's traits in words, from its four letters (`BDRF`: big dark round solid).
fn words(code: &str) -> String {
    let b = code.as_bytes();
    let pick = |i: usize, a: u8, yes: &'static str, no: &'static str| {
        if b.get(i) == Some(&a) {
            yes
        } else {
            no
        }
    };
    format!(
        "{} {} {} {}",
        pick(0, b'B', "big", "small"),
        pick(1, b'D', "dark", "light"),
        pick(2, b'R', "round", "square"),
        pick(3, b'H', "hollow", "solid"),
    )
}

/// A piece drawn: big or small, dark or light, round or square, hollow (a hole) or solid.
fn piece(code: &str) -> Markup {
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
        svg class="piece" viewBox="0 0 48 48" role="img" aria-label=(words(code)) {
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
) -> Result<Response, PageError> {
    let seen = Seen::of(&app, &headers).await?;
    let body = html! {
        p { "Play a game of Quads or classic Quarto: against one of five levels, with a friend on this device, or today's puzzle." }
        form class="box" id="new-game" method="post" action="/play" {
            (seen.field())
            label { "Game "
                select name="mode" {
                    @for n in 1..=5 {
                        option value={ "level-" (n) } selected[n == 2] { "against level " (n) @if n == 1 { " (random)" } @if n == 5 { " (perfect)" } }
                    }
                    option value="two" { "two players on this device" }
                    option value="puzzle" { "the puzzle of the day" }
                }
            }
            label { "Rules "
                select name="rules" {
                    option value="quads" { "Quads (rows, columns, diagonals and 2×2 squares)" }
                    option value="classic" { "classic Quarto" }
                    option value="classic,claim=announce" { "classic Quarto, wins called \"Quarto!\"" }
                }
            }
            label { input type="checkbox" name="second" value="1"; " let the level begin" }
            button type="submit" { "start" }
        }
    };
    Ok(page(&app, &seen, "Play", body, &[]))
}

#[derive(Deserialize)]
pub(super) struct Start {
    mode: String,
    rules: Option<String>,
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
    let level = f.mode.starts_with("level-");
    let new = NewPlay {
        // The puzzle sets its own rules and seat; two people both play.
        rules: f.rules.filter(|_| f.mode != "puzzle"),
        first: level.then_some(f.second.is_none()),
        mode: f.mode,
    };
    let game = play::start(&app, &new).await?;
    Ok(see_other(&format!("/play/{}", game.id)))
}

pub(super) async fn show(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let seen = Seen::of(&app, &headers).await?;
    let game = play::get(&app, &id).await?;
    Ok(game_page(&app, &seen, &game, None))
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
        // Refused: the same page, saying why, the game as it is.
        Err(
            why @ (DomainError::Invalid(_)
            | DomainError::Unacceptable(_)
            | DomainError::Conflict(_)),
        ) => {
            let seen = Seen::of(&app, &headers).await?;
            let game = play::get(&app, &id).await?;
            let mut page = game_page(&app, &seen, &game, Some(&why.to_string()));
            *page.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
            Ok(page)
        }
        Err(e) => Err(e.into()),
    }
}

/// What the game says now, in words.
fn status(game: &Play) -> String {
    if let Some(result) = game.result {
        let mine = |seat: &str| game.person == seat || game.person == "both";
        let won = match result {
            "1-0" => Some("first"),
            "0-1" => Some("second"),
            _ => None,
        };
        return match (won, game.person.as_str()) {
            (None, _) => "A draw: the board is full.".to_owned(),
            (Some(w), "both") => format!("The {w} player wins."),
            (Some(w), _) if mine(w) => "You win.".to_owned(),
            (Some(_), _) => "You lose.".to_owned(),
        };
    }
    let who = match (game.person.as_str(), game.to_move) {
        ("both", Some(seat)) => format!("The {seat} player"),
        _ => "You".to_owned(),
    };
    match &game.in_hand {
        Some(p) => format!("{who}: place {} ({}), then give a piece.", p, words(p)),
        None => format!("{who}: give the first piece."),
    }
}

fn game_page(app: &App, seen: &Seen, game: &Play, refused: Option<&str>) -> Response {
    let after = game.moves.len();
    let yours = game.yours;
    let winning = |sq: &str| game.winning.iter().any(|w| w == sq);
    let last_square = game
        .last
        .as_deref()
        .and_then(|m| m.split(' ').next())
        .filter(|s| s.len() == 2);
    let title = match &game.puzzle {
        Some(p) => format!("The puzzle of {}", p.date),
        None if game.mode == "two" => "Two players".to_owned(),
        None => format!("Against {}", game.mode.replace('-', " ")),
    };
    let body = html! {
        p class="note" { "Rules: " (game.rules) ". This game's address: " a href={ "/play/" (game.id) } { "/play/" (game.id) } " (come back to it, or share it)." }
        @if let Some(why) = refused { p class="error" id="refused" role="alert" { (why) } }
        p id="status" role="status" { (status(game)) }
        @if let Some(p) = &game.puzzle { @if let Some(solved) = p.solved {
            p id="puzzle-result" { @if solved { "Solved." } @else { "Not solved: the win was there. Try again tomorrow, or start it again." } }
        } }
        form id="move" method="post" action={ "/play/" (game.id) } {
            (seen.field())
            input type="hidden" name="after" value=(after);
            fieldset class="board" {
                legend { "The board" @if let Some(p) = &game.in_hand { @if yours { ": choose where " (words(p)) " goes" } } }
                div class="grid" {
                    // Row 4 at the top, as the board is drawn.
                    @for row in (0..4).rev() { @for col in 0..4 {
                        @let i = row * 4 + col;
                        @let name = square_name(i);
                        @let class = format!("sq{}{}", if winning(&name) { " won" } else { "" }, if last_square == Some(name.as_str()) { " last" } else { "" });
                        @match &game.board[i] {
                            Some(p) => div class=(class) { span class="name" { (name) } (piece(p)) span class="sr" { (words(p)) } },
                            None => {
                                @if yours && game.in_hand.is_some() {
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
                    legend { "The piece to give" }
                    @for p in &game.remaining {
                        label class="give" title=(words(p)) { input type="radio" name="give" value=(p); (piece(p)) span class="sr" { (words(p)) } }
                    }
                }
            }
            @if yours {
                label class="typed" { "or type the move " input type="text" name="typed" autocomplete="off" placeholder="A2 BDRF"; }
                div class="row" {
                    button type="submit" id="play" { "play" }
                    @if game.claimable { button type="submit" name="claim" value="quarto" id="claim" { "Quarto!" } }
                }
            }
        }
        h3 { "Moves" }
        @if game.moves.is_empty() { p class="note" { "None yet." } } @else {
            ol id="moves" { @for m in &game.moves { li { (m) } } }
        }
        p { a href="/play" { "a new game" } }
    };
    page(app, seen, &title, body, &[])
}
