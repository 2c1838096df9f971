"""Changing a match, one use case a function.

Start one, add a hand, undo, remove or edit one, rename a player, change the settings, restore
the last change, read a hand back.

Each takes the ledger's file and does the whole job (every front door, the command line or the
table's page, calls the same function and renders what it returns): the change is made under the
ledger's lock, written atomically and recorded in its history (:mod:`.storage`), or refused with
the ledger as it was. What each change is called in the history is decided here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from ..core.auto_play import AutoPlay, AutoPlayed
from ..core.engine import HandResult
from ..core.hand import Hand
from ..core.normalize import Normalization
from ..core.options import ScoringOptions
from ..errors import GongzhuError, LedgerError, MatchOverError
from ..io.fields import HandSpec
from ..io.variants import DEFAULT, find_variant
from ..terms import error
from .history import Change
from .ledger import (
    TOURNAMENT_HEADER,
    Ledger,
    LedgerEntry,
    check_end,
    check_last_hand,
    check_title,
    check_tournament_name,
    flow_text,
)
from .storage import change_ledger, create_ledger, read_ledger, restore_ledger

__all__ = [
    "HandAdded",
    "HandSource",
    "HandTaken",
    "SettingsChanged",
    "add_hand",
    "change_settings",
    "edit_hand",
    "new_match",
    "planned_match",
    "read_hand",
    "remove_hand",
    "rename_player",
    "restore_match",
    "split_names",
    "undo_hand",
]

HandSource = Hand | HandSpec | Callable[[Ledger], Hand | HandSpec]
"""The hand to add: a :class:`Hand`, or a function of the ledger that reads it (under the
ledger's lock, with the match's rules: their decks say what 全红 stands for). Either may be a
:class:`HandSpec` instead, whose ``first_pig`` (a trick record shows who took the first pig)
is who took the first pig and whose ``auto_played`` who was 托管, where the call does not say
it; of the rest of it only the hand is used."""


@dataclass(frozen=True)
class HandAdded:
    """A hand added or replaced: the new ledger, the hand's number, its scores."""

    ledger: Ledger
    number: int
    result: HandResult


@dataclass(frozen=True)
class HandTaken:
    """A hand taken out (undone or removed): the new ledger, its number, the hand."""

    ledger: Ledger
    number: int
    entry: LedgerEntry


@dataclass(frozen=True)
class SettingsChanged:
    """New settings: the match before and after, and each setting that moved.

    Every hand is scored again; each moved setting is text, (before, after).
    """

    before: Ledger
    after: Ledger
    changes: dict[str, tuple[str, str]]


def split_names(text: str) -> list[str]:
    """Four names as a table writes them: ``东,南,西,北`` (or with ， or 、)."""
    return text.replace("，", ",").replace("、", ",").split(",")


def new_match(
    path: str,
    players: Sequence[str] | None = None,
    *,
    like: str | None = None,
    options: ScoringOptions = ScoringOptions(),
    end_at: int | None = None,
    last_hand: int | None = None,
    auto_play: AutoPlay | str | None = None,
    tournament: str | None = None,
    title: str | None = None,
) -> Ledger:
    """Start a match in a new ledger, never over an existing file.

    It is scored as ``options`` say. ``like`` is another match's ledger whose players, rules,
    normalization and end (its end line, and its number of hands) are the start: what is given
    here wins, and a new rule set brings its own normalization method. ``last_hand`` makes it a
    盤 of that many hands (rulings §12); ``auto_play`` the 托管 regime (rulings §12.2), else
    ``like``'s; ``tournament`` the tournament it is a table of (never ``like``'s). ``title`` is
    its display name (its table), else ``like``'s; a match started from one in the same folder
    records which (``follows``), so that the way on from that one leads here.
    """
    ledger = planned_match(players, like=like, options=options, end_at=end_at,
                           last_hand=last_hand, auto_play=auto_play)  # fmt: skip
    if tournament is not None:
        ledger = replace(ledger, tournament=check_tournament_name(tournament))
    if like is not None:
        old = read_ledger(like)
        title = old.title if title is None else title
        if Path(like).resolve().parent == Path(path).resolve().parent:
            ledger = replace(ledger, follows=Path(like).name)
    if title is not None:
        ledger = replace(ledger, title=check_title(title))
    create_ledger(path, ledger)
    return ledger


def planned_match(
    players: Sequence[str] | None = None,
    *,
    like: str | None = None,
    options: ScoringOptions = ScoringOptions(),
    end_at: int | None = None,
    last_hand: int | None = None,
    auto_play: AutoPlay | str | None = None,
) -> Ledger:
    """The match :func:`new_match` would start, not written: a tournament's tables are such
    a match, its players put at each table."""
    if end_at is not None:
        check_end(end_at)
    if last_hand is not None:
        check_last_hand(last_hand)
    old = read_ledger(like) if like is not None else None
    rules = options.rules
    chosen = rules if rules is not None else (old.variant if old is not None else None)
    same = rules is None or (old is not None and rules == old.variant)
    base = old.normalization if old is not None else None
    variant = chosen if chosen is not None else find_variant(DEFAULT)
    norm = options.after(base, variant, same_rules=same)
    names = list(players) if players is not None else (list(old.players) if old else [])
    end = end_at if end_at is not None else (old.end_at if old is not None else None)
    last = last_hand if last_hand is not None else (old.last_hand if old is not None else None)
    regime = auto_play
    if regime is None and old is not None and old.normalization.teams is norm.teams:
        regime = old.auto_play  # (not into other teams, where island may not stand)
    return Ledger.new(names, variant, norm, end, last, regime)


