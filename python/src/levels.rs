//! `quads.Level`: the bundled strategies and the five levels as opponents, seeded, acting on a
//! `State` one at a time or in a batch.

use std::time::{Duration, Instant};

use pyo3::prelude::*;
use quads_bots::solver::Solver as Core;
use quads_bots::{Limit, Strategy};
use quads_protocol::Go;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::state::State;
use crate::QuadsError;

/// The node budget of a move when neither `nodes` nor `movetime` is given: the same move on
/// any machine.
pub const DEFAULT_NODES: u64 = 2_000_000;

/// An opponent: `random`, `greedy`, `minimax`, `mcts`, `perfect` (level 5 with its book),
/// `level-1` … `level-5`, or any strategy name `quads-bot --strategy` takes (`minimax-4`).
#[pyclass(module = "quads", name = "Level")]
pub struct Level {
    name: String,
    strategy: Strategy,
    rng: ChaCha8Rng,
    limit: Option<Duration>,
    nodes: u64,
    solver: Option<Core>,
}

impl Level {
    fn limit(&self) -> Limit {
        match self.limit {
            Some(d) => Limit::Until(Instant::now() + d),
            None => Limit::Nodes(self.nodes),
        }
    }

    /// A move for `state`, which must be a whole position of a game in progress.
    fn choose(&mut self, py: Python<'_>, state: &State) -> PyResult<String> {
        if state.pending_square().is_some() {
            return Err(QuadsError::new_err(
                "a placement awaits its give: a level moves from a whole position",
            ));
        }
        let pos = state.pos();
        let rules = state.rules_value();
        if pos.outcome(&rules).is_some() {
            return Err(QuadsError::new_err("the game is over: nothing to play"));
        }
        let limit = self.limit();
        let go = Go {
            position: pos,
            remaining: pos.remaining(),
            last: None,
            time: None,
            optime: None,
            movetime: self.limit.map_or(60_000, |d| d.as_millis() as u64),
        };
        let (strategy, rng, solver) = (self.strategy, &mut self.rng, &mut self.solver);
        let mv = py.allow_threads(|| strategy.choose_within(&go, &rules, rng, limit, solver));
        Ok(mv.to_string())
    }
}

/// The strategy a level's name stands for, or a one-line error.
pub fn strategy_of(name: &str) -> PyResult<Strategy> {
    let spelled = if name == "perfect" { "level-5" } else { name };
    Strategy::from_name(spelled).ok_or_else(|| {
        QuadsError::new_err(format!(
            "unknown level `{name}` (expected random, greedy, minimax, mcts, perfect, \
             level-1 … level-5, or a strategy such as minimax-4)"
        ))
    })
}

#[pymethods]
impl Level {
    /// `name` seeded with `seed`; each move thinks `movetime` seconds, or, without it, to a
    /// budget of `nodes` (the same moves on any machine).
    #[new]
    #[pyo3(signature = (name, seed = 0, movetime = None, nodes = None))]
    fn new(name: &str, seed: u64, movetime: Option<f64>, nodes: Option<u64>) -> PyResult<Level> {
        let strategy = strategy_of(name)?;
        let limit = match movetime {
            Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
            Some(t) => {
                return Err(QuadsError::new_err(format!(
                    "movetime must be a positive number of seconds, not {t}"
                )))
            }
            None => None,
        };
        Ok(Level {
            name: name.to_owned(),
            strategy,
            rng: ChaCha8Rng::seed_from_u64(seed),
            limit,
            nodes: nodes.unwrap_or(DEFAULT_NODES),
            solver: None,
        })
    }

    /// The name it was made with.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The strategy's own name (`level-3` is `minimax-…`).
    #[getter]
    fn strategy(&self) -> String {
        self.strategy.name()
    }

    /// A whole move for `state` (`D2 BLQF`), without playing it.
    fn act(&mut self, py: Python<'_>, state: &State) -> PyResult<String> {
        self.choose(py, state)
    }

    /// One move for each state, in order.
    fn act_batch(
        &mut self,
        py: Python<'_>,
        states: Vec<PyRef<'_, State>>,
    ) -> PyResult<Vec<String>> {
        states.iter().map(|s| self.choose(py, s)).collect()
    }

    /// Forgets what it kept of a game (the solver's table): call it between games.
    fn new_game(&mut self) {
        self.solver = None;
    }

    fn __repr__(&self) -> String {
        format!("Level('{}')", self.name)
    }
}
