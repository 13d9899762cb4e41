"""A minimal training loop: a linear softmax policy over a few features of each action,
trained by REINFORCE against levels 1 and 2 of the `quads` package in turn, in NumPy only.

Each legal action is described by a handful of numbers computed from the observation planes
(does this placement win, how many of the pieces left are still safe to give after it, does
this give hand the opponent a win, on how many squares can the opponent place it and still
have a safe piece to give back, ...). The policy is softmax(w . features) over the legal
actions (illegal ones are masked out by never being scored); place and give decisions have
their own weights. The weights start at zero, so the untrained policy is uniformly random, the
same player as level 1 (but over actions, not whole moves, so it takes a winning placement
far more often than level 1 does). Training alternates its opponents because against greedy
alone the untrained policy almost never wins, and REINFORCE learns little from nothing but
losses (with greedy alone, seeds 2 and 4 of 4 were still at 0.02 to 0.05 after 600 episodes).
Every few hundred episodes the policy is evaluated on a fixed set of seeded games against each
level, the same games every time (whatever --seed), so the win rates are comparable.

    python examples/python/train.py --episodes 3000 --seed 1

Same seed, same output: the opponents are seeded per game, the policy's sampling comes from a
seeded generator, and nothing reads the clock.
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np

import quads

PLACE_FEATURES = ["wins", "safe gives left", "no safe give left", "live shapes", "centre", "corner"]
GIVE_FEATURES = ["hands a win", "wins it hands", "squeezes", "always squeezes"]


def shapes(squares: bool) -> list[tuple[int, ...]]:
    """The winning shapes as square indices (row x 4 + column)."""
    out = [tuple(r * 4 + c for c in range(4)) for r in range(4)]
    out += [tuple(r * 4 + c for r in range(4)) for c in range(4)]
    out += [(0, 5, 10, 15), (3, 6, 9, 12)]
    if squares:
        out += [(r * 4 + c, r * 4 + c + 1, r * 4 + c + 4, r * 4 + c + 5) for r in range(3) for c in range(3)]
    return out


SHAPES = {True: shapes(True), False: shapes(False)}
CENTRE = {5, 6, 9, 10}
CORNER = {0, 3, 12, 15}


def read(state: quads.State):
    """The board (piece bits or None per square), the piece in hand (bits or None), the
    counting traits (a mask) and the shapes, from the observation planes."""
    obs = state.observation()
    board, hand = [], None
    for sq in range(16):
        p = obs[sq * 20 : sq * 20 + 20]
        if any(p[0:8]):
            board.append(sum(1 << t for t in range(4) if p[t]))
        else:
            board.append(None)
    p = obs[0:20]  # planes 9-19 are the same on every square
    if p[13]:
        hand = sum(1 << t for t in range(4) if p[9 + t])
    counting = sum(1 << t for t in range(4) if p[16 + t])
    return board, hand, counting, SHAPES[bool(p[15])]


def live(board, counting, shape_list):
    """The shapes with three pieces and one empty square whose pieces agree on a counting trait:
    (traits all set, traits all clear) of each."""
    out = []
    for sh in shape_list:
        pieces = [board[i] for i in sh if board[i] is not None]
        if len(pieces) == 3:
            ones = pieces[0] & pieces[1] & pieces[2] & counting
            zeros = ~(pieces[0] | pieces[1] | pieces[2]) & counting
            if ones or zeros:
                out.append((ones, zeros))
    return out


def completes(piece, threats) -> int:
    """How many of the live shapes `piece` would win in."""
    return sum(1 for ones, zeros in threats if piece & ones or ~piece & zeros)


def features(state: quads.State, legal: list[int]) -> np.ndarray:
    """One row of features per legal action (all place actions or all give actions)."""
    board, hand, counting, shape_list = read(state)
    placed = {b for b in board if b is not None}
    if legal[0] < 16:  # place the piece in hand
        left = [p for p in range(16) if p not in placed and p != hand]
        rows = []
        for sq in legal:
            after = state.copy()
            after.apply_action(sq)
            wins = after.is_terminal() and after.winner == state.current_player
            board[sq] = hand
            threats = live(board, counting, shape_list)
            board[sq] = None
            safe = sum(1 for p in left if not completes(p, threats))
            share = safe / len(left) if left else 1.0
            rows.append([wins, share, bool(left) and safe == 0, len(threats) / 4, sq in CENTRE, sq in CORNER])
        return np.array(rows, dtype=float)
    threats = live(board, counting, shape_list)  # a pending placement shows on the board
    empty = [sq for sq in range(16) if board[sq] is None]
    rows = []
    for a in legal:
        p = a - 16
        hands = completes(p, threats)
        # Squeezed: the opponent places p and then has no safe piece to give back.
        left = [q for q in range(16) if q not in placed and q != p]
        squeezed = 0
        if not hands and left:
            for sq in empty:
                board[sq] = p
                after = live(board, counting, shape_list)
                board[sq] = None
                squeezed += all(completes(q, after) for q in left)
        share = squeezed / len(empty) if empty else 0.0
        rows.append([hands > 0, hands / 4, share, share == 1.0])
    return np.array(rows, dtype=float)


class Policy:
    def __init__(self):
        self.w = {True: np.zeros(len(PLACE_FEATURES)), False: np.zeros(len(GIVE_FEATURES))}

    def act(self, state: quads.State, rng: random.Random, trace=None) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        phi = features(state, legal)
        w = self.w[legal[0] < 16]
        z = phi @ w
        prob = np.exp(z - z.max())
        prob /= prob.sum()
        i = min(np.searchsorted(np.cumsum(prob), rng.random(), side="right"), len(legal) - 1)
        if trace is not None:  # the score function: d log pi(a) / dw
            trace.append((legal[0] < 16, phi[i] - prob @ phi))
        return legal[i]


def play(policy: Policy, rules: str, level: str, seat: int, seed: int, rng: random.Random, trace=None) -> float:
    """One game against `level`; the policy's return (+1, 0, -1)."""
    opponent = quads.Level(level, seed=seed)
    s = quads.State(rules)
    while not s.is_terminal():
        if s.current_player == seat:
            s.apply_action(policy.act(s, rng, trace))
        else:
            s.play(opponent.act(s))
    return s.returns()[seat]


