"use strict";
/* The table's page (the server's API: docs/web.md). It shows what the server sends: the
   standings, the chart of the evening, the hands, the rules and the folder's matches; it lets a
   player enter a hand by tapping cards, start a match, rename a player. Every score comes from
   the server (the library's engine, through POST api/preview): this file never computes one.
   Every name and text from the server goes into the page as text (textContent, Text nodes),
   never as HTML.

   data-testid, for the browser tests (tests/test_web_browser.py); seat is 0–3 in seat order,
   rank 0–3 in the standings' order, copy is 0 (1: a second deck's copy), n a hand's number:
     header      ledger, status, offline; <body data-version>: the ledger version shown,
                 <body data-match>: the match shown, <body data-kept="1">: a kept copy, read-only
     notices     notice, notice-text, notice-hand, notice-kept, discard, notice-close, said
     tabs        tab-standings, tab-entry, tab-hands, tab-rules, tab-matches, and panel-… for each
     standings   standings-title, standings, player-{rank} (data-seat), name-{rank},
                 total-{rank} (the deciding total), other-{rank} (the other total, labelled),
                 to-go-{rank}, end-at, ended, ended-text, again, next-match, chart, end-line,
                 legend, share-text, share-chart
     hands       hands-cell, hands-none, hands-table, hand-row-{n}, hand-score-{n}-{seat} (the
                 hand's deciding score), hand-running-{n}-{seat}, hand-pig-{n}, hand-note-{n},
                 hand-detail, detail-{seat} (detail-raw-, detail-final-, detail-total-{seat}),
                 hand-explain, hand-edit, hand-remove, hand-close
     rules       rules-title, rules-line, rules (rule-{key})
     matches     tournaments, tournament-{file}, trow-{file}-{rank}, tournament-status-{file},
                 table-{ledger}, matches, match-{name}, new-match, new-players (new-player-{seat}), new-rules,
                 new-teams, new-end, new-name, new-problem, new-start, rename, rename-old,
                 rename-new, rename-go
     entry       picks, pick-{seat}, dock, running, preview-raw-{seat}, cards, card-{code}-{copy}
                 (its data-holder: the holder's name, "" if nobody; data-rest="1": by the rest),
                 missing, problem, rest, rest-is, full-red, grand-slam, exposures,
                 expose-{code}-{copy}-{seat}, expose-{code}-{copy}-none, first-{code}-{copy},
                 first-pig, first-pig-buttons, first-pig-{seat}, auto-played, auto-played-none,
                 auto-played-{seat}, last-card, note, confirm, clear, undo, over,
                 over-text, over-again, over-next, editing, editing-text, stop-edit
     dialog      dialog, dialog-title, dialog-body, dialog-yes, dialog-no
*/

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const NICKNAMES = { QS: "card.QS", JD: "card.JD", "10C": "card.10C" };
const DASHES = ["", "7 3", "2 3", "9 3 2 3"]; // one a seat: lines that coincide stay apart
const TABS = ["standings", "entry", "hands", "rules", "matches", "players"];
const DONE = { add: "done.add", edit: "done.edit", remove: "done.remove", undo: "done.undo" };
const TEAMS = { none: "teams.none", partners: "teams.partners", "pig-sheep": "teams.pig-sheep" };
const SEATS = ["seat.0", "seat.1", "seat.2", "seat.3"]; // North, West, South, East (rulings §1)
const REGIMES = { tournament: "auto.tournament", island: "auto.island" };
const THEMES = { auto: "theme.auto", light: "theme.light", dark: "theme.dark" };

const KEY = document.documentElement.dataset.key;
const LANG = document.documentElement.dataset.lang;
const STORE = `gongzhu:${KEY.slice(0, 8)}`; // this server's keys in localStorage

let state = null; // the last state the server sent (GET api/state)
let kept = false; // the state shown is a kept copy (the server is gone): read-only
// The match this phone shows: the one its address names, else the one it was on last (kept on
// the phone, so a new tab, a restarted browser or the home-screen icon come back to this table),
// else (null) the folder's current one.
let match = new URLSearchParams(location.search).get("match") || remembered("match");
let listing = null; // GET api/matches
let stateAsked = 0; // only the newest answer is shown: refreshes can cross
let entry = blankEntry(); // the hand being entered, by seat (names can be renamed meanwhile)
let picked = null; // the seat the taps give cards to
let editing = null; // the number of the hand being edited, or null: a new hand
// The per-hand token: the ledger's version when this entry began. A change sent with it is
// refused (409) if anything changed since, so two phones entering the same hand cannot both
// add it, and an edit never replaces a hand someone else just changed.
let token = null;
let preview = null; // the server's answer for the entry as it stands (POST api/preview)
let previewAsked = 0;
let openHand = null; // the hand whose table and explanation are shown
let detail = null; // {number, version, data}: GET api/hands/N for openHand
let tab = sessionStorage.getItem(`${STORE}:tab`) || "standings"; // (kept across a reload)

// What this phone keeps for this server (localStorage): its match, language, theme.
function remembered(what) {
  try {
    return localStorage.getItem(`${STORE}:${what}`);
  } catch {
    return null;
  }
}

function remember(what, value) {
  try {
    if (value === null) localStorage.removeItem(`${STORE}:${what}`);
    else localStorage.setItem(`${STORE}:${what}`, value);
  } catch {
    /* (storage refused: only this page keeps it) */
  }
}

// The address names the match shown, so a bookmark, a shared link or a reload opens it.
function showInAddress(name) {
  const url = new URL(location.href);
  if (url.searchParams.get("match") === name) return;
  if (name === null) url.searchParams.delete("match");
  else url.searchParams.set("match", name);
  history.replaceState(null, "", url);
}

function blankEntry() {
  // exposed: by slot "CODE#copy", {seat, first}: each copy of an exposable card has one exposer.
  return { captured: [[], [], [], []], rest: null, exposed: {}, firstPig: null, autoPlayed: null, lastCard: false, note: "" };
}

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const colour = (seat) => (state && state.colours ? state.colours[seat] : "#5f6b76");

function w(key, fields) {
  const words = state ? state.words : listing ? listing.words : null;
  const text = words && key in words ? words[key] : key;
  return text.replace(/\{(\w+)\}/g, (all, k) => (fields && k in fields ? String(fields[k]) : all));
}

// An element with attributes and children; strings become Text nodes (never parsed as HTML).
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "testid") node.dataset.testid = value;
    else if (name === "onclick") node.addEventListener("click", value);
    else if (name === "seat") node.style.setProperty("--seat", colour(value)); // (CSP: no style="")
    else if (value !== null && value !== false && value !== undefined)
      node.setAttribute(name, value === true ? "" : value);
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

const localTime = (iso) => (iso ? new Date(iso).toLocaleString(LANG === "en" ? "en" : LANG === "zh" ? "zh-CN" : "zh-TW", { dateStyle: "short", timeStyle: "short" }) : "");

async function api(path, body, { withMatch = true } = {}) {
  const sep = path.includes("?") ? "&" : "?";
  const which = withMatch && state ? `&match=${encodeURIComponent(state.ledger)}` : withMatch && match ? `&match=${encodeURIComponent(match)}` : "";
  const url = `${path}${sep}key=${encodeURIComponent(KEY)}&lang=${encodeURIComponent(LANG)}${which}`;
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
  return { status: res.status, data, kept: res.headers.get("X-Gongzhu-Kept") === "1" };
}

async function refresh() {
  const asked = ++stateAsked;
  const r = await api("api/state");
  if (asked !== stateAsked) return;
  if (r.status === 200) return adopt(r.data, r.kept);
  if (r.status === 0 && !state) return showKept();
  if (r.status === 400 && match && !state) {
    match = null; // the match this phone showed is gone: the current one
    remember("match", null);
    showInAddress(null);
    return refresh();
  }
  if (!state) showBare(r.data.error);
}

// No match here yet: the page to start one.
function showBare(said) {
  for (const node of document.querySelectorAll("[data-w]")) node.textContent = w(node.dataset.w);
  for (const other of TABS) $(`tab-${other}`).hidden = other !== "matches";
  $("status").textContent = said || w("matches.none");
  renderMatches();
  renderSettings();
  show("matches");
}

