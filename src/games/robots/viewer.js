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
  const svg = document.getElementById("board");
  const seats = T.start.length;
  const last = T.steps.length;
  const seatName = (s) => (D.seats[s] ? D.seats[s] : "seat " + (s + 1));

  svg.setAttribute("viewBox", `0 0 ${W * C + 2} ${seats * (H * C + GAP) + 2}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${seats} Robots boards of ${W} by ${H} squares, one per seat`);
  const layers = [];
  for (let s = 0; s < seats; s++) {
    const y0 = s * (H * C + GAP) + GAP - 4;
    const title = svgEl("text", { x: 1, y: y0 - 8, "font-size": 14, "font-weight": 700, fill: "#111" }, svg);
    svgEl("rect", { x: 1, y: y0, width: W * C, height: H * C, fill: "#f1f1f1", stroke: "#888" }, svg);
    const g = svgEl("g", { transform: `translate(1,${y0})`, class: "seat-board", "data-seat": s }, svg);
    layers.push({ g, title });
  }

  function drawBoard(s, b) {
    const { g, title } = layers[s];
    g.textContent = "";
    const [fill, ink] = seatColours(s);
    title.textContent = `${s + 1}: ${seatName(s)} · level ${b.level} · score ${b.score} · ${b.status}`;
    for (const [x, y] of b.heaps) svgEl("rect", { class: "heap", x: x * C + 1, y: y * C + 1, width: C - 2, height: C - 2, fill: "#7a5c3a" }, g);
    for (const [x, y] of b.robots) svgEl("circle", { class: "enemy", cx: x * C + C / 2, cy: y * C + C / 2, r: C * 0.38, fill: "#222" }, g);
    if (b.you) {
      const [x, y] = b.you;
      svgEl("circle", { class: "player", cx: x * C + C / 2, cy: y * C + C / 2, r: C * 0.5, fill, stroke: "#000", "stroke-width": 1.5 }, g);
      svgEl("text", { x: x * C + C / 2, y: y * C + C / 2 + 4, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: ink }, g).textContent = s + 1;
    }
  }

  const boardsAt = (turn) => (turn === 0 ? T.start : T.steps[turn - 1].boards);

  function showScores(turn) {
    fillScores(boardsAt(turn).map((b, s) => [seatName(s), b.score, b.levels_cleared, b.kills, b.teleports, b.status]));
  }

  function showMoves(turn) {
    if (turn === 0) {
      fillEvents("Before turn 1", [], "Every seat starts level 1 on the same board.");
      return;
    }
    const lines = [];
    T.steps[turn - 1].moves.forEach((m, s) => {
      if (m === null) return;
      const fault = typeof m === "string";
      lines.push({ text: `${s + 1} ${seatName(s)}: ` + (fault ? `fault, ${m} (a forced pass)` : m.join(" ")), fault });
    });
    fillEvents(`Turn ${T.steps[turn - 1].turn}: moves`, lines, null);
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
