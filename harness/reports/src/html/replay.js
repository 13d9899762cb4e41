"use strict";
// One game as a replay: the positions are computed here from the start position and the
// moves (a game has at most 17 moves, so this is instant); the winning squares at the end
// come with the data, found by the rules core when the page was made.
// Text from records is only ever set with textContent.

const VALUES = ["loss", "draw", "win"];

/** The moves of a game's data string (two characters each, see data.rs). */
function decodeMoves(text) {
  const moves = [];
  for (let i = 0; i + 1 < text.length; i += 2) {
    const a = text[i], b = text[i + 1];
    moves.push({
      claim: a === "!",
      square: a === "-" || a === "!" ? -1 : parseInt(a, 16),
      give: b === "-" || b === "!" ? -1 : parseInt(b, 16),
      quarto: b === "!" && a !== "!",
    });
  }
  return moves;
}

/** A move in the project's notation. */
function moveText(m) {
  if (m.claim) return "quarto";
  if (m.square < 0) return pieceName(m.give);
  if (m.quarto) return squareName(m.square) + " quarto";
  return m.give < 0 ? squareName(m.square) : squareName(m.square) + " " + pieceName(m.give);
}

/** A position from its notation: `board` (16 pieces or -1, A1 first), `hand`, `claim`. */
function parsePosition(text) {
  const [rows, hand, claim] = text.split(" ");
  const board = new Array(16).fill(-1);
  rows.split("/").forEach((row, r) => {
    let col = 0;
    for (let i = 0; i < row.length && col < 4; col++) {
      if (row[i] === ".") {
        i += 1;
      } else {
        board[(3 - r) * 4 + col] = parsePiece(row.slice(i, i + 4));
        i += 4;
      }
    }
  });
  return { board, hand: hand && hand !== "-" ? parsePiece(hand) : -1, claim: claim || "" };
}

/** A position in the project's notation. */
function positionText(pos) {
  const rows = [];
  for (let r = 3; r >= 0; r--) {
    let row = "";
    for (let c = 0; c < 4; c++) {
      const p = pos.board[r * 4 + c];
      row += p < 0 ? "." : pieceName(p);
    }
    rows.push(row);
  }
  const text = rows.join("/") + " " + (pos.hand < 0 ? "-" : pieceName(pos.hand));
  return pos.claim ? text + " " + pos.claim : text;
}

/** The position after `m`. */
function play(pos, m) {
  const next = { board: pos.board.slice(), hand: pos.hand, claim: "" };
  if (m.claim) {
    next.claim = "claimed";
  } else if (m.square < 0) {
    next.hand = m.give;
  } else {
    next.board[m.square] = pos.hand;
    next.hand = m.give;
    if (m.quarto) next.claim = "claimed";
  }
  return next;
}

/** Who moves in a position: 0 the first player, 1 the second. */
function toMove(pos) {
  const placed = pos.board.filter((p) => p >= 0).length;
  if (placed === 0 && pos.hand < 0) return 0;
  return placed % 2 === 1 ? 0 : 1;
}

/** A judged move's mark: its values before and after, for the mover, and a missed win. */
function decodeMark(ch) {
  if (!ch || ch === ".") return null;
  const code = ch.charCodeAt(0) - 97;
  const before = Math.floor(code / 6), after = Math.floor((code % 6) / 2);
  const missed = code % 2 === 1;
  const kind = after < before ? "blunder" : missed ? "missed" : "kept";
  return { before, after, missed, kind };
}

const MARK_SIGNS = { kept: "\u2713", blunder: "??", missed: "!?" };
const MARK_WORDS = {
  kept: "kept the value",
  blunder: "blunder: the value fell",
  missed: "kept the value, but missed a win in one",
};

/** The board of `pos` as SVG markup; `win` and `last` are a square mask and an index. */
function boardSvg(pos, win, last) {
  let out = '<svg viewBox="0 0 440 440" xmlns="http://www.w3.org/2000/svg">';
  for (let i = 0; i < 4; i++) {
    out += `<text class="label" x="${70 + i * 100}" y="14" text-anchor="middle">${"ABCD"[i]}</text>`;
    out += `<text class="label" x="8" y="${75 + i * 100}" text-anchor="middle">${4 - i}</text>`;
  }
  for (let sq = 0; sq < 16; sq++) {
    const col = sq % 4, row = Math.floor(sq / 4);
    const x = 20 + col * 100, y = 20 + (3 - row) * 100;
    const p = pos.board[sq];
    const classes = ["sq"];
    if ((col + row) % 2 === 1) classes.push("odd");
    if (win & (1 << sq)) classes.push("win");
    if (sq === last) classes.push("last");
    out += `<g class="${classes.join(" ")}" data-square="${squareName(sq)}" data-piece="${p < 0 ? "" : pieceName(p)}">`;
    out += `<rect class="cell" x="${x + 2}" y="${y + 2}" width="96" height="96" rx="6"/>`;
    if (p >= 0) out += pieceSvg(p, x + 46, y + 88, 1.45);
    out += "</g>";
  }
  return out + "</svg>";
}
