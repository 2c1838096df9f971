"""A match (比赛/一盘) as a ledger: hands, scores, running totals, the end (§8).

Pure: a :class:`Ledger` is an immutable value; adding, undoing, editing and renaming return a
new ledger. Reading and writing files is :mod:`.storage`'s job. The text form
(:meth:`Ledger.to_text`) is YAML a person can read, written the same way every time.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from fractions import Fraction
from typing import Any

from ..core.auto_play import AutoPlay, AutoPlayed, auto_played_finals
from ..core.cards import PIG, Card
from ..core.engine import HandResult, compiled_rules
from ..core.hand import Hand, PlayerHand, check_name, four_different
from ..core.normalize import Normalization, Teams
from ..core.variant import Variant
from ..errors import (
    FirstPigError,
    GongzhuError,
    LedgerError,
    MatchOverError,
    NotALedgerError,
    PlayersError,
)
from ..io.handfile import hand_from_data
from ..io.variants import DEFAULT, VARIANTS, find_variant
from ..play.state import rotation_leader
from ..terms import Listed, Names, Said, error, place, printable, unsafe_character
from .order import Order, match_order

__all__ = [
    "FORMAT",
    "SETTINGS",
    "Ledger",
    "LedgerEntry",
    "MatchStatus",
    "Standing",
    "check_auto_play",
    "check_end",
    "check_follows",
    "check_last_hand",
    "check_title",
    "is_whole",
    "pig_takers",
]

FORMAT = 1
"""The ledger format version written in every file (``format: 1``)."""
SETTINGS = ("variant", "rules", "normalize", "scale", "rounding", "teams", "end_at",
            "last_hand", "auto_play")  # fmt: skip
"""The header's keys that say how the match is played (:meth:`Ledger.settings_data`): a
tournament's ``table:`` holds these and no others."""

Number = int | Fraction


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One hand of the match: its input, scores, and running totals."""

    hand: Hand
    """The hand as entered, in the ledger's seat order."""
    partial: bool
    raw: tuple[int, ...]
    final: tuple[Number, ...]
    total_raw: tuple[int, ...]
    total_final: tuple[Number, ...]
    marks: tuple[tuple[str, ...], ...]
    """Each player's markers (``full_red``, ``grand_slam``, ``transformer_x2``, …)."""
    first_pig: str | None = None
    """Two decks: who took the first pig (Q♠) of the hand, when two players took one each and
    it was said (``match add --first-pig``, a trick record, the prompts); None when it is
    implied (one player took every pig) or not known (a ledger written before it was asked)."""
    entered: str | None = None
    """When the hand was entered (``match add``): ISO 8601 with its UTC offset, to the second
    (``2026-11-30T21:05:00+08:00``); None in a ledger written before it was kept. An edit
    keeps it: the hand was played then."""
    note: str | None = None
    """A note kept with the hand (``match add --note``), one line of at most
    :data:`MAX_NOTE` characters; None when there is none."""
    auto_played: AutoPlayed | None = None
    """Who the system played for after a disconnect (托管, ``match add --auto-played``), in
    partner play; None when nobody was (and in every ledger written before it was kept)."""

    @property
    def pig_takers(self) -> tuple[str, ...]:
        """Who captured a pig, in seat order; two decks: maybe two players."""
        return pig_takers(self.hand)

    @property
    def pig_leaders(self) -> tuple[str, ...]:
        """Who leads the next hand under ``first_lead: pig`` (rulings §10).

        The rule is "上一局第一个得到猪牌的一方". That is ``(first_pig,)`` when it is recorded,
        else the pig takers: one player (who took the pig, or both pigs); two when the ledger
        does not know which pig was taken first; none in a partial tally with no pig.
        """
        return (self.first_pig,) if self.first_pig is not None else self.pig_takers


