"""A match's rules in sentences, as players say them: the page's rules tab.

Each rule is one sentence in the language, with no rules-file key, no empty table and no
formula. The figures that follow from the rules (the transformer's multipliers, a lone 10♣, the
grand slam) are not worked out here: the match's own scoring scores each case, so the sentence
can never disagree with a score. The first lead is the explanation's own sentence.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..core.cards import PIG, SHEEP, TRANSFORMER, Card, parse_cards
from ..core.engine import compiled_rules
from ..core.hand import Hand
from ..core.normalize import Method, Normalization, Rounding, Teams
from ..core.variant import RANKS, Variant
from ..errors import GongzhuError
from ..match.ledger import Ledger
from ..terms import card_name, rule_name, say, title
from .explain import explanation
from .formats import format_number
from .hand import cards_text

__all__ = ["rule_sentences", "rules_in_a_line"]

_NAMES = ("甲", "乙", "丙", "丁")  # (the players of the hands scored to find a figure)
_ALONE = Normalization()  # (raws are all a figure needs: one object, read once by the engine)


def rule_sentences(ledger: Ledger, lang: str) -> list[dict[str, str]]:
    """The rules in force, each ``{"rule", "name", "value"}``: the rule's key (for the page's
    test ids), its name as players say it, and the rule as a sentence in ``lang``."""
    return [
        {"rule": key, "name": say(f"said.name.{key}", lang), "value": text}
        for key, text in _sentences(ledger, lang)
    ]


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else format_number(value)


def _sentences(ledger: Ledger, lang: str) -> Iterator[tuple[str, str]]:
    v = ledger.rules
    yield "decks", say("said.decks.2" if v.decks > 1 else "said.decks.1", lang)
    yield "heart_values", say("said.hearts", lang, values=_hearts(v, lang),
                              total=_signed(sum(v.heart_values)))  # fmt: skip
    yield "pig", say("said.pig", lang, card=card_name(PIG, lang), value=_signed(v.pig))
    yield "sheep", say("said.sheep", lang, card=card_name(SHEEP, lang), value=_signed(v.sheep))
    ten = card_name(TRANSFORMER, lang)
    times, alone = _transformer(v)
    if times:
        one = say("said.one_copy", lang, card=ten) if v.decks > 1 else ""
        yield "transformer_multiplier", say("said.transformer", lang, card=ten,
                                            times=_levels(times, lang), one=one)  # fmt: skip
    if alone:
        text = say("said.transformer_alone", lang, card=ten, values=_levels(alone, lang, "+"))
        if not v.zero_hearts_are_scoring:
            text += say("said.zero_hearts", lang)
        yield "transformer_alone", text
    if v.exposable:
        yield "exposable", _exposure(v, lang)
    yield "full_red", _full_red(v, lang)
    slam = _grand_slam(v)
    if slam is not None:
        yield "grand_slam", say("said.grand_slam", lang, plain=_signed(slam[0]),
                                shown=_signed(slam[1]))  # fmt: skip
    yield "normalize", _normalize(ledger.normalization, lang)
    yield "teams", _teams(ledger, lang)
    yield "match_end", _end(ledger, lang)
    if ledger.partners:
        yield "auto_play", say(f"said.auto.{ledger.auto_play.value}", lang)
    yield "first_lead", _first_lead(ledger, lang)


def _hearts(v: Variant, lang: str) -> str:
    """The hearts' values, equal neighbours together: ``2♥–4♥ 0 each, 5♥–10♥ -10 each, …``."""
    groups: list[tuple[str, str, int]] = []
    for rank, value in zip(RANKS, v.heart_values, strict=True):
        if groups and groups[-1][2] == value:
            groups[-1] = (groups[-1][0], rank, value)
        else:
            groups.append((rank, rank, value))
    parts = []
    for low, high, value in groups:
        if low == high:
            parts.append(say("said.heart_one", lang, card=f"{low}♥", value=format_number(value)))
        else:
            parts.append(say("said.heart_each", lang, cards=f"{low}♥–{high}♥",
                             value=format_number(value)))  # fmt: skip
    return say("list", lang).join(parts)


def _levels(values: Sequence[tuple[str, int]], lang: str, sign: str = "×") -> str:
    """``×2, exposed ×4, first-exposed (首明) ×8``: a figure for each exposure level."""
    shown = []
    for level, value in values:
        number = f"×{value}" if sign == "×" else _signed(value)
        shown.append(say(f"said.level.{level}", lang, value=number))
    return say("list", lang).join(shown)


def _raw(v: Variant, taken: str, exposed: str = "", first: str = "") -> int | None:
    """The raw score of a player who took ``taken`` (the others: every other scoring card),
    with ``exposed`` and ``first`` exposed by that player, as the match scores it; None where
    the rules refuse such a hand."""
    try:
        mine = list(parse_cards(taken.split(), v.decks))
        left = mine.copy()
        rest = [c for c in _scoring(v.decks) if not _take(left, c)]
        captured: dict[str, Sequence[Card]] = {_NAMES[0]: mine, _NAMES[1]: rest,
                                               _NAMES[2]: (), _NAMES[3]: ()}  # fmt: skip
        hand = Hand.from_captured(captured, exposed={_NAMES[0]: exposed} if exposed else {},
                                  first_exposed={_NAMES[0]: first} if first else {},
                                  decks=v.decks)  # fmt: skip
        return compiled_rules(v).score(hand, _ALONE).players[0].raw
    except GongzhuError:
        return None


