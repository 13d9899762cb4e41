"""A plain pure-Python Quads / classic Quarto environment, written for python/bench/bench.py as
the baseline the package's environments are compared with.

It is written the way Quarto environments on GitHub and PyPI usually are (a board as a Python
list, the winning shapes as a list of square tuples, NumPy for the observation), with the care
anyone would take for speed (shapes through each square precomputed, the board's planes kept
incrementally, the rest of the observation assembled with a few NumPy slices), but no tricks
beyond that: an honest baseline, not a strawman.

It has the API of the package's PettingZoo AEC environment `quads.env.raw_aec_env(rules)`
(`aec_env` adds the same wrappers as `quads.env.aec_env`), the same 32 actions (0-15 place the
piece in hand on square row*4+col, 16-31 give piece 0-15, a piece's index being its four trait
bits: size, colour, shape, fill) and the same observation planes (docs/python.md). The game is
the package's move for move (python/tests/test_pure_quarto.py checks it).

Rules specs: `quads` (rows, columns, diagonals and the nine 2x2 blocks win) and `classic`
(rows, columns, diagonals), with the settings `traits=` (e.g. `classic,traits=color+fill`),
`squares=on|off` and `claim=auto|announce`. In this action space a winning placement always
announces its win, so `claim=announce` plays as `claim=auto` does.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

NUM_ACTIONS = 32
PLANES = 20
SHAPE = (4, 4, PLANES)
GIVE = 16
TRAIT_NAMES = ("size", "color", "shape", "fill")

LINES = (
    [tuple(4 * r + c for c in range(4)) for r in range(4)]
    + [tuple(4 * r + c for r in range(4)) for c in range(4)]
    + [(0, 5, 10, 15), (3, 6, 9, 12)]
)
BLOCKS = [(4 * r + c, 4 * r + c + 1, 4 * r + c + 4, 4 * r + c + 5) for r in range(3) for c in range(3)]

# Planes 0-7 of a square holding piece p: bit t set -> plane t, clear -> plane 4 + t.
PIECE_PLANES = np.array(
    [[(p >> t) & 1 for t in range(4)] + [1 - ((p >> t) & 1) for t in range(4)] for p in range(16)],
    dtype=np.uint8,
)
# Planes 9-12 (the piece to place) and 13 (the next action places), for piece p in hand.
HAND_PLANES = np.array([[(p >> t) & 1 for t in range(4)] + [1] for p in range(16)], dtype=np.uint8)


def parse_rules(spec: str):
    """(squares win, mask of the counting traits) of a rules spec."""
    parts = [p.strip() for p in spec.split(",")]
    presets = {"quads": True, "classic": False}
    if parts[0] not in presets:
        raise ValueError(f"unknown preset `{parts[0]}`")
    squares, traits = presets[parts[0]], 15
    for part in parts[1:]:
        key, _, value = (x.strip() for x in part.partition("="))
        if key == "squares" and value in ("on", "off"):
            squares = value == "on"
        elif key == "traits":
            traits = 0
            for name in value.split("+"):
                traits |= 1 << TRAIT_NAMES.index(name.strip())
        elif key == "claim" and value in ("auto", "announce"):
            pass
        else:
            raise ValueError(f"unknown setting `{part}`")
    return squares, traits


class Game:
    """The game, one half-move at a time. `board[sq]` is a piece index or -1."""

    def __init__(self, rules: str = "quads"):
        self.rules = rules
        self.squares, self.traits = parse_rules(rules)
        shapes = LINES + (BLOCKS if self.squares else [])
        self.shapes_through = [[s for s in shapes if sq in s] for sq in range(16)]
        const = np.zeros((16, 5), dtype=np.uint8)  # planes 15-19, fixed by the variant
        const[:, 0] = 1 if self.squares else 0
        for t in range(4):
            const[:, 1 + t] = (self.traits >> t) & 1
        self.const = const
        self.reset()

    def reset(self):
        self.board = [-1] * 16
        self.hand = -1  # the piece to place, -1 when there is none (a give comes next)
        self.pending = -1  # the square of a placement awaiting its give
        self.player = 0  # who decides now: 0 gives first
        self.placed = 0
        self.done = False
        self.winner: Optional[int] = None
        self.empty = np.ones(16, dtype=np.int8)  # empty squares
        self.givable = np.ones(16, dtype=np.int8)  # pieces neither placed nor in hand
        self.board_planes = np.zeros((16, 8), dtype=np.uint8)

    def wins_at(self, sq: int) -> bool:
        """Whether the piece just placed on `sq` completes a winning shape."""
        b = self.board
        for a, c, d, e in self.shapes_through[sq]:
            p, q, r, s = b[a], b[c], b[d], b[e]
            if p < 0 or q < 0 or r < 0 or s < 0:
                continue
            if ((p & q & r & s) | (~p & ~q & ~r & ~s)) & self.traits:
                return True
        return False

    def legal_actions(self):
        if self.done:
            return []
        if self.hand >= 0:
            return [sq for sq in range(16) if self.board[sq] < 0]
        return [GIVE + p for p in range(16) if self.givable[p]]

    def action_mask(self) -> np.ndarray:
        m = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if not self.done:
            if self.hand >= 0:
                m[:GIVE] = self.empty
            else:
                m[GIVE:] = self.givable
        return m

    def apply(self, action: int):
        if self.done:
            raise ValueError("the game is over")
        if action < GIVE:
            if self.hand < 0 or self.board[action] >= 0:
                raise ValueError(f"illegal action {action}")
            piece, self.hand = self.hand, -1
            self.board[action] = piece
            self.empty[action] = 0
            self.board_planes[action] = PIECE_PLANES[piece]
            self.placed += 1
            if self.wins_at(action):
                self.done, self.winner = True, self.player
                self.player ^= 1
            elif self.placed == 16:
                self.done = True
                self.player ^= 1
            else:
                self.pending = action  # the placer gives next
        else:
            piece = action - GIVE
            if self.hand >= 0 or not self.givable[piece]:
                raise ValueError(f"illegal action {action}")
            self.hand, self.pending = piece, -1
            self.givable[piece] = 0
            self.player ^= 1

    def returns(self):
        if self.winner is None:
            return [0.0, 0.0]
        r = [-1.0, -1.0]
        r[self.winner] = 1.0
        return r

    def observation(self) -> np.ndarray:
        obs = np.zeros((16, PLANES), dtype=np.uint8)
        obs[:, :8] = self.board_planes
        if self.pending >= 0:
            obs[self.pending, 8] = 1
        if self.hand >= 0:
            obs[:, 9:14] = HAND_PLANES[self.hand]
        elif not self.done:
            obs[:, 14] = self.givable
        obs[:, 15:] = self.const
        return obs.reshape(SHAPE)


def _pettingzoo():
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    class PureQuartoAEC(AECEnv):
        """Both players as agents (`player_0` gives first; a player acts twice in a row, a
        place then a give). Rewards at the end: +1 to the winner, -1 to the loser."""

        metadata = {"render_modes": ["human"], "name": "pure_quarto_v0", "is_parallelizable": False}

        def __init__(self, rules: str = "quads", render_mode: Optional[str] = None):
            super().__init__()
            self.rules = rules
            self.render_mode = render_mode
            self.possible_agents = ["player_0", "player_1"]
            self.agents = self.possible_agents[:]
            obs = spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, SHAPE, dtype=np.uint8),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
                }
            )
            self.observation_spaces = {a: obs for a in self.possible_agents}
            self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
            self.game = Game(rules)

        def observation_space(self, agent):
            return self.observation_spaces[agent]

        def action_space(self, agent):
            return self.action_spaces[agent]

        def observe(self, agent):
            return {"observation": self.game.observation(), "action_mask": self.game.action_mask()}

        def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
            self.game.reset()
            self.agents = self.possible_agents[:]
            self.rewards = {a: 0 for a in self.agents}
            self._cumulative_rewards = {a: 0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos = {a: {} for a in self.agents}
            self.agent_selection = self.agents[self.game.player]

        def step(self, action):
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                return self._was_dead_step(action)
            self.game.apply(int(action))
            self._cumulative_rewards[agent] = 0
            if self.game.done:
                returns = self.game.returns()
                for i, a in enumerate(self.agents):
                    self.rewards[a] = int(returns[i])
                    self.terminations[a] = True
            self.agent_selection = self.agents[self.game.player]
            self._accumulate_rewards()
            if self.render_mode == "human":
                self.render()

        def render(self):
            if self.render_mode == "human":
                rows = []
                for r in range(3, -1, -1):
                    rows.append(" ".join("." if p < 0 else f"{p:x}" for p in self.game.board[4 * r : 4 * r + 4]))
                print("\n".join(rows), "hand:", self.game.hand)

        def close(self):
            pass

    return PureQuartoAEC, wrappers


def raw_aec_env(rules: str = "quads", render_mode: Optional[str] = None):
    """The AEC environment without wrappers (as `quads.env.raw_aec_env`)."""
    cls, _ = _pettingzoo()
    return cls(rules, render_mode)


def aec_env(rules: str = "quads", render_mode: Optional[str] = None):
    """The AEC environment with the wrappers of `quads.env.aec_env`."""
    cls, wrappers = _pettingzoo()
    env = cls(rules, render_mode)
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