@dataclass(frozen=True, slots=True)
class MatchStatus:
    """Where the match stands (rulings §8)."""

    ended: bool
    ended_after: int | None
    """The hand after which the match ended (1-based), or None while in play."""
    loser: str | None
    """当猪: the last of the match's order (a side "东+西" with partners); None in play or in
    a draw."""
    winner: str | None
    """The first of the match's order; None in play or in a draw."""
    loser_side: tuple[str, ...]
    winner_side: tuple[str, ...]
    next_lead: tuple[str, ...]
    """Who leads the next hand: by rotation, the next seat; else the last hand's
    :attr:`~LedgerEntry.pig_leaders`; empty before hand 1 (the opening card's holder)."""
    draw: bool = False
    """The match ended with everyone (both sides) level on the deciding total and on the last
    hand: no pig, no winner (rulings §8)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """How far each player is from the end line after a hand (rulings §8).

    It holds the totals the end is decided on, and what each player may still move before
    reaching it.
    """

    decided_on: str
    """``raw`` (individual play: a raw total at or below the end line) or ``final`` (team
    play: a final total reaching the end line or its opposite)."""
    totals: tuple[Number, ...]
    """The deciding totals, in seat order (all 0 before the first hand)."""
    to_go: tuple[Number, ...]
    """Per player, the points between their total and the end line: individual play, what
    they may still lose (total − end); team play, what their total may still move either way
    (|end| − |total|). 0 or less: at or past the end line, and the match is over."""

    @property
    def past(self) -> tuple[int, ...]:
        """The seats (0-based) at or past the end line."""
        return tuple(i for i, left in enumerate(self.to_go) if left <= 0)


@dataclass(frozen=True, slots=True)
class Ledger:
    """A match: players in seat order, rules, end threshold, hands so far."""

    players: tuple[str, ...]
    variant: Variant
    normalization: Normalization
    end_at: int
    entries: tuple[LedgerEntry, ...] = ()
    skipped: int = 0
    """Hands before ``entries[0]`` that were not read: a ledger read only to add a hand holds
    just its last one (:func:`gongzhu_score.match.storage.change_ledger`), which is all adding
    needs. Every other change needs them all."""
    last_hand: int | None = None
    """A 盤 of a fixed number of hands (計副製, rulings §12): the match ends after this hand,
    or at the end line if that comes first; None: at the end line alone."""
    auto_play: AutoPlay = AutoPlay.TOURNAMENT
    """How a hand with a player auto-played (托管) is scored: as usual (tournament, 錦標賽)
    or with the side's loss on that player (island, 島嶼; partner play only, rulings §12.2)."""
    tournament: str | None = None
    """The tournament this match is a table of (``tournament round`` sets it, rulings §12.3),
    by the tournament's name; None for a match of its own."""
    title: str | None = None
    """The match's display name, its table as the players call it (桌名: 一号桌, 老王家), kept
    only when given; the phones show it instead of the file's name."""
    follows: str | None = None
    """The file name of the match this one was started from (再来一盘, ``match new --like`` in
    the same folder): a finished match's way on leads only to it."""

    @property
    def count(self) -> int:
        """The number of hands played."""
        return self.skipped + len(self.entries)

    def entry(self, number: int) -> LedgerEntry:
        """Hand ``number`` (1-based)."""
        if number <= self.skipped:
            raise ValueError(f"hand {number} was not read (only the last hands were)")
        return self.entries[number - 1 - self.skipped]

    def _whole(self) -> None:
        if self.skipped:  # a programming error, not bad input: only `add` reads a tail
            raise ValueError("this change needs every hand of the ledger, not only the last")

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        variant: Variant | str = DEFAULT,
        normalization: Normalization | None = None,
        end_at: int | None = None,
        last_hand: int | None = None,
        auto_play: AutoPlay | str | None = None,
    ) -> Ledger:
        rules = find_variant(variant)
        names = tuple(n.strip() for n in players)
        if len(names) != 4 or any(not n for n in names) or not four_different(*names):
            raise error(PlayersError, "error.ledger.players", players=repr(",".join(players)))
        for name in names:
            try:
                check_name(name)
            except GongzhuError as e:
                raise e.recast(PlayersError) from None
        norm = normalization or Normalization(rules.normalize)
        threshold = rules.match_end if end_at is None else end_at
        check_end(threshold)
        if last_hand is not None:
            check_last_hand(last_hand)
        regime = check_auto_play(auto_play, norm)
        return cls(names, rules, norm, threshold, last_hand=last_hand, auto_play=regime)

    # --- the match, hand by hand ----------------------------------------------------------

    def score(self, hand: Hand, *, partial: bool = False) -> HandResult:
        """Score ``hand`` under the ledger's rules, in the ledger's seat order."""
        return compiled_rules(self.rules).score(self._seated(hand), self.normalization, partial)

    def _seated(self, hand: Hand) -> Hand:
        by_name = {p.name: p for p in hand.players}
        for p in hand.players:
            if p.name not in self.players:
                raise error(LedgerError, "error.ledger.not_player", name=repr(p.name),
                            players=Listed(self.players))  # fmt: skip
        if len(by_name) != len(hand.players):
            raise error(LedgerError, "error.ledger.twice")
        missing = [n for n in self.players if n not in by_name]
        if missing:
            raise error(LedgerError, "error.ledger.no_cards", names=Names(missing))
        return Hand(tuple(by_name[n] for n in self.players))

    def _entry(
        self,
        result: HandResult,
        hand: Hand,
        before: LedgerEntry | None,
        first_pig: str | None = None,
        entered: str | None = None,
        note: str | None = None,
        auto_played: AutoPlayed | None = None,
    ) -> LedgerEntry:
        raw, final = result.raws, self.auto_played_finals(result.finals, auto_played)
        total_raw = raw if before is None else _add(before.total_raw, raw)
        total_final = final if before is None else _add(before.total_final, final)
        marks = tuple(p.markers for p in result.players)
        return LedgerEntry(hand, result.partial, raw, final, total_raw, total_final, marks,
                           first_pig, entered, note, auto_played)  # fmt: skip

    # --- a player auto-played after a disconnect (托管, rulings §12.2) -------------------------

    def auto_played_finals(
        self, finals: tuple[Number, ...], auto_played: AutoPlayed | None
    ) -> tuple[Number, ...]:
        """A hand's finals in this match once its 托管 is counted (unchanged but for a losing
        side's auto-played player under the island regime, in partner play)."""
        if auto_played is None or self.normalization.teams is not Teams.PARTNERS:
            return finals
        seat = self.players.index(auto_played.name)
        moved = auto_played_finals(finals, seat, self.auto_play, auto_played.last_card)
        return finals if moved is None else moved

    def asks_auto_played(self) -> bool:
        """Whether a hand's entry asks who was auto-played: in a partners match under the island
        regime, the only one where it changes a score."""
        return self.normalization.teams is Teams.PARTNERS and self.auto_play is AutoPlay.ISLAND

    def check_auto_played(self, auto_played: AutoPlayed | None) -> AutoPlayed | None:
        """``auto_played`` as a hand of this match keeps it: a player of the match, in partner
        play (individual play scores 托管 as usual and does not record it)."""
        if auto_played is None:
            return None
        name = auto_played.name.strip() if isinstance(auto_played.name, str) else ""
        if name not in self.players:
            raise error(LedgerError, "error.ledger.not_player", name=repr(auto_played.name),
                        players=Listed(self.players))  # fmt: skip
        if self.normalization.teams is not Teams.PARTNERS:
            raise error(LedgerError, "error.ledger.auto_played_partners",
                        teams=self.normalization.teams.value)  # fmt: skip
        return AutoPlayed(name, bool(auto_played.last_card))

    # --- who took the first pig (two decks, rulings §10) ------------------------------------

    def asks_first_pig(self, hand: Hand) -> bool:
        """Whether an entry of ``hand`` must say who took the first pig.

        It must under ``first_lead: pig`` (who took it leads the next hand), when two different
        players took a pig (two decks). Under any other rule it decides nothing, so it is not
        asked.
        """
        return self.first_lead == "pig" and len(pig_takers(hand)) > 1

    def first_pig_for(self, hand: Hand, first_pig: str | None = None) -> str | None:
        """What an entry of ``hand`` stores as who took the first pig.

        ``first_pig`` is what was said (None: nothing). Said, it must be a player who captured a
        pig in ``hand``; it is stored only when two different players took one (one player
        taking every pig implies it: None). Not said, it is refused where :meth:`asks_first_pig`
        (a :class:`FirstPigError` naming the takers), else None.
        """
        takers = pig_takers(hand)
        if first_pig is not None:
            if not isinstance(first_pig, str):
                check_name(first_pig)  # (a player's name is text: the error says so)
            name = first_pig.strip()
            if name not in takers:
                raise _took_no_pig(name, takers)
            return name if len(takers) > 1 else None
        if self.asks_first_pig(hand):
            refused = error(FirstPigError, "error.ledger.first_pig", takers=Names(takers))
            refused.takers = takers
            raise refused
        return None

    def add(
        self,
        hand: Hand,
        *,
        partial: bool = False,
        first_pig: str | None = None,
        entered: datetime | None = None,
        note: str | None = None,
        auto_played: AutoPlayed | None = None,
    ) -> tuple[Ledger, HandResult]:
        """The ledger with ``hand`` appended; refused once the match has ended.

        ``first_pig`` is who took the first pig, where two players took one
        (:meth:`first_pig_for`); ``entered`` when it was entered (a time with its UTC offset,
        from the caller's clock); ``note`` a note kept with it (:func:`check_note`);
        ``auto_played`` who was 托管 (:meth:`check_auto_played`). The result is the hand's score
        under the rules; the entry's finals count 托管 too.

        Only the last hand is looked at: no hand follows the one that ends a match (every change
        keeps it so, and ``verify`` reports a ledger edited otherwise), so the match has ended
        exactly when its last hand ended it. Adding costs the same at hand 10,000 as at hand 1
        (but for copying the tuple of hands).
        """
        self.check_open()
        last = self.entries[-1] if self.entries else None
        when = entered_text(entered) if entered is not None else None
        kept = check_note(note)
        auto = self.check_auto_played(auto_played)
        seated = self._seated(hand)
        result = self.score(seated, partial=partial)
        first = self.first_pig_for(seated, first_pig)
        entry = self._entry(result, seated, last, first, when, kept, auto)
        return replace(self, entries=(*self.entries, entry)), result

    def check_open(self) -> None:
        """Refuse (:class:`MatchOverError`, naming the pig) once the match has ended: its last
        hand ended it (rulings §8, §12.1)."""
        last = self.entries[-1] if self.entries else None
        if last is not None and self._ended_at(last, self.count):
            status = self.status()
            if status.draw:
                raise error(MatchOverError, "error.ledger.over_draw", hand=status.ended_after)
            raise error(
                MatchOverError, "error.ledger.over", hand=status.ended_after, loser=status.loser
            )

    def undo(self) -> tuple[Ledger, LedgerEntry]:
        """The ledger without its last hand, and that hand."""
        self._whole()
        if not self.entries:
            raise error(LedgerError, "error.ledger.nothing_to_undo")
        return replace(self, entries=self.entries[:-1]), self.entries[-1]

    def remove(self, number: int) -> tuple[Ledger, LedgerEntry]:
        """The ledger without hand ``number`` (1-based), later totals redone."""
        self._whole()
        self.check_number(number)
        entries = list(self.entries[: number - 1])
        for later in self.entries[number:]:
            entries.append(_retotal(later, entries[-1] if entries else None))
        return self._consistent(replace(self, entries=tuple(entries))), self.entries[number - 1]

    def with_settings(
        self,
        variant: Variant | None = None,
        normalization: Normalization | None = None,
        end_at: int | None = None,
        last_hand: int | None = None,
        auto_play: AutoPlay | str | None = None,
    ) -> Ledger:
        """The match under other rules, normalization or end, every hand rescored.

        ``last_hand`` makes it a 盤 of that many hands; it may not be below the hands played.
        ``auto_play`` is the 托管 regime (rulings §12.2).
        """
        self._whole()
        if end_at is not None:
            check_end(end_at)
        if last_hand is not None:
            check_last_hand(last_hand)
            if last_hand < self.count:
                raise error(LedgerError, "error.ledger.hands_below", hands=last_hand,
                            count=self.count)  # fmt: skip
        norm = normalization or self.normalization
        regime = check_auto_play(self.auto_play if auto_play is None else auto_play, norm)
        changed = replace(
            self,
            variant=variant or self.variant,
            normalization=norm,
            end_at=self.end_at if end_at is None else end_at,
            last_hand=self.last_hand if last_hand is None else last_hand,
            auto_play=regime,
            entries=(),
        )
        entries: list[LedgerEntry] = []
        for number, e in enumerate(self.entries, 1):
            try:
                result = changed.score(e.hand, partial=e.partial)
            except GongzhuError as problem:
                raise error(
                    LedgerError, "error.ledger.rescore", number=number, error=problem
                ) from None
            before = entries[-1] if entries else None
            entries.append(changed._entry(result, e.hand, before, e.first_pig, e.entered, e.note,
                                          e.auto_played))  # fmt: skip
        return changed._consistent(replace(changed, entries=tuple(entries)))

    def check_number(self, number: int) -> None:
        self._whole()
        if not 1 <= number <= len(self.entries):
            if not self.entries:
                raise error(LedgerError, "error.ledger.no_hands", number=number)
            if len(self.entries) == 1:
                raise error(LedgerError, "error.ledger.only_hand", number=number)
            raise error(LedgerError, "error.ledger.no_hand", number=number, count=len(self.entries))

    def _consistent(self, changed: Ledger) -> Ledger:
        """``changed``, unless it would end before hands past the end (rulings §8)."""
        end = changed.status().ended_after
        if end is not None and end < len(changed.entries):
            count = len(changed.entries)
            if end + 1 == count:  # one hand follows: not said as a range
                raise error(LedgerError, "error.ledger.ends_before_one", end=end, next=count)
            raise error(LedgerError, "error.ledger.ends_before", end=end, next=end + 1,
                        count=count)  # fmt: skip
        return changed

    def edit(
        self,
        number: int,
        hand: Hand,
        *,
        partial: bool = False,
        first_pig: str | None = None,
        note: str | None = None,
        auto_played: AutoPlayed | None = None,
    ) -> tuple[Ledger, HandResult]:
        """The ledger with hand ``number`` (1-based) replaced, later totals redone.

        ``first_pig`` and ``auto_played`` are as for :meth:`add`: the hand is replaced whole, so
        they are said again where needed (the old hand's are not kept). When it was entered is
        kept (it was played then), and its note unless ``note`` is given (``""``: none).
        """
        self._whole()
        self.check_number(number)
        old = self.entry(number)
        kept = old.note if note is None else check_note(note)
        auto = self.check_auto_played(auto_played)
        seated = self._seated(hand)
        result = self.score(seated, partial=partial)
        first = self.first_pig_for(seated, first_pig)
        entries = list(self.entries[: number - 1])
        before = entries[-1] if entries else None
        entries.append(self._entry(result, seated, before, first, old.entered, kept, auto))
        for later in self.entries[number:]:
            entries.append(_retotal(later, entries[-1]))
        return self._consistent(replace(self, entries=tuple(entries))), result

    def rename(self, old: str, new: str) -> Ledger:
        self._whole()
        if self.tournament is not None:  # (its players are the tournament's registered names)
            raise error(LedgerError, "error.ledger.rename_table", name=self.tournament)
        new = new.strip()
        if old not in self.players:
            raise error(LedgerError, "error.hand.unknown_player", name=repr(old),
                        players=Listed(self.players))  # fmt: skip
        if not new or new in self.players:
            raise error(LedgerError, "error.ledger.rename", old=repr(old), new=repr(new))
        try:
            check_name(new)
        except GongzhuError as e:
            raise e.recast(LedgerError) from None

        def swap(name: str) -> str:
            return new if name == old else name

        entries = tuple(
            replace(
                e,
                hand=Hand(tuple(replace(p, name=swap(p.name)) for p in e.hand.players)),
                first_pig=None if e.first_pig is None else swap(e.first_pig),
                auto_played=None
                if e.auto_played is None
                else replace(e.auto_played, name=swap(e.auto_played.name)),
            )
            for e in self.entries
        )
        return replace(self, players=tuple(swap(n) for n in self.players), entries=entries)

    # --- the end of the match (rulings §8) --------------------------------------------------

    @property
    def team_play(self) -> bool:
        return self.normalization.teams is not Teams.NONE

    @property
    def partners(self) -> bool:
        """打对家: seats 1 and 3 against 2 and 4, ranked as sides (rulings §7.1, §8)."""
        return self.normalization.teams is Teams.PARTNERS

    def _to_go(self, entry: LedgerEntry | None) -> tuple[Number, ...]:
        """Each player's distance to the end line after ``entry``.

        ``entry`` None is before hand 1.
        """
        end = self.end_at
        if self.team_play:  # a cumulative final total reaches ±threshold
            finals = entry.total_final if entry else (0,) * len(self.players)
            return tuple(abs(end) - abs(Fraction(t)) for t in finals)
        raws = entry.total_raw if entry else (0,) * len(self.players)
        return tuple(t - end for t in raws)  # a cumulative raw total at or below

    def _ended_at(self, entry: LedgerEntry, number: int) -> bool:
        """Whether the match ended with ``entry``, hand ``number``: its last hand, or a total
        at or past the end line."""
        if self.last_hand is not None and number >= self.last_hand:
            return True
        return any(left <= 0 for left in self._to_go(entry))

    def standing(self) -> Standing:
        """Where the players stand against the end line now (rulings §8)."""
        last = self.entries[-1] if self.entries else None
        to_go = tuple(_whole(t) for t in self._to_go(last))
        if self.team_play:
            totals = last.total_final if last else (0,) * len(self.players)
            return Standing("final", tuple(_whole(t) for t in totals), to_go)
        return Standing("raw", last.total_raw if last else (0,) * len(self.players), to_go)

    @property
    def first_lead(self) -> str:
        """The match's first-lead rule (首引, rulings §10).

        It is ``holder``, ``pig`` or ``rotation``: the rule set's, except at a tournament's table
        under a built-in rule set, which leads by rotation as a formal competition does (seed
        001's 固定首引人, rulings §12.4); a house-rules file's own rule stands.
        """
        if self.tournament is not None and VARIANTS.get(self.variant.name) == self.variant:
            return "rotation"
        return self.variant.first_lead_for(self.normalization.teams)

    @property
    def rules(self) -> Variant:
        """The rules its hands are scored and judged by: :attr:`variant`, with the match's own
        first lead (:attr:`first_lead`)."""
        lead = self.first_lead
        if lead == self.variant.first_lead_for(self.normalization.teams):
            return self.variant
        return _leading_by(self.variant, lead)

    def next_lead(self) -> tuple[str, ...]:
        """Who leads the next hand, as far as the ledger knows.

        By rotation, the seat after the last hand's number. Otherwise the last hand's
        :attr:`~LedgerEntry.pig_leaders`: who took the first pig, or whoever captured a pig (two
        decks: both takers, when who was first is not recorded). None before the first hand, and
        under ``first_lead: holder`` (the opening card's holder, whom the ledger does not know).
        """
        if self.first_lead == "rotation":
            return (rotation_leader(self.players, self.count + 1),)
        if self.first_lead == "holder":
            return ()
        return self.entries[-1].pig_leaders if self.entries else ()

    def ranking(self) -> tuple[int, ...]:
        """The seats (0-based) from first to last: the match's one order (rulings §8).

        Every list of the players by standing reads it; the winner is its first and the pig its
        last. It is taken after the hand that ended the match, else after the last hand.
        """
        return self.order().seats

    def order(self) -> Order:
        """The match's order (:func:`.order.match_order`), with its two ends or a draw."""
        ended_after = self._ended_after()
        if ended_after is not None:
            entry: LedgerEntry | None = self.entry(ended_after)
        else:
            entry = self.entries[-1] if self.entries else None
        zeros = (0,) * len(self.players)
        if entry is None:
            return match_order(zeros, zeros, self.partners)
        totals: Sequence[Number] = entry.total_final if self.team_play else entry.total_raw
        return match_order(totals, entry.final, self.partners)

    def _ended_after(self) -> int | None:
        first = self.skipped + 1
        return next((i for i, e in enumerate(self.entries, first) if self._ended_at(e, i)), None)

    def status(self) -> MatchStatus:
        ended_after = self._ended_after()
        next_lead = self.next_lead()
        if ended_after is None:
            return MatchStatus(False, None, None, None, (), (), next_lead)
        order = self.order()
        if order.draw:
            return MatchStatus(True, ended_after, None, None, (), (), next_lead, draw=True)
        lose = tuple(self.players[i] for i in order.losers)
        win = tuple(self.players[i] for i in order.winners)
        return MatchStatus(True, ended_after, "+".join(lose), "+".join(win), lose, win, next_lead)

    # --- checking a stored ledger ------------------------------------------------------------

    def verify(self, lang: str = "en") -> list[str]:
        """Each stored number its hand no longer gives, a line each in ``lang``."""
        return [problem.text(lang) for problem in self.problems()]

    def problems(self) -> list[Said]:
        """Each stored number its hand no longer gives (:meth:`verify`)."""
        self._whole()
        problems: list[Said] = []
        before: LedgerEntry | None = None
        for number, stored in enumerate(self.entries, 1):
            try:
                result = self.score(stored.hand, partial=stored.partial)
            except GongzhuError as e:
                problems.append(place("verify.no_score", number=number, error=e))
                before = stored
                continue
            fresh = self._entry(result, stored.hand, before, auto_played=stored.auto_played)
            for label in ("raw", "final", "total_raw", "total_final", "marks"):
                want, got = getattr(fresh, label), getattr(stored, label)
                for name, w, g in zip(self.players, want, got, strict=True):
                    if w != g:
                        shown = {"stored": _show(g), "fresh": _show(w)}
                        problems.append(place("verify.differs", number=number, label=label,
                                              name=name, **shown))  # fmt: skip
            before = stored
        end = self.status().ended_after
        if end is not None and end < len(self.entries):
            count = len(self.entries)
            key = "verify.after_end_one" if end + 1 == count else "verify.after_end"
            problems.append(place(key, next=end + 1, count=count, end=end))
        return problems

    # --- text form ---------------------------------------------------------------------------

    def to_text(self) -> str:
        """The ledger as YAML: the same bytes for the same ledger."""
        self._whole()
        entries = (self.entry_text(n, e) for n, e in enumerate(self.entries, 1))
        return self.header_text() + "".join(entries)

    def settings_data(self) -> dict[str, Any]:
        """The match's rules, normalization, end and 托管 regime, as its header keeps them: a
        tournament keeps its tables' settings so (``Ledger.from_data`` reads them back)."""
        norm = self.normalization
        # A built-in variant by name; house rules in full, so verify can redo every hand.
        rules = ({"variant": self.variant.name} if VARIANTS.get(self.variant.name) == self.variant
                 else {"rules": self.variant.to_data()})  # fmt: skip
        return {
            **rules,
            "normalize": norm.method.value,
            "scale": norm.scale,
            "rounding": norm.rounding.value,
            "teams": norm.teams.value,
            "end_at": self.end_at,
            **({"last_hand": self.last_hand} if self.last_hand is not None else {}),
            **({"auto_play": self.auto_play.value} if self._island else {}),
        }

    def header_text(self) -> str:
        lines = [
            "# gongzhu-score match ledger: one entry per hand, in order.",
            "# Change it with `gongzhu-score match add/undo/edit/rename`; check it with "
            "`match verify`.",
            f"format: {FORMAT}",
            f"players: {_dump(list(self.players))}",
            *(f"{key}: {_dump(value)}" for key, value in self.settings_data().items()),
            *([f"tournament: {_dump(self.tournament)}"] if self.tournament is not None else []),
            *([f"title: {_dump(self.title)}"] if self.title is not None else []),
            *([f"follows: {_dump(self.follows)}"] if self.follows is not None else []),
            "hands:",
        ]
        return "\n".join(lines) + "\n"

    @property
    def _island(self) -> bool:
        return self.auto_play is not AutoPlay.TOURNAMENT

    def entry_text(self, number: int, e: LedgerEntry) -> str:
        """One hand's block, as :meth:`to_text` writes and ``match add`` appends it."""
        players = e.hand.players
        lines = [
            f"- hand: {number}",
            *([f"  entered: {_dump(e.entered)}"] if e.entered is not None else []),
            *([f"  note: {_dump(e.note)}"] if e.note is not None else []),
            f"  captured: {_dump(_cards_by_name(players, 'captured'))}",
            f"  exposed: {_dump(_cards_by_name(players, 'exposed', skip_empty=True))}",
            f"  first_exposed: {_dump(_cards_by_name(players, 'first_exposed', skip_empty=True))}",
            *([f"  first_pig: {_dump(e.first_pig)}"] if e.first_pig is not None else []),
            *([f"  auto_played: {_dump(e.auto_played.name)}"] if e.auto_played else []),
            *(["  last_card: true"] if e.auto_played and e.auto_played.last_card else []),
            f"  partial: {'true' if e.partial else 'false'}",
            f"  raw: {_dump(list(e.raw))}",
            f"  final: {_dump([_number(f) for f in e.final])}",
            f"  total_raw: {_dump(list(e.total_raw))}",
            f"  total_final: {_dump([_number(f) for f in e.total_final])}",
            f"  marks: {_dump(self.marks_by_name(e))}",
        ]
        return "\n".join(lines) + "\n"

    def same_match(self, other: Ledger) -> bool:
        """Same players, rules and end: only the hands may differ."""
        mine = (self.players, self.variant, self.normalization, self.end_at, self.last_hand,
                self.auto_play, self.tournament, self.title, self.follows)  # fmt: skip
        return mine == (
            other.players,
            other.variant,
            other.normalization,
            other.end_at,
            other.last_hand,
            other.auto_play,
            other.tournament,
            other.title,
            other.follows,
        )

    @classmethod
    def from_data(cls, data: object, first: int = 1) -> Ledger:
        """Build from loaded YAML, checking every field. Errors name the place.

        ``first`` is the number of the first hand given; the hands before it are not read
        (``skipped``).
        """
        if not isinstance(data, Mapping):
            raise error(NotALedgerError, "error.ledger.not_mapping")
        if "format" not in data:
            raise error(NotALedgerError, "error.ledger.no_format")
        if not is_whole(data.get("format"), FORMAT):  # (not true, nor 1.0: they equal 1)
            raise error(
                LedgerError, "error.ledger.format", expected=FORMAT, found=repr(data.get("format"))
            )
        if "tiebreak" in data or "rounds" in data:  # (a tournament has format: 1 too)
            raise error(NotALedgerError, "error.ledger.tournament_file")
        allowed = {"format", "players", *SETTINGS, "tournament", "title", "follows", "hands"}
        for key in data:
            if key not in allowed:
                raise error(LedgerError, "error.ledger.unknown_key", key=repr(key))
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(n, str) for n in players):
            raise error(LedgerError, "error.ledger.players_list")
        try:
            norm = Normalization(
                _field(data, "normalize", str),
                _field(data, "scale", int),
                _field(data, "rounding", str),
                _field(data, "teams", str),
            )
            if "rules" in data:  # house rules, stored whole
                if "variant" in data:
                    raise error(LedgerError, "error.ledger.variant_or_rules")
                rules: Variant | str = Variant.from_data(data["rules"])
            else:
                rules = _field(data, "variant", str)
            last_hand = _field(data, "last_hand", int) if "last_hand" in data else None
            regime = _field(data, "auto_play", str) if "auto_play" in data else None
            ledger = cls.new(players, rules, norm, _field(data, "end_at", int), last_hand, regime)
            if "tournament" in data:
                ledger = replace(ledger, tournament=check_tournament_name(
                    _field(data, "tournament", str)))  # fmt: skip
            if "title" in data:
                ledger = replace(ledger, title=check_title(_field(data, "title", str)))
            if "follows" in data:
                ledger = replace(ledger, follows=check_follows(_field(data, "follows", str)))
        except GongzhuError as e:
            raise e.recast(LedgerError) from None
        hands = data.get("hands") or []
        if not isinstance(hands, list):
            raise error(LedgerError, "error.ledger.hands_list")
        entries = tuple(ledger._entry_from_data(i, h) for i, h in enumerate(hands, first))
        return replace(ledger, entries=entries, skipped=first - 1)

    def _entry_from_data(self, number: int, data: object) -> LedgerEntry:
        where = f"hands[{number}]"
        if not isinstance(data, Mapping):
            raise error(LedgerError, "error.ledger.mapping").within(where)
        try:
            if not is_whole(data.get("hand"), number):
                raise error(LedgerError, "error.ledger.hand_number", number=number,
                            found=repr(data.get("hand")))  # fmt: skip
            captured = data.get("captured")
            if not isinstance(captured, Mapping):
                raise error(LedgerError, "error.ledger.by_player", label="captured")
            exposed, first = data.get("exposed") or {}, data.get("first_exposed") or {}
            for label, value in (("exposed", exposed), ("first_exposed", first)):
                if not isinstance(value, Mapping):
                    raise error(LedgerError, "error.ledger.by_player", label=label)
                for name in value:
                    if name not in captured:
                        raise error(LedgerError, "error.ledger.label_player", label=label,
                                    name=repr(name))  # fmt: skip
            spec = hand_from_data(
                {
                    "players": [
                        {"name": n, "captured": _text(c), "exposed": _text(exposed.get(n)),
                         "first_exposed": _text(first.get(n))}
                        for n, c in captured.items()
                    ]
                },
                self.variant.decks,
            )  # fmt: skip
            hand = self._seated(spec.hand)
            partial = data.get("partial", False)
            if not isinstance(partial, bool):
                raise error(LedgerError, "error.ledger.partial")
            marks_data = data.get("marks") or {}
            if not isinstance(marks_data, Mapping):
                raise error(LedgerError, "error.ledger.marks")
            marks = tuple(tuple(str(m) for m in marks_data.get(n) or ()) for n in self.players)
            first_pig = None
            if data.get("first_pig") is not None:  # (absent in ledgers written before it)
                first_pig = _field(data, "first_pig", str)
                takers = pig_takers(hand)
                if first_pig not in takers:
                    raise _took_no_pig(first_pig, takers)
            auto_played = self._auto_played_from_data(data)
            entered = None
            if data.get("entered") is not None:  # (absent in ledgers written before it)
                entered = _field(data, "entered", str)
                parse_time(entered, "entered")
            note = None
            if data.get("note") is not None:
                note = _field(data, "note", str)
                if check_note(note) != note:  # kept trimmed, never empty
                    raise error(LedgerError, "error.note.space", note=repr(note))
            return LedgerEntry(
                hand,
                partial,
                tuple(_numbers(data, "raw", whole=True)),  # type: ignore[arg-type]
                _numbers(data, "final"),
                tuple(_numbers(data, "total_raw", whole=True)),  # type: ignore[arg-type]
                _numbers(data, "total_final"),
                marks,
                first_pig,
                entered,
                note,
                auto_played,
            )
        except GongzhuError as e:
            raise e.recast(LedgerError).within(where) from None

    def _auto_played_from_data(self, data: Mapping[str, Any]) -> AutoPlayed | None:
        """A stored hand's 托管: a player of the match, ``last_card`` only beside it."""
        last_card = data.get("last_card", False)
        if not isinstance(last_card, bool):
            raise error(LedgerError, "error.ledger.kind", key="last_card", kind="bool",
                        value=repr(last_card))  # fmt: skip
        if data.get("auto_played") is None:
            if last_card:
                raise error(LedgerError, "error.ledger.last_card_alone")
            return None
        name = _field(data, "auto_played", str)
        if name not in self.players:
            raise error(LedgerError, "error.ledger.not_player", name=repr(name),
                        players=Listed(self.players))  # fmt: skip
        return AutoPlayed(name, last_card)

    def marks_by_name(self, entry: LedgerEntry) -> dict[str, list[str]]:
        return {n: list(m) for n, m in zip(self.players, entry.marks, strict=True) if m}


