//! `quads.VectorEnv`: N games stepped in one call, written into NumPy arrays that the
//! environment allocates once and overwrites in place (observations, action masks, rewards,
//! terminations, the player to act), with auto-reset in the same step, the next, or never;
//! both seats the caller's, or one answered by a level inside the step. The games are split across threads with
//! the GIL released; each game has its own seeded RNG, so the results do not depend on the
//! number of threads.

use numpy::{PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use quads_rules::{Player, Rules};

use crate::actions::NUM_ACTIONS;
use crate::games::{reset_slice, step_slice, Autoreset, Game, Opponent, Out};
use crate::levels::{strategy_of, DEFAULT_NODES};
use crate::planes::{BYTES, PLANES};
use crate::state::{rules_of, State};
use crate::QuadsError;

/// The fewest games a thread is given.
const MIN_SLICE: usize = 512;

/// The autoreset mode `auto_reset` names: a bool (`True` is the same step) or a mode's name.
fn autoreset_of(value: Option<&Bound<'_, PyAny>>) -> PyResult<Autoreset> {
    let Some(value) = value else {
        return Ok(Autoreset::SameStep);
    };
    if let Ok(on) = value.extract::<bool>() {
        return Ok(if on {
            Autoreset::SameStep
        } else {
            Autoreset::Disabled
        });
    }
    let name = value.str()?.to_string();
    let name = name
        .rsplit('.')
        .next()
        .unwrap_or(&name)
        .to_lowercase()
        .replace('_', "-");
    Autoreset::NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, m)| *m)
        .ok_or_else(|| {
            QuadsError::new_err(format!(
                "auto_reset must be True, False, \"same-step\", \"next-step\" or \"disabled\", not {value}"
            ))
        })
}

/// `N` games of one variant, stepped together into arrays that the environment owns.
#[pyclass(module = "quads", name = "VectorEnv")]
pub struct VectorEnv {
    rules: Rules,
    games: Vec<Game>,
    mode: Autoreset,
    opponent: Option<Opponent>,
    opponent_name: Option<String>,
    threads: usize,
    /// The threads, kept between calls (none for one thread).
    pool: Option<rayon::ThreadPool>,
    seed: u64,
    observations: Py<PyArray4<u8>>,
    action_masks: Py<PyArray2<bool>>,
    rewards: Py<PyArray2<f32>>,
    terminations: Py<PyArray1<bool>>,
    current_player: Py<PyArray1<i8>>,
}

/// Cuts `n` items into `parts` runs of nearly equal length, as their lengths.
fn runs(n: usize, parts: usize) -> Vec<usize> {
    let parts = parts.clamp(1, n.max(1));
    (0..parts)
        .map(|k| n / parts + usize::from(k < n % parts))
        .collect()
}

impl VectorEnv {
    /// Runs `each` over every slice of games with its actions and arrays, on `threads`
    /// threads, without the GIL.
    fn over_slices(
        &mut self,
        py: Python<'_>,
        actions: Option<&[i64]>,
        each: fn(&Rules, Autoreset, &mut [Game], &[i64], Out),
    ) -> PyResult<()> {
        let n = self.games.len();
        let mut obs = self.observations.bind(py).readwrite();
        let mut masks = self.action_masks.bind(py).readwrite();
        let mut rewards = self.rewards.bind(py).readwrite();
        let mut terms = self.terminations.bind(py).readwrite();
        let mut player = self.current_player.bind(py).readwrite();
        let contiguous = |e: numpy::NotContiguousError| QuadsError::new_err(e.to_string());
        let (mut obs, mut masks, mut rewards, mut terms, mut player) = (
            obs.as_slice_mut().map_err(contiguous)?,
            masks.as_slice_mut().map_err(contiguous)?,
            rewards.as_slice_mut().map_err(contiguous)?,
            terms.as_slice_mut().map_err(contiguous)?,
            player.as_slice_mut().map_err(contiguous)?,
        );
        let none = vec![-1i64; if actions.is_none() { n } else { 0 }];
        let mut actions = actions.unwrap_or(&none);
        let (rules, mode) = (self.rules, self.mode);
        let mut games = &mut self.games[..];
        // A slice per thread, but none smaller than MIN_SLICE games: below that, handing work
        // to another thread costs more than it saves.
        let lengths = runs(n, self.threads.min(n / MIN_SLICE).max(1));
        let pool = self.pool.as_ref().filter(|_| lengths.len() > 1);
        py.allow_threads(move || {
            let mut slices = Vec::with_capacity(lengths.len());
            for &len in &lengths {
                let (g, rest) = std::mem::take(&mut games).split_at_mut(len);
                games = rest;
                let (a, rest) = actions.split_at(len);
                actions = rest;
                let (o, rest) = std::mem::take(&mut obs).split_at_mut(len * BYTES);
                obs = rest;
                let (m, rest) = std::mem::take(&mut masks).split_at_mut(len * NUM_ACTIONS);
                masks = rest;
                let (r, rest) = std::mem::take(&mut rewards).split_at_mut(len * 2);
                rewards = rest;
                let (t, rest) = std::mem::take(&mut terms).split_at_mut(len);
                terms = rest;
                let (p, rest) = std::mem::take(&mut player).split_at_mut(len);
                player = rest;
                let out = Out {
                    obs: o,
                    masks: m,
                    rewards: r,
                    terminations: t,
                    player: p,
                };
                slices.push((g, a, out));
            }
            match pool {
                None => {
                    for (g, a, out) in slices {
                        each(&rules, mode, g, a, out);
                    }
                }
                Some(pool) => pool.scope(|scope| {
                    for (g, a, out) in slices {
                        scope.spawn(move |_| each(&rules, mode, g, a, out));
                    }
                }),
            }
        });
        Ok(())
    }

