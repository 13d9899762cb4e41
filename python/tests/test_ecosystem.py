"""Where PettingZoo's and Gymnasium's users look: `quads.pettingzoo.quads_v0` and `quarto_v0`
as PettingZoo's classic games are published, the Gymnasium ids registered on import and made
by `gymnasium.make` and `make_vec` (the batched one move for move Gymnasium's own
`SyncVectorEnv` of the single environments), and `quads.__version__`."""

import importlib.metadata
import re
import warnings
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode
from pettingzoo.test import api_test, render_test, seed_test

import quads
from quads.gym import IDS
from quads.pettingzoo import quads_v0, quarto_v0

REPO = Path(__file__).resolve().parents[2]


def cargo_version(path):
    text = (REPO / path).read_text()
    return re.search(r'^version = "([^"]+)"', text, re.M).group(1)


def test_the_version_is_the_crates_and_the_installed_packages():
    assert quads.__version__ == importlib.metadata.version("quads")
    assert quads.__version__ == cargo_version("python/Cargo.toml") == cargo_version("Cargo.toml")


# ---- PettingZoo


@pytest.mark.parametrize("module, rules", [(quads_v0, "quads"), (quarto_v0, "classic")])
def test_the_modules_carry_what_pettingzoos_classic_games_carry(module, rules):
    name = module.__name__.rsplit(".", 1)[1]
    for env in (module.env(), module.raw_env()):
        assert env.metadata == module.metadata
        assert env.rules == rules
    assert module.metadata["name"] == name
    assert module.metadata["is_parallelizable"] is False
    assert module.metadata["render_modes"] == ["human", "ansi"]
    assert module.metadata["render_fps"] > 0
    env = module.env(render_mode="ansi")
    env.reset(seed=0)
    env.step(16 + 5)
    assert env.render() == str(quads.State(rules, env.unwrapped.state_.position))
    with pytest.raises(ValueError, match="render_mode must be one of"):
        module.env(render_mode="rgb_array")


@pytest.mark.parametrize("make", [quads_v0.env, quads_v0.raw_env, quarto_v0.env, quarto_v0.raw_env])
@pytest.mark.parametrize("variant", [None, "claim=announce"])
def test_pettingzoo_api_test(make, variant):
    default = make().rules
    rules = default if variant is None else f"{default},{variant}"
    api_test(make(rules=rules), num_cycles=300)


@pytest.mark.parametrize("module", [quads_v0, quarto_v0])
def test_pettingzoo_render_and_seed_tests(module):
    render_test(lambda render_mode=None: module.env(render_mode=render_mode))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(module.env, num_cycles=50)


def test_the_old_names_are_the_same_environment():
    from quads.env import aec_env, raw_aec_env

    assert type(quads_v0.env()).__mro__[1] is type(aec_env())
    assert type(quads_v0.raw_env()).__mro__[1] is type(raw_aec_env())


# ---- Gymnasium


def test_the_ids_are_registered():
    for env_id, kwargs in IDS.items():
        spec = gym.spec(env_id)
        assert spec.entry_point == "quads.gym:QuadsEnv"
        assert spec.vector_entry_point == "quads.gym:QuadsVectorEnv"
        assert spec.kwargs == kwargs
    assert set(IDS) == {"quads/Quads-v0", "quads/Quarto-v0"}


@pytest.mark.parametrize("env_id", sorted(IDS))
@pytest.mark.parametrize("kwargs", [{}, {"opponent": "greedy", "seat": None}, {"opponent": "level-3", "seat": 1}])
def test_gymnasium_check_env_on_the_made_environment(env_id, kwargs):
    env = gym.make(env_id, opponent_nodes=2000, **kwargs)
    assert env.spec.id == env_id and env.unwrapped.rules == IDS[env_id]["rules"]
    # With a spec, check_env also makes it in every render mode.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.close()


def test_a_made_environment_plays_against_its_level():
    env = gym.make("quads/Quarto-v0", opponent="random", seat=1, render_mode="ansi")
    obs, info = env.reset(seed=4)
    # Seat 1 places first: the level has given a piece already.
    state = quads.State("classic", env.render())
    assert state.placed == 0 and state.hand is not None and env.unwrapped.seat == 1
    assert np.array_equal(obs, quads.env.observe(state))
    assert list(np.flatnonzero(info["action_mask"])) == state.legal_actions()
    rng = np.random.default_rng(0)
    steps, reward, done = 0, 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        steps += 1
        assert not truncated
    assert steps >= 2 and reward in (-1.0, 0.0, 1.0)
    assert quads.State("classic", env.render()).is_terminal()


def pick(rng, masks, illegal=0.03):
    """A legal action per game, now and then any action of the space (which loses)."""
    actions = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks])
    wild = rng.random(len(actions)) < illegal
    actions[wild] = rng.integers(0, quads.NUM_ACTIONS, wild.sum())
    return actions


