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

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicI32, AtomicI64, AtomicU64, AtomicUsize};
use std::time::Instant;

use zerocopy::{FromBytes, IntoBytes};

use quads_rules::{Move, Piece, PieceSet, Position, Rules, Square, Then};

use crate::symmetry::Symmetries;

/// A win, before subtracting the placements it takes.
pub const WIN: i32 = 1000;

/// Canonical (symmetry-reduced) table keys are used with at least this many empty squares.
const SYMMETRY_EMPTY: u32 = 8;

/// Nodes with fewer empty squares than this do not use the table: they are cheaper to search
/// again than a table probe's cache miss.
const TABLE_EMPTY: u32 = 5;

/// Nodes with at least this many empty squares order every move by the opponent's options
/// ([`Search::scored_moves`]); below, by square.
const SCORED_EMPTY: u32 = 9;

/// Helper threads join a search from at least this many empty squares at the root: below,
/// starting them took as long as they saved (measured on 6-placed positions).
const HELPERS_EMPTY: u32 = 11;

/// Nodes with at most this many empty squares are searched by [`Geometry::endgame`].
const ENDGAME_EMPTY: u32 = 4;

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

/// `WIN_PIECES[key]`: the pieces that share a trait with every piece of a shape, where bit `i`
/// of `key` says "all have trait bit `i` set" and bit `4 + i` "all have it clear".
const WIN_PIECES: [u16; 256] = {
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
const ZOBRIST: [[u64; 16]; 17] = {
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
struct Node {
    occupied: u16,
    /// Squares holding a piece with trait bit `i` set (for canonical keys).
    traits: [u16; 4],
    /// Per shape: the traits every piece on it shares, as a `WIN_PIECES` key (counting
    /// traits only; all of them while the shape is empty).
    shared: [u8; 19],
    /// Per square: the pieces that would complete a winning shape there (0 when occupied).
    wins: [u16; 16],
    /// Per empty square: the traits shared by the two pieces of each shape through it that
    /// holds two, or'ed. A piece placed there makes a threat with every piece that shares
    /// one of them with it: `WIN_PIECES[pairs & piece key]`.
    pairs: [u8; 16],
    /// The Zobrist hash of the pieces on the board.
    hash: u64,
}

/// The variant's shapes, arranged for the search.
struct Geometry {
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
    fn new(rules: &Rules) -> Geometry {
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
    fn place(&self, node: &Node, sq: usize, p: usize) -> Node {
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
    fn unsafe_after(&self, node: &Node, sq: usize, p: usize, total: u16) -> u16 {
        base(node, sq, total) | WIN_PIECES[usize::from(node.pairs[sq] & self.piece_key[p])]
    }

    /// What a placement on each empty square of `node` exposes, for scoring many moves
    /// that share `node`.
    fn exposure(&self, node: &Node) -> Exposure {
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
    fn options(&self, ex: &Exposure, p: usize, rest: u16) -> u32 {
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

    /// The exact value of placing `hand` (which wins nowhere) with `remaining` (not empty)
    /// to give, for small endgames: no table and no move ordering, which cost more than they
    /// save this close to the end.
    #[allow(clippy::too_many_arguments)]
    fn endgame(
        &self,
        node: &Node,
        hand: usize,
        remaining: u16,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        nodes: &mut u64,
    ) -> i32 {
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
                let v = -self.endgame(
                    &after,
                    p,
                    remaining & !(1 << p),
                    ply + 1,
                    -beta,
                    -alpha,
                    nodes,
                );
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

    /// Every (placement, give) of a node as `moves[..m]`, returns `m`: ordered by the
    /// opponent's options after it (the number of (placement, safe give) pairs it would
    /// have), fewest first, the table's move `first` before all; entries are (options, the
    /// square's rank in `squares`, move), so that ties keep the squares' order.
    fn scored_order(
        &self,
        node: &Node,
        hand: usize,
        remaining: u16,
        squares: &[(u8, u16)],
        first: u8,
        moves: &mut [(u32, u8, u8); 240],
    ) -> usize {
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

    fn node(&self, board: &quads_rules::Board) -> Node {
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
fn all_wins(node: &Node) -> u16 {
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
struct Exposure {
    base: [u16; 16],
    pairs: [u8; 16],
    squares: u16,
}

const EXACT: u64 = 1;
const LOWER: u64 = 2;
const UPPER: u64 = 3;
/// No move in the table. (It is also the encoding of D4 with piece 15, which therefore never
/// gets the table move's place at the front of the order; nothing else depends on it.)
const NO_MOVE: u8 = 0xff;

/// A transposition table of fixed size, in buckets of two entries: the first keeps the entry
/// with the most empty squares (the largest subtree), the second is always replaced.
///
/// Each entry is two words, (key ^ data, data); data packs the value (bits 0–15), the bound
/// (16–17), the number of empty squares (18–22) and the best move (24–31: square << 4 |
/// piece). The words are atomics, so that the threads of one search share the table without
/// locks; an entry whose two words two threads wrote at once fails the key check and is a
/// miss. A small search's entries are a zeroed heap buffer of just the size it uses; a larger
/// search maps the whole table anonymously and asks the kernel to back it with 2 MiB pages:
/// probes land anywhere in it, and with 4 KiB pages nearly every probe also missed the TLB.
/// (Zeroing a 2 MiB page for a search that uses 64 KiB had cost 50-70 µs per solve.)
pub struct Table {
    memory: Memory,
    /// Entries (two words each), a power of two.
    len: usize,
    /// The entries in use: a power of two up to `len`, set per search by
    /// [`Table::fit`], so that a small search touches (and the kernel zeroes) little memory.
    active: usize,
}

enum Memory {
    Mapped(memmap2::MmapMut),
    Heap(Vec<u64>),
}

impl Memory {
    /// Zeroed memory for `len` entries on the heap.
    fn heap(len: usize) -> Memory {
        Memory::Heap(vec![0; len * 2])
    }

    /// Zeroed memory for `len` entries, mapped (on the heap if it cannot be).
    fn mapped(len: usize) -> Memory {
        match memmap2::MmapMut::map_anon(len * 16) {
            Ok(map) => {
                // Only a hint: without huge pages the table works the same, more slowly.
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage);
                Memory::Mapped(map)
            }
            Err(_) => Memory::heap(len),
        }
    }

    /// The memory as words. (Viewing bytes as atomics needs the bytes borrowed mutably:
    /// nobody else can be reading them as plain bytes meanwhile.)
    fn words(&mut self) -> &[AtomicU64] {
        let bytes = match self {
            Memory::Mapped(map) => &mut map[..],
            Memory::Heap(words) => words.as_mut_bytes(),
        };
        <[AtomicU64]>::mut_from_bytes(bytes).map_or(&[][..], |words| &*words)
    }

    /// The entries it holds.
    fn entries(&self) -> usize {
        match self {
            Memory::Mapped(map) => map.len() / 16,
            Memory::Heap(words) => words.len() / 2,
        }
    }
}

/// The fewest entries a search uses (16 KiB).
const MIN_ACTIVE: usize = 1 << 10;

/// The most entries kept on the heap (1 MiB); larger searches map the whole table.
const HEAP_ACTIVE: usize = 1 << 16;

struct Entry {
    value: i32,
    bound: u64,
    mv: u8,
}

impl Table {
    /// A table of about `mebibytes` MiB.
    pub fn new(mebibytes: usize) -> Table {
        let len = ((mebibytes << 20) / 16).max(1024).next_power_of_two();
        let active = MIN_ACTIVE.min(len);
        Table {
            memory: Memory::heap(active),
            len,
            active,
        }
    }

    /// Forgets every entry: the table starts again from the smallest heap buffer.
    pub fn clear(&mut self) {
        self.active = MIN_ACTIVE.min(self.len);
        self.memory = Memory::heap(self.active);
    }

    /// Uses as much of the table as a search from `empty` empty squares needs: 2^(3·empty −
    /// 18) entries up to 13 empty squares (from 2^12, 64 KiB, at 10), 2^(2·empty − 4) from
    /// 14 (256 MiB), at least 2^10, at most all. Fresh memory costs the kernel's zeroing of
    /// every page touched: sized for 14 or more empty squares, the part in use took 5-10% of
    /// the time of 4- and 5-placed searches, and these smaller parts hold their entries as
    /// well (the same node counts within 0.2%). The part in use never shrinks until
    /// [`Table::clear`], so the entries of a game's earlier searches stay where later
    /// searches look for them (growing it loses most of them: their buckets move).
    fn fit(&mut self, empty: u32) {
        let bits = (3 * empty)
            .saturating_sub(18)
            .min((2 * empty).saturating_sub(4));
        let want = 1usize << bits.clamp(10, 40);
        self.active = self.active.max(want).min(self.len);
        if self.active > self.memory.entries() {
            // Drop the old memory before making the new, so that both never exist at once.
            self.memory = Memory::Heap(Vec::new());
            self.memory = if self.active <= HEAP_ACTIVE {
                Memory::heap(self.active)
            } else {
                Memory::mapped(self.len)
            };
        }
    }

    /// The part in use, for the threads of one search.
    fn slots(&mut self) -> Slots<'_> {
        let active = self.active;
        let words = self.memory.words();
        // (Only if the mapping could not be viewed as words, which a page-aligned mapping
        // always can: then the table is off, every probe a miss.)
        let words = words.get(..active * 2).unwrap_or(&[]);
        Slots { words }
    }
}

/// The words of a table's part in use, shared by the threads of a search. Loads and stores
/// are relaxed: an entry is a hint checked against its key, never a synchronisation.
#[derive(Clone, Copy)]
struct Slots<'a> {
    words: &'a [AtomicU64],
}

impl Slots<'_> {
    /// The first word of `key`'s bucket (four words: two entries).
    #[inline(always)]
    fn bucket(&self, key: u64) -> Option<&[AtomicU64]> {
        let w = (key as usize & (self.words.len().wrapping_sub(1))) & !3;
        self.words.get(w..w + 4)
    }

    /// Asks the processor to fetch `key`'s bucket into the cache, so that the probe made a
    /// little later does not wait for memory.
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        #[allow(unsafe_code)]
        if let Some(bucket) = self.bucket(key) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: a prefetch is only a hint: it reads nothing the program sees and cannot
            // fault; the address is that of a live element. It is `unsafe` only because it is
            // an SSE instruction, which every x86-64 processor has.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.as_ptr().cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline(always)]
    fn get(&self, key: u64) -> Option<Entry> {
        let bucket = self.bucket(key)?;
        let entry = |i: usize| {
            let data = bucket[i + 1].load(Relaxed);
            (bucket[i].load(Relaxed) ^ data == key).then_some(data)
        };
        let data = entry(0).or_else(|| entry(2))?;
        let bound = (data >> 16) & 3;
        (bound != 0).then_some(Entry {
            value: i32::from(data as u16 as i16),
            bound,
            mv: (data >> 24) as u8,
        })
    }

    /// Stores an entry; `live` is the most empty squares a position of the current search can
    /// have, so entries with more belong to earlier moves of the game and may go.
    #[inline(always)]
    fn put(&self, key: u64, value: i32, bound: u64, empty: u32, mv: u8, live: u32) {
        let Some(bucket) = self.bucket(key) else {
            return;
        };
        let data = u64::from(value as i16 as u16)
            | (bound << 16)
            | (u64::from(empty) << 18)
            | (u64::from(mv) << 24);
        let write = |i: usize, key: u64, data: u64| {
            bucket[i].store(key ^ data, Relaxed);
            bucket[i + 1].store(data, Relaxed);
        };
        let deep_data = bucket[1].load(Relaxed);
        let deep_key = bucket[0].load(Relaxed) ^ deep_data;
        let deep_empty = ((deep_data >> 18) & 31) as u32;
        if deep_key == key || deep_data == 0 {
            write(0, key, data);
        } else if bucket[2].load(Relaxed) ^ bucket[3].load(Relaxed) == key {
            write(2, key, data);
        } else if empty >= deep_empty || deep_empty > live {
            // The displaced deep entry gets a second chance in the other slot.
            write(2, deep_key, deep_data);
            write(0, key, data);
        } else {
            write(2, key, data);
        }
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
            let search = || Search {
                geometry,
                symmetries,
                table,
                nodes: 0,
                deadline,
                aborted: false,
                root_empty,
            };
            let (found, n) = parallel_root(
                search,
                threads,
                &node,
                hand.index(),
                remaining,
                moves,
                alpha,
                beta,
            );
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

/// Searches the root moves with the window (alpha, beta) on `threads` threads; the best value
/// and move (None if the deadline passed) and the nodes searched.
///
/// With more than one thread, [`split_moves`] first searches the root: the first move's
/// subtree along its first moves (the principal variation) with every thread helping at
/// each node from [`HELPERS_EMPTY`] empty squares up, then the other moves shared out from
/// a queue, each searched with the best value found so far as alpha, everything stored in
/// the shared table. Then the main thread searches the root again, alone and in order, as
/// one thread would: nearly every move is a table hit. So the answer is the one a single
/// thread gives (alpha-beta decides "better than alpha" the same whatever the table holds).
/// (Measured on 4- and 3-placed positions against helpers that searched the whole root in
/// the reverse order: 10 to 40% fewer nodes; splitting along the principal variation, not
/// only at the root, took classic 3 placed from about 0.63 to 0.47-0.52 s in the median.)
#[expect(
    clippy::too_many_arguments,
    reason = "the root's state and window, passed by value"
)]
fn parallel_root<'a>(
    search: impl Fn() -> Search<'a> + Sync,
    threads: usize,
    node: &Node,
    hand: usize,
    remaining: u16,
    moves: &[(u8, u8)],
    alpha: i32,
    beta: i32,
) -> (Found, u64) {
    let mut main = search();
    if threads > 1 {
        let moves: Vec<u8> = moves.iter().map(|&(sq, p)| (sq << 4) | p).collect();
        split_moves(
            &mut main, &search, threads, node, hand, remaining, &moves, 0, alpha, beta,
        );
    }
    let found = if main.aborted {
        None
    } else {
        main.root(node, hand, remaining, moves, alpha, beta)
    };
    (found, main.nodes)
}

/// The value of placing `hand` (which wins nowhere) with `remaining` (not empty) to give,
/// on `threads` threads: the node's moves in [`Geometry::scored_order`], the first searched
/// (by [`split`] again if its node has [`HELPERS_EMPTY`] empty squares, else by the main
/// thread alone) before the others are shared out. `main` is the calling thread's search.
#[expect(
    clippy::too_many_arguments,
    reason = "the node's state and window, passed by value"
)]
fn split<'a>(
    main: &mut Search<'a>,
    search: &(impl Fn() -> Search<'a> + Sync),
    threads: usize,
    node: &Node,
    hand: usize,
    remaining: u16,
    ply: i32,
    alpha: i32,
    beta: i32,
) -> i32 {
    main.nodes += 1;
    let (key, squares, n, first) = match main.prepare(node, hand, remaining, ply, alpha, beta) {
        Prepared::Value(v) => return v,
        Prepared::Moves {
            key,
            squares,
            n,
            first,
        } => (key, squares, n, first),
    };
    let mut order = [(0u32, 0u8, 0u8); 240];
    let m = main
        .geometry
        .scored_order(node, hand, remaining, &squares[..n], first, &mut order);
    let moves: Vec<u8> = order[..m].iter().map(|&(_, _, mv)| mv).collect();
    let (best, best_move) = split_moves(
        main, search, threads, node, hand, remaining, &moves, ply, alpha, beta,
    );
    let empty = (!node.occupied).count_ones();
    main.store(key, best, best_move, ply, alpha, beta, empty);
    best
}

/// The best value and move among `moves` (square << 4 | piece, not empty) of a node at
/// `ply`: the first searched by the calling thread (split again when its node is big enough:
/// along the first moves, the principal variation, every thread helps), then, unless it cuts
/// off, the others taken from a queue by all `threads`. Values are fail-soft as in
/// [`Search::negamax`]; `main.aborted` is set if any thread was cut short.
#[expect(
    clippy::too_many_arguments,
    reason = "the node's state and window, passed by value"
)]
fn split_moves<'a>(
    main: &mut Search<'a>,
    search: &(impl Fn() -> Search<'a> + Sync),
    threads: usize,
    node: &Node,
    hand: usize,
    remaining: u16,
    moves: &[u8],
    ply: i32,
    alpha: i32,
    beta: i32,
) -> (i32, u8) {
    let first = moves[0];
    let (sq, p) = (usize::from(first >> 4), usize::from(first & 15));
    let after = main.geometry.place(node, sq, hand);
    let rest = remaining & !(1 << p);
    let v = if rest == 0 {
        0
    } else if (!after.occupied).count_ones() >= HELPERS_EMPTY {
        -split(
            main,
            search,
            threads,
            &after,
            p,
            rest,
            ply + 1,
            -beta,
            -alpha,
        )
    } else {
        -main.negamax(&after, p, rest, ply + 1, -beta, -alpha)
    };
    if main.aborted || v >= beta || moves.len() == 1 {
        return (v, first);
    }
    let queue = Queue {
        next: AtomicUsize::new(1),
        alpha: AtomicI32::new(alpha.max(v)),
        best: AtomicI64::new(pack(v, first)),
    };
    let (helped, cut_short) = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .map(|_| {
                let mut helper = search();
                let queue = &queue;
                scope.spawn(move || {
                    helper.take(node, hand, remaining, moves, ply, beta, queue);
                    (helper.nodes, helper.aborted)
                })
            })
            .collect();
        main.take(node, hand, remaining, moves, ply, beta, &queue);
        helpers
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .fold((0, false), |(n, a), (hn, ha)| (n + hn, a || ha))
    });
    main.nodes += helped;
    main.aborted |= cut_short;
    unpack(queue.best.load(Relaxed))
}