HandChange = Callable[[Ledger, Hand, str | None, AutoPlayed | None], tuple[Ledger, HandResult]]
"""A change of a hand: the ledger, the hand, who took its first pig, who was 托管."""


def _reading(
    path: str,
    hand: HandSource,
    first_pig: str | None,
    auto_played: AutoPlayed | None,
    change: HandChange,
    source: str | None,
) -> Callable[[Ledger], tuple[Ledger, HandResult]]:
    """``change`` with the hand read for it, who took the first pig and who was 托管.

    Each is as given, or the spec's. A refusal names the ledger when the match is
    over, else the file the hand came from (``source``; the hand's own reading errors name it
    already).
    """

    def run(ledger: Ledger) -> tuple[Ledger, HandResult]:
        given = hand(ledger) if callable(hand) else hand
        try:
            cards, first = _first_pig(given, first_pig)
            auto = auto_played
            if auto is None and isinstance(given, HandSpec):
                auto = given.auto_played
            return change(ledger, cards, first, auto)
        except MatchOverError as e:
            raise e.within(path) from None
        except GongzhuError as e:
            raise e if source is None else e.within(source) from None

    return run


def _first_pig(given: Hand | HandSpec, first_pig: str | None) -> tuple[Hand, str | None]:
    """The hand, and who took the first pig: ``first_pig`` or the spec's.

    A record shows it; both given and different is refused.
    """
    if not isinstance(given, HandSpec):
        return given, first_pig
    said = given.first_pig
    if said is not None and first_pig is not None and said.strip() != first_pig.strip():
        raise error(LedgerError, "error.ledger.first_pig_differs", said=repr(said),
                    given=repr(first_pig.strip()))  # fmt: skip
    return given.hand, first_pig if first_pig is not None else said


def add_hand(
    path: str,
    hand: HandSource,
    *,
    partial: bool = False,
    source: str | None = None,
    first_pig: str | None = None,
    entered: datetime | None = None,
    note: str | None = None,
    auto_played: AutoPlayed | None = None,
    expect: str | None = None,
) -> HandAdded:
    """Score a hand under the match's rules and add it.

    A ledger whose stored numbers its cards no longer give (edited by hand) is refused. One as
    this tool wrote it is read only as far as adding needs (its header and last hand), however
    long it is. ``first_pig`` is who took the first pig, needed with two decks under
    ``first_lead: pig`` when two players took one (:meth:`Ledger.first_pig_for`); a
    :class:`HandSpec` may carry it instead. ``entered`` is when the hand is entered (the
    caller's clock: a time with its UTC offset); ``note`` a note kept with it
    (:func:`~.ledger.check_note`); ``auto_played`` who the system played for (托管, partner
    play: :meth:`Ledger.check_auto_played`).

    ``expect`` (every change here takes it): the ledger's version as the caller last saw it
    (:func:`~.storage.read_version`); the change is refused
    (:class:`~gongzhu_score.errors.ChangedMeanwhileError`) if another change came first, so that
    two phones confirming the same hand at once add it once.
    """

    def add(
        ledger: Ledger, cards: Hand, first: str | None, auto: AutoPlayed | None
    ) -> tuple[Ledger, HandResult]:
        return ledger.add(cards, partial=partial, first_pig=first, entered=entered, note=note,
                          auto_played=auto)  # fmt: skip

    ledger, result = change_ledger(
        path,
        _reading(path, hand, first_pig, auto_played, add, source),
        lambda before, after, _: ("add", {"hand": after.count}),
        check_first=True,
        last_hand_only=True,
        expect=expect,
    )
    return HandAdded(ledger, ledger.count, result)


def edit_hand(
    path: str,
    number: int,
    hand: HandSource,
    *,
    partial: bool = False,
    source: str | None = None,
    first_pig: str | None = None,
    note: str | None = None,
    auto_played: AutoPlayed | None = None,
    expect: str | None = None,
) -> HandAdded:
    """Replace hand ``number`` and score every total after it again.

    ``first_pig`` and ``auto_played`` are as for :func:`add_hand`: said again where needed.
    When the hand was entered is kept, and its note unless ``note`` is given (``""`` removes
    it).
    """

    def edit(
        ledger: Ledger, cards: Hand, first: str | None, auto: AutoPlayed | None
    ) -> tuple[Ledger, HandResult]:
        return ledger.edit(number, cards, partial=partial, first_pig=first, note=note,
                           auto_played=auto)  # fmt: skip

    ledger, result = change_ledger(
        path,
        _reading(path, hand, first_pig, auto_played, edit, source),
        lambda before, after, _: ("edit", {"hand": number}),
        expect=expect,
    )
    return HandAdded(ledger, number, result)