function adopt(next, fromCache = false) {
  stateAsked++; // an older refresh still under way must not bring back the state before this
  const first = state === null || state.ledger !== next.ledger;
  const wasKept = kept;
  state = next;
  kept = fromCache;
  if (!fromCache) {
    try {
      localStorage.setItem(`${STORE}:last`, JSON.stringify(next));
    } catch {
      /* (a full or refused storage only loses the offline copy) */
    }
  }
  if (first) {
    match = state.ledger;
    if (!fromCache) remember("match", match);
    showInAddress(match);
    restoreDraft();
    listen();
  }
  if (openHand !== null && openHand > state.match.hands.length) openHand = null;
  render();
  if (first && !TABS.includes(tab)) tab = "standings";
  if (first) show(tab);
  setOffline(fromCache);
  if (first && !kept) askPreview();
  if (!fromCache && wasKept) listen();
  if (fromCache) retryLater();
}

// The server did not answer a preview: ask again every 2 seconds until it does, so the entry
// comes back by itself even when the live feed is slow to return.
let previewRetry = null;
function retryPreview() {
  if (previewRetry) return;
  previewRetry = setTimeout(() => {
    previewRetry = null;
    if (preview && preview.offline) askPreview();
  }, 2000);
}

// Shown from a kept copy: ask the server again now and then; once it answers, live again.
let retrying = null;
function retryLater() {
  if (retrying) return;
  retrying = setInterval(() => {
    if (!kept) {
      clearInterval(retrying);
      retrying = null;
      return;
    }
    refresh();
  }, 5000);
}

// With the server gone and no page loaded yet: the last state this phone saw, read-only.
function showKept() {
  let last = null;
  try {
    last = JSON.parse(localStorage.getItem(`${STORE}:last`) || "null");
  } catch {
    last = null;
  }
  if (last) adopt(last, true);
  setOffline(true);
}

function setOffline(off) {
  const shown = off || kept;
  $("offline").hidden = !shown;
  $("offline").textContent = kept ? w("offline.kept") : w("offline");
  document.body.dataset.kept = kept ? "1" : "";
}

// Server-sent events: a version a second phone or the command line made shows at once; a match
// started elsewhere shows in the list.
let source = null;
function listen() {
  if (source) source.close();
  if (!state || kept) return;
  const url = `api/events?key=${encodeURIComponent(KEY)}&match=${encodeURIComponent(state.ledger)}`;
  const mine = new EventSource(url);
  source = mine;
  mine.addEventListener("version", (event) => {
    const wasOff = !$("offline").hidden;
    setOffline(false);
    const { version } = JSON.parse(event.data);
    if (!state || version !== state.version || kept) refresh();
    // Back after a drop or a restart: the hand being entered is asked again, so its running
    // scores and Confirm come back without a tap.
    if (wasOff || (preview && preview.offline)) askPreview();
  });
  // (the list is read again where it is shown: the matches tab, or a finished match's way on)
  mine.addEventListener("matches", () => {
    if (tab === "matches" || (state && state.match.ended)) loadMatches();
    if (tab === "players") loadSeason();
  });
  mine.onerror = () => {
    setOffline(true);
    // The browser retries by itself unless the answer was an error status; then start again.
    if (mine.readyState === EventSource.CLOSED && source === mine) setTimeout(listen, 2000);
  };
}

// ---------------------------------------------------------------------------------------------
// Rendering: the whole of a part is built again from the state (small, and never out of date).

function render() {
  for (const other of TABS) $(`tab-${other}`).hidden = false;
  showPlayersTab();
  document.title = `${w("title")} · ${labelOf(state.match)}`;
  for (const node of document.querySelectorAll("[data-w]")) node.textContent = w(node.dataset.w);
  document.body.dataset.version = state.version; // which state is shown (the tests wait on it)
  document.body.dataset.match = state.ledger;
  $("ledger").textContent = labelOf(state.match);
  $("status").textContent = state.status;
  renderStandings();
  renderChart();
  renderHands();
  renderRules();
  renderEntry();
  renderMatches();
  renderSettings();
}

const decidesOnFinal = () => state.decided_on === "final";
const number = (v) => (typeof v === "number" && v > 0 ? `+${v}` : String(v));

function renderStandings() {
  const m = state.match;
  $("standings-title").replaceChildren(
    w(decidesOnFinal() ? "standings.final" : "standings.raw"),
    el("small", { testid: "end-at" }, endLineText()),
  );
  const rows = state.ranking.map((p, rank) => {
    const toGo = p.past ? w("standings.past_end") : toGoText(p);
    const otherWord = decidesOnFinal() ? "standings.raws" : "standings.finals";
    return el(
      "li",
      { testid: `player-${rank}`, class: p.past ? "past" : null, seat: p.seat, "data-seat": p.seat },
      el("span", { class: "rank" }, String(p.rank)),
      el("span", { class: "name", testid: `name-${rank}` }, p.name),
      el("span", { class: "total", testid: `total-${rank}` }, String(p.total)),
      el("span", { class: "to-go", testid: `to-go-${rank}` }, toGo),
      el("span", { class: "other" }, `${w(otherWord)} `, el("b", { testid: `other-${rank}` }, String(p.other))),
    );
  });
  $("standings").replaceChildren(...rows);
  // (the status line above says how it ended: here only the ways on, no second status)
  const ended = m.ended;
  $("ended").hidden = !ended;
  renderNext($("next-match"));
  $("again").hidden = !ended || kept || !(listing && listing.can_start) || Boolean(nextOf());
}

// The end line as the standings say it: in team play both ways (−1000 and +1000).
function endLineText() {
  if (!decidesOnFinal()) return w("standings.end_at", { line: state.end_at });
  return w("standings.end_at_team", { low: state.end_at, high: `+${-state.end_at}` });
}

// How far a player is from the end: never "to go" for a leader, who is far above it; in team
// play, to the nearer of the two lines.
function toGoText(p) {
  if (!decidesOnFinal()) return w("standings.to_go", { points: p.to_go });
  const line = p.total >= 0 ? `+${-state.end_at}` : String(state.end_at);
  return w("standings.to_go_team", { points: p.to_go, line });
}

// The match started from this one (再来一盘, match new --like), if any: the only way on.
function nextOf() {
  return (listing && state && listing.matches.find((x) => x.follows === state.ledger)) || null;
}

// A match as the page names it: its table (its title), else its players; never its file.
function labelOf(x) {
  return x.title || (x.players || []).join("、");
}

// The way to the next match, once this one is over: the one started from it, and no other.
function renderNext(node) {
  const next = nextOf();
  node.hidden = !(state.match.ended && next);
  node.textContent = next ? w("matches.next", { name: labelOf(next), when: localTime(next.started || next.changed) }) : "";
  node.onclick = next ? () => choose(next.name) : null;
}

// The evening as an inline SVG: every player's running deciding total, hand by hand from 0,
// and the end line (in team play the end is reached at end_at or its opposite: both drawn).
function chartSvg() {
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
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": w("chart.title"), xmlns: "http://www.w3.org/2000/svg" });
  chart.append(svg("rect", { x: 0, y: 0, width: W, height: H, class: "bg" }));
  chart.append(svg("line", { x1: left, x2: W - right, y1: y(0), y2: y(0), class: "zero" }));
  chart.append(svg("text", { x: left - 4, y: y(0) + 4, class: "axis", "text-anchor": "end" }, "0"));
  for (const end of ends) {
    chart.append(
      svg("line", { x1: left, x2: W - right, y1: y(end), y2: y(end), class: "end", "data-testid": "end-line" }),
      svg("text", { x: left - 4, y: y(end) + 4, class: "axis end-label", "text-anchor": "end" }, end),
    );
  }
  const step = Math.max(1, Math.ceil(last / 10));
  for (let i = 0; i <= last; i += step) {
    const label = i === 0 ? w("chart.start") : i;
    chart.append(svg("text", { x: x(i), y: H - 6, class: "axis", "text-anchor": "middle" }, label));
  }
  // Later seats thinner and dashed on top, a little apart: equal totals never hide a line.
  for (let seat = 0; seat < 4; seat++) {
    const shift = (seat - 1.5) * 1.2;
    const points = rows.map((row, i) => `${x(i).toFixed(1)},${(y(row[seat]) + shift).toFixed(1)}`).join(" ");
    const attrs = { points, class: "player", stroke: colour(seat), "stroke-width": 3 - seat * 0.45, "data-seat": seat };
    if (DASHES[seat]) attrs["stroke-dasharray"] = DASHES[seat];
    chart.append(svg("polyline", attrs));
    chart.append(svg("circle", { cx: x(last), cy: y(rows[last][seat]) + shift, r: 3.5 - seat * 0.4, fill: colour(seat) }));
  }
  return chart;
}

