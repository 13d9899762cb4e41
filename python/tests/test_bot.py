"""A Python agent as a protocol bot (`python -m quads.bot`), in the referee's real sandbox:
through every scenario of `quads check`, and in a match, the same games twice."""

import json
import pathlib
import re
import sys

AGENTS = pathlib.Path(__file__).parent / "agents"


def bot(spec):
    # The venv's own interpreter, by the path it was named with: the sandbox shows the venv.
    return [sys.executable, "-m", "quads.bot", spec]


def test_agents_pass_quads_check(cli):
    for spec in ["seeded:Agent", "first:first"]:
        out = cli("check", "--dir", str(AGENTS), "--", *bot(spec))
        last = out.stdout.strip().splitlines()[-1]
        assert out.returncode == 0, out.stdout + out.stderr
        n = re.match(r"(\d+) of (\d+) scenarios passed", last)
        assert n and n.group(1) == n.group(2), last


def test_a_python_agent_plays_a_seeded_match(cli, tmp_path):
    def play(out):
        run = cli(
            "match",
            "--bot", " ".join(bot("seeded:Agent")),
            "--bot", " ".join(bot("first:first")),
            "--dir", str(AGENTS), "--dir", str(AGENTS),
            "--games", "4", "--movetime", "5s", "--quiet",
            "--out", str(tmp_path / out),
        )
        assert run.returncode == 0, run.stderr
        games = [json.loads(l) for l in (tmp_path / out / "games.jsonl").read_text().splitlines()]
        assert len(games) == 4
        for g in games:
            assert g["failures"] == [], g
        return [g["moves"] for g in games]

    assert play("one") == play("two")
