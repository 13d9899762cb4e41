"""A Monte Carlo tree search agent in pure Python over the `quads` package, and a judge of it.

UCT over the 32-action space (one decision per half-move: place the piece in hand, then give
one), random playouts, a seeded `random.Random` and a budget of iterations, not of time, so the
same seed plays the same moves on any machine.

As a script it plays against the package's levels in-process, seats swapped in pairs, and has
the exact solver judge every decision it made:

    python examples/python/mcts.py --games 20 --iterations 1000 --rules quads --seed 1

As a protocol bot, from this folder (`quads check`, `quads match`, a tournament):

    quads check --dir examples/python -- "$VENV/bin/python" -m quads.bot mcts:Agent
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from typing import Optional

import quads


class Node:
    """A state in the tree, reached by `action`; `wins` is counted for `mover`, the player who
    chose that action (a player places and gives in a row, so it is not always the parent's
    opponent)."""

    __slots__ = ("parent", "action", "mover", "children", "untried", "visits", "wins")

    def __init__(self, parent: Optional["Node"], action: Optional[int], mover: int, state: quads.State):
        self.parent = parent
        self.action = action
        self.mover = mover
        self.children: list[Node] = []
        self.untried = [] if state.is_terminal() else state.legal_actions()
        self.visits = 0
        self.wins = 0.0  # +1 a win, +0.5 a draw, for `mover`

    def select(self, c: float) -> "Node":
        """The child with the best UCT score (the first of equals: deterministic)."""
        log_n = math.log(self.visits)
        return max(self.children, key=lambda ch: ch.wins / ch.visits + c * math.sqrt(log_n / ch.visits))


def search(state: quads.State, iterations: int, rng: random.Random, c: float = 0.7) -> int:
    """The action UCT chooses from `state` after `iterations` playouts: the most visited.
    `c` weighs exploration (0.7 scored 41.5 of 60 against greedy at 1000 iterations, 1.4 30.5)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    root = Node(None, None, -1, state)
    for _ in range(iterations):
        node, s = root, state.copy()
        # Selection: down through fully expanded nodes.
        while not node.untried and node.children:
            node = node.select(c)
            s.apply_action(node.action)
        # Expansion: one untried action, drawn at random.
        if node.untried:
            a = node.untried.pop(rng.randrange(len(node.untried)))
            mover = s.current_player
            s.apply_action(a)
            child = Node(node, a, mover, s)
            node.children.append(child)
            node = child
        # Playout: uniformly random actions to the end.
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        winner = s.winner
        # Backpropagation.
        while node is not None:
            node.visits += 1
            if winner is None:
                node.wins += 0.5
            elif winner == node.mover:
                node.wins += 1.0
            node = node.parent
    return max(root.children, key=lambda ch: ch.visits).action


class Agent:
    """The agent for `python -m quads.bot mcts:Agent`: one search per decision (an action)."""

    name = "python-mcts"

    def __init__(self, iterations: int = 1000, seed: int = 0):
        self.iterations = iterations
        self.rng = random.Random(seed)

    def new_game(self, rules: str, seat: int, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, state: quads.State) -> int:
        return search(state, self.iterations, self.rng)


# --- The script: games against the levels, every decision judged by the solver. ---


def outcome_class(v: int) -> int:
    """A solver value reduced to win (1), draw (0) or loss (-1), as `quads analyze` does."""
    return (v > 0) - (v < 0)


class Judge:
    """Tallies the solver's verdicts on the agent's decisions (each action on its own: a place
    action's value is that of its best give). A decision keeps the value when it keeps the
    state's win, draw or loss; it is a blunder when it lowers it; it is `best` when its value is
    exactly the state's (a win as fast as possible, a loss put off as long as possible)."""

    def __init__(self, rules: str, empty: int, nodes: int):
        self.solver = quads.Solver(rules, table_mib=64)
        self.empty, self.nodes = empty, nodes
        self.decisions = self.judged = self.kept = self.best = self.blunders = self.thrown = 0
        self.limited = 0  # in the window, but the node limit came first

    def see(self, state: quads.State, action: int) -> None:
        self.decisions += 1
        if 16 - state.placed > self.empty:
            return
        values = self.solver.action_values(state, nodes=self.nodes)
        if values is None or any(values[a] is None for a in state.legal_actions()):
            self.limited += 1  # the node limit came first: not judged
            return
        value = max(values[a] for a in state.legal_actions())
        self.judged += 1
        before, after = outcome_class(value), outcome_class(values[action])
        self.kept += after == before
        self.best += values[action] == value
        self.blunders += after < before
        self.thrown += after < before and before == 1


def play(rules: str, level: str, iterations: int, agent_seat: int, seed: int, judge: Judge) -> Optional[int]:
    """One game of the agent against `level`; the winner (0/1) or None for a draw."""
    agent = Agent(iterations)
    agent.new_game(rules, agent_seat, seed)
    opponent = quads.Level(level, seed=seed)
    s = quads.State(rules)
    while not s.is_terminal():
        if s.current_player == agent_seat:
            a = agent.act(s)
            judge.see(s, a)
            s.apply_action(a)
        else:
            s.play(opponent.act(s))
    return s.winner


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20, help="games per level (seats swapped in pairs)")
    p.add_argument("--iterations", type=int, default=1000, help="playouts per decision")
    p.add_argument("--rules", default="quads")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--levels", default="random,greedy,minimax", help="comma-separated level names")
    p.add_argument("--judge-empty", type=int, default=12, help="judge decisions with at most this many empty squares")
    p.add_argument("--judge-nodes", type=int, default=2_000_000, help="node limit of each solver call")
    args = p.parse_args(argv)

    print(f"mcts, {args.iterations} iterations a decision, rules {args.rules}, seed {args.seed}, "
          f"{args.games} games per level, seats swapped in pairs")
    print(f"judged by the exact solver: decisions with {args.judge_empty} or fewer empty squares, "
          f"{args.judge_nodes} nodes a position at most")
    print(f"{'level':<10} {'games':>5} {'won':>4} {'drawn':>5} {'lost':>4} {'score':>6}  "
          f"{'decisions':>9} {'judged':>6} {'kept':>5} {'accuracy':>8} {'best':>5} {'blunders':>8} {'thrown':>6}")
    limited = 0
    for level in args.levels.split(","):
        judge = Judge(args.rules, args.judge_empty, args.judge_nodes)
        won = drawn = lost = 0
        for g in range(args.games):
            seat, seed = g % 2, args.seed * 1_000_003 + g // 2
            winner = play(args.rules, level, args.iterations, seat, seed, judge)
            if winner is None:
                drawn += 1
            elif winner == seat:
                won += 1
            else:
                lost += 1
        accuracy = f"{100 * judge.kept / judge.judged:.1f}%" if judge.judged else "-"
        print(f"{level:<10} {args.games:>5} {won:>4} {drawn:>5} {lost:>4} {won + drawn / 2:>6.1f}  "
              f"{judge.decisions:>9} {judge.judged:>6} {judge.kept:>5} {accuracy:>8} {judge.best:>5} "
              f"{judge.blunders:>8} {judge.thrown:>6}")
        limited += judge.limited
    print(f"decisions in the window left unjudged at the node limit: {limited}")


if __name__ == "__main__":
    main(sys.argv[1:])
