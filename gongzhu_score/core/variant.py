"""A rule set (variant) as data: one frozen :class:`Variant`, checked when it is made.

Every number the scorer uses lives here, so a variant is a value to print and diff
(``gongzhu-score variants show classic``). :meth:`Variant.from_data` reads the rules-file
schema, checking every key and value; the built-in variants and house rules both come through it
(:mod:`gongzhu_score.io.variants` reads the files). The engine
(:mod:`gongzhu_score.core.engine`) compiles these fields into tables and knows no variant names.
A rule set the engine could not score sensibly (a ×0 transformer, a fixed grand slam whose
formula gives 0) is refused when it is made, never in the middle of a hand.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..errors import GongzhuError, RulesError
from ..terms import error, place, unsafe_character
from .cards import HEARTS, SPECIAL_CARDS, Card, Suit, parse_card
from .normalize import Method, Teams

__all__ = ["FIRST_LEADS", "FULL_RED_MODES", "RANKS", "Variant"]

RANKS = tuple(h.rank_name for h in HEARTS)
"""Heart ranks as the rules file names them, 2 to A."""
FULL_RED_MODES = ("fixed", "flip")
FIRST_LEADS = ("holder", "pig", "rotation")
"""Who leads a hand (首引, rulings §10): the opening card's holder, every hand; the pig's taker
of the hand before (the first hand: the opening card's holder); or seat by seat in turn."""
_TWO_OF_CLUBS = Card(2, Suit.CLUBS)
_LABELS = ("name", "title", "title_zh", "source")
_FLAGS = ("first_exposure_allowed", "auto_exposure", "zero_hearts_are_scoring",
          "full_red_pig_positive", "opening_card_must_be_played")  # fmt: skip


@dataclass(frozen=True)
class Variant:
    """A named rule set for one hand of 拱猪 and its match.

    Exposure levels (rulings §4.1, §5.1): a special card counts at ``exposure_levels[e]`` where
    ``e`` is the number of its copies exposed (亮牌/卖牌), or at ``first_exposure_level`` under
    首明. One deck: 1 or 2 (首明 4); two decks: 1, 2 or 4.
    """

    name: str
    title: str
    title_zh: str
    source: str
    decks: int = 1
    """1 (52 cards, 16 scoring cards) or 2 (104 cards, every card twice; rulings §5)."""
    heart_values: tuple[int, ...] = (0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50)
    """Points of each heart by rank, 2 to A, before exposure of A♥ (rulings §3)."""
    pig: int = -100
    """猪 Q♠, before exposure."""
    sheep: int = 100
    """羊 J♦, before exposure."""
    exposable: tuple[Card, ...] = SPECIAL_CARDS
    """Cards that may be exposed (亮牌): some of Q♠ J♦ 10♣ A♥ (rulings §1)."""
    exposure_levels: tuple[int, ...] = (1, 2)
    """A special card's level by the number of its copies exposed."""
    first_exposure_level: int = 4
    first_exposure_allowed: bool = True
    """首明 accepted (rulings §4.3: classic and dehong)."""
    auto_exposure: bool = True
    """Three special cards exposed expose the fourth (rulings §4.2)."""
    transformer_multiplier: int = 2
    """变压器 10♣ multiplies the taker's other points by this × its level (rulings §4.4)."""
    transformer_table: tuple[tuple[int, int, int], ...] = ()
    """Where set, (copies exposed, copies taken, multiplier) rows replace the rule above
    (two decks, rulings §5.2)."""
    transformer_alone: int = 50
    """A lone 10♣ (no other scoring card) scores this when nothing is exposed, scaled by the
    transformer multiplier (+50/+100/+200; rulings §4.4)."""
    zero_hearts_are_scoring: bool = True
    """Whether 0-point hearts (2♥ 3♥ 4♥) stop 10♣ from counting as alone (False in online)."""
    full_red: int = 200
    """全红: with ``full_red_mode: fixed``, all hearts count this × the level of A♥ (§4.5)."""
    full_red_mode: str = "fixed"
    """``fixed`` (the value above) or ``flip`` (the hearts' own values turned positive)."""
    full_red_pig_positive: bool = False
    """A house rule some tables play: full red also turns the pig positive."""
    grand_slam: int | None = None
    """满贯 with nothing exposed, when the rules fix it (two decks: 1600, rulings §5.4); None:
    the formula (hearts and pig positive, × transformer) alone gives it (one deck: 800)."""
    normalize: Method = Method.ZERO_SUM
    """Default normalization of raw scores to finals (rulings §6)."""
    match_end: int = -1000
    """A match ends when a player's cumulative raw total is at or below this (rulings §8)."""
    first_lead: str = "pig"
    """Who leads each hand (首引, rulings §10): ``holder``, the holder of ``opening_card``,
    every hand (online, 德宏, seed 001's folk custom); ``pig``, the player who captured the pig
    in the hand before (the first hand of a match: the holder of ``opening_card``);
    ``rotation``, hand k by seat ((k − 1) mod 4) + 1 (北, 西, 南, 东: the formal competition
    rule), any card."""
    first_lead_with_partners: str | None = None
    """The first-lead rule when partners play (打对家), where it differs (JJ 搭档: rotation)."""
    opening_card: Card = _TWO_OF_CLUBS
    """Whose holder leads: every hand under ``first_lead: holder``, a match's first hand under
    ``pig`` (2♣; 德宏: 3♠; local customs: 2♠, 3♠, 7♠ or 2♣)."""
    opening_card_must_be_played: bool = True
    """Whether the opening card must itself be led when its holder leads (classic: 2♣ first;
    online, JJ and 德宏: any card)."""

    def __post_init__(self) -> None:
        if len(self.heart_values) != 13:
            raise error(RulesError, "error.rule.thirteen")
        if self.decks not in (1, 2):
            raise error(RulesError, "error.rule.decks", value=repr(self.decks))
        if len(self.exposure_levels) != self.decks + 1:
            raise error(
                RulesError, "error.rule.levels_count", count=self.decks + 1, decks=self.decks
            )
        # Levels and multipliers scale scores; 0 or less would wipe or flip a score by being
        # shown, which no table plays (and a ×0 transformer has no lone value to scale).
        for level in (*self.exposure_levels, self.first_exposure_level):
            if level < 1:
                raise error(RulesError, "error.rule.level", value=level)
        if self.transformer_multiplier < 1:
            raise error(RulesError, "error.rule.multiplier", value=self.transformer_multiplier)
        if self.full_red_mode not in FULL_RED_MODES:
            raise error(RulesError, "error.rule.mode", value=repr(self.full_red_mode))
        for card in self.exposable:
            if card not in SPECIAL_CARDS:
                raise error(RulesError, "error.rule.exposable", code=card.code)
        if self.match_end >= 0:
            raise error(RulesError, "error.rule.match_end", value=self.match_end)
        for key in ("first_lead", "first_lead_with_partners"):
            value = getattr(self, key)
            if value not in FIRST_LEADS and not (value is None and key != "first_lead"):
                raise error(RulesError, "error.rule.first_lead", key=key, value=repr(value))
        self._check_transformer_table()
        if self.grand_slam is not None and self.grand_slam_plain() == 0:
            raise error(RulesError, "error.rule.slam_zero", value=self.grand_slam)

    def _check_transformer_table(self) -> None:
        rows = {(e, k): m for e, k, m in self.transformer_table}
        if len(rows) != len(self.transformer_table):
            raise error(RulesError, "error.rule.row_twice")
        if self.decks > 1:
            wanted = {(e, k) for e in range(self.decks + 1) for k in range(1, self.decks + 1)}
            if set(rows) != wanted:
                shown = ", ".join(f"({e}, {k})" for e, k in sorted(wanted))
                raise error(RulesError, "error.rule.rows", rows=shown)
        base = self.transformer_times(1, 0, 1)
        for (exposed, taken), times in sorted(rows.items()):
            if times < 1:
                raise error(RulesError, "error.rule.row_times", exposed=exposed, taken=taken,
                            value=times)  # fmt: skip
            # A lone 10♣ scores transformer_alone × t / t₀: a fraction would be no score.
            if times % base:
                raise error(RulesError, "error.rule.row_multiple", times=times, exposed=exposed,
                            taken=taken, base=base)  # fmt: skip

    def default_method(self, teams: Teams | str = Teams.NONE) -> Method:
        """The normalization used when none is asked for (rulings §6).

        Team play needs zero-sum or jj (§7), so a paper-scoring variant (德宏) plays teams with
        zero-sum unless told otherwise.
        """
        if self.normalize is Method.NONE and Teams(teams) is not Teams.NONE:
            return Method.ZERO_SUM
        return self.normalize

    def first_lead_for(self, teams: Teams | str = Teams.NONE) -> str:
        """The first-lead rule for a table playing ``teams`` (rulings §10)."""
        if Teams(teams) is Teams.PARTNERS and self.first_lead_with_partners is not None:
            return self.first_lead_with_partners
        return self.first_lead

    def auto_exposed(self, shown: Collection[Card]) -> Card | None:
        """The card auto-exposure exposes once the other three are ``shown``, else None (rulings
        §4.2).

        It is the fourth of Q♠ J♦ 10♣ A♥ ("第4張自動亮出來"), a 首明 counting as shown, when the
        variant has auto-exposure.
        """
        if not self.auto_exposure:
            return None
        bare = [c for c in SPECIAL_CARDS if c not in shown]
        return bare[0] if len(bare) == 1 else None

    def transformer_times(self, level: int, exposed: int, taken: int) -> int:
        """The transformer multiplier t for a player who took ``taken`` copies of 10♣."""
        for row_exposed, row_taken, multiplier in self.transformer_table:
            if (row_exposed, row_taken) == (exposed, taken):
                return multiplier
        return self.transformer_multiplier * level

    def full_red_base(self) -> int:
        """What all the hearts count in a full red before A♥'s exposure (rulings §4.5)."""
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
            value = getattr(self, f.name)
            if f.name == "heart_values":
                value = dict(zip(RANKS, value, strict=True))
            elif f.name == "exposable":
                value = [c.code for c in value]
            elif f.name == "opening_card":
                value = value.code
            elif f.name == "transformer_table":
                value = [{"exposed": e, "taken": k, "times": m} for e, k, m in value]
            elif isinstance(value, Method):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            data[f.name] = value
        return data

    @classmethod
    def rule_names(cls) -> tuple[str, ...]:
        """Every key of the rules-file schema, in order."""
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_data(cls, data: object) -> Variant:
        """A variant from rules-file data, every key and value checked; errors name the key."""
        if not isinstance(data, Mapping):
            raise error(RulesError, "error.rules.mapping")
        known = cls.rule_names()
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1)
                hint = place("error.input.did_you_mean", word=repr(close[0])) if close else ""
                raise error(RulesError, "error.rule.unknown", key=repr(key), hint=hint)
            kwargs[key] = _convert(str(key), value)
        for key in _LABELS:
            kwargs.setdefault(key, "")
        if not kwargs["name"]:
            raise error(RulesError, "error.rule.no_name")
        return cls(**kwargs)


