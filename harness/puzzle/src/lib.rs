//! The puzzle of the day: a position, the same for everyone on a given date, in which the side
//! to move has a forced win and exactly one winning move (the placement and the piece given).
//!
//! A day's puzzle is found by seeded search: from a seed made of the date, the rules and the
//! level, random positions with no win on the board and a piece in hand that wins nowhere are
//! drawn until the exact solver finds one whose value is a win in exactly the level's number of
//! placements (3, 5 or 7, counting both players') with one winning move among all the legal
//! ones. Its difficulty is that length and how many *tempting* moves lose: moves whose give
//! looks safe (the opponent cannot win with it at once) but that lose against best play.
//!
//! [`verify`] proves a puzzle again with a fresh solver; the tests run it on a sample of dates.

mod search;

use std::fmt;
use std::str::FromStr;

use quads_rules::{Claim, Move, Player, Position, Rules};
use serde::Serialize;

pub use jiff::civil::Date;
pub use search::{is_win, verify, Unproven};

/// How hard a puzzle is: the length of its forced win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// A win in 3 placements: yours, the opponent's, and your winning one.
    Easy,
    /// A win in 5 placements.
    Medium,
    /// A win in 7 placements.
    Hard,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    /// The placements of the forced win, both players' counted, the winning one included.
    pub const fn placements(self) -> u32 {
        match self {
            Level::Easy => 3,
            Level::Medium => 5,
            Level::Hard => 7,
        }
    }

    /// The name on the command line and in exports.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("unknown level `{s}` (expected easy, medium or hard)"))
    }
}

/// Why no puzzle can be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// Under `claim=announce` a win must also be announced; puzzles are made under automatic
    /// wins.
    #[error("puzzles are made under automatic wins: `{0}` asks for claim=announce")]
    Announce(String),
    /// No puzzle of the level turned up among the positions drawn (a variant where such wins
    /// are too rare).
    #[error("no {level} puzzle of `{rules}` among {attempts} positions drawn for {date}: such wins are rare when few traits count; try an easier level")]
    NotFound {
        /// The rules.
        rules: String,
        /// The level.
        level: Level,
        /// The day.
        date: String,
        /// Positions drawn.
        attempts: u32,
    },
}

/// One puzzle: the position and everything an app shows with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Puzzle {
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// Its level.
    pub level: Level,
    /// The rules spec.
    pub rules: String,
    /// The position, in the project's notation; the side to move has a piece in hand.
    pub position: String,
    /// Who is to move: `first` or `second`.
    pub to_move: &'static str,
    /// The forced win's length in placements, both players' counted.
    pub placements: u32,
    /// The winning line against the longest defence: the one winning move, the reply, and so
    /// on to the winning placement.
    pub solution: Vec<String>,
    /// The legal moves in the position.
    pub moves: u32,
    /// The moves whose give looks safe (no win for the opponent at once) but that lose.
    pub tempting: u32,
    /// Positions drawn before this one was found (a measure of how rare it is).
    pub attempts: u32,
}

impl Puzzle {
    /// The position.
    pub fn position(&self) -> Position {
        self.position.parse().expect("a puzzle's own position")
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules.parse().expect("a puzzle's own rules")
    }

    /// The winning move.
    pub fn answer(&self) -> Move {
        self.solution[0].parse().expect("a puzzle's own move")
    }

    /// The player to move.
    pub fn player(&self) -> Player {
        self.position().to_move()
    }
}

/// The puzzle of `date` under `rules` at `level`. The same arguments give the same puzzle.
pub fn of_day(date: Date, rules: &Rules, level: Level) -> Result<Puzzle, PuzzleError> {
    if rules.claim == Claim::Announce {
        return Err(PuzzleError::Announce(rules.to_string()));
    }
    search::find(date, rules, level)
}

/// Today's date where this process runs (its time zone), for the puzzle of the day.
pub fn today() -> Date {
    jiff::Zoned::now().date()
}

/// A date that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BadDate {
    /// Not written `YYYY-MM-DD`.
    #[error("invalid date `{0}` (expected YYYY-MM-DD)")]
    Form(String),
    /// Written so, but no such day.
    #[error("invalid date `{0}`: no such day")]
    NoSuchDay(String),
}

/// A date from `YYYY-MM-DD`, or why not.
pub fn parse_date(text: &str) -> Result<Date, BadDate> {
    let well_formed = text.len() == 10
        && text.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    if !well_formed {
        return Err(BadDate::Form(text.to_owned()));
    }
    text.parse::<Date>()
        .map_err(|_| BadDate::NoSuchDay(text.to_owned()))
}
