"""Matches, tournaments and SPRTs from Python, played by the project's referee.

    >>> from quads import arena
    >>> res = arena.tournament({"mine": MyAgent, "greedy": "greedy", "c": arena.Command("./bot")},
    ...                        variants=["quads"], pairs=4, movetime=0.2, seed=1)
    >>> res.standing("mine").elo, res.judged("mine")["accuracy"]

A player is a Python agent (a class, made once per bot process, or an object or function, as
`python -m quads.bot` takes), a level by name (`"random"`, `"greedy"`, `"minimax"`, `"mcts"`,
`"perfect"`, `"level-3"`, ...), or a protocol bot (`Command(...)`, or a list of words). The
games are the referee's, as in `quads tournament`: the time rules hold (a Python agent's time
includes its answer's trip), a bad move or a timeout loses the game with the reason recorded,
and the folder holds every file a tournament leaves. Python agents and levels are answered from
this process, through a relay process the referee starts and times; protocol bots run in the
sandbox (docs/sandbox.md) when `quads-jail` is found.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _quads
from ._bridge import Bridge, LevelAgent, Shared
from ._folder import Results, SprtResult, Standing, records, rows, standings

Seconds = Union[float, int, str]


@dataclass
class Command:
    """A protocol bot: a command line (a string is split like a shell, or a list of words), run
    in `dir`, with the options of a config's `[[bot]]` table (docs/tournaments.md)."""

    command: Union[str, Sequence[str]]
    name: Optional[str] = None
    dir: Optional[str] = None
    env: Optional[Mapping[str, str]] = None
    options: Optional[Mapping[str, Any]] = None
    sandbox: Optional[str] = None
    ponder: Optional[bool] = None

    def words(self) -> List[str]:
        return shlex.split(self.command) if isinstance(self.command, str) else list(self.command)


def _duration(value: Optional[Seconds]) -> Optional[str]:
    if value is None or isinstance(value, str):
        return value
    if value <= 0:
        raise ValueError(f"a time limit must be more than zero, not {value}")
    return f"{round(value * 1000)}ms"


