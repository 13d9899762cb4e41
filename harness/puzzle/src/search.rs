//! Finding a day's puzzle, and proving one again.

use quads_bots::solver::{random_position, Solver, WIN};
use quads_rules::{Move, Player, Position, Rules, Then};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{Date, Level, Puzzle, PuzzleError};

/// Positions drawn before a day's search gives up. Quads, classic and two-trait variants find
/// a hard puzzle within a few hundred; one-trait variants needed 5,971 and 92,831 (438 s) for
/// one hard puzzle (docs/play.md), so there the search stops with an error instead.
pub(crate) const MAX_ATTEMPTS: u32 = 5_000;

/// The solver's table, in MiB: the positions solved here have at most 12 empty squares.
const TABLE_MIB: usize = 16;

/// A stable 64-bit hash (FNV-1a) of the words that name a puzzle: the seed of its search is the
/// same on every machine and with every compiler.
fn seed(words: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in words {
        for &b in w.as_bytes().iter().chain(b"|") {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// The value of a solution for a win in `placements` placements.
fn win_in(placements: u32) -> i32 {
    WIN - placements as i32 + 1
}

/// The empty squares the drawn positions have, per level: enough room for the win, few enough
/// that a whole puzzle is proven in milliseconds.
///
/// Measured over five days each (milliseconds per puzzle, made then proven again), the ranges
/// 4-8, 5-9 and 7-10 empty squares made hard puzzles in 12 ms (Quads), 10 ms (classic) and
/// 41 ms (two traits); 9-11 for hard took 32 ms, 707 ms and 37 s (3,322 positions drawn).
fn empty_squares(level: Level) -> std::ops::RangeInclusive<u32> {
    match level {
        Level::Easy => 4..=8,
        Level::Medium => 5..=9,
        Level::Hard => 7..=10,
    }
}

/// What the moves of a position lead to, for the side to move.
#[derive(Debug, Default)]
struct Census {
    /// The winning moves (up to two: a second one is enough to reject).
    winning: Vec<Move>,
    /// Moves whose give looks safe but that lose.
    tempting: u32,
    /// Legal moves.
    moves: u32,
}

/// The value of the position after `mv` for the player who made it: a win, a draw or a loss
/// (`WIN - n`, 0, `n - WIN`), the game's result if it ended.
fn value_after(solver: &mut Solver, pos: &Position, mv: Move, rules: &Rules) -> i32 {
    let next = pos.play(mv, rules).expect("a legal move");
    match next.outcome(rules) {
        Some(quads_rules::Outcome::Win(p)) if p == pos.to_move() => WIN,
        Some(quads_rules::Outcome::Win(_)) => -WIN,
        Some(quads_rules::Outcome::Draw) => 0,
        None => {
            let theirs = solver.solve(&next, None, 0).expect("no deadline").value;
            -theirs
        }
    }
}

/// Sorts out the moves of `pos`, stopping at a second winning move.
fn census(solver: &mut Solver, pos: &Position, rules: &Rules) -> Census {
    let mut c = Census::default();
    for mv in pos.legal_moves(rules) {
        c.moves += 1;
        let value = value_after(solver, pos, mv, rules);
        if value > 0 {
            c.winning.push(mv);
            if c.winning.len() > 1 {
                return c;
            }
        } else if value < 0 {
            // A give the opponent cannot win with at once looks safe.
            let looks_safe = match mv {
                Move::Place {
                    to,
                    then: Then::Give(p),
                } => {
                    let mut after = *pos.board();
                    after.place(to, pos.hand().expect("a piece in hand"));
                    after.threats(rules).winning_squares(p).is_empty()
                }
                _ => false,
            };
            if looks_safe {
                c.tempting += 1;
            }
        }
    }
    c
}

/// The line from `pos` to the end under best play: the fastest win, the slowest loss.
fn best_line(solver: &mut Solver, mut pos: Position, rules: &Rules) -> Vec<String> {
    let mut line = Vec::new();
    while pos.outcome(rules).is_none() {
        let mv = solver.solve(&pos, None, 0).expect("no deadline").mv;
        line.push(mv.to_string());
        pos = pos.play(mv, rules).expect("the solver's move is legal");
    }
    line
}

fn side(p: Player) -> &'static str {
    match p {
        Player::First => "first",
        Player::Second => "second",
    }
}

/// Draws positions from the day's seed until one is a puzzle of `level`.
pub(crate) fn find(date: Date, rules: &Rules, level: Level) -> Result<Puzzle, PuzzleError> {
    let day = date.to_string();
    let spec = rules.to_string();
    let mut rng = ChaCha8Rng::seed_from_u64(seed(&[&day, &spec, level.name()]));
    let mut solver = Solver::new(rules, TABLE_MIB);
    let range = empty_squares(level);
    let wanted = win_in(level.placements());
    let mut attempts = 0;
    loop {
        if attempts == MAX_ATTEMPTS {
            return Err(PuzzleError::NotFound {
                rules: spec,
                level,
                date: day,
                attempts,
            });
        }
        attempts += 1;
        let span = u64::from(range.end() - range.start() + 1);
        let empty = range.start() + (rng.next_u64() % span) as u32;
        let pos = random_position(rules, 16 - empty, rng.next_u64());
        let root = solver.solve(&pos, None, 0).expect("no deadline");
        if root.value != wanted {
            continue;
        }
        let c = census(&mut solver, &pos, rules);
        if c.winning.len() != 1 {
            continue;
        }
        let mv = c.winning[0];
        let mut solution = vec![mv.to_string()];
        solution.extend(best_line(
            &mut solver,
            pos.play(mv, rules).expect("legal"),
            rules,
        ));
        return Ok(Puzzle {
            date: day,
            level,
            rules: spec,
            position: pos.to_string(),
            to_move: side(pos.to_move()),
            placements: level.placements(),
            solution,
            moves: c.moves,
            tempting: c.tempting,
            attempts,
        });
    }
}

/// Whether `mv` is the puzzle's winning move.
pub fn is_win(puzzle: &Puzzle, mv: Move) -> bool {
    mv == puzzle.answer()
}

/// Why a puzzle is not what it says.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Unproven {
    /// Its position cannot arise under its rules.
    #[error("impossible position: {0}")]
    Impossible(quads_rules::Impossible),
    /// Its position has no piece in hand.
    #[error("no piece in hand")]
    NoPieceInHand,
    /// The solver finds another value.
    #[error("the position is a {found}, not a win in {placements}")]
    NotThatWin {
        /// The value found, in words.
        found: String,
        /// The placements the puzzle says.
        placements: u32,
    },
    /// Its answer is not the only winning move.
    #[error("winning moves: {}", .0.join(", "))]
    WinningMoves(Vec<String>),
    /// Its counts are wrong.
    #[error(
        "{moves} moves, {tempting} tempting; the puzzle says {said_moves} and {said_tempting}"
    )]
    Counts {
        /// Moves found.
        moves: u32,
        /// Tempting moves found.
        tempting: u32,
        /// Moves it says.
        said_moves: u32,
        /// Tempting moves it says.
        said_tempting: u32,
    },
    /// A move of its solution does not parse.
    #[error("{0}")]
    BadMove(quads_rules::ParseMoveError),
    /// A move of its solution is not legal.
    #[error("{0}")]
    Illegal(quads_rules::IllegalMove),
    /// The solution does not end in the mover's win.
    #[error("the solution does not end in the mover's win")]
    NoWin,
    /// The solution takes another number of placements.
    #[error("the solution takes {took} placements, not {placements}")]
    Placements {
        /// What it takes.
        took: u32,
        /// What the puzzle says.
        placements: u32,
    },
}

