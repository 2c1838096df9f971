"use strict";
/* The table's page (issue 23; the server's API: docs/web.md). It shows what the server sends,
   the standings, the chart of the evening, the hands and the rules, and lets a player enter a
   hand by tapping cards. Every score comes from the server (the library's engine, through
   POST /api/preview): this file never computes one. Every name and text from the server goes
   into the page as text (textContent, Text nodes), never as HTML.

   data-testid, for the browser tests (tests/test_web_browser.py); seat is 0–3 in seat order,
   copy is 0 (1: a second deck's copy), n is a hand's number:
     header      ledger, status, offline; <body data-version>: the ledger version shown
     notices     notice, notice-text, notice-hand, notice-kept, discard, notice-close, said
     tabs        tab-standings, tab-entry, tab-hands, tab-rules, and panel-… for each
     standings   standings-title, standings, player-{seat}, name-{seat}, total-raw-{seat},
                 total-final-{seat}, to-go-{seat}, end-at, chart, end-line, legend
     hands       hands-cell, hands-none, hands-table, hand-row-{n}, hand-score-{n}-{seat} (the
                 hand's deciding score: raw, final in team play), hand-running-{n}-{seat},
                 hand-pig-{n}, hand-note-{n}, hand-detail, hand-text, hand-explain, hand-edit,
                 hand-remove, hand-close
     rules       rules
     entry       picks, pick-{seat}, preview-raw-{seat}, cards, card-{code}-{copy} (its
                 data-holder: the holder's name, "" if nobody; data-rest="1": by the rest),
                 missing, problem, rest, rest-is, exposures, expose-{code}-{copy}-{seat},
                 expose-{code}-{copy}-none, first-{code}-{copy}, first-pig,
                 first-pig-buttons, first-pig-{seat}, note, confirm, clear, undo, over, editing, editing-text,
                 stop-edit
     dialog      dialog, dialog-title, dialog-body, dialog-yes, dialog-no
*/

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_WORDS = { S: "suit.S", H: "suit.H", D: "suit.D", C: "suit.C" };
const NICKNAMES = { QS: "card.QS", JD: "card.JD", "10C": "card.10C" };
const COLORS = ["#1f6fbf", "#1e9e5a", "#d9731a", "#8a3fb8"]; // one a seat: chart, legend, cards

const KEY = document.documentElement.dataset.key;
const LANG = document.documentElement.dataset.lang;

let state = null; // the last state the server sent (GET /api/state)
let stateAsked = 0; // only the newest answer is shown: refreshes can cross
let entry = blankEntry(); // the hand being entered, by seat (names can be renamed meanwhile)
let picked = null; // the seat the taps give cards to
let editing = null; // the number of the hand being edited, or null: a new hand
// The per-hand token: the ledger's version when this entry began. A change sent with it is
// refused (409) if anything changed since, so two phones entering the same hand cannot both
// add it, and an edit never replaces a hand someone else just changed.
let token = null;
let preview = null; // the server's answer for the entry as it stands (POST /api/preview)
let previewAsked = 0;
let openHand = null; // the hand whose table and explanation are shown
let detail = null; // {number, version, data}: GET /api/hands/N for openHand

function blankEntry() {
  // exposed: by slot "CODE#copy", {seat, first}: each copy of an exposable card has one exposer.
  return { captured: [[], [], [], []], rest: null, exposed: {}, firstPig: null, note: "" };
}

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

function w(key, fields) {
  const text = state && key in state.words ? state.words[key] : key;
  return text.replace(/\{(\w+)\}/g, (all, k) => (fields && k in fields ? String(fields[k]) : all));
}

// An element with attributes and children; strings become Text nodes (never parsed as HTML).
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "testid") node.dataset.testid = value;
    else if (name === "onclick") node.addEventListener("click", value);
    else if (name === "seat") node.style.setProperty("--seat", COLORS[value]); // (CSP: no style="")
    else if (value !== null && value !== false) node.setAttribute(name, value === true ? "" : value);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
  return node;
}

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(text, testid, onclick, cls = null) {
  return el("button", { type: "button", testid, class: cls, onclick }, text);
}

