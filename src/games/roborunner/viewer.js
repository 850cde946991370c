// The Robo Runner replay viewer: the ship drawn square by square from the trace inlined in the
// page (script#replay-data, written by src/games/roborunner/text.rs), a step per turn. Playing
// a turn tells it phase by phase: the launch bays' doors and the slide rails as they stand in
// that phase, the chip each robot runs, the robots moving to where the phase left them (their
// chips, beams, arms, twisters, transporters), the phase's transports (the link drawn), welds
// and robots destroyed. A robot whose way through the turn the trace lacks (`ways`, see
// text.rs; a trace written before ways were kept) is drawn where it was last known and moves
// to where the turn left it at the end. No network, no library: it opens from file://.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const T = D.trace;
  const S = T.ship;
  const C = 40; // pixels per square
  const MAX_DAMAGE = 10; // a robot is destroyed at 10 damage (docs/roborunner.md)
  const svg = document.getElementById("board");
  const last = T.steps.length - 1;
  const turns = T.steps[last].turn;
  const ANGLE = { N: 0, E: 90, S: 180, W: 270 };
  const ARROW = { N: "\u2191", E: "\u2192", S: "\u2193", W: "\u2190" };
  const SIDE = { N: [0, 0, C, 0], S: [0, C, C, C], W: [0, 0, 0, C], E: [C, 0, C, C] };
  // Transporter networks as the ship file writes them: p r b y.
  const NETWORK = { p: ["#8e3fb8", "purple"], r: ["#d62728", "red"], b: ["#1f6fb4", "blue"], y: ["#d9a800", "yellow"] };
  const squareAt = (x, y) => S.squares[y * S.width + x];
  const IPS = []; // the squares of I1, I2, ...
  let AIRLOCK = null;
  for (const q of S.squares) {
    if (q.type === "ip") IPS[q.ip - 1] = [q.x, q.y];
    if (q.type === "airlock") AIRLOCK = [q.x, q.y];
  }
  const centre = (x, y) => [x * C + C / 2, y * C + C / 2];

  svg.setAttribute("viewBox", `0 0 ${S.width * C + 2} ${S.height * C + 2}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Robo Runner ship ${S.name}, ${S.width} by ${S.height} squares`);

  const text = (g, x, y, size, fill, words, extra) =>
    (svgEl("text", { x, y, "text-anchor": "middle", "font-size": size, "font-weight": 700, fill, ...extra }, g).textContent = words);

  /** A square's base at (x, y): its colour and its mark (bays' doors are drawn by phase). */
  function drawSquare(g, q, x, y) {
    const fill = {
      hull: "#e6e8ec", airlock: "#ffffff", ip: "#ffe680", depot: "#b8e6b8", twister: "#d9c9ef",
      transporter: "#f3e9f6", thruster: "#f7c29e", bay: "#6b5a9e", shaft: "#1c1c1c", space: "#0b1030",
      beam: ["#dcebf9", "#b9d6f2", "#93bfea"][(q.warp || 1) - 1],
    }[q.type];
    svgEl("rect", { class: "square", x, y, width: C, height: C, fill, stroke: "#999", "stroke-width": 0.5 }, g);
    const [cx, cy] = [x + C / 2, y + C / 2];
    switch (q.type) {
      case "airlock":
        svgEl("rect", { x: x + 4, y: y + 4, width: C - 8, height: C - 8, fill: "none", stroke: "#333", "stroke-width": 2, "stroke-dasharray": "4 3" }, g);
        text(g, cx, cy + 6, 17, "#222", "A");
        break;
      case "ip": text(g, cx, cy + 6, 16, "#5a4500", "I" + q.ip); break;
      case "depot": text(g, cx, cy + 6, 16, "#14532d", "R" + q.value); break;
      case "twister": text(g, cx, cy + 8, 24, "#4b2a7a", q.spin === "R" ? "\u21bb" : "\u21ba"); break;
      case "beam": {
        // One chevron per warp, pointing the way the beam pulls.
        const b = svgEl("g", { transform: `translate(${cx},${cy}) rotate(${ANGLE[q.dir]})` }, g);
        for (let i = 0; i < q.warp; i++) {
          const apex = (i - (q.warp - 1) / 2) * 8 - 4.5;
          svgEl("path", { d: `M-9,${apex + 9} L0,${apex} L9,${apex + 9}`, fill: "none", stroke: "#0b3d75", "stroke-width": 3, "stroke-linecap": "round" }, b);
        }
        if (q.turning) svgEl("path", { d: `M${x + 3},${y + C - 13} A10,10 0 0 0 ${x + 13},${y + C - 3}`, fill: "none", stroke: "#0b3d75", "stroke-width": 2.5 }, g);
        break;
      }
      case "transporter": {
        const [colour] = NETWORK[q.network];
        svgEl("circle", { cx, cy, r: C * 0.33, fill: "#fff", stroke: colour, "stroke-width": 4 }, g);
        svgEl("circle", { cx, cy, r: C * 0.18, fill: "none", stroke: colour, "stroke-width": 2 }, g);
        text(g, cx, cy + 5, 13, colour, q.network);
        break;
      }
      case "thruster":
        svgEl("path", { d: `M${cx},${y + 6} C${cx + 13},${cy} ${cx + 9},${y + C - 6} ${cx},${y + C - 6} C${cx - 9},${y + C - 6} ${cx - 13},${cy} ${cx},${y + 6} Z`, fill: "#e8590c", stroke: "#8a2a00", "stroke-width": 1 }, g);
        svgEl("path", { d: `M${cx},${cy - 2} C${cx + 5},${cy + 5} ${cx + 4},${y + C - 9} ${cx},${y + C - 9} C${cx - 4},${y + C - 9} ${cx - 5},${cy + 5} ${cx},${cy - 2} Z`, fill: "#ffd43b" }, g);
        break;
      case "shaft":
        for (let i = 1; i < 4; i++) svgEl("line", { x1: x + 6, y1: y + i * 10, x2: x + C - 6, y2: y + i * 10, stroke: "#666", "stroke-width": 2.5 }, g);
        break;
      case "space":
        svgEl("circle", { cx: x + 11, cy: y + 13, r: 1.3, fill: "#fff" }, g);
        svgEl("circle", { cx: x + 29, cy: y + 27, r: 1, fill: "#cfd8ff" }, g);
        break;
      default:
    }
  }

  /**
   * A launch bay in `phase`: closed (its doors drawn) or open (a hole), and between phases
   * (0) the phases it is closed in; always the digits of those phases.
   */
  function drawBay(g, q, x, y, phase) {
    const closed = phase === 0 || q.closed.includes(phase);
    const b = svgEl("g", { class: phase === 0 ? "bay" : closed ? "bay closed" : "bay open", "data-x": q.x, "data-y": q.y }, g);
    if (closed) {
      svgEl("rect", { x: x + 2, y: y + 2, width: C / 2 - 3, height: C - 4, fill: "#9d8fd0", stroke: "#3b2f66", "stroke-width": 1.5 }, b);
      svgEl("rect", { x: x + C / 2 + 1, y: y + 2, width: C / 2 - 3, height: C - 4, fill: "#9d8fd0", stroke: "#3b2f66", "stroke-width": 1.5 }, b);
    } else {
      svgEl("rect", { x: x + 2, y: y + 2, width: C - 4, height: C - 4, fill: "#000", stroke: "#b9a6ff", "stroke-width": 2, "stroke-dasharray": "4 3" }, b);
    }
    text(b, x + C / 2, y + C / 2 + 5, 13, closed ? "#1d1640" : "#d8ccff", "L" + q.closed.join(""));
  }

  /**
   * The rails on a square's sides (guard rails only, or all but them, when `guards` is given:
   * a side is listed by both its squares, and an arm, a coupling or a slide rail must be drawn
   * over the plain rail its neighbour lists); slide rails as they stand in `phase` (0: closed).
   */
  function drawRails(g, q, x, y, phase, guards) {
    for (const rail of q.rails) {
      if (guards !== undefined && (rail.kind === "guard") !== guards) continue;
      const [x1, y1, x2, y2] = SIDE[rail.side];
      const line = { x1: x + x1, y1: y + y1, x2: x + x2, y2: y + y2, "stroke-width": 5, "stroke-linecap": "round" };
      if (rail.kind === "slide") {
        const open = phase > 0 && rail.open.includes(phase);
        svgEl("line", { ...line, class: open ? "slide open" : "slide closed", stroke: "#d08a00", "stroke-dasharray": open ? "2 7" : "7 3", opacity: open ? 0.6 : 1 }, g);
        // Its open phases, once: on the square below or right of it.
        if (rail.side === "N" || rail.side === "W") {
          const [mx, my] = [x + (x1 + x2) / 2, y + (y1 + y2) / 2];
          const inward = rail.side === "N" ? [0, 11] : [9, 4];
          text(g, mx + inward[0], my + inward[1], 10, "#7a4d00", rail.open.join(""));
        }
      } else if (rail.kind === "coupling") {
        svgEl("line", { ...line, stroke: "#e00000" }, g);
        svgEl("circle", { cx: x + (x1 + x2) / 2, cy: y + (y1 + y2) / 2, r: 3.5, fill: "#ffe600", stroke: "#900", "stroke-width": 1 }, g);
      } else if (rail.kind === "arm") {
        svgEl("line", { ...line, stroke: "#138a36", "stroke-width": 6 }, g);
        // The arm pushes robots on this square away from its side.
        const a = svgEl("g", { transform: `translate(${x + C / 2},${y + C / 2}) rotate(${ANGLE[rail.side]})` }, g);
        svgEl("path", { d: `M-7,${-C / 2 + 4} L7,${-C / 2 + 4} L0,${-C / 2 + 13} Z`, fill: "#138a36" }, a);
      } else {
        svgEl("line", { ...line, stroke: "#7a4a12" }, g);
      }
    }
  }

  const tiles = svgEl("g", { id: "tiles", transform: "translate(1,1)" }, svg);
  const phased = svgEl("g", { id: "phased", transform: "translate(1,1)" }, svg);
  const links = svgEl("g", { id: "links", transform: "translate(1,1)" }, svg);
  const marks = svgEl("g", { id: "marks", transform: "translate(1,1)" }, svg);
  const pieces = svgEl("g", { id: "robots", transform: "translate(1,1)" }, svg);
  const scanners = svgEl("g", { id: "scanners", transform: "translate(1,1)" }, svg);
  const effects = svgEl("g", { id: "effects", transform: "translate(1,1)" }, svg); // over the robots
  for (const q of S.squares) drawSquare(tiles, q, q.x * C, q.y * C);
  for (const guards of [true, false]) {
    for (const q of S.squares) {
      if (!q.rails.some((r) => r.kind === "slide")) drawRails(tiles, q, q.x * C, q.y * C, 0, guards);
    }
  }

  /** What changes with the phase: bays' doors and slide rails. */
  function drawPhase(phase) {
    phased.textContent = "";
    phased.dataset.phase = phase;
    for (const q of S.squares) {
      if (q.type === "bay") drawBay(phased, q, q.x * C, q.y * C, phase);
      if (q.rails.some((r) => r.kind === "slide")) drawRails(phased, q, q.x * C, q.y * C, phase);
    }
  }

  /**
   * A link between transporters of `network` (its colour; by default the network of the
   * square at `from`): dashed once known, solid and thick for a transport.
   */
  function drawLink(g, from, to, cls, network) {
    const [x1, y1] = centre(from[0], from[1]);
    const [x2, y2] = centre(to[0], to[1]);
    const [colour] = NETWORK[network || squareAt(from[0], from[1]).network];
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    // A curve bowing to the left of its way, so the two ways between a pair do not overlap.
    const bow = Math.min(60, len * 0.2);
    const [qx, qy] = [(x1 + x2) / 2 - ((y2 - y1) / len) * bow, (y1 + y2) / 2 + ((x2 - x1) / len) * bow];
    const l = svgEl("g", { class: cls, "data-from": from.join(","), "data-to": to.join(",") }, g);
    const d = `M${x1},${y1} Q${qx},${qy} ${x2},${y2}`;
    const transport = cls === "transport";
    if (transport) svgEl("path", { d, fill: "none", stroke: "#fff", "stroke-width": 9, opacity: 0.85 }, l);
    svgEl("path", { d, fill: "none", stroke: colour, "stroke-width": transport ? 5 : 2.5, "stroke-dasharray": transport ? "" : "7 5", opacity: transport ? 1 : 0.8 }, l);
    // The arrowhead at its end, along the curve's last direction.
    const a = (Math.atan2(y2 - qy, x2 - qx) * 180) / Math.PI;
    const h = transport ? 13 : 9;
    svgEl("path", { d: `M0,0 L${-h},${-h / 2} L${-h},${h / 2} Z`, fill: colour, transform: `translate(${x2},${y2}) rotate(${a}) translate(${-C * 0.2},0)` }, l);
  }

  /** An inspection point's welds left: a red badge, or a green tick once repaired. */
  function drawWelds(g, ip, left, square) {
    const [x, y] = square || IPS[ip - 1];
    const m = svgEl("g", { class: "welds-left", "data-ip": ip, "data-left": left }, g);
    if (left > 0) {
      svgEl("circle", { cx: x * C + C - 8, cy: y * C + 8, r: 8, fill: "#c00", stroke: "#fff", "stroke-width": 1.5 }, m);
      text(m, x * C + C - 8, y * C + 12, 11, "#fff", String(left));
    } else {
      text(m, x * C + C - 8, y * C + 13, 14, "#1a7f37", "\u2714");
    }
  }

  /**
   * A robot: a disc of its seat's colour and number, a point for its facing (none while its
   * facing is unknown), its damage as a bar, its rank, a dot per locked register and, while a
   * phase plays, the `chip` of its register for that phase.
   */
  function robotPiece(g, r, x, y, chip) {
    const s = r.seat;
    const [fill, ink] = seatColours(s);
    const p = svgEl("g", { class: r.virtual ? "robot virtual" : "robot", "data-seat": s, transform: `translate(${x},${y})`, opacity: r.virtual ? 0.5 : 1 }, g);
    svgEl("title", {}, p).textContent = `${teamName(s)} (seat ${s + 1}): damage ${r.damage}, lives ${r.lives}, place ${r.rank} in the turn order${r.virtual ? ", virtual" : ""}`;
    svgEl("circle", { cy: -C * 0.04, r: C * 0.33, fill, stroke: "#000", "stroke-width": 1.8, "stroke-dasharray": r.virtual ? "4 2.5" : "" }, p);
    if (r.facing) svgEl("path", { d: `M0,${-C * 0.5} L${C * 0.13},${-C * 0.32} L${-C * 0.13},${-C * 0.32} Z`, fill: "#000", transform: `rotate(${ANGLE[r.facing]})` }, p);
    svgEl("text", { class: "seat-label", y: 4, "text-anchor": "middle", "font-size": 17, "font-weight": 700, fill: ink }, p).textContent = String(s + 1);
    const w = C * 0.8;
    const whole = Math.max(0, MAX_DAMAGE - r.damage) / MAX_DAMAGE;
    svgEl("rect", { class: "damage-back", x: -w / 2, y: C * 0.32, width: w, height: 5, fill: "#fff", stroke: "#000", "stroke-width": 1 }, p);
    svgEl("rect", { class: "damage-bar", x: -w / 2, y: C * 0.32, width: w * whole, height: 5, fill: whole > 0.5 ? "#1a7f37" : whole > 0.2 ? "#e69f00" : "#b00020" }, p);
    if (r.rank) {
      svgEl("rect", { x: -C * 0.5, y: -C * 0.5, width: 12, height: 12, rx: 2, fill: "#fff", stroke: "#000", "stroke-width": 1 }, p);
      text(p, -C * 0.5 + 6, -C * 0.5 + 10, 10, "#000", String(r.rank), { class: "rank" });
    }
    const locked = lockedCount(r);
    for (let i = 0; i < locked; i++) {
      svgEl("rect", { class: "lock", x: C * 0.38, y: -C * 0.3 + i * 6, width: 5, height: 5, fill: "#b00020", stroke: "#fff", "stroke-width": 0.8 }, p);
    }
    if (chip) {
      const c = svgEl("g", { class: "chip", transform: `translate(${C * 0.3},${-C * 0.62})` }, p);
      svgEl("rect", { x: -1, y: 0, width: 24, height: 14, rx: 3, fill: "#111", stroke: "#fff", "stroke-width": 1 }, c);
      text(c, 11, 11, 11, "#fff", chip);
    }
    return p;
  }

  /** RN5.2: damage d locks the last max(0, d - 4) registers. */
  const lockedCount = (r) => (r.status === "active" ? Math.max(0, Math.min(5, r.damage - 4)) : 0);

  /**
   * Draws `robots` (those with a square), moved `k` (0 to 1) from `from` (seat -> robot) when
   * given, each with its chip from `chips` (by seat) when given; robots sharing a square are
   * spread a little so each number shows.
   */
  function drawRobots(robots, from, k, chips) {
    pieces.textContent = "";
    const shown = robots.filter((r) => r && r.x !== null && r.x !== undefined);
    const sharing = {};
    for (const r of shown) {
      const a = from && from[r.seat] ? from[r.seat] : r;
      const t = k === undefined || !(from && from[r.seat]) ? 1 : k;
      const x = a.x + (r.x - a.x) * t, y = a.y + (r.y - a.y) * t;
      const key = `${Math.round(x)},${Math.round(y)}`;
      const i = (sharing[key] = (sharing[key] || 0) + 1) - 1;
      const spread = i === 0 ? [0, 0] : [[-7, 5], [7, 5], [0, -7], [-7, -5], [7, -5]][(i - 1) % 5];
      const [cx, cy] = centre(x, y);
      const piece = robotPiece(pieces, r, cx + spread[0], cy + spread[1], chips && chips[r.seat]);
      piece.setAttribute("data-x", x);
      piece.setAttribute("data-y", y);
    }
  }

  /**
   * The scanners (RN13) where the turn left them: grey diamonds marked S and their number,
   * faded while virtual, with their facing. They have no way through a turn: while a turn
   * plays they are hidden, and they appear where it left them.
   */
  /** A scanner's piece: a grey diamond marked S and its number `n`, its facing, dashed while virtual. */
  function scannerPiece(g, n, s) {
    const r = C * 0.36;
    svgEl("path", { d: `M0,${-r} L${r},0 L0,${r} L${-r},0 Z`, fill: "#b0b6bc", stroke: "#000", "stroke-width": 1.5, "stroke-dasharray": s.virtual ? "4 2.5" : "" }, g);
    if (s.facing) svgEl("path", { d: `M0,${-C * 0.5} L${C * 0.11},${-C * 0.36} L${-C * 0.11},${-C * 0.36} Z`, fill: "#000", transform: `rotate(${ANGLE[s.facing]})` }, g);
    text(g, 0, 4, 11, "#000", `S${n}`);
  }

  function drawScanners(step) {
    scanners.textContent = "";
    for (const s of step.scanners || []) {
      if (s.x === null || s.x === undefined) continue;
      const [cx, cy] = centre(s.x, s.y);
      const n = scannerNumber(s.seat);
      const g = svgEl("g", { class: "scanner", "data-scanner": n, transform: `translate(${cx},${cy})`, opacity: s.virtual ? 0.5 : 1 }, scanners);
      svgEl("title", {}, g).textContent = `scanner ${n}: damage ${s.damage}, place ${s.rank} in the turn order${s.virtual ? ", virtual" : ""}`;
      scannerPiece(g, n, s);
    }
  }

  // Events in words, with the teams' names.
  const CAUSES = {
    laser: "was destroyed by lasers", burn: "burnt out on a thruster", shock: "was destroyed by a power coupling's shock",
    shaft: "fell down a cooling shaft", space: "drifted off into space", bay: "fell through an open launch bay",
  };
  const at = (p) => `(${p[0]}, ${p[1]})`;
  // Robots after the seats are the scanners of RN13 (no team): scanner 1, 2, ...
  const SEATS = T.steps.length ? T.steps[0].robots.length : 0;
  const isScanner = (s) => Number(s) >= SEATS;
  const scannerNumber = (s) => Number(s) - SEATS + 1;
  const scannerName = (s) => `scanner ${scannerNumber(s)}`;
  const nameOf = (s) => (isScanner(s) ? scannerName(s) : teamName(Number(s)));
  const robotOf = (s) => (isScanner(s) ? scannerName(s) : `${teamsOwn(Number(s))} robot`);
  /** Event `e` in words; `known` (the links known so far, a copy) learns its transport. */
  function eventText(e, known) {
    const who = robotOf(e.robot);
    let words;
    switch (e.kind) {
      case "dispatch": words = `${who} was dispatched to the airlock`; break;
      case "shock": words = `${who} took a shock from a power coupling (1 damage)`; break;
      case "destroyed":
        words = `${who} ${CAUSES[e.cause] || "was destroyed (" + e.cause + ")"}`;
        if (e.killer !== null && e.killer !== undefined && Number(e.killer) !== Number(e.robot)) words += `: a kill for ${nameOf(e.killer)}`;
        break;
      case "push": words = `${who} pushed ${robotOf(e.victim)}`; break;
      case "push_kill": words = `${who} pushed ${robotOf(e.victim)} to its destruction`; break;
      case "transport": {
        const net = NETWORK[squareAt(e.from[0], e.from[1]).network][1];
        const learned = !known.some((l) => l.from[0] === e.from[0] && l.from[1] === e.from[1]);
        if (learned) known.push({ from: e.from, to: e.to });
        words = `${who} was transported from ${at(e.from)} to ${at(e.to)} (${net} network${learned ? ", a link learned" : ""})`;
        break;
      }
      case "virtual": words = `${who} turned virtual: two robots on one square`; break;
      case "burn": words = `${who} burnt on a thruster (1 damage)`; break;
      case "shot": words = `${who} shot ${robotOf(e.victim)} (${e.damage} damage)`; break;
      case "weld": words = `${who} welded inspection point I${e.ip}: ${e.left === 0 ? "repaired" : e.left + (e.left === 1 ? " weld" : " welds") + " left"}`; break;
      case "inspect": words = `${who} inspected I${e.ip}`; break;
      case "finish": words = `${who} finished its inspections, place ${e.place}`; break;
      case "repair": words = `${who} was repaired (${e.amount} damage off)`; break;
      case "reboot": words = `${who} rebooted: damage 0, it sits out the next turn`; break;
      case "real": words = `${who} became real again`; break;
      case "last_standing": words = `${who} is the last robot standing: place 1`; break;
      default: words = `${nameOf(e.robot)}: fault, ${String(e.kind).replace("_", " ")}`;
    }
    const text = e.phase > 0 ? `Phase ${e.phase}: ${words}` : words;
    return { text, kind: e.kind, seat: Number(e.robot), fault: ["timeout", "crash", "invalid"].includes(e.kind) };
  }

  /**
   * A robot's state in short words (the table is narrow): finished or last standing with its
   * place, virtual, rebooting, and its locked registers with their chips ("locked 4 L, 5 F2").
   */
  function stateText(r) {
    const place = r.place ? ` ${r.place}${["st", "nd", "rd"][r.place - 1] || "th"}` : "";
    if (r.status !== "active") return r.status + place;
    const locked = r.locked.map((c, i) => (c ? `${i + 1} ${c}` : "")).filter(Boolean);
    const words = [r.place ? "last standing" : "", r.virtual ? "virtual" : "", r.rebooting ? "rebooting" : "",
      locked.length ? "locked " + locked.join(", ") : ""];
    return words.filter(Boolean).join(", ") || "active";
  }

  function showRobotsTable(step) {
    fillScores(step.robots.map((r) => [teamName(r.seat), r.score, `${r.next_ip - 1}/${r.ips}`, r.damage, r.lives, r.rank, stateText(r)]));
  }

  function drawHull(hull) {
    marks.textContent = "";
    for (const h of hull) drawWelds(marks, h.ip, h.repairs);
  }

  function drawLinks(step, transports) {
    links.textContent = "";
    for (const l of step.links) drawLink(links, l.from, l.to, "link");
    for (const e of transports) drawLink(links, e.from, e.to, "transport");
  }

  const linksBefore = (turn) => (turn > 0 ? T.steps[turn - 1].links : []);

  function show(turn) {
    const step = T.steps[turn];
    effects.textContent = "";
    drawPhase(0);
    document.body.dataset.phase = 0;
    drawLinks(step, step.events.filter((e) => e.kind === "transport"));
    drawHull(step.hull);
    drawRobots(step.robots);
    drawScanners(step);
    showRobotsTable(step);
    const known = linksBefore(turn).slice();
    fillEvents(`Events of turn ${step.turn}`, step.events.map((e) => eventText(e, known)), "Nothing happened.");
  }

  const label = (turn) => turnOf(T.steps[turn].turn, turns);

  /** A phase in a few words: the bays closed and what happened. */
  function phaseWords(p, evs) {
    const bays = [...new Set(S.squares.filter((q) => q.type === "bay" && q.closed.includes(p)).map((q) => "L" + q.closed.join("")))];
    const doors = S.squares.some((q) => q.type === "bay") ? (bays.length ? `bays ${bays.join(", ")} closed` : "every bay open") : "";
    const count = (kind, one, many) => {
      const n = evs.filter((e) => e.kind === kind).length;
      return n === 0 ? "" : n === 1 ? `1 ${one}` : `${n} ${many}`;
    };
    const what = [count("transport", "transport", "transports"), count("shot", "hit", "hits"), count("weld", "weld", "welds"),
      count("burn", "burn", "burns"), count("inspect", "inspection", "inspections"), count("destroyed", "robot destroyed", "robots destroyed")].filter(Boolean);
    return [`Phase ${p} of 5`, doors, what.join(", ")].filter(Boolean).join(": ");
  }

  /** A laser beam from square `a` to square `b`, a flash where it ends. */
  function drawBeam(g, a, b, cls, colour) {
    const [x1, y1] = centre(a[0], a[1]);
    const [x2, y2] = centre(b[0], b[1]);
    svgEl("line", { x1, y1, x2, y2, stroke: "#000", "stroke-width": 6, opacity: 0.45 }, g);
    svgEl("line", { class: cls, x1, y1, x2, y2, stroke: colour, "stroke-width": 3.5 }, g);
    svgEl("circle", { cx: x2, cy: y2, r: 8, fill: "#ffeb3b", stroke: "#b00020", "stroke-width": 3, opacity: 0.9 }, g);
  }

  /**
   * What a phase's events look like where they happened: an inspection a gold ring on its
   * point; and, for robots whose square is known (`at(seat)`, null otherwise), a hit or a weld
   * a beam from the shooter, a burn a flame ring.
   */
  function drawEffects(evs, at) {
    effects.textContent = "";
    for (const e of evs) {
      const r = at(Number(e.robot));
      if (e.kind === "inspect") {
        const [x, y] = IPS[e.ip - 1];
        svgEl("circle", { class: "inspect", cx: x * C + C / 2, cy: y * C + C / 2, r: C * 0.47, fill: "none", stroke: "#e0a800", "stroke-width": 5 }, effects);
      } else if (e.kind === "shot" && r && at(Number(e.victim))) {
        const v = at(Number(e.victim));
        drawBeam(effects, [r.x, r.y], [v.x, v.y], "beam hit", seatColours(Number(e.robot))[0]);
      } else if (e.kind === "weld" && r) {
        drawBeam(effects, [r.x, r.y], IPS[e.ip - 1], "beam weld", seatColours(Number(e.robot))[0]);
      } else if (e.kind === "burn" && r) {
        svgEl("circle", { class: "burn", cx: r.x * C + C / 2, cy: r.y * C + C / 2, r: C * 0.45, fill: "none", stroke: "#e8590c", "stroke-width": 5, "stroke-dasharray": "6 3" }, effects);
      }
    }
  }

  async function animate(turn, token, ui) {
    const step = T.steps[turn];
    scanners.textContent = "";
    const before = T.steps[turn - 1];
    const known = before.links.slice();
    ui.setLabel(label(turn) + ", playing:");
    // Where each robot was last known: the turn's start, then the airlock for a dispatched one.
    const where = {};
    for (const r of before.robots) if (r.status === "active") where[r.seat] = { ...r };
    const hull = before.hull.map((h) => ({ ...h }));
    drawHull(hull);
    drawLinks(before, []);
    const dispatched = step.events.filter((e) => e.kind === "dispatch");
    if (dispatched.length) {
      const [ax, ay] = AIRLOCK;
      for (const e of dispatched) {
        if (isScanner(e.robot)) continue; // drawn where the turn leaves it
        const r = step.robots[Number(e.robot)];
        where[r.seat] = { ...r, x: ax, y: ay, facing: null, damage: 0, virtual: true, status: "active" };
      }
      ui.setStage(`Dispatch: ${dispatched.map((e) => nameOf(e.robot)).join(", ")} to the airlock`);
      drawPhase(0);
      drawRobots(Object.values(where));
      if (!(await ui.wait(ui.frameMs(), token))) return false;
    }
    const transports = [];
    const ways = step.ways || [];
    for (let p = 1; p <= 5; p++) {
      const evs = step.events.filter((e) => e.phase === p);
      document.body.dataset.phase = "";
      drawPhase(p);
      const from = {};
      for (const seat in where) from[seat] = { ...where[seat] };
      // A robot with its way through the turn goes where the phase left it; another where a
      // transport sends it, off the ship when destroyed or finished.
      ways.forEach((way, seat) => {
        if (!way || !where[seat]) return;
        if (way[p - 1] === null) delete where[seat];
        else Object.assign(where[seat], { x: way[p - 1][0], y: way[p - 1][1], facing: way[p - 1][2] });
      });
      for (const e of evs) {
        const r = where[Number(e.robot)];
        const guessed = !ways[Number(e.robot)];
        if (e.kind === "transport") {
          transports.push(e);
          if (r && guessed) Object.assign(r, { x: e.to[0], y: e.to[1] });
        } else if ((e.kind === "destroyed" || e.kind === "finish") && r && guessed) {
          delete where[Number(e.robot)];
        } else if (e.kind === "weld") {
          hull[e.ip - 1].repairs = e.left;
        } else if (e.kind === "virtual" && r) {
          r.virtual = true;
        }
      }
      drawLinks(before, transports);
      drawHull(hull);
      ui.setStage(phaseWords(p, evs));
      fillEvents(`Turn ${step.turn}, phase ${p}`, evs.map((e) => eventText(e, known)), "Nothing happened in this phase.");
      const chips = step.robots.map((r) => r.last[p - 1]);
      if (!(await ui.tween(ui.frameMs(), token, (k) => drawRobots(Object.values(where), from, k, chips)))) return false;
      document.body.dataset.phase = p;
      drawEffects(evs, (s) => (ways[s] ? where[s] : null));
      if (!(await ui.wait(ui.frameMs() * (evs.length ? 2 : 1), token))) return false;
      effects.textContent = "";
    }
    document.body.dataset.phase = "";
    drawPhase(0);
    ui.setStage("End of the turn: the robots where it left them");
    const from = where;
    return ui.tween(ui.frameMs(), token, (k) => drawRobots(step.robots, from, k));
  }

  // The legend: each sample drawn by the code that draws the ship.
  const SQUARE = [0, 0, C, C];
  const RAIL = [-4, -4, C + 8, C + 8]; // a square with room for the rails on its sides
  const square = (q) => (g) => {
    drawSquare(g, { x: 0, y: 0, rails: [], ...q }, 0, 0);
    drawRails(g, { rails: [], ...q }, 0, 0, q.phase || 0);
  };
  const ROBOT = [-C / 2, -C / 2, C, C];
  const sample = { seat: 0, damage: 0, lives: 3, rank: 0, virtual: false, status: "active", facing: "N" };
  fillLegend([
    { box: SQUARE, draw: square({ type: "hull" }), text: "Hull" },
    { box: SQUARE, draw: square({ type: "airlock" }), text: "A: the airlock, where robots are dispatched" },
    { box: SQUARE, draw: (g) => { square({ type: "ip", ip: 2 })(g); drawWelds(g, 2, 2, [0, 0]); }, text: "I2: inspection point 2 (in order); red: welds it needs first, a laser welds" },
    { box: SQUARE, draw: square({ type: "depot", value: 2 }), text: "R2: repair depot, 2 damage off at the turn's end" },
    { box: SQUARE, draw: square({ type: "beam", warp: 2, dir: "E", turning: false }), text: `Tractor beam: pulls ${ARROW.E}, one chevron per warp (3 pulls first)` },
    { box: SQUARE, draw: square({ type: "beam", warp: 1, dir: "N", turning: true }), text: "Turning beam (corner arc): turns a robot pulled onto it from a side" },
    { box: SQUARE, draw: square({ type: "twister", spin: "R" }), text: "Twister: turns a robot right (\u21bb) or left (\u21ba)" },
    { box: SQUARE, draw: square({ type: "transporter", network: "p" }), text: "Transporter of a network (p r b y): sends a robot to the next of its loop" },
    { box: SQUARE, draw: (g) => drawLink(g, [-0.45, 0.1], [0.55, 0.1], "link", "p"), text: "A link learned (dashed); solid: a transport this turn" },
    { box: SQUARE, draw: square({ type: "thruster" }), text: "Thruster: lifts a robot over holes, burns 1 damage at a phase's end" },
    { box: SQUARE, draw: (g) => { square({ type: "bay" })(g); drawBay(g, { closed: [2, 4] }, 0, 0, 2); }, text: "L24: launch bay, doors closed in phases 2 and 4" },
    { box: SQUARE, draw: (g) => { square({ type: "bay" })(g); drawBay(g, { closed: [2, 4] }, 0, 0, 3); }, text: "An open launch bay (phase 3): a robot on it falls" },
    { box: SQUARE, draw: square({ type: "shaft" }), text: "P: cooling shaft, a hole" },
    { box: SQUARE, draw: square({ type: "space" }), text: "Open space: a robot there is lost" },
    { box: RAIL, draw: square({ type: "hull", rails: [{ side: "E", kind: "guard" }] }), text: "Guard rail: stops robots and lasers" },
    { box: RAIL, draw: square({ type: "hull", rails: [{ side: "E", kind: "coupling" }] }), text: "Power coupling: a rail that shocks (1 damage)" },
    { box: RAIL, draw: square({ type: "hull", rails: [{ side: "W", kind: "arm" }] }), text: "Docking arm: pushes a robot on its square away" },
    { box: RAIL, draw: square({ type: "hull", phase: 1, rails: [{ side: "E", kind: "slide", open: [1, 5] }] }), text: "Slide rail: open (dotted) in the phases written, else closed" },
    { box: ROBOT, draw: (g) => robotPiece(g, { ...sample, rank: 1 }, 0, 0), text: "Robot: its seat's number and colour, the point where it faces; corner: its rank in the turn order" },
    { box: ROBOT, draw: (g) => robotPiece(g, { ...sample, virtual: true }, 0, 0), text: "Virtual robot (faded): passes through robots, neither shoots nor is shot" },
    { box: ROBOT, draw: (g) => robotPiece(g, { ...sample, damage: 7 }, 0, 0), text: "Bar: damage (empty at 10); red squares: locked registers" },
    ...(T.steps.some((s) => (s.scanners || []).length) ? [{ box: ROBOT, draw: (g) => scannerPiece(g, 1, { virtual: false, facing: null }), text: "S1: a scanner, a robot of no team; shown where each turn leaves it" }] : []),
    { box: [-C / 2, -C * 0.7, C * 1.2, C * 1.2], draw: (g) => robotPiece(g, sample, 0, 0, "F2"), text: "While a turn plays: the chip each robot runs in the phase shown" },
    { box: [0, 0, 2 * C, C], draw: (g) => drawBeam(g, [0, 0], [1, 0], "", seatColours(0)[0]), text: "A laser in its robot's colour: a hit, or a weld on an inspection point" },
    { box: SQUARE, draw: (g) => svgEl("circle", { cx: C / 2, cy: C / 2, r: C * 0.45, fill: "none", stroke: "#e0a800", "stroke-width": 5 }, g), text: "Gold ring: an inspection; dashed orange ring: a thruster's burn" },
  ]);

  replayControls({ last, firstTurn: 1, stageMs: 500, show, label, animate });
})();
