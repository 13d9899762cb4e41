"""Symmetries for augmentation and the canonical form: the right counts, values kept, legal
actions mapped, one canonical form per class."""

import random

import pytest

import quads


def midgame(spec, placed, seed):
    rng = random.Random(seed)
    while True:
        s = quads.State(spec)
        while not s.is_terminal() and s.placed < placed:
            s.play(rng.choice(s.legal_moves()))
        if not s.is_terminal():
            return s


@pytest.mark.parametrize(
    "spec,count",
    [("quads", 8 * 16 * 24), ("classic", 32 * 16 * 24), ("classic,traits=color", 32 * 16 * 6),
     ("quads,traits=size+fill", 8 * 16 * 4)],
)
def test_symmetry_counts(spec, count):
    syms = quads.symmetries(spec)
    assert len(syms) == count
    assert len({(tuple(s.squares), tuple(s.pieces)) for s in syms}) == count
    assert syms[0].squares == list(range(16)) and syms[0].pieces == list(range(16))


@pytest.mark.parametrize("spec", ["quads", "classic", "classic,traits=color"])
def test_images_keep_value_and_map_actions(spec):
    rng = random.Random(1)
    syms = quads.symmetries(spec)
    solver = quads.Solver(spec, table_mib=16)
    for seed in range(5):
        s = midgame(spec, 8, seed)
        value = solver.value(s)
        counts = [s.perft(1), s.perft(2)]
        for sym in rng.sample(syms, 8):
            t = s.transform(sym)
            assert sorted(sym.actions[a] for a in s.legal_actions()) == t.legal_actions()
            assert [t.perft(1), t.perft(2)] == counts
            assert solver.value(t) == value
        # Pending placements map too.
        a = rng.choice(s.legal_actions())
        s.apply_action(a)
        if s.pending is not None:
            sym = rng.choice(syms)
            t = s.transform(sym)
            assert t.pending == quads.action_to_str(sym.actions[a])
            assert sorted(sym.actions[x] for x in s.legal_actions()) == t.legal_actions()


def test_one_canonical_form_per_class():
    rng = random.Random(2)
    syms = quads.symmetries("classic")
    for seed in range(5):
        s = midgame("classic", 5, 100 + seed)
        form, sym = quads.canonical(s)
        assert s.transform(sym) == form
        for other in rng.sample(syms, 6):
            assert quads.canonical(s.transform(other))[0] == form
    a, b = midgame("classic", 5, 1), midgame("classic", 5, 2)
    assert (quads.canonical(a)[0] == quads.canonical(b)[0]) == any(
        a.transform(x) == b for x in syms
    )
