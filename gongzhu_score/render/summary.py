"""A match in a few short lines (40 columns), for a group chat.

This is ``match summary``: the standings on the deciding totals, how far each player is from the
end line, the pig (当猪) when it is over, and the hands played.
"""

from __future__ import annotations

from ..match.ledger import Ledger
from ..terms import printable, say, template
from .fit import columns, listed, short_name, shortened, wrapped
from .formats import format_number
from .match import played_text

__all__ = ["WIDTH", "match_summary"]

WIDTH = 40
"""The widest line of a summary, in display columns (a Chinese character takes two): what a
phone's chat shows without breaking a line."""

_NAME = 12
"""The most columns a name takes in the summary (a longer name keeps its start and its end,
with ``…`` between them)."""


def match_summary(ledger: Ledger, lang: str = "en") -> str:
    """``ledger``'s summary in ``lang``, each line at most :data:`WIDTH` columns."""
    status = ledger.status()
    standing = ledger.standing()
    kind = say("match.final_total" if ledger.team_play else "match.raw_total", lang)
    title = say("summary.title", lang, variant=ledger.variant.name,
                count=played_text(ledger, lang))  # fmt: skip
    lines = wrapped(title, WIDTH)
    if not ledger.entries:
        return "\n".join([*lines, say("summary.no_hands", lang)]) + "\n"
    names = [printable(n) for n in ledger.players]
    if status.draw:
        lines += [*wrapped(say("summary.over", lang, hand=status.ended_after), WIDTH),
                  *wrapped(say("summary.draw", lang), WIDTH)]  # fmt: skip
    elif status.ended:
        totals = dict(zip(ledger.players, standing.totals, strict=True))
        loser, winner = status.loser_side[0], status.winner_side[0]
        pig = say("summary.pig", lang, name=_short(status.loser or ""), kind=kind,
                  total=format_number(totals[loser]))  # fmt: skip
        won = say("summary.winner", lang, name=_short(status.winner or ""), kind=kind,
                  total=format_number(totals[winner]))  # fmt: skip
        lines += [*wrapped(say("summary.over", lang, hand=status.ended_after), WIDTH),
                  *wrapped(pig, WIDTH), *wrapped(won, WIDTH)]  # fmt: skip
    else:
        lines += wrapped(say("summary.in_play", lang), WIDTH)
    lines += wrapped(say("summary.standings", lang, kind=kind, end=_end_text(ledger)), WIDTH)
    order = ledger.ranking()  # (the match's one order: its first wins, its last is the pig)
    shown = [format_number(standing.totals[i]) for i in order]
    # The numbers of "700 to go" aligned; "还差 700 分" is not padded inside.
    leads = template("match.to_go", lang).startswith("{points}")
    go_size = max(len(format_number(t)) for t in standing.to_go) if leads else 0
    to_go = [
        say("match.to_go", lang, points=format_number(standing.to_go[i]).rjust(go_size))
        if standing.to_go[i] > 0
        else say("match.past", lang)
        for i in order
    ]
    number_size = max(len(t) for t in shown)
    rank_size = len(str(len(order))) + 2  # "1. "
    room = WIDTH - 2 - rank_size - 2 - number_size - 2 - max(columns(t) for t in to_go)
    name_size = max(4, min(_NAME, room, max(columns(n) for n in names)))
    for rank, (i, total, go) in enumerate(zip(order, shown, to_go, strict=True), 1):
        name = shortened(names[i], name_size, middle=True)
        pad = " " * (name_size - columns(name))
        line = f"  {f'{rank}.':<{rank_size}}{name}{pad}  {total:>{number_size}}  {go}"
        lines += wrapped(line.rstrip(), WIDTH, indent="     ")
    aside = "summary.raws" if ledger.team_play else "summary.finals"
    last = ledger.entries[-1]
    other = last.total_raw if ledger.team_play else last.total_final
    items = [f"{_short(ledger.players[i])} {format_number(other[i])}" for i in order]
    head = say(aside, lang, totals="")
    lines += listed(head, items, say("list", lang), WIDTH)
    return "\n".join(lines) + "\n"


def _short(name: str) -> str:
    """A name or side (``东+西``) as the summary shows it, cut to :data:`_NAME`."""
    return short_name(name, _NAME)


def _end_text(ledger: Ledger) -> str:
    return f"±{abs(ledger.end_at)}" if ledger.team_play else str(ledger.end_at)
