//! `quads.Solver`: the exact solver of the bots crate, its value of a position and of every
//! legal action (regret targets for training), with time and node limits; every search
//! releases the GIL.

use std::time::{Duration, Instant};

use pyo3::prelude::*;
use quads_bots::solver::{self, Limits, Solver as Core, WIN};
use quads_rules::{Move, Outcome, Position, Rules, Then};

use crate::state::State;
use crate::{PyRules, QuadsError};

/// A value from the side to move's point of view: `WIN - k` wins in `k + 1` placements
/// (`1000` wins with this placement), its negation loses, `0` draws.
pub type Value = i32;

/// The solver's answer.
#[pyclass(module = "quads", name = "Solution", frozen, get_all)]
#[derive(Clone)]
pub struct Solution {
    /// The value for the side to move (see `Solver`).
    pub value: Value,
    /// A best whole move, as the CLI writes it.
    pub best: String,
    /// Whether `value` counts placements exactly (else only its sign is known).
    pub exact: bool,
}

#[pymethods]
impl Solution {
    /// `win in N placements`, `draw`, `loss in N placements`, as `quads solve` says it.
    fn describe(&self) -> String {
        solver::Solution {
            value: self.value,
            mv: Move::Claim,
            exact: self.exact,
        }
        .describe()
    }

    fn __repr__(&self) -> String {
        format!(
            "Solution(value={}, best='{}', exact={})",
            self.value,
            self.best,
            if self.exact { "True" } else { "False" }
        )
    }
}

/// The exact solver for one variant, with its transposition table (kept across calls).
#[pyclass(module = "quads", name = "Solver")]
pub struct Solver {
    rules: Rules,
    core: Core,
}

/// The parent's value of a child position reached by the parent's whole move, from the
/// parent's side, given the child's own solve.
fn back(child: Value) -> Value {
    match child {
        v if v > WIN / 2 => -(v - 1),
        v if v < -WIN / 2 => -(v + 1),
        v => -v,
    }
}

fn limits(time: Option<f64>, nodes: Option<u64>) -> PyResult<Limits> {
    let deadline = match time {
        Some(t) if t.is_finite() && t >= 0.0 => Some(Instant::now() + Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(QuadsError::new_err(format!(
                "time must be a number of seconds, not {t}"
            )))
        }
        None => None,
    };
    Ok(Limits { deadline, nodes })
}

impl Solver {
    /// The value of `pos` for its side to move, with a best move; `None` when a limit came
    /// first. `pos` is a game in progress.
    fn solve_pos(
        &mut self,
        pos: &Position,
        limits: Limits,
        seed: u64,
    ) -> Option<(Value, Move, bool)> {
        if pos.hand().is_some() {
            return self
                .core
                .solve_within(pos, limits, seed)
                .map(|s| (s.value, s.mv, s.exact));
        }
        // The opening give: the best of the gives.
        let mut best: Option<(Value, Move, bool)> = None;
        for mv in pos.legal_moves(&self.rules) {
            let next = pos.play(mv, &self.rules).expect("a legal move");
            let (v, exact) = self.after(&next, pos, limits, seed)?;
            if best.map_or(true, |(b, _, _)| v > b) {
                best = Some((v, mv, exact));
            }
        }
        best
    }

    /// The value for the player who moved from `before` to `next`.
    fn after(
        &mut self,
        next: &Position,
        before: &Position,
        limits: Limits,
        seed: u64,
    ) -> Option<(Value, bool)> {
        let mover = before.to_move();
        match next.outcome(&self.rules) {
            Some(Outcome::Win(p)) => Some((if p == mover { WIN } else { -WIN }, true)),
            Some(Outcome::Draw) => Some((0, true)),
            None => self
                .solve_pos(next, limits, seed)
                .map(|(v, _, exact)| (if exact { back(v) } else { -v.signum() }, exact)),
        }
    }
}

fn whole(state: &State, what: &str) -> PyResult<Position> {
    if state.pending_square().is_some() {
        return Err(QuadsError::new_err(format!(
            "a placement awaits its give: {what} a whole position (or use action_values)"
        )));
    }
    Ok(state.pos())
}

