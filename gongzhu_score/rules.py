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
from .normalize import Method

__all__ = ["VARIANTS", "Variant", "find_variant"]

# RULINGS §3: classic heart values by rank 2..A.
_CLASSIC_HEARTS = (0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50)
# RULINGS §3: 德宏 counts 2–10 at −10 each.
_DEHONG_HEARTS = (-10, -10, -10, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50)


@dataclass(frozen=True)
class Variant:
    """A named rule set for one hand of 拱猪 and its match.

    Exposure levels (RULINGS §4.1): a special card is at level 1 when not exposed,
    ``exposure_level`` when exposed (亮牌/卖牌) and ``first_exposure_level`` under 首明.
    """

    name: str
    title: str
    title_zh: str
    source: str
    heart_values: tuple[int, ...] = _CLASSIC_HEARTS
    """Points of each heart by rank, 2 to A, before exposure of A♥ (RULINGS §3)."""
    pig: int = -100
    """猪 Q♠, before exposure."""
    sheep: int = 100
    """羊 J♦, before exposure."""
    exposable: tuple[Card, ...] = SPECIAL_CARDS
    """Cards that may be exposed (亮牌): Q♠ J♦ 10♣ A♥ (RULINGS §1)."""
    exposure_level: int = 2
    first_exposure_level: int = 4
    first_exposure_allowed: bool = True
    """首明 accepted (RULINGS §4.3: classic and dehong)."""
    auto_exposure: bool = True
    """Three special cards exposed expose the fourth (RULINGS §4.2)."""
    transformer_multiplier: int = 2
    """变压器 10♣ multiplies the taker's other points by this × its exposure level (§4.4)."""
    transformer_alone: int = 50
    """10♣ with no other scoring card scores this × its exposure level (+50/+100/+200)."""
    zero_hearts_are_scoring: bool = True
    """Whether 0-point hearts (2♥ 3♥ 4♥) stop 10♣ from counting as alone (False in online)."""
    full_red: int = 200
    """全红: all 13 hearts count this × the level of A♥ instead of their values (§4.5)."""
    normalize: Method = Method.ZERO_SUM
    """Default normalization of raw scores to finals (RULINGS §6)."""
    match_end: int = -1000
    """A match ends when a player's cumulative raw total is at or below this (RULINGS §8)."""
    card_values: Mapping[Card, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.heart_values) != 13:
            raise RulesError(f"variant {self.name}: heart_values needs 13 values, 2 to A")
        values = {card: v for card, v in zip(HEARTS, self.heart_values, strict=True)}
        values.update({PIG: self.pig, SHEEP: self.sheep, TRANSFORMER: 0})
        object.__setattr__(self, "card_values", values)

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
            elif isinstance(value, Method):
                value = value.value
            table[f.name] = value
        # Derived rules, spelled out so that a printed variant answers the usual disputes.
        t, alone, lvl = self.transformer_multiplier, self.transformer_alone, self.exposure_level
        first = self.first_exposure_level
        shou = self.first_exposure_allowed
        table["transformer_multipliers"] = f"×{t} / ×{t * lvl} exposed" + (
            f" / ×{t * first} 首明" if shou else ""
        )
        table["transformer_alone_values"] = f"+{alone} / +{alone * lvl} exposed" + (
            f" / +{alone * first} 首明" if shou else ""
        )
        plain = (self.full_red - self.pig + self.sheep) * t
        table["grand_slam"] = (
            f"({self.full_red}·L(A♥) + {-self.pig}·L(Q♠) + {self.sheep}·L(J♦)) × t: "
            f"{plain} nothing exposed, {plain * lvl * lvl} all exposed"
        )
        return table


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

VARIANTS: dict[str, Variant] = {v.name: v for v in (CLASSIC, ONLINE, DEHONG, JJ)}
"""The built-in variants by name."""

_ALIASES = {"德宏": "dehong", "网络": "online", "經典": "classic", "经典": "classic"}


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
