"""Run by test_arena.py in a process of its own: a tournament that signals itself SIGINT as
its third game ends, resumed by the same call, then Python's own Ctrl-C, each step printed."""

import os
import signal
import sys

from quads import arena

# Python's own Ctrl-C, as at a terminal: a process started in the background by a
# non-interactive shell inherits SIGINT ignored, and Python then installs no handler of its own.
signal.signal(signal.SIGINT, signal.default_int_handler)

out = sys.argv[1]
players = {"random": "random", "greedy": "greedy"}


def stop_at_third():
    games = []

    def progress(kind, text):
        if kind == "game":
            games.append(text)
            if len(games) == 3:
                os.kill(os.getpid(), signal.SIGINT)

    return progress


for attempt in (1, 2):
    try:
        arena.tournament(players, pairs=4, seed=3, out=out, analyze=False, progress=stop_at_third())
        print(f"attempt {attempt}: finished")
    except KeyboardInterrupt as e:
        print(f"attempt {attempt}: interrupted: {e}")
res = arena.tournament(players, pairs=4, seed=3, out=out, analyze=False)
print(f"resumed: finished {res.finished} with {len(res.records)} games")
try:
    # To this thread, not the process: the arena's runtime leaves threads, and a process-wide
    # kill may land on one of them and reach Python's handler only after the next line ran.
    # raise() is handled before it returns, so Python's handler (if it is back) runs next.
    signal.raise_signal(signal.SIGINT)
    signal.sigtimedwait([], 0)  # a moment for Python to run its handler
    print("python's ctrl-c: lost")
except KeyboardInterrupt:
    print("python's ctrl-c: KeyboardInterrupt")
