"""A Python agent as a protocol bot: `python -m quads.bot MODULE:NAME`.

`NAME` (default `Agent`) is a class, made once with no arguments, or any object or function.
On its turn the bot asks it for a move with `agent.act(state)` (or `agent(state)` for a plain
callable), given a `quads.State`. The answer is either a whole move as the CLI writes it
(`"D2 BLQF"`), or an action (0-31); after a place action that awaits its give the agent is asked
again, on the state with the placement pending. If the agent has `new_game(rules, seat, seed)`,
it is called before each game (`seat` is 0 or 1, `seed` the game's seed: seed your randomness
with it, so that a replayed tournament plays the same games).

The protocol is protocol.md, version 1. The module is found on `sys.path` and in the current
folder (a bot runs in its own folder), so `python -m quads.bot mybot:Agent` from the folder
holding mybot.py works in `quads check`, `quads tournament` and a competition.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any, TextIO

from ._quads import State


def load(spec: str) -> Any:
    """The agent `MODULE:NAME` names (a class is made with no arguments)."""
    module, _, name = spec.partition(":")
    if not module:
        raise SystemExit(f"quads.bot: expected MODULE:NAME, not `{spec}`")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    obj = getattr(importlib.import_module(module), name or "Agent")
    return obj() if isinstance(obj, type) else obj


def decide(agent: Any, state: State) -> str:
    """Asks `agent` until it has made one whole move from `state`; the move's text."""
    ask = agent.act if hasattr(agent, "act") else agent
    start = state.copy()
    actions = []
    while True:
        answer = ask(state.copy())
        if isinstance(answer, str):
            if actions:
                raise ValueError(f"the agent answered `{answer}` after the actions {actions}")
            return answer
        actions.append(int(answer))
        state.apply_action(int(answer))
        if state.pending is None:
            return start.actions_to_move(actions)


def serve(agent: Any, name: str, lines: TextIO = sys.stdin, out: TextIO = sys.stdout) -> None:
    """Speaks the protocol on `lines` and `out` until `quit` or the end of input."""

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    rules = "quads"
    for line in lines:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "quads":
            say(f"id name {getattr(agent, 'name', name)}")
            say("id author a quads.bot agent")
            say("quadsok" if words[1:] == ["1"] else "unsupported")
        elif cmd == "isready":
            say("readyok")
        elif cmd == "newgame":
            fields = dict(zip(words[1::2], words[2::2]))
            rules = fields.get("rules", "quads")
            if hasattr(agent, "new_game"):
                seat = 0 if fields.get("seat") == "first" else 1
                agent.new_game(rules, seat, int(fields.get("seed", "0")))
        elif cmd == "go":
            end = words.index("remaining")
            state = State(rules, " ".join(words[2:end]))
            say("move " + decide(agent, state))
        elif cmd == "quit":
            return


def main(argv: list[str]) -> None:
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        raise SystemExit(0 if argv[:1] in (["-h"], ["--help"]) else 2)
    serve(load(argv[0]), argv[0])


if __name__ == "__main__":
    main(sys.argv[1:])