def pig_takers(hand: Hand) -> tuple[str, ...]:
    """Who captured a pig in ``hand``, in seat order.

    With two decks, one player or two.
    """
    return tuple(p.name for p in hand.players if PIG in p.captured)


def _took_no_pig(name: str, takers: Sequence[str]) -> LedgerError:
    """The refusal of ``name`` as the first pig's taker.

    The hand's pigs were taken by ``takers``.
    """
    if not takers:
        return error(LedgerError, "error.ledger.first_pig_nobody", name=repr(name))
    return error(LedgerError, "error.ledger.first_pig_not_taker", name=repr(name),
                 takers=Names(takers))  # fmt: skip


def _add(a: Sequence[Number], b: Sequence[Number]) -> tuple[Any, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _retotal(entry: LedgerEntry, before: LedgerEntry | None) -> LedgerEntry:
    if before is None:
        return replace(entry, total_raw=entry.raw, total_final=entry.final)
    return replace(
        entry,
        total_raw=_add(before.total_raw, entry.raw),
        total_final=_add(before.total_final, entry.final),
    )


MAX_NOTE = 200
"""The longest note a hand keeps, in characters."""


def check_note(note: object) -> str | None:
    """A hand's note as kept: trimmed text, one line; None for no note.

    It is at most :data:`MAX_NOTE` characters, with no character a terminal would act on or a
    reader take as a line break (the rule for a player's name). None, or nothing but spaces, is
    no note.
    """
    if note is None:
        return None
    if not isinstance(note, str):
        raise error(LedgerError, "error.note.not_text", value=repr(note))
    char = unsafe_character(note)
    if char is not None:
        raise error(LedgerError, "error.note.unsafe", note=repr(note), char=f"U+{ord(char):04X}")
    kept = note.strip()
    if len(kept) > MAX_NOTE:
        raise error(LedgerError, "error.note.long", most=MAX_NOTE, count=len(kept))
    return kept or None


_ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}(\d{3})?)?[+-]\d\d:\d\d")


