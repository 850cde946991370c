// The Robots replay viewer: every seat's board side by side (the same levels), drawn from
// the trace inlined in the page (script#replay-data, written by src/games/robots/trace.rs).
// No network, no library: it must open from file:// on a laptop with no connection.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const T = D.trace;
  const W = T.width, H = T.height;
  const C = 14; // pixels per square
  const GAP = 30; // room for each board's title
  const NS = "http://www.w3.org/2000/svg";
  const COLOURS = [
    ["#E69F00", "#000"], ["#56B4E9", "#000"], ["#009E73", "#fff"], ["#F0E442", "#000"],
    ["#0072B2", "#fff"], ["#D55E00", "#fff"], ["#CC79A7", "#000"], ["#5a5a5a", "#fff"],
  ];
  const svg = document.getElementById("board");
  const seats = T.start.length;
  const last = T.steps.length;
  const seatName = (s) => (D.seats[s] ? D.seats[s] : "seat " + (s + 1));

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  svg.setAttribute("viewBox", `0 0 ${W * C + 2} ${seats * (H * C + GAP) + 2}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${seats} Robots boards of ${W} by ${H} squares, one per seat`);
  const layers = [];
  for (let s = 0; s < seats; s++) {
    const y0 = s * (H * C + GAP) + GAP - 4;
    const title = el("text", { x: 1, y: y0 - 8, "font-size": 14, "font-weight": 700, fill: "#111" }, svg);
    el("rect", { x: 1, y: y0, width: W * C, height: H * C, fill: "#f1f1f1", stroke: "#888" }, svg);
    const g = el("g", { transform: `translate(1,${y0})`, class: "seat-board", "data-seat": s }, svg);
    layers.push({ g, title });
  }

  function drawBoard(s, b) {
    const { g, title } = layers[s];
    g.textContent = "";
    const [fill, ink] = COLOURS[s % COLOURS.length];
    title.textContent = `${s + 1}: ${seatName(s)} · level ${b.level} · score ${b.score} · ${b.status}`;
    for (const [x, y] of b.heaps) el("rect", { class: "heap", x: x * C + 1, y: y * C + 1, width: C - 2, height: C - 2, fill: "#7a5c3a" }, g);
    for (const [x, y] of b.robots) el("circle", { class: "enemy", cx: x * C + C / 2, cy: y * C + C / 2, r: C * 0.38, fill: "#222" }, g);
    if (b.you) {
      const [x, y] = b.you;
      el("circle", { class: "player", cx: x * C + C / 2, cy: y * C + C / 2, r: C * 0.5, fill, stroke: "#000", "stroke-width": 1.5 }, g);
      el("text", { x: x * C + C / 2, y: y * C + C / 2 + 4, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: ink }, g).textContent = s + 1;
    }
  }

  const boardsAt = (turn) => (turn === 0 ? T.start : T.steps[turn - 1].boards);

  function showScores(turn) {
    const body = document.querySelector("#scores tbody");
    body.textContent = "";
    boardsAt(turn).forEach((b, s) => {
      const tr = document.createElement("tr");
      tr.dataset.seat = s;
      const [fill, ink] = COLOURS[s % COLOURS.length];
      const cells = [null, seatName(s), b.score, b.levels_cleared, b.kills, b.teleports, b.status];
      cells.forEach((c, i) => {
        const td = document.createElement("td");
        if (i === 0) {
          const sw = document.createElement("span");
          sw.className = "swatch";
          sw.style.background = fill;
          sw.style.color = ink;
          sw.textContent = s + 1;
          td.appendChild(sw);
        } else td.textContent = c;
        if (i === 2) td.className = "score";
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
  }

  function showMoves(turn) {
    const list = document.getElementById("events");
    list.textContent = "";
    document.getElementById("events-caption").textContent = turn === 0 ? "Before turn 1" : `Turn ${T.steps[turn - 1].turn}: moves`;
    if (turn === 0) {
      const li = document.createElement("li");
      li.textContent = "Every seat starts level 1 on the same board.";
      list.appendChild(li);
      return;
    }
    T.steps[turn - 1].moves.forEach((m, s) => {
      if (m === null) return;
      const li = document.createElement("li");
      const fault = typeof m === "string";
      li.textContent = `${s + 1} ${seatName(s)}: ` + (fault ? `fault, ${m} (a forced pass)` : m.join(" "));
      if (fault) li.className = "fault";
      list.appendChild(li);
    });
  }

  function show(turn) {
    boardsAt(turn).forEach((b, s) => drawBoard(s, b));
    showScores(turn);
    showMoves(turn);
  }

  replayControls({
    last,
    stageMs: 300,
    show,
    label: (turn) => (turn === 0 ? `Start (0 / ${last})` : `Turn ${T.steps[turn - 1].turn} (${turn} / ${last})`),
    async animate(turn, token, ui) {
      ui.setLabel(`Turn ${T.steps[turn - 1].turn} (${turn} / ${last}), playing:`);
      showMoves(turn);
      boardsAt(turn).forEach((b, s) => drawBoard(s, b));
      return ui.wait(ui.frameMs(), token);
    },
  });
})();
