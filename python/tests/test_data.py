"""Solver-labelled positions: the labels are the solver's and `quads solve`'s, the sets are
seeded, and bad arguments are clear errors."""

import numpy as np
import pytest

import quads
from quads.data import ILLEGAL, labelled_positions
from quads.env import observe


def back(v):
    """A child's value seen from the player whose move reached it."""
    if v > quads.WIN // 2:
        return -(v - 1)
    if v < -quads.WIN // 2:
        return -(v + 1)
    return -v


def after(s, a):
    t = s.copy()
    t.apply_action(a)
    return t


@pytest.mark.parametrize("spec", ["quads", "classic"])
def test_a_labelled_set_holds_what_it_says(spec):
    data = labelled_positions(spec, count=40, seed=3, placed=(7, 11))
    n = len(data)
    assert n == 40 and data.unsolved == 0
    assert data.observations.shape == (n, 4, 4, 20) and data.observations.dtype == np.uint8
    assert data.masks.shape == (n, 32) and data.values.dtype == np.int32
    assert data.action_values.shape == (n, 32)
    kinds = {s.pending is None for s in data.states}
    assert kinds == {True, False}  # place and give decisions
    fresh = quads.Solver(spec, table_mib=16)
    for i, s in enumerate(data.states):
        assert 7 <= s.placed <= 11 and not s.is_terminal()
        assert np.array_equal(data.observations[i], observe(s))
        assert data.masks[i].tolist() == [a in s.legal_actions() for a in range(32)]
        assert (data.action_values[i][~data.masks[i]] == ILLEGAL).all()
        legal = data.action_values[i][data.masks[i]]
        assert legal.max() == data.values[i] and (legal <= data.values[i]).all()
        assert data.best[i].any() and not data.best[i][~data.masks[i]].any()
        if s.pending is None:
            assert fresh.value(s) == data.values[i]
        else:
            # A give decision's value is its best give's, seen from the other side.
            best = max(back(fresh.value(after(s, a))) for a in s.legal_actions())
            assert best == data.values[i]
    assert set(data.outcomes.tolist()) <= {-1, 0, 1}


def said_value(words):
    """`quads solve`'s value line as a number: `win in 3 placements` is quads.WIN - 2."""
    if words == "draw":
        return 0
    kind, _, k, _ = words.split()
    v = quads.WIN - (int(k) - 1)
    return v if kind == "win" else -v


def test_place_decisions_carry_the_value_quads_solve_gives(cli):
    data = labelled_positions("quads", count=6, seed=8, placed=8, decisions="place")
    for s, v in zip(data.states, data.values):
        assert s.pending is None and s.placed == 8
        out = cli("solve", "--rules", "quads", "--hash", "16", s.position)
        assert out.returncode == 0, out.stderr
        said = dict(line.split(": ", 1) for line in out.stdout.splitlines())
        assert said_value(said["value"]) == v, s.position


def test_the_same_seed_gives_the_same_set():
    a = labelled_positions("quads", count=12, seed=5, placed=(5, 9))
    b = labelled_positions("quads", count=12, seed=5, placed=(5, 9))
    c = labelled_positions("quads", count=12, seed=6, placed=(5, 9))
    assert [s.position for s in a.states] == [s.position for s in b.states]
    assert np.array_equal(a.action_values, b.action_values)
    assert [s.position for s in a.states] != [s.position for s in c.states]


def test_give_decisions_only():
    data = labelled_positions("classic", count=5, seed=1, placed=10, decisions="give")
    assert all(s.pending is not None and s.placed == 10 for s in data.states)
    assert not data.masks[:, :16].any()


def test_positions_beyond_the_limits_are_left_out_and_counted():
    data = labelled_positions("classic", count=3, seed=2, placed=(3, 12), nodes=1)
    assert len(data) == 3 and data.unsolved > 0
    assert all(s.placed >= 3 for s in data.states)
    with pytest.raises(ValueError, match="the solver settled 0 of 21 positions"):
        labelled_positions("classic", count=1, seed=2, placed=1, nodes=1)


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="placed must lie within 0-15"):
        labelled_positions("quads", count=1, placed=(9, 4))
    with pytest.raises(ValueError, match="decisions must be one of place, give, both"):
        labelled_positions("quads", count=1, decisions="all")
    with pytest.raises(ValueError, match="the solver is for rules `classic`"):
        labelled_positions("quads", count=1, solver=quads.Solver("classic"))
    with pytest.raises(quads.QuadsError, match="unknown"):
        labelled_positions("quadz", count=1)
    assert len(labelled_positions("quads", count=0)) == 0
