"""The examples in examples/python: the scripts run with tiny budgets, their output adds up and
is the same twice, the MCTS agent passes `quads check` as a protocol bot, and the MCTS agent and
the training loop do what they claim (beat level random; learn against level greedy)."""

import pathlib
import random
import re
import subprocess
import sys

import quads

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"


def run(script, *args):
    out = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def mcts_rows(text):
    """{level: {column: value}} from the table mcts.py prints."""
    lines = text.splitlines()
    head = next(i for i, l in enumerate(lines) if l.startswith("level "))
    names = lines[head].split()
    rows = {}
    for line in lines[head + 1 :]:
        if line.startswith("decisions in the window"):
            break
        cells = line.split()
        rows[cells[0]] = dict(zip(names[1:], cells[1:]))
    return rows, lines[-1]


def test_mcts_script_adds_up_replays_and_beats_random():
    args = ["--games", "4", "--iterations", "200", "--levels", "random,greedy", "--seed", "3"]
    first = run("mcts.py", *args)
    assert run("mcts.py", *args) == first  # deterministic, byte for byte
    rows, last = mcts_rows(first)
    assert list(rows) == ["random", "greedy"]
    for r in rows.values():
        won, drawn, lost = int(r["won"]), int(r["drawn"]), int(r["lost"])
        assert int(r["games"]) == 4 == won + drawn + lost
        assert float(r["score"]) == won + drawn / 2
        judged, kept, best, blunders = (int(r[k]) for k in ("judged", "kept", "best", "blunders"))
        assert 0 < judged <= int(r["decisions"])
        assert kept + blunders <= judged and best <= kept and int(r["thrown"]) <= blunders
        assert r["accuracy"] == f"{100 * kept / judged:.1f}%"
    assert last == "decisions in the window left unjudged at the node limit: 0"
    # On substance: 200 playouts a decision win all four seeded games against level random.
    assert (rows["random"]["won"], rows["random"]["lost"]) == ("4", "0")


def test_mcts_agent_takes_a_win_and_replays_its_seed():
    sys.path.insert(0, str(EXAMPLES))
    sys.dont_write_bytecode, keep = True, sys.dont_write_bytecode  # no __pycache__ in examples/
    try:
        import mcts
    finally:
        sys.path.remove(str(EXAMPLES))
        sys.dont_write_bytecode = keep
    rng = random.Random(5)
    wins = 0
    for _ in range(200):
        s = quads.State("quads")
        while not s.is_terminal():
            winning = []
            if s.pending is None and s.hand is not None:
                for a in s.legal_actions():
                    t = s.copy()
                    t.apply_action(a)
                    if t.is_terminal() and t.winner == s.current_player:
                        winning.append(a)
            if winning:
                agent = mcts.Agent(iterations=200)
                agent.new_game("quads", s.current_player, 11)
                chosen = agent.act(s.copy())
                assert chosen in winning, s.position
                again = mcts.Agent(iterations=200)
                again.new_game("quads", s.current_player, 11)
                assert again.act(s.copy()) == chosen
                wins += 1
                break
            s.apply_action(rng.choice(s.legal_actions()))
        if wins == 5:
            break
    assert wins == 5


def test_mcts_agent_passes_quads_check(cli):
    out = cli("check", "--dir", str(EXAMPLES), "--", sys.executable, "-m", "quads.bot", "mcts:Agent")
    last = out.stdout.strip().splitlines()[-1]
    assert out.returncode == 0, out.stdout + out.stderr
    n = re.match(r"(\d+) of (\d+) scenarios passed", last)
    assert n and n.group(1) == n.group(2), last


def test_training_adds_up_replays_and_learns():
    args = ["--episodes", "300", "--every", "150", "--eval-games", "60", "--seed", "2"]
    first = run("train.py", *args)
    assert run("train.py", *args) == first  # deterministic, byte for byte
    table = [l.split() for l in first.splitlines() if re.match(r"\s*\d+ ", l)]
    assert [int(row[0]) for row in table] == [0, 150, 300]
    rates, random_rates = [], []
    for row in table:
        cells = row[1:]
        assert len(cells) == 4  # vs random, vs greedy: a rate and won/drawn/lost each
        for rate, wdl in zip(cells[0::2], cells[1::2]):
            won, drawn, lost = map(int, wdl.split("/"))
            assert won + drawn + lost == 60
            assert rate == f"{won / 60:.2f}"
        random_rates.append(float(cells[0]))
        rates.append(float(cells[2]))
    # The untrained (uniformly random) policy hardly ever beats greedy; 300 episodes against
    # random and greedy in turn lift it well clear of that (0.02 to 0.40 here), and it comes to
    # beat random nearly always (0.73 to 1.00).
    assert rates[0] <= 0.05 and rates[-1] >= rates[0] + 0.15, rates
    assert random_rates[-1] >= 0.9 > random_rates[0], random_rates
    assert first.splitlines()[-1].startswith("weights, give: hands a win -")


def test_ecosystems_script_adds_up_and_replays():
    args = ["--games", "30", "--envs", "8", "--levels", "random,greedy", "--seed", "2"]
    first = run("ecosystems.py", *args)
    assert run("ecosystems.py", *args) == first  # deterministic, byte for byte
    pz = re.search(r"player_0 \(gives first\) (\d+), player_1 (\d+), draws (\d+)", first)
    assert sum(int(x) for x in pz.groups()) == 30
    rows = {m[0]: [int(x) for x in m[1:]] for m in re.findall(r"^  (\w+) +(\d+) +(\d+) +(\d+)$", first, re.M)}
    assert set(rows) == {"random", "greedy"} and all(sum(r) == 30 for r in rows.values())
    # Greedy takes every winning placement: a random agent loses most games to it.
    assert rows["greedy"][2] > rows["greedy"][0]
