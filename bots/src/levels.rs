//! The five difficulty levels and how long a move may think: the one table of level
//! defaults ([`LEVELS`], also the defaults of the bare strategy names), the solver level's
//! thresholds, the share of the referee's time limits a move spends ([`budget`]), and
//! [`Limit`], which is either that wall-clock time or a machine-independent node budget.

use std::time::{Duration, Instant};

use quads_protocol::Go;

use crate::solver;
use crate::Strategy;

/// The five difficulty levels, weakest first. Written only here: the bare names `minimax`,
/// `mcts` and `solver` mean the level's settings ([`Strategy::from_name`]).
pub const LEVELS: [Strategy; 5] = [
    Strategy::Random,
    Strategy::Greedy,
    Strategy::Minimax(3),
    Strategy::Mcts(2000),
    Strategy::Solver(10_000),
];

/// The solver takes over when this many squares or fewer are empty.
pub const SOLVE_EMPTY: u32 = 11;

/// With this many empty squares or fewer (but more than [`SOLVE_EMPTY`]), the solver first
/// tries with half the time; MCTS gets the rest if it does not finish.
pub const SOLVE_TRY: u32 = 12;

/// The size of level 5's solver table, in MiB (made on first use, kept for the game).
pub const SOLVER_TABLE_MIB: usize = 64;

/// How long a move may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Until this instant, as in a real game: how far each search gets, and so the move,
    /// depends on the machine's speed.
    Until(Instant),
    /// Without a clock: MCTS makes all its playouts, minimax searches to its full depth, and
    /// each solve gives up after this many nodes. The same move on any machine (for tests).
    Nodes(u64),
}

impl Limit {
    /// The deadline, if there is one.
    pub fn deadline(self) -> Option<Instant> {
        match self {
            Limit::Until(deadline) => Some(deadline),
            Limit::Nodes(_) => None,
        }
    }

    /// `num / den` of what is left, from now.
    pub fn share(self, num: u32, den: u32) -> Limit {
        match self {
            Limit::Until(deadline) => {
                let now = Instant::now();
                Limit::Until(now + deadline.saturating_duration_since(now) * num / den)
            }
            Limit::Nodes(n) => Limit::Nodes(n * u64::from(num) / u64::from(den)),
        }
    }

    /// The solver's limits for one solve.
    pub fn solver(self) -> solver::Limits {
        match self {
            Limit::Until(deadline) => solver::Limits {
                deadline: Some(deadline),
                nodes: None,
            },
            Limit::Nodes(n) => solver::Limits {
                deadline: None,
                nodes: Some(n),
            },
        }
    }
}

/// The time to spend on this move: 40% of the move's limit (60% for the solver, the strongest
/// level, whose exact search gains most from time), and at most a twentieth of the clock,
/// less 20 ms for reading, writing and the referee's own delays.
pub fn budget(go: &Go, strategy: Strategy) -> Duration {
    let share = if matches!(strategy, Strategy::Solver(_)) {
        0.6
    } else {
        0.4
    };
    let mut ms = go.movetime as f64 * share;
    if let Some(clock) = go.time {
        ms = ms.min(clock as f64 / 20.0);
    }
    Duration::from_micros(((ms - 20.0).max(1.0) * 1000.0) as u64)
}
