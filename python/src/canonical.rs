//! `quads.symmetries` and `quads.canonical`: the symmetries of a variant (`symmetry.rs`) from
//! Python, and a state's canonical form, its least image.

use pyo3::prelude::*;
use quads_rules::{Position, Square};

use crate::state::State;
use crate::symmetry::{all, image, key, Key, Symmetry};

/// Every symmetry of a variant (`quads.symmetries("classic")`), the identity first.
#[pyfunction]
pub fn symmetries(rules: &Bound<'_, PyAny>) -> PyResult<Vec<Symmetry>> {
    Ok(all(&crate::state::rules_of(rules)?))
}

/// The canonical form of `state` (its least image) and the symmetry that takes it there.
#[pyfunction]
pub fn canonical(state: &State) -> (State, Symmetry) {
    let rules = state.rules_value();
    let (pos, pending) = (state.pos(), state.pending_square());
    let mut best: Option<(Key, Symmetry, Position, Option<Square>)> = None;
    for sym in all(&rules) {
        let (p, s) = image(&sym, &pos, pending);
        let k = key(&p, s);
        if best.as_ref().map_or(true, |(b, ..)| k < *b) {
            best = Some((k, sym, p, s));
        }
    }
    let (_, sym, p, s) = best.expect("the identity");
    (State::from_parts(rules, p, s), sym)
}
