//! `quads.State`: a game under one rules variant, played by whole moves (`D2 BLQF`, as the CLI
//! and the protocol write them) or by half-move actions (see `actions.rs`), with undo, copy,
//! equality, hashing and pickling.

use numpy::PyArrayMethods;
use pyo3::prelude::*;
use pyo3::types::PyAny;
use quads_rules::{perft, ByPlayer, Move, Outcome, Position, Reason, Rules, Square, Then};

use crate::actions::{Action, NUM_ACTIONS};
use crate::halfmove;
use crate::{parse_rules, IllegalMoveError, PyRules, QuadsError};

/// A game in progress. Between a place action and its give action the state holds the
/// placement as `pending`: the board shown by `position` is the one before it.
#[pyclass(module = "quads", name = "State")]
#[derive(Clone)]
pub struct State {
    rules: Rules,
    pos: Position,
    pending: Option<Square>,
    history: Vec<(Position, Option<Square>)>,
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        (self.rules, self.pos, self.pending) == (other.rules, other.pos, other.pending)
    }
}

impl std::hash::Hash for State {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.rules, self.pos, self.pending).hash(h);
    }
}

/// Rules given as a `quads.Rules` or as a spec string.
pub(crate) fn rules_of(rules: &Bound<'_, PyAny>) -> PyResult<Rules> {
    if let Ok(r) = rules.extract::<PyRules>() {
        return Ok(r.0);
    }
    match rules.extract::<String>() {
        Ok(spec) => parse_rules(&spec),
        Err(_) => Err(QuadsError::new_err(
            "rules must be a quads.Rules or a spec such as `quads` or `classic`",
        )),
    }
}

/// A position in the project's notation, checked against `rules` (the CLI's messages).
fn position_of(text: &str, rules: &Rules) -> PyResult<Position> {
    let pos: Position = text
        .parse()
        .map_err(|e: quads_rules::ParsePositionError| QuadsError::new_err(e.to_string()))?;
    pos.check(rules).map_err(|why| {
        QuadsError::new_err(format!(
            "position `{text}` cannot arise under rules `{rules}`: {why}"
        ))
    })?;
    Ok(pos)
}

fn illegal_action(a: Action, pos: &Position, reason: Reason) -> PyErr {
    IllegalMoveError::new_err(format!(
        "illegal action {} (`{a}`) in `{pos}`: {reason}",
        a.index()
    ))
}

impl State {
    /// The whole-turn position (before a pending placement).
    pub(crate) fn pos(&self) -> Position {
        self.pos
    }

    /// The variant.
    pub(crate) fn rules_value(&self) -> Rules {
        self.rules
    }

    /// The square of a placement that awaits its give.
    pub(crate) fn pending_square(&self) -> Option<Square> {
        self.pending
    }

    /// A state with no history.
    pub(crate) fn from_parts(rules: Rules, pos: Position, pending: Option<Square>) -> State {
        State {
            rules,
            pos,
            pending,
            history: Vec::new(),
        }
    }

    /// The legal actions, in increasing order.
    pub(crate) fn legal_action_list(&self) -> Vec<usize> {
        self.legal_actions()
    }

    fn push(&mut self) {
        self.history.push((self.pos, self.pending));
    }

    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome(&self.rules)
    }
}

#[pymethods]
impl State {
    /// A new game (or `position`, in the project's notation) under `rules`.
    #[new]
    #[pyo3(signature = (rules = None, position = None))]
    fn new(rules: Option<&Bound<'_, PyAny>>, position: Option<&str>) -> PyResult<State> {
        let rules = match rules {
            Some(r) => rules_of(r)?,
            None => Rules::QUADS,
        };
        let pos = match position {
            Some(text) => position_of(text, &rules)?,
            None => Position::START,
        };
        Ok(State {
            rules,
            pos,
            pending: None,
            history: Vec::new(),
        })
    }

