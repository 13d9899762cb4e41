"""A test agent: random actions from the game's seed (a half-move agent)."""

import random


class Agent:
    name = "seeded-actions"

    def __init__(self):
        self.rng = random.Random(0)

    def new_game(self, rules, seat, seed):
        self.rng = random.Random(seed)

    def act(self, state):
        return self.rng.choice(state.legal_actions())
