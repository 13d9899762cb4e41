//! The exact solver: the value of a position under perfect play, and a best move.
//!
//! A negamax with alpha-beta over (placement, give) moves, built for speed:
//!
//! - **Incremental threats.** A node keeps, for every winning shape, the traits its pieces
//!   share, and for every empty square the pieces that would win there. Placing a piece
//!   updates the two to seven shapes through its square; "which gives are safe after this
//!   placement?" is then one OR over sixteen words and one lookup of the traits shared by
//!   the two-piece shapes through the square.
//! - **Only safe gives.** A give that lets the opponent win at once is never searched while a
//!   safe one exists, so a node never has to ask whether its piece wins: it cannot.
//! - **Win/draw/loss first.** The root is searched with the window (-1, 1), which only asks
//!   win, draw or loss and cuts as soon as the answer is known. Only a won or lost position is
//!   searched again, with a full window, for the number of placements to the end.
//! - **A transposition table** of two-entry buckets (one kept for the larger subtree, one
//!   always replaced), storing a bound, the best move and the number of empty squares.
//!   From 8 empty squares up its keys are canonical under the game's symmetries
//!   ([`crate::symmetry`]); nearer the leaves, Zobrist keys.
//! - **Move ordering**: the table's move first; then, below 9 empty squares, placements
//!   leaving the fewest safe gives first, and from there up every move by the opponent's
//!   options after it.
//! - **Threads** ([`Solver::with_threads`]) share the table, whose words are atomics; from 11
//!   empty squares up they split the search along the principal variation, and the main
//!   thread's replay of the root keeps the answer the one thread's.
//!
//! The files, one job each: `geometry.rs` (the board as the search keeps it, and the small
//! endgames), `table.rs` (the transposition table and its memory, with the solver's one
//! `unsafe`: a prefetch hint), `search.rs` (the negamax of one thread), `threads.rs` (how
//! helper threads split a search) and `bench.rs` (the benchmark's random positions). This
//! file is the public face: [`Solver`], [`Solution`] and the value's meaning.

mod bench;
mod geometry;
mod search;
mod table;
mod threads;

use std::time::Instant;

use quads_rules::{Move, Piece, PieceSet, Position, Rules, Square, Then};

use crate::symmetry::Symmetries;

pub use bench::random_position;
pub use table::Table;

use geometry::{all_wins, Geometry};
use geometry::{Turn, Window};
use search::Search;
use threads::{parallel_root, HELPERS_EMPTY};

/// A win, before subtracting the placements it takes.
pub const WIN: i32 = 1000;

/// A value in words: `win in N placements`, `draw`, `loss in N placements`, where N counts
/// both players' placements from now to the end under perfect play.
pub fn describe(value: i32) -> String {
    let n = WIN - value.abs() + 1;
    let s = if n == 1 { "" } else { "s" };
    match value {
        v if v > WIN / 2 => format!("win in {n} placement{s}"),
        v if v < -WIN / 2 => format!("loss in {n} placement{s}"),
        _ => "draw".to_owned(),
    }
}

/// The solver's answer for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// `WIN - placements` for a forced win (`WIN` wins with this placement), its negation for
    /// a forced loss, 0 for a draw.
    pub value: i32,
    /// A best move: the fastest win, the slowest loss, or a move that keeps the draw.
    pub mv: Move,
    /// Whether `value` counts placements exactly. When the deadline cut the second search
    /// short, `value` is only a sign (win or loss) and `mv` still wins or loses no sooner
    /// than it must.
    pub exact: bool,
}

impl Solution {
    /// The value in words (see [`describe`]).
    pub fn describe(&self) -> String {
        if self.exact {
            describe(self.value)
        } else if self.value > 0 {
            "win (the number of placements was not found in time)".to_owned()
        } else {
            "loss (the number of placements was not found in time)".to_owned()
        }
    }
}

