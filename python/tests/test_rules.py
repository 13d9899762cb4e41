"""The rules from Python: the CLI's notation and counts, the action space, errors, pickling."""

import copy
import pickle
import random

import pytest

import quads

SPECS = ["quads", "classic", "classic,traits=color+shape", "quads,traits=size"]


def playout(state, rng):
    """Plays random actions to the end; returns (before, actions, after) for each whole move."""
    moves = []
    while not state.is_terminal():
        before = state.copy()
        start = len(moves)
        a = rng.choice(state.legal_actions())
        state.apply_action(a)
        taken = [a]
        if state.pending is not None:
            b = rng.choice(state.legal_actions())
            state.apply_action(b)
            taken.append(b)
        moves.append((before, taken, state.copy()))
        assert len(moves) == start + 1
    return moves


@pytest.mark.parametrize("spec", SPECS)
def test_perft_matches_the_cli(cli, spec):
    out = cli("perft", "--rules", spec, "3")
    assert out.returncode == 0, out.stderr
    expected = [int(line.split()[1]) for line in out.stdout.splitlines()]
    state = quads.State(spec)
    assert [state.perft(d) for d in (1, 2, 3)] == expected


def test_perft_from_a_position_matches_the_cli(cli):
    state = quads.State("quads")
    for mv in ["SLQH", "A4 BDRF", "B2 BLRH"]:
        state.play(mv)
    out = cli("perft", "--rules", "quads", "--position", state.position, "4")
    assert out.returncode == 0, out.stderr
    expected = [int(line.split()[1]) for line in out.stdout.splitlines()]
    assert [state.perft(d) for d in (1, 2, 3, 4)] == expected


def test_the_notation_reads_and_writes_as_the_cli_does():
    s = quads.State("classic")
    s.play("SLQH")
    s.play("B2 BDRF")
    assert s.position == "..../..../.SLQH../.... BDRF"
    again = quads.State("classic", s.position)
    assert again == s
    assert again.legal_moves() == s.legal_moves()
    assert quads.Rules("classic,squares=on").spec == "quads"
    assert str(quads.Rules("quads,claim=announce")) == "quads,claim=announce"


@pytest.mark.parametrize("spec", SPECS + ["quads,claim=announce", "classic,claim=announce"])
def test_actions_and_moves_make_the_same_games(spec):
    rng = random.Random(7)
    for _ in range(40):
        by_actions = quads.State(spec)
        for before, taken, after in playout(by_actions, rng):
            mv = before.actions_to_move(taken)
            assert mv in before.legal_moves()
            assert before.move_to_actions(mv) == taken
            before.play(mv)
            assert before == after, (spec, mv)
        assert by_actions.is_terminal()


def test_every_legal_move_has_actions_that_make_it():
    rng = random.Random(3)
    for spec in SPECS:
        s = quads.State(spec)
        while not s.is_terminal():
            for mv in s.legal_moves():
                after = s.copy()
                after.play(mv)
                via = s.copy()
                for a in s.move_to_actions(mv):
                    via.apply_action(a)
                assert via == after, (spec, s.position, mv)
            s.play(rng.choice(s.legal_moves()))


def test_the_mask_is_the_legal_actions():
    s = quads.State()
    assert s.legal_actions() == list(range(16, 32))
    assert s.action_mask() == [False] * 16 + [True] * 16
    s.apply_action(16)
    assert s.current_player == 1
    assert s.legal_actions() == list(range(16))
    s.apply_action(quads.parse_action("b2"))
    assert s.pending == "B2"
    assert s.current_player == 1
    assert s.legal_actions() == list(range(17, 32))
    assert quads.action_to_str(5) == "B2"
    assert quads.parse_action(quads.action_to_str(31)) == 31
    assert [quads.parse_action(quads.action_to_str(a)) for a in range(32)] == list(range(32))


def test_an_announced_win_and_a_claim():
    s = quads.State("classic,claim=announce")
    for mv in ["SLQH", "A1 SLQF", "B1 SLRH", "C1 SDQH"]:
        s.play(mv)
    # The piece in hand completes row 1 on D1: the place action announces it.
    assert s.hand == "SDQH"
    won = s.copy()
    won.apply_action(quads.parse_action("D1"))
    assert won.is_terminal() and won.winner == s.current_player
    assert won.returns()[s.current_player] == 1.0
    # Placing elsewhere and giving leaves a claim only through whole moves; an action claims it.
    missed = s.copy()
    missed.play("D1 BLQH")
    assert "quarto" in missed.legal_moves()
    claimer = missed.current_player
    missed.apply_action(missed.legal_actions()[0])
    assert missed.winner == claimer


def test_errors_carry_the_projects_messages():
    with pytest.raises(quads.QuadsError) as bad:
        quads.State("chess")
    assert str(bad.value) == str(quads_error(lambda: quads.Rules("chess")))
    s = quads.State()
    with pytest.raises(quads.IllegalMoveError) as illegal:
        s.play("A1 SLQH")
    assert str(illegal.value) == (
        "illegal move `A1 SLQH` in `..../..../..../.... -`: no piece in hand: the opening move is a give"
    )
    with pytest.raises(quads.IllegalMoveError) as illegal:
        s.apply_action(3)
    assert str(illegal.value) == (
        "illegal action 3 (`D1`) in `..../..../..../.... -`: no piece in hand: the opening move is a give"
    )
    with pytest.raises(quads.QuadsError) as out_of_range:
        s.apply_action(32)
    assert "out of range" in str(out_of_range.value)
    with pytest.raises(quads.QuadsError):
        s.undo()
    assert issubclass(quads.IllegalMoveError, ValueError)


def quads_error(f):
    try:
        f()
    except quads.QuadsError as e:
        return e
    raise AssertionError("no error")


def test_undo_takes_back_moves_and_actions():
    rng = random.Random(11)
    s = quads.State("quads")
    seen = [s.copy()]
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        seen.append(s.copy())
    for expected in reversed(seen[:-1]):
        s.undo()
        assert s == expected
        assert s.legal_actions() == expected.legal_actions()


def play(spec, moves):
    s = quads.State(spec)
    for mv in moves:
        s.play(mv)
    return s


def test_states_hash_and_pickle():
    # The same position by two roads: equal, one key; another position is another key.
    a = play("quads", ["SLQH", "A1 BDRF", "B2 BLRH", "C3 SDQF"])
    b = play("quads", ["BLRH", "C3 BDRF", "B2 SLQH", "A1 SDQF"])
    other = play("quads", ["SLQH", "A1 BDRF"])
    assert a == b and hash(a) == hash(b)
    assert a.position == b.position
    assert len({a, b, other}) == 2
    assert a != play("classic", ["SLQH", "A1 BDRF", "B2 BLRH", "C3 SDQF"])
    a.apply_action(quads.parse_action("D4"))
    assert a != b
    for s in (copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a))):
        assert s == a
        assert s.pending == "D4"
        # The history comes along: undo walks back to the start.
        s.undo()
        assert s == b
        s.undo()
        s.undo()
        assert s == play("quads", ["SLQH", "A1 BDRF"])
        s.undo()
        s.undo()
        assert s == quads.State("quads")
    assert a.pending == "D4", "a copy's undo changed the original"
    r = quads.Rules("classic,traits=fill")
    assert pickle.loads(pickle.dumps(r)) == r


def test_the_installed_package_is_tested():
    # pytest must import the wheel pip installed, not the source folder.
    assert "site-packages" in quads.__file__, quads.__file__
    assert quads._quads.__file__.endswith((".so", ".pyd"))
