"""A match ledger as text: hands with running totals, the state, a chart.

It is also written as JSON and CSV.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..core.cards import Card
from ..core.engine import HandResult
from ..match.actions import HandAdded, HandTaken, SettingsChanged
from ..match.history import Change
from ..match.ledger import Ledger, LedgerEntry, MatchStatus
from ..terms import (
    Listed,
    Names,
    card_names,
    colon,
    count_of_hands,
    join,
    printable,
    say,
    template,
)
from .formats import Format, csv_text, format_number, json_number, json_text, table
from .hand import method_text, render_result, result_to_dict

__all__ = [
    "added_text",
    "change_text",
    "explained_hand",
    "hand_csv",
    "hand_to_dict",
    "match_status_text",
    "match_to_dict",
    "reentry_command",
    "render_export",
    "render_hand",
    "render_history",
    "render_match",
    "rules_line",
    "settings_text",
    "standing_lines",
    "taken_text",
    "totals_to_dict",
]

_BARS = "▁▂▃▄▅▆▇█"


def hands_as_dicts(ledger: Ledger) -> list[dict[str, Any]]:
    return [
        {
            "hand": i,
            "raw": list(e.raw),
            "final": [json_number(f) for f in e.final],
            "total_raw": list(e.total_raw),
            "total_final": [json_number(f) for f in e.total_final],
            "marks": ledger.marks_by_name(e),
            "pig": list(e.pig_takers),
            "first_pig": e.first_pig,
            **auto_played_dict(e),
            "partial": e.partial,
            "entered": e.entered,
            "note": e.note,
        }
        for i, e in enumerate(ledger.entries, ledger.skipped + 1)
    ]


def auto_played_dict(entry: LedgerEntry) -> dict[str, Any]:
    """A hand's 托管 as JSON keys: ``auto_played`` (and ``last_card``) only where it has one,
    so that the JSON of every other hand is as it was."""
    auto = entry.auto_played
    if auto is None:
        return {}
    return {"auto_played": auto.name, **({"last_card": True} if auto.last_card else {})}


def match_to_dict(ledger: Ledger) -> dict[str, Any]:
    """``match show --format json`` (a contract): players, hands, totals, ended, loser, winner."""
    status = ledger.status()
    norm = ledger.normalization
    return {
        "players": list(ledger.players),
        "variant": ledger.variant.name,
        "normalize": norm.method.value,
        "scale": norm.scale,
        "rounding": norm.rounding.value,
        "teams": norm.teams.value,
        "end_at": ledger.end_at,
        **({"last_hand": ledger.last_hand} if ledger.last_hand is not None else {}),
        **({"auto_play": ledger.auto_play.value} if ledger.asks_auto_played() else {}),
        **({"tournament": ledger.tournament} if ledger.tournament is not None else {}),
        **({"title": ledger.title} if ledger.title is not None else {}),
        **({"follows": ledger.follows} if ledger.follows is not None else {}),
        "hands": hands_as_dicts(ledger),
        "totals": totals_to_dict(ledger),
        "ended": status.ended,
        "ended_after": status.ended_after,
        "draw": status.draw,
        "loser": status.loser,
        "winner": status.winner,
        "loser_side": list(status.loser_side),
        "winner_side": list(status.winner_side),
        "next_lead": list(status.next_lead),
        **standing_to_dict(ledger),
    }


def standing_to_dict(ledger: Ledger) -> dict[str, Any]:
    """Where the players stand against the end line, as JSON's informative keys.

    ``decided_on`` is ``raw`` or ``final``, the totals the end is decided on. ``to_go`` is, per
    player in seat order, the points between their deciding total and the end line (0 or less:
    at or past it). ``past_end`` names those at or past it. ``order`` names the players from
    first to last, the match's one order (rulings §8).
    """
    standing = ledger.standing()
    return {
        "decided_on": standing.decided_on,
        "order": [ledger.players[i] for i in ledger.ranking()],
        "to_go": [json_number(t) for t in standing.to_go],
        "past_end": [ledger.players[i] for i in standing.past],
    }


def totals_to_dict(ledger: Ledger) -> dict[str, list[Any]]:
    """The running totals after the last hand: ``raw`` and ``final``, in seat order."""
    last = ledger.entries[-1] if ledger.entries else None
    return {
        "raw": list(last.total_raw) if last else [0] * 4,
        "final": [json_number(f) for f in last.total_final] if last else [0] * 4,
    }


def end_text(ledger: Ledger, lang: str = "en") -> str:
    """Where the match ends: its end line (``-1000``), and for a 盤 its last hand too."""
    if ledger.last_hand is None:
        return str(ledger.end_at)
    return say("match.end_or_hand", lang, end=ledger.end_at, hand=ledger.last_hand)


def played_text(ledger: Ledger, lang: str = "en") -> str:
    """The hands played: ``7 hands``, and in a 盤 ``7 of 16 hands``."""
    if ledger.last_hand is None:
        return count_of_hands(ledger.count, lang)
    return say("match.of_hands", lang, count=ledger.count, last=ledger.last_hand)


def match_status_text(ledger: Ledger, status: MatchStatus, lang: str = "en") -> str:
    """One line: in play and who leads next, or the loser (当猪) and winner."""
    n = ledger.count
    if status.draw:
        key = "match.ended_draw_sides" if ledger.partners else "match.ended_draw"
        kind = say("match.final_total" if ledger.team_play else "match.raw_total", lang)
        return say(key, lang, hand=status.ended_after, kind=kind)
    if status.ended and ledger.partners:  # (each partner's own total: 托管 may part them)
        assert status.ended_after is not None
        totals = deciding(ledger, ledger.entry(status.ended_after))[1]

        def each(side: Sequence[str]) -> str:
            return say("list", lang).join(
                f"{name} {format_number(totals[ledger.players.index(name)])}" for name in side
            )

        return say("match.ended_sides", lang, hand=status.ended_after, loser=status.loser,
                   winner=status.winner, kind=say("match.final_totals", lang),
                   loser_totals=each(status.loser_side),
                   winner_totals=each(status.winner_side))  # fmt: skip
    if status.ended:
        assert status.ended_after is not None
        totals = deciding(ledger, ledger.entry(status.ended_after))[1]
        return say(
            "match.ended",
            lang,
            hand=status.ended_after,
            loser=status.loser,
            winner=status.winner,
            kind=say("match.final_total" if ledger.team_play else "match.raw_total", lang),
            loser_total=format_number(totals[ledger.players.index(status.loser_side[0])]),
            winner_total=format_number(totals[ledger.players.index(status.winner_side[0])]),
        )
    rotation = ledger.first_lead == "rotation"
    if not n:
        if rotation:
            return say("match.no_hands_rotation", lang, lead=status.next_lead[0])
        card = ledger.variant.opening_card
        return say("match.no_hands", lang, card=card)
    if ledger.first_lead == "holder":
        card = ledger.variant.opening_card
        return say("match.in_play_holder", lang, count=played_text(ledger, lang), card=card)
    lead = join(status.next_lead, lang, "or") or say("match.no_pig", lang)
    first_pig = ledger.entries[-1].first_pig is not None
    key = ("match.in_play_rotation" if rotation
           else "match.in_play_first_pig" if first_pig else "match.in_play")  # fmt: skip
    seat = ledger.players.index(status.next_lead[0]) + 1 if rotation else 0
    return say(key, lang, count=played_text(ledger, lang), lead=lead, seat=seat)


def _end_words(ledger: Ledger) -> dict[str, str]:
    """The end line's words: ``end`` (-1000), and ``top`` (+1000) in team play."""
    return {"end": str(ledger.end_at), "top": f"+{abs(ledger.end_at)}"}


