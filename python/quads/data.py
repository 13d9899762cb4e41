"""Solver-labelled positions for supervised learning and evaluation.

    >>> from quads.data import labelled_positions
    >>> data = labelled_positions("quads", count=256, seed=1, placed=(6, 12))
    >>> data.observations.shape, data.values.shape, data.action_values.shape
    ((256, 4, 4, 20), (256,), (256, 32))

Positions come from uniform random play (seeded), each labelled by the exact solver with its
value for the player deciding and the value of each of the 32 actions. Needs NumPy.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple, Union

import numpy as np

from ._quads import NUM_ACTIONS, Rules, Solver, State

#: The value written for an illegal action in `action_values` (below any legal value).
ILLEGAL = -(2**31)

DECISIONS = ("place", "give", "both")


@dataclass
class Labelled:
    """A labelled set: row `i` of every array is `states[i]`."""

    states: list
    #: (n, 4, 4, 20) uint8: the observation planes.
    observations: np.ndarray
    #: (n, 32) bool: the legal actions.
    masks: np.ndarray
    #: (n,) int32: the solver's value for the player deciding (`quads.WIN - k`: a win in
    #: `k + 1` placements; its negation a loss; 0 a draw).
    values: np.ndarray
    #: (n, 32) int32: each action's value for the same player, `ILLEGAL` where it is illegal.
    #: `values[:, None] - action_values` is each action's regret.
    action_values: np.ndarray
    #: Positions drawn that the solver could not settle within the limits (left out).
    unsolved: int

    def __len__(self) -> int:
        return len(self.states)

    @property
    def outcomes(self) -> np.ndarray:
        """(n,) int8: +1 a won position, 0 a drawn one, -1 a lost one (for the player
        deciding)."""
        return np.sign(self.values).astype(np.int8)

    @property
    def best(self) -> np.ndarray:
        """(n, 32) bool: the actions that keep the position's value."""
        return self.action_values == self.values[:, None]


def _draw(rules: Rules, rng: random.Random, placed: int, decision: str) -> Optional[State]:
    """A state by uniform random actions with `placed` pieces on the board, at a place
    decision (a piece in hand) or a give decision (a placement pending), or `None` if the game
    ended on the way."""
    s = State(rules)
    while s.placed < placed:
        if s.is_terminal():
            return None
        s.apply_action(rng.choice(s.legal_actions()))
    if s.is_terminal() or s.pending is not None:
        return None
    if decision == "give":
        # A placement that does not end the game, so that a give follows.
        quiet = []
        for a in s.legal_actions():
            s.apply_action(a)
            if s.pending is not None:
                quiet.append(a)
            s.undo()
        if not quiet:
            return None
        s.apply_action(rng.choice(quiet))
    return s


def labelled_positions(
    rules: Union[Rules, str] = "quads",
    count: int = 1000,
    seed: int = 0,
    placed: Union[int, Tuple[int, int]] = (6, 12),
    decisions: str = "both",
    solver: Optional[Solver] = None,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
) -> Labelled:
    """`count` positions of `rules` with `placed` pieces on the board (a number, or an
    inclusive range drawn uniformly), at place decisions, give decisions or both, each labelled
    by the solver (a `quads.Solver`, or a new one with a 64 MiB table). With `nodes` or `time`
    (limits per search: one search per legal move), positions the solver cannot settle within
    them are left out and counted in `unsolved`; a `ValueError` says so when more than
    `10 * count + 10` were left out. The same seed gives the same set. Few pieces
    on the board make slow labels: keep `placed` at 4 or more unless you give limits.
    """
    if isinstance(rules, str):
        rules = Rules(rules)
    lo, hi = (placed, placed) if isinstance(placed, int) else placed
    if not 0 <= lo <= hi <= 15:
        raise ValueError(f"placed must lie within 0-15 (lowest first), not {placed!r}")
    if decisions not in DECISIONS:
        raise ValueError(f"decisions must be one of {', '.join(DECISIONS)}, not {decisions!r}")
    if count < 0:
        raise ValueError(f"count must not be negative, not {count}")
    solver = solver or Solver(rules)
    if str(solver.rules) != str(rules):
        raise ValueError(f"the solver is for rules `{solver.rules}`, the positions for `{rules}`")
    rng = random.Random(seed)
    states, values, action_values = [], [], []
    unsolved = 0
    while len(states) < count:
        if unsolved > 10 * count + 10:
            raise ValueError(
                f"the solver settled {len(states)} of {len(states) + unsolved} positions within "
                "the limits: raise `nodes` or `time`, or draw positions with more pieces placed"
            )
        decision = decisions if decisions != "both" else rng.choice(("place", "give"))
        s = _draw(rules, rng, rng.randint(lo, hi), decision)
        if s is None:
            continue
        av = solver.action_values(s, time=time, nodes=nodes)
        legal = s.legal_actions()
        if any(av[a] is None for a in legal):
            unsolved += 1
            continue
        states.append(s)
        row = [ILLEGAL if v is None else v for v in av]
        action_values.append(row)
        values.append(max(row[a] for a in legal))
    n = len(states)
    obs = np.frombuffer(b"".join(s.observation() for s in states), dtype=np.uint8)
    masks = np.zeros((n, NUM_ACTIONS), dtype=bool)
    for i, s in enumerate(states):
        masks[i, s.legal_actions()] = True
    return Labelled(
        states=states,
        observations=obs.reshape(n, 4, 4, 20).copy(),
        masks=masks,
        values=np.array(values, dtype=np.int32).reshape(n),
        action_values=np.array(action_values, dtype=np.int32).reshape(n, NUM_ACTIONS),
        unsolved=unsolved,
    )


__all__: Sequence[str] = ["Labelled", "ILLEGAL", "labelled_positions"]
