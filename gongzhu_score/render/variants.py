"""Rule sets as text: the variants, and every rule of one (``variants show``).

The figures that follow from the rules (the transformer's multipliers, a lone 10♣'s value, the
grand slam with nothing and with everything exposed) are not worked out here: the engine scores
each case, so the printed table can never disagree with a score.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.bits import COPY_KEY, FIRST_KEY, SCORING, SPECIAL_INDEX, TEN_BIT
from ..core.cards import ACE_OF_HEARTS, PIG, SHEEP, TRANSFORMER, Card
from ..core.engine import compiled_rules
from ..core.variant import RANKS, Variant
from ..terms import card_names, rule_name, say, title
from .formats import Format, table, yaml_text
from .hand import cards_text

__all__ = ["render_variant", "render_variant_list", "rule_table"]

_TEN = SPECIAL_INDEX["10C"]


def _derived(variant: Variant, lang: str) -> dict[str, str]:
    """What follows from the rules, scored by the engine.

    So a printed variant answers the usual disputes with the engine's own numbers.
    """
    rules = compiled_rules(variant)
    decks = variant.decks
    exposed = say("variants.exposed", lang)
    states = [
        (say("variants.copies", lang, count=e) if decks > 1 else (exposed if e else ""),
         e * COPY_KEY[_TEN])
        for e in range(decks + 1)
    ]  # fmt: skip
    if variant.first_exposure_allowed:
        states.append(("首明", FIRST_KEY[_TEN]))
    times = [(label, rules.state(key).times_one) for label, key in states]
    alone = [(label, rules.raw(TEN_BIT, 0, rules.state(key))) for label, key in states]
    one = say("variants.one_ten", lang, card=_card(TRANSFORMER, lang)) if decks > 1 else ""
    second = SCORING if decks > 1 else 0
    everything = sum(decks * COPY_KEY[k] for k in range(4))
    plain = rules.raw(SCORING, second, rules.state(0))
    shown = rules.raw(SCORING, second, rules.state(everything))
    fixed = (
        ""
        if variant.grand_slam is None
        else f" × {variant.grand_slam}/{variant.grand_slam_plain()}"
    )
    formula = (
        f"({variant.full_red_base()}·L({_card(ACE_OF_HEARTS, lang)}) + "
        f"{-variant.pig * decks}·L({_card(PIG, lang)}) + "
        f"{variant.sheep * decks}·L({_card(SHEEP, lang)})) × t{fixed}"
    )
    return {
        "transformer_multipliers": " / ".join(f"×{t} {label}".strip() for label, t in times) + one,
        "transformer_alone_values": " / ".join(f"+{v} {label}".strip() for label, v in alone) + one,
        "grand_slam_rule": say(
            "variants.grand_slam", lang, formula=formula, plain=plain, shown=shown
        ),
    }


def _card(card: Card, lang: str) -> str:
    """A card as the language's tables write it: ``A♥``, ``红桃A``, ``猪``."""
    return cards_text((card,), lang)


def rule_table(variant: Variant, lang: str = "en") -> dict[str, object]:
    """Every rule and what follows from it, as data for a printed table.

    Cards are as the language writes them; JSON and YAML keep the rules file's codes.
    """
    data = variant.to_data()
    out: dict[str, object] = dict(data)
    out["heart_values"] = " ".join(f"{r}:{v}" for r, v in zip(RANKS, variant.heart_values,
                                                                   strict=True))  # fmt: skip
    out["exposable"] = cards_text(variant.exposable, lang)
    out["opening_card"] = card_names((variant.opening_card,), lang)
    out["transformer_table"] = say("semicolon", lang).join(
        say("variants.table_row", lang, exposed=row["exposed"], taken=row["taken"],
            times=row["times"])
        for row in data["transformer_table"]
    )  # fmt: skip
    out.update(_derived(variant, lang))
    return out


def _cell(value: object) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k}:{v}" for k, v in value.items())
    if isinstance(value, list):
        sep = "; " if any(" " in str(v) for v in value) else " "
        return sep.join(str(v) for v in value)
    return str(value)


def render_variant(
    variant: Variant, fmt: Format = Format.table, lang: str = "en", table_format: str = "simple"
) -> str:
    """A variant's whole rule table (``variants show NAME``).

    JSON and YAML give the rules-file schema, so the output loads back with ``--rules``; the
    table adds what follows from the rules (multipliers, lone values, the grand slam).
    """
    if fmt is Format.json:
        import json

        return json.dumps(variant.to_data(), ensure_ascii=False, indent=2) + "\n"
    if fmt is Format.yaml:
        return yaml_text(variant.to_data())
    rules = rule_table(variant, lang)
    rows = [[rule_name(key, lang), _cell(value)] for key, value in rules.items()]
    headers = [say("rule", lang), say("value", lang)]
    return table(rows, headers, table_format, disable_numparse=False) + "\n"


def render_variant_list(
    variants: Iterable[Variant], fmt: Format = Format.table, lang: str = "en",
    table_format: str = "simple",
) -> str:  # fmt: skip
    rows: list[dict[str, Any]] = [
        {"name": v.name, "title": title(v, lang), "source": v.source} for v in variants
    ]
    if fmt is Format.json:
        import json

        return json.dumps(rows, ensure_ascii=False, indent=2) + "\n"
    if fmt is Format.yaml:
        return yaml_text(rows)
    headers = [say(key, lang) for key in ("name", "title", "source")]
    return table([list(r.values()) for r in rows], headers, table_format,
                 disable_numparse=False) + "\n"  # fmt: skip