def undo_hand(path: str, *, expect: str | None = None) -> HandTaken:
    """Take out the last hand."""
    ledger, entry = change_ledger(
        path,
        Ledger.undo,
        lambda before, after, _: ("undo", {"hand": len(before.entries)}),
        expect=expect,
    )
    return HandTaken(ledger, len(ledger.entries) + 1, entry)


def remove_hand(path: str, number: int, *, expect: str | None = None) -> HandTaken:
    """Take out hand ``number`` (any hand) and redo the totals after it."""
    ledger, entry = change_ledger(
        path,
        lambda lg: lg.remove(number),
        lambda before, after, _: ("remove", {"hand": number}),
        expect=expect,
    )
    return HandTaken(ledger, number, entry)


def rename_player(path: str, old: str, new: str, *, expect: str | None = None) -> Ledger:
    """Rename a player everywhere in the ledger."""
    ledger, _ = change_ledger(
        path,
        lambda lg: (lg.rename(old, new), None),
        lambda before, after, _: ("rename", {"old": old, "new": new.strip()}),
        expect=expect,
    )
    return ledger


def change_settings(
    path: str,
    options: ScoringOptions = ScoringOptions(),
    *,
    end_at: int | None = None,
    last_hand: int | None = None,
    auto_play: AutoPlay | str | None = None,
) -> SettingsChanged:
    """The match under other rules, normalization, end line or number of hands, and what
    moved.

    Every hand is scored again from its cards and every total redone. Options not given stay as
    they were (the normalization method too, unless the rules change). ``last_hand`` may not be
    below the hands played; ``auto_play`` is the 托管 regime (rulings §12.2).
    """
    if end_at is not None:
        check_end(end_at)
    if last_hand is not None:
        check_last_hand(last_hand)

    def change(ledger: Ledger) -> tuple[Ledger, SettingsChanged]:
        if ledger.tournament is not None:  # (its rules are the tournament's, rulings §12.4)
            raise error(LedgerError, "error.ledger.set_table", name=ledger.tournament,
                        file=tournament_file(path, ledger.tournament)).within(path)  # fmt: skip
        norm: Normalization | None = None
        if options.given():
            base = options.rules if options.rules is not None else ledger.variant
            norm = options.after(ledger.normalization, base, same_rules=options.rules is None)
        after = ledger.with_settings(options.rules, norm, end_at, last_hand, auto_play)
        return after, SettingsChanged(ledger, after, _moved(ledger, after))

    _, changed = change_ledger(path, change, lambda b, a, c: ("set", {"changes": c.changes}))
    return changed


def tournament_file(ledger_path: str, name: str) -> str:
    """The file of tournament ``name`` beside a table's ledger, as the table's errors name it:
    ``NAME.yaml`` when it is there, else the first file there that says it is that tournament
    (each read only as far as its header), else ``NAME.yaml`` all the same."""
    folder = Path(ledger_path).parent
    usual = folder / f"{name}.yaml"
    candidates = [usual, *sorted(p for p in folder.glob("*.y*ml") if p != usual)]
    wanted = f"name: {flow_text(name)}"
    for candidate in candidates:
        try:
            with open(candidate, encoding="utf-8", errors="replace") as f:
                head = f.read(_TOURNAMENT_HEAD)
        except OSError:
            continue
        if head.startswith(TOURNAMENT_HEADER) and wanted in head.splitlines():
            return str(candidate)
    return str(usual)


_TOURNAMENT_HEAD = 2_048
"""How much of a file is read to tell whether it is a given tournament's: its header lines."""


def _moved(before: Ledger, after: Ledger) -> dict[str, tuple[str, str]]:
    def shown(ledger: Ledger) -> dict[str, str]:
        n = ledger.normalization
        return {
            "variant": ledger.variant.name,
            "normalize": n.method.value,
            "scale": str(n.scale),
            "rounding": n.rounding.value,
            "teams": n.teams.value,
            "end_at": str(ledger.end_at),
            "last_hand": "none" if ledger.last_hand is None else str(ledger.last_hand),
            "auto_play": ledger.auto_play.value,
        }

    old, new = shown(before), shown(after)
    if before.variant != after.variant and old["variant"] == new["variant"]:
        new["variant"] += " (house rules)"
    return {key: (old[key], new[key]) for key in old if old[key] != new[key]}


def restore_match(path: str) -> tuple[Ledger, Change]:
    """Bring back the ledger as it was before its last change; return that change."""
    return restore_ledger(path)


def read_hand(path: str, number: int) -> tuple[Ledger, LedgerEntry, HandResult]:
    """Hand ``number`` of a match, scored again under the match's rules.

    This is ``match show N`` and ``explain LEDGER N``: the ledger, the stored hand, and its
    result with every step.
    """
    ledger = read_ledger(path)
    ledger.check_number(number)
    entry = ledger.entry(number)
    return ledger, entry, ledger.score(entry.hand, partial=entry.partial)