/// A value and a move in one word, ordered by the value.
fn pack(value: i32, mv: u8) -> i64 {
    ((i64::from(value) + i64::from(WIN) * 4) << 8) | i64::from(mv)
}

fn unpack(packed: i64) -> (i32, u8) {
    ((packed >> 8) as i32 - WIN * 4, packed as u8)
}

/// What [`Search::prepare`] finds.
enum Prepared {
    /// The node's value, without a search.
    Value(i32),
    /// The squares with safe gives, `squares[..n]` (square, safe gives), in order; the
    /// table's move (or `NO_MOVE`) is the first square's.
    Moves {
        key: u64,
        squares: [(u8, u16); 16],
        n: usize,
        first: u8,
    },
}

/// A root search's best value and move (square, piece); None if the deadline passed.
type Found = Option<(i32, (u8, u8))>;

/// The moves of a node the threads of [`split_moves`] take in turn: the next to take, the
/// best value found (the window's lower end for the next move taken) and the best value and
/// move (`pack`ed).
struct Queue {
    next: AtomicUsize,
    alpha: AtomicI32,
    best: AtomicI64,
}

/// One thread's search: the shared geometry, symmetries and table, and its own counters.
struct Search<'a> {
    geometry: &'a Geometry,
    symmetries: &'a Symmetries,
    table: Slots<'a>,
    nodes: u64,
    deadline: Option<Instant>,
    aborted: bool,
    /// The empty squares at the root.
    root_empty: u32,
}

