//! Alpha-beta search: depth-limited minimax for the middle levels, and an exact solver (no
//! depth limit, a transposition table) for endgames.
//!
//! The search always plays under automatic claims: a bot claims every win it sees, so an
//! opponent's overlooked win is the only thing `claim=announce` adds, and the driver claims
//! that before searching. Two facts of the game keep the tree small: a placement that wins is
//! taken at once, and a give that lets the opponent win at once is never searched while a
//! safe give exists (if none exists, the opponent wins next move).

use std::time::Instant;

use quads_rules::{Board, Claim, Move, Piece, PieceSet, Position, Rules, Square, Then};

use crate::symmetry::Symmetries;

/// Canonical (symmetry-reduced) table keys are used with at least this many empty squares.
const SYMMETRY_EMPTY: u32 = 5;

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

/// A search's answer: the value for the side to move and the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// `WIN - placements` for a forced win, its negation for a forced loss, 0 otherwise
    /// (a draw for the solver; unknown for a depth-limited search).
    pub value: i32,
    /// The best move.
    pub mv: Move,
}

/// Search state: limits, the transposition table, counters.
pub struct Search<'a> {
    rules: Rules,
    /// Canonical keys for the table, so that symmetric positions share an entry.
    symmetries: Option<Symmetries>,
    deadline: Option<Instant>,
    nodes: u64,
    aborted: bool,
    table: Option<&'a mut Table>,
}

/// A transposition table of fixed size: position hash to (value, bound).
pub struct Table {
    slots: Vec<(u64, i16, u8)>,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

impl Table {
    /// A table of about `mebibytes` MiB.
    pub fn new(mebibytes: usize) -> Table {
        let n = (mebibytes << 20) / std::mem::size_of::<(u64, i16, u8)>();
        Table {
            slots: vec![(0, 0, 0); n.max(1024).next_power_of_two()],
        }
    }

    /// Forgets every entry (the rules may have changed).
    pub fn clear(&mut self) {
        self.slots.fill((0, 0, 0));
    }

    fn get(&self, key: u64) -> Option<(i32, u8)> {
        let (k, v, flag) = self.slots[key as usize & (self.slots.len() - 1)];
        (k == key && flag != 0).then_some((i32::from(v), flag))
    }

    fn put(&mut self, key: u64, value: i32, flag: u8) {
        let n = self.slots.len();
        self.slots[key as usize & (n - 1)] = (key, value as i16, flag);
    }
}

/// SplitMix64: the random numbers of the Zobrist tables, made at compile time.
const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `ZOBRIST[square][piece]` for pieces on the board, `ZOBRIST[16][piece]` for the hand.
const ZOBRIST: [[u64; 16]; 17] = {
    let mut table = [[0u64; 16]; 17];
    let mut i = 0;
    while i < 17 * 16 {
        table[i / 16][i % 16] = splitmix((i as u64).wrapping_mul(0x632b_e59b_d9b4_e019));
        i += 1;
    }
    table
};

/// A Zobrist hash of a board and the piece in hand: independent random numbers per (square,
/// piece) and per piece in hand, so no two positions collide by construction. (An earlier
/// hash mixed the hand and the piece on A1 linearly and let them trade places unnoticed.)
fn key(board: &Board, hand: Piece) -> u64 {
    board
        .occupied()
        .iter()
        .fold(ZOBRIST[16][hand.index()], |h, sq| {
            h ^ ZOBRIST[sq.index()][board.piece_at(sq).expect("occupied").index()]
        })
}

impl<'a> Search<'a> {
    /// A search under `rules` (claims are treated as automatic).
    pub fn new(
        rules: &Rules,
        deadline: Option<Instant>,
        table: Option<&'a mut Table>,
    ) -> Search<'a> {
        Search {
            rules: Rules {
                claim: Claim::Auto,
                ..*rules
            },
            symmetries: table.as_ref().map(|_| Symmetries::new(rules)),
            deadline,
            nodes: 0,
            aborted: false,
            table,
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

    /// The value of placing `hand` with `remaining` to give, `depth` turns deep (None: no limit).
    #[expect(
        clippy::too_many_arguments,
        reason = "the recursion's state, passed by value for speed"
    )]
    fn negamax(
        &mut self,
        board: &Board,
        hand: Piece,
        remaining: PieceSet,
        depth: Option<u32>,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
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
        let key = match &self.symmetries {
            // Near the leaves a canonical key costs more than the sharing saves.
            Some(sym) if board.empty().len() >= SYMMETRY_EMPTY => sym.key(board, hand),
            _ => key(board, hand),
        };
        let original_alpha = alpha;
        if let Some(table) = self.table.as_deref() {
            if let Some((stored, flag)) = table.get(key) {
                let v = from_table(stored, ply);
                match flag {
                    EXACT => return v,
                    LOWER if v >= beta => return v,
                    UPPER if v <= alpha => return v,
                    _ => {}
                }
            }
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
                    depth.map(|d| d - 1),
                    ply + 1,
                    -beta,
                    -alpha,
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
        if !self.aborted {
            if let Some(table) = self.table.as_deref_mut() {
                let flag = if best <= original_alpha {
                    UPPER
                } else if best >= beta {
                    LOWER
                } else {
                    EXACT
                };
                table.put(key, to_table(best, ply), flag);
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
                depth.map(|d| d.saturating_sub(1)),
                1,
                -beta,
                -alpha,
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

/// Win values count placements from the root; the table stores them from the node.
fn to_table(v: i32, ply: i32) -> i32 {
    if v > WIN / 2 {
        v + ply
    } else if v < -WIN / 2 {
        v - ply
    } else {
        v
    }
}

fn from_table(v: i32, ply: i32) -> i32 {
    if v > WIN / 2 {
        v - ply
    } else if v < -WIN / 2 {
        v + ply
    } else {
        v
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