async function api(path, body) {
  const sep = path.includes("?") ? "&" : "?";
  const url = `${path}${sep}key=${encodeURIComponent(KEY)}&lang=${encodeURIComponent(LANG)}`;
  const init =
    body === undefined
      ? { cache: "no-store" }
      : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let res;
  try {
    res = await fetch(url, init);
  } catch {
    setOffline(true);
    return { status: 0, data: { error: w("offline") } };
  }
  let data;
  try {
    data = await res.json();
  } catch {
    data = { error: `${res.status} ${res.statusText}` };
  }
  return { status: res.status, data };
}

async function refresh() {
  const asked = ++stateAsked;
  const r = await api("api/state");
  if (asked !== stateAsked) return;
  if (r.status === 200) adopt(r.data);
  else if (!state) $("status").textContent = r.data.error;
}

function adopt(next) {
  stateAsked++; // an older refresh still under way must not bring back the state before this
  const first = state === null;
  state = next;
  if (openHand !== null && openHand > state.match.hands.length) openHand = null;
  render();
  if (first) askPreview();
}

function setOffline(off) {
  $("offline").hidden = !off;
}

// Server-sent events: a version a second phone or the command line made shows at once.
function listen() {
  const source = new EventSource(`api/events?key=${encodeURIComponent(KEY)}`);
  source.addEventListener("version", (event) => {
    setOffline(false);
    const { version } = JSON.parse(event.data);
    if (!state || version !== state.version) refresh();
  });
  source.onerror = () => {
    setOffline(true);
    // The browser retries by itself unless the answer was an error status; then start again.
    if (source.readyState === EventSource.CLOSED) setTimeout(listen, 2000);
  };
}

// ---------------------------------------------------------------------------------------------
// Rendering: the whole of a part is built again from the state (small, and never out of date).

function render() {
  document.title = `${w("title")} · ${state.ledger}`;
  for (const node of document.querySelectorAll("[data-w]")) node.textContent = w(node.dataset.w);
  document.body.dataset.version = state.version; // which state is shown (the tests wait on it)
  $("ledger").textContent = state.ledger;
  $("status").textContent = state.status;
  $("rules").textContent = state.rules;
  renderStandings();
  renderChart();
  renderHands();
  renderEntry();
}

const decidesOnFinal = () => state.decided_on === "final";

function renderStandings() {
  const m = state.match;
  $("standings-title").replaceChildren(
    w(decidesOnFinal() ? "standings.final" : "standings.raw"),
    el("small", { testid: "end-at" }, w("standings.end_at", { line: state.end_at })),
  );
  const rows = m.players.map((name, seat) => {
    const past = m.past_end.includes(name);
    const raw = el("span", { testid: `total-raw-${seat}` }, m.totals.raw[seat]);
    const fin = el("span", { testid: `total-final-${seat}` }, m.totals.final[seat]);
    const [big, small, smallWord] = decidesOnFinal()
      ? [fin, raw, "standings.raws"]
      : [raw, fin, "standings.finals"];
    big.className = "total";
    const toGo = past ? w("standings.past_end") : w("standings.to_go", { points: m.to_go[seat] });
    return el(
      "li",
      { testid: `player-${seat}`, class: past ? "past" : null, seat },
      el("span", { class: "name", testid: `name-${seat}` }, name),
      big,
      el("span", { class: "to-go", testid: `to-go-${seat}` }, toGo),
      el("span", { class: "other" }, `${w(smallWord)} `, small),
    );
  });
  $("standings").replaceChildren(...rows);
}

