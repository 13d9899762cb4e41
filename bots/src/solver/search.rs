//! The negamax itself: one thread's [`Search`] of a node ([`Turn`]) within a [`Window`],
//! with the table probe, the safe-give filter, the two move orders and the store. What the
//! threads add on top (splitting a node's moves between them) is in `threads.rs`; the board
//! updates and the endgame below [`ENDGAME_EMPTY`] empty squares are in `geometry.rs`.

use std::time::Instant;

use crate::symmetry::Symmetries;

use super::geometry::{all_wins, Geometry, Turn, Window, ZOBRIST};
use super::table::{from_table, to_table, Slots, EXACT, LOWER, NO_MOVE, UPPER};
use super::WIN;

/// Canonical (symmetry-reduced) table keys are used with at least this many empty squares.
pub(super) const SYMMETRY_EMPTY: u32 = 8;

/// Nodes with fewer empty squares than this do not use the table: they are cheaper to search
/// again than a table probe's cache miss.
const TABLE_EMPTY: u32 = 5;

/// Nodes with at least this many empty squares order every move by the opponent's options
/// ([`Search::scored_moves`]); below, by square.
const SCORED_EMPTY: u32 = 9;

/// Nodes with at most this many empty squares are searched by [`Geometry::endgame`].
const ENDGAME_EMPTY: u32 = 4;

/// What [`Search::prepare`] finds.
pub(super) enum Prepared {
    /// The node's value, without a search.
    Value(i32),
    /// The moves to search.
    Moves(Moves),
}

/// A node's safe moves by square, `squares[..n]` (square, safe gives), in order; the table's
/// move (or `NO_MOVE`) is the first square's. `key` is the node's table key.
pub(super) struct Moves {
    pub(super) key: u64,
    pub(super) squares: [(u8, u16); 16],
    pub(super) n: usize,
    pub(super) first: u8,
}

/// A root search's best value and move (square, piece); None if the deadline passed.
pub(super) type Found = Option<(i32, (u8, u8))>;

/// One thread's search: the shared geometry, symmetries and table, and its own counters.
pub(super) struct Search<'a> {
    pub(super) geometry: &'a Geometry,
    pub(super) symmetries: &'a Symmetries,
    pub(super) table: Slots<'a>,
    pub(super) nodes: u64,
    /// The search stops at this many nodes ([`Limits::nodes`](super::Limits::nodes)).
    pub(super) max_nodes: u64,
    pub(super) deadline: Option<Instant>,
    pub(super) aborted: bool,
    /// The empty squares at the root.
    pub(super) root_empty: u32,
}