def _toml(value: Any) -> str:
    """A TOML value: strings, numbers, booleans, lists and tables of them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{json.dumps(str(k))} = {_toml(v)}" for k, v in value.items()) + " }"
    return "[" + ", ".join(_toml(v) for v in value) + "]"


def _name_of(player: Any, index: int) -> str:
    if isinstance(player, str):
        return player
    if isinstance(player, Command) and player.name:
        return player.name
    if isinstance(player, Command):
        return os.path.basename(player.words()[0]) if player.words() else f"bot-{index}"
    if isinstance(player, (list, tuple)):
        return os.path.basename(player[0]) if player else f"bot-{index}"
    named = getattr(player, "name", None) or getattr(player, "__name__", None)
    if isinstance(named, str) and named:
        return named
    return type(player).__name__ if not callable(player) or hasattr(player, "act") else f"agent-{index}"


def _named(players: Union[Mapping[str, Any], Sequence[Any]]) -> List[Tuple[str, Any]]:
    if isinstance(players, Mapping):
        return [(str(k), v) for k, v in players.items()]
    out: List[Tuple[str, Any]] = []
    for i, p in enumerate(players, 1):
        base, name, k = _name_of(p, i), _name_of(p, i), 2
        while name in (n for n, _ in out):
            name, k = f"{base}-{k}", k + 1
        out.append((name, p))
    return out


def _boxed(p: Any) -> bool:
    """Whether a player is a protocol bot that runs in the sandbox."""
    if isinstance(p, (list, tuple)):
        return True
    return isinstance(p, Command) and p.sandbox != "off"


class _Event:
    """The config of one run, its bridge and its events."""

    def __init__(
        self,
        players: Union[Mapping[str, Any], Sequence[Any]],
        nodes: Optional[int],
        jail: Optional[str],
    ):
        self.named = _named(players)
        if len(self.named) < 2:
            raise ValueError(f"a run needs two players or more, not {len(self.named)}")
        self.bridge = Bridge()
        self.bots: List[str] = []
        for name, player in self.named:
            self.bots.append(self._bot(name, player, nodes))
        self.jail = jail or os.environ.get("QUADS_JAIL") or shutil.which("quads-jail")
        boxed = [n for n, p in self.named if _boxed(p)]
        if boxed and not self.jail:
            raise ValueError(
                f"protocol bot `{boxed[0]}` runs in the sandbox, which needs quads-jail: pass "
                "jail='PATH' (cargo build --release builds it), set QUADS_JAIL, put it on PATH, "
                "or give the bot sandbox='off'"
            )

    def _bot(self, name: str, p: Any, nodes: Optional[int]) -> str:
        table: Dict[str, Any] = {"name": name}
        if isinstance(p, (list, tuple)):
            p = Command(list(p))
        if isinstance(p, Command):
            table["command"] = shlex.join(p.words())
            for key in ("dir", "env", "options", "sandbox", "ponder"):
                if getattr(p, key) is not None:
                    table[key] = dict(getattr(p, key)) if key in ("env", "options") else getattr(p, key)
        else:
            if isinstance(p, str):
                level = LevelAgent(p, nodes)
                make: Callable[[], Any] = lambda level=level: LevelAgent(level.name, level.nodes)
            elif isinstance(p, type):
                make = p
            else:
                shared = Shared(p)
                make = lambda shared=shared: shared
            table["command"] = shlex.join(self.bridge.add(name, make))
            table["env"] = {"QUADS_ARENA": self.bridge.path}
            table["sandbox"] = "off"  # the relay; the agent runs in this process
        return "[[bot]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in table.items())

    def config(self, head: Dict[str, Any]) -> str:
        lines = [f"{k} = {_toml(v)}" for k, v in head.items() if v is not None]
        return "\n".join(lines) + "\n\n" + "\n".join(self.bots)

    def run(self, call: Callable[..., Any], text: str, out: Path, progress, *args) -> Any:
        out.mkdir(parents=True, exist_ok=True)
        source = out / "arena.toml"
        source.write_text(text)

        def on_event(kind: str, line: str) -> None:
            try:
                if kind == "warning":
                    warnings.warn(line, stacklevel=3)
                if progress is not None:
                    progress(kind, line)
            except KeyboardInterrupt:
                pass  # Ctrl-C: the run stops itself, and says so when it returns

        before = os.environ.get("QUADS_JAIL")
        if self.jail:
            os.environ["QUADS_JAIL"] = self.jail
        try:
            return call(text, str(source), *args, on_event)
        except KeyboardInterrupt:
            return None  # Python's own handler saw the signal too: the run stopped
        finally:
            if before is None:
                os.environ.pop("QUADS_JAIL", None)
            else:
                os.environ["QUADS_JAIL"] = before
            self.bridge.close()


def _time(movetime: Optional[Seconds], clock: Optional[str]) -> Dict[str, str]:
    time: Dict[str, str] = {}
    if movetime is not None:
        time["movetime"] = _duration(movetime)  # type: ignore[assignment]
    if clock is not None:
        time["clock"] = clock
    if not time:
        raise ValueError("give a time rule: movetime (seconds a move) or clock (`5m+2s`)")
    return time


def _out(out: Union[str, Path, None]) -> Path:
    return Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="quads-arena-out-"))


def tournament(
    players: Union[Mapping[str, Any], Sequence[Any]],
    variants: Sequence[str] = ("quads",),
    pairs: int = 1,
    movetime: Optional[Seconds] = 1.0,
    clock: Optional[str] = None,
    seed: int = 0,
    out: Union[str, Path, None] = None,
    opening_moves: int = 2,
    openings: Optional[str] = None,
    concurrency: int = 1,
    analyze: bool = True,
    gauntlet: Optional[Sequence[str]] = None,
    anchor: Optional[Tuple[str, float]] = None,
    name: str = "arena",
    nodes: Optional[int] = None,
    jail: Optional[str] = None,
    progress: Optional[Callable[[str, str], None]] = None,
) -> Results:
    """Plays every pairing of `players` (a dict of name to player, or a list) in every variant,
    `pairs` game pairs each (seats swapped, from one opening: `opening_moves` random moves, or
    the positions of the `openings` file), under `movetime` seconds a move and/or a `clock`,
    `concurrency` games at once, into `out` (a new temporary folder if not given; a stopped
    run resumes in the same folder), then rates, judges every move with the solver
    (`analyze`) and writes the report. A signal (Ctrl-C) stops it with `KeyboardInterrupt`,
    the folder ready to resume. A level given by name thinks to `nodes` (its default
    otherwise), seeded by each game's seed."""
    ev = _Event(players, nodes, jail)
    folder = _out(out)
    head: Dict[str, Any] = {
        "name": name,
        "seed": seed,
        "out": str(folder),
        "concurrency": concurrency,
        "pairs": pairs,
        "variants": list(variants),
        "time": _time(movetime, clock),
        "openings": {"file": openings} if openings else {"random_moves": opening_moves},
    }
    if gauntlet:
        head["format"] = "gauntlet"
        head["gauntlet"] = list(gauntlet)
    if anchor:
        head["anchor"] = {"bot": anchor[0], "elo": anchor[1]}
    finished = ev.run(_quads.play_tournament, ev.config(head), folder, progress, analyze)
    if not finished:
        done = len(records(folder / "journal.jsonl"))
        raise KeyboardInterrupt(
            f"stopped with {done} games in {folder / 'journal.jsonl'}: the same call with "
            f"out={str(folder)!r} resumes it"
        )
    return Results(
        out=folder,
        finished=finished,
        records=records(folder / "games.jsonl"),
        standings=standings(folder / "standings.csv"),
        analysis=rows(folder / "analysis.csv"),
        errors=ev.bridge.errors,
    )


