"""The table's load on loopback, shared by the soak test (tests/test_web_load.py) and the
benchmark (tests/bench_web.py): one real ``gongzhu-score serve FOLDER``, a folder of matches,
live phones reading each match's feed, and hands added at once from the pages and from
``match add`` at the terminal.

:func:`run` makes the folder (``match new`` for each match: its own players, an end line no 200
hands reach), serves it, opens the phones (each a thread reading ``GET /api/events?match=M``
over http.client and recording every version it is told, with the moment), then releases, at
once, the pages that enter hands (threads, each a keep-alive connection: ``POST /api/hands``
with the version it last read; on a 409 it reads ``GET /api/state`` again and sends the same
hand with the new version, until it lands) and one terminal a match (``match add LEDGER -c …
--rest … --note cli-…``, one after another). Every hand carries a note of its own (``page-…``,
``cli-…``), so each is found in its ledger afterwards. When every hand is in, it waits for every
phone to hear its ledger's last version, stops the server, and reads the ledgers: what
``match show --format json`` holds, ``match verify``, and the versions each ledger had (its
history). :class:`Report` holds what was seen and the figures.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import math
import os
import queue
import random
import socket
import statistics
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from serving import Served, command, serving

PLAYERS = (("东", "南", "西", "北"), ("甲", "乙", "丙", "丁"), ("春", "夏", "秋", "冬"),
           ("梅", "兰", "竹", "菊"), ("子", "丑", "寅", "卯"), ("金", "木", "水", "火"))  # fmt: skip
HEARTS = ("2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH")
SCORING = ("QS", "JD", "10C", *HEARTS)
END_AT = -100_000
"""Every match's end line: a hand here (no exposures) costs a player under 1,000, so a match's
50 hands never reach it (a hand refused because the match ended would be a failure)."""
ATTEMPTS = 500
"""A page gives up a hand after this many refusals (a hand that never lands is a failure)."""
HEARD_WAIT = 10.0
"""Seconds the phones have, once every hand is in, to hear the last version."""
IDLE = 2.0
"""A keep-alive connection idle this long is opened anew before a POST (uvicorn closes idle ones
after 5 s; a POST is never sent twice)."""


@dataclass(frozen=True)
class Load:
    matches: int = 4
    phones: int = 4
    """Live phones a match, each reading its feed."""
    page_hands: int = 40
    """A match's hands entered from pages."""
    pages: int = 40
    """A match's pages entering them, all at once: by default a page a hand, every one sent
    the same moment (a table's four phones confirming at once, forty times over)."""
    cli_hands: int = 10
    """A match's hands typed with ``match add``: one terminal a match, one after another."""
    seed: int = 2026

    @property
    def hands(self) -> int:
        return self.matches * (self.page_hands + self.cli_hands)


@dataclass
class Timed:
    what: str
    """``POST /api/hands``, ``GET /api/state``, ``GET /api/events``."""
    match: str
    status: int
    seconds: float
    answer: str = ""
    """What a refusal other than 409 answered (cut short)."""


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile (``nan`` of nothing)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1))]


def hand_of(rng: random.Random, players: tuple[str, ...]) -> dict[str, list[str]]:
    """A random hand: each scoring card to a random player (the fourth's as the rest)."""
    taken: dict[str, list[str]] = {p: [] for p in players}
    for card in SCORING:
        taken[rng.choice(players)].append(card)
    return taken


def entry_of(taken: dict[str, list[str]], players: tuple[str, ...], note: str) -> dict[str, Any]:
    """The hand as the page sends it (docs/web.md's ENTRY)."""
    return {"captured": {p: taken[p] for p in players[:3]}, "rest": players[3], "exposed": {},
            "first_exposed": {}, "first_pig": None, "note": note}  # fmt: skip


def flags_of(taken: dict[str, list[str]], players: tuple[str, ...], note: str) -> list[str]:
    """The same hand as ``match add`` flags."""
    flags = [f for p in players[:3] for f in ("-c", f"{p}={' '.join(taken[p])}")]
    return [*flags, "--rest", players[3], "--note", note]


