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
    action_to_str,
    canonical,
    parse_action,
    symmetries,
)

__all__ = [
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
