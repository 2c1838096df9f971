"""gongzhu-score: keep the score of 拱猪 (Gongzhu, "Chase the Pig").

The library is pure: parse cards, describe a hand, score it under a variant (one hand with
:func:`score_hand`, many with a :class:`Scorer`). The CLI (``gongzhu-score``) is a thin layer
over it.

>>> from gongzhu_score import score_hand
>>> result = score_hand({"东": "pig ♥6 ♥8 ♥10 ♥J transformer", "南": "", "西": "sheep"},
...                     exposed={"南": "AH"}, rest="北")
>>> [(p.name, p.raw, p.final) for p in result.players]
[('东', -400, -333), ('南', 0, 200), ('西', 100, 333), ('北', -300, -200)]
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (the names as a type checker sees them; a program imports each when used)
    from .api import Scorer, score, score_hand
    from .core.cards import (
        ACE_OF_HEARTS,
        DECK,
        HEARTS,
        PIG,
        SCORING_CARDS,
        SHEEP,
        SPECIAL_CARDS,
        TRANSFORMER,
        Card,
        Suit,
        parse_card,
        parse_cards,
    )
    from .core.engine import HandResult, normalize
    from .core.hand import Hand, PlayerHand, validate_hand
    from .core.normalize import Method, Normalization, Rounding, Teams
    from .core.options import ScoringOptions
    from .core.result import Exposure, Line, PlayerScore, TeamSide
    from .core.variant import Variant
    from .errors import (
        ArgumentError,
        CardError,
        GongzhuError,
        HandError,
        InputError,
        MissingCardsError,
        RulesError,
    )
    from .io.variants import VARIANTS, find_variant, load_rules

__version__ = "0.1.0"

__all__ = [
    "ACE_OF_HEARTS",
    "DECK",
    "HEARTS",
    "PIG",
    "SCORING_CARDS",
    "SHEEP",
    "SPECIAL_CARDS",
    "TRANSFORMER",
    "VARIANTS",
    "ArgumentError",
    "Card",
    "CardError",
    "Exposure",
    "GongzhuError",
    "Hand",
    "HandError",
    "HandResult",
    "InputError",
    "Line",
    "Method",
    "MissingCardsError",
    "Normalization",
    "PlayerHand",
    "PlayerScore",
    "Rounding",
    "RulesError",
    "Scorer",
    "ScoringOptions",
    "Suit",
    "TeamSide",
    "Teams",
    "Variant",
    "find_variant",
    "load_rules",
    "normalize",
    "parse_card",
    "parse_cards",
    "score",
    "score_hand",
    "validate_hand",
]

_HOMES = {
    ".api": ("Scorer", "score", "score_hand"),
    ".core.cards": ("ACE_OF_HEARTS", "DECK", "HEARTS", "PIG", "SCORING_CARDS", "SHEEP",
                    "SPECIAL_CARDS", "TRANSFORMER", "Card", "Suit", "parse_card", "parse_cards"),
    ".core.engine": ("HandResult", "normalize"),
    ".core.hand": ("Hand", "PlayerHand", "validate_hand"),
    ".core.normalize": ("Method", "Normalization", "Rounding", "Teams"),
    ".core.options": ("ScoringOptions",),
    ".core.result": ("Exposure", "Line", "PlayerScore", "TeamSide"),
    ".core.variant": ("Variant",),
    ".errors": ("ArgumentError", "CardError", "GongzhuError", "HandError", "InputError",
                "MissingCardsError", "RulesError"),
    ".io.variants": ("VARIANTS", "find_variant", "load_rules"),
}  # fmt: skip
_HOME = {name: module for module, names in _HOMES.items() for name in names}
"""Each public name's module: imported when the name is first used, so that ``gongzhu-score
--version`` or ``--help`` loads no scoring module."""


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # (found here from now on, without this function)
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