def parse_time(text: object, what: str) -> datetime:
    """A time as a ledger keeps it: ISO 8601 with its UTC offset.

    ``2026-11-30T21:05:00+08:00``; milliseconds or microseconds allowed (the forms every Python
    reads). ``what`` names where it was given, for the error.
    """
    if isinstance(text, str) and _ISO_TIME.fullmatch(text):
        try:
            return datetime.fromisoformat(text)
        except ValueError:  # a month 13, an hour 25
            pass
    raise error(LedgerError, "error.ledger.time", what=what, value=repr(text))


def entered_text(when: datetime) -> str:
    """When a hand was entered, as kept: ISO 8601 to the second, with offset.

    A time without its UTC offset is refused: the ledger would not say when it was.
    """
    if not isinstance(when, datetime) or when.utcoffset() is None:
        raise error(LedgerError, "error.ledger.time_offset", value=repr(when))
    return when.isoformat(timespec="seconds")


def check_end(end_at: int, flag: str | None = None) -> None:
    """A match's end: a negative number a total may reach.

    The match ends at a total at or below it (team play: reaching ± it). ``flag`` is the option
    the value was given with, which the error then names.
    """
    if end_at >= 0:
        said = f"{flag} {end_at}" if flag else place("error.ledger.end_at", end=end_at)
        fix = f"{flag} {-end_at}" if flag else str(-end_at)
        hint = place("error.ledger.end_fix", value=fix) if end_at else place("error.ledger.end_eg")
        raise error(LedgerError, "error.ledger.end", said=said, hint=hint)


