#!/usr/bin/env python3
"""BROKEN ON PURPOSE: an example entrant that the competition leaves out.

It speaks the protocol correctly, but after placing the piece it was handed it gives that
very piece back, which is already on the board: an illegal give, so `quads check` fails
"placement and give" (and every scenario that plays a move) and the host sees why in
entrants.md. Standard library only. Do not copy it; start from bots/starter/ instead.
"""
import sys

for line in sys.stdin:  # one message per line
    words = line.split() or ["(empty)"]
    if words[0] == "quads":
        print("id name eve\nquadsok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "go":
        # go position ROWS HAND remaining PIECES... last ...
        rows, hand = words[2], words[3]
        remaining = words[words.index("remaining") + 1:words.index("last")]
        if hand == "-":  # the opening give: nothing placed yet, so give a legal piece
            print("move", remaining[0], flush=True)
            continue
        # The first empty square, counting from A1 (rows arrive from row 4 down).
        cells = []
        for row in reversed(rows.split("/")):
            i = 0
            while i < len(row):
                cells.append(row[i] == ".")
                i += 1 if row[i] == "." else 4
        empty = cells.index(True)
        square = "ABCD"[empty % 4] + str(empty // 4 + 1)
        # THE BUG, on purpose: give the piece just placed instead of one of `remaining`.
        print("move", square, hand, flush=True)
    elif words[0] == "quit":
        break
