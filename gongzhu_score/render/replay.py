"""``replay`` as a table, JSON or YAML: tricks, winners, score, violations.

JSON keeps the violations in English, as the contract says.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.cards import SCORING_CARDS, Card
from ..play.claims import ClaimDecision, play_codes, trick_codes
from ..play.judge import Judgement
from ..play.replay import Replay
from ..play.state import Trick
from ..terms import Names, card_names, say
from .formats import Format, json_text, table, yaml_text
from .hand import cards_text, claimed_dict, render_result, result_to_dict

__all__ = ["render_replay", "replay_to_dict"]


def replay_to_dict(judged: Judgement) -> dict[str, Any]:
    """The judged record as data: result, tricks, violations (in English)."""
    played, result, decision = judged.replay, judged.result, judged.decision
    error, claims = judged.error, judged.claimed
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
        data["error"] = str(error)
    if claims:
        data["claims"] = claimed_dict(claims)
    claim = played.claim
    if claim is not None:
        said: dict[str, Any] = {
            "by": claim.by,
            "takes": {n: [c.code for c in cards] for n, cards in claim.takes.items()},
        }
        if claim.line is not None:
            said["line"] = [c.code for c in claim.line]
        said["guaranteed"] = None if decision is None else decision.guaranteed
        if decision is not None and decision.guaranteed is False:
            if played.record.variant.decks == 1:
                said["counter_line"] = [trick_codes(t) for t in decision.counter_line]
            else:  # each play apart: a pair and two singles do not read the same
                said["counter_line"] = [play_codes(t) for t in decision.counter_line]
        if decision is None or decision.guaranteed is None:
            said["note"] = _unjudged(played, decision, "en")
        data["claim"] = said
    return data


def _unjudged(played: Replay, decision: ClaimDecision | None, lang: str) -> str:
    if decision is None:
        return say("replay.claim_unjudged", lang)
    return say("replay.claim_undecided", lang, positions=f"{decision.positions:,}")


def _scoring_text(cards: Sequence[Card], lang: str) -> str:
    return cards_text(sorted(cards, key=lambda c: c.sort_key), lang) or say("nothing", lang)


def _plays_text(trick: Trick, lang: str) -> str:
    """A trick's plays in order: ``东 2♣  南 9♣``, ``东 梅花2  南 梅花9``."""
    return "  ".join(f"{p.player} {card_names(p.cards, lang)}" for p in trick.plays)


def claim_text(played: Replay, decision: ClaimDecision | None, lang: str) -> list[str]:
    """The claim (声称) and its verdict, with any counter-line."""
    claim = played.claim
    if claim is None:
        return []
    takes = [f"{n} {_scoring_text(cards, lang)}" for n, cards in claim.takes.items()]
    out = [say("replay.claim", lang, by=claim.by, takes=say("list", lang).join(takes))]
    if claim.line is not None:
        out.append("  " + say("replay.claim_line", lang, line=card_names(claim.line, lang)))
    if decision is None or decision.guaranteed is None:
        out.append("  " + _unjudged(played, decision, lang))
    elif decision.guaranteed:
        out.append("  " + say("replay.claim_yes", lang, positions=f"{decision.positions:,}"))
    else:
        out.append("  " + say("replay.claim_no", lang))
        for trick in decision.counter_line:
            plays = _plays_text(trick, lang)
            if trick.winner is None:
                out.append("    " + say("replay.claim_unplayable", lang, trick=trick.number,
                                        plays=plays, by=claim.by))  # fmt: skip
                continue
            took = _scoring_text([c for p in trick.plays for c in p.cards if c in SCORING_CARDS],
                                 lang)  # fmt: skip
            out.append("    " + say("replay.claim_trick", lang, trick=trick.number, plays=plays,
                                    winner=trick.winner, took=took))  # fmt: skip
        for card, taker, claimed in decision.astray:
            out.append("  " + say("replay.claim_astray", lang, card=cards_text((card,), lang),
                                  taker=taker, claimed=Names(claimed)))  # fmt: skip
    return out


def render_replay(
    judged: Judgement, fmt: Format = Format.table, lang: str = "en", table_format: str = "simple"
) -> str:
    """``replay``: tricks and winners, any claim, the score, violations."""
    if fmt is Format.json:
        return json_text(replay_to_dict(judged))
    if fmt is Format.yaml:
        return yaml_text(replay_to_dict(judged))
    played, result, decision = judged.replay, judged.result, judged.decision
    error, claims = judged.error, judged.claimed
    rows = []
    for t in played.tricks:
        taken = [c for p in t.plays for c in p.cards if c in SCORING_CARDS]
        rows.append([
            t.number, t.lead, _plays_text(t, lang), t.winner,
            cards_text(tuple(sorted(taken, key=lambda c: c.sort_key)), lang),
        ])  # fmt: skip
    headers = [say(f"replay.{k}", lang) for k in ("trick", "lead", "plays", "winner", "took")]
    out = [table(rows, headers, table_format), ""]
    if played.claim is not None:
        out += [*claim_text(played, decision, lang), ""]
    if result is not None:
        out.append(render_result(result, Format.table, lang, table_format, claims).rstrip("\n"))
    else:
        out.append(say("replay.unscored", lang, error=error))
    out.append("")
    if played.violations:
        out.append(say("replay.violations", lang, count=len(played.violations)))
        out += [f"  {v.text(lang)}" for v in played.violations]
    else:
        out.append(say("replay.legal", lang))
    if played.disagreements:
        out.append(say("replay.disagreements", lang))
        out += [f"  {d.text(lang)}" for d in played.disagreements]
    return "\n".join(out) + "\n"
