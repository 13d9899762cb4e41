"use strict";
// The sixteen pieces drawn as they look, seen a little from above: tall or short, dark or
// light wood, a cylinder (round) or a box (square), solid or with a hole in the top (hollow).
// A piece is its number, as in the rules core: bit 0 size (0 big, 1 small), bit 1 colour
// (0 dark, 1 light), bit 2 shape (0 round, 1 square), bit 3 fill (0 solid, 1 hollow).
// Everything here is made from numbers only, never from a record's text.

const LETTERS = ["BS", "DL", "RQ", "FH"];
const TRAIT_WORDS = [["big", "small"], ["dark", "light"], ["round", "square"], ["solid", "hollow"]];
const WOOD = [
  { body: "#7a4a2a", top: "#9c6640", side: "#5a341c", hole: "#24140a", line: "#2b1a0e" },
  { body: "#efd3a0", top: "#fbeacb", side: "#d4b078", hole: "#7d5f36", line: "#7a5c34" },
];

/** The piece's four letters, e.g. BDQF. */
function pieceName(p) {
  return LETTERS.map((l, i) => l[(p >> i) & 1]).join("");
}

/** The piece's number from its letters, or -1. */
function parsePiece(text) {
  let p = 0;
  for (let i = 0; i < 4; i++) {
    const k = LETTERS[i].indexOf(text[i]);
    if (k < 0) return -1;
    p |= k << i;
  }
  return p;
}

/** The piece in words: "big dark square solid". */
function pieceWords(p) {
  return TRAIT_WORDS.map((w, i) => w[(p >> i) & 1]).join(" ");
}

/** A square's name from its index: 0 is A1, 15 is D4. */
function squareName(i) {
  return "ABCD"[i % 4] + (Math.floor(i / 4) + 1);
}

function n(x) {
  return Math.round(x * 10) / 10;
}

function poly(points, fill, line) {
  return `<polygon points="${points.map((q) => n(q[0]) + "," + n(q[1])).join(" ")}" fill="${fill}" stroke="${line}" stroke-width="1"/>`;
}

/** SVG markup of piece `p` standing with the middle of its base at (x, y), `k` its scale. */
function pieceSvg(p, x, y, k) {
  const small = p & 1, wood = WOOD[(p >> 1) & 1], square = (p >> 2) & 1, hollow = (p >> 3) & 1;
  const h = (small ? 24 : 50) * k;
  let out = `<g class="piece" data-piece="${pieceName(p)}"><title>${pieceName(p)}: ${pieceWords(p)}</title>`;
  if (square) {
    // A box: the front face, the top and the right side, in an oblique view.
    const fw = 30 * k, dx = 11 * k, dy = -7 * k;
    const x0 = x - (fw + dx) / 2, top = y - h;
    const at = (u, v) => [x0 + u * fw + v * dx, top + v * dy];
    out += `<rect x="${n(x0)}" y="${n(top)}" width="${n(fw)}" height="${n(h)}" fill="${wood.body}" stroke="${wood.line}" stroke-width="1"/>`;
    out += poly([at(0, 0), at(0, 1), at(1, 1), at(1, 0)], wood.top, wood.line);
    out += poly([[x0 + fw, top], [x0 + fw + dx, top + dy], [x0 + fw + dx, y + dy], [x0 + fw, y]], wood.side, wood.line);
    if (hollow) out += poly([at(0.25, 0.2), at(0.25, 0.8), at(0.75, 0.8), at(0.75, 0.2)], wood.hole, wood.line);
  } else {
    // A cylinder: the body with its rounded bottom, then the top ellipse.
    const rx = 18 * k, ry = 7 * k, top = y - h;
    out += `<path d="M${n(x - rx)},${n(top)} L${n(x - rx)},${n(y)} A${n(rx)},${n(ry)} 0 0 0 ${n(x + rx)},${n(y)} L${n(x + rx)},${n(top)} Z" fill="${wood.body}" stroke="${wood.line}" stroke-width="1"/>`;
    out += `<path d="M${n(x + rx * 0.45)},${n(top + ry * 0.5)} L${n(x + rx * 0.45)},${n(y + ry * 0.85)} L${n(x + rx * 0.8)},${n(y + ry * 0.55)} L${n(x + rx * 0.8)},${n(top + ry * 0.4)} Z" fill="${wood.side}" opacity="0.55"/>`;
    out += `<ellipse cx="${n(x)}" cy="${n(top)}" rx="${n(rx)}" ry="${n(ry)}" fill="${wood.top}" stroke="${wood.line}" stroke-width="1"/>`;
    if (hollow) out += `<ellipse cx="${n(x)}" cy="${n(top)}" rx="${n(rx * 0.5)}" ry="${n(ry * 0.5)}" fill="${wood.hole}"/>`;
  }
  return out + "</g>";
}

/** A piece alone in a small picture of `width` pixels. */
function pieceIcon(p, width) {
  return `<svg viewBox="0 0 56 76" width="${width}" height="${n((width * 76) / 56)}" data-piece="${pieceName(p)}">${pieceSvg(p, 26, 66, 1)}</svg>`;
}
