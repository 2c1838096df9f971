"""A tournament across tables, one use case a function: start one, seat its next round, read
its standings, verify it (rulings §12.3–12.4).

The tournament file lists its tables; each is a match ledger in the same folder, written and
changed as any match is (``match add`` at each table). What is refused is refused whole: a
round is seated only when every file it needs can be written, and nothing is left behind when
one cannot.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..core.auto_play import AutoPlay
from ..core.options import ScoringOptions
from ..errors import GongzhuError, LedgerError, TournamentError
from ..io.files import (
    fsync_folder,
    real_target,
    refuse_dash,
    replace_file,
    unchanged_unless_written,
    write_temp,
)
from ..io.yamlfile import load_yaml, read_text
from ..terms import Listed, colon, error, place
from .actions import planned_match
from .history import history_path
from .ledger import Ledger
from .standings import Placed, TableResult, Tiebreak, seat_tables, standings
from .storage import create_ledger, read_ledger
from .tournament import TABLE_SIZE, Table, Tournament, check_players

__all__ = [
    "MAX_TOURNAMENT_BYTES",
    "Standings",
    "new_tournament",
    "next_round",
    "read_tournament",
    "tournament_standings",
    "verify_tournament",
]

MAX_TOURNAMENT_BYTES = 8_000_000
"""The largest tournament file read: a thousand rounds of a hundred tables fit."""


@dataclass(frozen=True)
class Standings:
    """A tournament's standings now: the tournament, its tables' ledgers round by round, the
    players ranked (each table counts as it stands, ended or not)."""

    tournament: Tournament
    ledgers: tuple[tuple[Ledger, ...], ...]
    placed: tuple[Placed, ...]

    @functools.cached_property
    def in_play(self) -> list[tuple[int, Table]]:
        """The tables of the last round still in play: (number, table); worked out once (each
        asks its ledger whether the match has ended)."""
        if not self.ledgers:
            return []
        last = zip(self.tournament.rounds[-1], self.ledgers[-1], strict=True)
        return [(k, t) for k, (t, lg) in enumerate(last, 1) if not lg.status().ended]


def new_tournament(
    path: str,
    players: Sequence[str],
    *,
    options: ScoringOptions = ScoringOptions(),
    end_at: int | None = None,
    last_hand: int | None = None,
    auto_play: AutoPlay | str | None = None,
    tiebreak: Tiebreak | str | None = None,
    name: str | None = None,
) -> Tournament:
    """Start a tournament in a new file, never over an existing one.

    ``players`` in registration order (a whole number of tables of four). Every table plays
    the match ``match new`` would start with ``options``, ``end_at``, ``last_hand`` and
    ``auto_play``; ties go by ``tiebreak`` (``last-match`` by default). ``name`` is kept in each
    table's ledger: the file's name without ``.yaml`` by default.
    """
    names = check_players(players)
    chosen = name if name is not None else Path(path).name.removesuffix(".yaml")
    settings = planned_match(
        names[:TABLE_SIZE], options=options, end_at=end_at, last_hand=last_hand, auto_play=auto_play
    )
    tournament = Tournament.new(chosen, names, settings, tiebreak or Tiebreak.LAST_MATCH)
    _create(path, tournament.to_text().encode("utf-8"))
    return tournament


def read_tournament(path: str) -> Tournament:
    """The tournament file at ``path``, every field checked; errors name the file.

    A file laid out as this module writes it is read a line at a time (each line's value is
    JSON), so that a long tournament is read in one pass whatever its size; any other layout
    goes to the one guarded YAML reader.
    """
    try:
        text, source = read_text(path, MAX_TOURNAMENT_BYTES, "tournament")
        data: object = _canonical(text)
        if data is None:
            data = load_yaml(text, source)
    except GongzhuError as e:
        raise e.recast(TournamentError) from None
    try:
        return Tournament.from_data(data)
    except GongzhuError as e:
        raise e.recast(TournamentError).within(path) from None


def _no_pairs_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("a key given twice")  # (then the YAML reader says where)
    return dict(pairs)


def _canonical(text: str) -> dict[str, Any] | None:
    """The data of a tournament file as :meth:`Tournament.to_text` lays it out; None if it is
    laid out otherwise (hand-edited: the YAML reader reads it)."""
    data: dict[str, Any] = {}
    rounds: list[dict[str, Any]] | None = None
    current: dict[str, Any] | None = None
    try:
        for line in text.splitlines():
            if not line or line.startswith("#"):
                continue
            if rounds is None:
                if line == "rounds:":
                    rounds = data["rounds"] = []
                    continue
                key, sep, value = line.partition(": ")
                if not sep or key in data or not key.isidentifier():
                    return None
                data[key] = json.loads(value, object_pairs_hook=_no_pairs_twice)
            elif line.startswith("- round: "):
                current = {"round": json.loads(line[9:])}
                rounds.append(current)
            elif line == "  tables:" and current is not None and "tables" not in current:
                current["tables"] = []
            elif line.startswith("  - ") and current is not None and "tables" in current:
                current["tables"].append(json.loads(line[4:], object_pairs_hook=_no_pairs_twice))
            else:
                return None
    except (ValueError, RecursionError):
        return None
    return data


def _folder(path: str) -> Path:
    return Path(path).parent


def _tables(path: str, tournament: Tournament) -> tuple[tuple[Ledger, ...], ...]:
    """Each round's ledgers, each checked against its table: of this tournament, its players
    in the table's seats."""
    folder = _folder(path)
    rounds = []
    for number, tables in enumerate(tournament.rounds, 1):
        ledgers = []
        for k, table in enumerate(tables, 1):
            where = place("where.table", number=number, table=k, file=table.ledger)
            ledger_path = str(folder / table.ledger)
            if not os.path.lexists(ledger_path):  # (never "start one with match new": no table)
                raise (
                    error(TournamentError, "error.tournament.table_gone").within(where).within(path)
                )
            try:
                ledger = read_ledger(ledger_path)
            except GongzhuError as e:
                raise e.recast(TournamentError).within(where).within(path) from None
            if ledger.tournament != tournament.name:
                key = (
                    "error.tournament.alone"
                    if ledger.tournament is None
                    else "error.tournament.other"
                )
                raise (
                    error(TournamentError, key, found=ledger.tournament, name=tournament.name)
                    .within(where)
                    .within(path)
                )
            if ledger.players != table.players:
                missing = [n for n in table.players if n not in ledger.players]
                key = "error.tournament.missing" if missing else "error.tournament.seats"
                raise (
                    error(
                        TournamentError,
                        key,
                        names=Listed(missing or table.players),
                        players=Listed(ledger.players),
                    )
                    .within(where)
                    .within(path)
                )
            ledgers.append(ledger)
        rounds.append(tuple(ledgers))
    return tuple(rounds)