class Client:
    """One page's connection (keep-alive), timing every request into ``timed``."""

    def __init__(self, served: Served, timed: list[Timed]) -> None:
        parts = urlsplit(served.base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.key, self.timed = served.key, timed
        self.conn: http.client.HTTPConnection | None = None
        self.used = 0.0

    def call(self, method: str, path: str, match: str, body: object = None) -> tuple[int, Any]:
        """The status and the decoded answer. A GET on a connection the server had closed is
        sent again on a new one; a POST never is (it may have landed)."""
        what = f"{method} {path}"
        data = None if body is None else json.dumps(body).encode()
        headers = {} if data is None else {"Content-Type": "application/json"}
        target = f"{path}?{urlencode({'key': self.key, 'match': match})}"
        if self.conn is not None and time.monotonic() - self.used > IDLE:
            self.close()
        for again in (False, True):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
            start = time.perf_counter()
            try:
                self.conn.request(method, target, body=data, headers=headers)
                answer = self.conn.getresponse()
                raw = answer.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if method == "GET" and not again:
                    continue
                raise
            seconds = time.perf_counter() - start
            self.used = time.monotonic()
            status = answer.status
            if answer.getheader("Connection", "").lower() == "close":
                self.close()
            decoded: Any = raw.decode("utf-8", "replace")
            if answer.getheader("Content-Type", "").startswith("application/json"):
                decoded = json.loads(raw)
            cut = "" if status in (200, 409) else raw.decode("utf-8", "replace")[:2000]
            self.timed.append(Timed(what, match, status, seconds, cut))
            return status, decoded
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class Feed(threading.Thread):
    """One live phone: ``GET /api/events?match=M``, every version it is told, with the moment
    (``time.monotonic``)."""

    def __init__(self, served: Served, match: str, timed: list[Timed]) -> None:
        super().__init__(daemon=True)
        parts = urlsplit(served.base)
        self.conn = http.client.HTTPConnection(parts.hostname or "", parts.port or 80, timeout=60)
        self.target = f"/api/events?{urlencode({'key': served.key, 'match': match})}"
        self.match, self.timed = match, timed
        self.seen: list[tuple[float, str]] = []
        self.status = 0
        self.failure = ""
        self.stopping = False
        self.opened = threading.Event()

    def run(self) -> None:
        try:
            start = time.perf_counter()
            self.conn.request("GET", self.target)
            answer = self.conn.getresponse()
            self.status = answer.status
            self.timed.append(Timed("GET /api/events", self.match, answer.status,
                                    time.perf_counter() - start))  # fmt: skip
            self.opened.set()
            if answer.status != 200:
                self.failure = f"status {answer.status}: {answer.read()[:2000]!r}"
                return
            while True:
                line = answer.readline()
                if not line:
                    if not self.stopping:
                        self.failure = "the feed ended"
                    return
                if line.startswith(b"data:"):
                    data = json.loads(line[5:])
                    if "version" in data:
                        self.seen.append((time.monotonic(), data["version"]))
        except (OSError, http.client.HTTPException, ValueError) as e:
            if not self.stopping:
                self.failure = f"{type(e).__name__}: {e}"
        finally:
            self.opened.set()

    def stop(self) -> None:
        self.stopping = True
        sock = self.conn.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self.join(10)
        self.conn.close()


@dataclass
class Report:
    """What the load did and what the ledgers hold afterwards."""

    load: Load
    names: list[str]
    expected: dict[str, list[str]]
    """Each match's notes, one a hand sent."""
    seconds: float = 0.0
    """From the pages' and terminals' start to the last hand in."""
    timed: list[Timed] = field(default_factory=list)
    acked: dict[str, float] = field(default_factory=dict)
    """Each note: when its page had the 200, or its ``match add`` exited 0."""
    cli_seconds: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """What went wrong while it ran: a refusal other than 409, a failed ``match add``, a hand
    given up, a feed that failed."""
    phones: dict[tuple[str, int], list[tuple[float, str]]] = field(default_factory=dict)
    notes: dict[str, Counter[str]] = field(default_factory=dict)
    """Each match's notes as its ledger holds them (how many hands carry each)."""
    hands: dict[str, int] = field(default_factory=dict)
    numbers: dict[str, dict[str, int]] = field(default_factory=dict)
    """Each match: the hand number of each note."""
    verified: dict[str, tuple[int, str]] = field(default_factory=dict)
    """``match verify``'s exit status and what it said, each match."""
    final: dict[str, str] = field(default_factory=dict)
    """Each ledger's version (SHA-256) at the end."""
    had: dict[str, dict[str, int]] = field(default_factory=dict)
    """Each ledger's versions from its history: version → hands then."""
    server_err: str = ""

    # --- what it shows -------------------------------------------------------------------

    def failed_requests(self) -> list[Timed]:
        """Requests answered neither 200 nor, for a change, 409."""
        return [t for t in self.timed if t.status != 200
                and not (t.status == 409 and t.what.startswith("POST"))]  # fmt: skip

    def not_once(self) -> dict[str, dict[str, int]]:
        """Each match's notes sent that its ledger holds other than once (and notes not sent)."""
        out: dict[str, dict[str, int]] = {}
        for name in self.names:
            held = self.notes.get(name, Counter())
            wrong = {n: held[n] for n in self.expected[name] if held[n] != 1}
            wrong.update({n: c for n, c in held.items() if n not in self.expected[name]})
            if wrong:
                out[name] = wrong
        return out

    def deaf(self) -> list[str]:
        """Phones whose last version heard is not their ledger's at the end."""
        return [f"{m} phone {i}: last heard {seen[-1][1][:12] if seen else None}, the ledger "
                f"{self.final[m][:12]}" for (m, i), seen in self.phones.items()
                if not seen or seen[-1][1] != self.final[m]]  # fmt: skip

    def strange(self) -> list[str]:
        """Versions a phone heard that its ledger never had, or heard out of order."""
        out = []
        for (m, i), seen in self.phones.items():
            counts = [self.had[m].get(v, -1) for _, v in seen]
            if -1 in counts:
                out.append(f"{m} phone {i}: a version the ledger never had")
            elif counts != sorted(counts):
                out.append(f"{m} phone {i}: versions out of order: {counts}")
        return out

    def heard_after(self) -> tuple[list[float], list[str]]:
        """Each hand: how long after its maker was told it landed the last of its match's
        phones heard of it (heard of a version with it or a later one; 0 if they all had
        before); and the hands some phone never heard of."""
        delays: list[float] = []
        unheard: list[str] = []
        for m in self.names:
            for note, number in self.numbers.get(m, {}).items():
                if note not in self.acked:
                    continue
                last = 0.0
                for i in range(self.load.phones):
                    seen = self.phones.get((m, i), [])
                    when = [t for t, v in seen if self.had[m].get(v, -1) >= number]
                    if not when:
                        unheard.append(f"{m} hand {number} ({note}): phone {i}")
                        break
                    last = max(last, min(when))
                else:
                    delays.append(max(0.0, last - self.acked[note]))
        return delays, unheard

    def figures(self) -> list[str]:
        """The figures, a line each."""
        lines = []
        counted = Counter(t.what for t in self.timed)
        posts = [t for t in self.timed if t.what == "POST /api/hands"]
        refused = sum(t.status == 409 for t in posts)
        lines.append(f"{len(self.timed):,} requests in {self.seconds:.1f} s ("
                     + ", ".join(f"{w}: {n:,}" for w, n in sorted(counted.items()))
                     + f"; {refused:,} of the POSTs refused with 409 and sent again), "
                     f"{self.load.hands} hands ({self.load.hands / self.seconds:.1f} a second)")  # fmt: skip
        for what in ("POST /api/hands", "GET /api/state"):
            ms = [t.seconds * 1000 for t in self.timed if t.what == what]
            lines.append(f"{what:16s} median {statistics.median(ms):6.1f} ms, p95 "
                         f"{percentile(ms, 95):6.1f} ms, slowest {max(ms):6.1f} ms "
                         f"({len(ms):,} requests)")  # fmt: skip
        landed = [t.seconds * 1000 for t in posts if t.status == 200]
        if landed:
            lines.append(f"  the POSTs that landed: median {statistics.median(landed):6.1f} ms, "
                         f"p95 {percentile(landed, 95):6.1f} ms")  # fmt: skip
        if self.cli_seconds:
            cli = [s * 1000 for s in self.cli_seconds]
            lines.append(f"match add ({self.load.matches} terminals at once, a process a hand): "
                         f"median {statistics.median(cli):6.0f} ms, p95 {percentile(cli, 95):6.0f} ms")  # fmt: skip
        delays, unheard = self.heard_after()
        if delays:
            ms = [d * 1000 for d in delays]
            lines.append(f"the last phone heard of a change after: median "
                         f"{statistics.median(ms):6.0f} ms, p95 {percentile(ms, 95):6.0f} ms, "
                         f"slowest {max(ms):6.0f} ms ({len(ms)} changes; {len(unheard)} unheard)")  # fmt: skip
        return lines


def make_matches(folder: Path, load: Load, program: list[str], env: Mapping[str, str],
                 cwd: Path) -> list[str]:  # fmt: skip
    """The folder and its matches (``match new``): their file names."""
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for k in range(load.matches):
        name = f"table-{k + 1}.yaml"
        subprocess.run([*program, "match", "new", str(folder / name), "--players",
                        ",".join(PLAYERS[k]), "--end-at", str(END_AT)], check=True,
                       capture_output=True, env=dict(env), cwd=cwd, timeout=120)  # fmt: skip
        names.append(name)
    return names


def run(folder: Path, load: Load | None = None, program: list[str] | None = None,
        env: Mapping[str, str] | None = None, cwd: Path | None = None) -> Report:  # fmt: skip
    """The load on a new folder ``folder`` served by one ``serve``; what it did.

    ``program`` is the command (default: tests/serving.py's); every process is started in
    ``cwd`` (default: the folder's parent) with ``env`` (default: this process's).
    """
    load = load or Load()
    program = program or command()
    env = dict(os.environ if env is None else env)
    cwd = cwd or folder.parent
    names = make_matches(folder, load, program, env, cwd)
    rng = random.Random(load.seed)
    report = Report(load, names, {n: [] for n in names})
    pages: dict[str, queue.SimpleQueue[tuple[str, dict[str, Any]]]] = {}
    typed: dict[str, list[tuple[str, list[str]]]] = {}
    for k, name in enumerate(names):
        players = PLAYERS[k]
        pages[name] = queue.SimpleQueue()
        for j in range(load.page_hands):
            note = f"page-{k + 1}-{j + 1}"
            pages[name].put((note, entry_of(hand_of(rng, players), players, note)))
            report.expected[name].append(note)
        typed[name] = []
        for j in range(load.cli_hands):
            note = f"cli-{k + 1}-{j + 1}"
            typed[name].append((note, flags_of(hand_of(rng, players), players, note)))
            report.expected[name].append(note)
    err_path = cwd / "serve-stderr.txt"
    with err_path.open("w+", encoding="utf-8") as err:
        try:
            with serving(str(folder), "--lang", "en", program=program, base_env=env,
                         cwd=str(cwd), stderr=err) as served:  # fmt: skip
                _drive(served, folder, load, report, pages, typed, program, env, cwd)
        finally:
            err.seek(0)
            report.server_err = err.read()
    _examine(folder, report, program, env, cwd)
    return report


def _drive(served: Served, folder: Path, load: Load, report: Report,
           pages: dict[str, queue.SimpleQueue[tuple[str, dict[str, Any]]]],
           typed: dict[str, list[tuple[str, list[str]]]], program: list[str],
           env: dict[str, str], cwd: Path) -> None:  # fmt: skip
    lock = threading.Lock()

    def problem(text: str) -> None:
        with lock:
            report.problems.append(text)

    feeds = {(m, i): Feed(served, m, report.timed) for m in report.names
             for i in range(load.phones)}  # fmt: skip
    for feed in feeds.values():
        feed.start()
    deadline = time.monotonic() + 30
    for feed in feeds.values():
        feed.opened.wait(max(0.0, deadline - time.monotonic()))
        while not feed.seen and not feed.failure and time.monotonic() < deadline:
            time.sleep(0.01)
    go = threading.Barrier(load.matches * (load.pages + 1) + 1)

    def page(match: str) -> None:
        client = Client(served, report.timed)
        try:
            status, state = client.call("GET", "/api/state", match)
            version = state["version"] if status == 200 else ""
            go.wait()
            hands = pages[match]
            while True:
                try:
                    note, entry = hands.get_nowait()
                except queue.Empty:
                    return
                for _ in range(ATTEMPTS):
                    body = {"version": version, "entry": entry}
                    status, answer = client.call("POST", "/api/hands", match, body)
                    if status == 200:
                        report.acked[note] = time.monotonic()
                        version = answer["state"]["version"]
                        break
                    if status != 409:
                        problem(f"POST /api/hands?match={match} ({note}): {status} "
                                f"{answer!r:.2000}")  # fmt: skip
                        break
                    status, state = client.call("GET", "/api/state", match)
                    if status != 200:
                        problem(f"GET /api/state?match={match}: {status} {state!r:.2000}")
                        break
                    version = state["version"]
                else:
                    problem(f"{match} {note}: refused {ATTEMPTS} times")
        except Exception as e:  # (a dropped connection, a bad answer: said, never raised away)
            problem(f"a page of {match}: {type(e).__name__}: {e}")
            with contextlib.suppress(threading.BrokenBarrierError):
                go.abort()
        finally:
            client.close()

    def terminal(match: str) -> None:
        go.wait()
        for note, flags in typed[match]:
            start = time.perf_counter()
            done = subprocess.run([*program, "match", "add", str(folder / match), *flags],
                                  capture_output=True, text=True, env=env, cwd=cwd,
                                  timeout=120)  # fmt: skip
            if done.returncode:
                problem(f"match add {match} ({note}): exit {done.returncode}: {done.stderr}")
                continue
            report.acked[note] = time.monotonic()
            with lock:
                report.cli_seconds.append(time.perf_counter() - start)

    workers = [threading.Thread(target=page, args=(m,), daemon=True) for m in report.names
               for _ in range(load.pages)]  # fmt: skip
    workers += [threading.Thread(target=terminal, args=(m,), daemon=True) for m in report.names]
    for w in workers:
        w.start()
    try:
        go.wait(60)
    except threading.BrokenBarrierError:
        problem("the pages and terminals did not all start")
    started = time.monotonic()
    for w in workers:
        w.join(600)
        if w.is_alive():
            problem("a page or terminal still running after 600 s (a hang)")
    report.seconds = time.monotonic() - started
    final = {m: _version(folder / m) for m in report.names}
    deadline = time.monotonic() + HEARD_WAIT
    while time.monotonic() < deadline and not all(
        f.seen and f.seen[-1][1] == final[m] for (m, _), f in feeds.items() if not f.failure
    ):  # fmt: skip
        time.sleep(0.02)
    for (m, i), feed in feeds.items():
        feed.stop()
        report.phones[(m, i)] = list(feed.seen)
        if feed.failure:
            problem(f"phone {i} of {m}: {feed.failure}")


def _version(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _examine(folder: Path, report: Report, program: list[str], env: dict[str, str],
             cwd: Path) -> None:  # fmt: skip
    from gongzhu_score.match.storage import ledger_history

    for name in report.names:
        path = folder / name
        report.final[name] = _version(path)
        shown = subprocess.run([*program, "match", "show", str(path), "--format", "json"],
                               capture_output=True, text=True, env=env, cwd=cwd, timeout=120)  # fmt: skip
        hands = json.loads(shown.stdout)["hands"] if shown.returncode == 0 else []
        if shown.returncode:
            report.problems.append(f"match show {name}: {shown.stderr}")
        report.hands[name] = len(hands)
        report.notes[name] = Counter(h.get("note") for h in hands)
        report.numbers[name] = {h["note"]: h["hand"] for h in hands if h.get("note")}
        verify = subprocess.run([*program, "match", "verify", str(path)], capture_output=True,
                                text=True, env=env, cwd=cwd, timeout=120)  # fmt: skip
        report.verified[name] = (verify.returncode, verify.stdout + verify.stderr)
        had: dict[str, int] = {}
        for change in ledger_history(str(path)):
            if change.kind == "new":
                had[change.after] = 0
            elif change.kind == "add":
                had[change.after] = int(change.values["hand"])
            else:
                report.problems.append(f"{name}: a change of kind {change.kind} in its history")
        report.had[name] = had
