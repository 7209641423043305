// The report's viewer: the summary, the charts (uPlot) and the games,
// replayed with Othello's rules. The data comes from the referee
// (referee/src/report.rs); nothing is fetched.
"use strict";

const D = JSON.parse(document.getElementById("data").textContent);
const NAMES = D.names;
const $ = (id) => document.getElementById(id);
const BY_NUMBER = new Map(D.games.map((g) => [g.g, g]));
const PLAYER_CLASS = ["p1", "p2"];
const COLORS = ["#1f5fbf", "#c0392b"];

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.setAttribute(k, String(v));
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

// A number with `digits` decimals, "n/a" for none; never "-0.0".
function fmt(x, digits) {
  if (x === null || x === undefined || !Number.isFinite(x)) return "n/a";
  const text = x.toFixed(digits);
  return /^-[0.]+$/.test(text) ? text.slice(1) : text;
}

function row(table, label, value, id, raw) {
  table.append(el("tr", {}, el("th", { text: label }),
    el("td", { id: id, "data-value": raw === undefined ? null : JSON.stringify(raw), text: value })));
}

// ---- Summary ----------------------------------------------------------

function summary() {
  const s = D.summary;
  const title = `${NAMES[0]} vs ${NAMES[1]}`;
  $("title").textContent = title;
  document.title = title + " - referee report";
  if (D.partial) {
    const p = D.partial;
    const shown = p.missing.join(", ") + (p.planned - p.played > p.missing.length ? ", ..." : "");
    const shards = p.missing_shards.length ? ` Shards without a file: ${p.missing_shards.join(", ")}.` : "";
    $("partial").hidden = false;
    $("partial").textContent =
      `Partial match: ${p.played} of ${p.planned} games recorded (missing: ${shown}).${shards}`;
  }
  const t = $("summary-table");
  row(t, "p1", `${NAMES[0]}  (${D.header.p1})`, "sum-p1");
  row(t, "p2", `${NAMES[1]}  (${D.header.p2})`, "sum-p2");
  row(t, "Games", String(s.games), "sum-games", s.games);
  row(t, "p1 wins - losses - draws",
    `${s.p1.wins} - ${s.p1.losses} - ${s.p1.draws}  [${fmt(s.score, 3)}]`,
    "sum-wld", [s.p1.wins, s.p1.losses, s.p1.draws]);
  row(t, "Elo (p1)", `${fmt(s.elo, 1)} ± ${fmt(s.elo_error, 1)} (${s.elo_model})`, "sum-elo",
    [s.elo, s.elo_error]);
  row(t, "LOS", s.los === null ? "n/a" : `${fmt(s.los * 100, 1)} %`, "sum-los", s.los);
  row(t, "Draw ratio", s.draw_ratio === null ? "n/a" : `${fmt(s.draw_ratio * 100, 1)} %`,
    "sum-draws", s.draw_ratio);
  row(t, "Pentanomial [LL, LD, WL+DD, WD, WW]", `[${s.pentanomial.join(", ")}]`, "sum-penta",
    s.pentanomial);
  if (s.sprt) {
    const q = s.sprt;
    row(t, "SPRT", `elo0 ${q.elo0}, elo1 ${q.elo1}: LLR ${fmt(q.llr, 2)} ` +
      `(${fmt(q.lower, 2)}, ${fmt(q.upper, 2)}): ${q.result}`, "sum-sprt", q.llr);
  } else {
    row(t, "SPRT", "none", "sum-sprt");
  }
  row(t, "Mean disc difference (p1)", fmt(s.p1.mean_disc_diff, 1), "sum-discs",
    s.p1.mean_disc_diff);
  faults();
  settings();
}

