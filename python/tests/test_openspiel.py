"""The OpenSpiel game registered from Python: OpenSpiel's own random simulation test, its MCTS,
its evaluator and its AlphaZero on it, and its games equal to the package's."""

import json
import math
import pathlib
import subprocess
import sys

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, mcts

import quads
import quads.openspiel  # registers python_quads


@pytest.mark.parametrize("rules", ["quads", "classic,claim=announce"])
def test_random_sim_test(rules):
    game = pyspiel.load_game("python_quads", {"rules": rules})
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)


def test_its_games_are_the_packages():
    game = pyspiel.load_game("python_quads", {"rules": "quads"})
    rng = np.random.default_rng(4)
    for _ in range(10):
        state = game.new_initial_state()
        mirror = quads.State("quads")
        while not state.is_terminal():
            assert state.current_player() == mirror.current_player
            assert state.legal_actions() == mirror.legal_actions()
            tensor = np.asarray(state.observation_tensor(state.current_player()))
            assert np.array_equal(tensor, np.frombuffer(mirror.observation(), np.uint8))
            a = int(rng.choice(state.legal_actions()))
            state.apply_action(a)
            mirror.apply_action(a)
        assert mirror.is_terminal() and state.returns() == mirror.returns()


def test_openspiel_mcts_and_its_evaluator_run_on_it():
    game = pyspiel.load_game("python_quads", {"rules": "classic"})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=np.random.RandomState(1))
    bot = mcts.MCTSBot(game, 1.4, 60, evaluator, random_state=np.random.RandomState(2))
    rnd = pyspiel.make_uniform_random_bot(1, 3)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [bot, rnd], np.random.RandomState(5))
    assert len(returns) == 2 and returns[0] == -returns[1] and returns[0] in (-1.0, 0.0, 1.0)


def test_a_bad_rules_parameter_is_the_projects_error():
    with pytest.raises(Exception, match="chess"):
        pyspiel.load_game("python_quads", {"rules": "chess"})


def test_openspiels_alphazero_learns_on_the_game(tmp_path):
    script = pathlib.Path(__file__).parent / "agents" / "alphazero.py"
    out = tmp_path / "az"
    done = subprocess.run([sys.executable, str(script), str(out)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    steps = [json.loads(line) for line in (out / "learner.jsonl").read_text().splitlines()]
    assert [s["step"] for s in steps] == [1, 2]
    assert all(math.isfinite(s["loss"]["sum"]) and s["total_trajectories"] > 0 for s in steps)
    assert (out / "checkpoint-2").exists()
