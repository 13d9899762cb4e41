//! The arena's native half: a tournament config (the CLI's format, as text) played by
//! `quads_results`, as `quads tournament` and `quads sprt` play it, with the GIL released and
//! the run's events sent to a Python callable. `quads/arena.py` writes the config and serves
//! the Python agents; this file only runs it.

use std::path::Path;

use pyo3::prelude::*;
use quads_reports::sprt::{Decision, Sprt};
use quads_results::sprt::{run_sprt, Tested};
use quads_results::tournament::{play, warnings, Ended, Options};
use quads_results::{Event, Sink};
use quads_tournament::{check_sprt, parse_config, Overrides, SprtSettings, Tournament};

use crate::signals::with_run_handlers;
use crate::QuadsError;

/// Sends the events Python hears of to `on_event(kind, text)`; the first error the callable
/// raises is kept and raised when the run ends.
struct ToPython {
    on_event: Option<PyObject>,
    failed: Option<PyErr>,
}

impl ToPython {
    fn say(&mut self, kind: &str, text: &str) {
        let (Some(f), None) = (&self.on_event, &self.failed) else {
            return;
        };
        if let Err(e) = Python::with_gil(|py| f.call1(py, (kind, text)).map(drop)) {
            self.failed = Some(e);
        }
    }

    fn done(self) -> PyResult<()> {
        self.failed.map_or(Ok(()), Err)
    }
}

impl Sink for ToPython {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Warning(w) => self.say("warning", w),
            Event::Admission(a) | Event::Admitted(a) => self.say("admission", a),
            Event::Started { games, .. } => self.say("started", &games.to_string()),
            Event::GameFinished { record, done } => self.say(
                "game",
                &format!(
                    "game {} {} {} {} ({}); {done} done",
                    record.game,
                    record.first.name,
                    record.result,
                    record.second.name,
                    record.reason
                ),
            ),
            Event::Pair(p) => self.say("pair", p),
            Event::Stopping => self.say("stopping", "stopping: the games in flight are abandoned"),
            Event::Tables { table, .. } => self.say("standings", table),
            Event::Judged { table, .. } => self.say("analysis", table),
            _ => {}
        }
    }

    /// Python is told of games, never of moves.
    fn wants_moves(&self) -> bool {
        false
    }
}

fn config_error(e: impl std::fmt::Display) -> PyErr {
    QuadsError::new_err(e.to_string())
}

/// Reads a config given as text; `source` names it in errors.
fn read(config: &str, source: &str) -> PyResult<Tournament> {
    parse_config(config, Path::new(source), &Overrides::default()).map_err(config_error)
}

/// Plays the tournament `config` (the TOML of docs/tournaments.md; `source` names it in
/// errors) into its folder, judging it with the solver if `analyze`; `True` when it finished,
/// `False` when a signal stopped it (the same call resumes it).
#[pyfunction]
#[pyo3(signature = (config, source, analyze = false, on_event = None))]
pub fn play_tournament(
    py: Python<'_>,
    config: &str,
    source: &str,
    analyze: bool,
    on_event: Option<PyObject>,
) -> PyResult<bool> {
    let t = read(config, source)?;
    let mut sink = ToPython {
        on_event,
        failed: None,
    };
    for w in warnings(&t).map_err(config_error)? {
        sink.event(Event::Warning(&w));
    }
    let options = Options {
        shard: None,
        analyze,
    };
    let ended =
        py.allow_threads(|| with_run_handlers(|| play(Path::new(source), t, options, &mut sink)));
    let ended = ended.map_err(config_error)?;
    sink.done()?;
    Ok(ended == Ended::Finished)
}

/// Runs an SPRT of the config's first bot against its second (its `pairs` is the pair limit):
/// `(decision, verdict)` with decision `"H1"`, `"H0"` or `"undecided"`, or `None` when a
/// signal stopped it.
#[pyfunction]
#[pyo3(signature = (config, source, elo0, elo1, alpha = 0.05, beta = 0.05, on_event = None))]
#[expect(
    clippy::too_many_arguments,
    reason = "the keyword arguments of a Python function"
)]
pub fn play_sprt(
    py: Python<'_>,
    config: &str,
    source: &str,
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    on_event: Option<PyObject>,
) -> PyResult<Option<(String, String)>> {
    let t = read(config, source)?;
    check_sprt(&SprtSettings {
        elo0,
        elo1,
        alpha,
        beta,
        max_pairs: t.pairs,
    })
    .map_err(config_error)?;
    let mut sink = ToPython {
        on_event,
        failed: None,
    };
    for w in warnings(&t).map_err(config_error)? {
        sink.event(Event::Warning(&w));
    }
    let test = Sprt {
        elo0,
        elo1,
        alpha,
        beta,
    };
    let tested = py.allow_threads(|| with_run_handlers(|| run_sprt(&t, test, &mut sink)));
    let tested = tested.map_err(config_error)?;
    sink.done()?;
    Ok(match tested {
        Tested::Interrupted => None,
        Tested::Decided { decision, verdict } => {
            let word = match decision {
                Decision::H1 => "H1",
                Decision::H0 => "H0",
                Decision::Continue => "undecided",
            };
            Some((word.to_owned(), verdict))
        }
    })
}
