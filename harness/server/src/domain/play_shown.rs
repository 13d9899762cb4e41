//! A game on the play page as the front ends show it (crate::domain::play): the board, the
//! piece in hand, the pieces left, whose move, the result and the winning shape, and every
//! move taken apart (what a text mode says in words).

use quads_record::game::Game;
use quads_record::ForfeitReason;
use quads_rules::{Move, Outcome, Player, Square, Then};
use serde::Serialize;

use super::play_clock;
pub(super) use super::play_seats::{person_moves, seat};
use crate::store::PlayRow;

/// The game's moves in the notation.
pub(super) fn notation(game: &Game) -> Vec<String> {
    game.moves().iter().map(|m| m.mv.to_string()).collect()
}

/// A game as the front ends show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Play {
    /// Its address: `/play/ID`.
    pub id: String,
    pub mode: String,
    pub rules: String,
    /// The seat the person plays, `first` or `second`, or `both` (two people).
    pub person: String,
    pub start: String,
    pub moves: Vec<String>,
    /// The moves again, each taken apart: who made it, the piece placed and where, the piece
    /// given (what a text mode says in words).
    pub turns: Vec<Turn>,
    /// The position now, in the project's notation.
    pub position: String,
    /// The squares A1 … D4 in order, each its piece or `null`.
    pub board: Vec<Option<String>>,
    /// The piece the player to move places, if any.
    pub in_hand: Option<String>,
    /// The pieces that may still be given.
    pub remaining: Vec<String>,
    pub last: Option<String>,
    /// Whose move it is: `first` or `second` (none once over).
    pub to_move: Option<&'static str>,
    /// Whether a person is to move now (not a level or the solver).
    pub yours: bool,
    /// Whether the player to move may call "Quarto!" on a shape left unclaimed.
    pub claimable: bool,
    /// Once over: `1-0`, `0-1` or `1/2-1/2`.
    pub result: Option<&'static str>,
    /// Against an entrant's bot: its entrant's name.
    pub bot: Option<String>,
    /// Whether the bot's turn waits for its answer (ask again for the game).
    pub waiting: bool,
    /// Why the bot lost by a fault of its own, as the referee words it (`timeout: …`).
    pub forfeit: Option<String>,
    /// The clocks, when the game has them.
    pub clock: Option<play_clock::Shown>,
    /// The squares of the winning shape, once won.
    pub winning: Vec<String>,
    /// For the puzzle: its day, and once over whether it was solved.
    pub puzzle: Option<PuzzleOf>,
    /// The time the level or the solver thought on the answers made in this call, in ms (0
    /// when it made none): what a client waited beyond it was the server's.
    pub thought_ms: f64,
}

/// One move taken apart.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Turn {
    /// Who made it: `first` or `second`.
    pub seat: &'static str,
    /// The move in the notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The piece placed (the one that was in hand) and its square, unless the move placed none
    /// (the opening give, a claim).
    pub placed: Option<String>,
    pub square: Option<String>,
    /// The piece given, if one was.
    pub gave: Option<String>,
    /// Whether the move called "Quarto!": announced with a placement, or claimed before one.
    pub quarto: bool,
    /// What it was charged, in milliseconds (a person's: only under a clock).
    pub ms: f64,
}

/// How a game ended: the outcome, and the seat that lost by a fault of its own, if one did
/// (a bot that failed, a clock that ran out), with the referee's reason and its detail.
pub(super) struct End {
    pub outcome: Outcome,
    pub fault: Option<(Player, ForfeitReason, String)>,
}

/// How `row`'s game ended, if it has, with its clocks read at `clock`.
pub(super) fn end(row: &PlayRow, game: &Game, clock: Option<&play_clock::Shown>) -> Option<End> {
    let lost = |seat: Player, reason, detail: &str| End {
        outcome: Outcome::Win(seat.other()),
        fault: Some((seat, reason, detail.to_owned())),
    };
    // A bot's failure is on its turn: it is still the side to move.
    if let Some(text) = &row.forfeit {
        let (word, detail) = text.split_once(": ").unwrap_or((text, ""));
        let reason = word.parse().unwrap_or(ForfeitReason::Crash);
        return Some(lost(game.to_move(), reason, detail));
    }
    if let Some(flagged) = clock.and_then(|c| c.flagged) {
        let seat = if flagged == "first" {
            Player::First
        } else {
            Player::Second
        };
        return Some(lost(seat, ForfeitReason::Timeout, "the clock ran out"));
    }
    game.outcome().map(|outcome| End {
        outcome,
        fault: None,
    })
}

