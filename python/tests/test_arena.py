"""The arena: Python agents, levels and protocol bots in the referee's tournaments, matches
and SPRTs; the records, ratings, verdicts and the solver's judgement that come back; time
rules, bad agents and bad input."""

import json
import pathlib
import subprocess
import sys
import random
import threading
import warnings

import pytest

import quads
from quads import arena


class Seeded:
    """Random actions from the game's seed."""

    def new_game(self, rules, seat, seed):
        self.rng = random.Random(seed)

    def act(self, state):
        return self.rng.choice(state.legal_actions())


def first_legal(state):
    """A plain function: the first legal whole move."""
    return state.legal_moves()[0]


def players(release):
    return {
        "seeded": Seeded,
        "first": first_legal,
        "greedy": "greedy",
        "qb-random": arena.Command([str(release / "quads-bot"), "--strategy", "random"]),
    }


def run(release, tmp, **kw):
    return arena.tournament(
        players(release),
        variants=["quads", "classic"],
        pairs=1,
        movetime=2.0,
        seed=7,
        out=tmp,
        jail=str(release / "quads-jail"),
        **kw,
    )


def test_a_tournament_of_agents_levels_and_a_bot(release, tmp_path):
    events = []
    res = run(release, tmp_path / "a", progress=lambda kind, text: events.append(kind))
    assert res.finished and res.errors == []
    # 4 bots: 6 pairings x 2 variants x 1 pair x 2 games.
    assert len(res.records) == 24
    assert [r["game"] for r in res.records] == list(range(1, 25))
    assert all(r["reason"] == "normal" for r in res.records)
    names = {"seeded", "first", "greedy", "qb-random"}
    for variant in ("all", "quads", "classic"):
        rows = [s for s in res.standings if s.variant == variant]
        assert {s.bot for s in rows} == names
        per = 12 if variant == "all" else 6
        assert all(s.games == per and s.wins + s.draws + s.losses == per for s in rows)
        assert sum(s.wins for s in rows) == sum(s.losses for s in rows)
        assert all(s.elo_low <= s.elo <= s.elo_high for s in rows)
    assert all(res.standing(n).forfeits["timeout"] == 0 for n in names)
    for n in names:
        j = res.judged(n)
        assert j["games"] == 12 and 0 <= j["accuracy"] <= 1
        assert j["kept"] + j["blunders"] == j["judged_moves"]
    assert res.report.exists() and "greedy" in res.table
    walls = (res.out / "sandbox.txt").read_text()
    assert "seeded: off" in walls and "greedy: off" in walls
    assert "qb-random: memory=" in walls and "syscalls=on" in walls
    assert events.count("game") == 24 and events[0] == "started" and "standings" in events
    assert "analysis" in events


def test_the_same_seed_plays_the_same_games_and_writes_the_same_tables(release, tmp_path):
    a = run(release, tmp_path / "a")
    b = run(release, tmp_path / "b")

    def games(res):
        return [
            (r["first"]["name"], r["second"]["name"], r["seed"], r["start"], r["moves"], r["result"])
            for r in res.records
        ]

    assert games(a) == games(b)
    for name in ("standings.csv", "pairwise.csv", "analysis.csv"):
        assert (a.out / name).read_bytes() == (b.out / name).read_bytes(), name

    def judged(res):  # each game's judgement, without the folder it was read from
        lines = (res.out / "analysis.jsonl").read_text().splitlines()
        return [{k: v for k, v in json.loads(line).items() if k != "source"} for line in lines]

    assert judged(a) == judged(b) and len(judged(a)) == 24
    c = arena.tournament(players(release), pairs=1, movetime=2.0, seed=8, out=tmp_path / "c",
                         jail=str(release / "quads-jail"))
    assert [g[2] for g in games(c)] != [g[2] for g in games(a)][: len(c.records)]


def test_a_match_and_its_names(release, tmp_path):
    res = arena.match(Seeded, quads.Level("greedy", seed=3), pairs=3, names=("me", "lvl"),
                      movetime=2.0, out=tmp_path / "m", analyze=False)
    assert len(res.records) == 6 and res.analysis == []
    assert {r["first"]["name"] for r in res.records} == {"me", "lvl"}
    assert res.standing("lvl").wins + res.standing("me").wins + res.standing("me").draws == 6
    with pytest.raises(KeyError, match="no analysis for `me`"):
        res.judged("me")


class Hangs:
    """Never answers until the test lets it go."""

    gate = threading.Event()

    def act(self, state):
        Hangs.gate.wait()
        return state.legal_actions()[0]


class Raises:
    def act(self, state):
        raise RuntimeError("the agent broke")


class Illegal:
    def act(self, state):
        return state.hand  # gives the piece it must place