# Values beyond this are typing slips, and would make every score a many-digit number.
_LARGEST = 10**9


def _whole(key: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(RulesError, "error.rule.whole", key=key, value=repr(value))
    if abs(value) > _LARGEST:
        raise error(RulesError, "error.rule.range", key=key, value=value, largest=f"{_LARGEST:,}")
    return value


def _convert(key: str, value: object) -> object:
    """One rules-file value, checked and turned into the field's type."""
    if key in (*_LABELS, "full_red_mode"):
        if not isinstance(value, str):
            raise error(RulesError, "error.rule.text", key=key, value=repr(value))
        char = unsafe_character(value)
        if char is not None:  # shown in every table's heading: the rule that names obey
            raise error(RulesError, "error.rule.unsafe", key=key, char=f"U+{ord(char):04X}")
        return value
    if key in _FLAGS:
        if not isinstance(value, bool):
            raise error(RulesError, "error.rule.flag", key=key, value=repr(value))
        return value
    if key == "heart_values":
        if not isinstance(value, Mapping):
            raise error(RulesError, "error.rule.hearts_mapping")
        by_rank = {str(rank).upper(): points for rank, points in value.items()}
        for rank in by_rank:
            if rank not in RANKS:
                raise error(RulesError, "error.rule.hearts_rank", rank=repr(rank))
        missing = [r for r in RANKS if r not in by_rank]
        if missing:
            raise error(RulesError, "error.rule.hearts_missing", ranks=", ".join(missing))
        return tuple(_whole(f"heart_values {r}", by_rank[r]) for r in RANKS)
    if key == "exposable":
        if not isinstance(value, list):
            raise error(RulesError, "error.rule.exposable_list")
        try:
            return tuple(parse_card(str(c)) for c in value)
        except GongzhuError as e:
            raise e.recast(RulesError).within("exposable") from None
    if key == "exposure_levels":
        if not isinstance(value, list):
            raise error(RulesError, "error.rule.levels_list")
        return tuple(_whole(key, v) for v in value)
    if key == "transformer_table":
        if not isinstance(value, list):
            raise error(RulesError, "error.rule.table_list")
        rows = []
        for row in value:
            if not isinstance(row, Mapping) or set(row) != {"exposed", "taken", "times"}:
                raise error(RulesError, "error.rule.table_row", row=repr(row))
            rows.append(
                tuple(
                    _whole(f"transformer_table {k}", row[k]) for k in ("exposed", "taken", "times")
                )
            )
        return tuple(rows)
    if key == "grand_slam":
        return None if value is None else _whole(key, value)
    if key in ("first_lead", "first_lead_with_partners"):
        if value is None and key == "first_lead_with_partners":
            return None
        if value not in FIRST_LEADS:
            raise error(RulesError, "error.rule.first_lead", key=key, value=repr(value))
        return value
    if key == "opening_card":
        try:
            return parse_card(str(value))
        except GongzhuError as e:
            raise e.recast(RulesError).within(key) from None
    if key == "normalize":
        try:
            return Method(str(value))
        except ValueError:
            raise error(RulesError, "error.rule.normalize", value=repr(value)) from None
    return _whole(key, value)
