"""Environments over `quads.State`: a PettingZoo AEC environment with both players as agents,
and a Gymnasium environment against a level. Both use the 32-action space (0-15 place the piece
in hand, 16-31 give a piece) and the observation planes of docs/python.md.

    >>> from quads.env import aec_env
    >>> env = aec_env("classic")
    >>> env.reset(seed=1)

PettingZoo and Gymnasium are optional: `pip install "./python[envs]"`.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ._quads import NUM_ACTIONS, PLANES, Level, State

SHAPE = (4, 4, PLANES)


def observe(state: State) -> np.ndarray:
    """The planes of `state` as a (4, 4, 20) uint8 array."""
    return np.frombuffer(state.observation(), dtype=np.uint8).reshape(SHAPE).copy()


def mask(state: State) -> np.ndarray:
    """The legal actions as a (32,) int8 array of 0 and 1."""
    m = np.zeros(NUM_ACTIONS, dtype=np.int8)
    m[state.legal_actions()] = 1
    return m


def _pettingzoo():
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    class QuadsAEC(AECEnv):
        """Both players as agents (`player_0` gives first; a player acts twice in a row, a
        place then a give). Rewards at the end: +1 to the winner, -1 to the loser."""

        metadata = {"render_modes": ["human"], "name": "quads_v0", "is_parallelizable": False}

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
            if self.render_mode == "human":
                print(self.state_)

        def close(self):
            pass

    return QuadsAEC, wrappers


def raw_aec_env(rules: str = "quads", render_mode: Optional[str] = None):
    """The AEC environment without wrappers."""
    cls, _ = _pettingzoo()
    return cls(rules, render_mode)


def aec_env(rules: str = "quads", render_mode: Optional[str] = None):
    """The AEC environment as PettingZoo's classic games wrap theirs: an illegal action ends
    the game (-1 to its maker, 0 to the other, PettingZoo's `TerminateIllegalWrapper`), an
    action outside the space is an error, order is enforced."""
    cls, wrappers = _pettingzoo()
    env = cls(rules, render_mode)
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def _gymnasium():
    import gymnasium as gym
    from gymnasium import spaces

    class QuadsGym(gym.Env):
        """One player's view against a level inside the environment. The agent plays seat
        `seat` (0 gives first, 1 places first; `None` draws it at each reset from the seed).
        Reward +1 for a win, -1 for a loss or an illegal action (which ends the episode), 0
        otherwise. `action_masks()` gives the legal actions (sb3-contrib's MaskablePPO)."""

        metadata = {"render_modes": ["human"]}

        def __init__(
            self,
            rules: str = "quads",
            opponent: str = "random",
            seat: Optional[int] = 0,
            opponent_nodes: Optional[int] = None,
            render_mode: Optional[str] = None,
        ):
            self.rules = rules
            self.opponent_name = opponent
            self.opponent_nodes = opponent_nodes
            self.seat_choice = seat
            self.render_mode = render_mode
            self.observation_space = spaces.Box(0, 1, SHAPE, dtype=np.uint8)
            self.action_space = spaces.Discrete(NUM_ACTIONS)
            self.state_ = State(rules)
            self.seat = 0 if seat is None else seat
            self.opponent = Level(opponent, seed=0, nodes=opponent_nodes)

        def _opponent_moves(self):
            while not self.state_.is_terminal() and self.state_.current_player != self.seat:
                self.state_.play(self.opponent.act(self.state_))

        def _reward(self) -> float:
            if not self.state_.is_terminal():
                return 0.0
            return float(self.state_.returns()[self.seat])

        def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
            super().reset(seed=seed)
            opp_seed = int(self.np_random.integers(0, 2**63))
            self.opponent = Level(self.opponent_name, seed=opp_seed, nodes=self.opponent_nodes)
            if self.seat_choice is None:
                self.seat = int(self.np_random.integers(0, 2))
            self.state_ = State(self.rules)
            self._opponent_moves()
            return observe(self.state_), {"action_mask": mask(self.state_)}

        def step(self, action):
            a = int(action)
            if a not in self.state_.legal_actions():
                return observe(self.state_), -1.0, True, False, {"illegal": True, "action_mask": mask(self.state_)}
            self.state_.apply_action(a)
            self._opponent_moves()
            done = self.state_.is_terminal()
            if self.render_mode == "human":
                print(self.state_)
            return observe(self.state_), self._reward(), done, False, {"action_mask": mask(self.state_)}

        def action_masks(self) -> np.ndarray:
            return mask(self.state_).astype(bool)

    return QuadsGym


def gym_env(rules: str = "quads", opponent: str = "random", seat: Optional[int] = 0, **kw: Any):
    """The Gymnasium environment against `opponent` (a level name)."""
    return _gymnasium()(rules, opponent, seat, **kw)