function faults() {
  const t = $("faults");
  const kinds = ["timeout", "crash", "illegal move", "unreadable answer", "no output", "memory"];
  const where = [{}, {}];
  for (const g of D.games) {
    if (g.f) (where[g.f.by][g.f.kind] = where[g.f.by][g.f.kind] || []).push(g.g);
  }
  t.append(el("tr", {}, el("th", { text: "" }), ...kinds.map((k) => el("th", { text: k })),
    el("th", { text: "killed after the end" })));
  for (const side of [0, 1]) {
    const p = side === 0 ? D.summary.p1 : D.summary.p2;
    const cells = kinds.map((k) => {
      const games = where[side][k] || [];
      const td = el("td", { "data-count": games.length, text: String(games.length) });
      if (games.length) {
        td.append(" (games ");
        games.slice(0, 20).forEach((n, i) => {
          if (i) td.append(", ");
          td.append(el("a", { href: `#game=${n}`, text: String(n) }));
        });
        if (games.length > 20) td.append(", ...");
        td.append(")");
      }
      return td;
    });
    t.append(el("tr", {}, el("th", { class: PLAYER_CLASS[side], text: NAMES[side] }), ...cells,
      el("td", { text: String(p.killed_after_end) })));
  }
}

function settings() {
  const t = $("settings");
  const s = D.header.settings;
  if (s) {
    row(t, "Games planned", String(s.games), "set-games", s.games);
    row(t, "Turn limit", `${s.turn_ms} ms (first turn ${s.first_turn_ms} ms, margin ${s.margin_ms} ms)`,
      "set-limits", [s.turn_ms, s.first_turn_ms, s.margin_ms]);
    row(t, "Memory limit", s.memory_mb ? `${s.memory_mb} MB` : "none", "set-memory", s.memory_mb);
    if (s.sprt) row(t, "SPRT", s.sprt, "set-sprt");
  } else {
    row(t, "Limits", "not recorded (a games file from an older referee)", "set-limits");
  }
  row(t, "Openings", D.header.openings, "set-openings");
  row(t, "Seed", String(D.header.seed), "set-seed", D.header.seed);
}

// ---- Charts -----------------------------------------------------------

function chartWidth(node) {
  return Math.max(320, Math.min(1100, (node.clientWidth || 900) - 10));
}

function lineChart(node, title, xLabel, yLabel, xs, series, extra) {
  const opts = Object.assign({
    title: title,
    width: chartWidth(node),
    height: 260,
    scales: { x: { time: false } },
    series: [{ label: xLabel }].concat(series.map((s) => Object.assign({ spanGaps: true, width: 1.5 }, s.opts))),
    axes: [{ label: xLabel }, { label: yLabel }],
  }, extra || {});
  return new uPlot(opts, [xs].concat(series.map((s) => s.data)), node);
}

function charts() {
  const moves = Array.from({ length: 60 }, (_, i) => i + 1);
  const pm = D.per_move;
  const limit = D.header.settings ? D.header.settings.turn_ms : 150;
  const series = [];
  for (const side of [0, 1]) {
    series.push({ data: pm[side].median_ms, opts: { label: `${NAMES[side]} median`, stroke: COLORS[side], width: 2 } });
    series.push({ data: pm[side].p95_ms, opts: { label: `${NAMES[side]} p95`, stroke: COLORS[side], dash: [6, 4] } });
    series.push({ data: pm[side].max_ms, opts: { label: `${NAMES[side]} max`, stroke: COLORS[side], dash: [2, 3] } });
  }
  series.push({ data: moves.map(() => limit), opts: { label: `limit ${limit} ms`, stroke: "#000", width: 1 } });
  lineChart($("chart-time"), "Think time by move number", "move", "ms", moves, series);
  lineChart($("chart-depth"), "Depth reached (median of the MSG's d<N>/s<N>)", "move", "depth", moves,
    [0, 1].map((side) => ({ data: pm[side].depth_median, opts: { label: NAMES[side], stroke: COLORS[side], width: 2 } })));
  const e = D.elo;
  if (e.games.length) {
    lineChart($("chart-elo"), "Elo of p1 (95% interval)", "games", "Elo", e.games, [
      { data: e.elo, opts: { label: "Elo", stroke: COLORS[0], width: 2 } },
      { data: e.low, opts: { label: "low", stroke: "rgba(31,95,191,0.4)" } },
      { data: e.high, opts: { label: "high", stroke: "rgba(31,95,191,0.4)" } },
    ], { bands: [{ series: [3, 2], fill: "rgba(31,95,191,0.12)" }] });
  } else {
    $("chart-elo").textContent = "No complete pair of games yet.";
  }
}

