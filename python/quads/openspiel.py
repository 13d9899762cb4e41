"""Quads as an OpenSpiel game, registered from Python as `python_quads`, so that OpenSpiel's
MCTS, AlphaZero and evaluation code run on it.

    >>> import pyspiel, quads.openspiel
    >>> game = pyspiel.load_game("python_quads", {"rules": "classic"})

One action per half-move in the package's 32-action space; the observation tensor is the
planes of docs/python.md as float32, shape (4, 4, 20). Needs `pip install open_spiel`.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from ._quads import NUM_ACTIONS, PLANES, State, action_to_str

SHORT_NAME = "python_quads"

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Quads and classic Quarto (quads package)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "quads"},
)

# The opening give, then 16 placements and 15 gives between them.
_MAX_LENGTH = 32

_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=NUM_ACTIONS,
    max_chance_outcomes=0,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=_MAX_LENGTH,
)


class QuadsGame(pyspiel.Game):
    """The game under one rules spec (the `rules` parameter)."""

    def __init__(self, params=None):
        super().__init__(_GAME_TYPE, _GAME_INFO, params or dict())
        State(self.rules)  # a bad spec fails here, with the project's message

    @property
    def rules(self) -> str:
        # Read from the parameters each time: a game unpickled in another process (as
        # OpenSpiel's AlphaZero sends it to its actors) is made without __init__.
        return self.get_parameters()["rules"]

    def new_initial_state(self):
        return QuadsState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return QuadsObserver()


class QuadsState(pyspiel.State):
    """A game in progress: a `quads.State` inside."""

    def __init__(self, game: QuadsGame):
        super().__init__(game)
        self.state = State(game.rules)

    def current_player(self):
        if self.state.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.state.current_player

    def _legal_actions(self, player):
        return self.state.legal_actions()

    def _apply_action(self, action):
        self.state.apply_action(int(action))

    def _action_to_string(self, player, action):
        return action_to_str(int(action))

    def is_terminal(self):
        return self.state.is_terminal()

    def returns(self):
        return list(self.state.returns())

    def __str__(self):
        return str(self.state)


class QuadsObserver:
    """The planes as float32 (perfect information: the same for both players)."""

    def __init__(self):
        self.tensor = np.zeros(16 * PLANES, np.float32)
        self.dict = {"observation": self.tensor.reshape(4, 4, PLANES)}

    def set_from(self, state: QuadsState, player: int):
        self.tensor[:] = np.frombuffer(state.state.observation(), dtype=np.uint8)

    def string_from(self, state: QuadsState, player: int):
        return str(state.state)


pyspiel.register_game(_GAME_TYPE, QuadsGame)
