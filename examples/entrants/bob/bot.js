#!/usr/bin/env node
// Quads Arena starter bot in JavaScript: random legal moves, Node standard library only. See protocol.md.
'use strict';
const readline = require('readline');

const LETTERS = ['BS', 'DL', 'RQ', 'FH']; // size, color, shape, fill: the letters for bit 0 and bit 1
const TRAITS = ['size', 'color', 'shape', 'fill'];
const LINES = []; // squares are numbered row by row from A1 = 0
for (let i = 0; i < 4; i++) {
  LINES.push([0, 1, 2, 3].map((c) => i * 4 + c), [0, 1, 2, 3].map((r) => r * 4 + i));
}
LINES.push([0, 5, 10, 15], [3, 6, 9, 12]);
const SQUARES = [];
for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) { const s = r * 4 + c; SQUARES.push([s, s + 1, s + 4, s + 5]); }

// splitmix64 on BigInt: seeds are 64-bit unsigned, more than a Number holds exactly
const MASK = (1n << 64n) - 1n;
let state = 1n;
function nextRandom() {
  state = (state + 0x9e3779b97f4a7c15n) & MASK;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return z ^ (z >> 31n);
}
const choice = (items) => items[Number(nextRandom() % BigInt(items.length))];

const bits = (piece) => [...piece].reduce((b, letter, i) => b | (LETTERS[i].indexOf(letter) << i), 0);

function wins(board, shapes, traits, square) { // does a full shape through square share a trait that counts?
  return shapes.some((shape) => {
    if (!shape.includes(square)) return false;
    const [a, b, c, d] = shape.map((s) => board[s]);
    return [a, b, c, d].every((p) => p !== null) && (~(a ^ b) & ~(a ^ c) & ~(a ^ d) & traits) !== 0;
  });
}

// Your strategy goes here: choose the reply to a `go` line, given its words and the game's rules.
function choose(words, rules) {
  const rows = words[2], hand = words[3];
  if (words[4] === 'claimable') return 'quarto'; // the opponent missed a win: claim it
  const remaining = words.slice(words.indexOf('remaining') + 1, words.indexOf('last'));
  if (hand === '-') return choice(remaining); // the opening give
  const board = []; // rows arrive from row 4 down; build from row 1 up
  for (const row of rows.split('/').reverse()) {
    for (let i = 0; i < row.length; i += row[i] === '.' ? 1 : 4) board.push(row[i] === '.' ? null : bits(row.slice(i, i + 4)));
  }
  const [preset, ...rest] = rules.split(',');
  const settings = Object.fromEntries(rest.map((s) => s.split('=')));
  const squares = (settings.squares || (preset === 'quads' ? 'on' : 'off')) === 'on';
  const traits = (settings.traits || TRAITS.join('+')).split('+').reduce((t, name) => t | (1 << TRAITS.indexOf(name)), 0);
  const square = choice(board.map((p, i) => (p === null ? i : -1)).filter((i) => i >= 0));
  board[square] = bits(hand);
  const name = 'ABCD'[square % 4] + String(Math.floor(square / 4) + 1);
  if (wins(board, squares ? LINES.concat(SQUARES) : LINES, traits, square)) {
    return name + (settings.claim === 'announce' ? ' quarto' : '');
  }
  return remaining[0] === '-' ? name : name + ' ' + choice(remaining);
}

let rules = 'quads';
const send = (text) => process.stdout.write(text + '\n'); // Node does not buffer stdout: each line goes out as written
const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on('line', (line) => { // one message per line
  const words = line.trim().split(/[ \t]+/);
  if (words[0] === 'quads') {
    send(words[1] === '1' ? 'id name javascript-starter\nquadsok' : 'unsupported');
  } else if (words[0] === 'isready') {
    send('readyok');
  } else if (words[0] === 'newgame') {
    rules = words[words.indexOf('rules') + 1];
    state = BigInt(words[words.indexOf('seed') + 1]) & MASK;
  } else if (words[0] === 'go') {
    send('move ' + choose(words, rules));
  } else if (words[0] === 'quit') {
    input.close();
    process.exit(0);
  }
});
input.on('close', () => process.exit(0));
