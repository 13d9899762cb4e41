"""The environments: PettingZoo's and Gymnasium's own checkers, the planes, illegal actions."""

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import quads
from quads.env import aec_env, gym_env, observe, raw_aec_env


@pytest.mark.parametrize("rules", ["quads", "classic,claim=announce"])
def test_pettingzoo_api_test(rules):
    api_test(aec_env(rules), num_cycles=1000)


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_gymnasium_check_env(opponent):
    check_env(gym_env("quads", opponent=opponent, seat=None).unwrapped)


def test_the_aec_game_is_the_states_game():
    env = aec_env("quads")
    rng = np.random.default_rng(3)
    for _ in range(20):
        env.reset(seed=0)
        mirror = quads.State("quads")
        final = {}
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            assert env.agents.index(agent) == mirror.current_player or term
            assert np.array_equal(obs["observation"], observe(mirror))
            if term or trunc:
                final[agent] = reward
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert list(legal) == mirror.legal_actions()
            a = int(rng.choice(legal))
            env.step(a)
            mirror.apply_action(a)
        assert mirror.is_terminal()
        assert [final[a] for a in env.possible_agents] == [int(r) for r in mirror.returns()]


def test_an_illegal_action_loses_in_both():
    env = aec_env("classic")
    env.reset(seed=0)
    env.step(3)  # player_0 must give first: a place action is illegal
    # PettingZoo's TerminateIllegalWrapper, as in its classic games: -1, the other 0.
    assert env.rewards == {"player_0": -1, "player_1": 0}
    g = gym_env("classic", opponent="random")
    g.reset(seed=0)
    _, reward, done, _, info = g.step(0)
    assert (reward, done, info["illegal"]) == (-1.0, True, True)


def test_the_planes():
    s = quads.State("quads")
    s.play("SLQH")
    obs = observe(s)
    assert obs.shape == (4, 4, quads.PLANES) and obs.dtype == np.uint8
    slqh = quads.parse_action("SLQH") - 16
    # Nothing on the board, a piece to place whose traits fill planes 9-12.
    assert obs[:, :, 0:9].sum() == 0
    assert [obs[0, 0, 9 + t] for t in range(4)] == [(slqh >> t) & 1 for t in range(4)]
    assert obs[:, :, 13].all() and obs[:, :, 15].all() and obs[:, :, 16:20].all()
    assert obs[:, :, 14].sum() == 0
    s.apply_action(quads.parse_action("B2"))
    obs = observe(s)
    # Pending on B2 (row 2, column B): the piece is shown there, and 15 pieces can be given.
    assert obs[1, 1, 8] == 1 and obs[:, :, 8].sum() == 1
    assert [obs[1, 1, t] for t in range(4)] == [(slqh >> t) & 1 for t in range(4)]
    assert obs[:, :, 14].sum() == 15 and obs.reshape(16, -1)[slqh, 14] == 0
    assert obs[:, :, 13].sum() == 0
    classic = observe(quads.State("classic,traits=color"))
    assert classic[:, :, 15].sum() == 0
    assert [classic[:, :, 16 + t].sum() for t in range(4)] == [0, 16, 0, 0]


def wrapped(rules):
    """The raw environment under PettingZoo's three wrappers, as its classic games have it."""
    from pettingzoo.utils import wrappers

    env = wrappers.TerminateIllegalWrapper(raw_aec_env(rules), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(env))


@pytest.mark.parametrize("rules", ["quads", "classic,claim=announce"])
def test_the_built_in_checks_are_the_wrappers_move_for_move(rules):
    ours, theirs = aec_env(rules), wrapped(rules)
    rng = np.random.default_rng(5)
    illegal = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for game in range(60):
            ours.reset(seed=game)
            theirs.reset(seed=game)
            for agent, other in zip(ours.agent_iter(), theirs.agent_iter()):
                assert agent == other
                (o1, r1, t1, u1, i1), (o2, r2, t2, u2, i2) = ours.last(), theirs.last()
                assert (r1, t1, u1, i1) == (r2, t2, u2, i2)
                assert np.array_equal(o1["observation"], o2["observation"])
                assert np.array_equal(o1["action_mask"], o2["action_mask"])
                assert (ours.rewards, ours.terminations, ours.truncations) == (
                    theirs.rewards, theirs.terminations, theirs.truncations)
                if t1 or u1:
                    action = None
                elif rng.random() < 0.05:
                    action = int(rng.integers(0, 32))
                    illegal += not o1["action_mask"][action]
                else:
                    action = int(rng.choice(np.flatnonzero(o1["action_mask"])))
                ours.step(action)
                theirs.step(action)
            assert ours.agents == theirs.agents == []
            assert ours._cumulative_rewards == theirs._cumulative_rewards
    assert illegal > 5


def test_the_built_in_checks_refuse_what_the_wrappers_refuse():
    for make in (aec_env, wrapped):
        env = make("quads")
        for call, args in ((env.step, (16,)), (env.observe, ("player_0",)), (env.agent_iter, ())):
            with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before"):
                call(*args)
        with pytest.raises(AttributeError, match="rewards cannot be accessed before reset"):
            env.rewards
        env.reset()
        with pytest.raises(AssertionError, match="action is not in action space"):
            env.step(32)
        with pytest.raises(AssertionError, match="need to call step\\(\\) or reset\\(\\)"):
            for _ in env.agent_iter():
                pass