def _scoring(decks: int) -> list[Card]:
    from ..core.cards import SCORING_CARDS

    return [c for c in SCORING_CARDS for _ in range(decks)]


def _take(mine: list[Card], card: Card) -> bool:
    """Whether ``card`` is one of ``mine`` (each copy taken once)."""
    if card in mine:
        mine.remove(card)
        return True
    return False


def _transformer(v: Variant) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The transformer's multiplier and its lone value, nothing exposed, exposed, 首明 (one
    copy taken), each as the match scores it."""
    levels = [("plain", "", "")]
    if TRANSFORMER in v.exposable:
        levels.append(("exposed", "10C", ""))
        if v.first_exposure_allowed:
            levels.append(("first", "", "10C"))
    base = next(((c, value) for c, value in (("QS", v.pig), ("JD", v.sheep)) if value), None)
    times, alone = [], []
    for level, exposed, first in levels:
        lone = _raw(v, "10C", exposed, first)
        if lone is not None:
            alone.append((level, lone))
        if base is not None:
            both = _raw(v, f"10C {base[0]}", exposed, first)
            if both is not None and both % base[1] == 0:
                times.append((level, both // base[1]))
    return times, alone


def _grand_slam(v: Variant) -> tuple[int, int] | None:
    """满贯: one player takes every scoring card, nothing exposed and everything exposed."""
    every = " ".join(c.code for c in _scoring(v.decks))
    everything = " ".join(c.code for c in v.exposable for _ in range(v.decks))
    plain, shown = _raw(v, every), _raw(v, every, everything)
    return None if plain is None or shown is None else (plain, shown)


def _exposure(v: Variant, lang: str) -> str:
    cards = say("list", lang).join(cards_text((c,), lang) for c in v.exposable)
    if v.decks > 1:
        levels = say("said.exposed_copies", lang, one=v.exposure_levels[1],
                     both=v.exposure_levels[-1])  # fmt: skip
    else:
        levels = say("said.exposed_one", lang, level=v.exposure_levels[1])
    first = (say("said.first_exposure", lang, level=v.first_exposure_level)
             if v.first_exposure_allowed else say("said.no_first_exposure", lang))  # fmt: skip
    auto = say("said.auto_exposure", lang) if v.auto_exposure else ""
    return say("said.exposure", lang, cards=cards, levels=levels, first=first) + auto


def _full_red(v: Variant, lang: str) -> str:
    if v.full_red_mode == "flip":
        how = say("said.full_red_flip", lang)
    else:
        how = say("said.full_red_fixed", lang, value=_signed(v.full_red))
    pig = say("said.full_red_pig", lang) if v.full_red_pig_positive else ""
    return say("said.full_red", lang, how=how) + pig


def _normalize(norm: Normalization, lang: str) -> str:
    text = say(f"said.normalize.{norm.method.value}", lang)
    if norm.scale != 1:
        text += say("said.scale", lang, scale=norm.scale)
    if norm.rounding is Rounding.EXACT and norm.method is not Method.NONE:
        text += say("said.exact", lang)
    return text


def _teams(ledger: Ledger, lang: str) -> str:
    teams = ledger.normalization.teams
    if teams is Teams.PARTNERS:
        a, b, c, d = ledger.players
        return say("said.teams.partners", lang, a=a, b=b, c=c, d=d)
    return say(f"said.teams.{teams.value}", lang)


def _end(ledger: Ledger, lang: str) -> str:
    if ledger.team_play:
        text = say("said.end.final", lang, end=ledger.end_at, top=f"+{abs(ledger.end_at)}")
    else:
        text = say("said.end.raw", lang, end=ledger.end_at)
    if ledger.last_hand is not None:
        text += say("said.end.hands", lang, hands=ledger.last_hand)
    return text


def _first_lead(ledger: Ledger, lang: str) -> str:
    """The explanation's own sentence for the match's first lead (rulings §10), without its
    citation of the rule (the tab is the rules)."""
    nothing = Hand.from_captured(dict.fromkeys(ledger.players, ()), decks=ledger.variant.decks)
    # (who plays with whom decides the rule only in partner play: 猪羊一家's sides need cards)
    norm = Normalization(teams=Teams.PARTNERS) if ledger.partners else Normalization()
    result = compiled_rules(ledger.rules).score(nothing, norm, True)
    cite = say("explain.rule", lang, name=rule_name("first_lead", lang, spoken=True))
    return explanation(result, lang, spoken=True).lead.replace(cite, "")


def rules_in_a_line(ledger: Ledger, lang: str) -> str:
    """The match's rules in one line of words: the rule set's title, the teams, the end, a 盤
    of N hands, the 托管 regime (the page's heading of the rules; no rules-file key)."""
    parts = [title(ledger.variant, lang) or ledger.variant.name,
             say(f"said.short.teams.{ledger.normalization.teams.value}", lang)]  # fmt: skip
    if ledger.team_play:
        parts.append(say("said.short.end_team", lang, end=abs(ledger.end_at)))
    else:
        parts.append(say("said.short.end", lang, end=ledger.end_at))
    if ledger.last_hand is not None:
        parts.append(say("said.short.hands", lang, hands=ledger.last_hand))
    if ledger.partners:
        parts.append(say(f"said.short.auto.{ledger.auto_play.value}", lang))
    return " · ".join(parts)
