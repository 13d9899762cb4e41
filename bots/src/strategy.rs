//! The strategy registry: every way the bot can pick a move ([`Strategy`]), its name on the
//! command line and in the `strategy` option, and the move-picking of each, from the first
//! legal move to the exact solver checked by MCTS. The levels' settings and time policy are
//! in [`crate::levels`]; the protocol loop that calls [`Strategy::choose`] in `protocol.rs`.

use std::time::Instant;

use quads_protocol::Go;
use quads_rules::{Claim, Move, Piece, Position, Rules, Square, Then};
use rand_chacha::rand_core::RngCore;
use rand_chacha::ChaCha8Rng;

use crate::levels::{Limit, LEVELS, SOLVER_TABLE_MIB, SOLVE_EMPTY, SOLVE_TRY};
use crate::mcts;
use crate::search::Search;
use crate::solver::Solver;

/// How a bot picks its moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// The first legal move, instantly: a trivial opponent for measuring the referee.
    First,
    /// A uniformly random legal move.
    Random,
    /// Wins at once when it can (claiming under `claim=announce`), otherwise never gives a
    /// piece that lets the opponent win at once while a safe one exists, otherwise random.
    Greedy,
    /// Alpha-beta to this many turns, safe gives only; ties broken at random.
    Minimax(u32),
    /// Monte Carlo tree search with this many playouts.
    Mcts(u32),
    /// The exact solver once at most `SOLVE_EMPTY` squares are empty; before that, MCTS with
    /// this many playouts.
    Solver(u32),
}

impl Strategy {
    /// The strategy's name on the command line and as the `strategy` option: `first`,
    /// `random`, `greedy`, `minimax-D`, `mcts-N`, `solver-N`, or `level-1` to `level-5`.
    pub fn name(self) -> String {
        match self {
            Strategy::Minimax(n) | Strategy::Mcts(n) | Strategy::Solver(n) => {
                format!("{}-{n}", self.family())
            }
            _ => self.family().into(),
        }
    }

    /// The name without its number: `minimax` for `minimax-3`.
    fn family(self) -> &'static str {
        match self {
            Strategy::First => "first",
            Strategy::Random => "random",
            Strategy::Greedy => "greedy",
            Strategy::Minimax(_) => "minimax",
            Strategy::Mcts(_) => "mcts",
            Strategy::Solver(_) => "solver",
        }
    }

    /// The strategy with this name; a bare `minimax`, `mcts` or `solver` has the settings of
    /// the level that uses it ([`LEVELS`]).
    pub fn from_name(name: &str) -> Option<Strategy> {
        let number = |prefix: &str| {
            name.strip_prefix(prefix)
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|&n| n > 0)
        };
        match name {
            "first" => Some(Strategy::First),
            "random" => Some(Strategy::Random),
            "greedy" => Some(Strategy::Greedy),
            "minimax" | "mcts" | "solver" => LEVELS.into_iter().find(|l| l.family() == name),
            _ => number("level-")
                .and_then(|l| LEVELS.get(l as usize - 1).copied())
                .or_else(|| number("minimax-").map(Strategy::Minimax))
                .or_else(|| number("mcts-").map(Strategy::Mcts))
                .or_else(|| number("solver-").map(Strategy::Solver)),
        }
    }

    /// Picks a move for the state in `go`, thinking until `deadline` at most. `solver` is the
    /// exact solver with its table, kept across the moves of a game (made on first use).
    pub fn choose(
        self,
        go: &Go,
        rules: &Rules,
        rng: &mut ChaCha8Rng,
        deadline: Instant,
        solver: &mut Option<Solver>,
    ) -> Move {
        self.choose_within(go, rules, rng, Limit::Until(deadline), solver)
    }

    /// [`Strategy::choose`] within `limit`: a deadline, or a node budget that makes the move
    /// the same on any machine.
    pub fn choose_within(
        self,
        go: &Go,
        rules: &Rules,
        rng: &mut ChaCha8Rng,
        limit: Limit,
        solver: &mut Option<Solver>,
    ) -> Move {
        let moves = go.position.legal_moves(rules);
        assert!(!moves.is_empty(), "asked to move in a finished game");
        let pos = &go.position;
        // Claiming an overlooked win always wins; every strategy but random and first does.
        let thinking = !matches!(self, Strategy::First | Strategy::Random);
        if thinking && moves.contains(&Move::Claim) {
            return Move::Claim;
        }
        let searched = match self {
            Strategy::First => return moves[0],
            Strategy::Random => return moves[pick(rng, moves.len())],
            Strategy::Greedy => None,
            Strategy::Minimax(depth) => {
                let mut s = Search::new(rules, limit.deadline());
                s.best(pos, Some(depth), rng.next_u64()).map(|f| f.mv)
            }
            Strategy::Mcts(playouts) => mcts_move(pos, rules, playouts, limit, rng),
            Strategy::Solver(playouts) => {
                if let Some(found) = crate::book::lookup(pos, rules) {
                    return announce(found.mv, pos, rules);
                }
                let playouts = level_5_playouts(playouts, limit);
                let empty = pos.board().empty().len();
                let solve_until = if empty <= SOLVE_EMPTY {
                    Some(limit)
                } else if empty <= SOLVE_TRY {
                    Some(limit.share(1, 2))
                } else {
                    None
                };
                let solver = match solver {
                    Some(s) if s.solves(rules) => s,
                    _ => solver.insert(Solver::new(rules, SOLVER_TABLE_MIB)),
                };
                let seed = rng.next_u64();
                solve_until
                    .and_then(|until| solver.solve_within(pos, until.solver(), seed))
                    .map(|f| f.mv)
                    .or_else(|| checked_mcts_move(pos, rules, playouts, limit, rng, solver))
            }
        };
        let mv = searched
            .or_else(|| greedy(go, rules, rng))
            .unwrap_or_else(|| moves[pick(rng, moves.len())]);
        announce(mv, pos, rules)
    }
}