    /// The rules variant.
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.rules)
    }

    /// The position in the project's notation (before a pending placement).
    #[getter]
    fn position(&self) -> String {
        self.pos.to_string()
    }

    /// The square of a placement that awaits its give, as text, or `None`.
    #[getter]
    fn pending(&self) -> Option<String> {
        self.pending.map(|s| s.to_string())
    }

    /// The piece in hand (the one to place next), as text, or `None`.
    #[getter]
    fn hand(&self) -> Option<String> {
        self.pos.hand().map(|p| p.to_string())
    }

    /// The player who decides now: 0 (first) or 1 (second). The first player gives first.
    #[getter]
    fn current_player(&self) -> usize {
        self.pos.to_move().index()
    }

    /// The number of pieces on the board.
    #[getter]
    fn placed(&self) -> u32 {
        self.pos.placed()
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.outcome().is_some()
    }

    /// `None` while the game goes on, else `"first"`, `"second"` or `"draw"`.
    #[getter]
    fn outcome_name(&self) -> Option<&'static str> {
        self.outcome().map(|o| match o {
            Outcome::Win(p) => p.as_str(),
            Outcome::Draw => "draw",
        })
    }

    /// The winner, 0 or 1, or `None` (a draw, or the game goes on).
    #[getter]
    fn winner(&self) -> Option<usize> {
        match self.outcome() {
            Some(Outcome::Win(p)) => Some(p.index()),
            _ => None,
        }
    }

    /// Each player's result: `[1.0, -1.0]`, `[-1.0, 1.0]`, or `[0.0, 0.0]` (a draw, or the game
    /// goes on).
    fn returns(&self) -> [f64; 2] {
        let r = match self.outcome() {
            Some(Outcome::Win(p)) => ByPlayer::new_with(|q| if q == p { 1.0 } else { -1.0 }),
            _ => ByPlayer::new_with(|_| 0.0),
        };
        r.into_array()
    }

    /// Every legal whole move, as the CLI writes it, in the rules crate's order.
    fn legal_moves(&self) -> PyResult<Vec<String>> {
        if self.pending.is_some() {
            return Err(QuadsError::new_err(
                "a placement awaits its give: use the actions, or undo it",
            ));
        }
        Ok(self
            .pos
            .legal_moves(&self.rules)
            .iter()
            .map(|m| m.to_string())
            .collect())
    }

    /// Plays a whole move (`D2 BLQF`, `BLQF`, `D2`, `D2 quarto`, `quarto`).
    fn play(&mut self, mv: &str) -> PyResult<()> {
        if self.pending.is_some() {
            return Err(QuadsError::new_err(
                "a placement awaits its give: use the actions, or undo it",
            ));
        }
        let m: Move = mv
            .parse()
            .map_err(|e: quads_rules::ParseMoveError| QuadsError::new_err(e.to_string()))?;
        let next = self
            .pos
            .play(m, &self.rules)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
        self.push();
        self.pos = next;
        Ok(())
    }

    /// The legal actions (0–31), in increasing order.
    fn legal_actions(&self) -> Vec<usize> {
        let mask = halfmove::legal_mask(&self.rules, &self.pos, self.pending);
        (0..NUM_ACTIONS).filter(|a| mask & (1 << a) != 0).collect()
    }

    /// The observation planes as 320 bytes, each 0 or 1, in the layout of docs/python.md
    /// (`numpy.frombuffer(b, numpy.uint8).reshape(4, 4, 20)`).
    fn observation<'py>(&self, py: Python<'py>) -> Bound<'py, pyo3::types::PyBytes> {
        let mut out = [0u8; crate::planes::BYTES];
        crate::planes::write(&self.pos, self.pending, &self.rules, &mut out);
        pyo3::types::PyBytes::new(py, &out)
    }

    /// Whether action `action` is legal here (`False` for a number outside 0–31).
    fn is_legal(&self, action: i64) -> bool {
        let mask = halfmove::legal_mask(&self.rules, &self.pos, self.pending);
        (0..NUM_ACTIONS as i64).contains(&action) && mask & (1 << action) != 0
    }

    /// The observation planes as a new `(4, 4, 20)` uint8 NumPy array (what
    /// `quads.env.observe` gives).
    #[expect(
        unsafe_code,
        reason = "a new array's slice without the borrow tracker's cost on every observation"
    )]
    fn planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
        let arr = numpy::PyArray3::zeros(py, [4, 4, crate::planes::PLANES], false);
        // SAFETY: the array was just made here, contiguous, and nothing else holds it.
        let out = unsafe { arr.as_slice_mut() }.map_err(|e| QuadsError::new_err(e.to_string()))?;
        crate::planes::write(&self.pos, self.pending, &self.rules, out);
        Ok(arr)
    }

    /// The legal actions as a new `(32,)` int8 NumPy array of 0 and 1 (what `quads.env.mask`
    /// gives).
    fn mask_array<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<i8>> {
        let mask = halfmove::legal_mask(&self.rules, &self.pos, self.pending);
        let bits: Vec<i8> = (0..NUM_ACTIONS).map(|a| ((mask >> a) & 1) as i8).collect();
        numpy::PyArray1::from_vec(py, bits)
    }

    /// The 32 actions as booleans, legal ones `True`.
    fn action_mask(&self) -> Vec<bool> {
        let mut mask = vec![false; crate::actions::NUM_ACTIONS];
        for a in self.legal_actions() {
            mask[a] = true;
        }
        mask
    }

    /// Plays one half-move. A placement that completes a shape wins (under `claim=announce`
    /// it is announced), one that fills the board ends it; any other awaits its give. In a
    /// position whose last placement left a claimable shape, any place action claims it.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let a = Action::from_index(action)?;
        let (pos, pending) = halfmove::play(&self.rules, &self.pos, self.pending, a)
            .map_err(|reason| illegal_action(a, &self.pos, reason))?;
        self.push();
        self.pos = pos;
        self.pending = pending;
        Ok(())
    }

    /// The whole move a list of actions makes from here (`[7, 20]` → `D2 …`), without playing it.
    fn actions_to_move(&self, actions: Vec<i64>) -> PyResult<String> {
        if self.pending.is_some() {
            return Err(QuadsError::new_err(
                "a placement awaits its give: a whole move starts from a whole position",
            ));
        }
        let mut s = self.clone();
        let mut moves = 0;
        for a in actions {
            let was = s.pos;
            s.apply_action(a)?;
            if s.pos != was {
                moves += 1;
            }
        }
        if s.pending.is_some() || moves != 1 {
            return Err(QuadsError::new_err(
                "these actions do not make exactly one whole move",
            ));
        }
        let before = self.pos;
        let after = s.pos;
        before
            .legal_moves(&self.rules)
            .into_iter()
            .find(|m| before.play(*m, &self.rules).ok() == Some(after))
            .map(|m| m.to_string())
            .ok_or_else(|| QuadsError::new_err("these actions make no legal move"))
    }

    /// The actions of a whole move (`D2 BLQF` → `[13, 16 + BLQF's index]`; `quarto` → a place
    /// action on the first empty square).
    fn move_to_actions(&self, mv: &str) -> PyResult<Vec<usize>> {
        let m: Move = mv
            .parse()
            .map_err(|e: quads_rules::ParseMoveError| QuadsError::new_err(e.to_string()))?;
        if let Err(e) = self.pos.play(m, &self.rules) {
            return Err(IllegalMoveError::new_err(e.to_string()));
        }
        Ok(match m {
            Move::Give(p) => vec![Action::Give(p).index()],
            Move::Claim => {
                let first = self
                    .pos
                    .board()
                    .empty()
                    .iter()
                    .next()
                    .expect("a claim has room");
                vec![first.index()]
            }
            Move::Place { to, then } => match then {
                Then::Give(p) => vec![to.index(), Action::Give(p).index()],
                Then::Nothing | Then::Quarto => vec![to.index()],
            },
        })
    }

    /// Takes back the last move or action.
    fn undo(&mut self) -> PyResult<()> {
        let (pos, pending) = self
            .history
            .pop()
            .ok_or_else(|| QuadsError::new_err("nothing to undo"))?;
        self.pos = pos;
        self.pending = pending;
        Ok(())
    }

    /// The number of whole move sequences of length `depth` from here (the CLI's `quads perft`).
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if self.pending.is_some() {
            return Err(QuadsError::new_err(
                "a placement awaits its give: perft counts from whole positions",
            ));
        }
        let (pos, rules) = (self.pos, self.rules);
        py.allow_threads(|| perft(&pos, &rules, depth))
            .map_err(|e| QuadsError::new_err(e.to_string()))
    }

    /// Equal when the rules, the position and a pending placement are (not the history).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.extract::<State>().is_ok_and(|o| *self == o)
    }

    /// A hash of what equality compares; a state used as a key must not be played on.
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.hash(&mut h);
        h.finish()
    }

    /// The image of this state under a symmetry of its variant (`quads.symmetries`), without
    /// history: the same value, and the image of every legal action legal there.
    fn transform(&self, symmetry: &crate::symmetry::Symmetry) -> State {
        let (pos, pending) = crate::symmetry::image(symmetry, &self.pos, self.pending);
        State::from_parts(self.rules, pos, pending)
    }

    /// An independent copy (with its history).
    fn copy(&self) -> State {
        self.clone()
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    fn __str__(&self) -> String {
        match self.pending {
            Some(sq) => format!("{} (placing on {sq})", self.pos),
            None => self.pos.to_string(),
        }
    }

    fn __repr__(&self) -> String {
        format!("State('{}', '{}')", self.rules, self.__str__())
    }

    /// Pickles as its rules, position, pending placement and history, all as text.
    #[expect(
        clippy::type_complexity,
        reason = "pickle's (constructor, arguments) pair, spelled out"
    )]
    fn __reduce__(
        &self,
        py: Python<'_>,
    ) -> PyResult<(
        PyObject,
        (String, String),
        (Option<String>, Vec<(String, Option<String>)>),
    )> {
        let cls = py.get_type::<State>().into_any().unbind();
        let history = self
            .history
            .iter()
            .map(|(p, s)| (p.to_string(), s.map(|s| s.to_string())))
            .collect();
        Ok((
            cls,
            (self.rules.to_string(), self.pos.to_string()),
            (self.pending.map(|s| s.to_string()), history),
        ))
    }

    fn __setstate__(
        &mut self,
        state: (Option<String>, Vec<(String, Option<String>)>),
    ) -> PyResult<()> {
        let square = |t: &str| {
            t.parse::<Square>()
                .map_err(|e| QuadsError::new_err(e.to_string()))
        };
        self.pending = state.0.as_deref().map(square).transpose()?;
        self.history = state
            .1
            .iter()
            .map(|(p, s)| {
                Ok((
                    position_of(p, &self.rules)?,
                    s.as_deref().map(square).transpose()?,
                ))
            })
            .collect::<PyResult<_>>()?;
        Ok(())
    }
}
