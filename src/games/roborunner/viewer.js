// The Robo Runner replay viewer: the ship's grid drawn from the trace inlined in the page
// (script#replay-data, written by src/games/roborunner/text.rs), a step per turn: the grid
// tokens, the hull's welds left, robots as discs (virtual ones faded) with their facing,
// and the turn's events. No network, no library: it opens from file://.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const T = D.trace;
  const S = T.ship;
  const C = 40;
  const svg = document.getElementById("board");
  const last = T.steps.length - 1;
  const ANGLE = { N: 0, E: 90, S: 180, W: 270 };
  svg.setAttribute("viewBox", `0 0 ${S.width * C + 2} ${S.height * C + 2}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Robo Runner ship ${S.name}, ${S.width} by ${S.height} squares`);

  function fillOf(token) {
    const b = token.replace(/\[.*$/, "");
    if (b === "~") return "#0b1030";
    if (b === "P") return "#222";
    if (b[0] === "L") return "#6b5a9e";
    if (b[0] === "T" || b[0] === "t") return "#c6dcf2";
    if (b[0] === "X") return "#f2d0f0";
    if (b[0] === "I") return "#ffe680";
    if (b[0] === "R") return "#b8e6b8";
    if (b === "H") return "#f5b38a";
    if (b === "A") return "#fff";
    return "#e8e8e8";
  }
  const tiles = svgEl("g", { transform: "translate(1,1)" }, svg);
  const marks = svgEl("g", { transform: "translate(1,1)" }, svg);
  const pieces = svgEl("g", { id: "robots", transform: "translate(1,1)" }, svg);
  S.cells.forEach((token, i) => {
    const x = (i % S.width) * C;
    const y = Math.floor(i / S.width) * C;
    svgEl("rect", { x, y, width: C, height: C, fill: fillOf(token), stroke: "#999", "stroke-width": 0.5 }, tiles);
    const base = token.replace(/\[.*$/, "");
    if (base !== "." && base !== "~") {
      svgEl("text", { x: x + C / 2, y: y + C / 2 + 5, "text-anchor": "middle", "font-size": 12, fill: "#333" }, tiles).textContent = base;
    }
    const sides = /\[(.*)\]/.exec(token);
    if (sides) {
      for (const m of sides[1].matchAll(/([NESW])([^NESW]*)/g)) {
        const [x1, y1, x2, y2] = { N: [x, y, x + C, y], S: [x, y + C, x + C, y + C], W: [x, y, x, y + C], E: [x + C, y, x + C, y + C] }[m[1]];
        const colour = m[2] === "!" ? "#e00" : m[2] === "d" ? "#080" : m[2] ? "#c90" : "#c60";
        svgEl("line", { x1, y1, x2, y2, stroke: colour, "stroke-width": 4, "stroke-dasharray": /\d/.test(m[2]) ? "5 3" : "" }, tiles);
      }
    }
  });

  function show(turn) {
    const step = T.steps[turn];
    pieces.textContent = "";
    marks.textContent = "";
    const ips = [];
    S.cells.forEach((token, i) => { const m = /^I(\d)/.exec(token); if (m) ips[Number(m[1])] = i; });
    for (const h of step.hull) {
      if (h.repairs > 0 && ips[h.ip] !== undefined) {
        const i = ips[h.ip];
        svgEl("text", { x: (i % S.width) * C + C - 4, y: Math.floor(i / S.width) * C + 12, "text-anchor": "end", "font-size": 11, fill: "#c00" }, marks).textContent = "\u2716" + h.repairs;
      }
    }
    for (const r of step.robots) {
      if (r.status !== "active") continue;
      const [fill] = seatColours(r.seat);
      const g = svgEl("g", { class: "robot", "data-seat": r.seat, opacity: r.virtual ? 0.45 : 1, transform: `translate(${r.x * C + C / 2},${r.y * C + C / 2})` }, pieces);
      svgEl("title", {}, g).textContent = `${teamName(r.seat)}: damage ${r.damage}, lives ${r.lives}, rank ${r.rank}${r.virtual ? ", virtual" : ""}`;
      svgEl("circle", { r: C * 0.32, fill, stroke: "#000", "stroke-width": 1.5 }, g);
      svgEl("path", { d: `M0,${-C * 0.46} L${C * 0.12},${-C * 0.3} L${-C * 0.12},${-C * 0.3} Z`, fill: "#000", transform: `rotate(${ANGLE[r.facing]})` }, g);
      svgEl("text", { y: 5, "text-anchor": "middle", "font-size": 13, "font-weight": 700 }, g).textContent = String(r.seat + 1);
    }
    fillScores(step.robots.map((r) => [teamName(r.seat), r.score, `${r.next_ip - 1}/${r.ips}`, r.damage, r.lives, r.rank, r.status + (r.virtual ? " (virtual)" : "")]));
    fillEvents(`Events of turn ${step.turn}`, step.events.map((e) => ({
      text: `phase ${e.phase}: ${e.kind}` + Object.entries(e).filter(([k]) => !["turn", "phase", "kind", "robot"].includes(k)).map(([k, v]) => ` ${k} ${JSON.stringify(v)}`).join(""),
      kind: e.kind, seat: e.robot, fault: ["timeout", "crash", "invalid"].includes(e.kind),
    })), "Nothing happened.");
  }
  fillLegend([]);
  replayControls({
    last,
    stageMs: 400,
    show,
    label: (turn) => `Turn ${T.steps[turn].turn} (after it)`,
    animate: async (target, token, api) => api.wait(api.frameMs(), token),
  });
})();
