//! The oracle: positions' values from the exact solver, each position solved once per run.
//!
//! One solver (and so one transposition table) per set of winning shapes and counting traits,
//! shared by every game of a run that plays under them: a variant and its `claim=announce`
//! form share one, since the solver solves claims as automatic ([`Solver::solves`]). On top
//! of the table, the values found are kept by position, so that a position that recurs (the
//! same opening played twice, a game pair's common moves) is not searched again.

use std::collections::HashMap;

use quads_bots::solver::Solver;
use quads_rules::{ClaimState, Position, Rules};

use crate::value::Value;

/// What the oracle did in a run: for the speed line, never for the analysis files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Positions searched by the solver.
    pub solved: u64,
    /// Positions whose value was already known from an earlier game of the run.
    pub recurred: u64,
    /// Nodes the solver searched.
    pub nodes: u64,
}

/// Values of positions under perfect play, for one run.
pub struct Oracle {
    hash_mib: usize,
    threads: usize,
    solvers: Vec<Solver>,
    known: HashMap<(usize, Position), Value>,
    work: Work,
}

impl Oracle {
    /// An oracle whose solvers have tables of `hash_mib` MiB each and search on `threads`
    /// threads.
    pub fn new(hash_mib: usize, threads: usize) -> Oracle {
        Oracle {
            hash_mib: hash_mib.max(1),
            threads: threads.max(1),
            solvers: Vec::new(),
            known: HashMap::new(),
            work: Work::default(),
        }
    }

    /// What the oracle has done so far.
    pub fn work(&self) -> Work {
        self.work
    }

    /// The value of `pos` for the player to move, under perfect play by both from here:
    /// a claimable win is a win (claim it); otherwise the solver's value. None when there is
    /// nothing to solve: the game is over or no piece is in hand.
    pub fn value(&mut self, pos: &Position, rules: &Rules) -> Option<Value> {
        if pos.outcome(rules).is_some() || pos.hand().is_none() {
            return None;
        }
        if pos.claim_state() == ClaimState::Claimable {
            return Some(Value::Win);
        }
        let i = self.solver_for(rules);
        if let Some(&v) = self.known.get(&(i, *pos)) {
            self.work.recurred += 1;
            return Some(v);
        }
        let solver = &mut self.solvers[i];
        let found = solver.solve(pos, None, 0)?;
        self.work.solved += 1;
        self.work.nodes += solver.nodes();
        let v = Value::of_score(found.value);
        self.known.insert((i, *pos), v);
        Some(v)
    }

    /// The index of the solver for `rules`, made on first use.
    fn solver_for(&mut self, rules: &Rules) -> usize {
        if let Some(i) = self.solvers.iter().position(|s| s.solves(rules)) {
            return i;
        }
        self.solvers
            .push(Solver::new(rules, self.hash_mib).with_threads(self.threads));
        self.solvers.len() - 1
    }
}
