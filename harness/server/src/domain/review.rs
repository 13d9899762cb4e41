//! After a game on the play page (crate::domain::play): its record, in the referee's
//! games.jsonl format; the solver's review of it, each move judged as `quads analyze` judges
//! one, where the game was decided, and at each mistake a move that kept the value; and "try
//! again from here", a new game from the position before a move of the person's.
//!
//! A review is made once per game and kept (a finished game does not change), in the same turn
//! as the levels' moves ([`super::play::THINKING_AT_ONCE`]): reviews take no more of the machine
//! than the levels do.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use quads_analysis::{Blunder, Decided, Oracle, Value};
use quads_bots::solver::Solver;
use quads_record::game::Game;
use quads_record::{BotEntry, EndReason, Failure, GameRecord, GameResult, Timing};
use quads_rules::{Outcome, Player};
use serde::Serialize;

use super::play::{self, seat, Mode, Play, Refusal, LEVEL_MOVETIME_MS};
use super::{play_clock, play_shown};
use super::{App, DomainError};
use crate::store::PlayRow;

/// Moves made with at most this many empty squares are judged (`quads analyze`'s default).
pub const REVIEW_EMPTY: u32 = quads_analysis::DEFAULT_EMPTY;

/// The solver's table for a review, in MiB (a window of 11 empty squares needs little).
const REVIEW_TABLE_MIB: usize = 32;

/// Reviews kept in memory; past this many the oldest half is let go (they are made again when
/// asked for).
const REVIEWS_KEPT: usize = 512;

/// The reviews made, by game.
#[derive(Default)]
pub struct Reviews {
    kept: Mutex<HashMap<String, (u64, Arc<Review>)>>,
    made: std::sync::atomic::AtomicU64,
}

/// A finished game, judged by the solver.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Review {
    /// Moves made with at most this many empty squares were judged.
    pub empty: u32,
    /// Every move, judged or not.
    pub moves: Vec<Judged>,
    /// The move that decided the game, if one did within the window.
    pub decided: Decided,
}

/// One move, and what the solver says of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Judged {
    /// Its place in the game's moves, from 0.
    pub index: usize,
    /// Who made it: `first` or `second`.
    pub seat: &'static str,
    /// Whether a person made it (and so may try again from before it).
    pub yours: bool,
    #[serde(rename = "move")]
    pub mv: String,
    /// The mover's value before and after it; none outside the window.
    pub before: Option<Value>,
    pub after: Option<Value>,
    /// What the move threw away, if it was a mistake.
    pub blunder: Option<Blunder>,
    /// The mover could have won with this move and did not.
    pub missed_win: bool,
    /// At a mistake: a move that kept the value.
    pub better: Option<String>,
}

/// Who sat in `seat` of `row`'s game, as a record names players.
fn player(row: &PlayRow, mode: &Mode, p: Player) -> BotEntry {
    let person = row.person == "both" || row.person == seat(p);
    let name = match (person, mode) {
        (true, Mode::Two) => format!("player-{}", if p == Player::First { 1 } else { 2 }),
        (true, _) => "you".to_owned(),
        (false, Mode::Level(n)) => format!("level-{n}"),
        (false, Mode::Bot(name)) => name.clone(),
        (false, _) => "solver".to_owned(),
    };
    BotEntry {
        name,
        command: String::new(),
        id: None,
        sandbox: None,
        ponder: None,
        version: None,
    }
}

/// The record of a finished game, as the referee writes one (`games.jsonl`).
fn record(row: &PlayRow, mode: &Mode, game: &Game) -> Result<GameRecord, DomainError> {
    let clock = play_shown::clock_now(row, game);
    let Some(end) = play_shown::end(row, game, clock.as_ref()) else {
        return Err(DomainError::Conflict(
            "the game is not over yet: its record and review come at its end".to_owned(),
        ));
    };
    let failure = end.fault.map(|(seat, reason, detail)| Failure {
        seat,
        reason,
        detail,
    });
    let (result, reason) = match (&failure, end.outcome) {
        (Some(f), _) => (GameResult::loss_of(f.seat), EndReason::Forfeit(f.reason)),
        (None, Outcome::Win(Player::First)) => (GameResult::FirstWins, EndReason::Normal),
        (None, Outcome::Win(Player::Second)) => (GameResult::SecondWins, EndReason::Normal),
        (None, Outcome::Draw) => (GameResult::Draw, EndReason::Draw),
    };
    let time_control = match (&row.clock, mode) {
        (Some(spec), _) => play_clock::control(spec)
            .map(|tc| quads_referee::Describe(&tc).to_string())
            .unwrap_or_else(|_| spec.clone()),
        (None, Mode::Level(_)) => format!("movetime {LEVEL_MOVETIME_MS}"),
        (None, Mode::Bot(_)) => "bot's turns under the event's limit per move".to_owned(),
        (None, Mode::Two | Mode::Puzzle) => "none".to_owned(),
    };
    Ok(GameRecord {
        game: 1,
        round: None,
        pair: None,
        event: Some("play".to_owned()),
        event_seed: None,
        rules: game.rules().to_string(),
        seed: row.seed,
        time_control,
        start: game.start().to_string(),
        first: player(row, mode, Player::First),
        second: player(row, mode, Player::Second),
        moves: game.moves().iter().map(|m| m.mv.to_string()).collect(),
        end: game.position().to_string(),
        result,
        reason,
        failures: failure.into_iter().collect(),
        timing: Timing {
            moves_ms: super::play::spent(game),
            ..Timing::default()
        },
    })
}

