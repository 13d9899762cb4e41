//! The play pages' words for a game (crate::domain::play's `Play`), shared by the board, the
//! text mode and the review: a piece in words, who played, what the game says now, a refusal,
//! the title, the rules and the address, the links once it is over.

use maud::{html, Markup};
use quads_i18n::{reason, variant_name, Arg, Catalog};
use quads_rules::Rules;

use crate::domain::play::{Play, Refusal};

/// A piece's traits in words, from its four letters (`BDRF`: big dark round solid).
pub(super) fn words(c: &Catalog, code: &str) -> String {
    let b = code.as_bytes();
    let pick =
        |i: usize, a: u8, yes: &str, no: &str| c.text(if b.get(i) == Some(&a) { yes } else { no });
    format!(
        "{} {} {} {}",
        pick(0, b'B', "value-big", "value-small"),
        pick(1, b'D', "value-dark", "value-light"),
        pick(2, b'R', "value-round", "value-square"),
        pick(3, b'H', "value-hollow", "value-solid"),
    )
}

/// A piece named: its letters, then its traits in words (`BDRF (big dark round solid)`).
pub(super) fn named(c: &Catalog, code: &str) -> String {
    format!("{code} ({})", words(c, code))
}

/// Why a move was not played, in `c`'s words.
pub(super) fn refusal(c: &Catalog, why: &Refusal) -> String {
    match why {
        Refusal::Unreadable { text, .. } => {
            c.with("msg-unreadable", &[("text", text.as_str().into())])
        }
        Refusal::Illegal(mv, r) => format!("{mv}: {}", reason(c, *r)),
        Refusal::NothingChosen => c.text("web-choose"),
        Refusal::Over => c.with(
            "msg-illegal",
            &[("reason", c.text("reason-game-over").into())],
        ),
        Refusal::NotYours => c.text("web-not-yours"),
        Refusal::MovedOn => c.text("web-moved-on"),
    }
}

/// A seat's name when two people play: player 1 gives first.
pub(super) fn seat_name(c: &Catalog, seat: &str) -> String {
    c.text(if seat == "first" {
        "player-one"
    } else {
        "player-two"
    })
}

/// What the game says now, in words.
pub(super) fn status(c: &Catalog, game: &Play) -> String {
    if let Some(seat) = game.clock.as_ref().and_then(|k| k.flagged) {
        let (w, player) = who(c, game, seat);
        return c.with(
            "web-flagged",
            &[("who", w.into()), ("player", player.into())],
        );
    }
    if let Some(name) = &game.bot {
        let name: Arg = name.as_str().into();
        if let Some(why) = &game.forfeit {
            return c.with(
                "web-bot-forfeit",
                &[("name", name), ("why", why.as_str().into())],
            );
        }
        if game.waiting {
            return c.with("web-bot-thinking", &[("name", name)]);
        }
    }
    if let Some(result) = game.result {
        let won = match result {
            "1-0" => "first",
            "0-1" => "second",
            _ => return c.text("end-draw"),
        };
        return match game.person.as_str() {
            "both" => c.with(
                "end-win",
                &[
                    ("who", "other".into()),
                    ("player", seat_name(c, won).into()),
                ],
            ),
            person if person == won => c.with(
                "end-win",
                &[
                    ("who", "you".into()),
                    ("player", c.text("player-you").into()),
                ],
            ),
            _ => c.text("web-lose"),
        };
    }
    let who: Arg = match (game.person.as_str(), game.to_move) {
        ("both", Some(seat)) => seat_name(c, seat).into(),
        _ => c.text("player-you").into(),
    };
    match &game.in_hand {
        Some(p) => c.with(
            "web-status-place",
            &[("player", who), ("piece", named(c, p).into())],
        ),
        None => c.with("status-opening", &[("player", who)]),
    }
}

