"""gongzhu-score: keep the score of 拱猪 (Gongzhu, "Chase the Pig").

The library is pure: parse cards, describe a hand, score it under a variant. The CLI
(``gongzhu-score``) is a thin layer over it.

>>> from gongzhu_score import score_hand
>>> result = score_hand({"东": "pig ♥6 ♥8 ♥10 ♥J transformer", "南": "", "西": "sheep"},
...                     exposed={"南": "AH"}, rest="北")
>>> [(p.name, p.raw, p.final) for p in result.players]
[('东', -400, -333), ('南', 0, 200), ('西', 100, 333), ('北', -300, -200)]
"""

from .cards import (
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
from .errors import CardError, GongzhuError, HandError, InputError, RulesError
from .hand import Hand, PlayerHand, validate_hand
from .normalize import Method, Normalization, Rounding, normalize
from .rules import VARIANTS, Variant, find_variant
from .scoring import Exposure, HandResult, Line, PlayerScore, score, score_hand

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
    "Normalization",
    "PlayerHand",
    "PlayerScore",
    "Rounding",
    "RulesError",
    "Suit",
    "Variant",
    "find_variant",
    "normalize",
    "parse_card",
    "parse_cards",
    "score",
    "score_hand",
    "validate_hand",
]