def tournament_standings(path: str) -> Standings:
    """The tournament at ``path`` with every table read, and its players ranked (§12.3)."""
    tournament = read_tournament(path)
    ledgers = _tables(path, tournament)
    results = [
        [
            TableResult(t.players, lg.standing().totals, bool(lg.entries), lg.status().draw)
            for t, lg in zip(tables, row, strict=True)
        ]
        for tables, row in zip(tournament.rounds, ledgers, strict=True)
    ]
    placed = standings(tournament.players, results, tournament.tiebreak)
    return Standings(tournament, ledgers, tuple(placed))


def next_round(path: str) -> tuple[Tournament, tuple[Table, ...]]:
    """Seat the next round by the standings (§12.4) and create its tables' ledgers.

    Refused while a table of the last round is still in play, or when a file it would write
    exists; then nothing is written.
    """
    now = tournament_standings(path)
    tournament = now.tournament
    if now.in_play:
        number, table = now.in_play[0]
        raise error(
            TournamentError,
            "error.tournament.in_play",
            round=len(tournament.rounds),
            table=number,
            file=table.ledger,
            count=len(now.in_play),
        ).within(path)
    number = len(tournament.rounds) + 1
    seats = seat_tables([p.name for p in now.placed])
    tables = tuple(
        Table(f"{tournament.name}-r{number}-t{k}.yaml", players)
        for k, players in enumerate(seats, 1)
    )
    folder = _folder(path)
    for table in tables:  # (a link counts, even one to nothing: nothing is made through it)
        if os.path.lexists(folder / table.ledger):
            raise error(LedgerError, "error.storage.exists").within(str(folder / table.ledger))
    seated = tournament.with_round(tables)
    text = seated.to_text().encode("utf-8")
    if len(text) > MAX_TOURNAMENT_BYTES:
        raise error(TournamentError, "error.tournament.large", round=number,
                    size=f"{MAX_TOURNAMENT_BYTES:,}").within(path)  # fmt: skip
    locks = [folder / f"{t.ledger}.lock" for t in tables]
    kept = {lock for lock in locks if os.path.lexists(lock)}
    created: list[str] = []
    try:
        for table in tables:
            ledger_path = str(folder / table.ledger)
            ledger = replace(tournament.settings, players=table.players, tournament=tournament.name)
            create_ledger(ledger_path, ledger)
            created.append(ledger_path)
        with unchanged_unless_written(path, TournamentError):
            replace_file(real_target(path, TournamentError), text)
    except BaseException:
        gone = [p for c in created for p in (Path(c), history_path(c))]
        for leftover in [*gone, *(lock for lock in locks if lock not in kept)]:
            with contextlib.suppress(OSError):  # (a round is seated whole or not at all)
                leftover.unlink()
        raise
    return seated, tables