/// The most playouts level 5's MCTS makes against a clock: as many as its time allows, up to
/// a bound on the tree's memory (a node a playout, about 200 bytes: 200 MB at the bound, under
/// the sandbox's 1 GiB). Against a node budget (the tests), the level's own number.
pub const MAX_PLAYOUTS: u32 = 1_000_000;

fn level_5_playouts(playouts: u32, limit: Limit) -> u32 {
    match limit {
        Limit::Until(_) => MAX_PLAYOUTS.max(playouts),
        Limit::Nodes(_) => playouts,
    }
}

/// Under `claim=announce`, a winning placement must say so.
fn announce(mv: Move, pos: &Position, rules: &Rules) -> Move {
    match (mv, pos.hand()) {
        (
            Move::Place {
                to,
                then: Then::Nothing,
            },
            Some(hand),
        ) if rules.claim == Claim::Announce && pos.board().completes(to, hand, rules) => {
            Move::Place {
                to,
                then: Then::Quarto,
            }
        }
        _ => mv,
    }
}

/// MCTS for the first 60% of the time left, then the solver checks its moves, most visited
/// first, while the replies are small enough to solve: a move after which the opponent can
/// force a win is passed over for the next. (Measured: MCTS alone walked level 5 into a loss
/// in 11 placements that the solver proves in 3 ms.)
fn checked_mcts_move(
    pos: &Position,
    rules: &Rules,
    playouts: u32,
    limit: Limit,
    rng: &mut ChaCha8Rng,
    solver: &mut Solver,
) -> Option<Move> {
    let hand = pos.hand()?;
    let board = pos.board();
    if !board.threats(rules).winning_squares(hand).is_empty() || pos.remaining().is_empty() {
        return mcts_move(pos, rules, playouts, limit, rng);
    }
    let (ranked, _) = mcts::ranked(
        board,
        hand,
        pos.remaining(),
        rules,
        playouts,
        limit.share(3, 5).deadline(),
        rng,
    );
    let auto = Rules {
        claim: Claim::Auto,
        ..*rules
    };
    let as_move = |(to, give): (Square, Piece)| Move::Place {
        to,
        then: Then::Give(give),
    };
    if board.empty().len() > SOLVE_TRY + 1 {
        return ranked.first().copied().map(as_move);
    }
    for &m in ranked.iter().take(8) {
        let Ok(after) = pos.play(as_move(m), &auto) else {
            continue;
        };
        if after.outcome(&auto).is_some() {
            return Some(as_move(m));
        }
        match solver.solve_within(&after, limit.solver(), 0) {
            // The opponent wins from there: try the next move.
            Some(s) if s.value > 0 => continue,
            // A draw or better, or no time left to tell: play it.
            _ => return Some(as_move(m)),
        }
    }
    ranked.first().copied().map(as_move)
}

fn mcts_move(
    pos: &Position,
    rules: &Rules,
    playouts: u32,
    limit: Limit,
    rng: &mut ChaCha8Rng,
) -> Option<Move> {
    let hand = pos.hand()?;
    let board = pos.board();
    if let Some(to) = board.threats(rules).winning_squares(hand).iter().next() {
        return Some(Move::Place {
            to,
            then: Then::Nothing,
        });
    }
    if pos.remaining().is_empty() {
        return None;
    }
    let ((to, give), _) = mcts::search(
        board,
        hand,
        pos.remaining(),
        rules,
        playouts,
        limit.deadline(),
        rng,
    );
    Some(Move::Place {
        to,
        then: Then::Give(give),
    })
}

/// A uniform index below `n` (multiply-shift; the bias is below 2^-56 for the sizes here).
fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

fn greedy(go: &Go, rules: &Rules, rng: &mut ChaCha8Rng) -> Option<Move> {
    let pos = &go.position;
    let announce = rules.claim == Claim::Announce;
    let moves = pos.legal_moves(rules);
    if moves.contains(&Move::Claim) {
        return Some(Move::Claim);
    }
    let hand = pos.hand()?;
    let board = pos.board();
    let wins = board.threats(rules).winning_squares(hand);
    if let Some(to) = wins.iter().next() {
        let then = if announce {
            Then::Quarto
        } else {
            Then::Nothing
        };
        return Some(Move::Place { to, then });
    }
    let mut safe = Vec::new();
    for to in board.empty().iter() {
        let mut after = *board;
        after.place(to, hand);
        let unsafe_pieces = after.threats(rules).winning_pieces();
        for p in pos.remaining().iter() {
            if !unsafe_pieces.contains(p) {
                safe.push(Move::Place {
                    to,
                    then: Then::Give(p),
                });
            }
        }
    }
    (!safe.is_empty()).then(|| safe[pick(rng, safe.len())])
}
