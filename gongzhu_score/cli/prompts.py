"""Entering a hand at the table, one line at a time, each mistake caught as it is typed.

Each player's cards are asked in seat order, with the scoring cards still unplaced shown above
the prompt; a line that gives a card someone else already has is asked again at once, naming
who has it. The last player may answer ``rest`` (其余) for every scoring card left. Then the
exposures (亮牌) and, where the rules allow it, 首明. The hand is shown, and the table adds it,
cancels, or picks a line to change; nothing typed is lost to one mistake. The hand being
entered is the library's :class:`~gongzhu_score.match.entry.HandEntry`; here are the prompts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import typer

from ..core.cards import Card, parse_cards
from ..core.hand import Hand
from ..errors import GongzhuError, InputError, MissingCardsError
from ..match.entry import HandEntry
from ..match.ledger import Ledger, LedgerEntry
from ..render.formats import Format
from ..render.hand import cards_text, render_result
from ..terms import Listed, error, say

__all__ = ["ask_hand"]

REST_WORDS = ("rest", "其余", "其餘", "剩下", "其他")
NONE_WORDS = ("-", "none", "nothing", "无", "無", "没有")
"""What clears a line (Enter keeps what the line holds)."""


@dataclass
class _Lines:
    """The hand entered so far, and each line as it was typed (the default when it is asked
    again): a line per player, the exposures, 首明."""

    entry: HandEntry
    texts: list[str] = field(default_factory=lambda: ["", "", "", "", "", ""])


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(c.code for c in cards)


def _say(lang: str, key: str, **values: object) -> None:
    typer.echo(say(key, lang, **values), err=True)


def _ask_player(lines: _Lines, i: int, lang: str) -> None:
    entry, name = lines.entry, lines.entry.names[i]
    last = i == len(entry.names) - 1
    while True:
        unplaced = entry.unplaced(skip=i)
        if unplaced:
            _say(lang, "prompt.unassigned", cards=cards_text(unplaced, lang))
        else:
            _say(lang, "prompt.all_placed")
        hint = say("prompt.rest" if last else "prompt.blank", lang)
        default = REST_WORDS[lang == "zh"] if entry.rest == i else lines.texts[i]
        text = _answer(f"{say('prompt.captured', lang, name=name)}{hint}", default)
        if text.lower() in REST_WORDS:
            if not last:
                _say(lang, "prompt.error", error=say("prompt.rest_last", lang))
                continue
            entry.give_rest(i)
            lines.texts[i] = text
            return
        try:
            cards = parse_cards(text, entry.decks)
        except GongzhuError as e:
            _say(lang, "prompt.error", error=e)
            continue
        clash = entry.give(i, cards)
        if clash is not None:
            card, holder = clash
            _say(lang, "prompt.taken", card=cards_text((card,), lang), holder=holder, name=name)
            continue
        lines.texts[i] = text
        return


def _answer(question: str, default: str) -> str:
    """One line typed at a prompt (the default shown when there is one); ``-`` or ``none``
    (无) is the empty answer."""
    text = _prompt(question, default=default, show_default=bool(default)).strip()
    return "" if text.lower() in NONE_WORDS else text


def _prompt(question: str, **options: object) -> str:
    """A line read at the prompt; standard input refusing the read (open for writing only) is
    an error naming it, not a write that failed."""
    try:
        return str(typer.prompt(question, err=True, **options))  # type: ignore[arg-type]
    except OSError as e:
        refused = error(InputError, "error.file.unreadable", why=e.strerror or str(e))
        raise refused.within("<stdin>") from None


def _ask_shown(lines: _Lines, first: bool, lang: str) -> None:
    """The exposures (or 首明): ``NAME=CARDS`` parts joined by ``;``."""
    entry, line = lines.entry, 5 if first else 4
    while True:
        text = _answer(say("prompt.first" if first else "prompt.exposed", lang), lines.texts[line])
        shown: dict[str, tuple[Card, ...]] = {}
        try:
            for part in filter(str.strip, text.replace("；", ";").split(";")):
                name, sep, cards = part.partition("=")
                name = name.strip()
                if not sep or name not in entry.names:
                    raise error(GongzhuError, "prompt.no_player", name=name or part.strip(),
                                players=Listed(entry.names))  # fmt: skip
                shown[name] = shown.get(name, ()) + parse_cards(cards, entry.decks)
        except GongzhuError as e:
            _say(lang, "prompt.error", error=e)
            continue
        entry.show(shown, first)
        lines.texts[line] = text
        return


def _choose(lines: _Lines, count: int, number: int | None, lang: str) -> str:
    """y, n or a line number; anything else is asked again."""
    typer.echo("", err=True)
    entry, nothing = lines.entry, say("prompt.nothing", lang)
    shown = [REST_WORDS[lang == "zh"] if entry.rest == k else lines.texts[k] for k in range(4)]
    what = [*entry.names, say("exposed", lang), "首明"]
    for k in range(count):
        value = shown[k] if k < 4 else lines.texts[k]
        _say(lang, "prompt.line", number=k + 1, what=what[k], value=value or nothing)
    question = (
        say("prompt.confirm", lang)
        if number is None
        else say("prompt.confirm_edit", lang, number=number)
    )
    while True:
        answer = _prompt(f"{question} [y/n/1-{count}]", default="y").strip()
        if answer.lower() in ("y", "yes", "是", "n", "no", "否") or (
            answer.isdigit() and 1 <= int(answer) <= count
        ):
            return answer.lower()
        _say(lang, "prompt.bad_choice", lines=count)


def ask_hand(
    ledger: Ledger, lang: str, start: LedgerEntry | None = None, number: int | None = None
) -> Hand | None:
    """Ask a hand for ``ledger`` at the terminal; None when the table cancels.

    ``start``: a hand of the match to begin from (``match edit``): each line shows its current
    value, and Enter keeps it.
    """
    decks = ledger.variant.decks
    lines = _Lines(HandEntry(ledger.players, decks))
    if start is not None:
        lines.entry = HandEntry.of(start.hand, decks)
        lines.texts[:4] = [_codes(p.captured) for p in start.hand.players]
        for line, shown in ((4, lines.entry.exposed), (5, lines.entry.first_exposed)):
            lines.texts[line] = "; ".join(f"{n}={_codes(c)}" for n, c in shown.items())
    count = 6 if ledger.variant.first_exposure_allowed else 5
    for i in range(4):
        _ask_player(lines, i, lang)
    _ask_shown(lines, False, lang)
    if count == 6:
        _ask_shown(lines, True, lang)
    while True:
        hand = lines.entry.hand()
        try:
            result = ledger.score(hand)
        except MissingCardsError:
            _say(lang, "prompt.missing", cards=cards_text(lines.entry.unplaced(), lang))
        except GongzhuError as e:
            _say(lang, "prompt.refused", error=e)
        else:
            typer.echo(render_result(result, Format.table, lang), err=True, nl=False)
        choice = _choose(lines, count, number, lang)
        if choice in ("y", "yes", "是"):
            try:
                ledger.score(hand)
            except GongzhuError:
                continue  # not a hand yet: the table must change a line
            return hand
        if choice in ("n", "no", "否"):
            _say(lang, "prompt.cancelled")
            return None
        k = int(choice)
        if k <= 4:
            _ask_player(lines, k - 1, lang)
        else:
            _ask_shown(lines, k == 6, lang)