def verify_tournament(path: str, lang: str = "en") -> tuple[Standings, list[str]]:
    """Every table's stored numbers checked (``match verify``), after the tournament's own
    shape: the standings, and each problem a line naming its table (none: all agree)."""
    now = tournament_standings(path)
    problems: list[str] = []
    for number, (tables, row) in enumerate(zip(now.tournament.rounds, now.ledgers, strict=True), 1):
        for k, (table, ledger) in enumerate(zip(tables, row, strict=True), 1):
            where = place("where.table", number=number, table=k, file=table.ledger)
            lines = [*_rules_apart(now.tournament.settings, ledger, lang), *ledger.verify(lang)]
            problems += [f"{where.text(lang)}{colon(lang)}{line}" for line in lines]
    return now, problems


def _rules_apart(settings: Ledger, table: Ledger, lang: str) -> list[str]:
    """Each setting of a table's ledger that is not the tournament's (rules, teams, scale,
    rounding, hands, end line, 托管 regime), a line each: its standings would mix them."""
    want, got = settings.settings_data(), table.settings_data()
    apart = [key for key in dict.fromkeys([*want, *got]) if want.get(key) != got.get(key)]
    said = [place("verify.table_setting", key=key, found=_shown(got.get(key)),
                  expected=_shown(want.get(key))) for key in apart]  # fmt: skip
    return [line.text(lang) for line in said]


def _shown(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, dict):  # (house rules, kept whole)
        return f"{value.get('name')} (house rules)"
    return str(value)


def _create(path: str, data: bytes) -> None:
    """Write a new file; refuse, touching nothing, if it exists."""
    refuse_dash(path, TournamentError)
    target = real_target(path, TournamentError)
    if os.path.lexists(target):
        raise error(TournamentError, "error.tournament.exists").within(path)
    with unchanged_unless_written(path, TournamentError):
        tmp = write_temp(target, data)
        try:
            os.link(tmp, target)  # (fails if it exists: no check-then-write race)
            fsync_folder(target.parent)
        except FileExistsError:
            raise error(TournamentError, "error.tournament.exists").within(path) from None
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