/// When [`Solver::solve_within`] gives up (None: no such limit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The instant after which the search stops (the clock is read every 4,096 nodes).
    pub deadline: Option<Instant>,
    /// The number of nodes after which the search stops, counted as [`Solver::nodes`] counts
    /// them and checked when the clock would be (now and then, not at every node), so it may
    /// run over. Without a deadline, on one thread, the same limit stops the same search at
    /// the same node on any machine: a time limit the tests can reproduce. On several
    /// threads each checks its own count.
    pub nodes: Option<u64>,
}

/// The exact solver for one rule variant, with its table.
pub struct Solver {
    rules: Rules,
    geometry: Geometry,
    symmetries: Symmetries,
    table: Table,
    threads: usize,
    nodes: u64,
}

impl Solver {
    /// A solver for `rules` with a table of about `mebibytes` MiB, searching on one thread.
    /// Claims are solved as automatic: a player who sees a win takes it.
    pub fn new(rules: &Rules, mebibytes: usize) -> Solver {
        Solver {
            rules: Rules {
                claim: quads_rules::Claim::Auto,
                ..*rules
            },
            geometry: Geometry::new(rules),
            symmetries: Symmetries::new(rules),
            table: Table::new(mebibytes),
            threads: 1,
            nodes: 0,
        }
    }

    /// The exact move in `pos`: the fastest win, or the slowest loss, or one that keeps the
    /// draw; at the opening give (which the solver does not search: every piece keeps the
    /// draw) the first legal move. A puzzle's defence, in the terminal and in the browser.
    pub fn best_move(&mut self, pos: &Position, rules: &Rules) -> Option<Move> {
        match self.solve(pos, None, 0) {
            Some(s) => Some(s.mv),
            None => pos.legal_moves(rules).first().copied(),
        }
    }

    /// Searches on `threads` threads (at least one) that share the table, for positions with
    /// at least 11 empty squares (smaller searches are over before helpers would help). The
    /// value and the move found are the same as on one thread; the node count is the sum
    /// over the threads and varies from run to run.
    pub fn with_threads(mut self, threads: usize) -> Solver {
        self.threads = threads.max(1);
        self
    }

    /// Whether this solver solves `rules` (the shapes and traits agree; claims are solved
    /// as automatic).
    pub fn solves(&self, rules: &Rules) -> bool {
        self.rules.squares == rules.squares && self.rules.traits == rules.traits
    }

    /// Puts a value known from elsewhere into the table: `value` (as [`Solution::value`]
    /// counts it, from `pos`) is exact for `pos`, which has a piece in hand and at least 8
    /// empty squares. A later search that reaches `pos` or a position equal to it under the
    /// symmetries takes the value instead of searching (the book's entries, `quads solve
    /// --book`). Returns whether it was stored. The table is grown to its full size first, so
    /// a later search does not clear it by growing it.
    pub fn remember(&mut self, pos: &Position, value: i32) -> bool {
        let Some(hand) = pos.hand() else {
            return false;
        };
        let empty = pos.board().empty().len();
        if empty < search::SYMMETRY_EMPTY {
            return false;
        }
        self.table.fit(16);
        let key = self.symmetries.key(pos.board(), hand);
        self.table
            .slots()
            .put(key, value, table::EXACT, empty, table::NO_MOVE, 16);
        true
    }

    /// Forgets the table (for a new game).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Nodes searched by the last [`Solver::solve`] (on all its threads).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Solves `pos` (which must have a piece in hand and a game in progress), or returns
    /// None if `deadline` passes first. Among equally good moves it picks the first in an
    /// order shuffled by `seed`.
    pub fn solve(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
        seed: u64,
    ) -> Option<Solution> {
        let limits = Limits {
            deadline,
            nodes: None,
        };
        self.solve_within(pos, limits, seed)
    }