// The evening as an inline SVG: every player's running deciding total, hand by hand from 0,
// and the end line (in team play the end is reached at end_at or its opposite: both drawn).
function renderChart() {
  const rows = [[0, 0, 0, 0], ...state.deciding];
  const [W, H, left, right, top, bottom] = [340, 200, 44, 10, 12, 22];
  const ends = decidesOnFinal() ? [state.end_at, -state.end_at] : [state.end_at];
  const all = rows.flat().concat(ends, [0]);
  let [lo, hi] = [Math.min(...all), Math.max(...all)];
  const pad = (hi - lo) * 0.08 || 100;
  [lo, hi] = [lo - pad, hi + pad];
  const last = rows.length - 1;
  const x = (i) => left + (last === 0 ? 0 : (i * (W - left - right)) / last);
  const y = (v) => top + ((hi - v) * (H - top - bottom)) / (hi - lo);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": w("chart.title") });
  chart.append(svg("line", { x1: left, x2: W - right, y1: y(0), y2: y(0), class: "zero" }));
  chart.append(svg("text", { x: left - 4, y: y(0) + 4, class: "axis", "text-anchor": "end" }, "0"));
  for (const end of ends) {
    chart.append(
      svg("line", { x1: left, x2: W - right, y1: y(end), y2: y(end), class: "end", "data-testid": "end-line" }),
      svg("text", { x: left - 4, y: y(end) + 4, class: "axis end-label", "text-anchor": "end" }, end),
      svg("text", { x: W - right, y: y(end) - 5, class: "axis end-label", "text-anchor": "end" }, w("standings.end_at", { line: end })),
    );
  }
  const step = Math.max(1, Math.ceil(last / 10));
  for (let i = 0; i <= last; i += step) {
    const label = i === 0 ? w("chart.start") : i;
    chart.append(svg("text", { x: x(i), y: H - 6, class: "axis", "text-anchor": "middle" }, label));
  }
  for (let seat = 0; seat < 4; seat++) {
    const points = rows.map((row, i) => `${x(i).toFixed(1)},${y(row[seat]).toFixed(1)}`).join(" ");
    chart.append(svg("polyline", { points, class: "player", stroke: COLORS[seat] }));
    chart.append(svg("circle", { cx: x(last), cy: y(rows[last][seat]), r: 3.5, fill: COLORS[seat] }));
  }
  $("chart").replaceChildren(chart);
  const totals = rows[last];
  $("legend").replaceChildren(
    ...state.match.players.map((name, seat) =>
      el("li", { seat }, el("span", { class: "swatch" }), name, ` ${totals[seat]}`),
    ),
  );
}

function renderHands() {
  const m = state.match;
  const fin = decidesOnFinal();
  $("hands-cell").textContent = w(fin ? "hands.cell_final" : "hands.cell");
  $("hands-none").hidden = m.hands.length > 0;
  const head = el("tr", {}, el("th", {}, w("hands.number")), ...m.players.map((n) => el("th", {}, n)));
  head.append(el("th", {}, w("hands.pig")));
  const rows = [el("thead", {}, head)];
  const body = el("tbody");
  for (const h of m.hands) {
    const n = h.hand;
    const cells = m.players.map((_, s) =>
      el(
        "td",
        {},
        el("div", { testid: `hand-score-${n}-${s}` }, fin ? h.final[s] : h.raw[s]),
        el("div", { class: "running", testid: `hand-running-${n}-${s}` }, fin ? h.total_final[s] : h.total_raw[s]),
      ),
    );
    const row = el("tr", { testid: `hand-row-${n}`, class: openHand === n ? "open" : null }, el("th", {}, n));
    row.append(...cells, el("td", { class: "pig", testid: `hand-pig-${n}` }, h.pig.join(" ")));
    row.addEventListener("click", () => toggleHand(n));
    body.append(row);
    if (h.note) {
      body.append(el("tr", { class: "note-row" }, el("td", { colspan: 6, testid: `hand-note-${n}` }, h.note)));
    }
    if (openHand === n) body.append(el("tr", { class: "detail" }, el("td", { colspan: 6 }, handDetail(n))));
  }
  rows.push(body);
  $("hands-table").replaceChildren(...rows);
  if (openHand !== null && (!detail || detail.number !== openHand || detail.version !== state.version)) {
    loadDetail(openHand);
  }
}