function renderChart() {
  $("chart").replaceChildren(chartSvg());
  const totals = state.deciding.length ? state.deciding[state.deciding.length - 1] : [0, 0, 0, 0];
  $("legend").replaceChildren(
    ...state.match.players.map((name, seat) =>
      el("li", { seat }, el("span", { class: `swatch dash-${seat}` }), `${name} ${totals[seat]}`),
    ),
  );
}

function renderHands() {
  const m = state.match;
  const final = decidesOnFinal();
  $("hands-cell").textContent = w(final ? "hands.cell_final" : "hands.cell");
  $("hands-none").hidden = m.hands.length > 0;
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, w("hands.number")),
    ...m.players.map((name, seat) => el("th", { scope: "col", seat, class: "who" }, name)),
    el("th", { scope: "col" }, w("hands.pig")),
  );
  const body = [];
  for (const h of m.hands) {
    const n = h.hand;
    const score = final ? h.final : h.raw;
    const running = final ? h.total_final : h.total_raw;
    body.push(
      el(
        "tr",
        { testid: `hand-row-${n}`, class: openHand === n ? "open" : null, onclick: () => toggleHand(n), tabindex: 0, role: "button", "aria-expanded": String(openHand === n) },
        el("th", { scope: "row" }, n),
        ...score.map((v, seat) =>
          el("td", { testid: `hand-score-${n}-${seat}` }, String(v), el("div", { class: "running", testid: `hand-running-${n}-${seat}` }, String(running[seat]))),
        ),
        el("td", { class: "pig", testid: `hand-pig-${n}` }, h.pig.join("+")),
      ),
    );
    if (h.auto_played) {
      const said = w(h.last_card ? "hands.auto_last" : "hands.auto", { name: h.auto_played });
      body.push(el("tr", { class: "note-row" }, el("td", { colspan: 6, testid: `hand-auto-${n}` }, said)));
    }
    if (h.note) body.push(el("tr", { class: "note-row" }, el("td", { colspan: 6, testid: `hand-note-${n}` }, h.note)));
    if (openHand === n) body.push(el("tr", { class: "detail" }, el("td", { colspan: 6 }, handBox(n))));
  }
  $("hands-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...body));
}

// One hand's table as the page lays it out: a card per player (nothing cropped at 320 px).
function handTable(data) {
  const d = data.detail;
  const entered = data.hand.entered ? el("p", { class: "when" }, w("hand.entered", { time: localTime(data.hand.entered) })) : null;
  const marks = exposureMarks(data.hand.players);
  const cards = d.map((p, seat) =>
    el(
      "div",
      { class: "who-card", seat, testid: `detail-${seat}` },
      el("h4", {}, p.name, p.auto_played ? el("span", { class: "tag-auto", testid: `detail-auto-${seat}` }, w("hand.auto_played")) : null),
      el(
        "dl",
        {},
        el("dt", {}, w("hand.captured")),
        el("dd", { testid: `detail-cards-${seat}` }, ...markedCards(data.hand.players[seat].captured, marks)),
        p.exposed || p.first_exposed ? el("dt", {}, w("hand.exposed")) : null,
        p.exposed || p.first_exposed ? el("dd", {}, [p.exposed, p.first_exposed && `${p.first_exposed} (${w("entry.first_exposed")})`].filter(Boolean).join(" ")) : null,
      ),
      el(
        "p",
        { class: "nums" },
        el("span", {}, `${w("hand.raw")} `, el("b", { testid: `detail-raw-${seat}` }, String(p.raw))),
        el("span", {}, `${w("hand.final")} `, el("b", { testid: `detail-final-${seat}` }, String(p.final))),
        el("span", {}, `${w("hand.total")} `, el("b", { testid: `detail-total-${seat}` }, String(p.total))),
      ),
    ),
  );
  const note = data.hand.note ? el("p", { class: "note-line" }, `${w("entry.note")}: `, data.hand.note) : null;
  return el("div", { class: "hand-table" }, ...cards, note, entered);
}

function explanationBox(x) {
  const auto = x.auto_played || [];
  return el(
    "div",
    { class: "explain", testid: "hand-explain" },
    el("p", {}, x.heading),
    el("p", {}, x.lead),
    x.partial ? el("p", { class: "problem" }, x.partial) : null,
    ...x.players.map((p) => el("section", {}, el("h4", {}, p.heading), el("ol", {}, ...p.steps.map((s) => el("li", {}, s))))),
    el("h4", {}, x.finals_heading),
    el("ul", {}, ...x.finals.map((s) => el("li", {}, s))),
    // 托管 (rulings §12.2): the lines explain LEDGER N ends with, after the finals they move.
    auto.length ? el("div", { class: "auto-lines", testid: "hand-explain-auto" }, ...auto.map((line) => el("p", {}, line))) : null,
  );
}

// Which copies of which cards were exposed in a hand (the exposure is the card's, whoever took
// it): code -> [{first}], one a copy exposed.
function exposureMarks(players) {
  const marks = {};
  for (const p of players) {
    for (const code of p.exposed || []) (marks[code] ??= []).push({ first: false });
    for (const code of p.first_exposed || []) (marks[code] ??= []).push({ first: true });
  }
  return marks;
}

// Card codes as the page shows them, each exposed copy with its mark (亮 or 首明) on it.
function markedCards(codes, marks) {
  if (!codes.length) return ["–"];
  const left = Object.fromEntries(Object.entries(marks).map(([code, list]) => [code, list.slice()]));
  const out = [];
  for (const code of codes) {
    if (out.length) out.push(" ");
    const mark = left[code] && left[code].length ? left[code].shift() : null;
    if (!mark) out.push(symbolOf(code));
    else out.push(el("span", { class: "shown-card" }, symbolOf(code), el("sup", { class: "mark" }, w(mark.first ? "face.first" : "face.exposed"))));
  }
  return out;
}

function handBox(n) {
  const box = el("div", { testid: "hand-detail" });
  if (!detail || detail.number !== n || detail.version !== state.version) {
    box.append(el("p", {}, w("loading")));
    loadDetail(n);
    return box;
  }
  const data = detail.data;
  if (!data) {
    box.append(el("h3", {}, w("hand.title", { number: n })), el("p", { class: "problem" }, detail.error || w("offline")));
    return box;
  }
  box.append(
    el("h3", {}, w("hand.title", { number: n })),
    handTable(data),
    el("details", {}, el("summary", {}, w("hand.explain")), explanationBox(data.explanation)),
  );
  if (!kept) {
    box.append(
      el(
        "div",
        { class: "buttons" },
        button(w("hand.edit"), "hand-edit", () => editHand(n)),
        button(w("hand.remove"), "hand-remove", () => removeHand(n), "danger"),
        button(w("hand.close"), "hand-close", () => toggleHand(n)),
      ),
    );
  }
  return box;
}

function toggleHand(n) {
  openHand = openHand === n ? null : n;
  renderHands();
}

async function loadDetail(n) {
  const version = state.version;
  const r = await api(`api/hands/${n}`);
  if (openHand !== n) return;
  // (a hand never opened while the server was there cannot be shown without it: said so)
  detail = { number: n, version, data: r.status === 200 ? r.data : null, error: r.data.error };
  renderHands();
}

function renderRules() {
  $("rules-title").textContent = state.rules_title;
  $("rules-line").textContent = state.rules_line;
  $("rules").replaceChildren(
    ...state.rules_rows.flatMap((r) => [el("dt", { testid: `rule-${r.rule}` }, r.name), el("dd", {}, r.value)]),
  );
}

// ---------------------------------------------------------------------------------------------
// The matches of the folder: the list, a new match, 再来一盘, a rename.

async function loadMatches() {
  const r = await api("api/matches", undefined, { withMatch: false });
  if (r.status !== 200) return;
  listing = r.data;
  if (state) {
    renderMatches();
    renderStandings();
    renderEntry();
  }
}

