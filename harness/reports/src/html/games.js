"use strict";
// The list of games: filters by bot, variant, result, reason (and, with an analysis, by
// blunders), a page of rows at a time, so that 10,000 games cost no more to show than 50.
// A row opens its replay; the address then ends in #game-INDEX, so a game can be linked to
// and the browser's back button closes it.

const PAGE_SIZE = 50;
const DATA = JSON.parse(document.getElementById("data").textContent);
const COL = Object.fromEntries(DATA.columns.map((c, i) => [c, i]));
const List = { shown: [], page: 0 };

function option(select, value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  select.appendChild(o);
}

function filterValue(id) {
  return document.getElementById(id).value;
}

function hasMark(g, test) {
  const marks = g[COL.marks];
  for (let i = 0; i < marks.length; i++) {
    const m = decodeMark(marks[i]);
    if (m && test(m)) return true;
  }
  return false;
}

const isBlunder = (m) => m.kind === "blunder";

function applyFilters() {
  const bot = filterValue("f-bot"), variant = filterValue("f-variant");
  const result = filterValue("f-result"), reason = filterValue("f-reason"), judged = filterValue("f-judged");
  List.shown = [];
  DATA.games.forEach((g, i) => {
    if (bot !== "" && String(g[COL.first]) !== bot && String(g[COL.second]) !== bot) return;
    if (variant !== "" && String(g[COL.variant]) !== variant) return;
    if (result !== "" && String(g[COL.result]) !== result) return;
    if (reason !== "" && String(g[COL.reason]) !== reason) return;
    if (judged === "blunder" && !hasMark(g, isBlunder)) return;
    if (judged === "missed" && !hasMark(g, (m) => m.missed)) return;
    if (judged === "clean" && (!hasMark(g, () => true) || hasMark(g, isBlunder))) return;
    List.shown.push(i);
  });
  List.page = 0;
  renderList();
}

/** "move N" for the deciding move's index: the piece it places. */
function decidedText(g) {
  const index = g[COL.decided];
  if (index < 0) return "";
  const start = parsePosition(DATA.starts[g[COL.start]]);
  const moves = decodeMoves(g[COL.moves]);
  let placed = start.board.filter((p) => p >= 0).length;
  for (let i = 0; i < index; i++) if (moves[i] && moves[i].square >= 0) placed += 1;
  const seat = (toMove(start) + index) % 2;
  return `move ${placed + 1} (${DATA.bots[g[seat === 0 ? COL.first : COL.second]]})`;
}

function renderList() {
  const body = document.querySelector("#game-list tbody");
  body.textContent = "";
  const pages = Math.max(1, Math.ceil(List.shown.length / PAGE_SIZE));
  List.page = Math.max(0, Math.min(List.page, pages - 1));
  const from = List.page * PAGE_SIZE;
  for (const i of List.shown.slice(from, from + PAGE_SIZE)) {
    const g = DATA.games[i];
    const tr = document.createElement("tr");
    tr.dataset.index = String(i);
    const cells = [
      g[COL.game],
      g[COL.round],
      DATA.variants[g[COL.variant]],
      DATA.bots[g[COL.first]],
      DATA.bots[g[COL.second]],
      DATA.results[g[COL.result]],
      DATA.reasons[g[COL.reason]],
      g[COL.moves].length / 2,
      DATA.judged ? decidedText(g) : "",
    ];
    cells.forEach((text, k) => {
      const td = document.createElement("td");
      td.textContent = String(text);
      if (k === 8) td.className = "judged";
      tr.appendChild(td);
    });
    tr.addEventListener("click", () => {
      location.hash = "game-" + i;
    });
    body.appendChild(tr);
  }
  const count = List.shown.length;
  document.getElementById("count").textContent =
    count === 0 ? "no game matches" : `games ${from + 1} to ${Math.min(from + PAGE_SIZE, count)} of ${count} shown (${DATA.games.length} in all)`;
  document.getElementById("page").textContent = `page ${List.page + 1} of ${pages}`;
  document.getElementById("prev").disabled = List.page === 0;
  document.getElementById("next").disabled = List.page >= pages - 1;
}

function closeReplay() {
  Viewer.close();
  if (location.hash.startsWith("#game-")) history.replaceState(null, "", "#games");
}

function route() {
  const m = location.hash.match(/^#game-(\d+)$/);
  if (m && DATA.games[Number(m[1])]) Viewer.open(DATA, Number(m[1]));
  else Viewer.close();
}

function init() {
  const fill = (id, items, label) => items.forEach((x, i) => option(document.getElementById(id), String(i), label ? label(x) : x));
  const order = DATA.bots.map((b, i) => i).sort((a, b) => (DATA.bots[a] < DATA.bots[b] ? -1 : 1));
  order.forEach((i) => option(document.getElementById("f-bot"), String(i), DATA.bots[i]));
  fill("f-variant", DATA.variants);
  fill("f-result", DATA.results);
  fill("f-reason", DATA.reasons);
  if (DATA.judged) {
    document.getElementById("f-judged-label").hidden = false;
    document.getElementById("game-list").classList.add("with-analysis");
  }
  document.getElementById("filters").addEventListener("change", applyFilters);
  document.getElementById("prev").addEventListener("click", () => { List.page -= 1; renderList(); });
  document.getElementById("next").addEventListener("click", () => { List.page += 1; renderList(); });
  document.querySelectorAll("a[data-reason]").forEach((a) => a.addEventListener("click", () => {
    const k = DATA.reasons.indexOf(a.dataset.reason);
    document.getElementById("f-reason").value = k < 0 ? "" : String(k);
    applyFilters();
  }));
  document.getElementById("close").addEventListener("click", closeReplay);
  document.getElementById("first").addEventListener("click", () => Viewer.go(0));
  document.getElementById("back").addEventListener("click", () => Viewer.go(Viewer.ply - 1));
  document.getElementById("forward").addEventListener("click", () => Viewer.go(Viewer.ply + 1));
  document.getElementById("last").addEventListener("click", () => Viewer.go(Viewer.moves.length));
  document.getElementById("replay").addEventListener("click", (e) => { if (e.target.id === "replay") closeReplay(); });
  document.addEventListener("keydown", (e) => Viewer.key(e));
  window.addEventListener("hashchange", route);
  applyFilters();
  route();
  window.reportReadyAt = performance.now();
  document.body.dataset.ready = "1";
}

init();