// ---- Analysis (referee analyze) ----------------------------------------

const PHASES = ["1-20", "21-40", "41-60"];

function analysis() {
  const a = D.analysis;
  if (!a) return;
  $("analysis").hidden = false;
  $("analysis-note").textContent = `Judge: ${a.judge}; ${a.games} games analysed. A move's loss is ` +
    `the discs it gives away against the judge's best move (0 for a best move); a mistake loses ` +
    `${a.mistake_discs} discs or more; a result given away turns a win the judge proved into a ` +
    `draw or a loss, or a draw into a loss (counted where the judge is exact). Phases by move number, the opening's moves counted (they are not judged); ` +
    `empties: the empty squares before the move (60 before the first; a pass places no disc).`;
  const cell = (p, id) => {
    const mean = p.moves ? p.loss / p.moves : null;
    return el("td", { id: id, "data-value": JSON.stringify([mean, p.mistakes, p.moves, p.results]),
      text: p.moves ? `${fmt(mean, 2)}  (${p.mistakes} mistakes, ${p.results} results given away, ` +
        `in ${p.moves} moves)` : "n/a" });
  };
  const t = $("analysis-table");
  t.append(el("tr", {}, el("th", { text: "mean loss per move" }),
    ...PHASES.map((p) => el("th", { text: `moves ${p}` })), el("th", { text: "all" })));
  for (const side of [0, 1]) {
    const phases = a.losses.phases[side];
    const all = phases.reduce((s, p) => ({ moves: s.moves + p.moves, loss: s.loss + p.loss,
      mistakes: s.mistakes + p.mistakes, results: s.results + p.results }),
      { moves: 0, loss: 0, mistakes: 0, results: 0 });
    t.append(el("tr", {}, el("th", { class: PLAYER_CLASS[side], text: NAMES[side] }),
      ...phases.map((p, k) => cell(p, `loss-p${side + 1}-${k}`)), cell(all, `loss-p${side + 1}-all`)));
  }
  const te = $("analysis-empties-table");
  te.append(el("tr", {}, el("th", { text: "mean loss per move" }),
    ...a.losses.empties_buckets.map((b) => el("th", { text: `empties ${b}` }))));
  for (const side of [0, 1]) {
    te.append(el("tr", {}, el("th", { class: PLAYER_CLASS[side], text: NAMES[side] }),
      ...a.losses.empties[side].map((p, k) => cell(p, `loss-e-p${side + 1}-${k}`))));
  }
  const tp = a.losses.turning_points;
  $("turning-points").textContent = "Turning points of the decisive games (the move after which the " +
    "judge's value never came back to the loser's side): " +
    PHASES.map((p, k) => `moves ${p}: ${tp[k]}`).join(", ") +
    `; loser behind at every judged position: ${a.losses.lost_from_the_start}.`;
}

// ---- Standing (referee standing) ---------------------------------------

const RESULTS = ["won", "drawn", "lost"];
const pct = (x) => (x === null ? "n/a" : `${fmt(100 * x, 1)}%`);
const signed = (x) => (x > 0 ? `+${x}` : String(x));

// p1's score at each count of empties of the standing file, by game number.
const STANDING = new Map(D.standing ? D.standing.per_game.map((r) => [r.game, r.scores]) : []);

function standingText(score) {
  if (score === null || score === undefined) return "ended before";
  return D.standing.settings.wld ? ["lost", "drawn", "won"][Math.sign(score) + 1] : signed(score);
}