@pytest.mark.parametrize(
    "env_id, num_envs, kwargs",
    [
        ("quads/Quads-v0", 7, {}),
        ("quads/Quarto-v0", 6, {"opponent": "greedy", "seat": None}),
        ("quads/Quads-v0", 5, {"opponent": "minimax-2", "seat": 1, "rules": "quads,claim=announce"}),
        ("quads/Quads-v0", 1100, {"threads": 2}),
    ],
)
def test_make_vec_is_gymnasiums_sync_vector_move_for_move(env_id, num_envs, kwargs):
    threads = kwargs.pop("threads", 1)
    ours = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", threads=threads, **kwargs)
    theirs = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="sync", **kwargs)
    assert ours.metadata["autoreset_mode"] == theirs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    assert ours.single_observation_space == theirs.single_observation_space
    (o1, i1), (o2, i2) = ours.reset(seed=9), theirs.reset(seed=9)
    assert np.array_equal(o1, o2) and np.array_equal(i1["action_mask"], i2["action_mask"])
    rng = np.random.default_rng(2)
    ended = illegal = 0
    steps = 60 if num_envs < 1000 else 24
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(steps):
            actions = pick(rng, i1["action_mask"])
            (o1, r1, t1, u1, i1), (o2, r2, t2, u2, i2) = ours.step(actions), theirs.step(actions)
            assert o1 in ours.observation_space
            assert np.array_equal(o1, o2)
            assert np.array_equal(r1, r2) and r1.dtype == r2.dtype
            assert np.array_equal(t1, t2) and np.array_equal(u1, u2)
            assert np.array_equal(i1["action_mask"], i2["action_mask"])
            assert np.array_equal(i1.get("illegal", np.zeros(num_envs, bool)),
                                  i2.get("illegal", np.zeros(num_envs, bool)))
            ended += t1.sum()
            illegal += i1.get("illegal", np.zeros(0)).sum()
    assert ended > num_envs and illegal > 0
    ours.close()
    theirs.close()


def test_the_vector_follows_gymnasiums_vector_rules():
    env = gym.make_vec("quads/Quads-v0", num_envs=8)
    assert isinstance(env.unwrapped, gym.vector.VectorEnv) and env.num_envs == 8
    assert env.spec.id == "quads/Quads-v0"
    # Seeded resets replay; returned arrays are the caller's.
    (a, _), (b, _) = env.reset(seed=3), env.reset(seed=3)
    assert np.array_equal(a, b) and a is not b
    first, *_ = env.step(env.action_space.sample() * 0 + 16)
    second, *_ = env.step(env.action_space.sample() * 0 + 16)
    assert first is not second and not np.shares_memory(first, second)
    # Next-step autoreset: the step after an end starts the game again and ignores its action.
    env.reset(seed=1)
    obs, rewards, terms, *_ = env.step(np.full(8, 40))  # outside the space: each game lost
    assert terms.all() and (rewards == -1.0).all()
    after, rewards, terms, truncs, info = env.step(np.full(8, 40))
    start, _ = gym.make_vec("quads/Quads-v0", num_envs=8).reset(seed=1)
    assert not terms.any() and not truncs.any() and (rewards == 0).all()
    assert np.array_equal(after, start) and "illegal" not in info
    with pytest.raises(ValueError, match="actions must be 8 integers"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="seed must be an integer from 0 to 2\\*\\*64 - 1"):
        env.reset(seed=2**64)
    # A Gymnasium vector wrapper that requires next-step autoreset takes it.
    stats = gym.wrappers.vector.RecordEpisodeStatistics(gym.make_vec("quads/Quarto-v0", num_envs=4))
    stats.reset(seed=0)
    rng = np.random.default_rng(1)
    masks = stats.unwrapped.action_masks()
    for _ in range(40):
        _, _, _, _, info = stats.step(pick(rng, masks, illegal=0))
        masks = info["action_mask"]
    assert len(stats.return_queue) > 0 and set(stats.return_queue) <= {-1.0, 0.0, 1.0}


def run_python(code):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_gymnasium_finds_the_ids_without_a_prior_import_of_quads():
    # Gymnasium's "module:id" form imports the package, which registers its ids.
    out = run_python(
        "import gymnasium as gym, sys\n"
        "assert 'quads' not in sys.modules\n"
        "env = gym.make('quads:quads/Quarto-v0')\n"
        "print(env.spec.id, env.reset(seed=0)[0].shape)"
    )
    assert out.split() == ["quads/Quarto-v0", "(4,", "4,", "20)"]


def test_the_package_imports_without_gymnasium():
    # As where Gymnasium is not installed: nothing is registered and nothing fails.
    out = run_python(
        "import sys\n"
        "sys.modules['gymnasium'] = None\n"
        "import quads\n"
        "print(quads.State('classic').position, quads.__version__)"
    )
    assert out.split()[0] == "..../..../..../...."
