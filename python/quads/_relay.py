"""The arena's relay: `python -m quads._relay NAME` is the process the referee starts for a
Python agent of `quads.arena`. It connects to the arena's socket (its path in the environment
variable QUADS_ARENA), names its agent, and passes the protocol's lines both ways until either
side closes; the agent's error, if it raised, goes to its stderr (the game's log) and the
relay exits with status 1. Standard library only, so it starts fast."""

import os
import socket
import sys
import threading


def _pump_in(conn: socket.socket) -> None:
    """The referee's lines (stdin) to the arena."""
    while True:
        data = os.read(0, 65536)
        if not data:
            conn.shutdown(socket.SHUT_WR)
            return
        conn.sendall(data)


def main(argv: list) -> None:
    path = os.environ.get("QUADS_ARENA")
    if len(argv) != 1 or not path:
        sys.stderr.write("usage: QUADS_ARENA=SOCKET python -m quads._relay NAME\n")
        raise SystemExit(2)
    token = argv[0]
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError as e:
        sys.stderr.write(f"quads._relay: cannot reach the arena at {path}: {e}\n")
        raise SystemExit(1)
    conn.sendall(token.encode() + b"\n")
    threading.Thread(target=_pump_in, args=(conn,), daemon=True).start()
    failed = False
    for line in conn.makefile("rb"):
        # The arena's own lines start with NUL: the agent's error, for the bot's log.
        if line.startswith(b"\0"):
            failed = True
            sys.stderr.buffer.write(line[1:])
            sys.stderr.flush()
            continue
        view = memoryview(line)
        while view:
            view = view[os.write(1, view) :]
    os._exit(1 if failed else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