def evaluate(policy: Policy, rules: str, level: str, games: int) -> tuple[int, int, int]:
    """Won, drawn, lost over a fixed set of seeded games (seats alternate)."""
    results = [play(policy, rules, level, g % 2, 7_000_000 + g, random.Random(g)) for g in range(games)]
    return sum(r > 0 for r in results), sum(r == 0 for r in results), sum(r < 0 for r in results)


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--episodes", type=int, default=3000)
    p.add_argument("--every", type=int, default=250, help="evaluate every this many episodes")
    p.add_argument("--eval-games", type=int, default=200, help="games per level and evaluation")
    p.add_argument("--opponent", default="random,greedy", help="the levels trained against, in turn")
    p.add_argument("--levels", default="random,greedy", help="the levels evaluated against")
    p.add_argument("--rules", default="quads", help="quads or classic (all four traits count)")
    p.add_argument("--lr", type=float, default=0.3)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    levels = args.levels.split(",")

    print(f"train: linear softmax policy, REINFORCE against {args.opponent.replace(',', ' and ')}, rules {args.rules}, "
          f"seed {args.seed}, learning rate {args.lr}")
    print(f"evaluation: {args.eval_games} seeded games per level (seats alternate), the same games each time")
    print(f"{'episodes':>8} " + " ".join(f"{'vs ' + lv:>12}" for lv in levels) + "   (win rate, won/drawn/lost)")
    policy, rng = Policy(), random.Random(args.seed)

    def report(episodes: int) -> None:
        cells = []
        for lv in levels:
            won, drawn, lost = evaluate(policy, args.rules, lv, args.eval_games)
            cells.append(f"{won / args.eval_games:>5.2f} {won:>3}/{drawn}/{lost}")
        print(f"{episodes:>8} " + " ".join(f"{c:>12}" for c in cells), flush=True)

    report(0)
    opponents = args.opponent.split(",")
    baselines = {o: 0.0 for o in opponents}  # the running mean return against each opponent
    for episode in range(1, args.episodes + 1):
        opponent = opponents[(episode // 2) % len(opponents)]  # each opponent in both seats
        trace = []
        ret = play(policy, args.rules, opponent, episode % 2, args.seed * 1_000_003 + episode, rng, trace)
        advantage = ret - baselines[opponent]
        for place, grad in trace:
            policy.w[place] += args.lr * advantage * grad
        baselines[opponent] += 0.05 * advantage
        if episode % args.every == 0:
            report(episode)
    for place, names in ((True, PLACE_FEATURES), (False, GIVE_FEATURES)):
        weights = ", ".join(f"{n} {w:+.2f}" for n, w in zip(names, policy.w[place]))
        print(f"weights, {'place' if place else 'give'}: {weights}")


if __name__ == "__main__":
    main(sys.argv[1:])
