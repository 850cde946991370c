// The RoboRally replay viewer: the board drawn from the trace inlined in the page
// (script#replay-data, written by src/games/roborally/text.rs), a step per register. Playing
// a register animates it stage by stage: each card in priority order, the fast and slow
// belts, the gears, the board lasers, the robot lasers, then targets and repair. No network,
// no library: it must open from file:// on a laptop with no connection.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const T = D.trace;
  const B = T.board;
  const C = 40; // pixels per square
  const svg = document.getElementById("board");
  const last = T.steps.length - 1;
  const seatName = (s) => (D.seats[s] ? D.seats[s] : "seat " + (s + 1));
  const ARROW = { N: "\u2191", E: "\u2192", S: "\u2193", W: "\u2190" };
  const ANGLE = { N: 0, E: 90, S: 180, W: 270 };

  svg.setAttribute("viewBox", `0 0 ${B.width * C + 2} ${B.height * C + 2}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `RoboRally board ${B.name}, ${B.width} by ${B.height} squares`);
  const tiles = svgEl("g", { id: "tiles", transform: "translate(1,1)" }, svg);
  for (const q of B.squares) {
    const x = q.x * C, y = q.y * C;
    const fill = { floor: "#e8e8e8", pit: "#111", repair: "#b8e6b8", flag: "#ffe680", finish: "#fff",
      belt: q.speed === 2 ? "#7fb0e0" : "#c6dcf2", gear_cw: "#d9c9ef", gear_ccw: "#d9c9ef", gear_u: "#d9c9ef" }[q.type];
    svgEl("rect", { x, y, width: C, height: C, fill, stroke: "#999", "stroke-width": 0.5 }, tiles);
    const label = q.type === "belt" ? (q.speed === 2 ? ARROW[q.dir] + ARROW[q.dir] : ARROW[q.dir])
      : q.type === "repair" ? "R" + q.repair : q.type === "flag" ? "F" + q.flag : q.type === "finish" ? "H"
      : q.type === "gear_cw" ? "\u21bb" : q.type === "gear_ccw" ? "\u21ba" : q.type === "gear_u" ? "U" : q.start ? "S" + q.start : "";
    if (label) svgEl("text", { x: x + C / 2, y: y + C / 2 + 5, "text-anchor": "middle", "font-size": 13, fill: "#333" }, tiles).textContent = label;
    if (q.type === "finish") svgEl("rect", { x: x + 3, y: y + 3, width: C - 6, height: C - 6, fill: "none", stroke: "#000", "stroke-width": 2, "stroke-dasharray": "4 3" }, tiles);
    for (const w of q.walls) {
      const [x1, y1, x2, y2] = { N: [x, y, x + C, y], S: [x, y + C, x + C, y + C], W: [x, y, x, y + C], E: [x + C, y, x + C, y + C] }[w];
      svgEl("line", { x1, y1, x2, y2, stroke: "#c60", "stroke-width": 4 }, tiles);
    }
    if (q.laser) {
      svgEl("text", { x: x + 3, y: y + 12, "font-size": 10, fill: "#c00" }, tiles).textContent = "\u26a1" + q.laser.strength + ARROW[q.laser.dir];
    }
  }
  const pieces = svgEl("g", { id: "robots", transform: "translate(1,1)" }, svg);

  /** Draws robots `rs` ([x, y, facing, hp] or {x, y, facing, hp}; null off the board). */
  function drawRobots(rs) {
    pieces.textContent = "";
    rs.forEach((r, s) => {
      if (r === null || r.x === null || r.x === undefined && !Array.isArray(r)) return;
      const [x, y, f, hp] = Array.isArray(r) ? r : [r.x, r.y, r.facing, r.hp];
      const [fill, ink] = seatColours(s);
      const g = svgEl("g", { class: "robot", "data-seat": s, transform: `translate(${x * C + C / 2},${y * C + C / 2})` }, pieces);
      svgEl("circle", { r: C * 0.36, fill, stroke: "#000", "stroke-width": 1.5 }, g);
      svgEl("path", { d: `M0,${-C * 0.48} L${C * 0.12},${-C * 0.3} L${-C * 0.12},${-C * 0.3} Z`, fill: "#000", transform: `rotate(${ANGLE[f]})` }, g);
      svgEl("text", { y: 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: ink }, g).textContent = s + 1;
      svgEl("text", { y: C * 0.48, "text-anchor": "middle", "font-size": 9, fill: "#000" }, g).textContent = hp + "hp";
    });
  }

  function eventText(e) {
    const who = (s) => `${Number(s) + 1} ${seatName(Number(s))}`;
    const extra = e.victim !== undefined ? ` ${who(e.victim)}` : e.cause ? ` (${e.cause})` : e.damage ? ` -${e.damage} hp`
      : e.flag ? ` flag ${e.flag}` : e.hp ? ` +${e.hp} hp` : "";
    return { text: `${who(e.robot)}: ${e.kind}${extra}`, kind: e.kind, fault: ["timeout", "invalid", "crash"].includes(e.kind) };
  }

  function show(turn) {
    const step = T.steps[turn];
    drawRobots(step.robots);
    fillScores(step.robots.map((r, s) => [seatName(s), step.scores[s], r.checkpoints + (r.finished ? " + finish" : ""),
      r.hp, r.lives, r.locked.map((c) => c || "-").join(" "), r.power === "up" ? r.status : `${r.status}, ${r.power}`]));
    fillEvents(step.register === 0 ? `Turn ${step.turn}: start` : `Turn ${step.turn}, register ${step.register}`,
      step.events.map(eventText), "Nothing happened.");
  }

  const label = (turn) => {
    const s = T.steps[turn];
    return `Turn ${s.turn}, ${s.register === 0 ? "start" : "register " + s.register} (${turn} / ${last})`;
  };

  replayControls({
    last,
    stageMs: 250,
    show,
    label,
    async animate(turn, token, ui) {
      ui.setLabel(label(turn) + ", playing:");
      for (const st of T.steps[turn].stages) {
        ui.setStage(st.stage);
        drawRobots(st.robots);
        if (!(await ui.wait(ui.frameMs(), token))) return false;
      }
      ui.setStage("targets and repair");
      return true;
    },
  });
})();
