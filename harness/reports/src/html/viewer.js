"use strict";
// The replay dialog: a game's header, the board at one ply, the piece in hand, the pieces
// still to give, the moves with their marks, the solver's value, the forfeit and the logs.
// Step with the buttons, the arrow keys, Home and End; Escape closes.

const Viewer = {
  data: null,
  game: null,
  ply: 0,
  positions: [],
  moves: [],

  el(id) {
    return document.getElementById(id);
  },

  col(g, name) {
    return g[this.data.columns.indexOf(name)];
  },

  botName(g, seat) {
    return this.data.bots[this.col(g, seat === 0 ? "first" : "second")];
  },

  open(data, index) {
    this.data = data;
    const g = data.games[index];
    if (!g) return;
    this.game = g;
    this.moves = decodeMoves(this.col(g, "moves"));
    this.positions = [parsePosition(data.starts[this.col(g, "start")])];
    for (const m of this.moves) this.positions.push(play(this.positions[this.positions.length - 1], m));
    const first = this.botName(g, 0), second = this.botName(g, 1);
    this.el("replay-title").textContent = `game ${this.col(g, "game")}: ${first} vs ${second}`;
    const result = data.results[this.col(g, "result")], reason = data.reasons[this.col(g, "reason")];
    const round = this.col(g, "round");
    this.el("replay-facts").textContent =
      `${data.variants[this.col(g, "variant")]}, ${data.times[this.col(g, "time")]}` +
      (round ? `, round ${round}` : "") + `: ${result} (${reason})`;
    this.renderMoves();
    this.renderLogs();
    this.el("replay").hidden = false;
    this.el("replay").dataset.game = String(this.col(g, "game"));
    this.go(this.moves.length);
    this.el("forward").focus();
  },

  close() {
    this.el("replay").hidden = true;
    this.game = null;
  },

  renderMoves() {
    const list = this.el("moves");
    list.textContent = "";
    const marks = this.col(this.game, "marks");
    this.moves.forEach((m, i) => {
      const li = document.createElement("li");
      li.textContent = moveText(m);
      li.dataset.ply = String(i + 1);
      const mark = decodeMark(marks[i]);
      if (mark) {
        const s = document.createElement("span");
        s.className = "mark " + mark.kind;
        s.textContent = MARK_SIGNS[mark.kind];
        s.title = MARK_WORDS[mark.kind];
        li.dataset.mark = mark.kind;
        li.appendChild(s);
      }
      li.addEventListener("click", () => this.go(i + 1));
      list.appendChild(li);
    });
  },

  renderLogs() {
    const p = this.el("logs");
    p.textContent = "";
    const g = this.game, bits = this.col(g, "logs");
    const base = this.data.logBases[this.col(g, "source")] || "";
    const number = String(this.col(g, "game")).padStart(4, "0");
    [0, 1].forEach((seat) => {
      const bot = this.col(g, seat === 0 ? "first" : "second");
      const label = `${seat === 0 ? "first" : "second"} (${this.data.bots[bot]})`;
      if (bits & (1 << seat)) {
        const a = document.createElement("a");
        a.href = `${base}logs/game-${number}-${seat === 0 ? "first" : "second"}-${this.data.files[bot]}.log`;
        a.textContent = label + ": log";
        p.appendChild(a);
      } else {
        p.appendChild(document.createTextNode(label + ": wrote no log"));
      }
      p.appendChild(document.createElement("br"));
    });
  },

  go(ply) {
    if (!this.game) return;
    this.ply = Math.max(0, Math.min(this.moves.length, ply));
    const pos = this.positions[this.ply], end = this.ply === this.moves.length;
    const last = this.ply > 0 ? this.moves[this.ply - 1].square : -1;
    const board = this.el("board");
    board.innerHTML = boardSvg(pos, end ? this.col(this.game, "win") : 0, last);
    board.dataset.position = positionText(pos);
    board.dataset.ply = String(this.ply);
    const hand = this.el("hand");
    hand.innerHTML = pos.hand >= 0 ? pieceIcon(pos.hand, 80) : "";
    hand.dataset.piece = pos.hand >= 0 ? pieceName(pos.hand) : "";
    const used = new Set(pos.board.filter((p) => p >= 0));
    if (pos.hand >= 0) used.add(pos.hand);
    let rest = "";
    for (let p = 0; p < 16; p++) if (!used.has(p)) rest += pieceIcon(p, 36);
    this.el("remaining").innerHTML = rest;
    this.el("ply").textContent = `move ${this.ply} of ${this.moves.length}`;
    this.el("moves").querySelectorAll("li").forEach((li) => {
      const k = Number(li.dataset.ply);
      li.classList.toggle("current", k === this.ply);
      li.classList.toggle("unplayed", k > this.ply);
    });
    this.renderStatus(pos, end);
  },

  renderStatus(pos, end) {
    const g = this.game, data = this.data;
    const mover = toMove(pos), name = this.botName(g, mover);
    let status;
    if (end) {
      const result = data.results[this.col(g, "result")], reason = data.reasons[this.col(g, "reason")];
      const winner = result === "1-0" ? this.botName(g, 0) : result === "0-1" ? this.botName(g, 1) : null;
      status = winner ? `${result}: ${winner} wins (${reason})` : `${result}: a draw (${reason})`;
    } else if (pos.hand < 0) {
      status = `${name} gives the first piece`;
    } else {
      status = `${name} places ${pieceName(pos.hand)}, then gives`;
    }
    this.el("status").textContent = status;
    this.el("value").textContent = this.valueText(mover, end);
    const box = this.el("forfeit"), failures = this.col(g, "failures"), note = this.col(g, "note");
    box.textContent = "";
    if (end && failures) {
      for (const [seat, reason, detail] of failures) {
        const line = document.createElement("div");
        line.dataset.reason = reason;
        line.textContent = `forfeit: ${this.botName(g, seat)} (${seat === 0 ? "first" : "second"}): ${reason}: ${detail}`;
        box.appendChild(line);
      }
    }
    if (note) {
      const line = document.createElement("div");
      line.textContent = `this record does not replay in full: ${note}`;
      box.appendChild(line);
    }
    box.hidden = box.childNodes.length === 0;
  },

  /** The solver's value of the shown position, when the analysis judged it. */
  valueText(mover, end) {
    const marks = this.col(this.game, "marks");
    const next = decodeMark(marks[this.ply]), prev = this.ply > 0 ? decodeMark(marks[this.ply - 1]) : null;
    let value = null;
    if (next && !end) value = VALUES[next.before];
    else if (prev && !end) value = VALUES[2 - prev.after];
    const lines = [];
    if (value) {
      const name = this.botName(this.game, mover);
      lines.push("solver: " + (value === "draw" ? "a draw with best play" : value === "win" ? `${name} (to move) can force a win` : `${name} (to move) loses against best play`));
    }
    if (prev) lines.push(`last move: ${MARK_WORDS[prev.kind]} (${VALUES[prev.before]} \u2192 ${VALUES[prev.after]} for its mover)`);
    if (lines.length === 0 && this.data.judged && !end) lines.push("solver: not judged here");
    return lines.join("\n");
  },

  key(event) {
    if (!this.game) return;
    const steps = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (event.key in steps) this.go(this.ply + steps[event.key]);
    else if (event.key === "Home") this.go(0);
    else if (event.key === "End") this.go(this.moves.length);
    else if (event.key === "Escape") closeReplay();
    else return;
    event.preventDefault();
  },
};