function handDetail(n) {
  const box = el("div", { testid: "hand-detail" }, el("h3", {}, w("hand.title", { number: n })));
  if (!detail || detail.number !== n) return box;
  box.append(
    el("pre", { testid: "hand-text" }, detail.data.text),
    el("details", {}, el("summary", {}, w("hand.explain")), el("pre", { class: "explain", testid: "hand-explain" }, detail.data.explain)),
    el(
      "div",
      { class: "actions" },
      button(w("hand.edit"), "hand-edit", () => editHand(n)),
      button(w("hand.remove"), "hand-remove", () => removeHand(n), "danger"),
      button(w("hand.close"), "hand-close", () => toggleHand(n)),
    ),
  );
  return box;
}

function toggleHand(n) {
  openHand = openHand === n ? null : n;
  renderHands();
}

async function loadDetail(n) {
  const version = state.version;
  const r = await api(`api/hands/${n}`);
  if (r.status !== 200 || openHand !== n) return;
  detail = { number: n, version, data: r.data };
  renderHands();
}

// ---------------------------------------------------------------------------------------------
// The entry panel.

const cardOf = (code) => state.cards.find((c) => c.code === code);
const symbolOf = (code) => {
  const card = cardOf(code);
  return card ? card.symbol : code;
};

// Who holds each copy of a card: the seats that were given it, in seat order, then the seat
// taking the rest for every copy left (marked "rest"), else null: nobody yet.
function holders(card) {
  const held = [];
  entry.captured.forEach((codes, seat) => {
    for (const code of codes) if (code === card.code) held.push({ seat, rest: false });
  });
  while (held.length < card.copies) held.push(entry.rest === null ? null : { seat: entry.rest, rest: true });
  return held;
}

function renderEntry() {
  const m = state.match;
  const names = m.players;
  $("editing").hidden = editing === null;
  $("editing-text").textContent = editing === null ? "" : w("entry.editing", { number: editing });

  $("picks").replaceChildren(
    ...names.map((name, seat) => {
      const raw = preview && preview.raw ? preview.raw[seat] : "";
      const b = button(null, `pick-${seat}`, () => pick(seat), picked === seat ? "pick on" : "pick");
      b.setAttribute("aria-pressed", String(picked === seat));
      b.style.setProperty("--seat", COLORS[seat]);
      b.append(el("span", { class: "name" }, name), el("span", { class: "raw", testid: `preview-raw-${seat}` }, raw));
      return b;
    }),
  );

  // The special cards first, then the hearts under their suit's name (the order the server gives).
  const groups = [];
  for (const card of state.cards) {
    const label = card.suit === "H" ? w(SUIT_WORDS.H) : "";
    if (!groups.length || groups[groups.length - 1].label !== label) groups.push({ label, faces: [] });
    holders(card).forEach((holder, copy) => groups[groups.length - 1].faces.push(face(card, copy, holder)));
  }
  $("cards").replaceChildren(
    ...groups.flatMap((g) => [g.label ? el("h3", { class: "suit-H" }, g.label) : null, el("div", { class: "faces" }, ...g.faces)]).filter(Boolean),
  );

  const missing = preview ? preview.unplaced : [];
  $("missing").replaceChildren(
    preview && preview.complete
      ? w("entry.all_in")
      : `${w("entry.missing")} ${missing.map(symbolOf).join(" ")}`,
  );
  const problem = preview && preview.problem;
  $("problem").hidden = !problem;
  $("problem").textContent = problem || "";

  const rest = $("rest");
  rest.textContent = picked === null ? w("entry.rest_none") : w("entry.rest", { name: names[picked] });
  rest.disabled = picked === null;
  rest.classList.toggle("on", picked !== null && entry.rest === picked);
  $("rest-is").textContent = entry.rest === null ? "" : w("entry.rest_is", { name: names[entry.rest] });

  renderExposures(names);

  const asks = Boolean(preview && preview.asks_first_pig);
  $("first-pig").hidden = !asks;
  $("first-pig-buttons").replaceChildren(
    ...names.map((name, seat) =>
      button(name, `first-pig-${seat}`, () => setFirstPig(seat), entry.firstPig === seat ? "on" : null),
    ),
  );
  const note = $("note");
  if (document.activeElement !== note) note.value = entry.note;

  const over = m.ended && editing === null;
  $("over").hidden = !over;
  $("confirm").disabled = over || !(preview && preview.complete && !preview.problem);
  $("undo").disabled = m.hands.length === 0;
}

