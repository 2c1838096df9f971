"""Entering a hand at the table a line at a time, catching each mistake.

Each player's cards are asked in seat order, with the scoring cards still unplaced shown above
the prompt; a line that gives a card someone else already has is asked again at once, naming who
has it (or saying it was typed twice on that line). Any one player may answer ``rest`` (其余)
for every scoring card the others do not take, worked out once they are all in (the seats after
theirs included); a second player answering it is asked again. Then the exposures (亮牌) and,
where the rules allow it, 首明; with two decks under ``first_lead: pig``, once the hand is whole
and two players each took a pig, who took the first (they lead the next hand, rulings §10); in
a partners match under the island regime, who the system played for (托管, rulings §12.2). The
hand is shown, what the rest came to included, and the table adds it, cancels, or picks a line
to change; nothing typed is lost to one mistake. ``match edit`` begins there: the hand as it is,
in the table's notation, and only the line picked is typed again. The hand being entered is the
library's :class:`~gongzhu_score.match.entry.HandEntry`; here are the prompts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import typer

from ..core.auto_play import AutoPlayed
from ..core.cards import SCORING_CARDS, Card, parse_cards
from ..core.hand import Hand
from ..errors import GongzhuError, InputError, MissingCardsError
from ..io.fields import HandSpec
from ..match.entry import HandEntry
from ..match.ledger import Ledger, LedgerEntry, pig_takers
from ..render.formats import Format
from ..render.hand import cards_text, render_result
from ..terms import LANGS, Listed, card_name, error, join, say

__all__ = ["ask_hand"]

REST_WORDS = frozenset(("剩下", "其他", *(say("prompt.rest_word", lang) for lang in LANGS)))
"""What gives a player the rest: the word each language prints, and the others players say."""
NONE_WORDS = frozenset(
    ("-", "没有", *(say(k, lang).lower() for k in ("none", "nothing") for lang in LANGS))
)
"""What clears a line (Enter keeps what the line holds)."""


YES, NO = ("y", "yes", "是"), ("n", "no", "否")
"""The answers to a yes-or-no question, in every language the prompts speak."""

EXPOSED, FIRST_EXPOSED, FIRST_PIG, AUTO_PLAYED = 4, 5, 6, 7
"""The lines after the four players': the exposures, 首明, who took the first pig, who was
auto-played (托管)."""


@dataclass
class _Lines:
    """The hand entered so far, and each line as typed.

    A typed line is the default when it is asked again. There is a line per player, the
    exposures, 首明, and who took the first pig.
    """

    entry: HandEntry
    texts: list[str] = field(default_factory=lambda: [""] * 8)
    first_pig_asked: bool = False
    """Whether who took the first pig was answered (or given with ``--first-pig``): it is
    asked again only when a changed line makes the answer wrong."""
    auto_played: AutoPlayed | None = None
    """Who the system played for (托管), where the match asks it."""


def _notation(cards: Sequence[Card], lang: str) -> str:
    """Cards as the table's tables print them, every card kept.

    ``猪 变压器 红桃6 8``, ``Q♠ 6♥ 8♥ 10♣``; one that scores nothing comes after the scoring
    ones, by its name. So what Enter keeps reads back as the same cards.
    """
    cards = sorted(cards, key=lambda c: c.sort_key)  # (as the tables list them)
    scoring = [c for c in cards if c in SCORING_CARDS]
    others = [card_name(c, lang) for c in cards if c not in SCORING_CARDS]
    return " ".join(filter(None, (cards_text(scoring, lang), *others)))


def _held(hand: Hand) -> list[tuple[str, list[str], list[str], list[str]]]:
    """A hand's cards seat by seat, each line's in one order.

    This is what an edit may leave as it was.
    """
    return [(p.name, sorted(c.code for c in p.captured), sorted(c.code for c in p.exposed),
             sorted(c.code for c in p.first_exposed)) for p in hand.players]  # fmt: skip


def _say(lang: str, key: str, **values: object) -> None:
    typer.echo(say(key, lang, **values), err=True)


def _ask_player(lines: _Lines, i: int, lang: str) -> None:
    entry, name = lines.entry, lines.entry.names[i]
    while True:
        unplaced = entry.unplaced(skip=i)
        rest_by = None if entry.rest in (None, i) else entry.names[entry.rest]
        if unplaced and rest_by is not None:  # what this line leaves goes to that player
            _say(lang, "prompt.unassigned_rest", cards=cards_text(unplaced, lang), name=rest_by)
        elif unplaced:
            _say(lang, "prompt.unassigned", cards=cards_text(unplaced, lang))
        else:
            _say(lang, "prompt.all_placed")
        hint = say("prompt.blank" if rest_by is not None else "prompt.rest", lang)
        default = say("prompt.rest_word", lang) if entry.rest == i else lines.texts[i]
        text = _answer(f"{say('prompt.captured', lang, name=name)}{hint}", default)
        if text.lower() in REST_WORDS:
            taker = entry.give_rest(i)
            if taker is not None:
                _say(lang, "prompt.error", error=say("prompt.rest_taken", lang, name=taker))
                continue
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
            shown = cards_text((card,), lang)
            if holder == name:  # typed twice on this very line, not taken by anyone else
                key = "prompt.typed_twice" if entry.decks == 1 else "prompt.typed_twice.two"
                _say(lang, key, card=shown, name=name, count=cards.count(card))
            else:
                _say(lang, "prompt.taken", card=shown, holder=holder, name=name)
            continue
        lines.texts[i] = text
        return


def _answer(question: str, default: str) -> str:
    """One line typed at a prompt, with any default shown.

    ``-`` or ``none`` (无) is the empty answer.
    """
    text = _prompt(question, default=default, show_default=bool(default)).strip()
    return "" if text.lower() in NONE_WORDS else text


def _prompt(question: str, **options: object) -> str:
    """A line read at the prompt.

    Standard input refusing the read (open for writing only) is an error naming it, not a write
    that failed.
    """
    try:
        return str(typer.prompt(question, err=True, **options))  # type: ignore[arg-type]
    except OSError as e:
        refused = error(InputError, "error.file.unreadable", why=e.strerror or str(e))
        raise refused.within("<stdin>") from None


def _ask_shown(lines: _Lines, first: bool, lang: str) -> None:
    """The exposures (or 首明): ``NAME=CARDS`` parts joined by ``;``."""
    entry, line = lines.entry, FIRST_EXPOSED if first else EXPOSED
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


def _ask_first_pig(lines: _Lines, ledger: Ledger, hand: Hand, lang: str) -> None:
    """Who took ``hand``'s first pig, when two players each took one.

    The name is checked by the match; anything else is asked again, the error shown.
    """
    takers = pig_takers(hand)
    while True:
        question = say("prompt.first_pig", lang, takers=join(takers, lang, "or"))
        said = lines.texts[FIRST_PIG]  # the default, while it is still one of them
        text = _answer(question, said if said in takers else "").strip()
        try:
            ledger.first_pig_for(hand, text or None)
        except GongzhuError as e:
            _say(lang, "prompt.error", error=e)
            continue
        lines.entry.first_pig, lines.texts[FIRST_PIG] = text, text
        lines.first_pig_asked = True
        return


def _auto_text(auto: AutoPlayed | None, lang: str) -> str:
    """The 托管 line as shown: the name, and the last card where only it was left."""
    if auto is None:
        return ""
    return say("prompt.auto_last_value", lang, name=auto.name) if auto.last_card else auto.name


def _ask_auto_played(lines: _Lines, ledger: Ledger, lang: str) -> None:
    """Who the system played for after a disconnect (托管), if anyone, and whether only the last
    card was left then; a name not of the match is asked again, the error shown."""
    auto: AutoPlayed | None = None
    while True:
        said = lines.auto_played.name if lines.auto_played is not None else ""
        text = _answer(say("prompt.auto_played", lang), said)
        try:
            auto = ledger.check_auto_played(AutoPlayed(text) if text else None)
        except GongzhuError as e:
            _say(lang, "prompt.error", error=e)
            continue
        break
    if auto is not None:
        was = lines.auto_played is not None and lines.auto_played.last_card
        question = f"{say('prompt.last_card', lang, name=auto.name)} [y/n]"
        while (answer := _prompt(question, default="y" if was else "n").strip().lower()) not in (
            *YES,
            *NO,
        ):
            _say(lang, "prompt.yes_or_no")
        auto = AutoPlayed(auto.name, answer in YES)
    lines.auto_played, lines.texts[AUTO_PLAYED] = auto, _auto_text(auto, lang)


def _choose(lines: _Lines, shown: Sequence[int], number: int | None, lang: str) -> str:
    """y, n, or the number of a line; anything else is asked again.

    ``shown`` is which lines, in order.
    """
    typer.echo("", err=True)
    entry, nothing = lines.entry, say("prompt.nothing", lang)
    what = [*entry.names, say("exposed", lang), "首明", say("prompt.first_pig_line", lang),
            say("prompt.auto_played_line", lang)]  # fmt: skip
    count = len(shown)
    for k, line in enumerate(shown, 1):
        value = lines.texts[line] or nothing
        if line < EXPOSED and entry.rest == line:  # the rest, and what it came to
            came = cards_text(entry.taken_by_rest(), lang) or nothing
            word = say("prompt.rest_word", lang)
            value = say("prompt.rest_came_to", lang, word=word, cards=came)
        _say(lang, "prompt.line", number=k, what=what[line], value=value)
    question = (
        say("prompt.confirm", lang)
        if number is None
        else say("prompt.confirm_edit", lang, number=number)
    )
    while True:
        answer = _prompt(f"{question} [y/n/1-{count}]", default="y").strip()
        if answer.lower() in (*YES, *NO) or (answer.isdigit() and 1 <= int(answer) <= count):
            return answer.lower()
        _say(lang, "prompt.bad_choice", lines=count)


def ask_hand(
    ledger: Ledger,
    lang: str,
    start: LedgerEntry | None = None,
    number: int | None = None,
    first_pig: str | None = None,
    auto_played: AutoPlayed | None = None,
) -> HandSpec | None:
    """Ask a hand for ``ledger`` at the terminal; None if the table cancels.

    It returns the hand, and who took its first pig where the match asks it
    (:meth:`Ledger.asks_first_pig`).

    ``start``: a hand of the match to change (``match edit``): it is shown as it is, each line
    in the table's notation, and only the lines picked are asked (Enter keeps what a line
    holds); confirmed unchanged, nothing is changed (None). ``first_pig``: who took the first
    pig, said already (``match add --first-pig``): not asked unless the hand makes it wrong.
    ``auto_played`` (``--auto-played``): who was 托管, the line's answer to begin with; it is
    asked only where it changes a score (:meth:`Ledger.asks_auto_played`), else kept as given
    (or as the hand being changed had it).
    """
    decks = ledger.variant.decks
    lines = _Lines(HandEntry(ledger.players, decks))
    if start is not None:
        lines.entry = HandEntry.of(start.hand, decks, start.first_pig)
        lines.texts[:4] = [_notation(p.captured, lang) for p in start.hand.players]
        for line, by_name in ((EXPOSED, lines.entry.exposed),
                              (FIRST_EXPOSED, lines.entry.first_exposed)):  # fmt: skip
            lines.texts[line] = "; ".join(f"{n}={_notation(c, lang)}" for n, c in by_name.items())
        lines.texts[FIRST_PIG] = start.first_pig or ""
        lines.first_pig_asked = start.first_pig is not None  # (the ledger checked it)
    lines.auto_played = auto_played or (start.auto_played if start is not None else None)
    lines.texts[AUTO_PLAYED] = _auto_text(lines.auto_played, lang)
    if first_pig is not None:
        lines.entry.first_pig = lines.texts[FIRST_PIG] = first_pig.strip()
        lines.first_pig_asked = True
    asked = list(range(FIRST_EXPOSED + ledger.variant.first_exposure_allowed))
    if ledger.asks_auto_played():
        asked.append(AUTO_PLAYED)
    if start is None:  # a new hand: every line in turn (an edit starts at the confirmation)
        for i in range(4):
            _ask_player(lines, i, lang)
        _ask_shown(lines, False, lang)
        if FIRST_EXPOSED in asked:
            _ask_shown(lines, True, lang)
        if AUTO_PLAYED in asked:
            _ask_auto_played(lines, ledger, lang)
    while True:
        hand = lines.entry.hand()
        shown = asked
        try:
            result = ledger.score(hand)
        except MissingCardsError:
            _say(lang, "prompt.missing", cards=cards_text(lines.entry.unplaced(), lang))
        except GongzhuError as e:
            _say(lang, "prompt.refused", error=e)
        else:
            if ledger.asks_first_pig(hand):  # the hand is whole: who took the first pig?
                shown = [*asked, FIRST_PIG]
                if not lines.first_pig_asked or lines.entry.first_pig not in pig_takers(hand):
                    _ask_first_pig(lines, ledger, hand, lang)
            typer.echo(render_result(result, Format.table, lang), err=True, nl=False)
        choice = _choose(lines, shown, number, lang)
        if choice in YES:
            try:
                ledger.score(hand)
            except GongzhuError:
                continue  # not a hand yet: the table must change a line
            said = lines.entry.first_pig if FIRST_PIG in shown else None
            auto = lines.auto_played
            if (start is not None and _held(hand) == _held(start.hand)
                    and said == start.first_pig and auto == start.auto_played):  # fmt: skip
                _say(lang, "prompt.cancelled")  # confirmed as it was: the ledger stays as it is
                return None
            return HandSpec(hand, first_pig=said, auto_played=auto)
        if choice in NO:
            _say(lang, "prompt.cancelled")
            return None
        line = shown[int(choice) - 1]
        if line < EXPOSED:
            _ask_player(lines, line, lang)
        elif line == FIRST_PIG:
            _ask_first_pig(lines, ledger, hand, lang)
        elif line == AUTO_PLAYED:
            _ask_auto_played(lines, ledger, lang)
        else:
            _ask_shown(lines, line == FIRST_EXPOSED, lang)
