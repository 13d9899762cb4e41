//! After a game on the play page: the solver's review (`/play/ID/review`), each move with the
//! solver's word on it, where the game was decided, and at each of the person's mistakes the
//! move that kept the value and a button to try again from the position before it; the game
//! as a games.jsonl record (`/play/ID/games.jsonl`).

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use maud::{html, Markup};
use quads_analysis::{Decided, Value};
use quads_i18n::Catalog;
use serde::Deserialize;

use super::play_words::who;
use super::reader::{self, Asked};
use super::{form, page_in, see_other, Form, PageError, Seen};
use crate::domain::play::{self, Play};
use crate::domain::review::{self, Review};
use crate::domain::App;
use crate::session::check_csrf;

/// A value in words: won, drawn, lost.
fn value(c: &Catalog, v: Value) -> String {
    c.text(match v {
        Value::Win => "value-win",
        Value::Draw => "value-draw",
        Value::Loss => "value-loss",
    })
}

/// Where the game was decided, in a sentence.
fn decided(c: &Catalog, game: &Play, r: &Review) -> String {
    let empty = r.empty;
    match r.decided {
        Decided::Unjudged => c.with("end-decided-unjudged", &[("empty", empty.into())]),
        Decided::BeforeJudged => c.with("end-decided-before", &[("empty", empty.into())]),
        Decided::Forfeit => c.text("end-decided-forfeit"),
        Decided::Blunder { index, number, .. } => {
            let m = &r.moves[index];
            c.with(
                "end-decided",
                &[
                    ("number", number.into()),
                    ("move", m.mv.as_str().into()),
                    ("player", who(c, game, m.seat).1.into()),
                    (
                        "before",
                        m.before.map(|v| value(c, v)).unwrap_or_default().into(),
                    ),
                    (
                        "after",
                        m.after.map(|v| value(c, v)).unwrap_or_default().into(),
                    ),
                ],
            )
        }
    }
}

fn body(c: &Catalog, seen: &Seen, game: &Play, r: &Review) -> Markup {
    html! {
        p id="decided" { (decided(c, game, r)) }
        // Focusable: on a narrow screen it scrolls sideways, by keyboard too.
        table id="review" tabindex="0" aria-label=(c.text("web-review")) {
            thead { tr { th { "#" } th class="left" { (c.text("web-col-who")) } th class="left" { (c.text("web-col-move")) } th class="left" { (c.text("web-col-word")) } } }
            tbody {
                @for m in &r.moves {
                    @let class = match (m.blunder, m.before) { (Some(_), _) => "mistake", (None, Some(_)) => "kept", _ => "unjudged" };
                    tr class=(class) {
                        td { (m.index + 1) }
                        td class="left" { (who(c, game, m.seat).1) }
                        td class="left" { (m.mv) }
                        td class="left" {
                            @match (m.before, m.after, m.blunder) {
                                (Some(b), Some(a), Some(_)) => {
                                    strong { (c.with("web-mistake", &[("before", value(c, b).into()), ("after", value(c, a).into())])) }
                                    @if m.missed_win { "; " (c.text("web-missed-win")) }
                                    @if let Some(better) = &m.better { ". " (c.with("web-better", &[("move", better.as_str().into())])) }
                                    @if m.yours {
                                        form class="again" method="post" action={ "/play/" (game.id) "/again" } {
                                            (seen.field())
                                            input type="hidden" name="index" value=(m.index);
                                            button type="submit" { (c.text("web-try-again")) }
                                        }
                                    }
                                }
                                (Some(b), _, None) => { (c.with("web-kept", &[("value", value(c, b).into())])) }
                                _ => { (c.with("web-unjudged", &[("empty", r.empty.into())])) }
                            }
                        }
                    }
                }
            }
        }
        p {
            a href={ "/play/" (game.id) "/games.jsonl" } download { (c.text("web-download")) }
            " · "
            a href={ "/play/" (game.id) } { (c.text("web-back")) }
        }
        (reader::switch(c))
    }
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
    let r = review::review(&app, &id).await?;
    let page = reader::with(chosen.lang, |c| {
        page_in(
            &app,
            &seen,
            c,
            &c.text("web-review"),
            body(c, &seen, &game, &r),
            &[],
        )
    });
    Ok(chosen.answer(page))
}

pub(super) async fn games_jsonl(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let text = review::games_jsonl(&app, &id).await?;
    let name = format!("attachment; filename=\"play-{id}.jsonl\"");
    Ok((
        [
            (header::CONTENT_TYPE, "application/jsonl".to_owned()),
            (header::CONTENT_DISPOSITION, name),
        ],
        text,
    )
        .into_response())
}

#[derive(Deserialize)]
pub(super) struct Again {
    index: usize,
    csrf: Option<String>,
}

pub(super) async fn again(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
    f: Form<Again>,
) -> Result<Response, PageError> {
    let f = form(f)?;
    check_csrf(&headers, f.csrf.as_deref())?;
    let game = review::again(&app, &id, f.index).await?;
    Ok(see_other(&format!("/play/{}", game.id)))
}