def check_auto_play(regime: AutoPlay | str | None, norm: Normalization) -> AutoPlay:
    """A match's 托管 regime (rulings §12.2): tournament (the default) or island, which only
    partner play has."""
    from ..core.normalize import choice

    chosen = AutoPlay.TOURNAMENT if regime is None else choice(AutoPlay, regime, "auto_play")
    if chosen is AutoPlay.ISLAND and norm.teams is not Teams.PARTNERS:
        raise error(LedgerError, "error.ledger.island_partners", teams=norm.teams.value)
    return chosen


MAX_TOURNAMENT_NAME = 60
"""The longest name a tournament may have (and at most twice as many bytes in UTF-8): it
begins each table's file name, which ``-r1000-t1000.yaml.history`` must still fit beside in
a file system's 255 bytes."""


@functools.lru_cache(maxsize=64)
def _leading_by(variant: Variant, lead: str) -> Variant:
    """``variant`` with its first lead ``lead``: one object for each, so that its compiled
    rules are made once (a tournament table scores every hand by it)."""
    return replace(variant, first_lead=lead, first_lead_with_partners=None)


MAX_TITLE = 40
"""The most characters a match's display name may have: it heads a phone's screen."""


def check_title(title: object) -> str:
    """A match's display name (its table): one line of at most :data:`MAX_TITLE` characters,
    trimmed, with no control, bidirectional or line-separating character (it is shown as is)."""
    if (not isinstance(title, str) or not title.strip() or len(title.strip()) > MAX_TITLE
            or unsafe_character(title) is not None):  # fmt: skip
        raise error(LedgerError, "error.ledger.title", title=printable(repr(title)), most=MAX_TITLE)
    return title.strip()


