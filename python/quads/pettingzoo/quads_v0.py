"""Quads (the default rules, `quads`) for PettingZoo: `env(rules="quads", render_mode=None)`,
`raw_env`, `metadata`. Any variant may be given as `rules` (`"quads,claim=announce"`)."""

from . import _published

raw_env, env = _published("quads_v0", "quads")
metadata = raw_env.metadata

__all__ = ["env", "raw_env", "metadata"]
