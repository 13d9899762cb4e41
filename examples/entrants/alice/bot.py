#!/usr/bin/env python3
"""Quads Arena starter bot: random legal moves, standard library only. See protocol.md."""
import random
import sys

LETTERS = ["BS", "DL", "RQ", "FH"]  # size, color, shape, fill: the letters for bit 0 and bit 1
TRAITS = ["size", "color", "shape", "fill"]
LINES = [[r * 4 + c for c in range(4)] for r in range(4)] + [[r * 4 + c for r in range(4)] for c in range(4)]
LINES += [[0, 5, 10, 15], [3, 6, 9, 12]]  # squares are numbered row by row from A1 = 0
SQUARES = [[r * 4 + c, r * 4 + c + 1, r * 4 + c + 4, r * 4 + c + 5] for r in range(3) for c in range(3)]

def bits(piece):  # "BDQF" -> a 4-bit number, one bit per trait
    return sum(LETTERS[i].index(letter) << i for i, letter in enumerate(piece))

def wins(board, shapes, traits, square):  # does a full shape through square share a trait that counts?
    for shape in (s for s in shapes if square in s):
        a, b, c, d = (board[s] for s in shape)
        if None not in (a, b, c, d) and ~(a ^ b) & ~(a ^ c) & ~(a ^ d) & traits:
            return True
    return False

def choose(words, rules):
    rows, hand = words[2], words[3]
    if words[4] == "claimable":  # the opponent missed a win: claim it
        return "quarto"
    remaining = words[words.index("remaining") + 1:words.index("last")]
    if hand == "-":  # the opening give
        return random.choice(remaining)
    board = []  # rows arrive from row 4 down; build from row 1 up
    for row in reversed(rows.split("/")):
        i = 0
        while i < len(row):
            board.append(None if row[i] == "." else bits(row[i:i + 4]))
            i += 1 if row[i] == "." else 4
    preset, *settings = rules.split(",")
    settings = dict(s.split("=") for s in settings)
    squares = settings.get("squares", "on" if preset == "quads" else "off") == "on"
    traits = sum(1 << TRAITS.index(t) for t in settings.get("traits", "+".join(TRAITS)).split("+"))
    square = random.choice([i for i, p in enumerate(board) if p is None])
    board[square] = bits(hand)
    name = "ABCD"[square % 4] + str(square // 4 + 1)
    if wins(board, LINES + (SQUARES if squares else []), traits, square):
        return name + (" quarto" if settings.get("claim") == "announce" else "")
    return name if remaining == ["-"] else name + " " + random.choice(remaining)

rules = "quads"
for line in sys.stdin:  # one message per line; answer with print(..., flush=True)
    words = line.split() or ["(empty)"]
    if words[0] == "quads":
        print("id name python-starter\nquadsok" if words[1] == "1" else "unsupported", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "newgame":
        rules = words[words.index("rules") + 1]
        random.seed(int(words[words.index("seed") + 1]))
    elif words[0] == "go":
        print("move", choose(words, rules), flush=True)
    elif words[0] == "quit":
        break