function face(card, copy, holder) {
  const name = holder ? state.match.players[holder.seat] : "";
  const nick = NICKNAMES[card.code];
  const b = button(null, `card-${card.code}-${copy}`, () => tapCard(card.code, holder), `face suit-${card.suit}`);
  b.dataset.holder = name;
  if (holder) {
    b.classList.add("held");
    if (holder.rest) b.classList.add("rest");
    b.style.setProperty("--seat", COLORS[holder.seat]);
    if (holder.rest) b.dataset.rest = "1";
  }
  b.title = card.name;
  b.append(el("span", { class: "rank" }, card.code.slice(0, -1).replace("T", "10")));
  b.append(el("span", { class: "suit" }, SUITS[card.suit] || card.suit));
  if (nick) b.append(el("span", { class: "nick" }, w(nick)));
  b.append(el("span", { class: "who" }, name));
  return b;
}

function renderExposures(names) {
  const rows = [];
  for (const card of state.cards.filter((c) => c.exposable)) {
    for (let copy = 0; copy < card.copies; copy++) {
      const slot = `${card.code}#${copy}`;
      const now = entry.exposed[slot];
      const seg = el("div", { class: "seg" });
      seg.append(button(w("entry.nobody"), `expose-${card.code}-${copy}-none`, () => expose(slot, null), now ? null : "on"));
      names.forEach((name, seat) => {
        const on = now && now.seat === seat;
        seg.append(button(name, `expose-${card.code}-${copy}-${seat}`, () => expose(slot, seat), on ? "on" : null));
      });
      const row = el(
        "div",
        { class: "exposure" },
        el("span", { class: `mini suit-${card.suit}` }, card.symbol),
        seg,
      );
      if (state.first_exposure && now) {
        const first = button(w("entry.first_exposed"), `first-${card.code}-${copy}`, () => toggleFirst(slot), now.first ? "first on" : "first");
        first.setAttribute("aria-pressed", String(now.first));
        row.append(first);
      }
      rows.push(row);
    }
  }
  $("exposures").replaceChildren(...rows);
}

// ----- taps

function pick(seat) {
  picked = seat; // (not a toggle: tapping the picked player again must not drop them)
  renderEntry();
}

function tapCard(code, holder) {
  const names = state.match.players;
  if (holder && !holder.rest) {
    if (holder.seat !== picked) {
      toast(w("entry.held", { card: cardOf(code).name, name: names[holder.seat] }));
      return;
    }
    const codes = entry.captured[holder.seat];
    codes.splice(codes.indexOf(code), 1); // tapped again: taken back
  } else {
    if (picked === null) return toast(w("entry.pick_first"));
    if (holder && holder.seat === picked) return; // the rest gives it to them already
    entry.captured[picked].push(code);
  }
  changed();
}

function tapRest() {
  if (picked === null) return;
  if (entry.rest === picked) entry.rest = null;
  else {
    entry.rest = picked;
    entry.captured[picked] = []; // the seat taking the rest holds nothing of its own (as at the CLI)
  }
  changed();
}

function expose(slot, seat) {
  if (seat === null || (entry.exposed[slot] && entry.exposed[slot].seat === seat)) delete entry.exposed[slot];
  else entry.exposed[slot] = { seat, first: false };
  changed();
}

function toggleFirst(slot) {
  entry.exposed[slot].first = !entry.exposed[slot].first;
  changed();
}

