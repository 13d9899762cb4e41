//! The opening book: for every position level 5 can face before the solver answers within a
//! move's time, a move that keeps the game's value, with the value.
//!
//! Only the opponent's moves branch: level 5 always plays its book move, so the positions it
//! faces with up to three pieces placed are the opponent's replies to its own moves, tens to a
//! few thousand once equal positions are one (under the board's automorphisms and the pieces'
//! symmetries, [`canonical`]). Each was solved by the project's own solver
//! ([`build::build`], `quads book build`); the files are `bots/book/*.book`, one line per
//! position:
//!
//! ```text
//! # comments: the command that made it, the time it took
//! ..../..../..../BDRF... BDRF draw B2 SLQF
//! ```
//!
//! the canonical position, its value for the side to move (`draw`, `win-N` or `loss-N`, N the
//! placements to the end under perfect play), and the move. A position is looked up by its
//! canonical form, and the move mapped back through the symmetry.
//!
//! The books cover Quads and classic Quarto with every trait counting, with automatic wins or
//! "Quarto!" announced (the book's moves are the same; a winning placement is announced under
//! `claim=announce`, and a position with a claim pending is not looked up); not the variants in
//! which fewer traits count.

pub mod build;
pub mod canonical;

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use quads_rules::{Move, Position, Rules, TraitSet};

use crate::solver::{describe, WIN};
use canonical::Canonizer;

/// Whether level 5 uses the book (`quads-bot --no-book` turns it off, to measure it).
static ENABLED: AtomicBool = AtomicBool::new(true);

/// Turns the book on or off for this process.
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Whether the book is on in this process.
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// The shipped book's move for `pos` under `rules`, if the book is on, covers the variant and
/// holds the position.
pub fn lookup(pos: &Position, rules: &Rules) -> Option<Found> {
    if !enabled() {
        return None;
    }
    Book::shipped(rules)?.lookup_in(pos, rules)
}

/// What the book says of a position: its value for the side to move and a move that keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The solver's value: `WIN - placements` for a win, 0 for a draw, its negation for a loss.
    pub value: i32,
    /// The move, in the canonical form's frame.
    pub mv: Move,
}

/// A book entry found for a position, its move mapped to that position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// The value for the side to move.
    pub value: i32,
    /// The move to play there.
    pub mv: Move,
}

/// A book line that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("book line {line}: {problem}")]
pub struct BookError {
    /// The line's number, from 1.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

/// One variant's book.
pub struct Book {
    rules: Rules,
    canon: Canonizer,
    entries: HashMap<Position, Entry>,
}

/// The text of a value: `draw`, `win-7`, `loss-9`.
pub fn value_text(value: i32) -> String {
    let n = WIN - value.abs() + 1;
    match value.signum() {
        0 => "draw".to_owned(),
        1 => format!("win-{n}"),
        _ => format!("loss-{n}"),
    }
}

fn parse_value(text: &str) -> Option<i32> {
    if text == "draw" {
        return Some(0);
    }
    let (kind, n) = text.split_once('-')?;
    let n: i32 = n.parse().ok().filter(|n| (1..=16).contains(n))?;
    match kind {
        "win" => Some(WIN - n + 1),
        "loss" => Some(-(WIN - n + 1)),
        _ => None,
    }
}

impl Book {
    /// An empty book for `rules` (every trait must count).
    pub fn new(rules: &Rules) -> Book {
        Book {
            rules: *rules,
            canon: Canonizer::new(rules),
            entries: HashMap::new(),
        }
    }

    /// Whether a book can serve `rules`: every trait counts.
    pub fn covers(rules: &Rules) -> bool {
        rules.traits == TraitSet::ALL
    }

    /// The book shipped for `rules`' preset (`bots/book/quads.book`, `classic.book`), read
    /// once; none for variants it does not cover.
    pub fn shipped(rules: &Rules) -> Option<&'static Book> {
        static QUADS: OnceLock<Book> = OnceLock::new();
        static CLASSIC: OnceLock<Book> = OnceLock::new();
        if !Book::covers(rules) {
            return None;
        }
        let (cell, text, preset) = if rules.squares {
            (&QUADS, include_str!("../../book/quads.book"), Rules::QUADS)
        } else {
            (
                &CLASSIC,
                include_str!("../../book/classic.book"),
                Rules::CLASSIC,
            )
        };
        Some(cell.get_or_init(|| Book::parse(text, &preset).expect("the shipped book reads")))
    }

