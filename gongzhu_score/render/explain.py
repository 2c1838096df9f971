"""Why each player scored what they did: a numbered derivation (``explain``).

It reads a :class:`~gongzhu_score.core.engine.HandResult` and puts it into words, English or
Chinese, citing the variant's rule behind each step (the names that
``gongzhu-score variants show`` prints). Every number is the engine's: the steps it recorded
while scoring each player, and the exact finals it carries; nothing is worked out again here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from ..core.cards import SPECIAL_CARDS, TRANSFORMER, Card
from ..core.engine import HandResult
from ..core.normalize import Method, Rounding
from ..core.result import Line, PlayerScore
from ..disputes.claimed import ClaimedScore
from ..terms import card_name, colon, join, rule_name, say, title
from .formats import format_number
from .hand import cards_text

if TYPE_CHECKING:
    from ..disputes.explain_claim import ClaimExplained

__all__ = ["Explanation", "explain", "explain_claimed", "explanation"]

# The special card whose exposure scales each kind of line.
_LINE_CARD = {"hearts": "AH", "full_red": "AH", "pig": "QS", "pig_positive": "QS", "sheep": "JD"}
_BY_CODE = {c.code: c for c in SPECIAL_CARDS}


def _n(value: int | Fraction) -> str:
    return format_number(value)


def _cards(cards: Sequence[Card], lang: str) -> str:
    """Cards in the notation of the language's tables: ``Q♠ 10♣ 6♥``, ``猪 变压器 红桃6``."""
    return cards_text(cards, lang)


class _Words:
    """One language's explain terms (``x.…``), rule citations filled in."""

    def __init__(self, lang: str, spoken: bool = False) -> None:
        self.lang, self.spoken = lang, spoken

    def __call__(self, key: str, rule: str | None = None, **values: object) -> str:
        name = rule_name(rule, self.lang, spoken=self.spoken) if rule else ""
        cite = say("explain.rule", self.lang, name=name) if rule else ""
        return say(f"explain.{key}", self.lang, rule=cite, **values)

    def exposure(self, card: Card, result: HandResult) -> tuple[str, str] | None:
        """``(why, rule)``: who exposed ``card``, 首明, or auto-exposure; None if unexposed."""
        shown = [e for e in result.exposures if e.card == card]
        if not shown:
            return None
        name = self(f"card.{card.code}")
        by = [e.by for e in shown if e.by is not None]
        kinds = {e.kind for e in shown}
        if "auto" in kinds:
            return self("auto", card=name), "auto_exposure"
        if "first_exposed" in kinds:
            return self("first_by", card=name, by=by[0]), "first_exposure_level"
        copies = self("copies", count=len(by)) if len(by) > 1 else ""
        return self("exposed_by", card=name, by=join(by, self.lang, "and"), copies=copies), (
            "exposure_levels"
        )


def _line_steps(line: Line, p: PlayerScore, result: HandResult, w: _Words) -> list[str]:
    v = result.variant
    # "−100 × 2 = −200" for two pigs; a single card's value needs no sum
    copies = f" × {len(line.cards)} = {_n(line.base)}" if len(line.cards) > 1 else ""
    steps: list[str] = []
    if line.rule == "hearts":
        # one heart needs no sum: "A♥: -50", several: "6♥ 8♥: -10 -10 = -20"
        values = " ".join(_n(v.heart_values[c.rank - 2]) for c in line.cards)
        values = values if len(line.cards) > 1 else ""
        steps.append(w("hearts", "heart_values", cards=_cards(line.cards, w.lang),
                       values=f"{values} = " if values else "", total=_n(line.base)))  # fmt: skip
    elif line.rule == "full_red":
        steps.append(w(f"full_red_{v.full_red_mode}", "full_red", count=len(line.cards),
                       base=line.base))  # fmt: skip
    elif line.rule == "pig":
        steps.append(w("pig", "pig", value=_n(v.pig), copies=copies))
    elif line.rule == "pig_positive":
        key, rule = (("pig_positive_slam", "grand_slam") if p.grand_slam
                     else ("pig_positive_red", "full_red_pig_positive"))  # fmt: skip
        steps.append(w(key, rule, total=line.base))
    elif line.rule == "sheep":
        steps.append(w("sheep", "sheep", value=v.sheep, copies=copies.replace("= ", "= +")))
    elif line.rule == "transformer_alone":
        zero = [c for c in p.scoring_cards if c is not TRANSFORMER]
        why = "zero_hearts_are_scoring"
        note = w("zero_note", cards=_cards(zero, w.lang), why=why) if zero else ""
        steps.append(w("alone", "transformer_alone", note=note, value=v.transformer_alone))
    if line.factor != 1:
        if line.rule == "transformer_alone":
            steps.append(w("alone_times", factor=line.factor, base=line.base, total=line.points))
        else:
            card = _BY_CODE[_LINE_CARD[line.rule]]
            why, rule = w.exposure(card, result) or ("", "exposure_levels")
            why = why[:1].upper() + why[1:]  # it starts the step
            steps.append(w("exposed_times", rule, why=why, factor=line.factor,
                           base=_n(line.base), total=_n(line.points)))  # fmt: skip
    return steps