def match(
    a: Any,
    b: Any,
    rules: str = "quads",
    pairs: int = 1,
    names: Optional[Tuple[str, str]] = None,
    **kw: Any,
) -> Results:
    """`pairs` game pairs of `a` against `b` under `rules`: a tournament of two, with the same
    keywords; `names` names the two (else they are named as in a list)."""
    return tournament(_two(a, b, names), variants=[rules], pairs=pairs, **kw)


def _two(a: Any, b: Any, names: Optional[Tuple[str, str]]) -> Dict[str, Any]:
    if names is None:
        return dict(_named([a, b]))
    if len(names) != 2 or names[0] == names[1]:
        raise ValueError(f"names must be two different names, not {names!r}")
    return {names[0]: a, names[1]: b}


def sprt(
    candidate: Any,
    baseline: Any,
    elo0: float = 0.0,
    elo1: float = 10.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    rules: str = "quads",
    max_pairs: int = 1000,
    movetime: Optional[Seconds] = 1.0,
    clock: Optional[str] = None,
    seed: int = 1,
    opening_moves: int = 2,
    concurrency: int = 1,
    out: Union[str, Path, None] = None,
    names: Optional[Tuple[str, str]] = None,
    nodes: Optional[int] = None,
    jail: Optional[str] = None,
    progress: Optional[Callable[[str, str], None]] = None,
) -> SprtResult:
    """A sequential test, as `quads sprt`: game pairs of `candidate` against `baseline` until
    the pentanomial LLR crosses a bound (H1: stronger by `elo1` Elo; H0: not stronger than
    `elo0`) or `max_pairs` are played; `names` names the two."""
    named = list(_two(candidate, baseline, names).items())
    ev = _Event(dict(named), nodes, jail)
    folder = _out(out)
    head: Dict[str, Any] = {
        "name": f"{named[0][0]} vs {named[1][0]}",
        "seed": seed,
        "out": str(folder),
        "concurrency": concurrency,
        "pairs": max_pairs,
        "variants": [rules],
        "time": _time(movetime, clock),
        "openings": {"random_moves": opening_moves},
    }
    decided = ev.run(_quads.play_sprt, ev.config(head), folder, progress, elo0, elo1, alpha, beta)
    if decided is None:
        raise KeyboardInterrupt("the SPRT was stopped before it decided")
    decision, verdict = decided
    return SprtResult(
        decision=decision,
        verdict=verdict,
        out=folder,
        records=records(folder / "journal.jsonl"),
        errors=ev.bridge.errors,
    )


__all__ = ["Command", "Results", "SprtResult", "Standing", "match", "sprt", "tournament"]
