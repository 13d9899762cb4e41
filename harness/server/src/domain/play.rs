//! Games people play on the server (issue 49), each at its own address: against a level (1,
//! random, to 5, perfect), two players on one device, the puzzle of the day against the
//! solver's defence (the same puzzle as `quads puzzle` that day), or, in an event, against an
//! entrant's active bot, whose turns a worker plays (crate::domain::bot_turns). Every move is checked by the
//! rules core (quads_record::game) and refused with its reason; the game is kept in the
//! database after every move, so it comes back after a reload, at its address, to anyone given
//! it.
//!
//! The levels play in this process, not as bots in boxes: they are the project's own code, not
//! an entrant's, so there is nothing to wall in, and a process per move would cost more than
//! most levels think. Their CPU is bounded: level moves are thought [`THINKING_AT_ONCE`] at a
//! time across every visitor, each within its level's share of [`LEVEL_MOVETIME_MS`], as a
//! level bot would spend it under `movetime`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use quads_bots::solver::Solver;
use quads_bots::{Strategy, LEVELS};
use quads_protocol::Go;
use quads_puzzle::Puzzle;
use quads_record::game::Game;
use quads_rules::{Move, Position, Reason, Rules};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use tokio::sync::Semaphore;

use super::{App, DomainError};
use crate::store::{now_ms, PlayRow};

use super::play_bots::ready_bot;
pub use super::play_bots::{bots, BOT};
use super::play_clock;
use super::play_shown::{end, show};
pub(super) use super::play_shown::{notation, person_moves, seat};
pub use super::play_shown::{Play, Turn};
pub use super::refusal::Refusal;

/// The time a level's move is given, as `movetime` is given to a level bot (it spends 40%,
/// the solver level 60%).
pub const LEVEL_MOVETIME_MS: u64 = 1000;

/// Level moves thought at once, across every visitor: the most of the machine the play page
/// takes from the ladder.
pub const THINKING_AT_ONCE: usize = 1;

/// The size of the solver's table for a puzzle's defence (puzzles are a few placements from
/// the end: a small table suffices).
const DEFENCE_TABLE_MIB: usize = 8;

/// The play page's share of the server: the level moves' turns, and the puzzle of the day
/// (found once a day: finding one takes a while).
pub struct Plays {
    thinking: Semaphore,
    puzzle: Mutex<Option<(String, Arc<Puzzle>)>>,
}

impl Default for Plays {
    fn default() -> Plays {
        Plays {
            thinking: Semaphore::new(THINKING_AT_ONCE),
            puzzle: Mutex::new(None),
        }
    }
}

/// A turn to think: level moves and reviews take them one at a time ([`THINKING_AT_ONCE`]).
pub(super) async fn thinking_turn(
    app: &App,
) -> Result<tokio::sync::SemaphorePermit<'_>, DomainError> {
    app.0
        .plays
        .thinking
        .acquire()
        .await
        .map_err(DomainError::failed)
}

/// What each of the game's moves was charged, in milliseconds.
pub(super) fn spent(game: &Game) -> Vec<f64> {
    game.moves().iter().map(|m| m.took_ms).collect()
}

/// A new game's id (its address) and the seed of its levels' moves, from it.
fn new_id() -> Result<(String, u64), DomainError> {
    let id = crate::secret::new_secret()
        .map_err(DomainError::failed)?
        .chars()
        .take(24)
        .collect::<String>();
    let seed = u64::from_str_radix(&id[..16], 16).map_err(DomainError::failed)?;
    Ok((id, seed))
}

/// How long a person's request waits for a bot's answer before the game is shown with the
/// bot still to move (the page looks again; the API's client asks again).
const BOT_WAIT: Duration = Duration::from_secs(10);

/// What a game is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Against level 1 to 5.
    Level(usize),
    /// Two people taking turns on one device.
    Two,
    /// The puzzle of the day, against the solver.
    Puzzle,
    /// In an event, against this entrant's active bot.
    Bot(String),
}

impl Mode {
    fn word(&self) -> String {
        match self {
            Mode::Level(n) => format!("level-{n}"),
            Mode::Two => "two".to_owned(),
            Mode::Puzzle => "puzzle".to_owned(),
            Mode::Bot(name) => format!("{BOT}{name}"),
        }
    }

