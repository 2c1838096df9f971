"""A tournament as a value: its registered players, its tables' rules, its tie-break and its
rounds, each a set of tables (match ledgers beside the file); and its strict text form.

The file is YAML that this module writes and reads back, as a ledger is: every field checked,
an unknown key refused, each error naming the place. A table is a ledger file (a name in the
tournament's folder) and its players in seat order (rulings §12.3–12.4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..core.hand import check_name
from ..errors import GongzhuError, TournamentError
from ..terms import Listed, error, printable
from .ledger import (
    FORMAT,
    MAX_TOURNAMENT_NAME,
    SETTINGS,
    TOURNAMENT_HEADER,
    Ledger,
    check_tournament_name,
    flow_text,
    is_whole,
)
from .standings import Tiebreak

__all__ = ["MAX_PLAYERS", "MAX_ROUNDS", "TABLE_SIZE", "Table", "Tournament"]

TABLE_SIZE = 4
MAX_PLAYERS = 4_000
"""The most players a tournament may register: a thousand tables a round."""
MAX_ROUNDS = 1_000


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: its ledger (a file name in the tournament's folder) and its
    players in seat order, seat 1 North."""

    ledger: str
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament: ``players`` in registration order, the rules each table is played under
    (``settings``: a match of the first four, no hands), the tie-break, and the rounds so far."""

    name: str
    players: tuple[str, ...]
    settings: Ledger
    tiebreak: Tiebreak = Tiebreak.LAST_MATCH
    rounds: tuple[tuple[Table, ...], ...] = ()

    @classmethod
    def new(
        cls, name: str, players: Sequence[str], settings: Ledger, tiebreak: Tiebreak | str
    ) -> Tournament:
        """A tournament with no rounds yet; its players checked (:func:`check_players`)."""
        from ..core.normalize import choice

        chosen = choice(Tiebreak, tiebreak, "tiebreak")
        return cls(check_tournament_name(name), check_players(players), settings, chosen)

    def with_round(self, tables: Sequence[Table]) -> Tournament:
        return replace(self, rounds=(*self.rounds, tuple(tables)))

    # --- text form ------------------------------------------------------------------------

    def to_text(self) -> str:
        """The tournament as YAML: the same bytes for the same tournament."""
        lines = [
            f"{TOURNAMENT_HEADER}: its players in registration order, its tables' rules,",
            "# its rounds. Seat the next with `gongzhu-score tournament round`; check it with",
            "# `tournament verify`. Each table is a match ledger in this folder.",
            f"format: {FORMAT}",
            f"name: {flow_text(self.name)}",
            f"players: {flow_text(list(self.players))}",
            f"tiebreak: {flow_text(self.tiebreak.value)}",
            f"table: {flow_text(self.settings.settings_data())}",
            "rounds:",
        ]
        for number, tables in enumerate(self.rounds, 1):
            lines += [f"- round: {number}", "  tables:"]
            lines += [
                f"  - {flow_text({'ledger': t.ledger, 'players': list(t.players)})}" for t in tables
            ]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_data(cls, data: object) -> Tournament:
        """Build from loaded YAML, checking every field; errors name the place."""
        if not isinstance(data, Mapping):
            raise error(TournamentError, "error.tournament.not_mapping")
        if not is_whole(data.get("format"), FORMAT):  # (not true, nor 1.0: they equal 1)
            raise error(
                TournamentError,
                "error.ledger.format",
                expected=FORMAT,
                found=printable(repr(data.get("format"))),
            )
        if "hands" in data or "variant" in data or "rules" in data:
            raise error(TournamentError, "error.tournament.ledger_file")
        for key in data:
            if key not in ("format", "name", "players", "tiebreak", "table", "rounds"):
                raise error(TournamentError, "error.ledger.unknown_key", key=printable(repr(key)))
        for key in ("name", "tiebreak"):
            if not isinstance(data.get(key), str):
                raise error(TournamentError, "error.ledger.kind", key=key, kind="str",
                            value=printable(repr(data.get(key))))  # fmt: skip
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(n, str) for n in players):
            raise error(TournamentError, "error.tournament.players_list")
        table = data.get("table")
        if not isinstance(table, Mapping):
            raise error(TournamentError, "error.tournament.table_mapping")
        for key in table:
            if key not in SETTINGS:
                raise error(TournamentError, "error.ledger.unknown_key",
                            key=printable(repr(key))).within("table")  # fmt: skip
        name = data["name"]
        if name != name.strip():
            raise error(TournamentError, "error.tournament.name", name=printable(repr(name)),
                        most=MAX_TOURNAMENT_NAME)  # fmt: skip
        try:
            checked = check_players(players)
        except GongzhuError as e:
            raise e.recast(TournamentError).within("players") from None
        try:
            settings = Ledger.from_data(
                {"format": FORMAT, "players": list(checked[:TABLE_SIZE]), **table, "hands": []}
            )
        except GongzhuError as e:
            raise e.recast(TournamentError).within("table") from None
        try:
            tournament = cls.new(name, checked, settings, data["tiebreak"])
        except GongzhuError as e:
            raise e.recast(TournamentError) from None
        rounds = data.get("rounds")
        if rounds is None:  # (``rounds:`` and nothing under it: none yet)
            rounds = []
        if not isinstance(rounds, list) or len(rounds) > MAX_ROUNDS:
            raise error(TournamentError, "error.tournament.rounds_list", most=MAX_ROUNDS)
        registered = frozenset(tournament.players)
        seated = tuple(
            _round_from_data(number, given, tournament.players, registered)
            for number, given in enumerate(rounds, 1)
        )
        _one_table_a_ledger(seated)
        return replace(tournament, rounds=seated)


def check_players(players: Sequence[str]) -> tuple[str, ...]:
    """Registered players: well-formed names, all different, a whole number of tables."""
    names = tuple(check_name(n) for n in players)
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise error(TournamentError, "error.tournament.twice", name=name)
        seen.add(name)
    if not names or len(names) % TABLE_SIZE or len(names) > MAX_PLAYERS:
        raise error(
            TournamentError,
            "error.tournament.count",
            count=len(names),
            size=TABLE_SIZE,
            most=MAX_PLAYERS,
        )
    return names


def _round_from_data(
    number: int, data: object, players: Sequence[str], registered: frozenset[str]
) -> tuple[Table, ...]:
    where = f"rounds[{number}]"
    if not isinstance(data, Mapping) or set(data) != {"round", "tables"}:
        raise error(TournamentError, "error.tournament.round_keys").within(where)
    if type(data["round"]) is not int or data["round"] != number:
        raise error(
            TournamentError,
            "error.tournament.round_number",
            number=number,
            found=printable(repr(data["round"])),
        ).within(where)
    given = data["tables"]
    if not isinstance(given, list):
        raise error(TournamentError, "error.tournament.tables_list").within(where)
    tables = tuple(
        _table_from_data(t, registered, f"{where}.tables[{k}]") for k, t in enumerate(given, 1)
    )
    check_seating(tables, players, number)
    return tables


def _one_table_a_ledger(rounds: Sequence[Sequence[Table]]) -> None:
    """Refuse a ledger named by two tables: its totals would count twice in the standings."""
    seen: dict[str, tuple[int, int]] = {}
    for number, tables in enumerate(rounds, 1):
        for k, table in enumerate(tables, 1):
            before = seen.setdefault(table.ledger, (number, k))
            if before != (number, k):
                raise error(TournamentError, "error.tournament.ledger_twice",
                            file=printable(table.ledger), round=before[0],
                            table=before[1]).within(f"rounds[{number}].tables[{k}]")  # fmt: skip


def _table_from_data(data: object, registered: frozenset[str], where: str) -> Table:
    if not isinstance(data, Mapping) or set(data) != {"ledger", "players"}:
        raise error(TournamentError, "error.tournament.table_keys").within(where)
    ledger, players = data["ledger"], data["players"]
    if not isinstance(ledger, str) or not is_table_file(ledger):
        raise error(
            TournamentError, "error.tournament.table_file", file=printable(repr(ledger))
        ).within(where)
    if not isinstance(players, list) or not all(isinstance(n, str) for n in players):
        raise error(TournamentError, "error.tournament.players_list").within(where)
    if len(players) != TABLE_SIZE:
        raise error(
            TournamentError, "error.tournament.table_size", count=len(players), size=TABLE_SIZE
        ).within(where)
    for name in players:
        if name not in registered:
            raise error(
                TournamentError, "error.tournament.not_registered", name=printable(repr(name))
            ).within(where)
    return Table(ledger, tuple(players))


def is_table_file(name: str) -> bool:
    """A table's ledger is a plain file name in the tournament's folder, nothing above it."""
    return (
        bool(name)
        and "/" not in name
        and "\\" not in name
        and name not in (".", "..")
        and (name.isprintable())
    )


def check_seating(tables: Sequence[Table], registered: Sequence[str], number: int) -> None:
    """Every registered player at exactly one table of round ``number``."""
    at: dict[str, int] = {}
    for k, table in enumerate(tables, 1):
        for name in table.players:
            if name in at:
                raise error(
                    TournamentError,
                    "error.tournament.seated_twice",
                    name=name,
                    number=number,
                    first=at[name],
                    second=k,
                )
            at[name] = k
    missing = [n for n in registered if n not in at]
    if missing:
        raise error(
            TournamentError, "error.tournament.unseated", number=number, names=Listed(missing)
        )
