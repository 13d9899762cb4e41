//! The native core of the Python package `quads`: the rules crate behind a thin pyo3 shell.
//! Every error crosses as a Python exception carrying the project's one-line message; nothing
//! panics across the boundary.

mod actions;
mod arena;
mod canonical;
mod games;
mod halfmove;
mod levels;
mod planes;
mod signals;
mod solver;
mod state;
mod symmetry;
mod vector;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use quads_rules::Rules;

/// mimalloc: a heap per thread, where glibc's malloc made the batched environment's threads
/// queue on one lock (python/Cargo.toml).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

create_exception!(
    _quads,
    QuadsError,
    PyValueError,
    "Every error of the package: a bad rules spec, position, move or action."
);
create_exception!(
    _quads,
    IllegalMoveError,
    QuadsError,
    "A move or action that the rules do not allow here (the message says why)."
);

/// A rules variant, from its spec (`quads`, `classic,traits=color+shape`, `quads,claim=announce`).
#[pyclass(module = "quads", name = "Rules", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyRules(pub Rules);

#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (spec = "quads"))]
    fn new(spec: &str) -> PyResult<Self> {
        parse_rules(spec).map(PyRules)
    }

    /// The canonical spec (what `str()` gives, and what the CLI prints).
    #[getter]
    fn spec(&self) -> String {
        self.0.to_string()
    }

    /// Whether 2×2 squares win too (Quads) or only lines (classic Quarto).
    #[getter]
    fn squares(&self) -> bool {
        self.0.squares
    }

    /// Whether a win must be announced (`claim=announce`).
    #[getter]
    fn announce(&self) -> bool {
        self.0.claim == quads_rules::Claim::Announce
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Rules('{}')", self.0)
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(PyObject, (String,))> {
        let cls = py.get_type::<PyRules>().into_any().unbind();
        Ok((cls, (self.0.to_string(),)))
    }
}

/// Parses a rules spec, or raises `QuadsError` with the CLI's message.
pub fn parse_rules(spec: &str) -> PyResult<Rules> {
    spec.parse::<Rules>()
        .map_err(|e| QuadsError::new_err(e.to_string()))
}

/// The native module, `quads._quads`; `quads/__init__.py` re-exports it.
#[pymodule]
fn _quads(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("QuadsError", m.py().get_type::<QuadsError>())?;
    m.add("IllegalMoveError", m.py().get_type::<IllegalMoveError>())?;
    m.add_class::<PyRules>()?;
    m.add_class::<state::State>()?;
    m.add_class::<solver::Solver>()?;
    m.add_class::<solver::Solution>()?;
    m.add_class::<levels::Level>()?;
    m.add_class::<symmetry::Symmetry>()?;
    m.add_class::<vector::VectorEnv>()?;
    m.add_function(wrap_pyfunction!(canonical::symmetries, m)?)?;
    m.add_function(wrap_pyfunction!(arena::play_tournament, m)?)?;
    m.add_function(wrap_pyfunction!(arena::play_sprt, m)?)?;
    m.add_function(wrap_pyfunction!(canonical::canonical, m)?)?;
    m.add("WIN", quads_bots::solver::WIN)?;
    // The package's version is its crate's (pyproject.toml takes it from Cargo.toml).
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("PLANES", planes::PLANES)?;
    m.add("NUM_ACTIONS", actions::NUM_ACTIONS)?;
    m.add_function(wrap_pyfunction!(actions::action_to_str, m)?)?;
    m.add_function(wrap_pyfunction!(actions::parse_action, m)?)?;
    Ok(())
}