def _player_steps(p: PlayerScore, result: HandResult, w: _Words) -> list[str]:
    v = result.variant
    if not p.scoring_cards:
        return [w("none_taken")]
    steps = [w("taken", cards=_cards(p.scoring_cards, w.lang))]
    if p.grand_slam:
        steps.append(w("grand_slam", "grand_slam"))
    for line in p.lines:
        steps += _line_steps(line, p, result, w)
    counted = [line for line in p.lines if line.rule != "transformer_alone"]
    if len(counted) > 1:
        parts = " + ".join(_n(line.points) for line in counted)
        steps.append(w("subtotal", parts=parts, total=_n(p.subtotal)))
    if p.transformer is not None and not p.transformer_alone:
        reason = w.exposure(TRANSFORMER, result)
        tens = p.scoring_cards.count(TRANSFORMER)
        steps.append(
            w(
                "transformer",
                "transformer_table" if v.transformer_table else "transformer_multiplier",
                took=w("took", count=tens) if tens > 1 else "",
                t=p.transformer,
                why="" if reason is None else w("because") + reason[0],
                zero=w("zero_sum") if p.subtotal == 0 else "",
                subtotal=_n(p.subtotal),
                total=_n(p.transformed if p.transformed is not None else p.raw),
            )
        )
    if p.grand_slam_ratio is not None:
        before = p.transformed if p.transformed is not None else p.subtotal
        steps.append(w("fixed_slam", "grand_slam", fixed=v.grand_slam, plain=v.grand_slam_plain(),
                       before=_n(before), ratio=p.grand_slam_ratio, raw=p.raw))  # fmt: skip
    steps.append(w("raw", raw=p.raw))
    return steps


def _finish(exact: Fraction, result: HandResult, final: int | Fraction) -> str:
    """``-333⅓ → -333 × 12 = -3996``: the exact value, its rounding, the scale."""
    norm = result.normalization
    text = _n(exact)
    rounded = exact if norm.rounding is Rounding.EXACT else Fraction(final) / norm.scale
    if rounded != exact:
        text += f" → {_n(rounded)}"
    if norm.scale != 1:
        text += f" × {norm.scale} = {_n(final)}"
    return text


def _others(names: Sequence[str], raws: Sequence[int], name: str) -> str:
    return "(" + " + ".join(str(r) for n, r in zip(names, raws, strict=True) if n != name) + ")"


