//! The board as the search keeps it ([`Node`]) and the variant's shapes arranged to update it
//! ([`Geometry`]): placing a piece, which gives are safe after a placement, the opponent's
//! options that order the moves, and the small endgames searched without table or ordering.
//! This is the solver's inner loop; it knows nothing of the table or of threads.

use quads_rules::Rules;

use super::table::NO_MOVE;
use super::WIN;

/// `WIN_PIECES[key]`: the pieces that share a trait with every piece of a shape, where bit `i`
/// of `key` says "all have trait bit `i` set" and bit `4 + i` "all have it clear".
pub(super) const WIN_PIECES: [u16; 256] = {
    let mut table = [0u16; 256];
    let mut key = 0;
    while key < 256 {
        let mut set = 0u16;
        let mut p = 0;
        while p < 16 {
            let mut i = 0;
            while i < 4 {
                let has = (p >> i) & 1 == 1;
                if (has && key & (1 << i) != 0) || (!has && key & (1 << (4 + i)) != 0) {
                    set |= 1 << p;
                }
                i += 1;
            }
            p += 1;
        }
        table[key] = set;
        key += 1;
    }
    table
};

/// SplitMix64: the random numbers of the Zobrist tables, made at compile time.
const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `ZOBRIST[square][piece]` for pieces on the board, `ZOBRIST[16][piece]` for the hand:
/// independent random numbers, so that no two positions share a key by construction.
pub(super) const ZOBRIST: [[u64; 16]; 17] = {
    let mut table = [[0u64; 16]; 17];
    let mut i = 0;
    while i < 17 * 16 {
        table[i / 16][i % 16] = splitmix((i as u64).wrapping_mul(0x632b_e59b_d9b4_e019));
        i += 1;
    }
    table
};

/// A board as the search keeps it.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) occupied: u16,
    /// Squares holding a piece with trait bit `i` set (for canonical keys).
    pub(super) traits: [u16; 4],
    /// Per shape: the traits every piece on it shares, as a `WIN_PIECES` key (counting
    /// traits only; all of them while the shape is empty).
    pub(super) shared: [u8; 19],
    /// Per square: the pieces that would complete a winning shape there (0 when occupied).
    pub(super) wins: [u16; 16],
    /// Per empty square: the traits shared by the two pieces of each shape through it that
    /// holds two, or'ed. A piece placed there makes a threat with every piece that shares
    /// one of them with it: `WIN_PIECES[pairs & piece key]`.
    pub(super) pairs: [u8; 16],
    /// The Zobrist hash of the pieces on the board.
    pub(super) hash: u64,
}

/// A node to search: the board, the piece to place on it (which wins nowhere), the pieces
/// left to give (not empty where a search starts), and the placements made since the root.
#[derive(Clone, Copy)]
pub(super) struct Turn<'n> {
    pub(super) node: &'n Node,
    pub(super) hand: usize,
    pub(super) remaining: u16,
    pub(super) ply: i32,
}

impl<'n> Turn<'n> {
    /// The opponent's turn after this one placed its piece (giving `after`) and gave `p`.
    #[inline(always)]
    pub(super) fn child<'m>(&self, after: &'m Node, p: usize) -> Turn<'m> {
        Turn {
            node: after,
            hand: p,
            remaining: self.remaining & !(1 << p),
            ply: self.ply + 1,
        }
    }

    /// The number of empty squares.
    #[inline(always)]
    pub(super) fn empty(&self) -> u32 {
        (!self.node.occupied).count_ones()
    }
}

/// An alpha-beta window: values at most `alpha` or at least `beta` are bounds only.
#[derive(Clone, Copy)]
pub(super) struct Window {
    pub(super) alpha: i32,
    pub(super) beta: i32,
}

impl Window {
    #[inline(always)]
    pub(super) fn new(alpha: i32, beta: i32) -> Window {
        Window { alpha, beta }
    }
}

/// The variant's shapes, arranged for the search.
pub(super) struct Geometry {
    shapes: [u16; 19],
    /// The shapes through each square, as indices into `shapes`.
    through: [[u8; 7]; 16],
    through_len: [u8; 16],
    /// `piece_key[p]`: the `WIN_PIECES` key of piece `p` alone, counting traits only.
    piece_key: [u8; 16],
    /// The `WIN_PIECES` key bits that count.
    counting: u8,
}