/// The finished game `id` as one line of games.jsonl (with its newline).
pub async fn games_jsonl(app: &App, id: &str) -> Result<String, DomainError> {
    let (row, mode, game) = play::load(app, id).await?;
    Ok(record(&row, &mode, &game)?.to_json() + "\n")
}

/// Every finished game on the play page, the oldest first, as games.jsonl (the host's export).
pub async fn all_games_jsonl(app: &App) -> Result<String, DomainError> {
    let mut text = String::new();
    let mut number = 0;
    for row in app.0.store.plays().await? {
        let (mode, game) = play::replay(&row)?;
        let clock = play_shown::clock_now(&row, &game);
        if play_shown::end(&row, &game, clock.as_ref()).is_none() {
            continue;
        }
        number += 1;
        let record = GameRecord {
            game: number,
            ..record(&row, &mode, &game)?
        };
        text += &(record.to_json() + "\n");
    }
    Ok(text)
}

/// The solver's review of the finished game `id`.
pub async fn review(app: &App, id: &str) -> Result<Arc<Review>, DomainError> {
    let (row, mode, game) = play::load(app, id).await?;
    let reviews = &app.0.reviews;
    if let Some((_, r)) = reviews.kept.lock().expect("the reviews' lock").get(id) {
        return Ok(r.clone());
    }
    let record = record(&row, &mode, &game)?;
    let person: Vec<bool> = {
        let mut before = game.start();
        game.moves()
            .iter()
            .map(|m| {
                let mine = play::person_moves(&row, before.to_move());
                before = m.after;
                mine
            })
            .collect()
    };
    let positions: Vec<_> = std::iter::once(game.start())
        .chain(game.moves().iter().map(|m| m.after))
        .collect();
    let rules = *game.rules();
    let _turn = play::thinking_turn(app).await?;
    let made = tokio::task::spawn_blocking(move || {
        let mut oracle = Oracle::new(REVIEW_TABLE_MIB, 1);
        let judged = quads_analysis::game::judge(&record, "play", REVIEW_EMPTY, &mut oracle)
            .map_err(DomainError::failed)?;
        let mut solver = Solver::new(&rules, REVIEW_TABLE_MIB);
        let moves = record
            .moves
            .iter()
            .enumerate()
            .map(|(index, mv)| {
                let j = judged.moves.iter().find(|j| j.index == index);
                let blunder = j.and_then(|j| j.verdict.blunder());
                let better = blunder
                    .and_then(|_| solver.best_move(&positions[index], &rules))
                    .map(|m| m.to_string());
                Judged {
                    index,
                    seat: seat(positions[index].to_move()),
                    yours: person[index],
                    mv: mv.clone(),
                    before: j.map(|j| j.before),
                    after: j.map(|j| j.after),
                    blunder,
                    missed_win: j.is_some_and(|j| j.missed_win),
                    better,
                }
            })
            .collect();
        Ok::<_, DomainError>(Review {
            empty: judged.empty,
            moves,
            decided: judged.decided,
        })
    })
    .await
    .map_err(DomainError::failed)??;
    let made = Arc::new(made);
    let n = reviews
        .made
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut kept = reviews.kept.lock().expect("the reviews' lock");
    if kept.len() >= REVIEWS_KEPT {
        let cut = n.saturating_sub(REVIEWS_KEPT as u64 / 2);
        kept.retain(|_, (at, _)| *at >= cut);
    }
    kept.insert(id.to_owned(), (n, made.clone()));
    Ok(made)
}

/// "Try again from here": a new game of the same kind from the position before move `index`
/// of game `id`, a move the person made.
pub async fn again(app: &App, id: &str, index: usize) -> Result<Play, DomainError> {
    let (row, _, game) = play::load(app, id).await?;
    let before = match index {
        0 => Some(game.start()),
        i => game.moves().get(i - 1).map(|m| m.after),
    };
    let before = before
        .filter(|_| index < game.moves().len())
        .ok_or_else(|| DomainError::Invalid(format!("game {id} has no move {index}")))?;
    if !play::person_moves(&row, before.to_move()) {
        return Err(Refusal::NotYours.into());
    }
    play::start_from(app, &row, before).await
}
