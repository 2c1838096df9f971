"""``replay`` as text: the tricks and their winners, the score, the violations (table, JSON,
YAML). JSON keeps the violations in English, as the contract says."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.cards import SCORING_CARDS
from ..core.engine import HandResult
from ..disputes.claims import Claim
from ..play.replay import Replay
from ..terms import say
from .formats import Format, json_text, table, yaml_text
from .hand import cards_text, claims_dict, render_result, result_to_dict

__all__ = ["render_replay", "replay_to_dict"]


def replay_to_dict(
    played: Replay, result: HandResult | None, error: str | None, claims: Sequence[Claim] = ()
) -> dict[str, Any]:
    """The replay as data: the hand's result, the tricks, the violations (in English)."""
    if result is not None:
        data = result_to_dict(result)
    else:
        data = {"players": [{"name": n, "raw": None, "final": None} for n in played.record.players]}
    data["tricks"] = [
        {"number": t.number, "lead": t.lead,
         "cards": [" ".join(c.code for c in p.cards) for p in t.plays], "winner": t.winner}
        for t in played.tricks
    ]  # fmt: skip
    data["violations"] = [v.text("en") for v in played.violations]
    data["disagreements"] = [d.text("en") for d in played.disagreements]
    if error is not None:
        data["error"] = error
    if claims:
        data["claims"] = claims_dict(claims)
    return data


def render_replay(
    played: Replay,
    result: HandResult | None,
    error: str | None,
    fmt: Format = Format.table,
    lang: str = "en",
    table_format: str = "simple",
    claims: Sequence[Claim] = (),
) -> str:
    """``replay``: the tricks and their winners, the score, the violations."""
    if fmt is Format.json:
        return json_text(replay_to_dict(played, result, error, claims))
    if fmt is Format.yaml:
        return yaml_text(replay_to_dict(played, result, error, claims))
    rows = []
    for t in played.tricks:
        taken = [c for p in t.plays for c in p.cards if c in SCORING_CARDS]
        rows.append([
            t.number, t.lead, "  ".join(f"{p.player} {p.text}" for p in t.plays), t.winner,
            cards_text(tuple(sorted(taken, key=lambda c: c.sort_key)), lang),
        ])  # fmt: skip
    headers = [say(f"r.{k}", lang) for k in ("trick", "lead", "plays", "winner", "took")]
    out = [table(rows, headers, table_format), ""]
    if result is not None:
        out.append(render_result(result, Format.table, lang, table_format, claims).rstrip("\n"))
    else:
        out.append(say("r.unscored", lang, error=error))
    out.append("")
    if played.violations:
        out.append(say("r.violations", lang, count=len(played.violations)))
        out += [f"  {v.text(lang)}" for v in played.violations]
    else:
        out.append(say("r.legal", lang))
    if played.disagreements:
        out.append(say("r.disagreements", lang))
        out += [f"  {d.text(lang)}" for d in played.disagreements]
    return "\n".join(out) + "\n"
