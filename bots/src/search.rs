//! Depth-limited alpha-beta search for the middle levels (the exact solver, with its table and
//! symmetries, is [`crate::solver`]).
//!
//! The search always plays under automatic claims: a bot claims every win it sees, so an
//! opponent's overlooked win is the only thing `claim=announce` adds, and the driver claims
//! that before searching. Two facts of the game keep the tree small: a placement that wins is
//! taken at once, and a give that lets the opponent win at once is never searched while a
//! safe give exists (if none exists, the opponent wins next move).

use std::time::Instant;

use quads_rules::{Board, Claim, Move, Piece, PieceSet, Position, Rules, Square, Then};

pub use crate::solver::WIN;

/// A search's answer: the value for the side to move and the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// `WIN - placements` for a forced win, its negation for a forced loss, 0 otherwise
    /// (a draw for the solver; unknown for a depth-limited search).
    pub value: i32,
    /// The best move.
    pub mv: Move,
}

/// An alpha-beta window: values at most `alpha` or at least `beta` are bounds only.
#[derive(Clone, Copy)]
struct Window {
    alpha: i32,
    beta: i32,
}

/// Search state: limits and counters.
pub struct Search {
    rules: Rules,
    deadline: Option<Instant>,
    nodes: u64,
    aborted: bool,
}

impl Search {
    /// A search under `rules` (claims are treated as automatic).
    pub fn new(rules: &Rules, deadline: Option<Instant>) -> Search {
        Search {
            rules: Rules {
                claim: Claim::Auto,
                ..*rules
            },
            deadline,
            nodes: 0,
            aborted: false,
        }
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the deadline cut the search short (its answer is then not to be trusted).
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// The value of placing `hand` with `remaining` to give, `depth` turns deep (None: no
    /// limit), `ply` placements from the root, within `w`.
    fn negamax(
        &mut self,
        board: &Board,
        hand: Piece,
        remaining: PieceSet,
        (depth, ply): (Option<u32>, i32),
        w: Window,
    ) -> i32 {
        let (mut alpha, beta) = (w.alpha, w.beta);
        self.nodes += 1;
        if self.nodes & 4095 == 0 && self.deadline.is_some_and(|d| Instant::now() > d) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let threats = board.threats(&self.rules);
        if !threats.winning_squares(hand).is_empty() {
            return WIN - ply;
        }
        if remaining.is_empty() {
            return 0; // the last placement fills the board without a win
        }
        if depth == Some(0) {
            return 0;
        }
        let mut best = -WIN;
        'squares: for sq in board.empty().iter() {
            let mut after = *board;
            after.place(sq, hand);
            let unsafe_pieces = after.threats(&self.rules).winning_pieces();
            let safe = remaining.intersect(unsafe_pieces.complement());
            if safe.is_empty() {
                // Whatever is given, the opponent wins on its next placement.
                best = best.max(-(WIN - ply - 1));
                continue;
            }
            for p in safe.iter() {
                let v = -self.negamax(
                    &after,
                    p,
                    remaining.without(p),
                    (depth.map(|d| d - 1), ply + 1),
                    Window {
                        alpha: -beta,
                        beta: -alpha,
                    },
                );
                if v > best {
                    best = v;
                }
                if best > alpha {
                    alpha = best;
                }
                if alpha >= beta {
                    break 'squares;
                }
            }
        }
        best
    }

    /// The best move in `pos` searching `depth` turns (None: to the end), or None if the
    /// deadline passed first. Ties go to the first move in a shuffled order (`order` seeds it).
    pub fn best(&mut self, pos: &Position, depth: Option<u32>, order: u64) -> Option<Found> {
        let hand = pos.hand()?;
        let board = pos.board();
        let remaining = pos.remaining();
        let wins = board.threats(&self.rules).winning_squares(hand);
        if let Some(to) = wins.iter().next() {
            return Some(Found {
                value: WIN,
                mv: Move::Place {
                    to,
                    then: Then::Nothing,
                },
            });
        }
        if remaining.is_empty() {
            let to = board.empty().iter().next()?;
            return Some(Found {
                value: 0,
                mv: Move::Place {
                    to,
                    then: Then::Nothing,
                },
            });
        }
        let (mut candidates, any_safe) = safe_moves(board, hand, remaining, &self.rules);
        if !any_safe {
            let (to, p) = *candidates.first()?;
            return Some(Found {
                value: -(WIN - 1),
                mv: Move::Place {
                    to,
                    then: Then::Give(p),
                },
            });
        }
        shuffle(&mut candidates, order);
        let (mut alpha, beta) = (-WIN - 1, WIN + 1);
        let mut best = None;
        for (sq, p) in candidates {
            let mut after = *board;
            after.place(sq, hand);
            let v = -self.negamax(
                &after,
                p,
                remaining.without(p),
                (depth.map(|d| d.saturating_sub(1)), 1),
                Window {
                    alpha: -beta,
                    beta: -alpha,
                },
            );
            if self.aborted {
                return None;
            }
            if best.is_none() || v > alpha {
                alpha = v;
                best = Some(Found {
                    value: v,
                    mv: Move::Place {
                        to: sq,
                        then: Then::Give(p),
                    },
                });
            }
        }
        best
    }
}

/// The moves worth searching: each placement with the gives that do not let the opponent win
/// at once, and `true`; if no placement has such a give, every (placement, give) and `false`.
/// (A placement that wins is taken before this is asked.)
pub fn safe_moves(
    board: &Board,
    hand: Piece,
    remaining: PieceSet,
    rules: &Rules,
) -> (Vec<(Square, Piece)>, bool) {
    let mut safe = Vec::new();
    let mut all = Vec::new();
    for sq in board.empty().iter() {
        let mut after = *board;
        after.place(sq, hand);
        let unsafe_pieces = after.threats(rules).winning_pieces();
        for p in remaining.iter() {
            all.push((sq, p));
            if !unsafe_pieces.contains(p) {
                safe.push((sq, p));
            }
        }
    }
    if safe.is_empty() {
        (all, false)
    } else {
        (safe, true)
    }
}

/// A Fisher–Yates shuffle driven by a SplitMix64 stream from `seed`.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut s = seed;
    for i in (1..items.len()).rev() {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        let j = ((u128::from(z) * (i as u128 + 1)) >> 64) as usize;
        items.swap(i, j);
    }
}