/// Proves `puzzle` again with a fresh solver: its value is a win in exactly its placements, its
/// first move is the only winning one, the tempting count is right, and its solution is a legal
/// line that the side to move wins with its last placement, in that many placements.
pub fn verify(puzzle: &Puzzle) -> Result<(), Unproven> {
    let rules = puzzle.rules();
    let pos = puzzle.position();
    pos.check(&rules).map_err(Unproven::Impossible)?;
    let mut solver = Solver::new(&rules, TABLE_MIB);
    let root = solver.solve(&pos, None, 0).ok_or(Unproven::NoPieceInHand)?;
    if root.value != win_in(puzzle.placements) {
        return Err(Unproven::NotThatWin {
            found: quads_bots::solver::describe(root.value),
            placements: puzzle.placements,
        });
    }
    let c = census(&mut solver, &pos, &rules);
    if c.winning != [puzzle.answer()] {
        return Err(Unproven::WinningMoves(
            c.winning.iter().map(|m| m.to_string()).collect(),
        ));
    }
    if (c.moves, c.tempting) != (puzzle.moves, puzzle.tempting) {
        return Err(Unproven::Counts {
            moves: c.moves,
            tempting: c.tempting,
            said_moves: puzzle.moves,
            said_tempting: puzzle.tempting,
        });
    }
    let mut at = pos;
    let mut placements = 0;
    for text in &puzzle.solution {
        let mv: Move = text.parse().map_err(Unproven::BadMove)?;
        at = at.play(mv, &rules).map_err(Unproven::Illegal)?;
        if matches!(mv, Move::Place { .. }) {
            placements += 1;
        }
    }
    if at.outcome(&rules) != Some(quads_rules::Outcome::Win(pos.to_move())) {
        return Err(Unproven::NoWin);
    }
    if placements != puzzle.placements {
        return Err(Unproven::Placements {
            took: placements,
            placements: puzzle.placements,
        });
    }
    Ok(())
}
