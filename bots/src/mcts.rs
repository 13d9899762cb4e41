//! Monte Carlo tree search (UCT) with heavy playouts.
//!
//! Moves are (square, give) pairs. Like the alpha-beta search, it takes a winning placement at
//! once and only considers gives that do not let the opponent win at once, while any exists, so
//! it never hands over a winning piece when a safe one exists. Playouts follow the same rule
//! with random choices: they are far more telling than uniformly random ones. Nodes are created
//! only when first tried, so memory grows with the number of playouts, not the branching.

use std::time::Instant;

use quads_rules::{Board, Claim, Piece, PieceSet, Rules, Square};
use rand_chacha::rand_core::RngCore;
use rand_chacha::ChaCha8Rng;

fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// The result, for the player to move, of playing on at random but never blundering at once:
/// 1 a win, 0.5 a draw, 0 a loss.
fn playout(
    mut board: Board,
    mut hand: Piece,
    mut remaining: PieceSet,
    rules: &Rules,
    rng: &mut ChaCha8Rng,
) -> f64 {
    let mut mine = true;
    loop {
        let threats = board.threats(rules);
        if !threats.winning_squares(hand).is_empty() {
            return if mine { 1.0 } else { 0.0 };
        }
        if remaining.is_empty() {
            return 0.5;
        }
        let empty: Vec<Square> = board.empty().iter().collect();
        let start = pick(rng, empty.len());
        let mut chosen = None;
        for k in 0..empty.len() {
            let sq = empty[(start + k) % empty.len()];
            let mut after = board;
            after.place(sq, hand);
            let safe = remaining.intersect(after.threats(rules).winning_pieces().complement());
            if !safe.is_empty() {
                let gives: Vec<Piece> = safe.iter().collect();
                chosen = Some((after, gives[pick(rng, gives.len())]));
                break;
            }
        }
        let (after, give) = chosen.unwrap_or_else(|| {
            let mut after = board;
            after.place(empty[start], hand);
            let gives: Vec<Piece> = remaining.iter().collect();
            (after, gives[pick(rng, gives.len())])
        });
        board = after;
        hand = give;
        remaining = remaining.without(give);
        mine = !mine;
    }
}

struct Node {
    board: Board,
    hand: Piece,
    remaining: PieceSet,
    /// The value for the player to move here, if the game is decided here.
    terminal: Option<f64>,
    /// Untried and tried moves; `children[i]` is the node of `moves[i]`.
    moves: Vec<(Square, Piece)>,
    children: Vec<usize>,
    visits: f64,
    /// Total result for the player who moved into this node.
    value: f64,
}

impl Node {
    fn new(
        board: Board,
        hand: Piece,
        remaining: PieceSet,
        rules: &Rules,
        rng: &mut ChaCha8Rng,
    ) -> Node {
        let terminal = if !board.threats(rules).winning_squares(hand).is_empty() {
            Some(1.0)
        } else if remaining.is_empty() {
            Some(0.5)
        } else {
            None
        };
        let mut moves = if terminal.is_some() {
            Vec::new()
        } else {
            crate::search::safe_moves(&board, hand, remaining, rules).0
        };
        // Try moves in a random order.
        for i in (1..moves.len()).rev() {
            moves.swap(i, pick(rng, i + 1));
        }
        Node {
            board,
            hand,
            remaining,
            terminal,
            moves,
            children: Vec::new(),
            visits: 0.0,
            value: 0.0,
        }
    }
}

/// Searches `playouts` playouts (or until `deadline`) and returns the most visited move, with
/// the number of playouts made.
pub fn search(
    board: &Board,
    hand: Piece,
    remaining: PieceSet,
    rules: &Rules,
    playouts: u32,
    deadline: Option<Instant>,
    rng: &mut ChaCha8Rng,
) -> ((Square, Piece), u32) {
    let (moves, done) = ranked(board, hand, remaining, rules, playouts, deadline, rng);
    (moves[0], done)
}

/// Like [`search`], but returns every root move, the most visited first (moves never tried
/// come last, in their shuffled order).
pub fn ranked(
    board: &Board,
    hand: Piece,
    remaining: PieceSet,
    rules: &Rules,
    playouts: u32,
    deadline: Option<Instant>,
    rng: &mut ChaCha8Rng,
) -> (Vec<(Square, Piece)>, u32) {
    let rules = Rules {
        claim: Claim::Auto,
        ..*rules
    };
    let mut nodes = vec![Node::new(*board, hand, remaining, &rules, rng)];
    let mut done = 0;
    while done < playouts {
        if done % 64 == 0 && deadline.is_some_and(|d| Instant::now() > d) && done > 0 {
            break;
        }
        done += 1;
        let mut path = vec![0usize];
        let mut at = 0;
        loop {
            let node = &nodes[at];
            if node.terminal.is_some() {
                break;
            }
            if node.children.len() < node.moves.len() {
                // Expand the next untried move.
                let (sq, give) = node.moves[node.children.len()];
                let mut after = node.board;
                after.place(sq, node.hand);
                let remaining = node.remaining.without(give);
                let child = Node::new(after, give, remaining, &rules, rng);
                nodes.push(child);
                let id = nodes.len() - 1;
                nodes[at].children.push(id);
                path.push(id);
                at = id;
                break;
            }
            let ln = nodes[at].visits.max(1.0).ln();
            let best = nodes[at]
                .children
                .iter()
                .copied()
                .max_by(|&a, &b| {
                    let ucb = |c: usize| {
                        let n = &nodes[c];
                        n.value / n.visits + (2.0 * ln / n.visits).sqrt()
                    };
                    ucb(a).total_cmp(&ucb(b))
                })
                .expect("a node with moves has children once expanded");
            path.push(best);
            at = best;
        }
        let node = &nodes[at];
        // The result for the player to move at the leaf.
        let mut r = match node.terminal {
            Some(v) => v,
            None => playout(node.board, node.hand, node.remaining, &rules, rng),
        };
        for &n in path.iter().rev() {
            nodes[n].visits += 1.0;
            nodes[n].value += 1.0 - r;
            r = 1.0 - r;
        }
    }
    let root = &nodes[0];
    let mut order: Vec<(f64, (Square, Piece))> = root
        .moves
        .iter()
        .enumerate()
        .map(|(i, &m)| (root.children.get(i).map_or(0.0, |&c| nodes[c].visits), m))
        .collect();
    // A stable sort: equal visits keep the shuffled order.
    order.sort_by(|a, b| b.0.total_cmp(&a.0));
    (order.into_iter().map(|(_, m)| m).collect(), done)
}
