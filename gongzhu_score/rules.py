"""Rule sets (variants) as data: one frozen :class:`Variant` per table's rules, one registry.

Every number the scorer uses lives here, so a variant is a value you can print and diff
(``gongzhu-score variants show classic``). The built-in variants are YAML files shipped in
``gongzhu_score/variants/``; a table's house rules are a file in the same schema
(``--rules FILE``), read by :func:`load_rules` with the same strict checks. The engine in
:mod:`gongzhu_score.scoring` reads these fields and has no variant names in it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

from .cards import HEARTS, PIG, SHEEP, SPECIAL_CARDS, TRANSFORMER, Card, parse_card
from .errors import GongzhuError, RulesError
from .normalize import Method, Normalization, Rounding, Teams, parse_teams
from .yamlsafe import load_yaml, read_text

__all__ = ["VARIANTS", "Variant", "find_variant", "load_rules"]

_RANKS = tuple(h.rank_name for h in HEARTS)
FULL_RED_MODES = ("fixed", "flip")
# Package data beside this module (importlib.resources would cost 5 ms of start-up).
_FOLDER = Path(__file__).resolve().parent / "variants"


@dataclass(frozen=True)
class Variant:
    """A named rule set for one hand of 拱猪 and its match.

    Exposure levels (RULINGS §4.1, §5.1): a special card counts at ``exposure_levels[e]`` where
    ``e`` is the number of its copies exposed (亮牌/卖牌), or at ``first_exposure_level`` under
    首明. One deck: 1 or 2 (首明 4); two decks: 1, 2 or 4.
    """

    name: str
    title: str
    title_zh: str
    source: str
    decks: int = 1
    """1 (52 cards, 16 scoring cards) or 2 (104 cards, every card twice; RULINGS §5)."""
    heart_values: tuple[int, ...] = (0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50)
    """Points of each heart by rank, 2 to A, before exposure of A♥ (RULINGS §3)."""
    pig: int = -100
    """猪 Q♠, before exposure."""
    sheep: int = 100
    """羊 J♦, before exposure."""
    exposable: tuple[Card, ...] = SPECIAL_CARDS
    """Cards that may be exposed (亮牌): some of Q♠ J♦ 10♣ A♥ (RULINGS §1)."""
    exposure_levels: tuple[int, ...] = (1, 2)
    """A special card's level by the number of its copies exposed."""
    first_exposure_level: int = 4
    first_exposure_allowed: bool = True
    """首明 accepted (RULINGS §4.3: classic and dehong)."""
    auto_exposure: bool = True
    """Three special cards exposed expose the fourth (RULINGS §4.2)."""
    transformer_multiplier: int = 2
    """变压器 10♣ multiplies the taker's other points by this × its level (RULINGS §4.4)."""
    transformer_table: tuple[tuple[int, int, int], ...] = ()
    """Where set, (copies exposed, copies taken, multiplier) rows replace the rule above
    (two decks, RULINGS §5.2)."""
    transformer_alone: int = 50
    """A lone 10♣ (no other scoring card) scores this when nothing is exposed, scaled by the
    transformer multiplier (+50/+100/+200; RULINGS §4.4)."""
    zero_hearts_are_scoring: bool = True
    """Whether 0-point hearts (2♥ 3♥ 4♥) stop 10♣ from counting as alone (False in online)."""
    full_red: int = 200
    """全红: with ``full_red_mode: fixed``, all hearts count this × the level of A♥ (§4.5)."""
    full_red_mode: str = "fixed"
    """``fixed`` (the value above) or ``flip`` (the hearts' own values turned positive)."""
    full_red_pig_positive: bool = False
    """A house rule some tables play: full red also turns the pig positive."""
    grand_slam: int | None = None
    """满贯 with nothing exposed, when the rules fix it (two decks: 1600, RULINGS §5.4); None:
    the formula (hearts and pig positive, × transformer) alone gives it (one deck: 800)."""
    normalize: Method = Method.ZERO_SUM
    """Default normalization of raw scores to finals (RULINGS §6)."""
    match_end: int = -1000
    """A match ends when a player's cumulative raw total is at or below this (RULINGS §8)."""
    card_values: Mapping[Card, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.heart_values) != 13:
            raise RulesError("heart_values: needs a value for each of the 13 hearts, 2 to A")
        if self.decks not in (1, 2):
            raise RulesError(f"decks: 1 or 2, not {self.decks!r}")
        if len(self.exposure_levels) != self.decks + 1:
            raise RulesError(
                f"exposure_levels: needs {self.decks + 1} values (0 to {self.decks} copies exposed)"
            )
        if self.full_red_mode not in FULL_RED_MODES:
            raise RulesError(f"full_red_mode: fixed or flip, not {self.full_red_mode!r}")
        for card in self.exposable:
            if card not in SPECIAL_CARDS:
                raise RulesError(f"exposable: {card.code} cannot be exposed; only QS JD 10C AH")
        if self.decks > 1:
            rows = {(e, k) for e, k, _ in self.transformer_table}
            wanted = {(e, k) for e in range(self.decks + 1) for k in range(1, self.decks + 1)}
            if rows != wanted:
                raise RulesError(
                    "transformer_table: needs one row for each (copies exposed, copies taken): "
                    + ", ".join(f"({e}, {k})" for e, k in sorted(wanted))
                )
        values = {card: v for card, v in zip(HEARTS, self.heart_values, strict=True)}
        values.update({PIG: self.pig, SHEEP: self.sheep, TRANSFORMER: 0})
        object.__setattr__(self, "card_values", values)

    def default_method(self, teams: Teams | str = Teams.NONE) -> Method:
        """The normalization used when none is asked for (RULINGS §6).

        Team play needs zero-sum or jj (§7), so a paper-scoring variant (德宏) plays teams with
        zero-sum unless told otherwise.
        """
        if self.normalize is Method.NONE and Teams(teams) is not Teams.NONE:
            return Method.ZERO_SUM
        return self.normalize

    def normalization(
        self,
        method: Method | str | None = None,
        scale: int = 1,
        rounding: Rounding | str = Rounding.NEAREST,
        teams: Teams | str | None = None,
    ) -> Normalization:
        """How this variant turns raws into finals, with the options a user gave (None: the
        variant's default for the teams played)."""
        team_play = parse_teams(teams or Teams.NONE)
        chosen = self.default_method(team_play) if method is None else method
        return Normalization.parse(chosen, scale, rounding, team_play)

    def transformer_times(self, level: int, exposed: int, taken: int) -> int:
        """The transformer multiplier t for a player who took ``taken`` copies of 10♣."""
        for row_exposed, row_taken, multiplier in self.transformer_table:
            if (row_exposed, row_taken) == (exposed, taken):
                return multiplier
        return self.transformer_multiplier * level

    def full_red_base(self) -> int:
        """What all the hearts count in a full red before A♥'s exposure (RULINGS §4.5)."""
        if self.full_red_mode == "flip":
            return -sum(self.heart_values) * self.decks
        return self.full_red

    def grand_slam_plain(self) -> int:
        """The formula's grand slam with nothing exposed: (hearts + pigs + sheep) × t."""
        positive = self.full_red_base() + self.decks * (self.sheep - self.pig)
        return positive * self.transformer_times(1, 0, self.decks)

    # --- as data: files, tables, diffs ------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        """The variant in the rules-file schema (``variants show NAME --format yaml``)."""
        data: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "card_values":
                continue
            value = getattr(self, f.name)
            if f.name == "heart_values":
                value = dict(zip(_RANKS, value, strict=True))
            elif f.name == "exposable":
                value = [c.code for c in value]
            elif f.name == "transformer_table":
                value = [{"exposed": e, "taken": k, "times": m} for e, k, m in value]
            elif isinstance(value, Method):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            data[f.name] = value
        return data

    @classmethod
    def from_data(cls, data: object) -> Variant:
        """A variant from rules-file data, every key and value checked (errors name the key)."""
        if not isinstance(data, Mapping):
            raise RulesError("a rules file holds a mapping of rule names to values")
        known = [f.name for f in fields(cls) if f.init]
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise RulesError(f"unknown rule {key!r}{hint}")
            kwargs[key] = _convert(str(key), value)
        for key in ("name", "title", "title_zh", "source"):
            kwargs.setdefault(key, "")
        if not kwargs["name"]:
            raise RulesError("name: a rules file needs a name")
        return cls(**kwargs)

    def rule_table(self) -> dict[str, object]:
        """Every rule, and what follows from them, as plain data for a printed table."""
        table: dict[str, object] = dict(self.to_data())
        hearts = zip(_RANKS, self.heart_values, strict=True)
        table["heart_values"] = " ".join(f"{r}:{v}" for r, v in hearts)
        table["transformer_table"] = "; ".join(
            f"{row['exposed']} exposed, {row['taken']} taken: ×{row['times']}"
            for row in self.to_data()["transformer_table"]
        )
        table.update(self._derived_rules())
        return table

    def _derived_rules(self) -> dict[str, str]:
        # Spelled out so that a printed variant answers the usual disputes.
        states = [
            (f"{e} exposed" if self.decks > 1 else ("exposed" if e else ""), lvl, e)
            for e, lvl in enumerate(self.exposure_levels)
        ]
        if self.first_exposure_allowed:
            states.append(("首明", self.first_exposure_level, 1))
        base = self.transformer_times(1, 0, 1)
        times = [(label, self.transformer_times(lvl, e, 1)) for label, lvl, e in states]
        plain = self.grand_slam_plain()
        top = self.exposure_levels[-1]
        everything = (self.full_red_base() + self.decks * (self.sheep - self.pig)) * top
        everything *= self.transformer_times(top, self.decks, self.decks)
        slam = self.grand_slam or plain
        one = " (one 10♣ taken; see transformer_table)" if self.decks > 1 else ""
        return {
            "transformer_multipliers": " / ".join(f"×{t} {label}".strip() for label, t in times)
            + one,
            "transformer_alone_values": " / ".join(
                f"+{self.transformer_alone * t // base} {label}".strip() for label, t in times
            )
            + one,
            "grand_slam_rule": (
                f"({self.full_red_base()}·L(A♥) + {-self.pig * self.decks}·L(Q♠) + "
                f"{self.sheep * self.decks}·L(J♦)) × t"
                + ("" if self.grand_slam is None else f" × {self.grand_slam}/{plain}")
                + f": {slam} nothing exposed, {everything * slam // plain} all exposed"
            ),
        }


