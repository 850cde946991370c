// What every game's viewer shares: the replay controls (the turn shown, play/pause, stepping,
// the slider, the speed, the keys and the `#turn=N` link), large print for a projector (the
// Big screen button, the B key or `?big` in the address), the teams' names, the seat colours,
// SVG elements, the score table, the events list and the legend. A game's script gives
// `replayControls` how to show a turn and how to animate the step to it; this owns the rest.
"use strict";

// The team in each seat, written into every page beside the game's data (`games::view`).
const TEAM_NAMES = JSON.parse(document.getElementById("seat-names").textContent);

/** The name of the team in seat `s` (from 0), or "seat N" when the page has none. */
// eslint-disable-next-line no-unused-vars
function teamName(s) {
  return TEAM_NAMES[s] || "seat " + (s + 1);
}

/** "Segfault Squad's", "Bit Flippers'": what belongs to the team in seat `s`. */
// eslint-disable-next-line no-unused-vars
function teamsOwn(s) {
  const name = teamName(s);
  return /s$/i.test(name) ? name + "'" : name + "'s";
}

/** The header of a turn: "Turn 44 of 100". */
// eslint-disable-next-line no-unused-vars
function turnOf(n, total) {
  return `Turn ${n} of ${total}`;
}

// Okabe-Ito colours (safe for the common colour-vision deficiencies), each with a text colour
// that keeps contrast; a seat's pieces also carry its number.
const SEAT_COLOURS = [
  ["#E69F00", "#000"], ["#56B4E9", "#000"], ["#009E73", "#fff"], ["#F0E442", "#000"],
  ["#0072B2", "#fff"], ["#D55E00", "#fff"], ["#CC79A7", "#000"], ["#5a5a5a", "#fff"],
];

/** `[fill, ink]`: the colour of seat `s` (from 0) and the text colour to write on it. */
// eslint-disable-next-line no-unused-vars
function seatColours(s) {
  return SEAT_COLOURS[s % SEAT_COLOURS.length];
}

/** A new SVG element `name` with `attrs`, appended to `parent` when one is given. */
// eslint-disable-next-line no-unused-vars
function svgEl(name, attrs, parent) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

/** A round badge in seat `s`'s colour with its number, as every piece of the seat carries. */
function seatSwatch(s) {
  const [fill, ink] = seatColours(s);
  const sw = document.createElement("span");
  sw.className = "swatch";
  sw.style.background = fill;
  sw.style.color = ink;
  sw.textContent = String(s + 1);
  return sw;
}

/**
 * Fills the score table: `rows[s]` are the cells of seat `s` after its colour swatch, the team
 * name first and the score second.
 */
// eslint-disable-next-line no-unused-vars
function fillScores(rows) {
  const body = document.querySelector("#scores tbody");
  body.textContent = "";
  rows.forEach((cells, seat) => {
    const tr = document.createElement("tr");
    tr.dataset.seat = seat;
    [null, ...cells].forEach((c, i) => {
      const td = document.createElement("td");
      if (i === 0) td.appendChild(seatSwatch(seat));
      else td.textContent = c;
      if (i === 2) td.className = "score";
      tr.appendChild(td);
    });
    body.appendChild(tr);
  });
}

/**
 * Fills the events list under `caption`, one line per item (`{ text, kind, fault, seat }`;
 * `kind` becomes `data-kind`, `fault` marks the line, `seat` puts that seat's badge before
 * the words); `empty` (if not null) when there is none.
 */
// eslint-disable-next-line no-unused-vars
function fillEvents(caption, items, empty) {
  const list = document.getElementById("events");
  list.textContent = "";
  document.getElementById("events-caption").textContent = caption;
  if (!items.length && empty !== null) {
    const li = document.createElement("li");
    li.textContent = empty;
    list.appendChild(li);
  }
  for (const item of items) {
    const li = document.createElement("li");
    if (item.seat !== undefined && item.seat !== null) {
      li.appendChild(seatSwatch(item.seat));
      li.append(" ");
    }
    li.append(item.text);
    if (item.kind !== undefined) li.dataset.kind = item.kind;
    if (item.fault) li.className = "fault";
    list.appendChild(li);
  }
}

/**
 * Fills the legend: per item its `text` and a sample drawn by `draw(g)` into an SVG group
 * whose user space is `box` = `[x, y, width, height]` (the game's own drawing code, so the
 * sample is what the board shows), or the badge of `seat`.
 */
// eslint-disable-next-line no-unused-vars
function fillLegend(items) {
  const list = document.getElementById("legend-list");
  list.textContent = "";
  for (const item of items) {
    const li = document.createElement("li");
    const svg = svgEl("svg", { class: "sample", viewBox: item.box.join(" "), "aria-hidden": "true" }, li);
    item.draw(svgEl("g", {}, svg));
    // A sample is a picture, not a piece: it answers none of the board's selectors.
    for (const e of svg.querySelectorAll("[class], [data-seat], [data-id]")) {
      if (e !== svg) ["class", "data-seat", "data-id", "id"].forEach((a) => e.removeAttribute(a));
    }
    const text = document.createElement("span");
    text.textContent = item.text;
    li.appendChild(text);
    list.appendChild(li);
  }
}

/**
 * Large print for a projector: on with `?big` in the address, the Big screen button or the B
 * key. A `resize` event tells a game that lays its boards out by the room it has.
 */
