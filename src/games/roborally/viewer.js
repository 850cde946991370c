// The RoboRally replay viewer: the board drawn from the trace inlined in the page
// (script#replay-data, written by src/games/roborally/text.rs), a step per register. Playing
// a register animates it stage by stage: each card in priority order, the fast and slow
// belts, the gears, the board lasers and the robot lasers (their beams drawn), then targets
// and repair. No network, no library: it must open from file:// on a laptop with no
// connection.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const T = D.trace;
  const B = T.board;
  const C = 40; // pixels per square
  const MAX_HP = 9; // a robot's hit points when whole (docs/roborally.md)
  const svg = document.getElementById("board");
  const last = T.steps.length - 1;
  const turns = T.steps[last].turn;
  const ARROW = { N: "\u2191", E: "\u2192", S: "\u2193", W: "\u2190" };
  const ANGLE = { N: 0, E: 90, S: 180, W: 270 };
  const DELTA = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
  const OPPOSITE = { N: "S", E: "W", S: "N", W: "E" };
  const STAGES = {
    card: "A card is played", "fast belts": "Fast belts move", "slow belts": "All belts move",
    gears: "Gears turn", "board lasers": "Board lasers fire", "robot lasers": "Robots fire their lasers",
  };
  const at = (x, y) => B.squares[y * B.width + x];
  const inside = (x, y) => x >= 0 && y >= 0 && x < B.width && y < B.height;

  svg.setAttribute("viewBox", `0 0 ${B.width * C + 2} ${B.height * C + 2}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `RoboRally board ${B.name}, ${B.width} by ${B.height} squares`);

  function drawSquare(g, q, x, y) {
    const fill = { floor: "#e8e8e8", pit: "#111", repair: "#b8e6b8", flag: "#ffe680", finish: "#fff",
      belt: q.speed === 2 ? "#7fb0e0" : "#c6dcf2", gear_cw: "#d9c9ef", gear_ccw: "#d9c9ef", gear_u: "#d9c9ef" }[q.type];
    svgEl("rect", { x, y, width: C, height: C, fill, stroke: "#999", "stroke-width": 0.5 }, g);
    const label = q.type === "belt" ? (q.speed === 2 ? ARROW[q.dir] + ARROW[q.dir] : ARROW[q.dir])
      : q.type === "repair" ? "R" + q.repair : q.type === "flag" ? "F" + q.flag : q.type === "finish" ? "H"
        : q.type === "gear_cw" ? "\u21bb" : q.type === "gear_ccw" ? "\u21ba" : q.type === "gear_u" ? "U" : q.start ? "S" + q.start : "";
    if (label) svgEl("text", { x: x + C / 2, y: y + C / 2 + 6, "text-anchor": "middle", "font-size": 16, "font-weight": 600, fill: "#333" }, g).textContent = label;
    if (q.type === "finish") svgEl("rect", { x: x + 3, y: y + 3, width: C - 6, height: C - 6, fill: "none", stroke: "#000", "stroke-width": 2, "stroke-dasharray": "4 3" }, g);
    for (const w of q.walls) {
      const [x1, y1, x2, y2] = { N: [x, y, x + C, y], S: [x, y + C, x + C, y + C], W: [x, y, x, y + C], E: [x + C, y, x + C, y + C] }[w];
      svgEl("line", { x1, y1, x2, y2, stroke: "#c60", "stroke-width": 4 }, g);
    }
    if (q.laser) {
      svgEl("text", { x: x + 3, y: y + 12, "font-size": 11, "font-weight": 700, fill: "#c00" }, g).textContent = "\u26a1" + q.laser.strength + ARROW[q.laser.dir];
    }
  }
  const tiles = svgEl("g", { id: "tiles", transform: "translate(1,1)" }, svg);
  for (const q of B.squares) drawSquare(tiles, q, q.x * C, q.y * C);
  const pieces = svgEl("g", { id: "robots", transform: "translate(1,1)" }, svg);
  const beams = svgEl("g", { id: "beams", transform: "translate(1,1)" }, svg); // over the robots

  /** A robot: a disc with its seat's number, a pointer for its facing, a bar of its hp. */
  function robotPiece(g, s, x, y, f, hp) {
    const [fill, ink] = seatColours(s);
    const p = svgEl("g", { class: "robot", "data-seat": s, transform: `translate(${x},${y})` }, g);
    svgEl("title", {}, p).textContent = `${teamName(s)} (seat ${s + 1}), ${hp} hp`;
    svgEl("circle", { cy: -C * 0.05, r: C * 0.34, fill, stroke: "#000", "stroke-width": 1.5 }, p);
    svgEl("path", { d: `M0,${-C * 0.5} L${C * 0.13},${-C * 0.32} L${-C * 0.13},${-C * 0.32} Z`, fill: "#000", transform: `rotate(${ANGLE[f]})` }, p);
    svgEl("text", { class: "seat-label", y: 5, "text-anchor": "middle", "font-size": 18, "font-weight": 700, fill: ink }, p).textContent = s + 1;
    const w = C * 0.8;
    svgEl("rect", { class: "hp-back", x: -w / 2, y: C * 0.33, width: w, height: 5, fill: "#fff", stroke: "#000", "stroke-width": 1 }, p);
    const k = Math.max(0, Math.min(1, hp / MAX_HP));
    svgEl("rect", { class: "hp-bar", x: -w / 2, y: C * 0.33, width: w * k, height: 5, fill: k > 0.5 ? "#1a7f37" : k > 0.2 ? "#e69f00" : "#b00020" }, p);
    return p;
  }

  /** `[x, y, facing, hp]` of a robot, from either form of the trace; null off the board. */
  function pose(r) {
    if (r === null || (!Array.isArray(r) && r.x === null)) return null;
    return Array.isArray(r) ? r : [r.x, r.y, r.facing, r.hp];
  }

  /** Draws robots `rs` (null off the board), moved `k` (0 to 1) from `from` when given. */
  function drawRobots(rs, from, k) {
    pieces.textContent = "";
    rs.forEach((r, s) => {
      const b = pose(r);
      if (b === null) return;
      const a = from && pose(from[s]) ? pose(from[s]) : b;
      const x = a[0] + (b[0] - a[0]) * (k === undefined ? 1 : k), y = a[1] + (b[1] - a[1]) * (k === undefined ? 1 : k);
      robotPiece(pieces, s, x * C + C / 2, y * C + C / 2, b[2], b[3]);
    });
  }

  /** Whether a wall stops anything leaving (x, y) towards `d`. */
  const blocked = (x, y, d) => {
    const [dx, dy] = DELTA[d];
    return at(x, y).walls.includes(d) || (inside(x + dx, y + dy) && at(x + dx, y + dy).walls.includes(OPPOSITE[d]));
  };

  /**
   * The beams of one volley as the rules fire them (RR8.2, RR8.3), from the robots where the
   * stage before left them: `[x1, y1, x2, y2, hit, seat]`, seat -1 for the board's lasers.
   */
  function volley(robots, board, powers) {
    const poses = robots.map(pose);
    const occupied = (x, y) => poses.some((p) => p !== null && p[0] === x && p[1] === y);
    const out = [];
    if (board) {
      for (const q of B.squares) {
        if (!q.laser) continue;
        const d = q.laser.dir, [dx, dy] = DELTA[d];
        let x = q.x, y = q.y, hit = occupied(x, y);
        while (!hit && !blocked(x, y, d) && inside(x + dx, y + dy)) {
          x += dx; y += dy;
          hit = occupied(x, y);
        }
        out.push([q.x - dx * 0.45, q.y - dy * 0.45, x, y, hit, -1]);
      }
    } else {
      poses.forEach((p, s) => {
        if (p === null || powers[s] === "down") return;
        const d = p[2], [dx, dy] = DELTA[d];
        let x = p[0], y = p[1], hit = false;
        while (!hit && !blocked(x, y, d) && inside(x + dx, y + dy)) {
          x += dx; y += dy;
          hit = occupied(x, y);
        }
        if (x !== p[0] || y !== p[1]) out.push([p[0] + dx * 0.4, p[1] + dy * 0.4, x, y, hit, s]);
      });
    }
    return out;
  }

  /** The beams a register fired, by its stages: each volley from the robots before it. */
  function registerBeams(step) {
    const powers = step.robots.map((r) => r.power);
    const out = [];
    step.stages.forEach((st, i) => {
      if (i === 0 || !(st.stage === "board lasers" || st.stage === "robot lasers")) return;
      out.push(...volley(step.stages[i - 1].robots, st.stage === "board lasers", powers));
    });
    return out;
  }

  function drawBeams(list, onlyHits) {
    beams.textContent = "";
    for (const [x1, y1, x2, y2, hit, seat] of list) {
      if (onlyHits && !hit) continue;
      const colour = seat < 0 ? "#d7191c" : seatColours(seat)[0];
      const line = { x1: x1 * C + C / 2, y1: y1 * C + C / 2, x2: x2 * C + C / 2, y2: y2 * C + C / 2 };
      const cls = hit ? "beam hit" : "beam";
      svgEl("line", { ...line, stroke: "#000", "stroke-width": 6, opacity: 0.45 }, beams);
      svgEl("line", { ...line, class: cls, stroke: colour, "stroke-width": 3.5 }, beams);
      if (hit) svgEl("circle", { cx: x2 * C + C / 2, cy: y2 * C + C / 2, r: 8, fill: "#ffeb3b", stroke: "#b00020", "stroke-width": 3, opacity: 0.9 }, beams);
    }
  }

  const CAUSES = { pit: "fell into a pit", off_board: "fell off the board", laser: "was destroyed by lasers" };
  function eventText(e) {
    const s = Number(e.robot);
    const who = `${teamsOwn(s)} robot`;
    const whom = e.victim !== undefined ? `${teamsOwn(Number(e.victim))} robot` : "";
    let text;
    switch (e.kind) {
      case "push": text = `${who} pushed ${whom}`; break;
      case "hit": text = `${who} shot ${whom} for 1 hp`; break;
      case "board_hit": text = `A board laser hit ${who} for ${e.damage} hp`; break;
      case "destroyed": text = `${who} ${CAUSES[e.cause] || "was destroyed (" + e.cause + ")"}`; break;
      case "checkpoint": text = `${who} reached flag ${e.flag}`; break;
      case "finish": text = `${who} reached the finish`; break;
      case "repair": text = `${who} was repaired (+${e.hp} hp)`; break;
      default: text = `${teamName(s)}: fault, ${String(e.kind).replace("_", " ")}`;
    }
    return { text, kind: e.kind, seat: s, fault: ["timeout", "invalid", "crash"].includes(e.kind) };
  }

  function show(turn) {
    const step = T.steps[turn];
    drawRobots(step.robots);
    drawBeams(registerBeams(step), true);
    fillScores(step.robots.map((r, s) => [teamName(s), step.scores[s], r.checkpoints + (r.finished ? " + finish" : ""),
      r.hp, r.lives, r.locked.map((c) => c || "-").join(" "), r.power === "up" ? r.status : `${r.status}, ${r.power}`]));
    fillEvents(step.register === 0 ? `Turn ${step.turn}: start` : `Turn ${step.turn}, register ${step.register}`,
      step.events.map(eventText), "Nothing happened.");
  }

  const label = (turn) => {
    const s = T.steps[turn];
    return `${turnOf(s.turn, turns)}, ${s.register === 0 ? "start" : "register " + s.register}`;
  };

  // Each sample is drawn by the code that draws the board.
  const SQUARE = [0, 0, C, C];
  const square = (q) => (g) => drawSquare(g, { walls: [], ...q }, 0, 0);
  fillLegend([
    { box: SQUARE, draw: square({ type: "floor" }), text: "Floor" },
    { box: SQUARE, draw: square({ type: "pit" }), text: "Pit: a robot that enters it is destroyed" },
    { box: SQUARE, draw: square({ type: "flag", flag: 1 }), text: "Flag F1: reach the flags in order" },
    { box: SQUARE, draw: square({ type: "finish" }), text: "H: the finish, after the last flag" },
    { box: SQUARE, draw: square({ type: "repair", repair: 1 }), text: "Repair square: +1 hp after each register" },
    { box: SQUARE, draw: square({ type: "belt", speed: 1, dir: "E" }), text: "Belt: moves a robot one square" },
    { box: SQUARE, draw: square({ type: "belt", speed: 2, dir: "E" }), text: "Fast belt: moves a robot two squares" },
    { box: SQUARE, draw: square({ type: "gear_cw" }), text: "Gear: turns a robot right (\u21bb), left (\u21ba) or round (U)" },
    { box: SQUARE, draw: square({ type: "floor", walls: ["E"] }), text: "Wall: stops robots and lasers" },
    { box: SQUARE, draw: square({ type: "floor", laser: { dir: "E", strength: 1 } }), text: "Board laser: its damage and the way it fires" },
    { box: SQUARE, draw: square({ type: "floor", start: 1 }), text: "S1: start square of seat 1" },
    { box: [-C / 2, -C / 2, C, C], draw: (g) => robotPiece(g, 0, 0, 0, "N", MAX_HP), text: "Robot: its seat's number and colour, the point shows where it faces" },
    { box: [-C / 2, -C / 2, C, C], draw: (g) => robotPiece(g, 0, 0, 0, "N", 4), text: "Bar: its hp (full: 9), amber under half, red under a fifth" },
    { box: SQUARE, draw: (g) => { svgEl("line", { x1: 0, y1: C / 2, x2: C, y2: C / 2, stroke: "#d7191c", "stroke-width": 3.5 }, g); svgEl("circle", { cx: C - 8, cy: C / 2, r: 7, fill: "#ffeb3b", stroke: "#b00020", "stroke-width": 3 }, g); }, text: "Laser beam (a robot's in its seat's colour), a yellow flash where it hits" },
    { box: SQUARE, draw: (g) => svgEl("circle", { cx: C / 2, cy: C / 2, r: C * 0.4, fill: "none", stroke: "#e0a800", "stroke-width": 5 }, g), text: "Gold ring while playing: a flag or the finish reached (green: repaired)" },
  ]);

  replayControls({
    last,
    stageMs: 250,
    show,
    label,
    async animate(turn, token, ui) {
      const step = T.steps[turn];
      const powers = step.robots.map((r) => r.power);
      ui.setLabel(label(turn) + ", playing:");
      drawBeams([]);
      let before = T.steps[turn - 1].robots;
      for (const st of step.stages) {
        ui.setStage(STAGES[st.stage] || st.stage);
        if (st.stage === "board lasers" || st.stage === "robot lasers") {
          drawBeams(volley(before, st.stage === "board lasers", powers), false);
          if (!(await ui.wait(ui.frameMs(), token))) return false;
          drawBeams([]);
          drawRobots(st.robots);
        } else {
          const from = before;
          if (!(await ui.tween(ui.frameMs(), token, (e) => drawRobots(st.robots, from, e)))) return false;
        }
        before = st.robots;
      }
      // Flags, the finish and repairs: a ring on each robot they concern, for one stage.
      const marks = step.events.filter((e) => ["checkpoint", "finish", "repair"].includes(e.kind));
      if (!marks.length) return true;
      ui.setStage("Flags, the finish and repairs");
      drawRobots(step.robots);
      for (const e of marks) {
        const p = pose(step.robots[Number(e.robot)]);
        if (p === null) continue;
        const colour = e.kind === "repair" ? "#1a7f37" : "#e0a800";
        svgEl("circle", { class: "mark", cx: p[0] * C + C / 2, cy: p[1] * C + C / 2, r: C * 0.48, fill: "none", stroke: colour, "stroke-width": 5 }, beams);
      }
      const done = await ui.wait(ui.frameMs(), token);
      drawBeams([]);
      return done;
    },
  });
})();
