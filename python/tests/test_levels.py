"""The levels as opponents: seeded, legal, and the perfect level keeps the game's value."""

import random

import pytest

import quads

NAMES = ["random", "greedy", "minimax", "mcts", "level-1", "level-3", "minimax-2"]


def game(spec, first, second):
    s = quads.State(spec)
    players = [first, second]
    moves = []
    while not s.is_terminal():
        mv = players[s.current_player].act(s)
        assert mv in s.legal_moves()
        s.play(mv)
        moves.append(mv)
    return moves, s.outcome_name


@pytest.mark.parametrize("name", NAMES)
def test_levels_play_legal_seeded_games(name):
    a = game("quads", quads.Level(name, seed=3, nodes=20000), quads.Level("random", seed=4))
    b = game("quads", quads.Level(name, seed=3, nodes=20000), quads.Level("random", seed=4))
    assert a == b, "the same seeds and budgets must give the same game"


def back(v):
    """A child's value seen from the player whose move reached it."""
    if v > quads.WIN // 2:
        return -(v - 1)
    if v < -quads.WIN // 2:
        return -(v + 1)
    return -v


def test_the_perfect_level_keeps_the_value():
    # From positions with 10 empty squares, the perfect level plays against random; every
    # move it makes keeps the solver's value of the position.
    solver = quads.Solver("classic", table_mib=16)
    perfect = quads.Level("perfect", seed=1)
    rng = random.Random(5)
    judged = 0
    for seed in range(6):
        rnd = quads.Level("random", seed=seed)
        s = quads.State("classic")
        while not s.is_terminal() and s.placed < 6:
            s.play(rng.choice(s.legal_moves()))
        if s.is_terminal():
            continue
        mover = s.current_player
        while not s.is_terminal():
            if s.current_player == mover:
                before = solver.value(s)
                mv = perfect.act(s)
                after = s.copy()
                after.play(mv)
                if after.is_terminal():
                    kept = {None: 0, mover: quads.WIN}.get(after.winner, -quads.WIN)
                else:
                    kept = back(solver.value(after))
                assert kept == before, (s.position, mv)
                s.play(mv)
                judged += 1
            else:
                s.play(rnd.act(s))
    assert judged >= 10, f"only {judged} judged moves"


def test_batched_acts_and_errors():
    lvl = quads.Level("greedy", seed=5)
    states = [quads.State("quads"), quads.State("classic")]
    moves = lvl.act_batch(states)
    assert all(m in s.legal_moves() for m, s in zip(moves, states))
    with pytest.raises(quads.QuadsError, match="unknown level `expert`"):
        quads.Level("expert")
    assert quads.Level("perfect").strategy.startswith("solver-")