def check_follows(name: object) -> str:
    """The file name of the match another was started from: a name in the same folder."""
    if not isinstance(name, str) or name in ("", ".", "..") or len(name) > 255:
        raise error(LedgerError, "error.ledger.follows", name=printable(repr(name)))
    if "/" in name or "\\" in name or unsafe_character(name) is not None:
        raise error(LedgerError, "error.ledger.follows", name=printable(repr(name)))
    return name


TOURNAMENT_HEADER = "# gongzhu-score tournament"
"""The start of a tournament file's first line (:meth:`.tournament.Tournament.to_text`): what
tells it from hands and ledgers in a folder."""


def check_tournament_name(name: object) -> str:
    """A tournament's name as its tables' ledgers keep it: one line of letters, digits, ``-``
    and ``_`` (any script), at most :data:`MAX_TOURNAMENT_NAME` characters, since it names
    their files."""
    text = name.strip() if isinstance(name, str) else ""
    size = len(text.encode("utf-8", "replace"))
    if not (0 < len(text) <= MAX_TOURNAMENT_NAME and size <= 2 * MAX_TOURNAMENT_NAME) or not all(
        c.isalnum() or c in "-_" for c in text
    ):
        raise error(LedgerError, "error.tournament.name", name=printable(repr(name)),
                    most=MAX_TOURNAMENT_NAME)  # fmt: skip
    return text