function standing() {
  const s = D.standing;
  if (!s) return;
  $("standing").hidden = false;
  $("standing-note").textContent = `Each game's position at ${s.settings.empties.join(", ")} empties ` +
    `solved ${s.settings.wld ? "for its result (win, draw or loss)" : "exactly"} by the engine's solver, ` +
    `against how the game ended (${s.games} games). No evaluation is in this judge: a game's result ` +
    `changed after a count of empties only by a mistake (or a fault) after it. In the chart, a game that ` +
    `ended before a count stands there at its final result, so every point covers all the games.`;
  const box = $("standing-tables");
  for (const st of s.stages) {
    const before = st.ended_before.reduce((a, b) => a + b, 0);
    box.append(el("h3", { text: `At ${st.empties} empties: ${st.games} games` +
      (before ? `, ${before} ended before` : "") }));
    for (const side of [0, 1]) {
      const p = st.players[side];
      const t = el("table", { id: `standing-${st.empties}-p${side + 1}` });
      t.append(el("tr", {}, el("th", { class: PLAYER_CLASS[side], text: `${p.name} at ${st.empties}` }),
        el("th", { text: "games" }), ...RESULTS.map((r) => el("th", { text: `then ${r}` }))));
      RESULTS.forEach((label, k) => {
        const row = side === 0 ? st.table[k] : st.table[2 - k].slice().reverse();
        t.append(el("tr", {}, el("th", { text: label }),
          el("td", { class: "num", text: String(row.reduce((a, b) => a + b, 0)) }),
          ...row.map((c) => el("td", { class: "num", text: String(c) }))));
      });
      box.append(t);
      box.append(el("p", { id: `standing-${st.empties}-line-p${side + 1}`, text: `${p.name}: stood ${pct(p.stood)} ` +
        `(${p.standing.join("-")}), finished ${pct(p.finished)} (${p.result.join("-")})` +
        (p.mean_score === null ? "" : `; mean exact score at ${st.empties}: ${signed(Number(fmt(p.mean_score, 2)))} discs`) }));
    }
    box.append(el("p", { text: st.changed.length ? `Changed after ${st.empties} empties (for ${s.names[0]}): ` +
      st.changed.map((c) => `game ${c.game} ${c.standing} → ${c.result}`).join("; ") :
      `No game changed result after ${st.empties} empties.` }));
  }
  // Score by stage: the standing at each count of empties, then the final result.
  const labels = s.stages.map((st) => `${st.empties} empties`).concat(["final"]);
  const xs = labels.map((_, i) => i);
  // A share of all the games: those that ended before a count stand there at their final result.
  const share = (side, counts, before) => {
    const c = side === 0 ? counts : counts.slice().reverse();
    const b = side === 0 ? before : before.slice().reverse();
    const n = c.concat(b).reduce((a, x) => a + x, 0);
    return n ? 100 * (c[0] + b[0] + (c[1] + b[1]) / 2) / n : null;
  };
  const last = s.stages[s.stages.length - 1];
  const series = [0, 1].map((side) => ({
    data: s.stages.map((st) => share(side, st.players[0].standing, st.ended_before))
      .concat([share(side, last.players[0].result, last.ended_before)]),
    opts: { label: NAMES[side], stroke: COLORS[side], width: 2, points: { show: true } },
  }));
  lineChart($("chart-standing"), "Score by stage under perfect play, then the final result", "stage", "score %",
    xs, series, { axes: [{ label: "stage", splits: () => xs, values: (u, vals) => vals.map((v) => labels[v] || "") },
      { label: "score %" }], scales: { x: { time: false }, y: { range: [0, 100] } } });
}

// ---- Rules ------------------------------------------------------------

const EMPTY = 0, BLACK = 1, WHITE = 2;
const DIRS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]];
const squareName = (i) => String.fromCharCode(97 + (i % 8)) + String(Math.floor(i / 8) + 1);
const squareIndex = (name) => (name.charCodeAt(1) - 49) * 8 + (name.charCodeAt(0) - 97);

function startBoard() {
  const b = new Array(64).fill(EMPTY);
  b[squareIndex("d4")] = WHITE; b[squareIndex("e5")] = WHITE;
  b[squareIndex("d5")] = BLACK; b[squareIndex("e4")] = BLACK;
  return b;
}

