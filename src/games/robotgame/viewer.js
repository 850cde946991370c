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
  // Besides its seat's colour, every robot carries its hit points; its seat number is in the
  // score table and the tooltip.
  const svg = document.getElementById("board");
  const last = T.steps.length;
  const seatName = (s) => (D.seats[s] ? D.seats[s].name : "seat " + (s + 1));

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

  // Robots by id: a group with a disc and the hit points.
  const robotEls = new Map();
  function robotEl(r) {
    let e = robotEls.get(r.id);
    if (e) return e;
    const [fill, ink] = seatColours(r.seat);
    const g = svgEl("g", { class: "robot", "data-seat": r.seat, "data-id": r.id }, document.getElementById("robots"));
    svgEl("title", {}, g).textContent = `robot ${r.id}, seat ${r.seat + 1}: ${seatName(r.seat)}`;
    const ring = svgEl("circle", { r: C * 0.47, fill: "none", stroke: "#fff", "stroke-width": 3, "stroke-dasharray": "4 2", display: "none" }, g);
    svgEl("circle", { r: C * 0.4, fill, stroke: "#000", "stroke-width": 2 }, g);
    const hp = svgEl("text", { y: 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: ink }, g);
    e = { g, hp, ring };
    robotEls.set(r.id, e);
    return e;
  }

  function place(r, x, y, opacity) {
    const e = robotEl(r);
    e.g.setAttribute("transform", `translate(${cx(x)},${cy(y)})`);
    e.g.setAttribute("opacity", opacity);
    e.g.setAttribute("display", "inline");
    e.hp.textContent = r.hp;
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
    ui.setLabel(`Turn ${step.turn} (${turn} / ${last}), playing:`);
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
    fillScores(stats.map((s, seat) => [seatName(seat), s.score, s.damage_dealt, s.kills, s.faults]));
  }

  const robotSeat = new Map();
  for (const s of T.steps) for (const e of s.events) if (e.kind === "spawn") robotSeat.set(e.robot, e.seat);
  const who = (id) => (id === null || id === undefined ? "nobody" : `robot ${id} (${robotSeat.has(id) ? robotSeat.get(id) + 1 : "?"})`);

  function eventText(e) {
    switch (e.kind) {
      case "attack": return `${who(e.robot)} attacked (${e.target[0]}, ${e.target[1]})` + (e.victim !== null ? `: ${who(e.victim)} -${e.damage}` : ": missed");
      case "collision": return `${who(e.robot)} collided with ${who(e.victim)}` + (e.damage ? ` -${e.damage}` : "");
      case "suicide": return `${who(e.robot)} blew itself up` + (e.victim !== null ? `: ${who(e.victim)} -${e.damage}` : "");
      case "death": return `${who(e.robot)} was destroyed` + (e.killer !== null ? ` by ${who(e.killer)}` : "");
      case "spawn_kill": return `${who(e.robot)} stood on a spawn square and died`;
      case "spawn": return `${who(e.robot)} spawned at (${e.pos[0]}, ${e.pos[1]})`;
      case "fault": return `seat ${e.seat + 1} ${seatName(e.seat)}: fault, ${e.fault.replace("_", " ")}`;
      default: return e.kind;
    }
  }

  function showEvents(turn) {
    const events = turn === 0 ? [] : T.steps[turn - 1].events;
    fillEvents(
      turn === 0 ? "Before turn 0" : `Turn ${T.steps[turn - 1].turn}`,
      events.map((e) => ({ text: eventText(e), kind: e.kind, fault: e.kind === "fault" })),
      turn === 0 ? "The arena is empty until the first spawn." : "Nothing happened.",
    );
  }

  drawArena();
  replayControls({
    last,
    stageMs: 500,
    show(turn) {
      show(stateAt(turn));
      document.getElementById("effects").textContent = "";
      showScores(turn);
      showEvents(turn);
    },
    label: (turn) => (turn === 0 ? `Start (0 / ${last})` : `Turn ${T.steps[turn - 1].turn} (${turn} / ${last})`),
    animate: animateTurn,
  });
})();
