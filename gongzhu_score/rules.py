"""Rule sets (variants) as data: one frozen :class:`Variant` per table's rules, one registry.

Every number the scorer uses lives here, so a variant is a value you can print and diff
(``gongzhu-score variants show classic``). The engine in :mod:`gongzhu_score.scoring` reads
these fields and has no variant names in it.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields

from .cards import HEARTS, PIG, SHEEP, SPECIAL_CARDS, TRANSFORMER, Card
from .errors import RulesError
from .normalize import Method, Teams

__all__ = ["VARIANTS", "Variant", "find_variant"]

# RULINGS §3: classic heart values by rank 2..A.
_CLASSIC_HEARTS = (0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50)
# RULINGS §3: 德宏 counts 2–10 at −10 each.
_DEHONG_HEARTS = (-10, -10, -10, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50)


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
    heart_values: tuple[int, ...] = _CLASSIC_HEARTS
    """Points of each heart by rank, 2 to A, before exposure of A♥ (RULINGS §3)."""
    pig: int = -100
    """猪 Q♠, before exposure."""
    sheep: int = 100
    """羊 J♦, before exposure."""
    exposable: tuple[Card, ...] = SPECIAL_CARDS
    """Cards that may be exposed (亮牌): Q♠ J♦ 10♣ A♥ (RULINGS §1)."""
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
    """全红: all hearts count this × the level of A♥ instead of their values (§4.5, §5.3)."""
    grand_slam: int | None = None
    """满贯 with nothing exposed, when the seed fixes it (two decks: 1600, RULINGS §5.4); None:
    the formula (hearts and pig positive, × transformer) alone gives it (one deck: 800)."""
    normalize: Method = Method.ZERO_SUM
    """Default normalization of raw scores to finals (RULINGS §6)."""
    match_end: int = -1000
    """A match ends when a player's cumulative raw total is at or below this (RULINGS §8)."""
    card_values: Mapping[Card, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.heart_values) != 13:
            raise RulesError(f"variant {self.name}: heart_values needs 13 values, 2 to A")
        if len(self.exposure_levels) != self.decks + 1:
            raise RulesError(f"variant {self.name}: exposure_levels needs {self.decks + 1} values")
        if self.decks > 1:
            rows = {(e, k) for e, k, _ in self.transformer_table}
            wanted = {(e, k) for e in range(self.decks + 1) for k in range(1, self.decks + 1)}
            if rows != wanted:
                raise RulesError(
                    f"variant {self.name}: transformer_table needs a row for every "
                    "(copies exposed, copies taken)"
                )
        values = {card: v for card, v in zip(HEARTS, self.heart_values, strict=True)}
        values.update({PIG: self.pig, SHEEP: self.sheep, TRANSFORMER: 0})
        object.__setattr__(self, "card_values", values)

    @property
    def exposure_level(self) -> int:
        """The level of a card with one copy exposed (and of an auto-exposed card)."""
        return self.exposure_levels[1]

    def default_method(self, teams: Teams | str = Teams.NONE) -> Method:
        """The normalization used when none is asked for (RULINGS §6).

        Team play needs zero-sum or jj (§7), so a paper-scoring variant (德宏) plays teams with
        zero-sum unless told otherwise.
        """
        if self.normalize is Method.NONE and Teams(teams) is not Teams.NONE:
            return Method.ZERO_SUM
        return self.normalize

    def transformer_times(self, level: int, exposed: int, taken: int) -> int:
        """The transformer multiplier t for a player who took ``taken`` copies of 10♣."""
        for row_exposed, row_taken, multiplier in self.transformer_table:
            if (row_exposed, row_taken) == (exposed, taken):
                return multiplier
        return self.transformer_multiplier * level

    def grand_slam_plain(self) -> int:
        """The formula's grand slam with nothing exposed: (hearts + pigs + sheep) × t."""
        positive = self.full_red + self.decks * (self.sheep - self.pig)
        return positive * self.transformer_times(1, 0, self.decks)

    def rule_table(self) -> dict[str, object]:
        """Every rule as plain data (for printing, diffing and JSON/YAML)."""
        table: dict[str, object] = {}
        for f in fields(self):
            if f.name == "card_values":
                continue
            value = getattr(self, f.name)
            if f.name == "heart_values":
                value = {h.rank_name: v for h, v in zip(HEARTS, value, strict=True)}
            elif f.name == "exposable":
                value = [c.code for c in value]
            elif f.name == "transformer_table":
                value = [f"{e} exposed, {k} taken: ×{m}" for e, k, m in value]
            elif isinstance(value, Method):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            table[f.name] = value
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
        everything = (self.full_red + self.decks * (self.sheep - self.pig)) * top
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
                f"({self.full_red}·L(A♥) + {-self.pig * self.decks}·L(Q♠) + "
                f"{self.sheep * self.decks}·L(J♦)) × t"
                + ("" if self.grand_slam is None else f" × {self.grand_slam}/{plain}")
                + f": {slam} nothing exposed, {everything * slam // plain} all exposed"
            ),
        }


CLASSIC = Variant(
    name="classic",
    title="Classic one-deck rules",
    title_zh="一副牌规则",
    source="一副牌规则 (seeds 000, 001)",
)
ONLINE = Variant(
    name="online",
    title="Online game: 10♣ with only 0-point hearts still scores alone",
    title_zh="网络版规则",
    source="关于牌型和分值的说明 (seed 000)",
    first_exposure_allowed=False,
    zero_hearts_are_scoring=False,
)
DEHONG = Variant(
    name="dehong",
    title="Dehong: every heart 2–10 is −10, paper scoring, no auto-exposure",
    title_zh="德宏拱猪",
    source="德宏拱猪算分规则 (seed 000)",
    heart_values=_DEHONG_HEARTS,
    auto_exposure=False,
    normalize=Method.NONE,
)
JJ = Variant(
    name="jj",
    title="JJ tournament rules: classic values, JJ normalization, no 首明",
    title_zh="JJ比赛规则",
    source="JJ拱豬（華牌）遊戲規則 (seed 002)",
    first_exposure_allowed=False,
    normalize=Method.JJ,
)

TWO_DECK = Variant(
    name="two-deck",
    title="Two decks (104 cards): exposure counted per copy, no 首明",
    title_zh="两副牌规则",
    source="两副牌规则 (seeds 000, 001)",
    decks=2,
    exposure_levels=(1, 2, 4),
    first_exposure_allowed=False,
    auto_exposure=False,
    # RULINGS §5.2: the seed's table; (0 exposed, 2 taken) → ×4 is inferred.
    transformer_table=((0, 1, 2), (0, 2, 4), (1, 1, 4), (1, 2, 8), (2, 1, 4), (2, 2, 16)),
    full_red=400,
    grand_slam=1600,
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (CLASSIC, ONLINE, DEHONG, JJ, TWO_DECK)}
"""The built-in variants by name."""

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