impl Search<'_> {
    /// Takes moves (square << 4 | piece) of the node at `ply` from `queue` until it is
    /// empty or a move reaches `beta`, searching each with the best value found so far as
    /// alpha and recording its value (see [`split_moves`]).
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's state and window, passed by value"
    )]
    fn take(
        &mut self,
        node: &Node,
        hand: usize,
        remaining: u16,
        moves: &[u8],
        ply: i32,
        beta: i32,
        queue: &Queue,
    ) {
        while let Some(&mv) = moves.get(queue.next.fetch_add(1, Relaxed)) {
            let (sq, p) = (usize::from(mv >> 4), usize::from(mv & 15));
            let rest = remaining & !(1 << p);
            let alpha = queue.alpha.load(Relaxed);
            let v = if rest == 0 {
                0
            } else {
                let after = self.geometry.place(node, sq, hand);
                -self.negamax(&after, p, rest, ply + 1, -beta, -alpha)
            };
            if self.aborted {
                return;
            }
            queue.alpha.fetch_max(v, Relaxed);
            queue.best.fetch_max(pack(v, mv), Relaxed);
            if v >= beta {
                // Cut off: the other threads take no more moves.
                queue.next.store(usize::MAX / 2, Relaxed);
                return;
            }
        }
    }

    fn key(&self, node: &Node, hand: usize, empty: u32) -> u64 {
        if empty >= SYMMETRY_EMPTY {
            self.symmetries
                .key_from_parts(node.occupied, node.traits, hand as u8)
        } else {
            node.hash ^ ZOBRIST[16][hand]
        }
    }

    /// The value of placing `hand` (which wins nowhere) with `remaining` (not empty) to give.
    fn negamax(
        &mut self,
        node: &Node,
        hand: usize,
        remaining: u16,
        ply: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 0xfff == 0 && self.deadline.is_some_and(|d| Instant::now() > d) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        // The window against what is still possible: the piece in hand wins nowhere, so at
        // best the side to move wins with its next placement but one, and at worst the
        // opponent wins with its next. (Only windows about wins and losses reach these, as
        // when the root counts the placements to a win.)
        let best_case = WIN - ply - 2;
        if best_case <= alpha {
            return best_case;
        }
        let worst_case = -(WIN - ply - 1);
        if worst_case >= beta {
            return worst_case;
        }
        let empty_squares = !node.occupied;
        let empty = empty_squares.count_ones();
        if empty <= ENDGAME_EMPTY {
            self.nodes -= 1;
            return self
                .geometry
                .endgame(node, hand, remaining, ply, alpha, beta, &mut self.nodes);
        }
        let (key, squares, n, first) = match self.prepare(node, hand, remaining, ply, alpha, beta) {
            Prepared::Value(v) => return v,
            Prepared::Moves {
                key,
                squares,
                n,
                first,
            } => (key, squares, n, first),
        };
        let (best, best_move) = if empty >= SCORED_EMPTY {
            self.scored_moves(
                node,
                hand,
                remaining,
                &squares[..n],
                first,
                ply,
                alpha,
                beta,
            )
        } else {
            self.moves_by_square(
                node,
                hand,
                remaining,
                &squares[..n],
                first,
                ply,
                alpha,
                beta,
            )
        };
        self.store(key, best, best_move, ply, alpha, beta, empty);
        best
    }

    /// A node's safe moves by square, in the order to search them (the table's move first),
    /// with its table key (0 below [`TABLE_EMPTY`]); or its value, when that needs no search:
    /// the table's, or a loss or draw decided by the safe gives.
    fn prepare(
        &mut self,
        node: &Node,
        hand: usize,
        remaining: u16,
        ply: i32,
        alpha: i32,
        beta: i32,
    ) -> Prepared {
        let g = &self.geometry;
        let empty_squares = !node.occupied;
        let empty = empty_squares.count_ones();
        let use_table = empty >= TABLE_EMPTY;
        let key = if use_table {
            let key = self.key(node, hand, empty);
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
                    LOWER if v >= beta => return Prepared::Value(v),
                    UPPER if v <= alpha => return Prepared::Value(v),
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
        Prepared::Moves {
            key,
            squares,
            n,
            first,
        }
    }

    /// Stores a node's value in the table (if it uses the table and the search was not cut
    /// short): `best` searched with the window (`alpha`, `beta`).
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's state, passed by value"
    )]
    fn store(
        &mut self,
        key: u64,
        best: i32,
        best_move: u8,
        ply: i32,
        alpha: i32,
        beta: i32,
        empty: u32,
    ) {
        if empty >= TABLE_EMPTY && !self.aborted {
            let bound = if best <= alpha {
                UPPER
            } else if best >= beta {
                LOWER
            } else {
                EXACT
            };
            let live = self.root_empty;
            self.table
                .put(key, to_table(best, ply), bound, empty, best_move, live);
        }
    }

    /// Searches the moves square by square, in the order of `squares` (the table's move,
    /// already at the front, first); returns the best value and move.
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's state, passed by value"
    )]
    fn moves_by_square(
        &mut self,
        node: &Node,
        hand: usize,
        remaining: u16,
        squares: &[(u8, u16)],
        first: u8,
        ply: i32,
        alpha: i32,
        beta: i32,
    ) -> (i32, u8) {
        let mut best = Best::new(alpha);
        'squares: for (i, &(sq, safe)) in squares.iter().enumerate() {
            let after = self.geometry.place(node, usize::from(sq), hand);
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
                    let v = -self.negamax(
                        &after,
                        p,
                        remaining & !(1 << p),
                        ply + 1,
                        -beta,
                        -best.alpha,
                    );
                    if best.update(v, (sq << 4) | p as u8, beta) {
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
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's state, passed by value"
    )]
    fn scored_moves(
        &mut self,
        node: &Node,
        hand: usize,
        remaining: u16,
        squares: &[(u8, u16)],
        first: u8,
        ply: i32,
        alpha: i32,
        beta: i32,
    ) -> (i32, u8) {
        let mut moves = [(0u32, 0u8, 0u8); 240];
        let m = self
            .geometry
            .scored_order(node, hand, remaining, squares, first, &mut moves);
        let mut best = Best::new(alpha);
        for &(_, _, mv) in &moves[..m] {
            let (sq, p) = (usize::from(mv >> 4), usize::from(mv & 15));
            let after = self.geometry.place(node, sq, hand);
            let v = -self.negamax(
                &after,
                p,
                remaining & !(1 << p),
                ply + 1,
                -beta,
                -best.alpha,
            );
            if best.update(v, mv, beta) {
                break;
            }
        }
        (best.value, best.mv)
    }

    /// Searches the root moves with the window (alpha, beta); the best value and move, or
    /// None if the deadline passed.
    fn root(
        &mut self,
        node: &Node,
        hand: usize,
        remaining: u16,
        moves: &[(u8, u8)],
        mut alpha: i32,
        beta: i32,
    ) -> Found {
        let mut best = None;
        for &(sq, p) in moves {
            let after = self.geometry.place(node, usize::from(sq), hand);
            let rest = remaining & !(1 << p);
            let v = if rest == 0 {
                0
            } else {
                -self.negamax(&after, usize::from(p), rest, 1, -beta, -alpha)
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

/// A random position with `placed` pieces on the board, none of them completing a winning
/// shape, and a piece in hand that wins nowhere: the test positions of the solver's
/// benchmark (`quads solve-bench`). The same seed gives the same position.
pub fn random_position(rules: &Rules, placed: u32, seed: u64) -> Position {
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let placed = placed.min(15) as usize;
    loop {
        let mut squares: Vec<Square> = Square::ALL.to_vec();
        let mut pieces: Vec<Piece> = Piece::ALL.to_vec();
        crate::search::shuffle(&mut squares, rng.next_u64());
        crate::search::shuffle(&mut pieces, rng.next_u64());
        let mut board = quads_rules::Board::EMPTY;
        for (sq, p) in squares.iter().zip(&pieces).take(placed) {
            board.place(*sq, *p);
        }
        let hand = pieces[placed];
        let pos = Position::from_parts(board, Some(hand), quads_rules::ClaimState::None);
        if !board.has_win(rules) && board.threats(rules).winning_squares(hand).is_empty() {
            return pos;
        }
    }
}