def test_bad_agents_lose_with_the_reason_and_the_run_goes_on(tmp_path):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = arena.tournament(
                {"hangs": Hangs, "raises": Raises, "illegal": Illegal, "greedy": "greedy"},
                pairs=1, movetime=0.3, seed=2, out=tmp_path / "bad", analyze=False,
            )
    finally:
        Hangs.gate.set()
    assert res.finished and len(res.records) == 12
    assert res.standing("greedy").wins == 6
    # After the two opening moves the first player moves: between two bad agents it loses;
    # against greedy the bad agent does. So each bad agent forfeits 2 + 1 + 1 games.
    assert res.standing("hangs").forfeits["timeout"] == 4
    assert res.standing("illegal").forfeits["illegal-move"] == 4
    assert res.standing("raises").forfeits["crash"] == 4
    assert all(sum(res.standing(n).forfeits.values()) == 4 for n in ("hangs", "illegal", "raises"))
    assert {name for name, _ in res.errors} == {"raises"}
    assert all("RuntimeError: the agent broke" in tb for _, tb in res.errors)
    crashed = [r for r in res.records if r["reason"] == "crash"]
    assert len(crashed) == 4
    assert {f["detail"] for r in crashed for f in r["failures"]} == {
        "exited with status 1 while waiting for a move"
    }
    logs = [p.read_text() for p in (res.out / "logs").iterdir() if "raises" in p.name]
    assert logs and all("RuntimeError: the agent broke" in text for text in logs)
    for r in res.records:
        if "greedy" not in (r["first"]["name"], r["second"]["name"]):
            continue
        assert r["result"] == ("1-0" if r["first"]["name"] == "greedy" else "0-1")


def test_an_sprt_decides(tmp_path):
    res = arena.sprt("greedy", Seeded, elo0=0, elo1=200, max_pairs=200, movetime=2.0,
                     seed=4, out=tmp_path / "s", names=("greedy", "seeded"))
    assert res.decision == "H1", res.verdict
    assert res.verdict.startswith("H1 accepted: greedy is stronger than seeded")
    pairs = int(res.verdict.split("pairs ")[1].split()[0])
    assert len(res.records) >= 2 * pairs
    back = arena.sprt(Seeded, "greedy", elo0=0, elo1=200, max_pairs=200, movetime=2.0,
                      seed=4, out=tmp_path / "s2", names=("seeded", "greedy"))
    assert back.decision == "H0", back.verdict


def test_bad_input_is_a_clear_error(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="two players or more, not 1"):
        arena.tournament({"a": Seeded}, out=tmp_path / "x")
    with pytest.raises(quads.QuadsError, match="unknown"):
        arena.tournament({"a": Seeded, "b": "grandmaster"}, out=tmp_path / "x")
    with pytest.raises(quads.QuadsError, match="arena.toml"):
        arena.tournament({"a": Seeded, "b": "greedy"}, variants=["quadz"], out=tmp_path / "x")
    with pytest.raises(ValueError, match="a time limit must be more than zero"):
        arena.tournament({"a": Seeded, "b": "greedy"}, movetime=0, out=tmp_path / "x")
    with pytest.raises(quads.QuadsError, match="elo0"):
        arena.sprt(Seeded, "greedy", elo0=5, elo1=0, out=tmp_path / "y")
    with pytest.raises(ValueError, match="two different names"):
        arena.match(Seeded, Seeded, names=("a", "a"))
    with pytest.raises(ValueError, match="protocol bot `bot` runs in the sandbox, which needs quads-jail"):
        monkeypatch.delenv("QUADS_JAIL", raising=False)
        monkeypatch.setenv("PATH", "/usr/bin:/bin")
        arena.tournament({"a": Seeded, "bot": ["./bot"]}, out=tmp_path / "x")
    cfg = json.dumps(str(tmp_path / "x"))
    assert cfg in (tmp_path / "x" / "arena.toml").read_text()


def test_ctrl_c_stops_a_run_resumably_and_python_keeps_its_own(tmp_path):
    out = tmp_path / "run"
    script = pathlib.Path(__file__).parent / "agents" / "interrupted.py"
    done = subprocess.run([sys.executable, str(script), str(out)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    journal = out / "journal.jsonl"
    # Each attempt stops at its third game; the second resumes the first's three.
    assert lines[0].startswith(f"attempt 1: interrupted: stopped with 3 games in {journal}")
    assert lines[0].endswith(f"the same call with out={str(out)!r} resumes it")
    assert lines[1].startswith("attempt 2: interrupted: stopped with 6 games")
    assert lines[2:] == ["resumed: finished True with 8 games", "python's ctrl-c: KeyboardInterrupt"]
