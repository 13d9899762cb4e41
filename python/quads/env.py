"""Environments over `quads.State`: a PettingZoo AEC environment with both players as agents
(published as `quads.pettingzoo.quads_v0` and `quarto_v0`), and the Gymnasium environment
against a level (`quads.gym`). Both use the 32-action space (0-15 place the piece in hand,
16-31 give a piece) and the observation planes of docs/python.md.

    >>> from quads.pettingzoo import quads_v0
    >>> env = quads_v0.env(rules="classic")
    >>> env.reset(seed=1)

PettingZoo and Gymnasium are optional: `pip install "./python[envs]"`.
"""

from __future__ import annotations

import functools
from typing import Any, Optional

import numpy as np

from ._quads import NUM_ACTIONS, PLANES, Level, State

SHAPE = (4, 4, PLANES)


def observe(state: State) -> np.ndarray:
    """The planes of `state` as a new (4, 4, 20) uint8 array."""
    return state.planes()


def mask(state: State) -> np.ndarray:
    """The legal actions as a new (32,) int8 array of 0 and 1."""
    return state.mask_array()


def _in_space(action, space) -> bool:
    """`space.contains(action)` for Discrete(32), without its cost for a plain integer."""
    if type(action) is int or isinstance(action, np.integer):
        return 0 <= action < NUM_ACTIONS
    return space.contains(action)


@functools.cache
def _pettingzoo():
    from gymnasium import spaces
    from pettingzoo import AECEnv

    class QuadsAEC(AECEnv):
        """Both players as agents (`player_0` gives first; a player acts twice in a row, a
        place then a give). Rewards at the end: +1 to the winner, -1 to the loser."""

        metadata = {
            "render_modes": ["human", "ansi"],
            "name": "quads_v0",
            "is_parallelizable": False,
            "render_fps": 1,
        }

        def __init__(self, rules: str = "quads", render_mode: Optional[str] = None):
            super().__init__()
            if render_mode is not None and render_mode not in self.metadata["render_modes"]:
                raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
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
            self.state_ = State(rules)

        def observation_space(self, agent):
            return self.observation_spaces[agent]

        def action_space(self, agent):
            return self.action_spaces[agent]

        def observe(self, agent):
            return {"observation": observe(self.state_), "action_mask": mask(self.state_)}

        def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
            self.state_ = State(self.rules)
            self.agents = self.possible_agents[:]
            self.rewards = {a: 0 for a in self.agents}
            self._cumulative_rewards = {a: 0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos = {a: {} for a in self.agents}
            self.agent_selection = self.agents[self.state_.current_player]

        def step(self, action):
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                return self._was_dead_step(action)
            self.state_.apply_action(int(action))
            self._cumulative_rewards[agent] = 0
            if self.state_.is_terminal():
                returns = self.state_.returns()
                for i, a in enumerate(self.agents):
                    self.rewards[a] = int(returns[i])
                    self.terminations[a] = True
            self.agent_selection = self.agents[self.state_.current_player]
            self._accumulate_rewards()
            if self.render_mode == "human":
                self.render()

        def render(self):
            if self.render_mode == "ansi":
                return str(self.state_)
            if self.render_mode == "human":
                print(self.state_)
            return None

        def close(self):
            pass

    from pettingzoo.utils.env import AECIterable, AECIterator
    from pettingzoo.utils.env_logger import EnvLogger

    class Checked(AECIterator):
        def __next__(self):
            agent = super().__next__()
            assert self.env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
            self.env._has_updated = False
            return agent

    class CheckedIterable(AECIterable):
        def __iter__(self):
            return Checked(self.env, self.max_iter)

    class QuadsAECChecked(QuadsAEC):
        """`QuadsAEC` with what PettingZoo's classic games get from three wrappers built in,
        the same behaviour without a wrapper's cost on every call: `OrderEnforcingWrapper`
        (nothing before `reset`), `AssertOutOfBoundsWrapper` (an action outside the space is
        an error) and `TerminateIllegalWrapper` (an illegal action ends the game, -1 to its
        maker and 0 to the other). `python/tests/test_envs.py` plays it against the wrapped
        environment move for move."""

        _BEFORE_RESET = {
            "rewards", "terminations", "truncations", "infos", "agent_selection", "agents",
        }

        def __init__(self, rules: str = "quads", render_mode: Optional[str] = None):
            super().__init__(rules, render_mode)
            del self.agents  # as behind OrderEnforcingWrapper: nothing before reset
            self._has_reset = False
            self._has_updated = False

        def __getattr__(self, name):
            if name in QuadsAECChecked._BEFORE_RESET:
                raise AttributeError(f"{name} cannot be accessed before reset")
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

        def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
            self._has_reset = True
            self._has_updated = True
            super().reset(seed=seed, options=options)

        def observe(self, agent):
            if not self._has_reset:
                EnvLogger.error_observe_before_reset()
            return super().observe(agent)

        def render(self):
            if not self._has_reset:
                EnvLogger.error_render_before_reset()
            return super().render()

        def agent_iter(self, max_iter: int = 2**63):
            if not self._has_reset:
                EnvLogger.error_agent_iter_before_reset()
            return CheckedIterable(self, max_iter)

        def step(self, action):
            if not self._has_reset:
                EnvLogger.error_step_before_reset()
            self._has_updated = True
            if not self.agents:
                EnvLogger.warn_step_after_terminated_truncated()
                return
            agent = self.agent_selection
            dead = self.terminations[agent] or self.truncations[agent]
            assert (action is None and dead) or _in_space(action, self.action_spaces[agent]), (
                "action is not in action space"
            )
            if dead:
                return self._was_dead_step(action)
            if not self.state_.is_legal(int(action)):
                EnvLogger.warn_on_illegal_move()
                self._cumulative_rewards[agent] = 0
                self.terminations = dict.fromkeys(self.agents, True)
                self.truncations = dict.fromkeys(self.agents, True)
                self.rewards = dict.fromkeys(self.agents, 0)
                self.rewards[agent] = -1.0
                self._accumulate_rewards()
                self._deads_step_first()
                return
            super().step(action)

    return QuadsAEC, QuadsAECChecked


def raw_aec_env(rules: str = "quads", render_mode: Optional[str] = None):
    """The AEC environment without wrappers or checks."""
    cls, _ = _pettingzoo()
    return cls(rules, render_mode)


def aec_env(rules: str = "quads", render_mode: Optional[str] = None):
    """The AEC environment as PettingZoo's classic games wrap theirs, with the wrappers'
    checks built in: an illegal action ends the game (-1 to its maker, 0 to the other, as
    `TerminateIllegalWrapper`), an action outside the space is an error, order is enforced."""
    _, checked = _pettingzoo()
    return checked(rules, render_mode)


def gym_env(rules: str = "quads", opponent: str = "random", seat: Optional[int] = 0, **kw: Any):
    """The Gymnasium environment against `opponent` (a level name): `quads.gym.QuadsEnv`, as
    `gymnasium.make("quads/Quads-v0")` makes it without Gymnasium's checking wrappers."""
    from .gym import QuadsEnv

    return QuadsEnv(rules, opponent, seat, **kw)