/// The game's title: against which level, two players, or the puzzle of which day.
pub(super) fn title(c: &Catalog, game: &Play) -> String {
    if let Some(name) = &game.bot {
        return c.with("web-title-bot", &[("name", name.as_str().into())]);
    }
    match (&game.puzzle, game.mode.strip_prefix("level-")) {
        (Some(p), _) => c.with("web-title-puzzle", &[("date", p.date.as_str().into())]),
        (None, Some(n)) => c.with("web-title-level", &[("level", n.into())]),
        (None, None) => c.text("web-title-two"),
    }
}

/// The game's rules and its address, to come back to or share.
pub(super) fn about(c: &Catalog, game: &Play) -> Markup {
    let rules = game
        .rules
        .parse::<Rules>()
        .map(|r| variant_name(c, &r))
        .unwrap_or_else(|_| game.rules.clone());
    html! {
        p class="note" {
            (c.with("web-rules-now", &[("rules", rules.into())])) " "
            (c.text("web-address")) " " a href={ "/play/" (game.id) } { "/play/" (game.id) }
        }
    }
}

/// Once over: the solver's review and the record to download.
pub(super) fn after_links(c: &Catalog, game: &Play) -> Markup {
    html! {
        @if game.result.is_some() {
            p id="after" {
                a id="to-review" href={ "/play/" (game.id) "/review" } { (c.text("web-review-link")) }
                " · "
                a href={ "/play/" (game.id) "/games.jsonl" } download { (c.text("web-download")) }
            }
        }
    }
}

/// The puzzle's result, once over.
pub(super) fn puzzle_result(c: &Catalog, game: &Play) -> Markup {
    html! {
        @if let Some(p) = &game.puzzle { @if let Some(solved) = p.solved {
            p id="puzzle-result" { (c.text(if solved { "web-solved" } else { "web-not-solved" })) }
        } }
    }
}

/// Who sat in `seat`, for a message's `who` and `player`: the person (`you`), or the other
/// seat by its name (a level, the solver, or one of two players).
pub(super) fn who(c: &Catalog, game: &Play, seat: &str) -> (&'static str, String) {
    if game.person == "both" {
        return ("other", seat_name(c, seat));
    }
    if game.person == seat {
        return ("you", c.text("player-you"));
    }
    if let Some(name) = &game.bot {
        return ("other", name.clone());
    }
    match game.mode.strip_prefix("level-") {
        // `level`, not `other`: a level is a feminine noun in Slovenian, and its verbs agree.
        Some(n) => ("level", c.with("player-level", &[("level", n.into())])),
        None => ("other", c.text("player-solver")),
    }
}

/// The links at a game's foot: a new game, and the rules of this one's variant.
pub(super) fn foot(c: &Catalog, game: &Play) -> Markup {
    html! {
        p {
            a href="/play" { (c.text("web-new-game")) }
            " · "
            a href={ "/play/rules?rules=" (super::play_rules::query(&game.rules)) } { (c.text("web-rules-link")) }
        }
    }
}

/// Milliseconds as a clock shows them: `4:05` (seconds rounded up, as a clock counts down).
fn clock_time(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    format!("{}:{:02}", s / 60, s % 60)
}

/// Both clocks, each by its side's name; the running one marked for the clock script.
pub(super) fn clocks(c: &Catalog, game: &Play) -> Markup {
    html! {
        @if let Some(k) = &game.clock {
            p id="clocks" {
                @for (i, (seat, ms)) in [("first", k.first_ms), ("second", k.second_ms)].into_iter().enumerate() {
                    @if i > 0 { " · " }
                    @let running = k.running == Some(seat);
                    span class="clock" data-ms=(ms) data-running[running] {
                        (c.with("web-clock-of", &[("player", who(c, game, seat).1.into()), ("time", clock_time(ms).into())]))
                    }
                }
            }
        }
    }
}

/// While a bot's turn waits: a long poll the live script follows (the page reloads once the
/// bot has answered), and a link for a reader with no script.
pub(super) fn waiting(c: &Catalog, game: &Play) -> Markup {
    html! {
        @if game.waiting {
            p id="waiting" data-live={ "/api/play/" (game.id) "?wait=20" } data-live-key="game.waiting" data-live-now="true" {
                a href={ "/play/" (game.id) } { (c.text("web-look-again")) }
            }
        }
    }
}