// A tournament of the folder (rulings §12.3): its standings, then its last round's tables, each
// a match of the folder to open. Every word and number is the server's (GET api/matches).
function renderTournaments() {
  const all = listing && listing.tournaments ? listing.tournaments : [];
  $("tournaments").replaceChildren(
    ...all.map((t) => {
      if (t.problem) return el("section", { class: "tournament", testid: `tournament-${t.file}` }, el("h2", {}, t.file), el("p", { class: "problem" }, t.problem));
      const head = el("tr", {}, ...t.headers.map((h) => el("th", { scope: "col" }, h)));
      const rows = t.players.map((p) =>
        el(
          "tr",
          { testid: `trow-${t.file}-${p.rank}` },
          el("td", {}, String(p.rank)),
          el("th", { scope: "row" }, p.name),
          el("td", {}, String(p.total)),
          el("td", { class: "what" }, p.decided),
        ),
      );
      const tables = t.tables.map((x) => {
        const title = w("tournament.table", { round: t.round, table: x.table });
        const hands = x.last_hand ? `${x.hands}/${x.last_hand}` : x.hands;
        return matchItem(x.ledger, `table-${x.ledger}`, title, null, matchWhat(x, hands));
      });
      return el(
        "section",
        { class: "tournament", testid: `tournament-${t.file}` },
        el("h2", {}, t.title),
        el("table", { class: "standings-table" }, el("thead", {}, head), el("tbody", {}, ...rows)),
        el("p", { class: "hint", testid: `tournament-status-${t.file}` }, t.status),
        el("ul", { class: "matches" }, ...tables),
      );
    }),
  );
}

// A match of the folder as the lists show it: its players, hands, end (and more); a tap opens it.
function matchWhat(x, hands, ...more) {
  const ended = x.ended ? (x.pig ? w("matches.ended", { pig: x.pig }) : w("matches.drawn")) : null;
  return [x.players.join("、"), w("matches.hands", { count: hands }), ended, ...more].filter(Boolean).join(" · ");
}

function matchItem(name, testid, title, tag, what, disabled = false) {
  const open = state && name === state.ledger;
  return el(
    "li",
    { class: open ? "open" : null },
    el(
      "button",
      { type: "button", testid, onclick: () => choose(name), "aria-current": open ? "true" : null, disabled: disabled ? true : null },
      el("b", {}, title),
      tag ? el("span", { class: "tag" }, tag) : null,
      el("span", { class: "what" }, what),
    ),
  );
}

// The folder's matches, grouped by table (a match's title, else its players), the table of the
// newest first; each match by when it started, its hands and how it stands.
function renderMatches() {
  renderTournaments();
  const list = listing ? listing.matches : [];
  const groups = new Map();
  for (const x of list) {
    const label = x.problem ? x.name : labelOf(x);
    if (!groups.has(label)) groups.set(label, []);
    groups.get(label).push(x);
  }
  $("matches").replaceChildren(
    ...[...groups].map(([label, items], k) =>
      el(
        "li",
        { class: "table-group", testid: `group-${k}` },
        el("h3", {}, label),
        el(
          "ul",
          { class: "matches" },
          ...items.map((x) => {
            const tag = x.current ? w("matches.current") : null;
            const when = localTime(x.started || x.changed);
            const what = x.problem || matchWhat(x, x.hands);
            return matchItem(x.name, `match-${x.name}`, when || label, tag, what, Boolean(x.problem));
          }),
        ),
      ),
    ),
  );
  const leftOut = listing ? listing.left_out || 0 : 0;
  $("matches-left-out").hidden = !leftOut;
  $("matches-left-out").textContent = leftOut ? w("matches.left_out", { count: leftOut, most: list.length }) : "";
  const can = Boolean(listing && listing.can_start) && !kept;
  showPlayersTab();
  $("new-match").hidden = !can;
  $("rename").hidden = kept || !state;
  if (can && formFor !== (state ? state.ledger : "")) buildNewMatch();
  if (state) {
    const old = $("rename-old");
    const chosen = old.value;
    old.replaceChildren(...state.match.players.map((name) => el("option", { value: name }, name)));
    if (state.match.players.includes(chosen)) old.value = chosen;
  }
}

let formFor = null; // the match whose players and rules the new-match form was filled from
function buildNewMatch() {
  formFor = state ? state.ledger : "";
  const recent = (listing && listing.recent_names) || [];
  $("recent-names").replaceChildren(...recent.map((name) => el("option", { value: name })));
  $("recent-titles").replaceChildren(...((listing && listing.recent_titles) || []).map((t) => el("option", { value: t })));
  $("new-players").replaceChildren(
    ...[0, 1, 2, 3].map((seat) =>
      el(
        "label",
        {},
        el("span", {}, w("matches.player", { seat: seat + 1, where: w(SEATS[seat]) })),
        el("input", { type: "text", testid: `new-player-${seat}`, autocomplete: "off", maxlength: 40, required: true, list: "recent-names" }),
      ),
    ),
  );
  // The names played with lately, most recent first: a tap puts one in the first empty seat.
  $("recent").hidden = recent.length === 0;
  $("recent-buttons").replaceChildren(
    ...recent.slice(0, 12).map((name, k) => button(name, `recent-name-${k}`, () => fillSeat(name), "chip")),
  );
  $("new-rules").replaceChildren(
    ...listing.variants.map((v) => el("option", { value: `variant:${v.name}` }, v.title || v.name)),
    ...listing.rules_files.map((f) => {
      const named = (listing.rules_titles || {})[f];
      return el("option", { value: `rules:${f}` }, named || f);
    }),
  );
  $("new-teams").replaceChildren(...listing.teams.map((t) => el("option", { value: t }, w(TEAMS[t] || t))));
  $("new-auto").replaceChildren(...Object.entries(REGIMES).map(([r, key]) => el("option", { value: r }, w(key))));
  if (state) {
    state.match.players.forEach((name, seat) => ($(`new-player-${seat}`).value = name));
    $("new-rules").value = `variant:${state.match.variant}`;
    $("new-teams").value = state.match.teams;
    $("new-end").value = state.end_at === -1000 ? "" : String(-state.end_at);
    $("new-hands").value = state.match.last_hand ? String(state.match.last_hand) : "";
    $("new-auto").value = state.match.auto_play || "tournament";
    $("new-title").value = state.match.title || "";
  }
  for (let seat = 0; seat < 4; seat++) $(`new-player-${seat}`).addEventListener("input", renderSeating);
  formChanged();
}

function fillSeat(name) {
  const inputs = [0, 1, 2, 3].map((seat) => $(`new-player-${seat}`));
  if (inputs.some((i) => i.value.trim() === name)) return;
  const empty = inputs.find((i) => !i.value.trim());
  if (empty) empty.value = name;
  renderSeating();
}

// The form follows the teams: the 托管 regime and the end both ways in partner play.
function formChanged() {
  const partners = $("new-teams").value === "partners";
  $("new-auto-label").hidden = !partners;
  $("new-end-word").textContent = w($("new-teams").value === "none" ? "matches.end_at" : "matches.end_at_team");
  renderSeating();
}

// The table seen from above, seat 1 (North) at the top, play going counter-clockwise (rulings
// §1): North, West, South, East. In partner play seats 1 and 3 (and 2 and 4) share a colour.
function renderSeating() {
  const partners = $("new-teams").value === "partners";
  const names = [0, 1, 2, 3].map((seat) => $(`new-player-${seat}`).value.trim() || w("matches.player", { seat: seat + 1, where: "" }).trim());
  const places = ["north", "west", "south", "east"];
  $("seating").replaceChildren(
    ...names.map((name, seat) =>
      el(
        "div",
        { class: `seat ${places[seat]}${partners ? ` side-${seat % 2}` : ""}`, testid: `seat-${seat}` },
        el("small", {}, w(SEATS[seat])),
        el("b", {}, name),
      ),
    ),
    el("div", { class: "table-top", "aria-hidden": "true" }, "↺"),
  );
  $("seating-said").textContent = partners
    ? w("seating.partners", { a: names[0], b: names[1], c: names[2], d: names[3] })
    : w("seating.none");
}

async function startMatch(body) {
  const r = await api("api/matches", body, { withMatch: false });
  if (r.status !== 200) {
    $("new-problem").hidden = false;
    $("new-problem").textContent = r.data.error;
    return notice(r.data.error);
  }
  $("new-problem").hidden = true;
  clearEntry(false);
  adopt(r.data.state);
  refresh();
  // (再来一盘 asked twice, here or on another phone: the match already started from this one)
  toast(w(r.data.existing ? "done.joined" : "done.start", { name: labelOf(r.data.state.match) }));
  await loadMatches();
  show("entry");
}

