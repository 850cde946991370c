// The RobotGame replay viewer: draws the round arena and animates a replayed game from the
// trace inlined in the page (script#replay-data, written by src/games/robotgame/trace.rs).
// No network, no library: it must open from file:// on a laptop with no connection.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const T = D.trace;
  const N = T.arena.size;
  const C = 32; // pixels per square
  const M = 20; // margin for the coordinate labels
  const DIRS = [[0, -1], [1, 0], [0, 1], [-1, 0]];
  const MAX_HP = 50; // a robot's hit points when it spawns (RG1)
  // Every robot is a disc in its seat's colour with the seat's number, and a bar of its hit
  // points under it.
  const svg = document.getElementById("board");
  const last = T.steps.length;

  const cx = (x) => M + x * C + C / 2;
  const cy = (y) => M + y * C + C / 2;

  function drawArena() {
    svg.setAttribute("viewBox", `0 0 ${N * C + 2 * M} ${N * C + 2 * M}`);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `The RobotGame arena, ${N} by ${N} squares`);
    const g = svgEl("g", { id: "tiles" }, svg);
    const blocked = new Set(T.arena.obstacles.map(([x, y]) => `${x},${y}`));
    const spawn = new Set(T.arena.spawn.map(([x, y]) => `${x},${y}`));
    for (let i = 0; i < N; i++) {
      svgEl("text", { x: cx(i), y: M - 6, "text-anchor": "middle", "font-size": 10, fill: "#444" }, g).textContent = i;
      svgEl("text", { x: M - 4, y: cy(i) + 4, "text-anchor": "end", "font-size": 10, fill: "#444" }, g).textContent = i;
    }
    for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) {
      const key = `${x},${y}`;
      const fill = blocked.has(key) ? "#3d3d3d" : spawn.has(key) ? "#d6e4f5" : "#ececec";
      const r = svgEl("rect", { x: M + x * C, y: M + y * C, width: C, height: C, fill, stroke: "#bdbdbd", "stroke-width": 1 }, g);
      svgEl("title", {}, r).textContent = `(${x}, ${y}) ${blocked.has(key) ? "obstacle" : spawn.has(key) ? "spawn square" : "floor"}`;
      if (spawn.has(key)) svgEl("circle", { cx: cx(x), cy: cy(y), r: 3, fill: "#6b8fbf" }, g);
    }
    svgEl("g", { id: "effects" }, svg);
    svgEl("g", { id: "robots" }, svg);
  }

  // Robots by id: a group with a disc, the seat's number and a bar of its hit points.
  const BAR = C * 0.84; // the hit-point bar's full width
  function robotPiece(parent, seat, id) {
    const [fill, ink] = seatColours(seat);
    const g = svgEl("g", { class: "robot", "data-seat": seat, "data-id": id }, parent);
    svgEl("title", {}, g).textContent = `robot ${id} of ${teamName(seat)} (seat ${seat + 1})`;
    const ring = svgEl("circle", { r: C * 0.49, fill: "none", stroke: "#000", "stroke-width": 2.5, "stroke-dasharray": "4 2", display: "none" }, g);
    svgEl("circle", { cy: -C * 0.06, r: C * 0.36, fill, stroke: "#000", "stroke-width": 2 }, g);
    svgEl("text", { class: "seat-label", y: C * 0.1, "text-anchor": "middle", "font-size": 16, "font-weight": 700, fill: ink }, g).textContent = seat + 1;
    svgEl("rect", { class: "hp-back", x: -BAR / 2, y: C * 0.3, width: BAR, height: 5, fill: "#fff", stroke: "#000", "stroke-width": 1 }, g);
    const bar = svgEl("rect", { class: "hp-bar", x: -BAR / 2, y: C * 0.3, width: BAR, height: 5, fill: "#1a7f37" }, g);
    return { g, bar, ring };
  }
  const robotEls = new Map();
  function robotEl(r) {
    let e = robotEls.get(r.id);
    if (e) return e;
    e = robotPiece(document.getElementById("robots"), r.seat, r.id);
    robotEls.set(r.id, e);
    return e;
  }

  /** Draws `e`'s bar for `hp` hit points: green, amber under half, red under a fifth. */
  function showHp(e, hp) {
    const k = Math.max(0, Math.min(1, hp / MAX_HP));
    e.bar.setAttribute("width", BAR * k);
    e.bar.setAttribute("fill", k > 0.5 ? "#1a7f37" : k > 0.2 ? "#e69f00" : "#b00020");
  }

  function place(r, x, y, opacity) {
    const e = robotEl(r);
    e.g.setAttribute("transform", `translate(${cx(x)},${cy(y)})`);
    e.g.setAttribute("opacity", opacity);
    e.g.setAttribute("display", "inline");
    showHp(e, r.hp);
  }

  const stateAt = (turn) => (turn === 0 ? [] : T.steps[turn - 1].robots);

  function show(robots) {
    const alive = new Set(robots.map((r) => r.id));
    for (const [id, e] of robotEls) if (!alive.has(id)) e.g.setAttribute("display", "none");
    for (const r of robots) {
      place(r, r.x, r.y, 1);
      robotEl(r).ring.setAttribute("display", "none");
    }
  }

  async function animateTurn(turn, token, ui) {
    const step = T.steps[turn - 1];
    const before = new Map(stateAt(turn - 1).map((r) => [r.id, r]));
    const after = new Map(step.robots.map((r) => [r.id, r]));
    const orders = new Map(step.orders.map((o) => [o.robot, o]));
    ui.setLabel(`${turnOf(step.turn, last)}, playing:`);
    showEvents(turn);
    // Guards wear a ring for the turn.
    for (const [id, o] of orders) {
      const e = robotEls.get(id);
      if (e && before.has(id)) e.ring.setAttribute("display", o.action === "guard" ? "inline" : "none");
    }
    // 1. Moves (robots that stay keep their square; dead ones are removed later).
    ui.setStage("Robots move");
    const ok = await ui.tween(ui.frameMs(), token, (e) => {
      for (const [id, a] of before) {
        const b = after.get(id);
        const to = b || a;
        place({ ...a, hp: a.hp }, a.x + (to.x - a.x) * e, a.y + (to.y - a.y) * e, 1);
      }
    });
    if (!ok) return false;
    // 2. Attacks and suicides.
    const fx = document.getElementById("effects");
    const shots = step.orders.filter((o) => o.action === "attack" && before.has(o.robot));
    const blasts = step.orders.filter((o) => o.action === "suicide" && before.has(o.robot));
    if (shots.length || blasts.length) {
      ui.setStage("Attacks and suicides");
      for (const o of shots) {
        const r = after.get(o.robot) || before.get(o.robot);
        const [dx, dy] = DIRS[o.dir];
        const colour = seatColours(r.seat)[0];
        svgEl("line", { class: "shot", x1: cx(r.x), y1: cy(r.y), x2: cx(r.x + dx * 0.9), y2: cy(r.y + dy * 0.9), stroke: "#000", "stroke-width": 6 }, fx);
        svgEl("line", { class: "shot", x1: cx(r.x), y1: cy(r.y), x2: cx(r.x + dx * 0.9), y2: cy(r.y + dy * 0.9), stroke: colour, "stroke-width": 3.5 }, fx);
      }
      for (const o of blasts) {
        const r = before.get(o.robot);
        svgEl("circle", { class: "blast", cx: cx(r.x), cy: cy(r.y), r: C * 1.4, fill: "#d7191c", opacity: 0.35, stroke: "#8a0000", "stroke-width": 2 }, fx);
      }
      if (!(await ui.wait(ui.frameMs(), token))) return false;
      fx.textContent = "";
    }
    // 3. Deaths fade out, spawns fade in.
    const spawned = step.robots.filter((r) => !before.has(r.id));
    const dead = [...before.values()].filter((r) => !after.has(r.id));
    if (spawned.length || dead.length) {
      ui.setStage(spawned.length ? "Removals, then spawns" : "Destroyed robots are removed");
      const done = await ui.tween(ui.frameMs(), token, (e) => {
        for (const r of dead) place(r, r.x, r.y, 1 - e);
        for (const r of spawned) place(r, r.x, r.y, e);
      });
      if (!done) return false;
    }
    return true;
  }


  function showScores(turn) {
    const stats = turn === 0 ? D.seats.map(() => ({ score: 0, damage_dealt: 0, kills: 0, faults: 0 })) : T.steps[turn - 1].stats;
    fillScores(stats.map((s, seat) => [teamName(seat), s.score, s.damage_dealt, s.kills, s.faults]));
  }

  const robotSeat = new Map();
  for (const s of T.steps) for (const e of s.events) if (e.kind === "spawn") robotSeat.set(e.robot, e.seat);
  const seatOf = (id) => robotSeat.get(id);
  const whose = (id) => (robotSeat.has(id) ? `${teamsOwn(robotSeat.get(id))} robot` : `robot ${id}`);
  const sameSeat = (a, b) => seatOf(a) === seatOf(b);

  /** The turn's events in words, a seat's spawns in one line. */
  function eventLines(events) {
    const lines = [];
    const spawned = new Map();
    for (const e of events) {
      if (e.kind === "spawn") spawned.set(e.seat, (spawned.get(e.seat) || 0) + 1);
      else lines.push({ text: eventText(e), kind: e.kind, seat: e.kind === "fault" ? e.seat : seatOf(e.robot), fault: e.kind === "fault" });
    }
    for (const [seat, n] of spawned) {
      lines.push({ text: `${teamName(seat)}: ${n} new robot${n === 1 ? "" : "s"} on spawn squares`, kind: "spawn", seat });
    }
    return lines;
  }

  function eventText(e) {
    const hit = (verb) => `${whose(e.robot)} ${verb} ${whose(e.victim)} for ${e.damage}`;
    switch (e.kind) {
      case "attack":
        if (e.victim === null) return `${whose(e.robot)} attacked (${e.target[0]}, ${e.target[1]}) and missed`;
        return sameSeat(e.robot, e.victim) ? `${whose(e.robot)} attacked a robot of its own team (no damage)` : hit("hit");
      case "collision":
        return sameSeat(e.robot, e.victim) ? `${whose(e.robot)} bumped into a robot of its own team (no damage)` : hit("bumped into");
      case "suicide":
        return e.victim === null ? `${whose(e.robot)} blew itself up` : `${whose(e.robot)} blew itself up next to ${whose(e.victim)} for ${e.damage}`;
      case "death": return `${whose(e.robot)} was destroyed` + (e.killer !== null ? ` by ${whose(e.killer)}` : "");
      case "spawn_kill": return `${whose(e.robot)} stood on a spawn square and was destroyed`;
      case "fault": return `${teamName(e.seat)}: fault, ${e.fault.replace("_", " ")} (its robots guard)`;
      default: return e.kind;
    }
  }

  function showEvents(turn) {
    const events = turn === 0 ? [] : T.steps[turn - 1].events;
    fillEvents(
      turn === 0 ? "Before turn 0" : `Turn ${T.steps[turn - 1].turn}`,
      eventLines(events),
      turn === 0 ? "The arena is empty until the first spawn." : "Nothing happened.",
    );
  }

  // Each sample is drawn by the code that draws the arena, on square (0, 0).
  const SQUARE = [M, M, C, C];
  const tile = (fill, dot) => (g) => {
    svgEl("rect", { x: M, y: M, width: C, height: C, fill, stroke: "#bdbdbd" }, g);
    if (dot) svgEl("circle", { cx: cx(0), cy: cy(0), r: 3, fill: "#6b8fbf" }, g);
  };
  function robotSample(hp, guard) {
    return (g) => {
      const e = robotPiece(g, 0, 0);
      e.g.setAttribute("transform", `translate(${cx(0)},${cy(0)})`);
      showHp(e, hp);
      if (guard) e.ring.setAttribute("display", "inline");
    };
  }
  function drawLegend() {
    fillLegend([
      { box: SQUARE, draw: tile("#ececec"), text: "Floor" },
      { box: SQUARE, draw: tile("#3d3d3d"), text: "Obstacle: no robot enters it" },
      { box: SQUARE, draw: tile("#d6e4f5", true), text: "Spawn square: 5 new robots per team every 10 turns" },
      { box: SQUARE, draw: robotSample(MAX_HP), text: "Robot: its seat's number and colour" },
      { box: SQUARE, draw: robotSample(20), text: "Bar: its hit points (full: 50), amber under half, red under a fifth" },
      { box: SQUARE, draw: robotSample(MAX_HP, true), text: "Dashed ring: guarding this turn" },
      { box: SQUARE, draw: (g) => { svgEl("line", { x1: M, y1: cy(0), x2: M + C, y2: cy(0), stroke: "#000", "stroke-width": 6 }, g); svgEl("line", { x1: M, y1: cy(0), x2: M + C, y2: cy(0), stroke: seatColours(0)[0], "stroke-width": 3.5 }, g); }, text: "Attack: a beam in its seat's colour to the next square" },
      { box: [M - C * 0.4, M - C * 0.4, C * 1.8, C * 1.8], draw: (g) => svgEl("circle", { cx: cx(0), cy: cy(0), r: C * 0.8, fill: "#d7191c", opacity: 0.35, stroke: "#8a0000", "stroke-width": 2 }, g), text: "Suicide: a blast that hurts every enemy next to it" },
    ]);
  }

  drawArena();
  drawLegend();
  // Turns count from 0 (RG5): view k shows turn k - 1 played, so `#turn=N` is view N + 1.
  replayControls({
    last,
    firstTurn: -1,
    stageMs: 500,
    show(turn) {
      show(stateAt(turn));
      document.getElementById("effects").textContent = "";
      showScores(turn);
      showEvents(turn);
    },
    label: (turn) => (turn === 0 ? `Start, before turn 0 of ${last}` : turnOf(T.steps[turn - 1].turn, last)),
    animate: animateTurn,
  });
})();
