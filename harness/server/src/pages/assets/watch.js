"use strict";
// A match as it is played: the element with data-stream names a stream of server-sent events
// (a match's /matches/ID/live, or /live: whatever is played now, then the next). Each event
// is a frame: `game` (a game begins: who plays), `move` (a move and the board after it),
// `result` (a game ended), `end` (the match is over). The board is drawn with the report's
// pieces (pieces.js, replay.js); everything else is text. The server wrote the section as the
// match stood when the page was made, so without script a reader sees that.

(function () {
  const section = document.querySelector("[data-stream]");
  if (!section || !window.EventSource) return;
  const heading = document.getElementById("live-game");
  const boardBox = document.getElementById("live-board");
  const moves = document.getElementById("live-moves");
  const results = document.getElementById("live-results");
  let shown = emptyBoard();

  function emptyBoard() {
    return Array(16).fill(-1);
  }

  function draw(board, hand) {
    const next = board.map((c) => (c ? parsePiece(c) : -1));
    let last = -1;
    for (let i = 0; i < 16; i++) if (shown[i] < 0 && next[i] >= 0) last = i;
    shown = next;
    const pos = { board: next, hand: hand ? parsePiece(hand) : -1, claim: "" };
    boardBox.innerHTML = boardSvg(pos, 0, last);
    const placed = next.filter((p) => p >= 0).length;
    boardBox.setAttribute("aria-label", `the board: ${placed} pieces placed`);
  }

  function text(tag, words, data) {
    const el = document.createElement(tag);
    el.textContent = words;
    for (const [k, v] of Object.entries(data || {})) el.dataset[k] = v;
    return el;
  }

  function begin(f) {
    heading.replaceChildren();
    if (section.dataset.stream === "/live") {
      const a = text("a", `Match ${f.match}`);
      a.href = `/matches/${f.match}`;
      heading.append(a, ", ");
    }
    heading.append(`game ${f.game} (${f.rules}): `, text("strong", f.first), " moves first against ", text("strong", f.second));
    moves.replaceChildren();
    if (section.dataset.stream === "/live" && results.dataset.match !== String(f.match)) {
      results.replaceChildren();
      results.dataset.match = f.match;
    }
    shown = emptyBoard();
    draw(Array(16).fill(null), null);
  }

  function moved(f) {
    if (moves.querySelector(`li[data-ply="${f.ply}"]`)) return;
    const li = text("li", `${f.by}: `, { ply: f.ply });
    li.append(text("code", f.mv));
    moves.append(li);
    draw(f.board, f.hand);
  }

  function ended(f) {
    if (results.querySelector(`li[data-game="${f.game}"]`)) return;
    results.append(text("li", `game ${f.game}: ${f.result} (${f.reason})`, { game: f.game }));
  }

  if (boardBox.dataset.board) {
    draw(boardBox.dataset.board.split(" ").map((c) => (c === "-" ? null : c)), boardBox.dataset.hand);
  }
  const stream = new EventSource(section.dataset.stream);
  const on = (name, handle) => stream.addEventListener(name, (e) => handle(JSON.parse(e.data)));
  on("game", begin);
  on("move", moved);
  on("result", ended);
  on("end", (f) => {
    if (section.dataset.stream === "/live") {
      heading.textContent = `Match ${f.match} is over (${f.state}); the next one shows here when it begins.`;
    } else {
      // The match page reloads itself to its replay (live.js); the stream is done.
      stream.close();
    }
  });
})();