    /// The mode of a kept game (a puzzle's is kept with its day: `puzzle 2026-12-06`).
    fn of_row(word: &str) -> Result<Mode, DomainError> {
        if word.starts_with("puzzle ") {
            return Ok(Mode::Puzzle);
        }
        Mode::parse(word)
    }

    fn parse(text: &str) -> Result<Mode, DomainError> {
        let level = text
            .strip_prefix("level-")
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| (1..=LEVELS.len()).contains(n));
        if let Some(name) = text.strip_prefix(BOT) {
            super::entrants::check_name(name)?;
            return Ok(Mode::Bot(name.to_owned()));
        }
        match (text, level) {
            (_, Some(n)) => Ok(Mode::Level(n)),
            ("two", _) => Ok(Mode::Two),
            ("puzzle", _) => Ok(Mode::Puzzle),
            _ => Err(DomainError::Invalid(format!(
                "no game `{text}`: level-1 to level-{}, two, puzzle or bot:NAME",
                LEVELS.len()
            ))),
        }
    }
}

/// A game asked for.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPlay {
    /// `level-1` … `level-5`, `two`, `puzzle`, or `bot:NAME` (an entrant's active bot).
    pub mode: String,
    /// The rules spec (default `quads`).
    #[serde(default)]
    pub rules: Option<String>,
    /// Against a level: whether the person moves first, giving the first piece (default
    /// true).
    #[serde(default)]
    pub first: Option<bool>,
    /// A clock for each side (`5m+2s`: its time, and what each move adds); none by default.
    #[serde(default)]
    pub clock: Option<String>,
}

/// Starts a game; a level that moves first has moved when it is answered.
pub async fn start(app: &App, new: &NewPlay) -> Result<Play, DomainError> {
    let mode = Mode::parse(&new.mode)?;
    if let Some(spec) = &new.clock {
        play_clock::control(spec)?;
    }
    let (id, seed) = new_id()?;
    let mut word = mode.word();
    let bot = match &mode {
        Mode::Bot(name) => Some(ready_bot(app, name).await?),
        _ => None,
    };
    let (rules, start, person) = match mode {
        Mode::Puzzle => {
            if new.rules.is_some() || new.first.is_some() || new.clock.is_some() {
                return Err(DomainError::Invalid(
                    "the puzzle of the day sets its own rules and seat, and has no clock"
                        .to_owned(),
                ));
            }
            let puzzle = puzzle_of_day(app).await?;
            word = format!("puzzle {}", puzzle.date);
            (puzzle.rules(), puzzle.position(), seat(puzzle.player()))
        }
        Mode::Two | Mode::Level(_) | Mode::Bot(_) => {
            let rules: Rules = new
                .rules
                .as_deref()
                .unwrap_or("quads")
                .parse()
                .map_err(|e| DomainError::Invalid(format!("rules: {e}")))?;
            let person = match (&mode, new.first) {
                (Mode::Two, None) => "both",
                (Mode::Two, Some(_)) => {
                    return Err(DomainError::Invalid(
                        "two people on one device both play: `first` is for a level".to_owned(),
                    ))
                }
                (_, Some(false)) => "second",
                _ => "first",
            };
            (rules, Position::START, person)
        }
    };
    let mut row = PlayRow {
        id,
        mode: word,
        rules: rules.to_string(),
        start: start.to_string(),
        person: person.to_owned(),
        moves: Vec::new(),
        seed,
        bot,
        forfeit: None,
        waiting: false,
        clock: new.clock.clone(),
        spent: Vec::new(),
        since: now_ms(),
    };
    let mut game = Game::new(rules, start);
    row.waiting = answer(app, &row, &mode, &mut game).await?;
    row.moves = notation(&game);
    row.spent = spent(&game);
    row.since = now_ms();
    app.0.store.add_play(&row).await?;
    awaited(app, row, game, 0).await
}

