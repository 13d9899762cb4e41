"""What a run's folder holds, read back for `quads.arena`: the records (games.jsonl, or the
journal), the standings with their intervals (standings.csv) and the solver's judgement
(analysis.csv), in the formats of docs/tournaments.md and docs/analysis.md."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Tuple


@dataclass
class Standing:
    """A bot's line of standings.csv (one variant, or `all`)."""

    variant: str
    bot: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float  # percent
    elo: float
    elo_low: float  # the 95% interval
    elo_high: float
    forfeits: Dict[str, int]


@dataclass
class Results:
    """What a match or tournament left: its folder and what it holds."""

    out: Path
    finished: bool
    records: List[dict]
    standings: List[Standing]
    analysis: List[dict]
    errors: List[Tuple[str, str]] = field(default_factory=list)

    def standing(self, bot: str, variant: str = "all") -> Standing:
        for s in self.standings:
            if s.bot == bot and s.variant == variant:
                return s
        raise KeyError(f"no standing for `{bot}` in `{variant}`")

    def judged(self, bot: str, variant: str = "all") -> dict:
        """The solver's judgement of the bot's moves (analysis.csv's row): `accuracy`,
        `blunders`, `wins_thrown`, `missed_wins`, ..."""
        for row in self.analysis:
            if row["bot"] == bot and row["variant"] == variant:
                return row
        raise KeyError(f"no analysis for `{bot}` in `{variant}` (was it analysed?)")

    @property
    def table(self) -> str:
        """standings.txt."""
        return (self.out / "standings.txt").read_text()

    @property
    def report(self) -> Path:
        return self.out / "report.html"


@dataclass
class SprtResult:
    """How an SPRT ended: `decision` is `"H1"` (the candidate is stronger), `"H0"` or
    `"undecided"` (the pair limit)."""

    decision: str
    verdict: str
    out: Path
    records: List[dict]
    errors: List[Tuple[str, str]] = field(default_factory=list)


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def rows(path: Path) -> List[dict]:
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return [{k: _number(v) for k, v in row.items()} for row in csv.DictReader(f)]


def records(path: Path) -> List[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


_FIELDS = {"variant", "bot", "games", "wins", "draws", "losses", "score_pct", "elo", "elo_low", "elo_high"}


def standings(path: Path) -> List[Standing]:
    out = []
    for row in rows(path):
        out.append(
            Standing(
                variant=str(row["variant"]),
                bot=str(row["bot"]),
                games=row["games"],
                wins=row["wins"],
                draws=row["draws"],
                losses=row["losses"],
                score=float(row["score_pct"]),
                elo=float(row["elo"]),
                elo_low=float(row["elo_low"]),
                elo_high=float(row["elo_high"]),
                forfeits={k: v for k, v in row.items() if k not in _FIELDS},
            )
        )
    return out