function bigScreen() {
  const button = document.getElementById("big");
  function set(on) {
    document.body.classList.toggle("big", on);
    button.setAttribute("aria-pressed", String(on));
    window.dispatchEvent(new Event("resize"));
  }
  button.addEventListener("click", () => set(!document.body.classList.contains("big")));
  document.addEventListener("keydown", (ev) => {
    const typing = ev.target && (ev.target.tagName === "SELECT" || (ev.target.tagName === "INPUT" && ev.target.type !== "range"));
    if (ev.key === "b" && !typing && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      set(!document.body.classList.contains("big"));
    }
  });
  set(new URLSearchParams(location.search).has("big"));
}
bigScreen();

// eslint-disable-next-line no-unused-vars
function replayControls(game) {
  const view = { turn: 0, playing: false, speed: 2, token: 0 };
  const slider = document.getElementById("slider");
  const playBtn = document.getElementById("play");
  const turnLabel = document.getElementById("turn-label");
  const stageLabel = document.getElementById("stage-label");
  const last = game.last;
  // The turn number the first view shows: 0 where it is the start, before turn 1; 1 where a
  // game's first view is turn 1 played; -1 where turns count from 0 and the first view is
  // the start before turn 0 (its link is `#start`). `#turn=N` speaks turn numbers,
  // `data-turn` views.
  const first = game.firstTurn || 0;

  const api = {
    /** Milliseconds of one animation stage at the chosen speed. */
    frameMs: () => game.stageMs / view.speed,
    /** Whether the animation holding `token` is still the current one. */
    current: (token) => token === view.token,
    /** Resolves after `ms` with whether `token` is still current. */
    wait: (ms, token) => new Promise((resolve) => setTimeout(() => resolve(token === view.token), ms)),
    /** Runs `draw(eased, raw)` each frame for `ms`; resolves with whether it ran to the end. */
    tween: (ms, token, draw) => new Promise((resolve) => {
      const t0 = performance.now();
      function step(now) {
        if (token !== view.token) return resolve(false);
        const k = Math.min(1, (now - t0) / ms);
        draw(k < 0.5 ? 2 * k * k : 1 - Math.pow(-2 * k + 2, 2) / 2, k);
        if (k < 1) requestAnimationFrame(step);
        else resolve(true);
      }
      requestAnimationFrame(step);
    }),
    setStage: (text) => { stageLabel.textContent = text; },
    setLabel: (text) => { turnLabel.textContent = text; },
  };

  function showTurn(turn) {
    view.turn = turn;
    game.show(turn);
    slider.value = turn;
    turnLabel.textContent = game.label(turn);
    document.body.dataset.turn = turn;
    document.body.dataset.state = view.playing ? "playing" : turn === last ? "ended" : "paused";
    const hash = turn + first < 0 ? "#start" : "#turn=" + (turn + first);
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }
  function stop() {
    view.token++;
    view.playing = false;
    playBtn.textContent = "Play";
    playBtn.setAttribute("aria-pressed", "false");
  }
  function jump(turn) {
    stop();
    api.setStage("");
    showTurn(Math.max(0, Math.min(last, turn)));
  }
  async function stepForward(keepPlaying) {
    if (view.turn >= last) return false;
    const token = keepPlaying ? view.token : ++view.token;
    const target = view.turn + 1;
    if (!(await game.animate(target, token, api))) return false;
    showTurn(target);
    return true;
  }
  async function play() {
    if (view.playing) return stop();
    if (view.turn >= last) showTurn(0);
    view.playing = true;
    view.token++;
    playBtn.textContent = "Pause";
    playBtn.setAttribute("aria-pressed", "true");
    document.body.dataset.state = "playing";
    const token = view.token;
    while (view.playing && token === view.token && view.turn < last) {
      if (!(await stepForward(true))) break;
      if (!(await api.wait(api.frameMs() / 2, token))) break;
    }
    if (token === view.token) {
      stop();
      showTurn(view.turn);
    }
  }

  slider.max = last;
  document.getElementById("first").addEventListener("click", () => jump(0));
  document.getElementById("back").addEventListener("click", () => jump(view.turn - 1));
  document.getElementById("forward").addEventListener("click", () => { stop(); stepForward(false); });
  document.getElementById("end").addEventListener("click", () => jump(last));
  playBtn.addEventListener("click", play);
  slider.addEventListener("input", () => jump(Number(slider.value)));
  const speed = document.getElementById("speed");
  speed.value = String(view.speed);
  speed.addEventListener("change", () => { view.speed = Number(speed.value); });
  document.addEventListener("keydown", (ev) => {
    if (ev.target && (ev.target.tagName === "SELECT" || (ev.target.tagName === "INPUT" && ev.target.type !== "range"))) return;
    if (ev.key === " " || ev.key === "k") { ev.preventDefault(); play(); }
    else if (ev.key === "ArrowRight") { ev.preventDefault(); if (ev.shiftKey) jump(view.turn + 1); else { stop(); stepForward(false); } }
    else if (ev.key === "ArrowLeft") { ev.preventDefault(); jump(view.turn - 1); }
    else if (ev.key === "Home") { ev.preventDefault(); jump(0); }
    else if (ev.key === "End") { ev.preventDefault(); jump(last); }
  });
  function fromHash() {
    const m = /turn=(\d+)/.exec(location.hash);
    return m ? Math.max(0, Math.min(last, Number(m[1]) - first)) : 0;
  }
  window.addEventListener("hashchange", () => { const t = fromHash(); if (t !== view.turn) jump(t); });
  showTurn(fromHash());
  return api;
}