def deciding(
    ledger: Ledger, entry: LedgerEntry
) -> tuple[Sequence[int | Fraction], Sequence[int | Fraction]]:
    """A hand's deciding scores and the running deciding totals after it, in seat order.

    They are raws in individual play, finals in team play (rulings §8): what ``match show``
    and its chart show, so that there is one score to read.
    """
    if ledger.team_play:
        return entry.final, entry.total_final
    return entry.raw, entry.total_raw


def deciding_series(ledger: Ledger) -> list[list[int | Fraction]]:
    """Each player's deciding running totals, hand by hand, in seat order (:func:`deciding`)."""
    totals = [deciding(ledger, e)[1] for e in ledger.entries]
    return [[row[i] for row in totals] for i in range(len(ledger.players))]


def _chart(ledger: Ledger, lang: str, room: int | None = None) -> list[str]:
    """A sparkline per player of the deciding running totals.

    All share one scale, reaching down to the end line (and in team play up to its opposite).
    Wider than ``room``, the lines show the last hands' bars after a ``…``.
    """
    from .fit import columns, short_name, wrapped

    series = deciding_series(ledger)
    values = [v for row in series for v in row]
    if not values:
        return []
    end = ledger.end_at
    low = min([*values, end])
    high = max([*values, -end if ledger.team_play else 0])
    span = high - low or 1
    names = list(ledger.players)
    if room is not None:  # (a picture: a long name cut around a …, as the chart draws it)
        names = [short_name(n, max(room // 4, 12)) for n in names]
    width = max(columns(n) for n in names)
    key = "match.chart_final" if ledger.team_play else "match.chart"
    lines = wrapped(say(key, lang, **_end_words(ledger)), room)
    last = max(len(format_number(row[-1])) for row in series)
    bars_room = len(values) if room is None else max(room - width - last - 6, 8)
    for name, row in zip(names, series, strict=True):
        if len(row) > bars_room:  # the last hands, the end of the line being where it stands
            row = row[len(row) - bars_room + 1 :]
            bars = "…"
        else:
            bars = ""
        bars += "".join(_BARS[int((v - low) * (len(_BARS) - 1) / span)] for v in row)
        pad = " " * (width - columns(name))
        lines.append(f"  {name}{pad}  {bars}  {format_number(row[-1])}")
    return lines


def _leads(lang: str) -> bool:
    """Whether "N to go" starts with N in ``lang``, to align the numbers."""
    return template("match.to_go", lang).startswith("{points}")


def _to_go_text(ledger: Ledger, total: int | Fraction, left: int | Fraction, lang: str,
                size: int) -> str:  # fmt: skip
    if left <= 0:
        return say("match.past", lang)
    points = format_number(left).rjust(size)
    if ledger.team_play:  # toward the nearer of the two lines
        line = str(ledger.end_at) if total < 0 else f"+{abs(ledger.end_at)}"
        return say("match.to_go_line", lang, points=points, line=line)
    return say("match.to_go", lang, points=points)


def _compared(ledger: Ledger, total: int | Fraction) -> str:
    """``-1100 ≤ -1000``; in team play above the line ``+1050 ≥ +1000``."""
    if total <= ledger.end_at or not ledger.team_play:
        return f"{format_number(total)} ≤ {ledger.end_at}"
    return f"{format_number(total, sign=True)} ≥ +{abs(ledger.end_at)}"


def standing_lines(ledger: Ledger, lang: str = "en", width: int | None = None) -> list[str]:
    """Where the match stands against its end (rulings §8), first.

    The totals the end is decided on come beside the end line, and per player how far they are
    from it (``700 to go``, ``还差 700 分``); a player at or past it is named at once. ``width``
    is the terminal's, to which the heading and the naming lines are wrapped.
    """
    from .fit import columns, wrapped

    standing = ledger.standing()
    key = "match.decided_final" if standing.decided_on == "final" else "match.decided_raw"
    lines = wrapped(say(key, lang, **_end_words(ledger)), width)
    names = [printable(n) for n in ledger.players]
    totals = [format_number(t) for t in standing.totals]
    name_size = max(columns(n) for n in names)
    total_size = max(len(t) for t in totals)
    # The numbers of "700 to go" aligned; "还差 700 分" is not padded inside.
    go_size = max(len(format_number(left)) for left in standing.to_go) if _leads(lang) else 0
    to_go = [_to_go_text(ledger, total, left, lang, go_size)
             for total, left in zip(standing.totals, standing.to_go, strict=True)]  # fmt: skip
    if width is not None:  # (a name too long to align by is folded alone: the rest stay aligned)
        room = width - 6 - total_size - max(columns(t) for t in to_go)
        name_size = max((columns(n) for n in names if columns(n) <= room), default=4)
    for i in ledger.ranking():  # (the match's one order: its first wins, its last is the pig)
        name, shown, go = names[i], totals[i], to_go[i]
        pad = " " * max(name_size - columns(name), 0)
        line = f"{name}{pad}  {shown:>{total_size}}  {go}"
        lines += ["  " + part for part in wrapped(line, width and width - 2, "  ")]
    past = standing.past
    if past:
        compared = Listed(_compared(ledger, standing.totals[i]) for i in past)
        if len(past) == 1:
            said = say("match.past_one", lang, name=ledger.players[past[0]], compared=compared)
        else:
            who = Names(ledger.players[i] for i in past)
            said = say("match.past_many", lang, names=who, compared=compared)
        lines += wrapped(said, width)
    return lines


def _aside(ledger: Ledger, lang: str) -> str:
    """The other totals, named: the finals (individual), or the raws (teams).

    Neither decides the end.
    """
    last = ledger.entries[-1]
    if ledger.team_play:
        shown = Listed(f"{n} {r}" for n, r in zip(ledger.players, last.total_raw, strict=True))
        return say("match.raws_aside", lang, totals=shown)
    shown = Listed(
        f"{n} {format_number(f)}" for n, f in zip(ledger.players, last.total_final, strict=True)
    )
    return say("match.finals_aside", lang, totals=shown)


def render_match(
    ledger: Ledger, lang: str = "en", table_format: str = "simple", width: int | None = None
) -> str:
    """``match show``: rules, standings, every hand, the state, a chart.

    First the rules and the end line, then where each player stands against it, every hand's
    score with the running total, the state, and the chart. All of them are the deciding scores
    (:func:`deciding`: raws, or finals in team play), so that there is one score to read; the
    other totals are named under the table. ``width`` is the terminal's, which every line fits
    (the table split into blocks of players, none of its numbers lost); None is not limited.
    """
    from .fit import fitted_table, wrapped

    status = ledger.status()
    team = ledger.team_play
    rows: list[list[Any]] = []
    for number, e in enumerate(ledger.entries, 1):
        scores, totals = deciding(ledger, e)
        cells = [
            f"{format_number(f)} ({format_number(total)})"
            for f, total in zip(scores, totals, strict=True)
        ]
        marks = [
            f"{name} {say(code, lang) if code in ('full_red', 'grand_slam') else code}"
            for name, codes in zip(ledger.players, e.marks, strict=True)
            for code in codes
            if not code.startswith("transformer")
        ]
        if e.partial:
            marks.insert(0, say("match.partial_mark", lang))
        rows.append([number, *cells, ", ".join(marks), "+".join(e.pig_takers)])
    if ledger.entries:
        last = deciding(ledger, ledger.entries[-1])[1]
        kind = say("match.final_total" if team else "match.raw_total", lang)
        rows.append([kind, *(format_number(t) for t in last), "", ""])
    headers = [
        say("match.hand", lang),
        *ledger.players,
        say("match.marks", lang),
        say("match.pig", lang),
    ]
    lines = [*_rules_lines(rules_line(ledger, lang), width), ""]
    if rows:
        lines += [*standing_lines(ledger, lang, width), ""]
        align = ["right"] * (len(ledger.players) + 1) + ["left", "left"]
        lines.append("\n\n".join(fitted_table(rows, headers, table_format, align, width)))
        lines += wrapped(say("match.cells_final" if team else "match.cells", lang), width)
        lines += [*wrapped(_aside(ledger, lang), width), ""]
    lines += wrapped(match_status_text(ledger, status, lang), width)
    chart = _chart(ledger, lang, width)
    if chart:
        lines += ["", *chart]
    return "\n".join(lines) + "\n"


def rules_line(ledger: Ledger, lang: str = "en") -> str:
    """The match's rules in one line: variant, normalization, teams, end."""
    norm = ledger.normalization
    teams = say("match.teams_part", lang, teams=norm.teams.value) if ledger.team_play else ""
    return say("match.rules_line", lang, variant=ledger.variant.name,
               method=method_text(norm, lang), teams=teams, end=end_text(ledger, lang))  # fmt: skip


def _rules_lines(rules: str, width: int | None) -> list[str]:
    """The rules line, broken at `` · `` where wider than ``width``."""
    from .fit import columns, wrapped

    if width is None or columns(rules) <= width:
        return [rules]
    lines: list[str] = []
    for part in rules.split(" · "):
        if lines and columns(f"{lines[-1]} · {part}") <= width:
            lines[-1] += f" · {part}"
        else:
            lines += wrapped(part if not lines else f"  {part}", width)
    return lines


def render_match_csv(ledger: Ledger) -> str:
    """``match show --format csv``: a row per hand, finals and running totals."""
    names = ledger.players
    header = ["hand", *names, *(f"{n} total" for n in names), *(f"{n} raw total" for n in names)]
    rows = [
        [i, *map(json_number, e.final), *map(json_number, e.total_final), *e.total_raw]
        for i, e in enumerate(ledger.entries, 1)
    ]
    return csv_text([header, *rows])


def render_export(ledger: Ledger, fmt: Format, values: str = "final", totals: bool = False) -> str:
    """``match export``: a row per hand, a column per player.

    The columns are finals (or raws), then when the hand was entered and its note (empty where
    there is none). With ``totals``, a last row ``total`` has each player's sum.
    """
    rows: list[tuple[int | str, str | None, str | None, list[int | float]]] = [
        (i, e.entered, e.note, [json_number(v) for v in getattr(e, values)])
        for i, e in enumerate(ledger.entries, 1)
    ]
    if totals:
        last = ledger.entries[-1] if ledger.entries else None
        sums = (last.total_final if values == "final" else last.total_raw) if last else (0,) * 4
        rows.append(("total", None, None, [json_number(v) for v in sums]))
    names = ledger.players
    if fmt is Format.json:
        return json_text(
            [{"hand": h, "entered": when, "note": note, **dict(zip(names, scores, strict=True))}
             for h, when, note, scores in rows]
        )  # fmt: skip
    header = ["hand", *names, "entered", "note"]
    cells = ([h, *scores, when or "", note or ""] for h, when, note, scores in rows)
    return csv_text([header, *cells])


# --- one hand of the match, and the match's changes --------------------------------------------


def hand_to_dict(ledger: Ledger, number: int) -> dict[str, Any]:
    """``match show LEDGER N --format json`` (a contract): the hand with its cards and scores."""
    e = ledger.entries[number - 1]
    return {
        "hand": number,
        "partial": e.partial,
        "first_pig": e.first_pig,
        **auto_played_dict(e),
        "entered": e.entered,
        "note": e.note,
        "players": [
            {
                "name": p.name,
                "captured": [c.code for c in p.captured],
                "exposed": [c.code for c in p.exposed],
                "first_exposed": [c.code for c in p.first_exposed],
                "raw": raw,
                "final": json_number(final),
                "total": json_number(total),
                "total_raw": total_raw,
                "marks": list(marks),
            }
            for p, raw, final, total, total_raw, marks in zip(
                e.hand.players, e.raw, e.final, e.total_final, e.total_raw, e.marks, strict=True
            )
        ],
    }


def auto_played_lines(ledger: Ledger, entry: LedgerEntry, lang: str = "en") -> list[str]:
    """What 托管 did to a hand (rulings §12.2), a line each: who was auto-played and the rule
    that scored it; nothing when nobody was."""
    from ..core.auto_play import partner_of

    auto = entry.auto_played
    if auto is None:
        return []
    if auto.last_card:
        return [say("match.auto_last_card", lang, name=auto.name)]
    lines = [say("match.auto_played", lang, name=auto.name)]
    seat = ledger.players.index(auto.name)
    partner = ledger.players[partner_of(seat)]
    if not ledger.asks_auto_played():  # (the tournament regime, or no longer partner play)
        return [*lines, say("match.auto_usual", lang)]
    final = entry.final[seat]
    if entry.final[partner_of(seat)] != 0 or final >= 0:
        return [*lines, say("match.auto_won", lang, name=auto.name, final=format_number(final))]
    return [*lines, say("match.auto_island", lang, name=auto.name, partner=partner,
                        loss=format_number(-final), final=format_number(final))]  # fmt: skip


def render_hand(ledger: Ledger, number: int, lang: str = "en", table_format: str = "simple") -> str:
    """``match show LEDGER N``: hand N's cards, exposures, scores and totals."""
    from .hand import cards_text

    e = ledger.entries[number - 1]
    result = ledger.score(e.hand, partial=e.partial)  # for the scoring cards, as scored
    rows = []
    for p, scored, raw, final, total in zip(
        e.hand.players, result.players, e.raw, e.final, e.total_final, strict=True
    ):
        shown = [cards_text((c,), lang) for c in p.exposed]
        shown += [f"{cards_text((c,), lang)} 首明" for c in p.first_exposed]
        rows.append(
            [
                scored.seat,
                p.name,
                cards_text(scored.scoring_cards, lang),
                " ".join(shown),
                raw,
                format_number(final),
                format_number(total),
            ]
        )
    headers = [
        say(k, lang)
        for k in (
            "seat",
            "player",
            "match.captured",
            "match.exposed_col",
            "raw",
            "final",
            "match.total_col",
        )
    ]
    title = say("match.hand_view", lang, number=number, count=len(ledger.entries))
    if e.partial:
        title += f" · {say('match.partial_mark', lang)}"
    align = ("right", "left", "left", "left", "right", "right", "right")
    body = table(rows, headers, table_format, colalign=align)
    if e.first_pig is not None:
        body += "\n" + say("match.first_pig", lang, name=e.first_pig)
    for line in auto_played_lines(ledger, e, lang):
        body += "\n" + line
    if e.entered is not None:
        body += "\n" + say("match.entered", lang, time=e.entered)
    if e.note is not None:
        body += "\n" + say("match.note", lang, note=e.note)
    return f"{title}\n\n{body}\n"


def change_text(change: Change, lang: str = "en") -> str:
    """One recorded change in words: ``added hand 4``, ``将 北 改名为 小北``."""
    values = dict(change.values)
    if change.kind == "set":
        values["changes"] = join(
            (
                say("match.settings", lang, what=k, before=b, after=a)
                for k, (b, a) in dict(values.get("changes", {})).items()
            ),
            lang,
            "comma",
        )
    try:
        return say(f"history.{change.kind}", lang, **values)
    except (KeyError, IndexError, ValueError):  # a line the words do not fit: shown as it is
        return printable(f"{change.kind} {dict(change.values)!r}")


def render_history(
    changes: Sequence[Change], lang: str = "en", table_format: str = "simple"
) -> str:
    rows = [[c.number, c.time, change_text(c, lang)] for c in changes]
    if changes and changes[-1].kind != "new":
        rows[-1][2] = f"{rows[-1][2]}{say('history.last', lang)}"
    headers = [say(k, lang) for k in ("history.number", "history.time", "history.change")]
    return table(rows, headers, table_format) + "\n"


def reentry_command(ledger_path: str, entry: LedgerEntry, lang: str = "en") -> str:
    """The command that adds ``entry``'s hand again, exposures and 首明 included.

    Its cards are as they were typed, as codes (``QS 10C``), or in Chinese as names
    (``黑桃Q 梅花10``).
    """
    import shlex

    def typed(cards: Sequence[Card]) -> str:
        names = card_names(cards, lang)  # (symbols are hard to type: their codes instead)
        return " ".join(c.code for c in cards) if names == card_names(cards, "en") else names

    words = ["gongzhu-score", "match", "add", ledger_path]
    for p in entry.hand.players:
        words += ["-c", f"{p.name}={typed(p.captured)}"]
    for p in entry.hand.players:
        if p.exposed:
            words += ["-e", f"{p.name}={typed(p.exposed)}"]
        if p.first_exposed:
            words += ["--first-exposed", f"{p.name}={typed(p.first_exposed)}"]
    if entry.partial:
        words.append("--partial")
    if entry.first_pig is not None:
        words += ["--first-pig", entry.first_pig]
    if entry.auto_played is not None:
        words += ["--auto-played", entry.auto_played.name]
        words += ["--last-card"] if entry.auto_played.last_card else []
    if entry.note is not None:
        words += ["--note", entry.note]
    return shlex.join(words)


def added_text(added: HandAdded, lang: str, fmt: Format, table_too: bool = True) -> str:
    """A hand just added (``match add``), with the totals and the standing.

    The hand's table is shown unless the prompts showed it; or all of it as one JSON object.
    """
    ledger, result, number = added.ledger, added.result, added.number
    status = ledger.status()
    if fmt is Format.json:
        data = {
            "hand": number,
            **_with_entry_finals(result_to_dict(result), ledger.entry(number)),
            **auto_played_dict(ledger.entry(number)),
            "totals": totals_to_dict(ledger),
            "ended": status.ended,
            "draw": status.draw,
            "loser": status.loser,
            "winner": status.winner,
            **standing_to_dict(ledger),
        }
        return json_text(data)
    if table_too:
        head = (
            say("match.hand_title", lang, number=number) + "\n" + render_result(result, fmt, lang)
        )
    else:
        head = say("match.added", lang, number=number) + "\n"
    moved = "".join(f"{line}\n" for line in auto_played_lines(ledger, ledger.entry(number), lang))
    standing = "\n".join([*standing_lines(ledger, lang), _aside(ledger, lang)])
    return f"{head}{moved}{standing}\n{match_status_text(ledger, status, lang)}\n"


def _with_entry_finals(data: dict[str, Any], entry: LedgerEntry) -> dict[str, Any]:
    """A hand's JSON with the finals the match counted (托管 may move them, rulings §12.2)."""
    if entry.auto_played is None:
        return data
    for player, final in zip(data["players"], entry.final, strict=True):
        player["final"] = json_number(final)
        player.pop("final_exact", None)
        if not isinstance(final, int) and final.denominator != 1:
            player["final_exact"] = str(final)
    data["final_sum"] = json_number(sum(entry.final))
    return data


def edited_text(edited: HandAdded, lang: str, table_too: bool = True) -> str:
    """A hand replaced (``match edit``), said as ``match add`` says it.

    The hand's table is shown unless the prompts showed it, then the totals after the last hand
    and where the match stands.
    """
    head = say("match.replaced", lang, number=edited.number) + "\n"
    if table_too:
        head += render_result(edited.result, Format.table, lang)
    added = added_text(edited, lang, Format.table, table_too=False)
    return head + added.partition("\n")[2]  # (after its first line: added as hand N)


def taken_text(ledger_path: str, taken: HandTaken, lang: str) -> str:
    """A hand taken out (``undo``, ``remove``), and how to bring it back.

    It shows everything needed to enter it again, and where the match stands now.
    """
    entry = taken.entry
    parts = [
        f"{p.name} [{card_names(p.captured, lang)}] {raw}"
        for p, raw in zip(entry.hand.players, entry.raw, strict=True)
    ]
    lines = [
        say("match.removed", lang, number=taken.number, players=say("semicolon", lang).join(parts)),
        say("match.readd", lang, command=reentry_command(ledger_path, entry, lang)),
        say("match.restore_hint", lang, ledger=ledger_path),
        match_status_text(taken.ledger, taken.ledger.status(), lang),
    ]
    return "\n".join(lines) + "\n"


def settings_text(changed: SettingsChanged, lang: str) -> str:
    """New settings (``match set``): what moved, totals before and after.

    It also says where the match stands now.
    """
    before, after = changed.before, changed.after
    if not changed.changes:
        return say("match.unchanged", lang) + "\n"
    lines = [say("match.settings", lang, what=key, before=old, after=new)
             for key, (old, new) in changed.changes.items()]  # fmt: skip
    if before.entries:
        lines.append(say("match.moved", lang))
        b, a = before.entries[-1], after.entries[-1]
        for i, name in enumerate(after.players):
            lines.append(
                f"  {name}{colon(lang)}{b.total_raw[i]} ({format_number(b.total_final[i])}) → "
                f"{a.total_raw[i]} ({format_number(a.total_final[i])})"
            )
    lines.append(say("match.end_now", lang, status=match_status_text(after, after.status(), lang)))
    return "\n".join(lines) + "\n"


def explained_hand(ledger: Ledger, number: int, result: HandResult, lang: str) -> str:
    """Hand ``number`` of a match explained step by step (``explain LEDGER N``)."""
    from .explain import explain

    head = say("match.hand_view", lang, number=number, count=len(ledger.entries))
    moved = "".join(f"\n{line}" for line in auto_played_lines(ledger, ledger.entry(number), lang))
    return f"{head}\n\n" + explain(result, lang) + (moved[1:] + "\n" if moved else "")


def hand_csv(ledger: Ledger, number: int) -> str:
    """Hand ``number`` as a CSV table, a row per player.

    This is ``match show LEDGER N -f csv``.
    """
    data = hand_to_dict(ledger, number)
    keys = ["name", "captured", "exposed", "first_exposed", "raw", "final", "total"]
    rows = [
        [" ".join(v) if isinstance(v, list) else v for v in (p[k] for k in keys)]
        for p in data["players"]
    ]
    return csv_text([keys, *rows])