function flips(board, i, color) {
  if (board[i] !== EMPTY) return [];
  const other = 3 - color, out = [];
  const c0 = i % 8, r0 = Math.floor(i / 8);
  for (const [dc, dr] of DIRS) {
    const line = [];
    let c = c0 + dc, r = r0 + dr;
    while (c >= 0 && c < 8 && r >= 0 && r < 8 && board[r * 8 + c] === other) {
      line.push(r * 8 + c); c += dc; r += dr;
    }
    if (line.length && c >= 0 && c < 8 && r >= 0 && r < 8 && board[r * 8 + c] === color) out.push(...line);
  }
  return out;
}

function legalMoves(board, color) {
  const out = [];
  for (let i = 0; i < 64; i++) if (flips(board, i, color).length) out.push(i);
  return out;
}

// Every position of game `g`: index k is the board after k moves (the
// opening's included), with the side to move (0 when the game is over).
function replay(g) {
  const moves = [];
  for (let i = 0; i + 1 < g.o.length; i += 2) moves.push({ sq: g.o.slice(i, i + 2), by: -1 });
  for (let i = 0; i * 2 + 1 < g.m.length; i++) {
    moves.push({ sq: g.m.slice(2 * i, 2 * i + 2), by: g.p[i], t: g.t[i], s: g.s[i], v: g.v[i] });
  }
  let board = startBoard(), toMove = BLACK;
  const positions = [{ board, toMove, last: -1 }];
  for (const mv of moves) {
    if (!legalMoves(board, toMove).length) toMove = 3 - toMove;
    const i = squareIndex(mv.sq), f = flips(board, i, toMove);
    if (!f.length) { mv.invalid = true; break; }
    board = board.slice();
    board[i] = toMove;
    for (const j of f) board[j] = toMove;
    mv.color = toMove;
    const next = 3 - toMove;
    if (legalMoves(board, next).length) toMove = next;
    else if (!legalMoves(board, toMove).length) toMove = EMPTY;
    positions.push({ board, toMove, last: i });
  }
  return { moves, positions };
}

// ---- Viewer -----------------------------------------------------------

const viewer = { game: null, moves: null, positions: null, ply: 0, chart: null };

function buildBoard() {
  const b = $("board");
  b.append(el("div", { class: "label" }));
  for (let c = 0; c < 8; c++) b.append(el("div", { class: "label", text: String.fromCharCode(97 + c) }));
  for (let r = 0; r < 8; r++) {
    b.append(el("div", { class: "label", text: String(r + 1) }));
    for (let c = 0; c < 8; c++) b.append(el("div", { class: "cell", "data-sq": squareName(r * 8 + c) }));
  }
}

function colorOf(side, g) { return (g.b === side) ? BLACK : WHITE; }
function sideName(side) { return side < 0 ? "opening" : NAMES[side]; }

function resultText(g) {
  const [b, w] = g.d;
  if (g.w === null) return `draw ${b}-${w}`;
  const how = g.f ? ` (${NAMES[g.f.by]}: ${g.f.kind})` : ` ${b}-${w}`;
  return `${NAMES[g.w]} (p${g.w + 1}) wins${how}`;
}