/// The clocks of `row`'s game now, read as [`end`] and the front ends read them.
pub(super) fn clock_now(row: &PlayRow, game: &Game) -> Option<play_clock::Shown> {
    let over = row.forfeit.is_some() || game.outcome().is_some();
    play_clock::read(row, game, over, crate::store::now_ms())
}

/// A puzzle game's puzzle: its day, and once over whether the person won it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PuzzleOf {
    pub date: String,
    pub solved: Option<bool>,
}

/// The game as shown, the thinking of the answers from move `answers` on counted (those made
/// in the call that shows it).
pub(super) fn show(row: &PlayRow, game: &Game, answers: usize) -> Play {
    let pos = game.position();
    let clock = clock_now(row, game);
    let outcome = end(row, game, clock.as_ref()).map(|e| e.outcome);
    let result = outcome.map(|o| match o {
        Outcome::Win(Player::First) => "1-0",
        Outcome::Win(Player::Second) => "0-1",
        Outcome::Draw => "1/2-1/2",
    });
    let puzzle = row.mode.strip_prefix("puzzle ").map(|date| PuzzleOf {
        date: date.to_owned(),
        solved: outcome.map(|o| {
            row.person == "first" && o == Outcome::Win(Player::First)
                || row.person == "second" && o == Outcome::Win(Player::Second)
        }),
    });
    let winning = game.winning_squares();
    Play {
        id: row.id.clone(),
        mode: row.mode.clone(),
        rules: row.rules.clone(),
        person: row.person.clone(),
        start: row.start.clone(),
        moves: notation(game),
        turns: turns(game),
        position: pos.to_string(),
        board: Square::ALL
            .iter()
            .map(|&sq| pos.board().piece_at(sq).map(|p| p.to_string()))
            .collect(),
        in_hand: pos.hand().map(|p| p.to_string()),
        remaining: pos.remaining().iter().map(|p| p.to_string()).collect(),
        last: game.last().map(|m| m.to_string()),
        to_move: outcome.is_none().then(|| seat(game.to_move())),
        yours: outcome.is_none() && !row.waiting && person_moves(row, game.to_move()),
        claimable: game.claimable(),
        result,
        bot: row
            .mode
            .strip_prefix(super::play_bots::BOT)
            .map(str::to_owned),
        waiting: row.waiting && outcome.is_none(),
        forfeit: row.forfeit.clone(),
        clock,
        winning: Square::ALL
            .iter()
            .filter(|sq| winning.0 & sq.bb().0 != 0)
            .map(|sq| sq.to_string())
            .collect(),
        puzzle,
        thought_ms: game.moves().iter().skip(answers).map(|m| m.took_ms).sum(),
    }
}

/// The game's moves taken apart, each from the position it was made in.
fn turns(game: &Game) -> Vec<Turn> {
    let mut before = game.start();
    game.moves()
        .iter()
        .map(|made| {
            let hand = before.hand().map(|p| p.to_string());
            let seat = seat(before.to_move());
            before = made.after;
            let (placed, square, gave, quarto) = match made.mv {
                Move::Give(p) => (None, None, Some(p.to_string()), false),
                Move::Claim => (None, None, None, true),
                Move::Place { to, then } => {
                    let gave = match then {
                        Then::Give(p) => Some(p.to_string()),
                        Then::Nothing | Then::Quarto => None,
                    };
                    (hand, Some(to.to_string()), gave, then == Then::Quarto)
                }
            };
            Turn {
                seat,
                mv: made.mv.to_string(),
                placed,
                square,
                gave,
                quarto,
                ms: made.took_ms,
            }
        })
        .collect()
}
