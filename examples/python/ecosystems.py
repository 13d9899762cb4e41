"""The package's environments by the names PettingZoo's and Gymnasium's users know.

PettingZoo: games of `quads.pettingzoo.quarto_v0` (classic Quarto), both seats a masked random
agent, through the loop of PettingZoo's documentation. Gymnasium: a masked random agent against
each level through `gymnasium.make_vec("quads/Quads-v0", ...)`, the games batched in Rust,
counted by Gymnasium's own `RecordEpisodeStatistics`. Deterministic: the same arguments print
the same bytes.

    python examples/python/ecosystems.py [--games 200] [--envs 64] [--levels random,greedy]
"""

import argparse
from collections import Counter

import gymnasium as gym
import numpy as np

import quads  # noqa: F401  (registers quads/Quads-v0 and quads/Quarto-v0 with Gymnasium)
from quads.pettingzoo import quarto_v0


def pettingzoo_games(games: int, seed: int) -> Counter:
    """Outcomes of `games` games of random play: 'player_0', 'player_1' or 'draw'."""
    env = quarto_v0.env()
    outcomes = Counter()
    for game in range(games):
        env.reset(seed=seed + game)
        env.action_space("player_0").seed(seed + game)
        env.action_space("player_1").seed(seed + game + 1)
        final = {}
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                final[agent] = reward
                action = None
            else:
                action = env.action_space(agent).sample(observation["action_mask"])
            env.step(action)
        winners = [a for a, r in final.items() if r > 0]
        outcomes[winners[0] if winners else "draw"] += 1
    env.close()
    return outcomes


def gymnasium_games(level: str, games: int, envs: int, seed: int) -> Counter:
    """Outcomes of at least `games` episodes of a masked random agent (either seat) against
    `level`: 'won', 'drawn' or 'lost'."""
    vec = gym.make_vec("quads/Quads-v0", num_envs=envs, opponent=level, seat=None, opponent_nodes=20_000)
    vec = gym.wrappers.vector.RecordEpisodeStatistics(vec, buffer_length=games)
    rng = np.random.default_rng(seed)
    _, info = vec.reset(seed=seed)
    while len(vec.return_queue) < games:
        masks = info["action_mask"].astype(bool)
        masks[~masks.any(axis=1), 0] = True  # an ended game's action is ignored
        keys = rng.random(masks.shape) * masks
        _, _, _, _, info = vec.step(keys.argmax(axis=1))
    vec.close()
    names = {1.0: "won", 0.0: "drawn", -1.0: "lost"}
    return Counter(names[float(r)] for r in list(vec.return_queue)[:games])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per table row")
    ap.add_argument("--envs", type=int, default=64, help="games at once in the Gymnasium vector")
    ap.add_argument("--levels", default="random,greedy", help="comma-separated levels to play")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    pz = pettingzoo_games(args.games, args.seed)
    print(f"PettingZoo quarto_v0, random against random, {args.games} games:")
    print(f"  player_0 (gives first) {pz['player_0']}, player_1 {pz['player_1']}, draws {pz['draw']}")
    print(f"Gymnasium quads/Quads-v0 (make_vec, {args.envs} games at once), masked random agent, either seat:")
    print(f"  {'level':<10} {'won':>5} {'drawn':>5} {'lost':>5}")
    for level in args.levels.split(","):
        g = gymnasium_games(level, args.games, args.envs, args.seed)
        print(f"  {level:<10} {g['won']:>5} {g['drawn']:>5} {g['lost']:>5}")


if __name__ == "__main__":
    main()