// A count as a phone types it: digits only (a dot, a space or a letter is no count); the end
// line may be typed with its minus too.
function countOf(id, problem, minus = false) {
  const text = $(id).value.trim();
  if (!text) return null;
  const digits = minus ? text.replace(/^[-−]/, "") : text;
  if (!/^[0-9]+$/.test(digits) || Number(digits) < 1) throw new Error(w(problem, { value: text }));
  return Number(digits);
}

function newMatchSubmitted(event) {
  event.preventDefault();
  const players = [0, 1, 2, 3].map((seat) => $(`new-player-${seat}`).value.trim());
  const [kind, name] = $("new-rules").value.split(/:(.*)/s);
  const body = { players, teams: $("new-teams").value };
  if (kind === "variant") body.variant = name;
  else body.rules = name;
  try {
    const end = countOf("new-end", "matches.end_bad", true);
    if (end !== null) body.end_at = -end; // (typed as a distance: "1000" ends at −1000)
    const hands = countOf("new-hands", "matches.hands_bad");
    if (hands !== null) body.last_hand = hands;
  } catch (e) {
    $("new-problem").hidden = false;
    $("new-problem").textContent = e.message;
    return;
  }
  if (body.teams === "partners") body.auto_play = $("new-auto").value;
  const titled = $("new-title").value.trim();
  if (titled) body.title = titled;
  startMatch(body);
}

// 再来一盘: a match like this one (its players, rules and end), as match new --like.
async function again() {
  if (!(await ask(w("ask.again"), [el("p", {}, state.match.players.join("、")), el("p", {}, state.rules_line)]))) return;
  startMatch({ like: state.ledger });
}

async function renameSubmitted(event) {
  event.preventDefault();
  const old = $("rename-old").value;
  const name = $("rename-new").value.trim();
  if (!name) return;
  if (!(await ask(w("ask.rename", { old, new: name }), []))) return;
  const r = await api("api/rename", { version: state.version, old, new: name });
  if (r.status === 200) {
    ownChange(r.data.state);
    $("rename-new").value = "";
    toast(w("done.rename", { old, new: name }));
  } else if (r.status === 409 && r.data.state) {
    adopt(r.data.state);
    notice(w("conflict"));
  } else notice(r.data.error);
}

function choose(name) {
  match = name;
  remember("match", name);
  showInAddress(name);
  state = null;
  entry = blankEntry();
  editing = null;
  token = null;
  preview = null;
  openHand = null;
  detail = null;
  refresh().then(() => show("standings"));
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
  const over = (m.ended && editing === null) || kept;
  $("over").hidden = !over;
  $("over-text").textContent = kept ? w("offline.kept") : over ? `${w("entry.over")} ${state.status}` : "";
  $("over-again").hidden = kept || !(listing && listing.can_start);
  renderNext($("over-next"));
  $("entry-body").hidden = over;
  $("dock").hidden = tab !== "entry" || over;
  document.body.classList.toggle("docked", !$("dock").hidden);

  $("editing").hidden = editing === null;
  $("editing-text").textContent = editing === null ? "" : w("entry.editing", { number: editing });

  $("picks").replaceChildren(
    ...names.map((name, seat) => {
      const b = button(null, `pick-${seat}`, () => pick(seat), picked === seat ? "pick on" : "pick");
      b.setAttribute("aria-pressed", String(picked === seat));
      b.style.setProperty("--seat", colour(seat));
      b.append(el("span", { class: "name" }, name));
      return b;
    }),
  );
  $("running").replaceChildren(
    ...names.map((name, seat) => {
      const raw = preview && preview.raw ? preview.raw[seat] : "–";
      return el("span", { class: "run", seat }, el("span", { class: "name" }, name), el("b", { testid: `preview-raw-${seat}` }, String(raw)));
    }),
  );

  // The special cards first, then the hearts under their suit's name (the order the server gives).
  const groups = [];
  for (const card of state.cards) {
    const label = card.suit === "H" ? w("suit.H") : "";
    if (!groups.length || groups[groups.length - 1].label !== label) groups.push({ label, faces: [] });
    holders(card).forEach((holder, copy) => groups[groups.length - 1].faces.push(face(card, copy, holder)));
  }
  $("cards").replaceChildren(
    ...groups.flatMap((g) => [g.label ? el("h3", { class: "suit-H" }, g.label) : null, el("div", { class: g.label ? "faces" : "faces special" }, ...g.faces)]).filter(Boolean),
  );

  const missing = preview ? preview.unplaced : [];
  $("missing").replaceChildren(
    preview && preview.complete ? w("entry.all_in") : `${w("entry.missing")} ${missing.map(symbolOf).join(" ")}`,
  );
  const problem = preview && preview.problem;
  $("problem").hidden = !problem;
  $("problem").textContent = problem || "";

  const who = picked === null ? null : names[picked];
  const rest = $("rest");
  rest.textContent = who === null ? w("entry.rest_none") : w("entry.rest", { name: who });
  rest.disabled = who === null;
  rest.classList.toggle("on", picked !== null && entry.rest === picked);
  rest.setAttribute("aria-pressed", String(picked !== null && entry.rest === picked));
  $("full-red").textContent = who === null ? w("entry.full_red_none") : w("entry.full_red", { name: who });
  $("full-red").disabled = who === null;
  $("grand-slam").textContent = who === null ? w("entry.grand_slam_none") : w("entry.grand_slam", { name: who });
  $("grand-slam").disabled = who === null;
  $("rest-is").textContent = entry.rest === null ? "" : w("entry.rest_is", { name: names[entry.rest] });

  renderExposures(names);

  const asks = Boolean(preview && preview.asks_first_pig);
  $("first-pig").hidden = !asks;
  $("first-pig-buttons").replaceChildren(
    ...names.map((name, seat) =>
      button(name, `first-pig-${seat}`, () => setFirstPig(seat), entry.firstPig === seat ? "on" : null),
    ),
  );
  // 托管: asked only in a partners match under the island regime (rulings §12.2).
  $("auto-played").hidden = !state.asks_auto_played;
  $("auto-played-buttons").replaceChildren(
    button(w("entry.auto_nobody"), "auto-played-none", () => setAutoPlayed(null), entry.autoPlayed == null ? "on" : null),
    ...names.map((name, seat) =>
      button(name, `auto-played-${seat}`, () => setAutoPlayed(seat), entry.autoPlayed === seat ? "on" : null),
    ),
  );
  const lastCard = $("last-card");
  lastCard.checked = Boolean(entry.lastCard);
  lastCard.disabled = entry.autoPlayed == null;
  const note = $("note");
  if (document.activeElement !== note) note.value = entry.note;

  $("confirm").disabled = over || !(preview && preview.complete && !preview.problem);
  $("undo").disabled = m.hands.length === 0;
}

// The shortest start of each name that tells it from the others' (two characters at least,
// or the whole name): what a card face has room for, never two alike.
function shortNames(names) {
  const chars = names.map((n) => Array.from(n));
  return chars.map((c, i) => {
    for (let k = Math.min(2, c.length); k <= c.length; k++) {
      const head = c.slice(0, k).join("");
      if (chars.every((o, j) => j === i || o.slice(0, k).join("") !== head)) return head;
    }
    return c.join("");
  });
}

function face(card, copy, holder) {
  const name = holder ? state.match.players[holder.seat] : "";
  const short = holder ? shortNames(state.match.players)[holder.seat] : "";
  const nick = NICKNAMES[card.code];
  const b = button(null, `card-${card.code}-${copy}`, () => tapCard(card.code, holder), `face suit-${card.suit}`);
  b.dataset.holder = name;
  b.title = name ? `${card.name}: ${name}` : card.name;
  if (holder) {
    b.classList.add("held");
    if (holder.rest) b.classList.add("rest");
    b.style.setProperty("--seat", colour(holder.seat));
    if (holder.rest) b.dataset.rest = "1";
  }
  const shown = entry.exposed[`${card.code}#${copy}`];
  if (shown) {
    b.classList.add("exposed");
    b.title += ` · ${w(shown.first ? "face.first" : "face.exposed")}`;
    b.append(el("span", { class: "mark", testid: `mark-${card.code}-${copy}` }, w(shown.first ? "face.first" : "face.exposed")));
  }
  b.append(el("span", { class: "rank" }, card.code.slice(0, -1).replace("T", "10")));
  b.append(el("span", { class: "suit" }, SUITS[card.suit] || card.suit));
  if (nick) b.append(el("span", { class: "nick" }, w(nick)));
  b.append(el("span", { class: "who" }, short));
  return b;
}