    /// Reads a book's text.
    pub fn parse(text: &str, rules: &Rules) -> Result<Book, BookError> {
        let mut book = Book::new(rules);
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |problem: String| BookError {
                line: i + 1,
                problem,
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() < 4 {
                return Err(err(format!(
                    "expected POSITION HAND VALUE MOVE, got `{line}`"
                )));
            }
            let pos: Position = format!("{} {}", words[0], words[1])
                .parse()
                .map_err(|e| err(format!("{e}")))?;
            let value = parse_value(words[2])
                .ok_or_else(|| err(format!("`{}` is not a value", words[2])))?;
            let mv: Move = words[3..]
                .join(" ")
                .parse()
                .map_err(|e| err(format!("{e}")))?;
            match book.canon.canonical(&pos) {
                Some((form, _)) if form == pos => {}
                _ => return Err(err(format!("`{pos}` is not a canonical form"))),
            }
            pos.validate(mv, rules)
                .map_err(|why| err(format!("`{mv}` is illegal in `{pos}`: {why}")))?;
            book.entries.insert(pos, Entry { value, mv });
        }
        Ok(book)
    }

    /// The book as text, positions in order of pieces placed, then notation.
    pub fn to_text(&self, header: &str) -> String {
        let mut lines: Vec<(u32, String)> = self
            .entries
            .iter()
            .map(|(pos, e)| {
                (
                    pos.placed(),
                    format!("{pos} {} {}", value_text(e.value), e.mv),
                )
            })
            .collect();
        lines.sort();
        let mut text = String::new();
        for h in header.lines() {
            text.push_str(&format!("# {h}\n"));
        }
        for (_, l) in lines {
            text.push_str(&l);
            text.push('\n');
        }
        text
    }

    /// The variant it was made for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// How many positions it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Its positions (canonical forms) and entries.
    pub fn entries(&self) -> impl Iterator<Item = (&Position, &Entry)> {
        self.entries.iter()
    }

    /// Adds (or replaces) the entry of a canonical form.
    pub fn insert(&mut self, form: Position, entry: Entry) {
        self.entries.insert(form, entry);
    }

    /// The canonical form of `pos` and the symmetry to it.
    pub fn canonical(&self, pos: &Position) -> Option<(Position, canonical::Transform)> {
        self.canon.canonical(pos)
    }

    /// The entry for `pos`, its move mapped to `pos`: none if the book does not hold it (or
    /// `pos` has no piece in hand, or a claim pending).
    pub fn lookup(&self, pos: &Position) -> Option<Found> {
        if pos.claim_state() != quads_rules::ClaimState::None {
            return None;
        }
        let (form, t) = self.canon.canonical(pos)?;
        let e = self.entries.get(&form)?;
        Some(Found {
            value: e.value,
            mv: t.move_back(e.mv),
        })
    }

    /// [`Book::lookup`] for a game under `rules`: under `claim=announce` a winning placement
    /// is announced, so the move is legal there.
    pub fn lookup_in(&self, pos: &Position, rules: &Rules) -> Option<Found> {
        let found = self.lookup(pos)?;
        let mv = match found.mv {
            Move::Place {
                to,
                then: quads_rules::Then::Nothing,
            } if rules.claim == quads_rules::Claim::Announce
                && pos
                    .hand()
                    .is_some_and(|h| pos.board().completes(to, h, rules)) =>
            {
                Move::Place {
                    to,
                    then: quads_rules::Then::Quarto,
                }
            }
            mv => mv,
        };
        Some(Found { mv, ..found })
    }
}

impl fmt::Debug for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Book({}, {} positions)", self.rules, self.entries.len())
    }
}

impl Found {
    /// The value in words.
    pub fn describe(&self) -> String {
        describe(self.value)
    }
}
