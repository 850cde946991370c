// The replay viewer: draws a Last Robot Standing board and animates a replayed game from the
// data inlined in the page (script#replay-data). No network, no library: it must open from
// file:// on a laptop with no connection. The data format is written by src/report/viewer.rs.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const C = 40; // pixels per square
  const M = 22; // margin for the coordinate labels
  const DIRS = [[0, -1], [1, 0], [0, 1], [-1, 0]]; // N E S W, as the rules number them
  const DIR_NAMES = ["north", "east", "south", "west"];
  const MOVE_NAMES = {
    UTurn: "U-turn", Left: "turn left", Right: "turn right", Back: "back up",
    Forward1: "forward 1", Forward2: "forward 2", Forward3: "forward 3",
  };
  const W = D.board.w, H = D.board.h;
  const svg = document.getElementById("board");
  const last = D.steps.length;

  const cx = (x) => M + x * C + C / 2;
  const cy = (y) => M + y * C + C / 2;
  const seatLabel = (s) => String(s + 1);

  // ---- the board -------------------------------------------------------------------------
  function drawBoard() {
    svg.setAttribute("viewBox", `0 0 ${W * C + 2 * M} ${H * C + 2 * M}`);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `Board ${D.board.name}, ${W} by ${H} squares`);
    const defs = svgEl("defs", {}, svg);
    const marker = svgEl("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: "5", refY: "5", markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" }, defs);
    svgEl("path", { d: "M0,0 L10,5 L0,10 z", fill: "#333" }, marker);
    const tiles = svgEl("g", { id: "tiles" }, svg);
    for (let x = 0; x < W; x++) {
      const t = svgEl("text", { x: cx(x), y: M - 7, "text-anchor": "middle", "font-size": 11, fill: "#444" }, tiles);
      t.textContent = x;
    }
    for (let y = 0; y < H; y++) {
      const t = svgEl("text", { x: M - 5, y: cy(y) + 4, "text-anchor": "end", "font-size": 11, fill: "#444" }, tiles);
      t.textContent = y;
    }
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) drawSquare(tiles, x, y, D.board.sq[y * W + x]);
    // Board laser beams, faint, so the dangerous rows are visible before anything fires.
    const beams = svgEl("g", { id: "laser-paths" }, svg);
    for (const l of D.board.lasers) {
      svgEl("line", { x1: cx(l.x), y1: cy(l.y), x2: cx(l.tx), y2: cy(l.ty), stroke: "#d7191c", "stroke-width": 2, "stroke-dasharray": "4 5", opacity: 0.55 }, beams);
    }
    // Walls last, on top of the squares.
    const walls = svgEl("g", { id: "walls" }, svg);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const w = D.board.sq[y * W + x][3];
      for (let d = 0; d < 4; d++) if (w & (1 << d)) drawWall(walls, x, y, d);
    }
    svgEl("g", { id: "shots" }, svg);
    svgEl("g", { id: "robots" }, svg);
  }

  function drawSquare(g, x, y, sq) {
    const [kind, a, b, , start, ldir, lstr] = sq;
    const x0 = M + x * C, y0 = M + y * C;
    const fills = ["#e9e9e9", "#1b1b1b", "#e9e9e9", "#e9e9e9", b ? "#c9b8e6" : "#c6dbef", "#e9e9e9"];
    const sqEl = svgEl("rect", { x: x0, y: y0, width: C, height: C, fill: fills[kind], stroke: "#b5b5b5", "stroke-width": 1 }, g);
    const title = svgEl("title", {}, sqEl);
    let name = ["floor", "pit", "repair", "flag " + a, (b ? "express belt " : "belt ") + DIR_NAMES[a], a > 0 ? "gear clockwise" : "gear counter-clockwise"][kind];
    if (start) name += ", start " + start;
    title.textContent = `(${x}, ${y}) ${name}`;
    if (kind === 1) {
      svgEl("rect", { x: x0 + 6, y: y0 + 6, width: C - 12, height: C - 12, fill: "#000", stroke: "#444" }, g);
    } else if (kind === 2) {
      svgEl("circle", { cx: cx(x), cy: cy(y), r: C * 0.3, fill: "#fff", stroke: "#1a7f37", "stroke-width": 2.5 }, g);
      svgEl("path", { d: `M${cx(x) - 8},${cy(y)} h16 M${cx(x)},${cy(y) - 8} v16`, stroke: "#1a7f37", "stroke-width": 4 }, g);
    } else if (kind === 3) {
      svgEl("line", { x1: x0 + 12, y1: y0 + 7, x2: x0 + 12, y2: y0 + C - 6, stroke: "#333", "stroke-width": 2 }, g);
      svgEl("path", { d: `M${x0 + 12},${y0 + 7} l18,6 l-18,6 z`, fill: "#c51b7d", stroke: "#333" }, g);
      const t = svgEl("text", { x: x0 + C - 8, y: y0 + C - 6, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: "#111" }, g);
      t.textContent = a;
    } else if (kind === 4) {
      // One chevron per square of speed, pointing the way the belt moves.
      const [dx, dy] = DIRS[a];
      const speeds = b ? [-0.18, 0.12] : [0];
      for (const off of speeds) {
        const px = cx(x) + dx * off * C, py = cy(y) + dy * off * C;
        const s = 0.2 * C;
        const ax = px + dx * s, ay = py + dy * s;
        const lx = px - dx * s + dy * s, ly = py - dy * s - dx * s;
        const rx = px - dx * s - dy * s, ry = py - dy * s + dx * s;
        svgEl("path", { d: `M${lx},${ly} L${ax},${ay} L${rx},${ry}`, fill: "none", stroke: b ? "#3f007d" : "#08519c", "stroke-width": 3.5 }, g);
      }
    } else if (kind === 5) {
      const r = C * 0.3;
      svgEl("circle", { cx: cx(x), cy: cy(y), r: r + 3, fill: "#bdbdbd", stroke: "#555", "stroke-width": 2, "stroke-dasharray": "3 3" }, g);
      const sweep = a > 0 ? 1 : 0;
      const sx = cx(x) - r * 0.8 * (a > 0 ? 1 : -1), sy = cy(y) - r * 0.4;
      const ex = cx(x) + r * 0.8 * (a > 0 ? 1 : -1), ey = cy(y) - r * 0.4;
      svgEl("path", { d: `M${sx},${sy} A${r},${r} 0 1 ${sweep} ${ex},${ey}`, fill: "none", stroke: "#111", "stroke-width": 2.5, "marker-end": "url(#arrowhead)" }, g);
    }
    if (start) {
      const t = svgEl("text", { x: x0 + 3, y: y0 + 12, "font-size": 10, fill: "#333", "font-weight": 600 }, g);
      t.textContent = "S" + start;
    }
    if (ldir >= 0) {
      // The laser's mount sits against the wall behind the beam; one bar per point of damage.
      const [dx, dy] = DIRS[ldir];
      for (let i = 0; i < lstr; i++) {
        const bx = cx(x) - dx * (C / 2 - 3 - i * 4), by = cy(y) - dy * (C / 2 - 3 - i * 4);
        svgEl("line", { x1: bx - dy * 9, y1: by - dx * 9, x2: bx + dy * 9, y2: by + dx * 9, stroke: "#d7191c", "stroke-width": 3 }, g);
      }
    }
  }

  function drawWall(g, x, y, d) {
    const x0 = M + x * C, y0 = M + y * C;
    const seg = [[x0, y0, x0 + C, y0], [x0 + C, y0, x0 + C, y0 + C], [x0, y0 + C, x0 + C, y0 + C], [x0, y0, x0, y0 + C]][d];
    svgEl("line", { x1: seg[0], y1: seg[1], x2: seg[2], y2: seg[3], stroke: "#e0a800", "stroke-width": 7, "stroke-linecap": "square" }, g);
    svgEl("line", { x1: seg[0], y1: seg[1], x2: seg[2], y2: seg[3], stroke: "#3b2a00", "stroke-width": 2 }, g);
  }

  // ---- robots ------------------------------------------------------------------------------
  // A pose is [x, y, facing, status, damage, lives, score, next_flag, power]; status 0 active,
  // 1 destroyed, 2 dead; power 0 up, -1 announced, n powered down with n turns left.
  const robotEls = [];
  // A robot: a disc in its seat's colour with the seat's number, a pointer for its facing, a
  // red badge with its damage, a dashed ring when powered down, a cross when destroyed.
  function robotPiece(parent, s) {
    const [fill, ink] = seatColours(s);
    const r = svgEl("g", { class: "robot", "data-seat": s }, parent);
    const t = svgEl("title", {}, r);
    t.textContent = `${seatLabel(s)}: ${teamName(s)}`;
    const body = svgEl("g", {}, r);
    svgEl("circle", { r: C * 0.36, fill, stroke: "#000", "stroke-width": 2.5 }, body);
    svgEl("path", { d: `M0,${-C * 0.5} L${C * 0.16},${-C * 0.3} L${-C * 0.16},${-C * 0.3} z`, fill: "#000" }, body);
    const ring = svgEl("circle", { r: C * 0.44, fill: "none", stroke: "#000", "stroke-width": 2, "stroke-dasharray": "3 3", visibility: "hidden" }, r);
    const label = svgEl("text", { class: "seat-label", y: 6, "text-anchor": "middle", "font-size": 18, "font-weight": 700, fill: ink }, r);
    label.textContent = seatLabel(s);
    const dmgBg = svgEl("rect", { x: C * 0.1, y: -C * 0.55, width: 18, height: 16, rx: 3, fill: "#b00020", stroke: "#fff", "stroke-width": 1, visibility: "hidden" }, r);
    const dmg = svgEl("text", { x: C * 0.1 + 9, y: -C * 0.55 + 13, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: "#fff", visibility: "hidden" }, r);
    const cross = svgEl("path", { d: `M-12,-12 L12,12 M12,-12 L-12,12`, stroke: "#b00020", "stroke-width": 4, visibility: "hidden" }, r);
    return { g: r, body, ring, dmg, dmgBg, cross };
  }
  function makeRobots() {
    const g = document.getElementById("robots");
    D.seats.forEach((seat, s) => robotEls.push(robotPiece(g, s)));
  }

  // `fade` is set while a robot is being destroyed (1 to 0) or re-entering (0 to 1); a robot
  // that is off the board is not drawn at all.
  function placeRobot(s, x, y, angle, pose, fade) {
    const e = robotEls[s];
    e.g.setAttribute("transform", `translate(${cx(x)},${cy(y)})`);
    e.body.setAttribute("transform", `rotate(${angle})`);
    const status = pose[3];
    const off = status !== 0;
    // `display`, not `visibility`: a child's own visibility would show through a hidden group.
    e.g.setAttribute("display", off && fade === undefined ? "none" : "inline");
    e.g.setAttribute("opacity", fade === undefined ? 1 : Math.max(0.15, fade));
    e.cross.setAttribute("visibility", off ? "visible" : "hidden");
    e.ring.setAttribute("visibility", pose[8] > 0 ? "visible" : "hidden");
    const dmg = pose[4];
    e.dmg.textContent = dmg;
    e.dmg.setAttribute("visibility", dmg > 0 ? "visible" : "hidden");
    e.dmgBg.setAttribute("visibility", dmg > 0 ? "visible" : "hidden");
  }

  function showPoses(poses) {
    poses.forEach((p, s) => placeRobot(s, p[0], p[1], p[2] * 90, p));
  }

  const stateAt = (turn) => (turn === 0 ? D.start : D.steps[turn - 1].r);
  const clone = (poses) => poses.map((p) => p.slice());

  // ---- animation ---------------------------------------------------------------------------
  // Moves every robot from `from` to `to` over one stage (see `replayControls().tween`).
  function tweenPoses(ui, from, to, token) {
    return ui.tween(ui.frameMs(), token, (e, k) => {
      from.forEach((a, s) => {
        const b = to[s];
        if (a[3] !== 0 && b[3] === 0) {
          // Re-entry: appears on its new square.
          return placeRobot(s, b[0], b[1], b[2] * 90, b, k < 1 ? k : undefined);
        }
        if (a[3] !== 0) return placeRobot(s, b[0], b[1], b[2] * 90, b);
        let da = (b[2] - a[2]) * 90;
        if (da > 180) da -= 360;
        if (da < -180) da += 360;
        // Destroyed this stage: moves to where it fell, then fades out.
        const fade = b[3] !== 0 && k < 1 ? 1 - e * 0.7 : undefined;
        const pose = k < 1 ? a.slice(0, 3).concat([b[3]], a.slice(4)) : b;
        placeRobot(s, a[0] + (b[0] - a[0]) * e, a[1] + (b[1] - a[1]) * e, a[2] * 90 + da * e, pose, fade);
      });
    });
  }

  function stageText(f) {
    const st = f[0];
    switch (st[0]) {
      case "card": return `Card: ${teamName(st[1])} (${seatLabel(st[1])}) plays ${MOVE_NAMES[st[2]] || st[2]} (priority ${st[3]})`;
      case "reentry": return "Destroyed robots re-enter";
      case "belts": return st[1] ? "Express belts move" : "All belts move";
      case "gears": return "Gears turn";
      case "lasers": return "Lasers fire";
      default: return st[0];
    }
  }

  function drawShots(shots) {
    const g = document.getElementById("shots");
    g.textContent = "";
    for (const sh of shots) {
      // [shooter (-1 = board), fx, fy, tx, ty, dir, target (-1 = none), strength]
      const [shooter, fx, fy, tx, ty, dir, target] = sh;
      const [dx, dy] = DIRS[dir];
      const startOff = shooter < 0 ? -0.45 : 0.45;
      const endOff = target >= 0 ? -0.2 : 0.45;
      const colour = shooter < 0 ? "#d7191c" : seatColours(shooter)[0];
      const x1 = cx(fx) + dx * startOff * C, y1 = cy(fy) + dy * startOff * C;
      const x2 = cx(tx) + dx * endOff * C, y2 = cy(ty) + dy * endOff * C;
      if (shooter >= 0 && fx === tx && fy === ty && target < 0) continue; // against a wall
      svgEl("line", { class: "shot", x1, y1, x2, y2, stroke: "#000", "stroke-width": 6, opacity: 0.5 }, g);
      svgEl("line", { class: "shot", x1, y1, x2, y2, stroke: colour, "stroke-width": 3.5 }, g);
      if (target >= 0) svgEl("circle", { class: "shot", cx: cx(tx), cy: cy(ty), r: 9, fill: "#ffeb3b", stroke: "#b00020", "stroke-width": 3, opacity: 0.9 }, g);
    }
  }

  async function animateTurn(turn, token, ui) {
    const step = D.steps[turn - 1];
    let poses = clone(stateAt(turn - 1));
    showEvents(turn, true);
    ui.setLabel(`${turnOf(step.t, last)}, playing:`);
    for (const f of step.f) {
      ui.setStage(stageText(f));
      const next = clone(poses);
      for (const m of f[1]) {
        // [seat, x, y, facing, status, damage]
        const p = next[m[0]];
        p[0] = m[1]; p[1] = m[2]; p[2] = m[3]; p[3] = m[4]; p[4] = m[5];
        if (m[4] !== 0) p[8] = 0;
      }
      if (f[2].length) {
        drawShots(f[2]);
        if (!(await ui.wait(ui.frameMs(), token))) return false;
        drawShots([]);
      }
      if (!(await tweenPoses(ui, poses, next, token))) return false;
      poses = next;
    }
    ui.setStage("End of turn: flags, repairs, power");
    return true;
  }

  // ---- panels ------------------------------------------------------------------------------

  function showScores(turn) {
    fillScores(stateAt(turn).map((p, s) => {
      const status = ["on board", "destroyed", "dead"][p[3]] + (p[8] > 0 ? `, down (${p[8]})` : p[8] < 0 ? ", going down" : "");
      return [teamName(s), p[6], p[7] - 1, p[4], p[5], status];
    }));
  }

  const points = (n) => (n === 1 ? "+1 point" : `+${n} points`);
  function eventText(e) {
    // [kind, robot, victim (-1 = none), points, cause, flag]
    const [kind, robot, victim, pts, cause, flag] = e;
    const who = `${teamsOwn(robot)} robot`;
    const whom = victim >= 0 ? `${teamsOwn(victim)} robot` : "";
    switch (kind) {
      case "hit": return `${who} shot ${whom} (${points(pts)})`;
      case "push": return `${who} pushed ${whom} (${points(pts)})`;
      case "push_kill": return `${who} pushed ${whom} to its destruction (${points(pts)})`;
      case "flag": return `${who} reached flag ${flag} (${points(pts)})`;
      case "survivor_bonus": return `${who} is the last robot standing: score doubled (${points(pts)})`;
      case "destroyed": return `${who} was destroyed (${String(cause).replace("_", " ")})`;
      case "timeout": return `${teamName(robot)}: fault, no answer in time (a random card was played)`;
      case "invalid": return `${teamName(robot)}: fault, an invalid answer (a random card was played)`;
      case "crash": return `${teamName(robot)}: fault, the bot crashed or exited (a random card was played)`;
      default: return `${teamName(robot)}: ${kind}`;
    }
  }

  function showEvents(turn) {
    const events = turn === 0 ? D.start_events : D.steps[turn - 1].e;
    fillEvents(
      turn === 0 ? "Before turn 1" : `Turn ${D.steps[turn - 1].t}`,
      events.map((e) => ({ text: eventText(e), kind: e[0], seat: e[1], fault: e[0] === "timeout" || e[0] === "invalid" || e[0] === "crash" })),
      "Nothing scored or faulted.",
    );
  }

  // ---- legend ------------------------------------------------------------------------------
  // Each sample is drawn by the code that draws the board, on square (0, 0).
  const SQUARE = [M, M, C, C];
  const square = (kind, a, b, extra) => (g) => drawSquare(g, 0, 0, [kind, a, b, 0, 0, -1, 0, ...(extra || [])]);
  function robotSample(g, show) {
    const e = robotPiece(g, 0);
    e.g.setAttribute("transform", `translate(${cx(0)},${cy(0)})`);
    show(e);
  }
  function drawLegend() {
    fillLegend([
      { box: SQUARE, draw: square(0, 0, 0), text: "Floor" },
      { box: SQUARE, draw: square(1, 0, 0), text: "Pit: a robot that enters it is destroyed" },
      { box: SQUARE, draw: square(2, 0, 0), text: "Repair square: repairs a point of damage" },
      { box: SQUARE, draw: square(3, 1, 0), text: "Flag and its number: reach them in order" },
      { box: SQUARE, draw: square(4, 1, 0), text: "Belt: moves a robot one square each turn" },
      { box: SQUARE, draw: square(4, 1, 1), text: "Express belt: moves first, then with the belts" },
      { box: SQUARE, draw: square(5, 1, 0), text: "Gear: turns a robot the arrow's way" },
      { box: SQUARE, draw: (g) => { drawSquare(g, 0, 0, [0, 0, 0, 0, 0, -1, 0]); drawWall(g, 0, 0, 1); }, text: "Wall: stops robots and lasers" },
      { box: SQUARE, draw: (g) => { drawSquare(g, 0, 0, [0, 0, 0, 0, 0, 1, 2]); svgEl("line", { x1: cx(0) - C / 2 + 8, y1: cy(0), x2: cx(0) + C / 2, y2: cy(0), stroke: "#d7191c", "stroke-width": 2, "stroke-dasharray": "4 5", opacity: 0.55 }, g); }, text: "Board laser: one red bar per point of damage, its beam dashed" },
      { box: SQUARE, draw: (g) => drawSquare(g, 0, 0, [0, 0, 0, 0, 1, -1, 0]), text: "Start square S1 of seat 1" },
      { box: SQUARE, draw: (g) => robotSample(g, () => {}), text: "Robot: its seat's number and colour, the point shows where it faces" },
      { box: SQUARE, draw: (g) => robotSample(g, (e) => { e.dmg.textContent = 3; e.dmg.setAttribute("visibility", "visible"); e.dmgBg.setAttribute("visibility", "visible"); }), text: "Red badge: the robot's damage" },
      { box: SQUARE, draw: (g) => robotSample(g, (e) => e.ring.setAttribute("visibility", "visible")), text: "Dashed ring: powered down" },
      { box: SQUARE, draw: (g) => robotSample(g, (e) => e.cross.setAttribute("visibility", "visible")), text: "Red cross: destroyed" },
      { box: SQUARE, draw: (g) => { svgEl("line", { x1: M, y1: cy(0), x2: M + C, y2: cy(0), stroke: "#000", "stroke-width": 6, opacity: 0.5 }, g); svgEl("line", { x1: M, y1: cy(0), x2: M + C, y2: cy(0), stroke: seatColours(0)[0], "stroke-width": 3.5 }, g); svgEl("circle", { cx: M + C - 9, cy: cy(0), r: 7, fill: "#ffeb3b", stroke: "#b00020", "stroke-width": 3 }, g); }, text: "A robot's laser shot in its seat's colour, a yellow flash where it hits" },
    ]);
  }

  // ---- wiring ------------------------------------------------------------------------------
  drawBoard();
  makeRobots();
  drawLegend();
  replayControls({
    last,
    stageMs: 420,
    show(turn) {
      showPoses(stateAt(turn));
      drawShots([]);
      showScores(turn);
      showEvents(turn);
    },
    label: (turn) => (turn === 0 ? `Start, before turn 1 of ${last}` : turnOf(D.steps[turn - 1].t, last)),
    animate: animateTurn,
  });
})();
