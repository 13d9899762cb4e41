"""Quads and classic Quarto for PettingZoo, published as its classic games are: a module per
game and version with `env()` (the environment with the checks of PettingZoo's wrappers built
in) and `raw_env` (the class without them), and the metadata they carry.

    >>> from quads.pettingzoo import quads_v0, quarto_v0
    >>> env = quarto_v0.env()                  # classic Quarto; quads_v0.env() for Quads
    >>> env = quads_v0.env(rules="quads,claim=announce", render_mode="ansi")
"""

from __future__ import annotations

from typing import Optional

from ..env import _pettingzoo


def _published(name: str, default_rules: str):
    """The `raw_env` class and the `env` function of the module `name`."""
    raw, checked = _pettingzoo()
    metadata = {**raw.metadata, "name": name}

    class Raw(raw):
        __doc__ = raw.__doc__

        def __init__(self, rules: str = default_rules, render_mode: Optional[str] = None):
            super().__init__(rules, render_mode)

    class Checked(checked):
        __doc__ = checked.__doc__

        def __init__(self, rules: str = default_rules, render_mode: Optional[str] = None):
            super().__init__(rules, render_mode)

    for cls in (Raw, Checked):
        cls.metadata = metadata
        cls.__qualname__ = cls.__name__ = f"{name}.{'raw_env' if cls is Raw else 'env'}"
        cls.__module__ = f"quads.pettingzoo.{name}"

    def env(rules: str = default_rules, render_mode: Optional[str] = None):
        """The environment with the checks PettingZoo's classic games get from their wrappers:
        nothing before `reset`, an action outside the space is an error, and an illegal action
        ends the game (-1 to its maker, 0 to the other)."""
        return Checked(rules, render_mode)

    return Raw, env
