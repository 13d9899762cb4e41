"""The batched environment: move for move the AEC environment's games (illegal actions and
auto-reset included), its arrays, determinism across threads, and its errors."""

import hashlib
import warnings

import numpy as np
import pytest

import quads
from quads.env import aec_env, mask, observe

VARIANTS = ["quads", "classic", "quads,claim=announce", "classic,traits=color+shape"]


def pick(rng, legal_mask):
    """Mostly a legal action, sometimes any action of the space (illegal ones lose)."""
    if rng.random() < 0.03:
        return int(rng.integers(0, quads.NUM_ACTIONS))
    return int(rng.choice(np.flatnonzero(legal_mask)))


@pytest.mark.parametrize("rules", VARIANTS)
def test_each_game_is_the_aec_environments_game_move_for_move(rules):
    n, steps = 6, 160
    vec = quads.VectorEnv(rules, num_envs=n, seed=5)
    singles = [aec_env(rules) for _ in range(n)]
    for env in singles:
        env.reset(seed=0)
    rng = np.random.default_rng(11)
    ended = 0
    illegal = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns on every illegal move
        for _ in range(steps):
            for i, env in enumerate(singles):
                agent = env.agent_selection
                obs = env.observe(agent)
                assert vec.current_player[i] == env.agents.index(agent)
                assert np.array_equal(vec.observations[i], obs["observation"])
                assert np.array_equal(vec.action_masks[i], obs["action_mask"].astype(bool))
            actions = np.array([pick(rng, vec.action_masks[i]) for i in range(n)])
            illegal += sum(not vec.action_masks[i][a] for i, a in enumerate(actions))
            _, rewards, terms, _, _ = vec.step(actions)
            for i, env in enumerate(singles):
                env.step(int(actions[i]))
                done = all(env.terminations.values())
                assert terms[i] == done
                if done:
                    expected = [env.rewards["player_0"], env.rewards["player_1"]]
                    assert list(rewards[i]) == expected
                    ended += 1
                    env.reset(seed=0)
                else:
                    assert list(rewards[i]) == [0.0, 0.0]
    assert ended > 20 and illegal > 5


def test_each_game_is_the_states_game_and_the_states_view():
    vec = quads.VectorEnv("classic,claim=announce", num_envs=4, seed=2)
    states = [quads.State("classic,claim=announce") for _ in range(4)]
    for _ in range(300):
        actions = vec.sample_actions()
        vec.step(actions)
        for i, s in enumerate(states):
            s.apply_action(int(actions[i]))
            if s.is_terminal():
                s = states[i] = quads.State("classic,claim=announce")
            assert vec.state(i) == s
            assert np.array_equal(vec.observations[i], observe(s))
            assert np.array_equal(vec.action_masks[i], mask(s).astype(bool))


def test_the_arrays_are_the_environments_own_overwritten_in_place():
    vec = quads.VectorEnv("quads", num_envs=3)
    obs, masks, player = vec.reset()
    assert obs is vec.observations and masks is vec.action_masks and player is vec.current_player
    assert obs.shape == (3, 4, 4, 20) and obs.dtype == np.uint8
    assert masks.shape == (3, 32) and masks.dtype == np.bool_
    assert vec.rewards.shape == (3, 2) and vec.rewards.dtype == np.float32
    assert vec.terminations.shape == (3,) and vec.terminations.dtype == np.bool_
    assert player.dtype == np.int8
    # The opening: player 0 gives any of the 16 pieces.
    assert masks[:, 16:].all() and not masks[:, :16].any() and (player == 0).all()
    out = vec.step(np.full(3, 16 + 5))
    assert out[0] is obs and out[3] is masks and out[1] is vec.rewards
    # Player 1 now places piece 5 on any square.
    assert masks[:, :16].all() and not masks[:, 16:].any() and (player == 1).all()
    assert (obs[:, :, :, 13] == 1).all()


