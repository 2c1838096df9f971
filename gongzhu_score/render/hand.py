"""A scored hand as a table, JSON, CSV or YAML, with any claims."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.cards import PIG, SHEEP, TRANSFORMER, Card, Suit
from ..core.engine import HandResult
from ..core.normalize import Method, Normalization
from ..core.result import Exposure, PlayerScore, TeamSide
from ..terms import card_name, card_names, colon, join, say, title
from .formats import Format, csv_text, format_number, json_number, json_text, table, yaml_text

if TYPE_CHECKING:
    from ..disputes.claimed import ClaimedScore

__all__ = ["cards_text", "claimed_lines", "render_result", "result_to_dict"]

_NICKNAMED = (PIG, SHEEP, TRANSFORMER)


def cards_text(cards: Sequence[Card], lang: str) -> str:
    """Scoring cards as a player reads them: ``Q♠ 10♣ 6♥``, or ``猪 变压器 红桃6 8``.

    The special cards come first, by their nicknames where the language has them, then the
    hearts.
    """
    named = [say(f"nickname.{c.code}", lang) for c in cards if c in _NICKNAMED]
    if named == [card_name(c, lang) for c in cards if c in _NICKNAMED]:  # (no nicknames)
        return card_names(cards, lang)
    hearts = [c for c in cards if c.suit is Suit.HEARTS]
    return " ".join([*named, card_names(hearts, lang)] if hearts else named)


def _marks(p: PlayerScore, lang: str) -> str:
    marks = [say(key, lang) for key in ("full_red", "grand_slam") if getattr(p, key)]
    if p.transformer_alone:
        marks.append(say("transformer_alone", lang))
    elif p.transformer is not None:
        marks.append(f"{say('transformer', lang)} ×{p.transformer}")
    return join(marks, lang)


def method_text(norm: Normalization, lang: str) -> str:
    """``zero-sum ×12``, or ``零和 (zero-sum ×12)``.

    The method's own word comes too, where the language has one.
    """
    word, describe = say(f"method.{norm.method.value}", lang), norm.describe()
    return describe if word == norm.method.value else say("method.named", lang, word=word,
                                                            describe=describe)  # fmt: skip


def exposure_text(e: Exposure, lang: str) -> str:
    return say(f"exposure.{e.kind}", lang, card=cards_text((e.card,), lang), level=e.level,
               by=e.by)  # fmt: skip


def _side_label(side: TeamSide) -> str:
    return "+".join(side.names)


def _header(result: HandResult, lang: str) -> list[str]:
    v, sep = result.variant, colon(lang)
    titled = title(v, lang)  # (a house rule may have none: no empty brackets)
    lines = [f"{say('variant', lang)}{sep}{v.name}" + (f" ({titled})" if titled else "")]
    lines.append(f"{say('normalize', lang)}{sep}{method_text(result.normalization, lang)}")
    shown = [exposure_text(e, lang) for e in result.exposures]
    lines.append(f"{say('exposed', lang)}{sep}{join(shown, lang) or say('none', lang)}")
    if result.partial:
        lines.append(f"{say('partial', lang)}{sep}{cards_text(result.missing, lang)}")
    sides = result.sides
    if sides is not None:
        mode = say(f"teams.{result.normalization.teams.value}", lang)
        a, b = (f"{_side_label(side)} {say('raw', lang)} {side.raw}" for side in sides)
        diff = f"{say('difference', lang)} {sides[0].raw - sides[1].raw}"
        lines.append(f"{say('teams', lang)}{sep}{mode} — {join((a, b, diff), lang, 'comma')}")
    return lines


def render_table(result: HandResult, lang: str = "en", table_format: str = "simple") -> str:
    sides = result.sides
    keys = ["seat", "player", "cards", "marks", "raw", "final"]
    align = ["right", "left", "left", "left", "right", "right"]
    rows: list[list[Any]] = [
        [p.seat, p.name, cards_text(p.scoring_cards, lang), _marks(p, lang), p.raw,
         format_number(p.final)]
        for p in result.players
    ]  # fmt: skip
    rows.append(["", say("sum", lang), "", "", result.raw_sum, format_number(result.final_sum)])
    if sides is not None:
        keys.insert(2, "side")
        align.insert(2, "left")
        for row, p in zip(rows, result.players, strict=False):
            row.insert(2, "" if p.side is None else _side_label(sides[p.side]))
        rows[-1].insert(2, "")
    text = table(rows, [say(k, lang) for k in keys], table_format, colalign=tuple(align))
    lines = [*_header(result, lang), "", text]
    if result.final_sum != 0 and result.normalization.method is not Method.NONE:
        lines.append(say("residue", lang, residue=format_number(result.final_sum)))
    return "\n".join(lines) + "\n"


def result_to_dict(result: HandResult) -> dict[str, Any]:
    """The result as plain data: the JSON/YAML contract, players in seat order."""
    norm = result.normalization
    return {
        "variant": result.variant.name,
        "normalize": norm.method.value,
        "scale": norm.scale,
        "rounding": norm.rounding.value,
        "partial": result.partial,
        "missing": [c.code for c in result.missing],
        "exposures": [
            {"card": e.card.code, "by": e.by, "kind": e.kind, "level": e.level}
            for e in result.exposures
        ],
        "teams": _teams_dict(result),
        "players": [_player_dict(p) for p in result.players],
        "raw_sum": result.raw_sum,
        "final_sum": json_number(result.final_sum),
    }


def _teams_dict(result: HandResult) -> dict[str, Any] | None:
    sides = result.sides
    if sides is None:
        return None
    return {
        "mode": result.normalization.teams.value,
        "sides": [{"players": list(side.names), "raw": side.raw} for side in sides],
        "difference": sides[0].raw - sides[1].raw,
    }


def _player_dict(p: PlayerScore) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": p.seat,
        "name": p.name,
        "raw": p.raw,
        "final": json_number(p.final),
        "side": p.side,
    }
    if not isinstance(p.final, int) and p.final.denominator != 1:
        out["final_exact"] = str(p.final)
    out.update(
        {
            "scoring_cards": [c.code for c in p.scoring_cards],
            "markers": list(p.markers),
            "breakdown": [
                {
                    "rule": line.rule,
                    "cards": [c.code for c in line.cards],
                    "base": line.base,
                    "factor": line.factor,
                    "points": line.points,
                }
                for line in p.lines
            ],
            "subtotal": p.subtotal,
            "transformer": p.transformer,
        }
    )
    return out


def claimed_lines(claims: Sequence[ClaimedScore], lang: str = "en") -> list[str]:
    """One line per claim: right, or wrong with the right number.

    A wrong one also shows the difference.
    """
    return [
        say("claim_ok", lang, name=c.name, claimed=c.claimed)
        if c.correct
        else say("claim_wrong", lang, name=c.name, claimed=c.claimed, kind=say(c.kind, lang),
                 actual=format_number(c.actual), diff=format_number(c.difference, sign=True))
        for c in claims
    ]  # fmt: skip


def claimed_dict(claims: Sequence[ClaimedScore]) -> list[dict[str, Any]]:
    return [
        {"name": c.name, "claimed": c.claimed, "of": c.kind, "actual": json_number(c.actual),
         "correct": c.correct, "difference": json_number(c.difference)}
        for c in claims
    ]  # fmt: skip


def render_result(
    result: HandResult,
    fmt: Format = Format.table,
    lang: str = "en",
    table_format: str = "simple",
    claims: Sequence[ClaimedScore] = (),
) -> str:
    """A scored hand as ``table``, ``json``, ``csv`` or ``yaml``.

    Any claims are checked too.
    """
    if fmt in (Format.json, Format.yaml):
        data = result_to_dict(result)
        if claims:
            data["claims"] = claimed_dict(claims)
        return json_text(data) if fmt is Format.json else yaml_text(data)
    if fmt is Format.csv:
        header = ["seat", "name", "raw", "final", "scoring_cards", "markers", "side"]
        rows = [
            [p.seat, p.name, p.raw, json_number(p.final), " ".join(c.code for c in p.scoring_cards),
             " ".join(p.markers), "" if p.side is None else p.side]
            for p in result.players
        ]  # fmt: skip
        return csv_text([header, *rows])
    if fmt is not Format.table:
        raise ValueError(f"a hand is not written as {fmt.value}")
    text = render_table(result, lang, table_format)
    if claims:
        text += f"\n{say('claims', lang)}:\n" + "".join(
            f"  {line}\n" for line in claimed_lines(claims, lang)
        )
    return text
