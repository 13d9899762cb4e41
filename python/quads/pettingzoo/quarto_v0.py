"""Classic Quarto (the rules `classic`) for PettingZoo: `env(rules="classic",
render_mode=None)`, `raw_env`, `metadata`. Any variant may be given as `rules`
(`"classic,claim=announce"`)."""

from . import _published

raw_env, env = _published("quarto_v0", "classic")
metadata = raw_env.metadata

__all__ = ["env", "raw_env", "metadata"]