def test_without_auto_reset_an_ended_game_waits_for_reset():
    vec = quads.VectorEnv("quads", num_envs=2, auto_reset=False)
    with warnings.catch_warnings():
        vec.step([16, 3])  # game 1: a place action at the opening is illegal and loses
    assert list(vec.terminations) == [False, True]
    assert list(vec.rewards[1]) == [-1.0, 0.0]
    assert not vec.action_masks[1].any()
    before = vec.observations[1].copy()
    vec.step([0, 17])  # game 1's action is ignored; it stays ended with nothing more to pay
    assert list(vec.terminations) == [False, True]
    assert list(vec.rewards[1]) == [0.0, 0.0]
    assert np.array_equal(vec.observations[1], before)
    assert vec.sample_actions()[1] == -1
    vec.reset()
    assert list(vec.terminations) == [False, False]
    assert vec.action_masks[1, 16:].all()


def test_the_same_seed_gives_the_same_games_on_any_number_of_threads():
    def run(threads, n=2100):  # enough games for 3 threads of 512 or more
        vec = quads.VectorEnv("quads", num_envs=n, seed=9, threads=threads)
        seen = hashlib.sha256()
        for _ in range(80):
            vec.step(vec.sample_actions())
            for a in (vec.observations, vec.action_masks, vec.rewards, vec.terminations):
                seen.update(a.tobytes())
        return seen.hexdigest()

    one = run(1)
    assert run(3) == one and run(2) == one
    assert run(3, n=101) == run(1, n=101)
    assert quads.VectorEnv("quads", 101, seed=10).sample_actions().tolist() != (
        quads.VectorEnv("quads", 101, seed=9).sample_actions().tolist()
    )


def test_sampled_actions_are_legal_and_a_seeded_reset_replays():
    vec = quads.VectorEnv("classic", num_envs=64, seed=1)
    first = []
    for _ in range(50):
        a = vec.sample_actions()
        assert vec.action_masks[np.arange(64), a].all()
        first.append(a.tolist())
        vec.step(a)
    vec.reset(seed=1)
    again = []
    for _ in range(50):
        a = vec.sample_actions()
        again.append(a.tolist())
        vec.step(a)
    assert again == first and vec.seed == 1


def test_rewards_sum_over_games_to_the_wins_and_losses():
    vec = quads.VectorEnv("quads", num_envs=32, seed=4)
    total = np.zeros(2)
    games = 0
    for _ in range(400):
        _, r, t, _, _ = vec.step(vec.sample_actions())
        total += r.sum(axis=0)
        games += int(t.sum())
        # A legal game ends with +1/-1 or 0/0.
        assert (r[t].sum(axis=1) == 0).all() and (r[~t] == 0).all()
    assert games > 300 and total.sum() == 0


def test_bad_input_is_a_clear_error():
    vec = quads.VectorEnv("quads", num_envs=2)
    with pytest.raises(quads.QuadsError, match="^3 actions for 2 games$"):
        vec.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(quads.QuadsError, match="one-dimensional array of integers"):
        vec.step("ab")
    with pytest.raises(quads.QuadsError, match="num_envs must be at least 1"):
        quads.VectorEnv("quads", num_envs=0)
    with pytest.raises(quads.QuadsError, match="threads must be at least 1"):
        quads.VectorEnv("quads", threads=0)
    with pytest.raises(quads.QuadsError, match="unknown"):
        quads.VectorEnv("quadz")
    with pytest.raises(quads.QuadsError, match="game 2 is out of range: there are 2"):
        vec.state(2)
    # Any integer dtype, and a list, are taken as they are.
    vec.step(np.array([16, 17], dtype=np.int8))
    vec.step([0, 1])
    assert list(vec.terminations) == [False, False]
    assert [vec.state(i).pending for i in range(2)] == ["A1", "B1"]
    assert repr(vec) == "VectorEnv('quads', num_envs=2, seed=0, auto_reset='same-step', threads=1)"
    with pytest.raises(quads.QuadsError, match="auto_reset must be True, False, "):
        quads.VectorEnv("quads", auto_reset="sometimes")
    with pytest.raises(quads.QuadsError, match="unknown level `nobody`"):
        quads.VectorEnv("quads", opponent="nobody")
    with pytest.raises(quads.QuadsError, match="seat must be 0, 1 or None"):
        quads.VectorEnv("quads", opponent="random", seat=2)
