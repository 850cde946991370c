// The Robots replay viewer: every seat's board side by side (the same levels), in a grid laid
// out to fill the room the page gives it, drawn from the trace inlined in the page
// (script#replay-data, written by src/games/robots/trace.rs). No network, no library: it must
// open from file:// on a laptop with no connection.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const T = D.trace;
  const W = T.width, H = T.height;
  const C = 20; // user units per square
  const PAD = 16; // room between boards
  const BOARD_W = W * C + PAD;
  // Each board's caption is as high on the screen as the mode asks (pixels), whatever the
  // boards' scale: its room above the board is set by `layout`.
  const CAPTION_PX = { normal: 20, big: 30 };
  let caption = 46; // user units above each board for its caption
  const boardH = () => H * C + caption + PAD;
  const svg = document.getElementById("board");
  const seats = T.start.length;
  const last = T.steps.length;
  const STEPS = {
    N: "up", NE: "up-right", E: "right", SE: "down-right", S: "down", SW: "down-left", W: "left", NW: "up-left",
  };

  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${seats} Robots boards of ${W} by ${H} squares, one per seat`);
  svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
  const layers = [];
  for (let s = 0; s < seats; s++) {
    const frame = svgEl("g", { class: "seat-frame" }, svg);
    const title = svgEl("text", { class: "seat-caption", x: 0, "font-weight": 700, fill: "#111" }, frame);
    const g = svgEl("g", { class: "seat-board", "data-seat": s }, frame);
    layers.push({ frame, g, caption: title });
  }

  /**
   * Lays the boards out in the grid of columns that draws them largest in the room the page
   * gives the board: the stage's width, and the screen's height below the board's top.
   */
  function layout() {
    const room = svg.parentElement.clientWidth;
    const top = svg.getBoundingClientRect().top + window.scrollY;
    const high = Math.max(240, window.innerHeight - top - 12);
    const px = document.body.classList.contains("big") ? CAPTION_PX.big : CAPTION_PX.normal;
    let best = { cols: 1, scale: 0 };
    // Twice: the caption's room in user units depends on the scale it is drawn at.
    for (let pass = 0; pass < 2; pass++) {
      best = { cols: 1, scale: 0 };
      for (let cols = 1; cols <= seats; cols++) {
        const rows = Math.ceil(seats / cols);
        const scale = Math.min(room / (cols * BOARD_W), high / (rows * boardH()));
        if (scale > best.scale) best = { cols, scale };
      }
      caption = (px * 1.5) / best.scale;
    }
    const rows = Math.ceil(seats / best.cols);
    layers.forEach((l, s) => {
      const x = (s % best.cols) * BOARD_W, y = Math.floor(s / best.cols) * boardH();
      l.frame.setAttribute("transform", `translate(${x + PAD / 2},${y})`);
      l.caption.setAttribute("font-size", px / best.scale);
      l.caption.setAttribute("y", caption * 0.72);
      l.g.setAttribute("transform", `translate(0,${caption})`);
    });
    svg.setAttribute("viewBox", `0 0 ${best.cols * BOARD_W} ${rows * boardH()}`);
    svg.style.height = `${Math.ceil(rows * boardH() * best.scale)}px`;
    svg.style.maxHeight = "none";
    svg.style.flex = "none";
  }

  function drawPlayer(g, s, x, y) {
    const [fill, ink] = seatColours(s);
    const p = svgEl("g", { class: "player", "data-seat": s, transform: `translate(${x * C + C / 2},${y * C + C / 2})` }, g);
    svgEl("circle", { r: C * 1.25, fill: "none", stroke: fill, "stroke-width": 5, opacity: 0.9 }, p);
    svgEl("circle", { r: C * 1.25, fill: "none", stroke: "#000", "stroke-width": 1.5 }, p);
    svgEl("circle", { r: C * 0.8, fill, stroke: "#000", "stroke-width": 2.5 }, p);
    svgEl("text", { class: "seat-label", y: 6, "text-anchor": "middle", "font-size": 17, "font-weight": 700, fill: ink }, p).textContent = s + 1;
    return p;
  }
  const drawHeap = (g, x, y) => svgEl("rect", { class: "heap", x: x * C + 2, y: y * C + 2, width: C - 4, height: C - 4, fill: "#7a5c3a", stroke: "#3b2a14", "stroke-width": 1.5 }, g);
  const drawEnemy = (g, x, y) => svgEl("circle", { class: "enemy", cx: x * C + C / 2, cy: y * C + C / 2, r: C * 0.36, fill: "#222" }, g);

  function drawBoard(s, b) {
    const { g, caption } = layers[s];
    g.textContent = "";
    caption.textContent = `${s + 1} ${teamName(s)} · level ${b.level} · score ${b.score}${b.status === "playing" ? "" : " · " + b.status}`;
    svgEl("rect", { x: 0, y: 0, width: W * C, height: H * C, fill: b.status === "playing" ? "#f4f4f4" : "#dcdcdc", stroke: seatColours(s)[0], "stroke-width": 4 }, g);
    for (const [x, y] of b.heaps) drawHeap(g, x, y);
    for (const [x, y] of b.robots) drawEnemy(g, x, y);
    if (b.you) drawPlayer(g, s, b.you[0], b.you[1]);
  }

  const boardsAt = (turn) => (turn === 0 ? T.start : T.steps[turn - 1].boards);

  function showScores(turn) {
    fillScores(boardsAt(turn).map((b, s) => [teamName(s), b.score, b.levels_cleared, b.kills, b.teleports, b.status]));
  }

  /** A move in words: `N` "up", `BNE` "blast up-right", repeats counted ("pass ×4"). */
  function movesInWords(moves) {
    const word = (m) => STEPS[m] || (m[0] === "B" && STEPS[m.slice(1)] ? "blast " + STEPS[m.slice(1)]
      : { P: "pass", L: "last stand", T: "teleport", Q: "quit" }[m] || m);
    const out = [];
    for (const m of moves) {
      const w = word(m);
      const prev = out[out.length - 1];
      if (prev && prev.w === w) prev.n++;
      else out.push({ w, n: 1 });
    }
    return out.map((o) => (o.n > 1 ? `${o.w} \u00d7${o.n}` : o.w)).join(", ");
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
      const text = fault ? `${teamName(s)}: fault, ${m} (a forced pass)` : `${teamName(s)}: ${movesInWords(m)}`;
      lines.push({ text, fault, seat: s });
    });
    fillEvents(`Turn ${T.steps[turn - 1].turn}: moves`, lines, null);
  }

  function show(turn) {
    boardsAt(turn).forEach((b, s) => drawBoard(s, b));
    showScores(turn);
    showMoves(turn);
  }

  // Each sample is drawn by the code that draws the boards, on square (0, 0).
  const SQUARE = [0, 0, C, C];
  fillLegend([
    { box: [-C * 0.8, -C * 0.8, C * 2.6, C * 2.6], draw: (g) => drawPlayer(g, 0, 0, 0), text: "The team's player: its seat's number and colour, ringed" },
    { box: SQUARE, draw: (g) => drawEnemy(g, 0, 0), text: "A robot: steps towards the player after every move" },
    { box: SQUARE, draw: (g) => drawHeap(g, 0, 0), text: "Scrap heap: robots that crash leave one; a robot that runs into it is destroyed" },
    { box: SQUARE, draw: (g) => svgEl("rect", { x: 1, y: 1, width: C - 2, height: C - 2, fill: "#dcdcdc", stroke: seatColours(0)[0], "stroke-width": 3 }, g), text: "Grey board: that team's game is over" },
  ]);

  layout();
  window.addEventListener("resize", layout);
  replayControls({
    last,
    stageMs: 300,
    show,
    label: (turn) => (turn === 0 ? `Start, before turn 1 of ${last}` : turnOf(T.steps[turn - 1].turn, last)),
    async animate(turn, token, ui) {
      ui.setLabel(`${turnOf(T.steps[turn - 1].turn, last)}, playing:`);
      showMoves(turn);
      boardsAt(turn).forEach((b, s) => drawBoard(s, b));
      return ui.wait(ui.frameMs(), token);
    },
  });
})();