function renderExposures(names) {
  const rows = [];
  for (const card of state.cards.filter((c) => c.exposable)) {
    for (let copy = 0; copy < card.copies; copy++) {
      const slot = `${card.code}#${copy}`;
      const now = entry.exposed[slot];
      const seg = el("div", { class: "seg", role: "group", "aria-label": card.name });
      const none = button(w("entry.nobody"), `expose-${card.code}-${copy}-none`, () => expose(slot, null), now ? null : "on");
      none.setAttribute("aria-label", `${card.name}: ${w("entry.nobody_said")}`);
      seg.append(none);
      names.forEach((name, seat) => {
        const on = now && now.seat === seat;
        const b = button(name, `expose-${card.code}-${copy}-${seat}`, () => expose(slot, seat), on ? "on" : null);
        b.setAttribute("aria-pressed", String(Boolean(on)));
        seg.append(b);
      });
      const row = el("div", { class: "exposure" }, el("span", { class: `mini suit-${card.suit}` }, card.symbol), seg);
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

// 全红: every heart (every copy) to the picked player, taken from whoever had one.
function fullRed() {
  if (picked === null) return;
  const hearts = state.cards.filter((c) => c.suit === "H");
  entry.captured = entry.captured.map((codes, seat) => (seat === picked ? codes : codes.filter((c) => cardOf(c).suit !== "H")));
  const mine = entry.captured[picked].filter((c) => cardOf(c).suit !== "H");
  for (const card of hearts) for (let i = 0; i < card.copies; i++) mine.push(card.code);
  entry.captured[picked] = mine;
  if (entry.rest === picked) entry.rest = null;
  toast(w("entry.full_red_done", { name: state.match.players[picked] }));
  changed();
}

// 满贯: every scoring card to the picked player.
function grandSlam() {
  if (picked === null) return;
  entry.captured = [[], [], [], []];
  entry.rest = picked;
  toast(w("entry.grand_slam_done", { name: state.match.players[picked] }));
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

function setAutoPlayed(seat) {
  entry.autoPlayed = seat;
  if (seat === null) entry.lastCard = false;
  changed();
}

function setFirstPig(seat) {
  entry.firstPig = entry.firstPig === seat ? null : seat;
  changed();
}

const isBlank = (e) =>
  e.captured.every((c) => c.length === 0) && e.rest === null && Object.keys(e.exposed).length === 0 && !e.note;

function changed() {
  if (editing === null) token = isBlank(entry) ? null : (token ?? state.version);
  if (preview) preview = { ...preview, complete: false }; // until the server has seen this entry
  saveDraft();
  renderEntry();
  askPreview();
}

// The hand being entered is kept on the phone (per match), so a reload or a discarded tab
// loses nothing; it goes when the hand is added or cleared.
function draftKey() {
  return `${STORE}:draft:${state.ledger}`;
}

function saveDraft() {
  try {
    if (isBlank(entry) && editing === null) localStorage.removeItem(draftKey());
    else localStorage.setItem(draftKey(), JSON.stringify({ entry, editing, token, picked }));
  } catch {
    /* (storage refused: the draft is only in this page) */
  }
}

function restoreDraft() {
  let draft = null;
  try {
    draft = JSON.parse(localStorage.getItem(draftKey()) || "null");
  } catch {
    draft = null;
  }
  if (!draft || !draft.entry || !Array.isArray(draft.entry.captured)) return;
  entry = draft.entry;
  editing = draft.editing ?? null;
  token = draft.token ?? null;
  picked = draft.picked ?? null;
}

function clearEntry(ask = true) {
  entry = blankEntry();
  editing = null;
  token = null;
  if (state) {
    saveDraft();
    if (ask) changed();
  }
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
  if (state.asks_auto_played && entry.autoPlayed != null) {
    out.auto_played = names[entry.autoPlayed];
    if (entry.lastCard) out.last_card = true;
  }
  if (entry.note.trim()) out.note = entry.note.trim();
  return out;
}

// A hand from the server (ENTRY, for an edit) as this panel keeps it: "the rest to …" kept.
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
  if (given.auto_played) e.autoPlayed = seatOf(given.auto_played);
  e.lastCard = Boolean(given.last_card);
  e.note = given.note || "";
  return e;
}

async function askPreview() {
  if (kept || !state) return;
  const asked = ++previewAsked;
  const r = await api("api/preview", { entry: toEntry() });
  if (asked !== previewAsked) return; // a later tap has asked again
  if (r.status !== 0 && !kept) setOffline(false);
  preview =
    r.status === 200
      ? r.data
      : { raw: null, final: null, unplaced: [], rest_cards: [], complete: false, asks_first_pig: false, problem: r.data.error, offline: r.status === 0 };
  renderEntry();
  if (preview.offline) retryPreview();
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
// the hand's raw scores before and after. A card per player: nothing falls off a phone.
function previewTable() {
  const names = state.match.players;
  const before = editing === null ? null : state.match.hands[editing - 1];
  const asEntry = toEntry();
  const marks = exposureMarks(names.map((name) => ({ exposed: asEntry.exposed[name], first_exposed: asEntry.first_exposed[name] })));
  return el(
    "div",
    { class: "hand-table" },
    ...names.map((name, seat) => {
      const cards = entry.captured[seat].slice();
      if (entry.rest === seat) cards.push(...(preview.rest_cards || []));
      const nums = [];
      if (before) nums.push(el("span", { class: "before" }, `${w("ask.before")} `, el("b", {}, String(before.raw[seat]))));
      nums.push(
        el("span", {}, `${w("entry.raw")} `, el("b", {}, String(preview.raw[seat]))),
        el("span", {}, `${w("entry.final")} `, el("b", {}, String(preview.final[seat]))),
      );
      const auto = state.asks_auto_played && entry.autoPlayed === seat;
      return el(
        "div",
        { class: "who-card", seat, testid: `ask-${seat}` },
        el("h4", {}, name, auto ? el("span", { class: "tag-auto" }, w("hand.auto_played")) : null),
        el("p", { class: "cards-line", testid: `ask-cards-${seat}` }, ...markedCards(cards, marks)),
        el("p", { class: "nums" }, ...nums),
      );
    }),
    el("div", { class: "asked", testid: "ask-more" }, ...askedLines(names, asEntry)),
  );
}

// The last look before saving: who exposed what (and 首明), who was 托管, whose pig came first.
function askedLines(names, given) {
  const lines = [];
  const shown = [];
  for (const name of names) {
    for (const code of given.exposed[name] || []) shown.push(w("ask.exposed_by", { card: symbolOf(code), name }));
    for (const code of given.first_exposed[name] || []) shown.push(w("ask.first_by", { card: symbolOf(code), name }));
  }
  lines.push(el("p", { testid: "ask-exposed" }, shown.length ? `${w("ask.exposed")} ${shown.join(w("list"))}` : w("ask.no_exposure")));
  if (state.asks_auto_played) {
    const who = given.auto_played;
    const said = who ? w(given.last_card ? "ask.auto_last" : "ask.auto", { name: who }) : w("ask.no_auto");
    lines.push(el("p", { testid: "ask-auto" }, said));
  }
  if (given.first_pig) lines.push(el("p", {}, w("ask.first_pig", { name: given.first_pig })));
  return lines;
}

async function confirmEntry() {
  const version = token ?? state.version;
  const number = editing ?? state.match.hands.length + 1;
  const kind = editing === null ? "add" : "edit";
  if (!(await ask(w(kind === "add" ? "ask.add" : "ask.edit", { number }), [previewTable()]))) return;
  const path = editing === null ? "api/hands" : `api/hands/${editing}/edit`;
  afterChange(await api(path, { version, entry: toEntry() }), kind, number);
}

async function handData(n) {
  if (detail && detail.number === n && detail.version === state.version) return detail.data;
  const r = await api(`api/hands/${n}`);
  return r.status === 200 ? r.data : null;
}

async function removeHand(n) {
  const version = state.version;
  const data = await handData(n);
  const body = data ? [handTable(data)] : [];
  if (!(await ask(w("ask.remove", { number: n }), body))) return;
  afterChange(await api(`api/hands/${n}/remove`, { version }), "remove", n);
}

async function undoHand() {
  if (!state) return;
  const version = state.version;
  const n = state.match.hands.length;
  if (n === 0) return;
  const data = await handData(n);
  const body = data ? [handTable(data)] : [];
  if (!(await ask(w("ask.undo", { number: n }), body))) return;
  afterChange(await api("api/undo", { version }), "undo", n);
}

async function editHand(n) {
  if (editing === null && !isBlank(entry) && !(await ask(w("ask.discard", { number: n }), []))) return;
  const r = await api(`api/hands/${n}`);
  if (r.status !== 200) return notice(r.data.error);
  entry = fromEntry(r.data.entry);
  editing = n;
  token = state.version;
  picked = null;
  show("entry");
  changed();
}

// This phone's own change: its answer shown, then the state asked again (so the service worker
// keeps it); a hand being entered meanwhile began after it, not before.
function ownChange(next) {
  adopt(next);
  if (editing === null && !isBlank(entry)) {
    token = state.version;
    saveDraft();
  }
  refresh();
}

function afterChange(r, kind, n) {
  if (r.status === 200) {
    ownChange(r.data.state);
    toast(w(DONE[kind], { number: r.data.number || n }));
    if (kind === "add" || kind === "edit") {
      clearEntry(false);
      askPreview();
      show(kind === "add" ? "standings" : "hands");
    }
  } else if (r.status === 409 && r.data.state) {
    adopt(r.data.state);
    conflict(kind, r.data.same_hand);
  } else {
    notice(r.data.error);
  }
}

// Another phone or the command line changed the ledger first: show what it did (the last hand:
// for an add, the hand that won). The very hand this phone was adding: said, and not offered
// again. Another hand: this phone's entry is kept, to send again or discard.
async function conflict(kind, sameHand) {
  const n = state.match.hands.length;
  if (kind === "add" && sameHand) {
    clearEntry(false);
    askPreview();
    const data = await handData(sameHand);
    return notice(w("conflict.same", { number: sameHand }), data);
  }
  const keptEntry = (kind === "add" || kind === "edit") && !isBlank(entry);
  if (keptEntry) token = state.version; // sending it again now is this phone's own decision
  notice(w("conflict"), n > 0 ? await handData(n) : null, keptEntry);
}

function notice(text, hand = null, keptEntry = false) {
  $("notice").hidden = false;
  $("notice-text").textContent = text;
  $("notice-hand").hidden = hand === null;
  $("notice-hand").replaceChildren(...(hand ? [handTable(hand)] : []));
  $("notice-kept").hidden = !keptEntry;
  $("discard").hidden = !keptEntry;
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

// ---------------------------------------------------------------------------------------------
// Sharing: the summary as text, the chart as a picture, by the phone's share sheet (Web Share)
// or, where there is none, as a download.

function summaryText() {
  const lines = [`${w("title")} · ${labelOf(state.match)}`, state.rules_line, ""];
  for (const p of state.ranking) {
    const other = w(decidesOnFinal() ? "standings.raws" : "standings.finals");
    lines.push(`${p.rank}. ${p.name} ${p.total} (${other} ${p.other})`);
  }
  lines.push("", state.status);
  return lines.join("\n");
}

function download(blob, name) {
  const a = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  toast(w("share.downloaded", { name }));
}

async function shareText() {
  if (!state) return;
  const text = summaryText();
  if (navigator.share) {
    try {
      return await navigator.share({ title: labelOf(state.match), text });
    } catch (e) {
      if (e && e.name === "AbortError") return;
    }
  }
  download(new Blob([text], { type: "text/plain;charset=utf-8" }), `${state.ledger.replace(/\.\w+$/, "")}.txt`);
}

// The chart as a picture to send: the match's name and rules above, the players (in their
// colours and line styles, with their totals) below, so it reads without the page.
async function chartPng() {
  const [W, H, top, bottom] = [1020, 600, 96, 130];
  const chart = chartSvg();
  const css = getComputedStyle(document.documentElement);
  const [paper, ink, muted] = ["--card", "--ink", "--muted"].map((v) => css.getPropertyValue(v).trim());
  chart.querySelector(".bg").setAttribute("fill", paper || "#fff");
  chart.setAttribute("font-family", "system-ui, sans-serif"); // (the page's style sheet is not in a picture)
  for (const t of chart.querySelectorAll("text")) {
    t.setAttribute("fill", muted || "#555");
    t.setAttribute("font-size", "11");
  }
  for (const l of chart.querySelectorAll(".zero")) l.setAttribute("stroke", muted || "#888");
  for (const l of chart.querySelectorAll(".end")) {
    l.setAttribute("stroke", "#c8102e");
    l.setAttribute("stroke-dasharray", "5 4");
  }
  for (const p of chart.querySelectorAll("polyline")) p.setAttribute("fill", "none");
  chart.setAttribute("width", W);
  chart.setAttribute("height", H);
  const image = new Image();
  image.src = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(chart)], { type: "image/svg+xml" }));
  await image.decode();
  const canvas = el("canvas", { width: W, height: top + H + bottom });
  const g = canvas.getContext("2d");
  g.fillStyle = paper || "#fff";
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = ink || "#111";
  g.font = "bold 34px system-ui, sans-serif";
  g.fillText(`${w("title")} · ${labelOf(state.match)}`.slice(0, 60), 24, 46);
  g.font = "24px system-ui, sans-serif";
  g.fillStyle = muted || "#555";
  g.fillText(`${w("chart.title")} · ${state.rules_line}`.slice(0, 80), 24, 82);
  g.drawImage(image, 0, top, W, H);
  URL.revokeObjectURL(image.src);
  const totals = state.deciding.length ? state.deciding[state.deciding.length - 1] : [0, 0, 0, 0];
  g.font = "26px system-ui, sans-serif";
  state.match.players.forEach((name, seat) => {
    const x = 24 + (seat % 2) * (W / 2);
    const y = top + H + 40 + Math.floor(seat / 2) * 46;
    g.strokeStyle = colour(seat);
    g.lineWidth = 6 - seat;
    g.setLineDash(DASHES[seat] ? DASHES[seat].split(" ").map((n) => Number(n) * 2) : []);
    g.beginPath();
    g.moveTo(x, y - 9);
    g.lineTo(x + 56, y - 9);
    g.stroke();
    g.fillStyle = ink || "#111";
    g.fillText(`${name} ${totals[seat]}`.slice(0, 40), x + 70, y);
  });
  return new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
}

async function shareChart() {
  if (!state) return;
  const blob = await chartPng();
  const name = `${state.ledger.replace(/\.\w+$/, "")}.png`;
  const file = new File([blob], name, { type: "image/png" });
  if (navigator.canShare && navigator.canShare({ files: [file] })) {
    try {
      return await navigator.share({ files: [file], title: labelOf(state.match) });
    } catch (e) {
      if (e && e.name === "AbortError") return;
    }
  }
  download(blob, name);
}

// ---------------------------------------------------------------------------------------------

function show(name) {
  tab = name;
  sessionStorage.setItem(`${STORE}:tab`, name);
  for (const other of TABS) {
    $(`panel-${other}`).hidden = other !== name;
    $(`tab-${other}`).toggleAttribute("aria-current", other === name);
  }
  if (name === "matches") loadMatches();
  if (name === "players") loadSeason();
  if (state) renderEntry();
  window.scrollTo(0, 0);
}

// ---------------------------------------------------------------------------------------------
// The club across evenings (a folder): the season's table by rating, and one player's page.

// The players' tab is a folder's (the season of its matches); a page for one ledger has none.
function showPlayersTab() {
  const folder = Boolean(listing && listing.can_start) && Boolean(state || (listing && listing.matches.length));
  $("tab-players").hidden = !folder;
  document.body.classList.toggle("six-tabs", folder);
  document.body.classList.toggle("five-tabs", !folder);
}

let season = null; // GET api/stats
let seasonPlayer = null; // {name, data}: the player whose page is open, GET api/stats?player=
async function loadSeason() {
  const r = await api("api/stats", undefined, { withMatch: false });
  season = r.status === 200 ? r.data : { error: r.data.error };
  if (seasonPlayer) {
    const p = await api(`api/stats?player=${encodeURIComponent(seasonPlayer.name)}`, undefined, { withMatch: false });
    seasonPlayer = p.status === 200 ? { name: seasonPlayer.name, data: p.data } : null;
  }
  renderSeason();
}

const number2 = (v) => (v === null || v === undefined ? "–" : Number(v).toFixed(2));

function renderSeason() {
  $("season-note").textContent = w("season.note");
  $("player-view").hidden = !seasonPlayer;
  $("season").hidden = Boolean(seasonPlayer);
  if (seasonPlayer) return renderPlayer(seasonPlayer.data);
  if (!season || season.error) {
    $("season-table").replaceChildren();
    $("season-none").hidden = false;
    $("season-none").textContent = season ? season.error : w("loading");
    return;
  }
  $("season-none").hidden = season.players.length > 0;
  $("season-none").textContent = w("season.none");
  const head = el("tr", {}, ...["season.col.rank", "season.col.player", "season.col.rating", "season.col.matches",
    "season.col.won", "season.col.lost", "season.col.average"].map((k) => el("th", { scope: "col" }, w(k))));
  const rows = season.players.map((p, k) =>
    el(
      "tr",
      { testid: `season-row-${k}` },
      el("td", {}, String(k + 1)),
      el("th", { scope: "row" }, button(p.name, `season-name-${k}`, () => openPlayer(p.name), "link")),
      el("td", { testid: `season-rating-${k}` }, number2(p.rating && p.rating.ordinal)),
      el("td", { testid: `season-matches-${k}` }, String(p.matches)),
      el("td", { testid: `season-won-${k}` }, String(p.won)),
      el("td", { testid: `season-lost-${k}` }, String(p.lost)),
      el("td", { testid: `season-average-${k}` }, number2(p.average)),
    ),
  );
  $("season-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
}

async function openPlayer(name) {
  const r = await api(`api/stats?player=${encodeURIComponent(name)}`, undefined, { withMatch: false });
  if (r.status !== 200) return notice(r.data.error);
  seasonPlayer = { name, data: r.data };
  renderSeason();
  window.scrollTo(0, 0);
}

function renderPlayer(data) {
  $("player-name").textContent = data.name;
  $("player-rating").textContent = data.rating
    ? w("player.rating", { ordinal: number2(data.rating.ordinal), mu: number2(data.rating.mu), sigma: number2(data.rating.sigma) })
    : w("player.unrated");
  $("player-chart").replaceChildren(ratingChart(data.matches));
  const head = el("tr", {}, ...["player.col.when", "player.col.players", "player.col.rank", "player.col.final", "player.col.rating"]
    .map((k) => el("th", { scope: "col" }, w(k))));
  const rows = data.matches.map((m, k) =>
    el(
      "tr",
      { testid: `player-match-${k}` },
      el("td", { class: "what" }, localTime(m.ended)),
      el("td", { class: "what" }, m.players.join("、")),
      el("td", { testid: `player-rank-${k}` }, String(m.rank)),
      el("td", { testid: `player-final-${k}` }, String(m.final)),
      el("td", { testid: `player-after-${k}` }, number2(m.rating_after.ordinal)),
    ),
  );
  $("player-matches").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  const h2hHead = el("tr", {}, ...["h2h.col.name", "h2h.col.together", "h2h.col.ahead", "h2h.col.behind"]
    .map((k) => el("th", { scope: "col" }, w(k))));
  const h2h = data.head_to_head.map((o, k) =>
    el(
      "tr",
      { testid: `h2h-${k}` },
      el("th", { scope: "row" }, o.name),
      el("td", {}, String(o.together)),
      el("td", { testid: `h2h-ahead-${k}` }, String(o.ahead)),
      el("td", { testid: `h2h-behind-${k}` }, String(o.behind)),
    ),
  );
  $("player-h2h").replaceChildren(el("thead", {}, h2hHead), el("tbody", {}, ...h2h));
}

// A player's rating after each match, from the first on (an inline SVG, as the evening's chart).
function ratingChart(matches) {
  const values = matches.map((m) => m.rating_after.ordinal);
  const [W, H, left, right, top, bottom] = [340, 160, 44, 10, 12, 22];
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": w("player.chart"), xmlns: "http://www.w3.org/2000/svg" });
  chart.append(svg("rect", { x: 0, y: 0, width: W, height: H, class: "bg" }));
  if (!values.length) return chart;
  let [lo, hi] = [Math.min(0, ...values), Math.max(0, ...values)];
  const pad = (hi - lo) * 0.1 || 1;
  [lo, hi] = [lo - pad, hi + pad];
  const last = Math.max(1, values.length - 1);
  const x = (i) => left + (i * (W - left - right)) / last;
  const y = (v) => top + ((hi - v) * (H - top - bottom)) / (hi - lo);
  chart.append(svg("line", { x1: left, x2: W - right, y1: y(0), y2: y(0), class: "zero" }));
  chart.append(svg("text", { x: left - 4, y: y(0) + 4, class: "axis", "text-anchor": "end" }, "0"));
  for (const v of [Math.max(...values), Math.min(...values)]) {
    chart.append(svg("text", { x: left - 4, y: y(v) + 4, class: "axis", "text-anchor": "end" }, number2(v)));
  }
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  chart.append(svg("polyline", { points, class: "player", stroke: colour(0), "stroke-width": 2.5 }));
  values.forEach((v, i) => chart.append(svg("circle", { cx: x(i), cy: y(v), r: 3, fill: colour(0) })));
  chart.append(svg("text", { x: x(0), y: H - 6, class: "axis", "text-anchor": "middle" }, "1"));
  chart.append(svg("text", { x: x(values.length - 1), y: H - 6, class: "axis", "text-anchor": "middle" }, String(values.length)));
  return chart;
}

// This phone's language and theme, kept on it: the language asked in the address wins; else
// the one chosen here before; else the server's.
function chosenLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  const kept = remembered("lang");
  if (!asked && kept && kept !== LANG) {
    const url = new URL(location.href);
    url.searchParams.set("lang", kept);
    location.replace(url);
    return false;
  }
  return true;
}

function applyTheme() {
  const theme = remembered("theme");
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

function renderSettings() {
  $("lang").value = LANG;
  const theme = remembered("theme") || "auto";
  $("theme").replaceChildren(...Object.entries(THEMES).map(([t, key]) => el("option", { value: t }, w(key))));
  $("theme").value = theme;
}

function start() {
  applyTheme();
  if (!chosenLanguage()) return;
  $("lang").addEventListener("change", (event) => {
    remember("lang", event.target.value);
    const url = new URL(location.href);
    url.searchParams.set("lang", event.target.value);
    location.replace(url);
  });
  $("theme").addEventListener("change", (event) => {
    remember("theme", event.target.value === "auto" ? null : event.target.value);
    applyTheme();
  });
  for (const name of TABS) $(`tab-${name}`).addEventListener("click", () => show(name));
  $("rest").addEventListener("click", tapRest);
  $("full-red").addEventListener("click", fullRed);
  $("grand-slam").addEventListener("click", grandSlam);
  $("confirm").addEventListener("click", confirmEntry);
  $("clear").addEventListener("click", () => clearEntry());
  $("stop-edit").addEventListener("click", () => clearEntry());
  $("undo").addEventListener("click", undoHand);
  $("last-card").addEventListener("change", (event) => {
    entry.lastCard = event.target.checked;
    changed();
  });
  $("note").addEventListener("input", (event) => {
    entry.note = event.target.value;
    if (editing === null) token = isBlank(entry) ? null : (token ?? state.version);
    saveDraft();
  });
  $("notice-close").addEventListener("click", () => ($("notice").hidden = true));
  $("discard").addEventListener("click", () => {
    $("notice").hidden = true;
    clearEntry();
  });
  $("again").addEventListener("click", again);
  $("over-again").addEventListener("click", again);
  $("new-match").addEventListener("submit", newMatchSubmitted);
  $("new-teams").addEventListener("change", formChanged);
  $("rename").addEventListener("submit", renameSubmitted);
  $("share-text").addEventListener("click", shareText);
  $("share-chart").addEventListener("click", shareChart);
  $("player-back").addEventListener("click", () => {
    seasonPlayer = null;
    renderSeason();
  });
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register(`sw.js?key=${encodeURIComponent(KEY)}`, { scope: "./" }).catch(() => {});
  }
  loadMatches().then(() => {
    if (listing && listing.can_start && !listing.matches.length) showBare(null);
    else refresh();
  });
}

start();