impl Geometry {
    pub(super) fn new(rules: &Rules) -> Geometry {
        let mut shapes = [0u16; 19];
        let mut through = [[0u8; 7]; 16];
        let mut through_len = [0u8; 16];
        for (i, s) in rules.shapes().iter().enumerate() {
            shapes[i] = s.0;
            for sq in s.iter() {
                let n = &mut through_len[sq.index()];
                through[sq.index()][usize::from(*n)] = i as u8;
                *n += 1;
            }
        }
        let t = rules.traits.mask();
        let counting = t | (t << 4);
        let piece_key = std::array::from_fn(|p| (p as u8 | ((!p as u8 & 0xf) << 4)) & counting);
        Geometry {
            shapes,
            through,
            through_len,
            piece_key,
            counting,
        }
    }

    /// `node` with piece `p` placed on the empty square `sq` (which it does not win).
    #[inline(always)]
    pub(super) fn place(&self, node: &Node, sq: usize, p: usize) -> Node {
        let mut n = *node;
        let bit = 1u16 << sq;
        n.occupied |= bit;
        for (i, t) in n.traits.iter_mut().enumerate() {
            if p & (1 << i) != 0 {
                *t |= bit;
            }
        }
        n.wins[sq] = 0;
        n.hash ^= ZOBRIST[sq][p];
        n.pairs[sq] = 0;
        let key = self.piece_key[p];
        // Squares whose pairs lose a shape (it went from two pieces to three).
        let mut stale = 0u16;
        for &s in &self.through[sq][..usize::from(self.through_len[sq])] {
            let s = usize::from(s);
            let shared = n.shared[s] & key;
            n.shared[s] = shared;
            let on = self.shapes[s] & n.occupied;
            match on.count_ones() {
                2 => {
                    let mut open = self.shapes[s] ^ on;
                    while open != 0 {
                        n.pairs[open.trailing_zeros() as usize] |= shared;
                        open &= open - 1;
                    }
                }
                3 => {
                    let open = self.shapes[s] ^ on;
                    stale |= open;
                    if shared != 0 {
                        n.wins[open.trailing_zeros() as usize] |= WIN_PIECES[usize::from(shared)];
                    }
                }
                _ => {}
            }
        }
        while stale != 0 {
            let t = stale.trailing_zeros() as usize;
            stale &= stale - 1;
            let mut pairs = 0;
            for &s in &self.through[t][..usize::from(self.through_len[t])] {
                let s = usize::from(s);
                if (self.shapes[s] & n.occupied).count_ones() == 2 {
                    pairs |= n.shared[s];
                }
            }
            n.pairs[t] = pairs;
        }
        n
    }

    /// The pieces that would win somewhere after `p` is placed on the empty square `sq`
    /// (which it does not win), without building the new node. `total` is the union of
    /// `node.wins`.
    #[inline(always)]
    pub(super) fn unsafe_after(&self, node: &Node, sq: usize, p: usize, total: u16) -> u16 {
        base(node, sq, total) | WIN_PIECES[usize::from(node.pairs[sq] & self.piece_key[p])]
    }