MAX_HANDS = 10_000
"""The most hands a 盤 may be set to (``--hands``): a long evening is a few dozen."""


def check_last_hand(hands: object, flag: str | None = None) -> int:
    """The number of hands of a 盤: a whole number from 1 to :data:`MAX_HANDS`."""
    if isinstance(hands, bool) or not isinstance(hands, int) or not 1 <= hands <= MAX_HANDS:
        said = f"{flag} {hands}" if flag else f"last_hand: {hands!r}"
        raise error(LedgerError, "error.ledger.hands", said=said, most=MAX_HANDS)
    return hands


def _cards_by_name(
    players: Iterable[PlayerHand], field: str, skip_empty: bool = False
) -> dict[str, str]:
    out = {}
    for p in players:
        cards: tuple[Card, ...] = getattr(p, field)
        if cards or not skip_empty:
            out[p.name] = " ".join(c.code for c in cards)
    return out


def flow_text(value: object) -> str:
    """``value`` as one line of YAML flow (JSON) that reads back the same: how the ledger and
    the tournament file write a field."""
    return _dump(value)


def _dump(value: object) -> str:
    # JSON is valid YAML flow syntax, quoting every string the same way whatever it holds; the
    # characters YAML (or a terminal) would take as a line break or a command are escaped too,
    # so that whatever is written here reads back the same (a house rule's title may hold one).
    return _LINE_SAFE.sub(_json_escape, json.dumps(value, ensure_ascii=False))