impl Search<'_> {
    fn key(&self, t: Turn<'_>, empty: u32) -> u64 {
        if empty >= SYMMETRY_EMPTY {
            self.symmetries
                .key_from_parts(t.node.occupied, t.node.traits, t.hand as u8)
        } else {
            t.node.hash ^ ZOBRIST[16][t.hand]
        }
    }

    /// The value of placing `t.hand` (which wins nowhere) with `t.remaining` (not empty) to
    /// give.
    pub(super) fn negamax(&mut self, t: Turn<'_>, w: Window) -> i32 {
        self.nodes += 1;
        if self.nodes & 0xfff == 0
            && (self.nodes >= self.max_nodes || self.deadline.is_some_and(|d| Instant::now() > d))
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        // The window against what is still possible: the piece in hand wins nowhere, so at
        // best the side to move wins with its next placement but one, and at worst the
        // opponent wins with its next. (Only windows about wins and losses reach these, as
        // when the root counts the placements to a win.)
        let best_case = WIN - t.ply - 2;
        if best_case <= w.alpha {
            return best_case;
        }
        let worst_case = -(WIN - t.ply - 1);
        if worst_case >= w.beta {
            return worst_case;
        }
        let empty = t.empty();
        if empty <= ENDGAME_EMPTY {
            self.nodes -= 1;
            return self.geometry.endgame(t, w, &mut self.nodes);
        }
        let moves = match self.prepare(t, w) {
            Prepared::Value(v) => return v,
            Prepared::Moves(moves) => moves,
        };
        let squares = &moves.squares[..moves.n];
        let best = if empty >= SCORED_EMPTY {
            self.scored_moves(t, w, squares, moves.first)
        } else {
            self.moves_by_square(t, w, squares, moves.first)
        };
        self.store(moves.key, t, w, best);
        best.0
    }

    /// A node's safe moves by square, in the order to search them (the table's move first),
    /// with its table key (0 below [`TABLE_EMPTY`]); or its value, when that needs no search:
    /// the table's, or a loss or draw decided by the safe gives.
    pub(super) fn prepare(&mut self, t: Turn<'_>, w: Window) -> Prepared {
        let g = &self.geometry;
        let Turn {
            node,
            hand,
            remaining,
            ply,
        } = t;
        let empty_squares = !node.occupied;
        let empty = empty_squares.count_ones();
        let use_table = empty >= TABLE_EMPTY;
        let key = if use_table {
            let key = self.key(t, empty);
            self.table.prefetch(key);
            key
        } else {
            0
        };
        // Which placements leave a safe give, and which gives.
        let total = all_wins(node);
        let mut squares = [(0u8, 0u16); 16];
        let mut n = 0;
        let mut bits = empty_squares;
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let safe = remaining & !g.unsafe_after(node, sq, hand, total);
            if safe != 0 {
                squares[n] = (sq as u8, safe);
                n += 1;
            }
        }
        if n == 0 {
            // Whatever is given, the opponent wins with its next placement.
            return Prepared::Value(-(WIN - ply - 1));
        }
        if remaining.count_ones() == 1 {
            // A safe last give: the opponent fills the last square without a win.
            return Prepared::Value(0);
        }
        // Placements that leave the fewest safe gives first: forcing moves decide quickest,
        // both when they win and when they are refuted. (Measured: 8 to 10 times fewer nodes
        // than board order on 5-placed positions; the opposite order is far worse.)
        squares[..n].sort_unstable_by_key(|&(_, safe)| safe.count_ones());

        let mut first = NO_MOVE;
        if use_table {
            if let Some(e) = self.table.get(key) {
                let v = from_table(e.value, ply);
                match e.bound {
                    EXACT => return Prepared::Value(v),
                    LOWER if v >= w.beta => return Prepared::Value(v),
                    UPPER if v <= w.alpha => return Prepared::Value(v),
                    _ => {}
                }
                first = e.mv;
            }
        }
        // The table's move first, if it is a safe move here (a symmetric position's move may
        // not be).
        if first != NO_MOVE {
            let (sq, p) = (first >> 4, first & 15);
            if let Some(i) = squares[..n]
                .iter()
                .position(|&(s, safe)| s == sq && safe & (1 << p) != 0)
            {
                squares[..=i].rotate_right(1);
            } else {
                first = NO_MOVE;
            }
        }
        Prepared::Moves(Moves {
            key,
            squares,
            n,
            first,
        })
    }

    /// Stores a node's value in the table under `key` (if it uses the table and the search
    /// was not cut short): `best`, (value, move), searched with the window `w`.
    pub(super) fn store(&mut self, key: u64, t: Turn<'_>, w: Window, best: (i32, u8)) {
        let empty = t.empty();
        if empty >= TABLE_EMPTY && !self.aborted {
            let (best, best_move) = best;
            let bound = if best <= w.alpha {
                UPPER
            } else if best >= w.beta {
                LOWER
            } else {
                EXACT
            };
            let live = self.root_empty;
            self.table
                .put(key, to_table(best, t.ply), bound, empty, best_move, live);
        }
    }

    /// Searches the moves square by square, in the order of `squares` (the table's move,
    /// already at the front, first); returns the best value and move.
    fn moves_by_square(
        &mut self,
        t: Turn<'_>,
        w: Window,
        squares: &[(u8, u16)],
        first: u8,
    ) -> (i32, u8) {
        let mut best = Best::new(w.alpha);
        'squares: for (i, &(sq, safe)) in squares.iter().enumerate() {
            let after = self.geometry.place(t.node, usize::from(sq), t.hand);
            // The table's give first (it is on the first square), then the rest.
            let lead = if i == 0 && first != NO_MOVE {
                1u16 << (first & 15)
            } else {
                0
            };
            for mut gives in [lead, safe & !lead] {
                while gives != 0 {
                    let p = gives.trailing_zeros() as usize;
                    gives &= gives - 1;
                    let v = -self.negamax(t.child(&after, p), Window::new(-w.beta, -best.alpha));
                    if best.update(v, (sq << 4) | p as u8, w.beta) {
                        break 'squares;
                    }
                }
            }
        }
        (best.value, best.mv)
    }

    /// Searches every (placement, give) in the order of the opponent's options: the number
    /// of (placement, safe give) pairs it would have, fewest first, the table's move before
    /// all. Costs about a hundred times a node's own work, so it is used only high in the
    /// tree, where the first few moves decide most cut-offs badly otherwise (measured on a
    /// 2-placed Quads position: half the nodes, half the time).
    fn scored_moves(
        &mut self,
        t: Turn<'_>,
        w: Window,
        squares: &[(u8, u16)],
        first: u8,
    ) -> (i32, u8) {
        let mut moves = [(0u32, 0u8, 0u8); 240];
        let m = self.geometry.scored_order(t, squares, first, &mut moves);
        let mut best = Best::new(w.alpha);
        for &(_, _, mv) in &moves[..m] {
            let (sq, p) = (usize::from(mv >> 4), usize::from(mv & 15));
            let after = self.geometry.place(t.node, sq, t.hand);
            let v = -self.negamax(t.child(&after, p), Window::new(-w.beta, -best.alpha));
            if best.update(v, mv, w.beta) {
                break;
            }
        }
        (best.value, best.mv)
    }

    /// Searches the root `t`'s moves (ply 0) within `w`; the best value and move, or None if
    /// the deadline passed.
    pub(super) fn root(&mut self, t: Turn<'_>, moves: &[(u8, u8)], w: Window) -> Found {
        let (mut alpha, beta) = (w.alpha, w.beta);
        let mut best = None;
        for &(sq, p) in moves {
            let after = self.geometry.place(t.node, usize::from(sq), t.hand);
            let child = t.child(&after, usize::from(p));
            let v = if child.remaining == 0 {
                0
            } else {
                -self.negamax(child, Window::new(-beta, -alpha))
            };
            if self.aborted {
                return None;
            }
            if best.is_none() || v > alpha {
                alpha = alpha.max(v);
                best = Some((v, (sq, p)));
                if v >= beta {
                    break;
                }
            }
        }
        best
    }
}

/// The best move of a node so far, and the window's lower end it raises.
struct Best {
    value: i32,
    mv: u8,
    alpha: i32,
}

impl Best {
    fn new(alpha: i32) -> Best {
        Best {
            value: -(WIN + 1),
            mv: NO_MOVE,
            alpha,
        }
    }

    /// Takes move `mv` of value `v` if it is better; true when it cuts off (`v >= beta`).
    #[inline(always)]
    fn update(&mut self, v: i32, mv: u8, beta: i32) -> bool {
        if v > self.value {
            self.value = v;
            self.mv = mv;
            if v > self.alpha {
                self.alpha = v;
                return v >= beta;
            }
        }
        false
    }
}
