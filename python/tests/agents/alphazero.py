"""Run by test_openspiel.py in a process of its own: OpenSpiel's AlphaZero (its actors, learner
and evaluator processes) on `python_quads`, two learning steps of a small network."""

import sys

import quads.openspiel  # noqa: F401  registers python_quads, in the spawned processes too
from open_spiel.python.algorithms.alpha_zero import alpha_zero
from open_spiel.python.utils import spawn


def main(path):
    config = alpha_zero.Config(
        game="python_quads", path=path, learning_rate=1e-3, weight_decay=1e-4,
        decouple_weight_decay=False, train_batch_size=16, replay_buffer_size=64,
        replay_buffer_reuse=1, max_steps=2, checkpoint_freq=1, actors=1, evaluators=1,
        evaluation_window=2, eval_levels=2, uct_c=1.4, max_simulations=4, policy_alpha=1.0,
        policy_epsilon=0.25, temperature=1.0, temperature_drop=4, nn_model="mlp",
        nn_width=32, nn_depth=1, observation_shape=None, output_size=None, verbose=False,
        quiet=True, nn_api_version="nnx",
    )
    alpha_zero.alpha_zero(config)


if __name__ == "__main__":
    with spawn.main_handler():
        main(sys.argv[1])
