"""Gymnasium environments: one player against a level, as `gymnasium.make("quads/Quads-v0")`
and `gymnasium.make("quads/Quarto-v0")`, and the same game batched in Rust as
`gymnasium.make_vec(id, num_envs=N)` (a `gymnasium.vector.VectorEnv`). The ids are registered
when `quads` is imported with Gymnasium installed (`pip install "./python[envs]"`).

    >>> import gymnasium as gym, quads
    >>> env = gym.make("quads/Quarto-v0", opponent="level-2")
    >>> obs, info = env.reset(seed=1)

Both step through the same Rust games, so game `i` of `make_vec(id, num_envs=N)` reset with
seed `s` is move for move `make(id)` reset with seed `s + i`, as Gymnasium's `SyncVectorEnv`
seeds its environments.
"""

from __future__ import annotations

from typing import Any, Optional

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ._quads import NUM_ACTIONS, PLANES
from ._quads import VectorEnv as _Games

SHAPE = (4, 4, PLANES)

# The registered ids and their keyword arguments (any of them may be given to `make`).
IDS = {
    "quads/Quads-v0": {"rules": "quads", "opponent": "random", "seat": 0},
    "quads/Quarto-v0": {"rules": "classic", "opponent": "random", "seat": 0},
}


def register_envs() -> None:
    """Registers `IDS` with Gymnasium (done when `quads` is imported)."""
    from gymnasium.envs.registration import register, registry

    for env_id, kwargs in IDS.items():
        if env_id not in registry:
            register(
                id=env_id,
                entry_point="quads.gym:QuadsEnv",
                vector_entry_point="quads.gym:QuadsVectorEnv",
                kwargs=dict(kwargs),
            )


def _seed_of(seed: Any) -> int:
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and 0 <= seed < 2**64:
        return int(seed)
    raise ValueError(f"seed must be an integer from 0 to 2**64 - 1, not {seed!r}")


def _restart(games: _Games, seed: Any, seeded: bool, np_random: np.random.Generator) -> None:
    """Every game back to its start: seeded with `seed`, or (first time, no seed) with one drawn
    from the environment's own generator, or else continuing the games' generators."""
    if seed is not None:
        games.reset(seed=_seed_of(seed))
    elif not seeded:
        games.reset(seed=int(np_random.integers(0, 2**63)))
    else:
        games.reset()


def _spaces():
    observation = spaces.Box(0, 1, SHAPE, dtype=np.uint8)
    return observation, spaces.Discrete(NUM_ACTIONS)


class QuadsEnv(gym.Env):
    """One player's view against a level that answers inside `step`. The agent plays seat
    `seat` (0 gives first, 1 places first; `None` draws it at each reset from the seed). A
    step is one decision of the 32-action space (a turn is a place action, then a give).
    Reward +1 for a win, -1 for a loss or an illegal action (which ends the episode), 0
    otherwise. `info["action_mask"]` and `action_masks()` give the legal actions (for
    sb3-contrib's MaskablePPO). The level searches `opponent_nodes` nodes a move, so a seeded
    reset replays on any machine."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(
        self,
        rules: str = "quads",
        opponent: str = "random",
        seat: Optional[int] = 0,
        opponent_nodes: Optional[int] = None,
        render_mode: Optional[str] = None,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.rules = rules
        self.opponent = opponent
        self.observation_space, self.action_space = _spaces()
        self._games = _Games(
            rules,
            num_envs=1,
            auto_reset=False,
            opponent=opponent,
            seat=seat,
            opponent_nodes=opponent_nodes,
        )
        self._seeded = False
        self._action = np.zeros(1, dtype=np.int64)

    @property
    def state(self):
        """The current game as a `quads.State` (without history)."""
        return self._games.state(0)

    @property
    def seat(self) -> int:
        """The agent's seat in the current episode."""
        return int(self._games.seats[0])

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        _restart(self._games, seed, self._seeded, self.np_random)
        self._seeded = True
        if self.render_mode == "human":
            self.render()
        return self._games.observations[0].copy(), self._info()

    def _info(self) -> dict:
        return {"action_mask": self._games.action_masks[0].astype(np.int8)}

    def step(self, action):
        a = int(action)
        illegal = not (0 <= a < NUM_ACTIONS and self._games.action_masks[0, a])
        self._action[0] = a
        _, rewards, terminations, _, _ = self._games.step(self._action)
        info = self._info()
        if illegal:
            info["illegal"] = True
        if self.render_mode == "human":
            self.render()
        obs = self._games.observations[0].copy()
        return obs, float(rewards[0, 0]), bool(terminations[0]), False, info

    def action_masks(self) -> np.ndarray:
        return self._games.action_masks[0].copy()

    def render(self):
        if self.render_mode is None:
            gym.logger.warn("render() without a render_mode: give render_mode to make()")
            return None
        text = str(self._games.state(0))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


class QuadsVectorEnv(gym.vector.VectorEnv):
    """`num_envs` games of `QuadsEnv`, stepped in Rust in one call (with `threads` threads),
    with Gymnasium's next-step autoreset: the step after a game ends starts it again, ignores
    its action, and reports reward 0, not terminated. Observations are copied out of the
    batch's own arrays unless `copy=False` (then they are overwritten by the next call)."""

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int = 1,
        rules: str = "quads",
        opponent: str = "random",
        seat: Optional[int] = 0,
        opponent_nodes: Optional[int] = None,
        threads: int = 1,
        copy: bool = True,
        render_mode: Optional[str] = None,
    ):
        if render_mode is not None:
            raise ValueError("the batched environment does not render: render one QuadsEnv")
        self.num_envs = num_envs
        self.rules = rules
        self.copy = copy
        self.single_observation_space, self.single_action_space = _spaces()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._games = _Games(
            rules,
            num_envs=num_envs,
            auto_reset="next-step",
            threads=threads,
            opponent=opponent,
            seat=seat,
            opponent_nodes=opponent_nodes,
        )
        self._ended = np.zeros(num_envs, dtype=bool)
        self._seeded = False
        self._all = np.ones(num_envs, dtype=bool)

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _masks(self) -> dict:
        return {"action_mask": self._games.action_masks.astype(np.int8), "_action_mask": self._all}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        _restart(self._games, seed, self._seeded, self.np_random)
        self._seeded = True
        self._ended[:] = False
        return self._out(self._games.observations), self._masks()

    def step(self, actions):
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_envs} integers, not {actions!r}")
        actions = actions.astype(np.int64, copy=False)
        inside = (actions >= 0) & (actions < NUM_ACTIONS)
        legal = np.zeros(self.num_envs, dtype=bool)
        legal[inside] = self._games.action_masks[inside, actions[inside]]
        illegal = ~legal & ~self._ended
        obs, rewards, terminations, _, _ = self._games.step(actions)
        self._ended = terminations.copy()
        infos = self._masks()
        if illegal.any():
            infos["illegal"], infos["_illegal"] = illegal.copy(), illegal.copy()
        return (
            self._out(obs),
            rewards[:, 0].astype(np.float64),
            terminations.copy(),
            np.zeros(self.num_envs, dtype=bool),
            infos,
        )

    def action_masks(self) -> np.ndarray:
        return self._games.action_masks.copy()

    def close_extras(self, **kwargs: Any) -> None:
        pass
