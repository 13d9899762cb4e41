"""The benchmark's pure-Python environment (python/bench/pure_quarto.py) plays the package's game
move for move: the comparison in python/bench/bench.py is only fair if it is correct."""

import pathlib
import sys

import numpy as np
import pytest

import quads
from quads.env import aec_env, raw_aec_env

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "bench"))
import pure_quarto  # noqa: E402

VARIANTS = ["quads", "classic", "classic,traits=color", "quads,traits=size+fill,claim=announce"]


def same_view(pkg, pure):
    """Every public field of the two raw AEC environments, and both agents' observations."""
    assert pure.agents == pkg.agents
    assert pure.agent_selection == pkg.agent_selection
    assert pure.rewards == pkg.rewards
    assert pure._cumulative_rewards == pkg._cumulative_rewards
    assert pure.terminations == pkg.terminations
    assert pure.truncations == pkg.truncations
    assert pure.infos == pkg.infos
    for agent in pkg.agents:
        a, b = pkg.observe(agent), pure.observe(agent)
        assert b["observation"].dtype == a["observation"].dtype == np.uint8
        assert b["action_mask"].dtype == a["action_mask"].dtype == np.int8
        assert b["observation"].shape == a["observation"].shape == (4, 4, 20)
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
    if pkg.agents:
        a, b = pkg.last(), pure.last()
        assert np.array_equal(a[0]["observation"], b[0]["observation"])
        assert np.array_equal(a[0]["action_mask"], b[0]["action_mask"])
        assert a[1:] == b[1:]


@pytest.mark.parametrize("rules", VARIANTS)
def test_random_games_move_for_move(rules):
    pkg, pure = raw_aec_env(rules), pure_quarto.raw_aec_env(rules)
    outcomes = {"first": 0, "second": 0, "draw": 0}
    games = 1000 if rules in ("quads", "classic") else 200
    for seed in range(games):
        rng = np.random.default_rng(seed)
        pkg.reset(seed=seed)
        pure.reset(seed=seed)
        mirror = quads.State(rules)
        same_view(pkg, pure)
        steps = 0
        for agent in pkg.agent_iter():
            same_view(pkg, pure)
            obs, _, term, trunc, _ = pkg.last()
            if term or trunc:
                pkg.step(None)
                pure.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert list(legal) == mirror.legal_actions() == pure.game.legal_actions()
            a = int(rng.choice(legal))
            pkg.step(a)
            pure.step(a)
            mirror.apply_action(a)
            steps += 1
        same_view(pkg, pure)
        assert pure.game.done and mirror.is_terminal()
        assert pure.game.returns() == mirror.returns()
        assert steps == 2 * mirror.placed == 2 * pure.game.placed
        outcomes[mirror.outcome_name] += 1
    # The random games reach every ending, wins of both players and draws.
    if rules in ("quads", "classic"):
        assert all(n > 0 for n in outcomes.values()), outcomes


@pytest.mark.parametrize("rules", ["quads", "classic"])
def test_illegal_actions_in_the_wrapped_environments(rules):
    for bad in ([3], [20, 20], [20, 5, 5], [20, 5, 20]):
        pkg, pure = aec_env(rules), pure_quarto.aec_env(rules)
        pkg.reset(seed=0)
        pure.reset(seed=0)
        for a in bad:
            pkg.step(a)
            pure.step(a)
            assert pure.rewards == pkg.rewards
            assert pure.terminations == pkg.terminations
            assert pure.agent_selection == pkg.agent_selection
    with pytest.raises(ValueError):
        _raw_illegal(rules)


def _raw_illegal(rules):
    env = pure_quarto.raw_aec_env(rules)
    env.reset(seed=0)
    env.step(3)  # the opening action is a give


def test_pettingzoo_api_test():
    from pettingzoo.test import api_test

    api_test(pure_quarto.aec_env("quads"), num_cycles=1000)


def test_rules_specs():
    assert pure_quarto.parse_rules("quads") == (True, 15)
    assert pure_quarto.parse_rules("classic") == (False, 15)
    assert pure_quarto.parse_rules("classic, traits = color+fill") == (False, 0b1010)
    assert pure_quarto.parse_rules("classic,squares=on") == (True, 15)
    for bad in ("Quads", "quads,traits=weight", "quads,speed=2"):
        with pytest.raises(ValueError):
            pure_quarto.parse_rules(bad)