    /// What a placement on each empty square of `node` exposes, for scoring many moves
    /// that share `node`.
    pub(super) fn exposure(&self, node: &Node) -> Exposure {
        let total = all_wins(node);
        let mut ex = Exposure {
            base: [0; 16],
            pairs: node.pairs,
            squares: !node.occupied,
        };
        let mut bits = ex.squares;
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            ex.base[sq] = base(node, sq, total);
        }
        ex
    }

    /// The opponent's options after a move: the number of (placement, safe give) pairs it has
    /// with piece `p` in hand on the node of `ex`, `rest` to give.
    #[inline]
    pub(super) fn options(&self, ex: &Exposure, p: usize, rest: u16) -> u32 {
        let key = self.piece_key[p];
        let mut options = 0;
        let mut bits = ex.squares;
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let unsafe_gives = ex.base[sq] | WIN_PIECES[usize::from(ex.pairs[sq] & key)];
            options += (rest & !unsafe_gives).count_ones();
        }
        options
    }

    /// The exact value of placing `t.hand` (which wins nowhere) with `t.remaining` (not empty)
    /// to give, for small endgames: no table and no move ordering, which cost more than they
    /// save this close to the end.
    pub(super) fn endgame(&self, t: Turn<'_>, w: Window, nodes: &mut u64) -> i32 {
        let Turn {
            node,
            hand,
            remaining,
            ply,
        } = t;
        let (mut alpha, beta) = (w.alpha, w.beta);
        *nodes += 1;
        let last = remaining.count_ones() == 1;
        // Only empty squares have winning pieces: with so few, or them one by one.
        let empty = !node.occupied;
        let mut total = 0;
        let mut bits = empty;
        while bits != 0 {
            total |= node.wins[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        // If no placement leaves a safe give, the opponent wins next.
        let mut best = -(WIN - ply - 1);
        let mut bits = empty;
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let base = if node.wins[sq] == 0 {
                total
            } else {
                let mut others = 0;
                let mut rest = empty & !(1 << sq);
                while rest != 0 {
                    others |= node.wins[rest.trailing_zeros() as usize];
                    rest &= rest - 1;
                }
                others
            };
            let unsafe_gives =
                base | WIN_PIECES[usize::from(node.pairs[sq] & self.piece_key[hand])];
            let mut safe = remaining & !unsafe_gives;
            if safe == 0 {
                continue;
            }
            if last {
                // A safe last give: the opponent fills the last square without a win.
                return 0;
            }
            let after = self.place(node, sq, hand);
            while safe != 0 {
                let p = safe.trailing_zeros() as usize;
                safe &= safe - 1;
                let v = -self.endgame(t.child(&after, p), Window::new(-beta, -alpha), nodes);
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        best
    }

    /// Every (placement, give) of `t` as `moves[..m]`, returns `m`: ordered by the
    /// opponent's options after it (the number of (placement, safe give) pairs it would
    /// have), fewest first, the table's move `first` before all; entries are (options, the
    /// square's rank in `squares`, move), so that ties keep the squares' order.
    pub(super) fn scored_order(
        &self,
        t: Turn<'_>,
        squares: &[(u8, u16)],
        first: u8,
        moves: &mut [(u32, u8, u8); 240],
    ) -> usize {
        let Turn {
            node,
            hand,
            remaining,
            ..
        } = t;
        let mut m = 0;
        for (rank, &(sq, safe)) in squares.iter().enumerate() {
            let after = self.place(node, usize::from(sq), hand);
            let ex = self.exposure(&after);
            let mut gives = safe;
            while gives != 0 {
                let p = gives.trailing_zeros() as usize;
                gives &= gives - 1;
                let mv = (sq << 4) | p as u8;
                let options = if first != NO_MOVE && mv == first {
                    0
                } else {
                    1 + self.options(&ex, p, remaining & !(1 << p))
                };
                moves[m] = (options, rank as u8, mv);
                m += 1;
            }
        }
        moves[..m].sort_unstable();
        m
    }

    pub(super) fn node(&self, board: &quads_rules::Board) -> Node {
        let mut node = Node {
            occupied: 0,
            traits: [0; 4],
            shared: [self.counting; 19],
            wins: [0; 16],
            pairs: [0; 16],
            hash: 0,
        };
        for sq in board.occupied().iter() {
            let p = board.piece_at(sq).expect("occupied").index();
            node = self.place(&node, sq.index(), p);
        }
        node
    }
}

/// The pieces that win somewhere on the board.
#[inline(always)]
pub(super) fn all_wins(node: &Node) -> u16 {
    node.wins.iter().fold(0, |a, &w| a | w)
}

/// The pieces that still win somewhere after a placement on the empty square `sq`: all of
/// them (`total`, the union of `node.wins`) unless `sq` had winning pieces, whose shapes
/// through `sq` are full then.
#[inline(always)]
fn base(node: &Node, sq: usize, total: u16) -> u16 {
    if node.wins[sq] == 0 {
        total
    } else {
        others(node, sq)
    }
}

/// The pieces that win on a square other than `sq`.
#[inline(always)]
fn others(node: &Node, sq: usize) -> u16 {
    let mut others = 0;
    for (t, &w) in node.wins.iter().enumerate() {
        if t != sq {
            others |= w;
        }
    }
    others
}

/// Per empty square of a node: `base[sq]`, the pieces that still win elsewhere after a
/// placement on `sq`, and the node's `pairs[sq]` (see [`Node::pairs`]).
pub(super) struct Exposure {
    base: [u16; 16],
    pairs: [u8; 16],
    squares: u16,
}
