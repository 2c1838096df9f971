"""Entering a hand at the table, one line at a time, each mistake caught as it is typed.

Each player's cards are asked in seat order, with the scoring cards still unplaced shown above
the prompt; a line that gives a card someone else already has is asked again at once, naming
who has it. The last player may answer ``rest`` (其余) for every scoring card left. Then the
exposures (亮牌) and, where the rules allow it, 首明. The hand is shown, and the table adds it,
cancels, or picks a line to change; nothing typed is lost to one mistake.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import typer

from ..core.cards import Card, parse_cards
from ..core.hand import Hand, PlayerHand, first_too_many
from ..errors import GongzhuError, MissingCardsError
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
    """What has been typed so far: a line per player, the exposures, 首明."""

    names: Sequence[str]
    decks: int
    texts: list[str] = field(default_factory=lambda: ["", "", "", ""])
    cards: list[tuple[Card, ...]] = field(default_factory=lambda: [(), (), (), ()])
    rest: bool = False
    """The last player takes every scoring card the others did not."""
    exposed: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    exposed_text: str = ""
    first: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    first_text: str = ""

    def others(self, skip: int | None) -> list[tuple[str, tuple[Card, ...]]]:
        """(name, cards) of every line but ``skip``, in seat order."""
        seats = enumerate(zip(self.names, self.cards, strict=True))
        return [(n, c) for k, (n, c) in seats if k != skip]

    def unplaced(self, skip: int | None = None) -> list[Card]:
        """Scoring cards no line holds yet (each as often as it is missing)."""
        held = Hand(tuple(PlayerHand(n, c) for n, c in self.others(skip)))
        return list(held.missing(self.decks))

    def hand(self) -> Hand:
        cards = list(self.cards)
        if self.rest:
            cards[3] = tuple(self.unplaced(skip=3))
        return Hand(
            tuple(
                PlayerHand(n, cards[i], self.exposed.get(n, ()), self.first.get(n, ()))
                for i, n in enumerate(self.names)
            )
        )


def _cards_line(cards: Sequence[Card]) -> str:
    return " ".join(c.code for c in cards)


def _ask_player(lines: _Lines, i: int, lang: str) -> None:
    name = lines.names[i]
    last = i == len(lines.names) - 1
    while True:
        unplaced = lines.unplaced(skip=i)
        if unplaced:
            typer.echo(say("prompt.unassigned", lang, cards=cards_text(unplaced, lang)), err=True)
        else:
            typer.echo(say("prompt.all_placed", lang), err=True)
        hint = say("prompt.rest" if last else "prompt.blank", lang)
        default = REST_WORDS[lang == "zh"] if (last and lines.rest) else lines.texts[i]
        text = _answer(f"{say('prompt.captured', lang, name=name)}{hint}", default)
        if text.lower() in REST_WORDS:
            if not last:
                typer.echo(say("prompt.error", lang, error=say("prompt.rest_last", lang)), err=True)
                continue
            lines.rest, lines.texts[i], lines.cards[i] = True, text, ()
            return
        try:
            cards = parse_cards(text, lines.decks)
        except GongzhuError as e:
            typer.echo(say("prompt.error", lang, error=e), err=True)
            continue
        clash = _clash(lines, i, cards)
        if clash is not None:
            card, holder = clash
            shown = cards_text((card,), lang)
            typer.echo(say("prompt.taken", lang, card=shown, holder=holder, name=name), err=True)
            continue
        lines.texts[i], lines.cards[i] = text, cards
        if last:
            lines.rest = False
        return


def _answer(question: str, default: str) -> str:
    """One line typed at a prompt (the default shown when there is one); ``-`` or ``none``
    (无) is the empty answer."""
    text = typer.prompt(question, default=default, show_default=bool(default), err=True).strip()
    return "" if text.lower() in NONE_WORDS else text


def _clash(lines: _Lines, i: int, cards: tuple[Card, ...]) -> tuple[Card, str] | None:
    """A card this line would make one copy too many, and a player who already has it."""
    found = first_too_many([*lines.others(i), (lines.names[i], cards)], lines.decks)
    return None if found is None else (found[0], found[1][0])


def _ask_shown(lines: _Lines, first: bool, lang: str) -> None:
    """The exposures (or 首明): ``NAME=CARDS`` parts joined by ``;``."""
    while True:
        default = lines.first_text if first else lines.exposed_text
        text = _answer(say("prompt.first" if first else "prompt.exposed", lang), default)
        shown: dict[str, tuple[Card, ...]] = {}
        try:
            for part in filter(str.strip, text.replace("；", ";").split(";")):
                name, sep, cards = part.partition("=")
                name = name.strip()
                if not sep or name not in lines.names:
                    raise error(GongzhuError, "prompt.no_player", name=name or part.strip(),
                                players=Listed(lines.names))  # fmt: skip
                shown[name] = shown.get(name, ()) + parse_cards(cards, lines.decks)
        except GongzhuError as e:
            typer.echo(say("prompt.error", lang, error=e), err=True)
            continue
        if first:
            lines.first, lines.first_text = shown, text
        else:
            lines.exposed, lines.exposed_text = shown, text
        return


def _choose(lines: _Lines, count: int, number: int | None, lang: str) -> str:
    """y, n or a line number; anything else is asked again."""
    typer.echo("", err=True)
    for k, name in enumerate(lines.names, 1):
        value = REST_WORDS[lang == "zh"] if (k == 4 and lines.rest) else lines.texts[k - 1]
        typer.echo(
            say(
                "prompt.line", lang, number=k, what=name, value=value or say("prompt.nothing", lang)
            ),
            err=True,
        )
    typer.echo(
        say(
            "prompt.line",
            lang,
            number=5,
            what=say("exposed", lang),
            value=lines.exposed_text or say("prompt.nothing", lang),
        ),
        err=True,
    )
    if count == 6:
        typer.echo(
            say(
                "prompt.line",
                lang,
                number=6,
                what="首明",
                value=lines.first_text or say("prompt.nothing", lang),
            ),
            err=True,
        )
    question = (
        say("prompt.confirm", lang)
        if number is None
        else say("prompt.confirm_edit", lang, number=number)
    )
    while True:
        answer = str(typer.prompt(f"{question} [y/n/1-{count}]", default="y", err=True)).strip()
        if answer.lower() in ("y", "yes", "是", "n", "no", "否") or (
            answer.isdigit() and 1 <= int(answer) <= count
        ):
            return answer.lower()
        typer.echo(say("prompt.bad_choice", lang, lines=count), err=True)


def ask_hand(
    ledger: Ledger, lang: str, start: LedgerEntry | None = None, number: int | None = None
) -> Hand | None:
    """Ask a hand for ``ledger`` at the terminal; None when the table cancels.

    ``start``: a hand of the match to begin from (``match edit``): each line shows its current
    value, and Enter keeps it.
    """
    decks = ledger.variant.decks
    lines = _Lines(ledger.players, decks)
    if start is not None:
        for i, p in enumerate(start.hand.players):
            lines.texts[i], lines.cards[i] = _cards_line(p.captured), p.captured
        lines.exposed = {p.name: p.exposed for p in start.hand.players if p.exposed}
        lines.exposed_text = "; ".join(f"{n}={_cards_line(c)}" for n, c in lines.exposed.items())
        lines.first = {p.name: p.first_exposed for p in start.hand.players if p.first_exposed}
        lines.first_text = "; ".join(f"{n}={_cards_line(c)}" for n, c in lines.first.items())
    count = 6 if ledger.variant.first_exposure_allowed else 5
    for i in range(4):
        _ask_player(lines, i, lang)
    _ask_shown(lines, False, lang)
    if count == 6:
        _ask_shown(lines, True, lang)
    while True:
        hand = lines.hand()
        try:
            result = ledger.score(hand)
        except MissingCardsError:
            missing = cards_text(lines.unplaced(), lang)
            typer.echo(say("prompt.missing", lang, cards=missing), err=True)
        except GongzhuError as e:
            typer.echo(say("prompt.refused", lang, error=e), err=True)
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
            typer.echo(say("prompt.cancelled", lang), err=True)
            return None
        k = int(choice)
        if k <= 4:
            _ask_player(lines, k - 1, lang)
        else:
            _ask_shown(lines, k == 6, lang)