_LINE_SAFE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff]")


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _whole(value: Number) -> Number:
    """A whole Fraction as an int, shown and compared as one."""
    return int(value) if isinstance(value, Fraction) and value.denominator == 1 else value


def _number(value: Number) -> int | str:
    if isinstance(value, int) or value.denominator == 1:
        return int(value)
    return str(value)


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return " ".join(value) or "(none)"
    return str(_number(value)) if isinstance(value, int | Fraction) else str(value)


def _text(value: object) -> object:
    return "" if value is None else value


def is_whole(value: object, expected: int) -> bool:
    """Whether ``value`` is the whole number ``expected`` as YAML writes one: ``true`` and
    ``1.0`` are equal to 1 in Python, and no number a file may give."""
    return type(value) is int and value == expected


def _field(data: Mapping[str, Any], key: str, kind: type) -> Any:
    if key not in data:
        raise error(LedgerError, "error.ledger.missing", key=repr(key))
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise error(
            LedgerError, "error.ledger.kind", key=key, kind=kind.__name__, value=repr(value)
        )
    return value


def _numbers(data: Mapping[str, Any], key: str, whole: bool = False) -> tuple[Number, ...]:
    value = data.get(key)
    if not isinstance(value, list) or len(value) != 4:
        raise error(LedgerError, "error.ledger.four_numbers", key=key)
    out: list[Number] = []
    for v in value:
        if isinstance(v, int) and not isinstance(v, bool):
            out.append(v)
        elif isinstance(v, str) and not whole and "/" in v:
            try:
                out.append(Fraction(v))
            except (ValueError, ZeroDivisionError):  # "1/0", or thousands of digits
                raise error(
                    LedgerError, "error.ledger.not_number", key=key, value=repr(v)
                ) from None
        else:
            raise error(LedgerError, "error.ledger.not_whole", key=key, value=repr(v))
    return tuple(out)