    fn arrays<'py>(&self, py: Python<'py>, which: &[usize]) -> PyResult<Bound<'py, PyTuple>> {
        let all: [PyObject; 5] = [
            self.observations.clone_ref(py).into_any(),
            self.rewards.clone_ref(py).into_any(),
            self.terminations.clone_ref(py).into_any(),
            self.action_masks.clone_ref(py).into_any(),
            self.current_player.clone_ref(py).into_any(),
        ];
        PyTuple::new(py, which.iter().map(|&k| all[k].clone_ref(py)))
    }
}

#[pymethods]
impl VectorEnv {
    /// `num_envs` games of `rules`, each at its start. `seed` seeds each game's RNG (for
    /// `sample_actions`); `threads` splits the games across that many threads. `auto_reset`
    /// is `True` (`"same-step"`), `"next-step"` or `False` (`"disabled"`). With `opponent` (a
    /// level's name) the caller plays seat `seat` (`None`: drawn at each start) and the level
    /// answers inside the step, searching `opponent_nodes` nodes a move.
    #[new]
    #[pyo3(signature = (rules = None, num_envs = 1024, seed = 0, auto_reset = None, threads = 1, opponent = None, seat = Some(0), opponent_nodes = None))]
    #[expect(
        clippy::too_many_arguments,
        reason = "the keyword arguments of a Python class"
    )]
    fn new(
        py: Python<'_>,
        rules: Option<&Bound<'_, PyAny>>,
        num_envs: usize,
        seed: u64,
        auto_reset: Option<&Bound<'_, PyAny>>,
        threads: usize,
        opponent: Option<String>,
        seat: Option<usize>,
        opponent_nodes: Option<u64>,
    ) -> PyResult<VectorEnv> {
        let rules = match rules {
            Some(r) => rules_of(r)?,
            None => Rules::QUADS,
        };
        if num_envs == 0 {
            return Err(QuadsError::new_err("num_envs must be at least 1"));
        }
        if threads == 0 {
            return Err(QuadsError::new_err("threads must be at least 1"));
        }
        let mode = autoreset_of(auto_reset)?;
        let against = match &opponent {
            None => None,
            Some(name) => {
                let seat = match seat {
                    None => None,
                    Some(s @ (0 | 1)) => Some(Player::from_index(s)),
                    Some(_) => return Err(QuadsError::new_err("seat must be 0, 1 or None")),
                };
                Some(Opponent {
                    strategy: strategy_of(name)?,
                    nodes: opponent_nodes.unwrap_or(DEFAULT_NODES),
                    seat,
                })
            }
        };
        let n = num_envs;
        let pool = match threads {
            1 => None,
            _ => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| {
                        QuadsError::new_err(format!("cannot start {threads} threads: {e}"))
                    })?,
            ),
        };
        let mut env = VectorEnv {
            rules,
            games: (0..n)
                .map(|i| Game::new(&rules, seed, i, against))
                .collect(),
            mode,
            opponent: against,
            opponent_name: opponent,
            threads,
            pool,
            seed,
            observations: PyArray4::zeros(py, [n, 4, 4, PLANES], false).unbind(),
            action_masks: PyArray2::zeros(py, [n, NUM_ACTIONS], false).unbind(),
            rewards: PyArray2::zeros(py, [n, 2], false).unbind(),
            terminations: PyArray1::zeros(py, n, false).unbind(),
            current_player: PyArray1::zeros(py, n, false).unbind(),
        };
        env.over_slices(py, None, reset_slice)?;
        Ok(env)
    }

    /// Every game back to its start (re-seeding the RNGs when `seed` is given); returns
    /// `(observations, action_masks, current_player)`.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Bound<'py, PyTuple>> {
        if let Some(seed) = seed {
            self.seed = seed;
            let (rules, against) = (self.rules, self.opponent);
            for (i, g) in self.games.iter_mut().enumerate() {
                *g = Game::new(&rules, seed, i, against);
            }
        }
        self.over_slices(py, None, reset_slice)?;
        self.arrays(py, &[0, 3, 4])
    }

    /// Plays one action in every game (an int array of length `num_envs`); returns
    /// `(observations, rewards, terminations, action_masks, current_player)`, the
    /// environment's own arrays, overwritten.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let actions: PyReadonlyArray1<i64> = match actions.extract() {
            Ok(a) => a,
            Err(_) => py
                .import("numpy")?
                .call_method1("ascontiguousarray", (actions, "int64"))
                .and_then(|a| a.extract())
                .map_err(|_| {
                    QuadsError::new_err("actions must be a one-dimensional array of integers")
                })?,
        };
        let a = actions
            .as_slice()
            .map_err(|e| QuadsError::new_err(e.to_string()))?;
        if a.len() != self.games.len() {
            return Err(QuadsError::new_err(format!(
                "{} actions for {} games",
                a.len(),
                self.games.len()
            )));
        }
        self.over_slices(py, Some(a), step_slice)?;
        self.arrays(py, &[0, 1, 2, 3, 4])
    }

    /// A uniform legal action per game from its own RNG (−1 for a game with none), as a new
    /// int64 array.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let n = self.games.len();
        let mut picks = vec![0i64; n];
        let lengths = runs(n, self.threads.min(n / MIN_SLICE).max(1));
        let pool = self.pool.as_ref().filter(|_| lengths.len() > 1);
        let mut games = &mut self.games[..];
        let mut rest = &mut picks[..];
        py.allow_threads(|| {
            let draw = |games: &mut [Game], picks: &mut [i64]| {
                for (g, p) in games.iter_mut().zip(picks) {
                    *p = g.sample();
                }
            };
            match pool {
                None => draw(games, rest),
                Some(pool) => pool.scope(|scope| {
                    for &len in &lengths {
                        let (g, more) = std::mem::take(&mut games).split_at_mut(len);
                        games = more;
                        let (p, more) = std::mem::take(&mut rest).split_at_mut(len);
                        rest = more;
                        scope.spawn(move |_| draw(g, p));
                    }
                }),
            }
        });
        PyArray1::from_vec(py, picks)
    }

    /// Game `index` as a `quads.State` (without history).
    fn state(&self, index: usize) -> PyResult<State> {
        let g = self.games.get(index).ok_or_else(|| {
            QuadsError::new_err(format!(
                "game {index} is out of range: there are {}",
                self.games.len()
            ))
        })?;
        Ok(State::from_parts(self.rules, g.pos, g.pending))
    }

    /// `(num_envs, 4, 4, 20)` uint8: each game's observation planes (docs/python.md).
    #[getter]
    fn observations(&self, py: Python<'_>) -> Py<PyArray4<u8>> {
        self.observations.clone_ref(py)
    }

    /// `(num_envs, 32)` bool: each game's legal actions.
    #[getter]
    fn action_masks(&self, py: Python<'_>) -> Py<PyArray2<bool>> {
        self.action_masks.clone_ref(py)
    }

    /// `(num_envs, 2)` float32: what the last step gave the first and the second player.
    #[getter]
    fn rewards(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        self.rewards.clone_ref(py)
    }

    /// `(num_envs,)` bool: the games the last step ended.
    #[getter]
    fn terminations(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.terminations.clone_ref(py)
    }

    /// `(num_envs,)` int8: who acts next in each game, 0 or 1.
    #[getter]
    fn current_player(&self, py: Python<'_>) -> Py<PyArray1<i8>> {
        self.current_player.clone_ref(py)
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.games.len()
    }

    #[getter]
    fn rules(&self) -> crate::PyRules {
        crate::PyRules(self.rules)
    }

    /// Whether an ended game starts again by itself.
    #[getter]
    fn auto_reset(&self) -> bool {
        self.mode != Autoreset::Disabled
    }

    /// `"same-step"`, `"next-step"` or `"disabled"`.
    #[getter]
    fn autoreset_mode(&self) -> &'static str {
        self.mode.name()
    }

    /// The opponent's name, or `None` when the caller plays both seats.
    #[getter]
    fn opponent(&self) -> Option<String> {
        self.opponent_name.clone()
    }

    /// `(num_envs,)` int8: the caller's seat in each game against an opponent (−1 without).
    #[getter]
    fn seats<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let seats = self
            .games
            .iter()
            .map(|g| g.seat().map_or(-1, |s| s.index() as i8));
        PyArray1::from_iter(py, seats)
    }

    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "VectorEnv('{}', num_envs={}, seed={}, auto_reset='{}', threads={}{})",
            self.rules,
            self.games.len(),
            self.seed,
            self.mode.name(),
            self.threads,
            self.opponent_name
                .as_ref()
                .map_or(String::new(), |o| format!(", opponent='{o}'"))
        )
    }
}