function openGame(number, ply) {
  const g = BY_NUMBER.get(number);
  if (!g) return;
  const { moves, positions } = replay(g);
  Object.assign(viewer, { game: g, moves, positions });
  $("viewer").hidden = false;
  const black = NAMES[g.b], white = NAMES[1 - g.b];
  $("game-title").textContent = `Game ${g.g}: ${black} (black) vs ${white} (white)`;
  $("game-result").textContent = resultText(g) + (g.f ? ` — ${g.f.detail}` : "") +
    (STANDING.has(g.g) ? `; under perfect play, for ${NAMES[0]}: ` + D.standing.settings.empties
      .map((e, k) => `${standingText(STANDING.get(g.g)[k])} at ${e} empties`).join(", ") : "");
  $("transcript").value = moves.map((m) => m.sq).join("");
  const t = $("moves");
  const judged = !!g.l;
  const heads = ["#", "by", "move", "ms", "MSG"].concat(judged ? ["loss", "judge's best"] : []);
  t.replaceChildren(el("tr", {}, ...heads.map((h) => el("th", { text: h }))));
  const openingPlies = g.o.length / 2;
  moves.forEach((m, k) => {
    const i = k - openingPlies;
    const judge = judged && i >= 0 && i < g.l.length ? [
      el("td", { class: "ms" + (g.k[i] ? " mistake" : ""), text: fmt(g.l[i], 1) }),
      el("td", { text: g.jb[i] })] : judged ? [el("td"), el("td")] : [];
    const tr = el("tr", { class: m.by < 0 ? "opening" : "", "data-ply": k + 1 },
      el("td", { class: "num", text: String(k + 1) }),
      el("td", { class: m.by < 0 ? "" : PLAYER_CLASS[m.by], text: sideName(m.by) }),
      el("td", { text: m.sq + (m.invalid ? " (not legal here)" : "") }),
      el("td", { class: "ms", text: m.t === undefined ? "" : fmt(m.t, 1) }),
      el("td", { text: m.s || "" }), ...judge);
    tr.addEventListener("click", () => show(k + 1));
    t.append(tr);
  });
  if (g.f) {
    t.append(el("tr", { class: "fault", "data-ply": moves.length + 1 },
      el("td", { class: "num", text: String(moves.length + 1) }),
      el("td", { class: PLAYER_CLASS[g.f.by], text: NAMES[g.f.by] }),
      el("td", { colspan: 3, text: `${g.f.kind}: ${g.f.detail}` })));
  }
  gameChart(g, moves);
  // The judge's chart comes drawn (SVG) from the referee.
  $("chart-judge").hidden = !g.j;
  // The heading is text (a bot's name may hold "<"); the SVG is escaped by the referee.
  $("chart-judge").innerHTML = g.j || "";
  if (g.j) {
    $("chart-judge").prepend(el("h3", { text: `Judge's value from ${NAMES[0]}'s side (dots: mistakes, ` +
      `dashed: turning point)` }));
  }
  for (const tr of $("game-list").querySelectorAll("tr[data-game]")) {
    tr.classList.toggle("selected", Number(tr.dataset.game) === g.g);
  }
  show(ply === undefined ? 0 : ply);
}

function gameChart(g, moves) {
  if (viewer.chart) viewer.chart.destroy();
  const xs = [], own = [[], []];
  moves.forEach((m, k) => {
    xs.push(k + 1);
    for (const side of [0, 1]) {
      const v = m.by === side && m.v !== null && m.v !== undefined ? (side === 0 ? m.v : -m.v) : null;
      own[side].push(v);
    }
  });
  const node = $("chart-game");
  node.replaceChildren();
  viewer.chart = lineChart(node, "MSG scores, from p1's side (p2's negated)", "move", "score", xs, [
    { data: own[0], opts: { label: NAMES[0], stroke: COLORS[0], width: 2, points: { show: true } } },
    { data: own[1], opts: { label: `${NAMES[1]} (negated)`, stroke: COLORS[1], width: 2, points: { show: true } } },
  ], { height: 200 });
}

function show(ply) {
  const n = viewer.positions.length - 1;
  viewer.ply = Math.max(0, Math.min(n, ply));
  const p = viewer.positions[viewer.ply];
  const legal = new Set(p.toMove ? legalMoves(p.board, p.toMove) : []);
  for (const cell of $("board").querySelectorAll(".cell")) {
    const i = squareIndex(cell.dataset.sq);
    cell.dataset.disc = p.board[i] === BLACK ? "b" : p.board[i] === WHITE ? "w" : "";
    cell.dataset.legal = legal.has(i) ? "1" : "";
    cell.dataset.last = i === p.last ? "1" : "";
  }
  $("ply-label").textContent = `move ${viewer.ply} of ${n}`;
  const g = viewer.game;
  if (!p.toMove) {
    $("to-move").textContent = "Game over.";
  } else {
    const side = colorOf(0, g) === p.toMove ? 0 : 1;
    const color = p.toMove === BLACK ? "black" : "white";
    $("to-move").textContent = `${color} (${NAMES[side]}) to move: ${legal.size} legal moves`;
  }
  for (const tr of $("moves").querySelectorAll("tr[data-ply]")) {
    const selected = Number(tr.dataset.ply) === viewer.ply;
    tr.classList.toggle("selected", selected);
    if (selected) {
      // Keep the move in view inside the list's own scroll box.
      const box = tr.closest(".scroll");
      box.scrollTop = tr.offsetTop - box.clientHeight / 2;
    }
  }
  try {
    history.replaceState(null, "", `#game=${g.g}&ply=${viewer.ply}`);
  } catch (e) {
    // Some browsers refuse history changes on file:// pages: no matter.
  }
}