def _normalization_steps(result: HandResult, w: _Words) -> list[str]:
    norm = result.normalization
    names, raws = list(result.names), result.raws
    sides = result.sides
    if sides is not None:
        a, b = sides
        diff = a.raw - b.raw
        lines = [w("teams", mode=w(norm.teams.value), a="+".join(a.names), a_raw=a.raw,
                   b="+".join(b.names), b_raw=b.raw, diff=diff)]  # fmt: skip
        for side, d in ((a, diff), (b, -diff)):
            first = result.player(side.names[0])
            members = join(side.names, w.lang)
            if norm.method is Method.JJ:
                scaled = f" × {norm.scale} = {_n(first.final)}" if norm.scale != 1 else ""
                lines.append(w("side_jj", names=members, text=f"{_n(first.unrounded)}{scaled}"))
            else:
                size = len(side.names)
                text = _finish(first.unrounded, result, first.final)
                lines.append(w("side_share", names=members, diff=d, size=size, text=text))
        return lines
    # (spoken, as the page says it: no rules-file key)
    none, jj, zero = (
        ("spoken.none", "spoken.jj", "spoken.zero") if w.spoken else ("none", "jj", "zero")
    )
    if norm.method is Method.NONE:
        return [w(none, scale=f" × {norm.scale}" if norm.scale != 1 else "")]
    lines = [w(jj if norm.method is Method.JJ else zero)]
    for p in result.players:
        others = _others(names, raws, p.name)
        if norm.method is Method.JJ:
            scaled = f" × {norm.scale} = {_n(p.final)}" if norm.scale != 1 else ""
            said = f"3 × {p.raw} − {others} = {_n(p.unrounded)}{scaled}"
            lines.append(f"{p.name}{colon(w.lang)}{said}")
        else:
            exact = _finish(p.unrounded, result, p.final)
            lines.append(f"{p.name}{colon(w.lang)}{p.raw} − {others}/3 = {exact}")
    if result.final_sum != 0:
        lines.append(w("residue", residue=_n(result.final_sum)))
    return lines


def _first_lead(result: HandResult, w: _Words) -> str:
    """The table's first-lead rule (首引): who leads each hand of the match."""
    v = result.variant
    rule = v.first_lead_for(result.normalization.teams)
    if rule == "rotation":
        return w("first_lead.rotation", "first_lead")
    card = (
        w(f"card.{v.opening_card.code}")
        if v.opening_card in _BY_CODE.values()
        else card_name(v.opening_card, w.lang)
    )
    must = w("first_lead.must", card=card) if v.opening_card_must_be_played else w("first_lead.any")
    return w(f"first_lead.{rule}", "first_lead", card=card, must=must)


@dataclass(frozen=True)
class Explanation:
    """An explanation in parts, for a page to lay out: the rules' heading, the first lead, a
    partial hand's warning (or ""), each player's heading and numbered steps, the finals."""

    heading: str
    lead: str
    partial: str
    players: tuple[tuple[str, tuple[str, ...]], ...]
    finals_heading: str
    finals: tuple[str, ...]

    def text(self) -> str:
        out = [self.heading, self.lead, *([self.partial] if self.partial else [])]
        for heading, steps in self.players:
            out += ["", heading, *(f"  {i}. {step}" for i, step in enumerate(steps, 1))]
        out += ["", self.finals_heading, *(f"  {line}" for line in self.finals)]
        return "\n".join(out) + "\n"


def explanation(result: HandResult, lang: str = "en", spoken: bool = False) -> Explanation:
    """The derivation of every player's raw and final score, in parts.

    ``spoken`` cites each rule by the words players say (no rules-file key), as the page does.
    """
    w = _Words(lang, spoken)
    v = result.variant
    titled = title(v, lang)  # (a house rule may have none: no empty brackets)
    heading = w("title", name=v.name, title=titled) if titled else w("title_bare", name=v.name)
    players = tuple(
        (
            w("player", name=p.name, seat=p.seat, raw=p.raw, final=_n(p.final)),
            tuple(_player_steps(p, result, w)),
        )
        for p in result.players
    )
    partial = w("partial", cards=_cards(result.missing, w.lang)) if result.partial else ""
    finals = tuple(_normalization_steps(result, w))
    return Explanation(heading, _first_lead(result, w), partial, players, w("finals"), finals)


def explain(result: HandResult, lang: str = "en") -> str:
    """The derivation of every player's raw and final score, as text."""
    return explanation(result, lang).text()


def explain_claimed(
    claimed: Sequence[ClaimedScore], lang: str = "en", answers: Sequence[ClaimExplained] = ()
) -> str:
    """The claimed scores checked, after an explanation; nothing if none.

    Each wrong one is followed by the rules under which it comes out (``answers``, when
    searched).
    """
    if not claimed:
        return ""
    from .claims import claim_lines

    lines = "".join(f"  {line}\n" for line in claim_lines(claimed, answers, lang))
    return f"\n{say('explain.claims', lang)}\n{lines}"
