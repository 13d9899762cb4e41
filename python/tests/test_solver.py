"""The solver from Python: `quads solve`'s values, action values whose best is the value."""

import random

import pytest

import quads


def midgame(spec, empty, seed):
    """A position by random whole moves with `empty` empty squares, the game still going."""
    rng = random.Random(seed)
    while True:
        s = quads.State(spec)
        while not s.is_terminal() and 16 - s.placed > empty:
            s.play(rng.choice(s.legal_moves()))
        if not s.is_terminal() and s.hand is not None:
            return s


def back(v):
    """The value of a child position, seen from the player whose move reached it (a win or a
    loss one placement further away)."""
    if v > quads.WIN // 2:
        return -(v - 1)
    if v < -quads.WIN // 2:
        return -(v + 1)
    return -v


@pytest.mark.parametrize("spec", ["quads", "classic"])
def test_values_match_quads_solve(cli, spec):
    solver = quads.Solver(spec, table_mib=16)
    for seed in range(6):
        s = midgame(spec, 9, seed)
        out = cli("solve", "--rules", spec, "--hash", "16", s.position)
        assert out.returncode == 0, out.stderr
        said = dict(line.split(": ", 1) for line in out.stdout.splitlines())
        found = solver.solve(s)
        assert found.exact
        assert found.describe() == said["value"], s.position
        assert found.value == solver.value(s)
        # The best move keeps the value: the opponent's value after it is its negation.
        after = s.copy()
        after.play(found.best)
        if not after.is_terminal():
            assert back(solver.value(after)) == found.value


@pytest.mark.parametrize("spec", ["quads", "classic,claim=announce"])
def test_the_best_action_value_is_the_states_value(spec):
    solver = quads.Solver(spec, table_mib=16)
    for seed in range(4):
        s = midgame(spec, 8, 100 + seed)
        value = solver.value(s)
        values = solver.action_values(s)
        legal = s.legal_actions()
        assert [i for i, v in enumerate(values) if v is not None] == legal
        assert max(values[a] for a in legal) == value
        # After a place action, the gives' values: the best is the placement's value.
        place = max(legal, key=lambda a: values[a])
        s.apply_action(place)
        if s.pending is not None:
            gives = solver.action_values(s)
            assert max(v for v in gives if v is not None) == values[place]


def test_limits_and_errors():
    solver = quads.Solver("quads", table_mib=16)
    s = quads.State("quads")
    s.play("SLQH")
    # The empty board with a piece in hand takes far more than 1,000 nodes.
    assert solver.solve(s, nodes=1000) is None
    with pytest.raises(quads.QuadsError, match="this solver solves `quads`, not `classic`"):
        solver.solve(quads.State("classic", "..../..../..../.... SLQH"))
    done = midgame("quads", 8, 1)
    while not done.is_terminal():
        done.play(done.legal_moves()[0])
    with pytest.raises(quads.QuadsError, match="the game is over"):
        solver.solve(done)
    with pytest.raises(quads.QuadsError, match="time must be"):
        solver.solve(s, time=-1.0)