function setFirstPig(seat) {
  entry.firstPig = entry.firstPig === seat ? null : seat;
  changed();
}

const isBlank = (e) =>
  e.captured.every((c) => c.length === 0) && e.rest === null && Object.keys(e.exposed).length === 0;

function changed() {
  if (editing === null) token = isBlank(entry) ? null : (token ?? state.version);
  if (preview) preview = { ...preview, complete: false }; // until the server has seen this entry
  renderEntry();
  askPreview();
}

function clearEntry() {
  entry = blankEntry();
  editing = null;
  token = null;
  changed();
}

// The entry as the API reads it (ENTRY): by player name.
function toEntry() {
  const names = state.match.players;
  const captured = {};
  const exposed = {};
  const first = {};
  names.forEach((name, seat) => (captured[name] = entry.captured[seat].slice()));
  for (const [slot, { seat, first: isFirst }] of Object.entries(entry.exposed)) {
    const into = isFirst ? first : exposed;
    (into[names[seat]] ??= []).push(slot.split("#")[0]);
  }
  const asks = preview && preview.asks_first_pig && entry.firstPig !== null;
  const out = {
    captured,
    rest: entry.rest === null ? null : names[entry.rest],
    exposed,
    first_exposed: first,
    first_pig: asks ? names[entry.firstPig] : null,
  };
  if (entry.note.trim()) out.note = entry.note.trim();
  return out;
}

// A hand from the server (ENTRY, for an edit) as this panel keeps it.
function fromEntry(given) {
  const names = state.match.players;
  const seatOf = (name) => names.indexOf(name);
  const e = blankEntry();
  for (const [name, codes] of Object.entries(given.captured || {})) e.captured[seatOf(name)] = codes.slice();
  if (given.rest) e.rest = seatOf(given.rest);
  for (const [map, isFirst] of [[given.exposed || {}, false], [given.first_exposed || {}, true]]) {
    for (const [name, codes] of Object.entries(map)) {
      for (const code of codes) {
        let copy = 0;
        while (`${code}#${copy}` in e.exposed) copy++;
        e.exposed[`${code}#${copy}`] = { seat: seatOf(name), first: isFirst };
      }
    }
  }
  if (given.first_pig) e.firstPig = seatOf(given.first_pig);
  e.note = given.note || "";
  return e;
}

async function askPreview() {
  const asked = ++previewAsked;
  const r = await api("api/preview", { entry: toEntry() });
  if (asked !== previewAsked) return; // a later tap has asked again
  preview =
    r.status === 200
      ? r.data
      : { raw: null, final: null, unplaced: [], rest_cards: [], complete: false, asks_first_pig: false, problem: r.data.error };
  renderEntry();
}

// ---------------------------------------------------------------------------------------------
// Changes: each asked first in the dialog (what will change), then sent with the version seen.

function ask(title, body) {
  const dialog = $("dialog");
  $("dialog-title").textContent = title;
  $("dialog-body").replaceChildren(...body);
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) =>
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true }),
  );
}

// What the hand will be: each player's cards, raw and final (from the preview); for an edit,
// the hand's raw scores before and after.
function previewTable() {
  const names = state.match.players;
  const before = editing === null ? null : state.match.hands[editing - 1];
  const raw = w("entry.raw");
  const head = before
    ? ["", `${w("ask.before")}: ${raw}`, `${w("ask.after")}: ${raw}`, w("entry.final")]
    : ["", raw, w("entry.final")];
  const rows = names.map((name, seat) => {
    const cards = entry.captured[seat].slice();
    if (entry.rest === seat) cards.push(...(preview.rest_cards || []));
    const who = el("th", {}, name, el("div", { class: "cards-line" }, cards.map(symbolOf).join(" ")));
    const cells = [who];
    if (before) cells.push(el("td", { class: "before" }, before.raw[seat]));
    cells.push(el("td", {}, preview.raw[seat]), el("td", {}, preview.final[seat]));
    return el("tr", {}, ...cells);
  });
  const top = el("tr", {}, ...head.map((h) => el("th", {}, h)));
  return el("table", { class: "ask" }, el("thead", {}, top), el("tbody", {}, ...rows));
}

