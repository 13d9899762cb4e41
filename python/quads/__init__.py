"""Quads and classic Quarto for researchers: the rules, the solver and the levels from Python,
built from the Rust crates.

    >>> import quads
    >>> s = quads.State("classic")
    >>> s.play("SLQH"); s.play("B2 BDRF")
    >>> s.position
    '..../..../.SLQH../.... BDRF'
"""

from ._quads import (
    NUM_ACTIONS,
    PLANES,
    WIN,
    Level,
    Solution,
    Solver,
    IllegalMoveError,
    QuadsError,
    Rules,
    State,
    Symmetry,
    VectorEnv,
    __version__,
    action_to_str,
    canonical,
    parse_action,
    symmetries,
)

__all__ = [
    "__version__",
    "NUM_ACTIONS",
    "PLANES",
    "WIN",
    "Level",
    "Solution",
    "Solver",
    "IllegalMoveError",
    "QuadsError",
    "Rules",
    "State",
    "Symmetry",
    "VectorEnv",
    "action_to_str",
    "canonical",
    "parse_action",
    "symmetries",
]


def _register_gymnasium() -> None:
    """Registers `quads/Quads-v0` and `quads/Quarto-v0` with Gymnasium when it is installed,
    as MiniGrid registers its environments, so `gymnasium.make` finds them after `import
    quads` (or with no import at all as `gymnasium.make("quads:quads/Quads-v0")`)."""
    import importlib.util

    if importlib.util.find_spec("gymnasium") is not None:
        from .gym import register_envs

        register_envs()


_register_gymnasium()