/// The game shown once a bot's turn, if one waits, is answered, or [`BOT_WAIT`] is up; the
/// answers' thinking counted from move `answers` on (those made in this call).
async fn awaited(
    app: &App,
    mut row: PlayRow,
    mut game: Game,
    answers: usize,
) -> Result<Play, DomainError> {
    if row.waiting {
        let mut changed = app.0.signals.changed.subscribe();
        app.0.signals.bump(); // the worker of turns looks
        let until = tokio::time::Instant::now() + BOT_WAIT;
        loop {
            let (now, _, replayed) = load(app, &row.id).await?;
            (row, game) = (now, replayed);
            if !row.waiting {
                break;
            }
            if tokio::time::timeout_at(until, changed.changed())
                .await
                .is_err()
            {
                break;
            }
        }
    }
    Ok(show(&row, &game, answers))
}

/// The game at `id`.
pub async fn get(app: &App, id: &str) -> Result<Play, DomainError> {
    let (row, _, game) = load(app, id).await?;
    let made = game.moves().len();
    Ok(show(&row, &game, made))
}

/// Plays the person's move `text` in game `id`, made after its first `after` moves (what the
/// person saw), then the level's or the solver's answer: the game after them. A move refused by
/// the rules is refused with the rules' reason; one made on a game that has moved on since
/// (another tab, a request sent twice) is refused as such, and nothing changes.
pub async fn play(app: &App, id: &str, text: &str, after: usize) -> Result<Play, DomainError> {
    let (mut row, mode, mut game) = load(app, id).await?;
    if game.moves().len() != after {
        return Err(Refusal::MovedOn.into());
    }
    let arrived = now_ms();
    let clock = play_clock::read(&row, &game, false, arrived);
    if end(&row, &game, clock.as_ref()).is_some() {
        return Err(Refusal::Over.into());
    }
    if !person_moves(&row, game.to_move()) {
        return Err(Refusal::NotYours.into());
    }
    let mv: Move = text.trim().parse().map_err(|e| Refusal::Unreadable {
        text: text.trim().to_owned(),
        why: format!("{e}"),
    })?;
    // Under a clock, the move is charged from when the side began to its arrival here.
    let took = match clock {
        Some(_) => (arrived - row.since).max(0) as f64,
        None => 0.0,
    };
    game.play(mv, took)
        .map_err(|reason| Refusal::Illegal(mv, reason))?;
    row.waiting = answer(app, &row, &mode, &mut game).await?;
    if !app
        .0
        .store
        .extend_play(&row.id, after, &notation(&game), &spent(&game), row.waiting)
        .await?
    {
        return Err(Refusal::MovedOn.into());
    }
    awaited(app, row, game, after + 1).await
}

/// Plays the person's choice in game `id`: the square (none for the opening give) and the
/// piece to give (none when none is left). A piece chosen with a placement that ends the game
/// is left out, as a person who took the win would mean.
pub async fn play_chosen(
    app: &App,
    id: &str,
    square: Option<&str>,
    give: Option<&str>,
    after: usize,
) -> Result<Play, DomainError> {
    let text = match (square, give) {
        (Some(s), Some(g)) => {
            let (_, _, game) = load(app, id).await?;
            let both = format!("{s} {g}");
            let ends = both.parse::<Move>().is_ok_and(|mv| {
                game.position().validate(mv, game.rules()) == Err(Reason::MustNotGive)
            });
            if ends {
                s.to_owned()
            } else {
                both
            }
        }
        (Some(s), None) => s.to_owned(),
        (None, Some(g)) => g.to_owned(),
        (None, None) => return Err(Refusal::NothingChosen.into()),
    };
    play(app, id, &text, after).await
}

/// A new game of `row`'s kind (its mode, rules and seats) from `start`, the person to move.
pub(super) async fn start_from(
    app: &App,
    row: &PlayRow,
    start: Position,
) -> Result<Play, DomainError> {
    let (id, seed) = new_id()?;
    let new = PlayRow {
        id,
        seed,
        start: start.to_string(),
        moves: Vec::new(),
        forfeit: None,
        waiting: false,
        spent: Vec::new(),
        since: now_ms(),
        ..row.clone()
    };
    let game = Game::new(row.rules.parse().map_err(DomainError::failed)?, start);
    app.0.store.add_play(&new).await?;
    Ok(show(&new, &game, 0))
}

fn no_game() -> DomainError {
    DomainError::NotFound("no such game".to_owned())
}