def _whole(key: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{key}: expected a whole number, not {value!r}")
    return value


def _convert(key: str, value: object) -> object:
    """One rules-file value, checked and turned into the field's type."""
    if key in ("name", "title", "title_zh", "source", "full_red_mode"):
        if not isinstance(value, str):
            raise RulesError(f"{key}: expected text, not {value!r}")
        return value
    if key in ("first_exposure_allowed", "auto_exposure", "zero_hearts_are_scoring",
               "full_red_pig_positive"):  # fmt: skip
        if not isinstance(value, bool):
            raise RulesError(f"{key}: expected true or false, not {value!r}")
        return value
    if key == "heart_values":
        if not isinstance(value, Mapping):
            raise RulesError(
                "heart_values: expected a mapping of rank (2 … 10, J, Q, K, A) to points"
            )
        by_rank = {str(rank).upper(): points for rank, points in value.items()}
        for rank in by_rank:
            if rank not in _RANKS:
                raise RulesError(f"heart_values: {rank!r} is not a rank (2 … 10, J, Q, K, A)")
        missing = [r for r in _RANKS if r not in by_rank]
        if missing:
            raise RulesError(f"heart_values: no value for {', '.join(missing)}")
        return tuple(_whole(f"heart_values {r}", by_rank[r]) for r in _RANKS)
    if key == "exposable":
        if not isinstance(value, list):
            raise RulesError("exposable: expected a list of cards, e.g. [QS, JD, 10C, AH]")
        try:
            return tuple(parse_card(str(c)) for c in value)
        except GongzhuError as e:
            raise RulesError(f"exposable: {e}") from None
    if key == "exposure_levels":
        if not isinstance(value, list):
            raise RulesError("exposure_levels: expected a list, e.g. [1, 2]")
        return tuple(_whole(key, v) for v in value)
    if key == "transformer_table":
        if not isinstance(value, list):
            raise RulesError("transformer_table: expected a list of {exposed, taken, times}")
        rows = []
        for row in value:
            if not isinstance(row, Mapping) or set(row) != {"exposed", "taken", "times"}:
                raise RulesError(
                    f"transformer_table: each row is {{exposed, taken, times}}, not {row!r}"
                )
            rows.append(
                tuple(
                    _whole(f"transformer_table {k}", row[k]) for k in ("exposed", "taken", "times")
                )
            )
        return tuple(rows)
    if key == "grand_slam":
        return None if value is None else _whole(key, value)
    if key == "normalize":
        try:
            return Method(str(value))
        except ValueError:
            raise RulesError(f"normalize: none, zero-sum or jj, not {value!r}") from None
    return _whole(key, value)


def load_rules(path: str) -> Variant:
    """A house-rules variant from a YAML file (``--rules FILE``); errors name file and rule."""
    text, source = read_text(path, 100_000, "rules file")
    try:
        return Variant.from_data(load_yaml(text, source))
    except RulesError as e:
        raise e.within(source) from None


class _Builtins(Mapping[str, Variant]):
    """The built-in variants, each read from its file the first time it is asked for.

    Start-up reads only the variant a command uses; the shipped files are trusted package
    data, so libyaml's safe loader reads them without the guards user files need.
    """

    NAMES = ("classic", "online", "dehong", "jj", "two-deck")

    def __init__(self) -> None:
        self._cache: dict[str, Variant] = {}

    def __getitem__(self, name: str) -> Variant:
        if name not in self.NAMES:
            raise KeyError(name)
        if name not in self._cache:
            text = (_FOLDER / f"{name}.yaml").read_text(encoding="utf-8")
            loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
            self._cache[name] = Variant.from_data(yaml.load(text, Loader=loader))  # safe loader
        return self._cache[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.NAMES)

    def __len__(self) -> int:
        return len(self.NAMES)


VARIANTS: Mapping[str, Variant] = _Builtins()
"""The built-in variants by name, read from the files shipped in ``gongzhu_score/variants``."""

_ALIASES = {
    "德宏": "dehong",
    "网络": "online",
    "經典": "classic",
    "经典": "classic",
    "two-decks": "two-deck",
    "twodeck": "two-deck",
    "两副牌": "two-deck",
    "兩副牌": "two-deck",
}


def find_variant(name: str | Variant) -> Variant:
    """Look a variant up by name, case-insensitively; a :class:`Variant` passes through."""
    if isinstance(name, Variant):
        return name
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key in VARIANTS:
        return VARIANTS[key]
    close = difflib.get_close_matches(key, VARIANTS, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise RulesError(f"unknown variant {name!r} (known: {', '.join(VARIANTS)}){hint}")
