//! `quads play`: a game in the terminal. A person plays against a level, any bot command
//! (spoken to over the protocol by the referee's own seat, with its time limits and
//! forfeits), or a second person at the same keyboard; or plays the puzzle of the day out
//! against the solver's defence. Every move, the person's included, is checked by the rules
//! core; an illegal one is refused with the reason, never lost. A finished game is saved in the
//! record format of `quads match`.
//!
//! The files: `input.rs` (keys to moves),
//! `sides.rs` (who plays a side), `app.rs` (the loop), `view.rs` and `glyph.rs` (drawing),
//! `record.rs` (the record and the solver's verdict), `terminal.rs` (modes and keys); the game
//! itself (the moves, undo, the winning shape) is `quads_record::game`, shared with the server.

mod app;
pub use quads_record::game;
pub mod glyph;
pub mod input;
mod record;
mod sides;
mod terminal;
pub mod view;

use std::path::PathBuf;

use quads_bots::solver::Solver;
use quads_i18n::Catalog;
use quads_protocol::TimeControl;
use quads_puzzle::Puzzle;
use quads_referee::{Bot, BotSpec, Settings};
use quads_rules::{ByPlayer, Position, Rules};

use crate::sides::{Contestant, Kind};

/// Who plays against the person.
#[derive(Clone, Debug)]
pub enum Opponent {
    /// A bot (a level is `quads-bot --level N`).
    Bot {
        /// How to start it.
        spec: Box<BotSpec>,
        /// The name the screen shows.
        shown: String,
    },
    /// A second person at the keyboard.
    Human,
    /// The puzzle's defence: the solver.
    Solver,
}

/// What to play.
pub struct Options {
    /// The rules.
    pub rules: Rules,
    /// The opponent.
    pub opponent: Opponent,
    /// Whether the (first) person makes the opening give.
    pub first: bool,
    /// The bot's limit per move, and the clock if the game has one.
    pub time: TimeControl,
    /// Whether there is a game clock (for people too).
    pub clock: bool,
    /// The game's seed, sent to a bot.
    pub seed: u64,
    /// Where the record is saved (`games.jsonl`, `logs/`); none for a puzzle.
    pub out: Option<PathBuf>,
    /// A puzzle to play out, from its position.
    pub puzzle: Option<Puzzle>,
    /// Draw in colour.
    pub colours: bool,
}

/// How a game on the screen ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The person left before the end; nothing was saved.
    Left,
    /// The game ended and was saved.
    Saved {
        /// The file.
        path: PathBuf,
        /// The result, in words.
        result: String,
    },
    /// The puzzle was solved.
    PuzzleSolved,
    /// The puzzle's win was let slip.
    PuzzleFailed,
    /// Something stopped the game (a bot's option, an unwritable folder).
    Failed(String),
}

/// Everything the loop needs, made from [`Options`].
pub(crate) struct Setup {
    pub rules: Rules,
    pub start: Position,
    pub sides: ByPlayer<Contestant>,
    pub settings: Settings,
    pub times: ByPlayer<TimeControl>,
    pub clock: bool,
    pub seed: u64,
    pub out: Option<PathBuf>,
    pub puzzle: Option<Puzzle>,
    pub colours: bool,
}

/// Why a game cannot start.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// Standard input or output is not a terminal.
    #[error("quads play needs a terminal: run it in one (not through a pipe)")]
    NotATerminal,
    /// The terminal could not be set up.
    #[error("cannot set up the terminal: {0}")]
    Terminal(std::io::Error),
    /// The runtime could not start.
    #[error("cannot start the runtime: {0}")]
    Runtime(std::io::Error),
    /// The game stopped.
    #[error("{0}")]
    Stopped(String),
}

fn setup(options: Options, c: &Catalog) -> Setup {
    let people_time = TimeControl {
        movetime: None,
        ..options.time
    };
    let (mut start, mut first) = (Position::START, options.first);
    if let Some(p) = &options.puzzle {
        start = p.position();
        first = p.player() == quads_rules::Player::First;
    }
    let person = |n: &str, record: &str| Contestant::human(c.text(n), record, n == "player-you");
    let (me, other) = match &options.opponent {
        Opponent::Human => (
            person("player-one", "human-1"),
            person("player-two", "human-2"),
        ),
        Opponent::Bot { spec, shown } => (
            person("player-you", "human"),
            Contestant {
                name: shown.clone(),
                entry: quads_record::BotEntry {
                    name: spec.name.clone(),
                    command: spec.command.display(),
                    id: None,
                    sandbox: None,
                    ponder: None,
                    version: None,
                },
                kind: Kind::Bot(Some(Box::new(Bot::new(spec.as_ref().clone())))),
                you: false,
            },
        ),
        Opponent::Solver => (
            person("player-you", "human"),
            Contestant {
                name: c.text("player-solver"),
                entry: quads_record::BotEntry {
                    name: "solver".to_owned(),
                    command: "(in process)".to_owned(),
                    id: None,
                    sandbox: None,
                    ponder: None,
                    version: None,
                },
                kind: Kind::Solver(Box::new(Solver::new(&options.rules, 64))),
                you: false,
            },
        ),
    };
    let other_time = if matches!(options.opponent, Opponent::Bot { .. }) {
        options.time
    } else {
        people_time
    };
    let (sides, times) = if first {
        ([me, other], [people_time, other_time])
    } else {
        ([other, me], [other_time, people_time])
    };
    let (sides, times) = (ByPlayer::from(sides), ByPlayer::from(times));
    Setup {
        rules: options.rules,
        start,
        sides,
        settings: app::bot_settings(options.rules, options.time),
        times,
        clock: options.clock,
        seed: options.seed,
        out: options.out,
        puzzle: options.puzzle,
        colours: options.colours,
    }
}

/// Plays one game on this terminal in `c`'s language; returns how it ended.
pub fn run(options: Options, c: Catalog) -> Result<Ending, PlayError> {
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(PlayError::NotATerminal);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(PlayError::Runtime)?;
    let setup = setup(options, &c);
    runtime.block_on(async {
        let mut terminal = terminal::Terminal::open().map_err(PlayError::Terminal)?;
        let keys = terminal::keys();
        let ending = app::App::new(setup, c)
            .run(&mut terminal, keys)
            .await
            .map_err(PlayError::Stopped)?;
        drop(terminal);
        Ok(ending)
    })
}