pub(super) async fn load(app: &App, id: &str) -> Result<(PlayRow, Mode, Game), DomainError> {
    // Ids are hex; anything else is not one (and is never sent to the database).
    if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(no_game());
    }
    let row = app.0.store.play(id).await?.ok_or_else(no_game)?;
    let (mode, game) = replay(&row)?;
    Ok((row, mode, game))
}

/// A kept game's mode and its moves played again by the rules core.
pub(super) fn replay(row: &PlayRow) -> Result<(Mode, Game), DomainError> {
    let mode = Mode::of_row(&row.mode).map_err(DomainError::failed)?;
    let rules: Rules = row.rules.parse().map_err(DomainError::failed)?;
    let start: Position = row.start.parse().map_err(DomainError::failed)?;
    let mut game = Game::new(rules, start);
    for (i, m) in row.moves.iter().enumerate() {
        let mv: Move = m.parse().map_err(DomainError::failed)?;
        let took = row.spent.get(i).copied().unwrap_or(0.0);
        game.play(mv, took).map_err(DomainError::failed)?;
    }
    Ok((mode, game))
}

/// The level's or the solver's moves, while it is theirs to move and the game goes on: whether
/// a bot's turn now waits for a worker (a bot's moves are not made here).
async fn answer(
    app: &App,
    row: &PlayRow,
    mode: &Mode,
    game: &mut Game,
) -> Result<bool, DomainError> {
    while game.outcome().is_none() && !person_moves(row, game.to_move()) {
        if let Mode::Bot(_) = mode {
            return Ok(true);
        }
        let mode = mode.clone();
        let pos = game.position();
        let rules = *game.rules();
        let last = game.last();
        let ply = game.moves().len() as u64;
        let seed = row.seed ^ ply.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let time = play_clock::left_to_move(row, game);
        let _turn = thinking_turn(app).await?;
        let (mv, took) = tokio::task::spawn_blocking(move || {
            let thinking = Instant::now();
            let mv = match mode {
                Mode::Level(n) => Some(level_move(LEVELS[n - 1], &rules, &pos, last, time, seed)),
                Mode::Puzzle => Solver::new(&rules, DEFENCE_TABLE_MIB).best_move(&pos, &rules),
                Mode::Two | Mode::Bot(_) => None,
            };
            (mv, thinking.elapsed())
        })
        .await
        .map_err(DomainError::failed)?;
        let mv = mv.ok_or_else(|| DomainError::failed("no move to answer with"))?;
        game.play(mv, took.as_secs_f64() * 1000.0)
            .map_err(|reason| DomainError::failed(format!("the answer {mv}: {reason}")))?;
    }
    Ok(false)
}

/// A level's move, thought as its bot would think it under `movetime` [`LEVEL_MOVETIME_MS`]
/// (and its clock, `time` ms left, if the game has one).
fn level_move(
    strategy: Strategy,
    rules: &Rules,
    pos: &Position,
    last: Option<Move>,
    time: Option<u64>,
    seed: u64,
) -> Move {
    let go = Go {
        position: *pos,
        remaining: pos.remaining(),
        last,
        // Under a clock, the level budgets it as its bot would.
        time,
        optime: None,
        movetime: LEVEL_MOVETIME_MS,
    };
    let budget: Duration = quads_bots::levels::budget(&go, strategy);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    strategy.choose(&go, rules, &mut rng, Instant::now() + budget, &mut None)
}

/// The puzzle of the day (here, today), as `quads puzzle` gives it: the default rules and
/// level. Found once a day.
async fn puzzle_of_day(app: &App) -> Result<Arc<Puzzle>, DomainError> {
    let date = quads_puzzle::today();
    let day = date.to_string();
    if let Some((d, p)) = app
        .0
        .plays
        .puzzle
        .lock()
        .expect("the puzzle's lock")
        .as_ref()
    {
        if *d == day {
            return Ok(p.clone());
        }
    }
    let found = tokio::task::spawn_blocking(move || {
        quads_puzzle::of_day(date, &Rules::QUADS, quads_puzzle::Level::Medium)
    })
    .await
    .map_err(DomainError::failed)?
    .map_err(DomainError::failed)?;
    let found = Arc::new(found);
    *app.0.plays.puzzle.lock().expect("the puzzle's lock") = Some((day, found.clone()));
    Ok(found)
}