function controls() {
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(viewer.ply - 1));
  $("next").addEventListener("click", () => show(viewer.ply + 1));
  $("last").addEventListener("click", () => show(Infinity));
  $("copy").addEventListener("click", () => {
    $("transcript").select();
    if (navigator.clipboard) navigator.clipboard.writeText($("transcript").value).catch(() => {});
  });
  document.addEventListener("keydown", (e) => {
    if (!viewer.game || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    const step = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (step) show(viewer.ply + step);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(Infinity);
    else return;
    e.preventDefault();
  });
}

// ---- Game list --------------------------------------------------------

function gameList() {
  const kinds = [...new Set(D.games.filter((g) => g.f).map((g) => g.f.kind))].sort();
  const select = $("filter-fault");
  for (const [v, label] of [["all", "all"], ["any", "any fault"], ["none", "none"]].concat(kinds.map((k) => [k, k]))) {
    select.append(el("option", { value: v, text: label }));
  }
  const t = $("game-list");
  const heads = ["#", "black", "white", "opening", "result", "fault"].concat(D.analysis ? ["turning point"] : [])
    .concat(D.standing ? D.standing.settings.empties.map((e) => `${NAMES[0]} at ${e}`) : []);
  t.append(el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", { text: h })))));
  const body = el("tbody");
  for (const g of D.games) {
    const tr = el("tr", { "data-game": g.g },
      el("td", { class: "num", text: String(g.g) }),
      el("td", { class: PLAYER_CLASS[g.b], text: NAMES[g.b] }),
      el("td", { class: PLAYER_CLASS[1 - g.b], text: NAMES[1 - g.b] }),
      el("td", { text: g.o }),
      el("td", { text: resultText(g) }),
      el("td", { text: g.f ? g.f.kind : "" }),
      ...(D.analysis ? [el("td", { class: "num", text: g.tp ? `move ${g.tp}` : "" })] : []),
      ...(D.standing ? (STANDING.get(g.g) || D.standing.settings.empties.map(() => undefined))
        .map((v) => el("td", { class: "num", text: STANDING.has(g.g) ? standingText(v) : "" })) : []));
    tr.addEventListener("click", () => openGame(g.g, 0));
    body.append(tr);
  }
  t.append(body);
  const apply = () => {
    const result = $("filter-result").value, fault = select.value;
    const opening = $("filter-opening").value.trim().toLowerCase();
    let shown = 0;
    for (const tr of body.children) {
      const g = BY_NUMBER.get(Number(tr.dataset.game));
      const ok = (result === "all" || (result === "draw" ? g.w === null : g.w === (result === "p1" ? 0 : 1))) &&
        (fault === "all" || (fault === "any" ? !!g.f : fault === "none" ? !g.f : g.f && g.f.kind === fault)) &&
        g.o.startsWith(opening);
      tr.hidden = !ok;
      shown += ok;
    }
    $("filter-count").textContent = `${shown} of ${D.games.length} games`;
  };
  for (const id of ["filter-result", "filter-fault", "filter-opening"]) {
    $(id).addEventListener("input", apply);
  }
  apply();
}

function fromHash() {
  const m = /game=(\d+)(?:&ply=(\d+))?/.exec(location.hash);
  if (m) openGame(Number(m[1]), m[2] === undefined ? 0 : Number(m[2]));
}

summary();
charts();
analysis();
standing();
buildBoard();
controls();
gameList();
fromHash();
window.addEventListener("hashchange", fromHash);
// For tests and measurements: when the page was ready, in ms since navigation.
document.body.dataset.readyMs = String(Math.round(performance.now()));
document.body.dataset.ready = "1";