async function confirmEntry() {
  const version = token ?? state.version;
  const number = editing ?? state.match.hands.length + 1;
  const kind = editing === null ? "add" : "edit";
  if (!(await ask(w(kind === "add" ? "ask.add" : "ask.edit", { number }), [previewTable()]))) return;
  const path = editing === null ? "api/hands" : `api/hands/${editing}/edit`;
  afterChange(await api(path, { version, entry: toEntry() }), kind);
}

async function handText(n) {
  if (detail && detail.number === n && detail.version === state.version) return detail.data.text;
  const r = await api(`api/hands/${n}`);
  return r.status === 200 ? r.data.text : r.data.error;
}

async function removeHand(n) {
  const version = state.version;
  const text = await handText(n);
  if (!(await ask(w("ask.remove", { number: n }), [el("pre", {}, text)]))) return;
  afterChange(await api(`api/hands/${n}/remove`, { version }), "remove");
}

async function undoHand() {
  const version = state.version;
  const n = state.match.hands.length;
  if (n === 0) return;
  const text = await handText(n);
  if (!(await ask(w("ask.undo", { number: n }), [el("pre", {}, text)]))) return;
  afterChange(await api("api/undo", { version }), "undo");
}

async function editHand(n) {
  const r = await api(`api/hands/${n}`);
  if (r.status !== 200) return notice(r.data.error);
  entry = fromEntry(r.data.entry);
  editing = n;
  token = state.version;
  picked = null;
  show("entry");
  changed();
}

function afterChange(r, kind) {
  if (r.status === 200) {
    adopt(r.data.state);
    toast(r.data.said);
    if (kind === "add" || kind === "edit") {
      clearEntry();
      show(kind === "add" ? "standings" : "hands");
    }
  } else if (r.status === 409 && r.data.state) {
    adopt(r.data.state);
    conflict(kind);
  } else {
    notice(r.data.error);
  }
}

// Another phone or the command line changed the ledger first: show what it did (the last hand:
// for an add, the hand that won) and keep this phone's entry, to send again or discard.
async function conflict(kind) {
  const n = state.match.hands.length;
  const kept = (kind === "add" || kind === "edit") && !isBlank(entry);
  if (kept) token = state.version; // sending it again now is this phone's own decision
  notice(w("conflict"), n > 0 ? await handText(n) : null, kept);
}

function notice(text, hand = null, kept = false) {
  $("notice").hidden = false;
  $("notice-text").textContent = text;
  $("notice-hand").hidden = hand === null;
  $("notice-hand").textContent = hand || "";
  $("notice-kept").hidden = !kept;
  $("discard").hidden = !kept;
  $("notice").scrollIntoView({ block: "nearest" });
}

let toastTimer = null;
function toast(text) {
  const said = $("said");
  said.textContent = text;
  said.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (said.hidden = true), 3500);
}

function show(tab) {
  for (const name of ["standings", "entry", "hands", "rules"]) {
    $(`panel-${name}`).hidden = name !== tab;
    $(`tab-${name}`).toggleAttribute("aria-current", name === tab);
  }
  window.scrollTo(0, 0);
}

function start() {
  for (const name of ["standings", "entry", "hands", "rules"]) {
    $(`tab-${name}`).addEventListener("click", () => show(name));
  }
  $("rest").addEventListener("click", tapRest);
  $("confirm").addEventListener("click", confirmEntry);
  $("clear").addEventListener("click", clearEntry);
  $("stop-edit").addEventListener("click", clearEntry);
  $("undo").addEventListener("click", undoHand);
  $("note").addEventListener("input", (event) => (entry.note = event.target.value));
  $("notice-close").addEventListener("click", () => ($("notice").hidden = true));
  $("discard").addEventListener("click", () => {
    $("notice").hidden = true;
    clearEntry();
  });
  refresh();
  listen();
}

start();