    /// [`Solver::solve`], giving up at whichever of `limits` comes first.
    pub fn solve_within(&mut self, pos: &Position, limits: Limits, seed: u64) -> Option<Solution> {
        let deadline = limits.deadline;
        self.nodes = 0;
        let hand = pos.hand()?;
        let board = pos.board();
        let place = |to: Square, then: Then| Move::Place { to, then };
        let wins = board.threats(&self.rules).winning_squares(hand);
        if let Some(to) = wins.iter().next() {
            return Some(Solution {
                value: WIN,
                mv: place(to, Then::Nothing),
                exact: true,
            });
        }
        let remaining = pos.remaining().0;
        if remaining == 0 {
            let to = board.empty().iter().next()?;
            return Some(Solution {
                value: 0,
                mv: place(to, Then::Nothing),
                exact: true,
            });
        }
        let node = self.geometry.node(board);
        let root_empty = board.empty().len();
        self.table.fit(root_empty);
        let mut moves = Vec::new();
        for sq in board.empty().iter() {
            let after = self.geometry.place(&node, sq.index(), hand.index());
            let safe = PieceSet(remaining & !all_wins(&after));
            moves.extend(safe.iter().map(|p| (sq.index() as u8, p.index() as u8)));
        }
        let as_move = |(sq, p): (u8, u8)| {
            place(
                Square::new(sq).expect("a square"),
                Then::Give(Piece::new(p).expect("a piece")),
            )
        };
        if moves.is_empty() {
            // Every give wins for the opponent.
            let to = board.empty().iter().next()?;
            let p = PieceSet(remaining).iter().next()?;
            return Some(Solution {
                value: -(WIN - 1),
                mv: place(to, Then::Give(p)),
                exact: true,
            });
        }
        crate::search::shuffle(&mut moves, seed);
        // The opponent's fewest options first, as inside the tree; ties stay shuffled.
        let g = &self.geometry;
        moves.sort_by_cached_key(|&(sq, p)| {
            let after = g.place(&node, usize::from(sq), hand.index());
            let p = usize::from(p);
            g.options(&g.exposure(&after), p, remaining & !(1 << p))
        });
        let threads = if root_empty >= HELPERS_EMPTY {
            self.threads
        } else {
            1
        };
        let table = self.table.slots();
        let (geometry, symmetries) = (&self.geometry, &self.symmetries);
        let mut nodes = 0;
        let mut root = |moves: &[(u8, u8)], alpha: i32, beta: i32| {
            // What is left of the node limit after the searches before this one.
            let max_nodes = limits.nodes.map_or(u64::MAX, |n| n.saturating_sub(nodes));
            let search = || Search {
                geometry,
                symmetries,
                table,
                nodes: 0,
                max_nodes,
                deadline,
                aborted: false,
                root_empty,
            };
            let turn = Turn {
                node: &node,
                hand: hand.index(),
                remaining,
                ply: 0,
            };
            let (found, n) = parallel_root(search, threads, turn, moves, Window::new(alpha, beta));
            nodes += n;
            found
        };
        // Win, draw or loss.
        let found = root(&moves, -1, 1);
        let Some((v, mv)) = found else {
            self.nodes = nodes;
            return None;
        };
        if v == 0 {
            self.nodes = nodes;
            return Some(Solution {
                value: 0,
                mv: as_move(mv),
                exact: true,
            });
        }
        // How many placements: the full window, the move found first. (Mate-distance pruning
        // in `negamax` keeps this cheap once a win is found.)
        let i = moves.iter().position(|&m| m == mv).expect("a root move");
        moves[..=i].rotate_right(1);
        let exact = root(&moves, -(WIN + 1), WIN + 1);
        self.nodes = nodes;
        Some(match exact {
            Some((value, mv)) => Solution {
                value,
                mv: as_move(mv),
                exact: true,
            },
            None => Solution {
                value: v.signum(),
                mv: as_move(mv),
                exact: false,
            },
        })
    }
}
