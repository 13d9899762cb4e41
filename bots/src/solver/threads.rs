//! The search on several threads: helpers that share the table split the work along the
//! principal variation (from [`HELPERS_EMPTY`] empty squares up), then the main thread
//! replays the root alone, so that the answer is the one a single thread gives. Everything
//! here only decides which thread searches which move; the search of a move is
//! [`Search::negamax`]'s.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicI32, AtomicI64, AtomicUsize};

use super::geometry::{Turn, Window};
use super::search::{Found, Prepared, Search};
use super::WIN;

/// Helper threads join a search from at least this many empty squares at the root: below,
/// starting them took as long as they saved (measured on 6-placed positions).
pub(super) const HELPERS_EMPTY: u32 = 11;

/// Searches the root `t`'s moves within `w` on `threads` threads; the best value and move
/// (None if the deadline passed) and the nodes searched.
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
pub(super) fn parallel_root<'a>(
    search: impl Fn() -> Search<'a> + Sync,
    threads: usize,
    t: Turn<'_>,
    moves: &[(u8, u8)],
    w: Window,
) -> (Found, u64) {
    let mut main = search();
    if threads > 1 {
        let moves: Vec<u8> = moves.iter().map(|&(sq, p)| (sq << 4) | p).collect();
        let moves = distinct(&main, t, &moves);
        split_moves(&mut main, &search, threads, t, &moves, w);
    }
    let found = if main.aborted {
        None
    } else {
        main.root(t, moves, w)
    };
    (found, main.nodes)
}

/// The value of placing `t.hand` (which wins nowhere) with `t.remaining` (not empty) to give,
/// on `threads` threads: the node's moves in [`Geometry::scored_order`], the first searched
/// (by [`split`] again if its node has [`HELPERS_EMPTY`] empty squares, else by the main
/// thread alone) before the others are shared out. `main` is the calling thread's search.
///
/// [`Geometry::scored_order`]: super::geometry::Geometry::scored_order
fn split<'a>(
    main: &mut Search<'a>,
    search: &(impl Fn() -> Search<'a> + Sync),
    threads: usize,
    t: Turn<'_>,
    w: Window,
) -> i32 {
    main.nodes += 1;
    let prepared = match main.prepare(t, w) {
        Prepared::Value(v) => return v,
        Prepared::Moves(moves) => moves,
    };
    let mut order = [(0u32, 0u8, 0u8); 240];
    let m = main.geometry.scored_order(
        t,
        &prepared.squares[..prepared.n],
        prepared.first,
        &mut order,
    );
    let moves: Vec<u8> = order[..m].iter().map(|&(_, _, mv)| mv).collect();
    let moves = distinct(main, t, &moves);
    let best = split_moves(main, search, threads, t, &moves, w);
    main.store(prepared.key, t, w, best);
    best.0
}

/// The best value and move among `moves` (square << 4 | piece, not empty) of the node `t`:
/// the first searched by the calling thread (split again when its node is big enough: along
/// the first moves, the principal variation, every thread helps), then, unless it cuts off,
/// the others taken from a queue by all `threads`. Values are fail-soft as in
/// [`Search::negamax`]; `main.aborted` is set if any thread was cut short.
fn split_moves<'a>(
    main: &mut Search<'a>,
    search: &(impl Fn() -> Search<'a> + Sync),
    threads: usize,
    t: Turn<'_>,
    moves: &[u8],
    w: Window,
) -> (i32, u8) {
    let (alpha, beta) = (w.alpha, w.beta);
    let first = moves[0];
    let (sq, p) = (usize::from(first >> 4), usize::from(first & 15));
    let after = main.geometry.place(t.node, sq, t.hand);
    let child = t.child(&after, p);
    let v = if child.remaining == 0 {
        0
    } else if (!after.occupied).count_ones() >= HELPERS_EMPTY {
        -split(main, search, threads, child, Window::new(-beta, -alpha))
    } else {
        -main.negamax(child, Window::new(-beta, -alpha))
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
                    helper.take(t, moves, beta, queue);
                    (helper.nodes, helper.aborted)
                })
            })
            .collect();
        main.take(t, moves, beta, &queue);
        helpers
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .fold((0, false), |(n, a), (hn, ha)| (n + hn, a || ha))
    });
    main.nodes += helped;
    main.aborted |= cut_short;
    unpack(queue.best.load(Relaxed))
}

/// `moves` (square << 4 | piece) of the node `t` with one move for each position they lead
/// to, up to the symmetries, the first kept: two moves whose children are one position have one
/// value. Alone, a thread searches the second child as a table hit; shared out, two threads
/// searched the two at once, each missing the table (the empty board has 240 moves and 12
/// distinct children in Quads, 8 in classic).
fn distinct(main: &Search<'_>, t: Turn<'_>, moves: &[u8]) -> Vec<u8> {
    let mut keys: Vec<u64> = Vec::with_capacity(moves.len());
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        let (sq, p) = (usize::from(mv >> 4), mv & 15);
        let after = main.geometry.place(t.node, sq, t.hand);
        let key = main
            .symmetries
            .key_from_parts(after.occupied, after.traits, p);
        if !keys.contains(&key) {
            keys.push(key);
            out.push(mv);
        }
    }
    out
}

/// A value and a move in one word, ordered by the value.
fn pack(value: i32, mv: u8) -> i64 {
    ((i64::from(value) + i64::from(WIN) * 4) << 8) | i64::from(mv)
}

fn unpack(packed: i64) -> (i32, u8) {
    ((packed >> 8) as i32 - WIN * 4, packed as u8)
}

/// The moves of a node the threads of [`split_moves`] take in turn: the next to take, the
/// best value found (the window's lower end for the next move taken) and the best value and
/// move (`pack`ed).
struct Queue {
    next: AtomicUsize,
    alpha: AtomicI32,
    best: AtomicI64,
}

impl Search<'_> {
    /// Takes moves (square << 4 | piece) of the node `t` from `queue` until it is empty or a
    /// move reaches `beta`, searching each with the best value found so far as alpha and
    /// recording its value (see [`split_moves`]).
    fn take(&mut self, t: Turn<'_>, moves: &[u8], beta: i32, queue: &Queue) {
        while let Some(&mv) = moves.get(queue.next.fetch_add(1, Relaxed)) {
            let (sq, p) = (usize::from(mv >> 4), usize::from(mv & 15));
            let alpha = queue.alpha.load(Relaxed);
            let v = if t.remaining & !(1 << p) == 0 {
                0
            } else {
                let after = self.geometry.place(t.node, sq, t.hand);
                -self.negamax(t.child(&after, p), Window::new(-beta, -alpha))
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
}