#[pymethods]
impl Solver {
    /// A solver for `rules` with a table of about `table_mib` MiB, searching on `threads`.
    #[new]
    #[pyo3(signature = (rules = None, table_mib = 64, threads = 1))]
    fn new(rules: Option<&Bound<'_, PyAny>>, table_mib: usize, threads: usize) -> PyResult<Solver> {
        let rules = match rules {
            Some(r) => crate::state::rules_of(r)?,
            None => Rules::QUADS,
        };
        if table_mib == 0 {
            return Err(QuadsError::new_err("table_mib must be at least 1"));
        }
        Ok(Solver {
            rules,
            core: Core::new(&rules, table_mib).with_threads(threads),
        })
    }

    /// The variant it solves (claims are solved as automatic: a player who sees a win takes it).
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.rules)
    }

    /// Solves `state` within `time` seconds and `nodes` nodes (either may be `None`); `None`
    /// when a limit came first. Among equally good moves it picks one by `seed`.
    #[pyo3(signature = (state, time = None, nodes = None, seed = 0))]
    fn solve(
        &mut self,
        py: Python<'_>,
        state: &State,
        time: Option<f64>,
        nodes: Option<u64>,
        seed: u64,
    ) -> PyResult<Option<Solution>> {
        self.check(state)?;
        let pos = whole(state, "solve")?;
        if pos.outcome(&self.rules).is_some() {
            return Err(QuadsError::new_err("the game is over: nothing to solve"));
        }
        let limits = limits(time, nodes)?;
        let found = py.allow_threads(|| self.solve_pos(&pos, limits, seed));
        Ok(found.map(|(value, mv, exact)| Solution {
            value,
            best: mv.to_string(),
            exact,
        }))
    }

    /// The value of `state` for its side to move (`Solver.solve(...).value`), or `None`.
    #[pyo3(signature = (state, time = None, nodes = None))]
    fn value(
        &mut self,
        py: Python<'_>,
        state: &State,
        time: Option<f64>,
        nodes: Option<u64>,
    ) -> PyResult<Option<Value>> {
        Ok(self.solve(py, state, time, nodes, 0)?.map(|s| s.value))
    }

    /// The value of each of the 32 actions for the player deciding now, `None` for an illegal
    /// one (and for one whose search hit a limit). The best legal action's value is the
    /// state's value; a value below it is the regret of playing it.
    #[pyo3(signature = (state, time = None, nodes = None))]
    fn action_values(
        &mut self,
        py: Python<'_>,
        state: &State,
        time: Option<f64>,
        nodes: Option<u64>,
    ) -> PyResult<Vec<Option<Value>>> {
        self.check(state)?;
        let pos = state.pos();
        if pos.outcome(&self.rules).is_some() {
            return Err(QuadsError::new_err("the game is over: no action to value"));
        }
        let limits = limits(time, nodes)?;
        let legal = state.legal_action_list();
        let pending = state.pending_square();
        let rules = self.rules;
        py.allow_threads(|| {
            let mut values = vec![None; crate::actions::NUM_ACTIONS];
            // The value of one whole move from `pos`.
            let of = |s: &mut Solver, mv: Move| {
                let next = pos.play(mv, &rules).ok()?;
                s.after(&next, &pos, limits, 0).map(|(v, _)| v)
            };
            for a in legal {
                let action = crate::actions::Action::from_index(a as i64).expect("legal");
                values[a] = match (pending, action) {
                    (Some(to), crate::actions::Action::Give(p)) => of(
                        self,
                        Move::Place {
                            to,
                            then: Then::Give(p),
                        },
                    ),
                    (None, crate::actions::Action::Give(p)) => of(self, Move::Give(p)),
                    (_, crate::actions::Action::Place(to)) => {
                        // The best whole move that starts with this placement.
                        pos.legal_moves(&rules)
                            .into_iter()
                            .filter(|m| match m {
                                Move::Place { to: t, .. } => *t == to,
                                Move::Claim => true,
                                Move::Give(_) => false,
                            })
                            .filter_map(|m| of(self, m))
                            .max()
                    }
                };
            }
            Ok(values)
        })
    }

    /// Forgets the table.
    fn clear(&mut self) {
        self.core.clear();
    }

    /// Nodes searched by the last solve.
    #[getter]
    fn nodes(&self) -> u64 {
        self.core.nodes()
    }
}

impl Solver {
    fn check(&self, state: &State) -> PyResult<()> {
        let theirs = state.rules_value();
        if self.core.solves(&theirs) {
            Ok(())
        } else {
            Err(QuadsError::new_err(format!(
                "this solver solves `{}`, not `{theirs}`",
                self.rules
            )))
        }
    }
}
