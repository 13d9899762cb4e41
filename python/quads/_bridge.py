"""The arena's side of its relays: a Unix socket in a private folder that serves Python agents
and levels to the relay processes the referee starts (`quads._relay`), one thread per relay,
speaking the protocol through `quads.bot.serve`."""

from __future__ import annotations

import os
import shutil
import socket
import sys
import tempfile
import threading
import traceback
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import _quads
from ._quads import Level
from .bot import serve


class LevelAgent:
    """A level by name, made afresh for each game with the game's seed."""

    def __init__(self, name: str, nodes: Optional[int]):
        self.name, self.nodes = name, nodes
        self.level = Level(name, nodes=nodes)  # a bad name fails here, before any game

    def new_game(self, rules: str, seat: int, seed: int) -> None:
        self.level = Level(self.name, seed=seed, nodes=self.nodes)

    def act(self, state: _quads.State) -> str:
        return self.level.act(state)


class Shared:
    """An agent object used by every bot process that plays it: one call at a time."""

    def __init__(self, agent: Any):
        self.agent, self.lock = agent, threading.Lock()
        if hasattr(agent, "name"):
            self.name = agent.name

    def act(self, state: _quads.State) -> Any:
        with self.lock:
            ask = self.agent.act if hasattr(self.agent, "act") else self.agent
            return ask(state)

    def new_game(self, rules: str, seat: int, seed: int) -> None:
        with self.lock:
            if isinstance(self.agent, Level):
                self.agent.new_game()  # a Level made by the caller keeps its own seed
            elif hasattr(self.agent, "new_game"):
                self.agent.new_game(rules, seat, seed)


class Bridge:
    """A Unix socket in a private folder; each relay that connects names a served player."""

    def __init__(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="quads-arena-")
        self.path = os.path.join(self.folder, "s")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(self.path)
        self.sock.listen(64)
        self.makers: Dict[str, Callable[[], Any]] = {}
        self.errors: List[Tuple[str, str]] = []
        self.threads: List[threading.Thread] = []
        self.closed = False
        self.accepting = threading.Thread(target=self._accept, daemon=True)
        self.accepting.start()

    def add(self, name: str, make: Callable[[], Any]) -> List[str]:
        """Serves `make()` to relays naming `name`; the relay's command line (the socket's
        path goes in its environment, so the command is the same from run to run)."""
        self.makers[name] = make
        return [sys.executable, "-m", "quads._relay", name]

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            t = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            self.threads.append(t)
            t.start()

    def _serve(self, conn: socket.socket) -> None:
        name = "?"
        lines = conn.makefile("r", encoding="utf-8")
        out = conn.makefile("w", encoding="utf-8")
        try:
            name = lines.readline().strip()
            serve(self.makers[name](), name, lines, out)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the referee ended the bot (a lost game, a timeout): nothing to report
        except Exception:  # the agent's own: its game is lost, its log and `errors` say why
            told = traceback.format_exc()
            self.errors.append((name, told))
            try:
                out.write("".join(f"\0{line}\n" for line in told.splitlines()))
                out.flush()
            except OSError:
                pass
        finally:
            for f in (out, lines, conn):
                try:
                    f.close()
                except OSError:
                    pass  # what was left unsent has nobody to read it

    def close(self) -> None:
        self.sock.close()
        shutil.rmtree(self.folder, ignore_errors=True)
