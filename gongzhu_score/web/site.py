"""The matches a page serves: one ledger (``serve LEDGER``) or a folder's every match.

A folder (``serve FOLDER``) is the evening's or the club's: its matches are its ledgers, the
current one the last started or changed, and the page may start new ones there. A request names
its match by file name (``?match=NAME``), never by path: a name with a folder in it, a hidden
file or a file that is no ledger is refused, so no request reaches another file.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..core.options import ScoringOptions
from ..core.variant import Variant
from ..errors import GongzhuError, LedgerError
from ..io.variants import VARIANTS, find_variant, load_rules
from ..match.actions import new_match, split_names
from ..match.current import is_ledger_file
from ..match.stats import LEDGER_SUFFIXES, looks_like_a_ledger, looks_like_a_tournament
from ..match.storage import read_ledger
from ..terms import error, printable, title, unsafe_character
from .state import RequestError, _body, _field

__all__ = ["MAX_MATCHES", "Site", "match_name_of"]

MAX_RECENT = 40
"""The most recent names (and tables' names) the start form offers."""
_STARTING = threading.Lock()
"""Held while 再来一盘 looks for the match already started from one and starts it if none:
two phones asking at once start one match."""
MAX_MATCHES = 1000
"""The most matches the page lists: the newest (by their files' times); past it, the list says
how many older ones it leaves out. Only ledgers count: hand, rules and tournament files beside
them neither count nor hide one."""
_RULES_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class Site:
    """What ``serve`` was given: ``folder`` (absolute), and ``only``, the one ledger's name.

    ``only`` is None for a folder: then every ledger in it is served, and new ones may start.
    """

    folder: str
    only: str | None = None
    _kinds: dict[str, tuple[tuple[int, int, int], str]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """What each YAML file of the folder is (:meth:`_kind`), by name: its stamp and kind."""
    _loaded: dict[str, tuple[tuple[int, int, int], Variant | None]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Each house-rules file loaded (None: it is none), by name: its stamp and rules."""
    _lock: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)
    """Held while the two above change (requests and the live feed look from worker threads)."""

    @classmethod
    def of(cls, path: str) -> Site:
        """The site of ``serve PATH``: a folder's matches, or one ledger."""
        absolute = os.path.abspath(path)
        if os.path.isdir(absolute):
            return cls(absolute)
        return cls(os.path.dirname(absolute), os.path.basename(absolute))

    @property
    def served(self) -> str:
        """The path ``serve`` was given (its key is kept beside it)."""
        return self.folder if self.only is None else os.path.join(self.folder, self.only)

    @property
    def can_start(self) -> bool:
        return self.only is None

    def told(self, text: str) -> str:
        """``text`` as a phone is told it: each file named relative to the folder served (no
        path of the server's: a ledger's folder, the real one a link leads to), on one line."""
        for folder in self._folders():
            text = text.replace(folder + os.sep, "")
        return printable(text)

    def _folders(self) -> list[str]:
        """The folders whose paths are cut from what a phone is told, the longest first."""
        found = {self.folder, os.path.realpath(self.folder)}
        if self.only is not None:  # (a ledger that is a link: its lock and history sit there)
            found.add(os.path.dirname(os.path.realpath(self.served)))
        return sorted((f for f in found if f not in ("", os.sep)), key=len, reverse=True)

    def path(self, name: str | None) -> str:
        """The ledger a request's ``match`` names (None: the current one), or a refusal."""
        if name is None:
            current = self.current()
            if current is None:
                raise error(RequestError, "error.web.no_matches")
            name = current
        if self.only is not None:
            if name != self.only:
                raise error(RequestError, "error.web.match", name=printable(repr(name)))
            return self.served
        plain = os.path.basename(name) == name and not name.startswith(".")
        path = os.path.join(self.folder, name)
        if not (plain and name.endswith(LEDGER_SUFFIXES) and is_ledger_file(path)):
            raise error(RequestError, "error.web.match", name=printable(repr(name)))
        return path

    def _files(self, suffixes: tuple[str, ...]) -> list[tuple[str, os.stat_result]]:
        """Every file of the folder named ``*SUFFIX`` (no hidden ones), each with its ``stat``
        (None for one ledger: the others are not served)."""
        if self.only is not None:
            return []
        found: list[tuple[str, os.stat_result]] = []
        try:
            with os.scandir(self.folder) as entries:
                for entry in entries:
                    if entry.name.startswith(".") or not entry.name.endswith(suffixes):
                        continue
                    try:
                        if entry.is_file():
                            found.append((entry.name, entry.stat()))
                    except OSError:
                        continue
        except OSError:
            return []
        return found

    def _kind(self, name: str, st: os.stat_result) -> str:
        """What a YAML file of the folder is: ``ledger``, ``tournament`` or ``other`` (a hand
        file, house rules). Each file is read once, then again only when it changes."""
        stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        with self._lock:
            known = self._kinds.get(name)
        if known is not None and known[0] == stamp:
            return known[1]
        path = os.path.join(self.folder, name)
        kind = (
            "ledger"
            if looks_like_a_ledger(path)
            else "tournament"
            if looks_like_a_tournament(path)
            else "other"
        )
        with self._lock:
            self._kinds[name] = (stamp, kind)
        return kind

    def _of_kind(self, *kinds: str, suffixes: tuple[str, ...] = LEDGER_SUFFIXES
                 ) -> list[tuple[str, os.stat_result]]:  # fmt: skip
        """The folder's files of ``kinds`` (:meth:`_kind`), by name. What is remembered of
        files no longer there is forgotten."""
        files = self._files(suffixes)
        names = {n for n, _ in files}
        with self._lock:
            for known in (self._kinds, self._loaded):
                for gone in [n for n in known if n not in names]:
                    del known[gone]
        return sorted((n, st) for n, st in files if self._kind(n, st) in kinds)

    def _ledgers(self) -> list[str]:
        """Every ledger's file name, the newest change first (by the files' times)."""
        if self.only is not None:
            return [self.only]
        found = self._of_kind("ledger")
        return [n for n, _ in sorted(found, key=lambda f: (-f[1].st_mtime_ns, f[0]))]

    def names(self) -> list[str]:
        """The ledgers' file names, the newest change first: at most :data:`MAX_MATCHES`, the
        newest (:meth:`left_out` says how many more there are)."""
        return self._ledgers()[:MAX_MATCHES]

    def left_out(self) -> int:
        """How many of the folder's matches the list leaves out (the oldest, past
        :data:`MAX_MATCHES`)."""
        return max(0, len(self._ledgers()) - MAX_MATCHES)

    def signature(self) -> str:
        """What changes when a match or a tournament is started, changed or goes: their files'
        names, times and sizes (other YAML files are read once to tell, then only ``stat``-ed:
        the live feed asks five times a second)."""
        found = self._of_kind("ledger", "tournament")
        return "\n".join(f"{n}\0{st.st_mtime_ns}\0{st.st_size}" for n, st in found)

    def current(self) -> str | None:
        """The match a page opens on: the last started or changed (None: there is none)."""
        names = self.names()
        return names[0] if names else None

    def matches(self, lang: str) -> list[dict[str, Any]]:
        """The matches, the current first: each one's players, hands, end and last change."""
        out = []
        for i, name in enumerate(self.names()):
            path = os.path.join(self.folder, name)
            entry: dict[str, Any] = {"name": name, "current": i == 0}
            try:
                changed = datetime.fromtimestamp(os.stat(path).st_mtime).astimezone()
                ledger = read_ledger(path)
            except (GongzhuError, OSError) as e:
                why = e.text(lang) if isinstance(e, GongzhuError) else str(e.strerror)
                entry["problem"] = self.told(why)
                out.append(entry)
                continue
            status = ledger.status()
            entry.update(
                changed=changed.isoformat(timespec="seconds"),
                players=list(ledger.players),
                hands=ledger.count,
                ended=status.ended,
                pig=status.loser,
                variant=ledger.variant.name,
            )
            if ledger.title is not None:  # (its table: the page shows it, not the file's name)
                entry["title"] = ledger.title
            if ledger.follows is not None:  # (再来一盘: the match it was started from)
                entry["follows"] = ledger.follows
            out.append(entry)
        return out

    @staticmethod
    def recent(matches: list[dict[str, Any]]) -> dict[str, list[str]]:
        """The names played with in the folder and its tables' names, the most recent first
        (:meth:`matches`' order), for the page to offer when a table starts."""
        names: dict[str, None] = {}
        titles: dict[str, None] = {}
        for match in matches:
            for name in match.get("players") or ():
                names.setdefault(name)
            if "title" in match:
                titles.setdefault(match["title"])
        return {"recent_names": list(names)[:MAX_RECENT],
                "recent_titles": list(titles)[:MAX_RECENT]}  # fmt: skip

    def stats(self, player: str | None = None, since: str | None = None,
              until: str | None = None) -> dict[str, Any]:  # fmt: skip
        """The season of the matches served, as ``stats FOLDER --format json`` prints it (``GET
        /api/stats``), each match named by its file's name in the folder; with ``player``, that
        player's (``stats FOLDER --player NAME --format json``). ``since`` and ``until`` are
        ``--since`` and ``--until``. Nothing is written."""
        from ..match.stats import parse_day, player_view, read_stats
        from ..render.stats import player_data, stats_data

        try:
            dates = parse_day(since, "since"), parse_day(until, "until")
        except GongzhuError as e:
            raise e.recast(RequestError) from None
        stats = read_stats([self.served], *dates, relative_to=self.folder)
        if player is not None:
            return player_data(player_view(stats, player))
        return stats_data(stats)

    def tournaments(self, lang: str) -> list[dict[str, Any]]:
        """The folder's tournaments, by file name: each one's standings and its last round's
        tables (:func:`~..render.tournament.standings_page`), or the problem reading it."""
        from ..match.tournaments import tournament_standings
        from ..render.tournament import standings_page

        out = []
        for name, _ in self._of_kind("tournament"):
            path = os.path.join(self.folder, name)
            try:
                out.append(standings_page(name, tournament_standings(path), lang))
            except GongzhuError as e:
                out.append({"file": name, "problem": self.told(e.text(lang))})
        return out

    def rules_files(self) -> list[str]:
        """The folder's house-rules files, by name (each one that loads as rules)."""
        return [name for name, _ in self._rules()]

    def _rules(self) -> list[tuple[str, Variant]]:
        """The folder's house-rules files and their rules, by name: each file loaded once,
        again only when it changes."""
        found: list[tuple[str, Variant]] = []
        for name, st in self._of_kind("other", suffixes=_RULES_SUFFIXES):
            stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
            with self._lock:
                known = self._loaded.get(name)
            if known is None or known[0] != stamp:
                try:
                    known = (stamp, load_rules(os.path.join(self.folder, name)))
                except (GongzhuError, OSError):
                    known = (stamp, None)
                with self._lock:
                    self._loaded[name] = known
            if known[1] is not None:
                found.append((name, known[1]))
        return found

    def choices(self, lang: str) -> dict[str, Any]:
        """What a new match may be started with: the variants, the folder's rules files."""
        rules = self._rules()
        return {
            "can_start": self.can_start,
            "variants": [{"name": n, "title": title(find_variant(n), lang)} for n in VARIANTS],
            "rules_files": [name for name, _ in rules],
            "rules_titles": {name: title(variant, lang) or variant.name for name, variant in rules},
            "teams": ["none", "partners", "pig-sheep"],
        }

    def start(self, data: object, today: Callable[[], datetime]) -> tuple[str, bool]:
        """Start a match as the page asks (docs/web.md, ``POST /api/matches``): its name, and
        whether it was there already.

        ``like`` (a match's name) starts one like it (再来一盘): its players, rules, end and
        table, as ``match new --like``, what else is given winning. A match already started from
        ``like`` is the answer instead of a second one, however many phones ask at once.
        """
        if not self.can_start:
            raise error(RequestError, "error.web.one_match")
        body = _body(data)
        like = body.get("like")
        if not isinstance(like, str):
            return self._start(body, today), False
        with _STARTING:
            for name in self.names():
                try:
                    if read_ledger(os.path.join(self.folder, name)).follows == like:
                        return name, True
                except (GongzhuError, OSError):
                    continue
            return self._start(body, today), False

    def _start(self, data: object, today: Callable[[], datetime]) -> str:
        if not self.can_start:
            raise error(RequestError, "error.web.one_match")
        body = _body(data)
        unknown = [k for k in body if k not in _START_KEYS]
        if unknown:
            raise error(RequestError, "error.web.key", key=printable(repr(unknown[0])),
                        allowed=", ".join(_START_KEYS))  # fmt: skip
        like = _field(body, "like", str)
        like_path = self.path(like) if like is not None else None
        players = _players(body.get("players"))
        if players is None and like_path is None:
            raise error(RequestError, "error.web.field", field="players", value="null")
        variant, rules = _field(body, "variant", str), _field(body, "rules", str)
        if variant is not None and rules is not None:
            raise error(RequestError, "error.web.variant_or_rules")
        chosen = None
        if variant is not None:
            chosen = _recast(lambda: find_variant(variant), "variant")
        elif rules is not None:
            if rules not in self.rules_files():
                raise error(RequestError, "error.web.rules_file", name=printable(repr(rules)))
            chosen = load_rules(os.path.join(self.folder, rules))
        teams = _field(body, "teams", str)
        end_at = body.get("end_at")
        if end_at is not None and (isinstance(end_at, bool) or not isinstance(end_at, int)):
            raise error(RequestError, "error.web.field", field="end_at",
                        value=printable(repr(end_at)))  # fmt: skip
        options = _recast(lambda: ScoringOptions.parse(chosen, teams=teams), "teams")
        last_hand = _count(body, "last_hand")
        auto_play = _field(body, "auto_play", str)
        titled = _field(body, "title", str)
        asked = _field(body, "name", str)
        for name in self._new_names(asked, today()):
            path = os.path.join(self.folder, name)
            if not os.path.lexists(path):
                try:
                    new_match(path, players, like=like_path, options=options, end_at=end_at,
                              last_hand=last_hand, auto_play=auto_play, title=titled)  # fmt: skip
                    return name
                except LedgerError:
                    if not os.path.lexists(path):
                        raise
            # Taken, perhaps a moment ago by another phone: the name asked for is refused as
            # taken (as it would have been a moment later); a date's name goes to the next.
            if asked is not None:
                raise error(RequestError, "error.web.file_taken", name=printable(repr(name)))
        raise error(RequestError, "error.web.name_taken")

    def _new_names(self, asked: str | None, now: datetime) -> list[str]:
        """The file names a new match may take: the one asked for, else the date's."""
        if asked is not None:
            name = asked.strip()
            if not name.endswith(LEDGER_SUFFIXES):
                name += ".yaml"
            plain = os.path.basename(name) == name and not name.startswith(".")
            # (no control, line-separator or bidirectional character: a name shows as it is)
            if not plain or len(name) > 120 or unsafe_character(name) is not None:
                raise error(RequestError, "error.web.file_name", name=printable(repr(asked)))
            if os.path.lexists(os.path.join(self.folder, name)):
                raise error(RequestError, "error.web.file_taken", name=printable(repr(name)))
            return [name]
        day = now.strftime("%Y-%m-%d")
        return [f"{day}.yaml", *(f"{day}-{i}.yaml" for i in range(2, 100))]


def match_name_of(query: Mapping[str, str]) -> str | None:
    """The match a request names (``?match=NAME``), or None: the current one."""
    return query.get("match")


_START_KEYS = ("players", "variant", "rules", "teams", "end_at", "name", "like", "title",
               "last_hand", "auto_play")  # fmt: skip


def _count(body: Mapping[str, Any], key: str) -> int | None:
    """A whole number the page sent (a count, never ``true`` or ``1.0``), or None."""
    value = body.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise error(RequestError, "error.web.field", field=key, value=printable(repr(value)))
    return value


def _players(value: object) -> list[str] | None:
    """Four names: a list, or as a table writes them (``东,南,西,北``)."""
    if value is None:
        return None
    if isinstance(value, str):
        return split_names(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise error(RequestError, "error.web.field", field="players", value=printable(repr(value)))


def _recast(work: Callable[[], Any], field: str) -> Any:
    try:
        return work()
    except GongzhuError as e:
        raise e.recast(RequestError).within(field) from None
