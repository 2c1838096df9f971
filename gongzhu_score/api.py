"""The library's front door: score one hand, or many under one rule set.

:func:`score_hand` takes card strings the way a hand file holds them; :func:`score` takes a
:class:`~gongzhu_score.core.hand.Hand`; :class:`Scorer` is the bulk path (the one ``batch``
uses): made once per rule set, it scores one hand, or many at once. All three score through the
one engine (:mod:`gongzhu_score.core.engine`): a hand through its one-hand door, with the card
parser and the input checks, and many hands (:class:`Scorer`'s ``score_many``) as numpy
arrays through its many-hands door, which gives the same numbers; a hand it does not take goes
the one-hand door, which gives its result or its precise error.

The use case of ``score`` and ``explain`` is here too: :func:`read_hand_input` reads a hand file
(or a trick-by-trick record, replayed) with the rules to score it by, and :func:`score_input`
scores it with the options a user gave and checks the scores its players claimed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from itertools import chain, islice
from typing import TYPE_CHECKING, Any

from .core.cards import decks_of, flag_of, not_a, path_of
from .core.doors import MANY, by_arrays
from .core.engine import CompiledRules, HandResult, compiled_rules
from .core.hand import CardsLike, Hand
from .core.many import HandResults, Results
from .core.normalize import Method, Normalization, Rounding, Teams, parse_teams
from .core.options import ScoringOptions
from .core.variant import Variant
from .errors import GongzhuError
from .io.fields import HandSpec
from .io.variants import DEFAULT, choose_rules, find_variant
from .terms import error

if TYPE_CHECKING:
    from .disputes.claimed import ClaimedScore
    from .io.records import InForce

__all__ = ["ScoredInput", "Scorer", "hand_or_record", "read_hand_input", "score", "score_hand",
           "score_input"]  # fmt: skip

_NORMALIZATIONS: dict[tuple[object, ...], Normalization] = {}


def _normalization(rules: Variant, *asked: object) -> Normalization:
    """The finals under ``rules`` with these options, made once per set.

    The options are normalize, scale, rounding and teams. :func:`score_hand` pays this on every
    call.
    """
    key = (rules.normalize, *asked)
    try:  # (not contextlib.suppress: cheaper when found)
        return _NORMALIZATIONS[key]
    except (KeyError, TypeError):  # (an option that cannot be a key: made anew)
        pass
    norm = ScoringOptions.parse(None, *asked).normalization(rules)
    with contextlib.suppress(TypeError):
        _NORMALIZATIONS[key] = norm
    return norm


def score(
    hand: Hand,
    variant: Variant | str = DEFAULT,
    normalization: Normalization | None = None,
    *,
    partial: bool = False,
) -> HandResult:
    """Score a hand: validate (rulings §9), raw scores (§4, §5), finals (§6, §7).

    ``normalization`` defaults to the variant's own method, scale 1, nearest rounding.
    """
    if not isinstance(hand, Hand):
        raise not_a("argument.a_hand", hand).within("hand")
    if normalization is not None and not isinstance(normalization, Normalization):
        raise not_a("argument.normalization", normalization).within("normalization")
    flag_of(partial)
    rules = find_variant(variant)
    norm = normalization or Normalization(rules.normalize)
    return compiled_rules(rules).score(hand, norm, partial)


def score_hand(
    captured: Hand | Mapping[str, CardsLike] | Iterable[tuple[str, CardsLike]],
    *,
    exposed: Mapping[str, CardsLike] | None = None,
    first_exposed: Mapping[str, CardsLike] | None = None,
    rest: str | None = None,
    variant: Variant | str = DEFAULT,
    normalize: Method | str | None = None,
    scale: int = 1,
    rounding: Rounding | str = "nearest",
    teams: Teams | str = "none",
    partial: bool = False,
) -> HandResult:
    """Score one hand from plain Python values: the library's front door.

    ``captured`` maps each player, in seat order (the order of play), to the cards they captured
    in any notation; ``exposed``/``first_exposed`` map players to the special cards they exposed
    (亮牌 / 首明); ``rest`` names a player who takes every scoring card the others did not;
    ``teams`` is ``none``, ``partners`` or ``pig-sheep``. Raises
    :class:`~gongzhu_score.errors.GongzhuError` on bad input.

    >>> r = score_hand({"东": "QS 6H 8H 10H JH 10C", "南": "AH 2H 3H 4H 5H 7H 9H",
    ...                 "西": "JD QH KH", "北": ""}, exposed={"南": "AH"})
    >>> [(p.name, p.raw, p.final) for p in r.players]
    [('东', -400, -333), ('南', -160, -13), ('西', -40, 147), ('北', 0, 200)]
    """
    flag_of(partial)
    rules = find_variant(variant)
    norm = _normalization(rules, normalize, scale, rounding, teams)
    return _score_one(compiled_rules(rules), norm, partial, captured, exposed, first_exposed, rest)


def _score_one(
    engine: CompiledRules,
    norm: Normalization,
    partial: bool,
    captured: Hand | Mapping[str, CardsLike] | Iterable[tuple[str, CardsLike]],
    exposed: Mapping[str, CardsLike] | None,
    first_exposed: Mapping[str, CardsLike] | None,
    rest: str | None,
) -> HandResult:
    """One hand from plain values: canonical codes straight in, others parsed."""
    if isinstance(captured, Hand):
        if exposed or first_exposed:
            raise error(GongzhuError, "error.hand.a_hand_carries")
        hand = captured
    else:
        hand = Hand.from_captured(
            captured, exposed=exposed, first_exposed=first_exposed, decks=engine.decks
        )
    if rest is not None:
        hand = hand.with_rest(rest, engine.decks)
    return engine.score(hand, norm, partial)


class Scorer:
    """Many hands under one rule set: the bulk path ``batch`` uses.

    Made once with the rules and options, it scores each hand given as hand-file data (a parsed
    JSON Lines line, a YAML document:
    ``{"players": [{"name": …, "captured": "QS 6H", "exposed": "QS"}, …]}``) or as
    :func:`score_hand`'s arguments. The scorer's rules apply: a hand's own ``variant:`` and
    ``teams:`` are not read (pick the scorer by them).

    >>> scorer = Scorer("classic", scale=12)
    >>> hands = [{"players": [{"name": "A", "captured": "QS 10C"}, {"name": "B", "captured": "JD"},
    ...                       {"name": "C", "captured": "全红"}, {"name": "D", "captured": ""}]}]
    >>> [r.finals for r in scorer.score_many(hands)]
    [(-3600, 1200, 2796, -396)]
    """

    def __init__(
        self,
        variant: Variant | str = DEFAULT,
        *,
        normalize: Method | str | None = None,
        scale: int = 1,
        rounding: Rounding | str = "nearest",
        teams: Teams | str = "none",
        partial: bool = False,
    ) -> None:
        flag_of(partial)
        self.variant = find_variant(variant)
        asked = ScoringOptions.parse(None, normalize, scale, rounding, teams)
        self.normalization = asked.normalization(self.variant)
        self.partial = partial
        self._engine = compiled_rules(self.variant)

    @classmethod
    def scoring(cls, variant: Variant, normalization: Normalization, partial: bool) -> Scorer:
        """A scorer of ``variant``'s hands with these finals; ``batch`` makes one per rule
        set."""
        scorer = cls(variant, partial=partial)
        scorer.normalization = normalization
        return scorer

    def __repr__(self) -> str:
        return f"Scorer({self.variant.name!r}, normalization={self.normalization!r})"

    @property
    def engine(self) -> CompiledRules:
        """The compiled rules this scorer scores by, for hot loops to call."""
        return self._engine

    def score_hand(
        self,
        captured: Hand | Mapping[str, CardsLike] | Iterable[tuple[str, CardsLike]],
        *,
        exposed: Mapping[str, CardsLike] | None = None,
        first_exposed: Mapping[str, CardsLike] | None = None,
        rest: str | None = None,
    ) -> HandResult:
        """One hand, as :func:`score_hand` takes it, under this scorer's rules."""
        return _score_one(self._engine, self.normalization, self.partial, captured, exposed,
                          first_exposed, rest)  # fmt: skip

    def score_data(self, data: object) -> HandResult:
        """Score one hand given as hand-file data, or a trick-by-trick record.

        Raises :class:`~gongzhu_score.errors.GongzhuError` naming what is wrong.
        """
        return self._careful(data)

    def _careful(self, data: object) -> HandResult:
        """Score hand-file data in any spelling, or a record: parse, check, score."""
        hand = hand_or_record(data, self.variant.decks, self._in_force()).hand
        return self._engine.score(hand, self.normalization, self.partial)

    def _in_force(self) -> InForce:
        """The scorer's rules and teams, which judge a record's play too."""
        from .io.records import InForce

        return InForce(self.variant, self.normalization.teams.value)

    def score_many(self, hands: Iterable[Any]) -> HandResults:
        """Score each of ``hands`` (hand-file data) in order: a sequence of their results.

        Many hands (:data:`~.core.doors.MANY`) are read into arrays and scored together (the
        many-hands door), any hand the arrays do not take parsed and scored alone, as
        :meth:`score_data` would; fewer are each scored so. The first bad hand raises.
        ``hands`` that are no iterable of hands (one hand's mapping, text, None) are refused at
        the call.
        """
        if isinstance(hands, str | bytes | bytearray | Mapping) or not isinstance(hands, Iterable):
            raise not_a("argument.hands", hands).within("hands")
        it = iter(hands)
        first = list(islice(it, MANY))
        if by_arrays(len(first)):
            from .core import masks

            parts = masks.score_objects(chain(first, it), self.variant, self._engine,
                                        self.normalization, self._careful)  # fmt: skip
            return HandResults(list(parts), self.normalization)
        return HandResults([Results([self._careful(data) for data in first])],
                           self.normalization)  # fmt: skip


# --- a hand as a user gives it: a file, options, claimed scores ------------------------------


def hand_or_record(data: object, decks: int = 1, in_force: InForce | None = None) -> HandSpec:
    """The hand that hand-file data gives; a trick-by-trick record is replayed.

    A record (it has ``tricks``) has its play judged by the rules ``in_force``, else its own.
    ``decks`` says what a hand file's shorthands stand for (全红).
    """
    decks_of(decks)
    if isinstance(data, Mapping) and "tricks" in data:
        from .play.replay import hand_from_record  # (a record is rarer than a hand: on demand)

        return hand_from_record(data, in_force)
    from .io.handfile import hand_from_data

    return hand_from_data(data, decks)


def read_hand_input(
    path: str,
    *,
    variant: str | Variant | None = None,
    rules_file: str | None = None,
    rules: Variant | None = None,
    teams: Teams | str | None = None,
    in_force: InForce | None = None,
    own_play: bool = False,
) -> tuple[HandSpec, Variant]:
    """A hand from a hand file or record (``-``: standard input), and its rules.

    The rules are ``rules`` when given, else as :func:`choose_rules` chooses (the file's own
    ``variant:`` when no other is named). A record is replayed, its play judged by those rules
    and ``teams`` (else its own ``teams:``), and by what ``in_force`` adds (a match's hand
    number, seats and leader). With ``own_play`` it is judged by its own ``variant:`` instead,
    as ``compare`` does: its rule sets are what-ifs for the score, not the rules the table
    played. Errors name the file.
    """
    from .io.handfile import asked_variant, read_hand_data
    from .io.records import InForce

    path = path_of(path)
    if rules is not None and not isinstance(rules, Variant):
        raise not_a("argument.variant", rules).within("rules")
    data, source = read_hand_data(path)
    chosen = rules if rules is not None else choose_rules(variant, rules_file, asked_variant(data))
    if in_force is not None and not isinstance(in_force, InForce):
        raise not_a("argument.in_force", in_force).within("in_force")
    said = (in_force or InForce()).teams if teams is None else parse_teams(teams).value
    flag_of(own_play)
    own = find_variant(asked_variant(data) or DEFAULT) if own_play else chosen
    if own.decks != chosen.decks:
        own = chosen  # (a record's cards are read with the decks it is scored with)
    play = replace(in_force or InForce(), variant=own, teams=said)
    try:
        return hand_or_record(data, chosen.decks, play), chosen
    except GongzhuError as e:
        raise e.within(source) from None


@dataclass(frozen=True)
class ScoredInput:
    """A hand scored as a user asked: the result, the hand, its claims checked."""

    result: HandResult
    spec: HandSpec
    claimed: tuple[ClaimedScore, ...] = ()

    @property
    def claims_wrong(self) -> bool:
        """Whether any claimed score is wrong; ``score`` then exits 3."""
        return any(not c.correct for c in self.claimed)


def score_input(
    spec: HandSpec,
    rules: Variant,
    options: ScoringOptions = ScoringOptions(),
    *,
    rest: str | None = None,
    partial: bool = False,
    claimed: Mapping[str, int] | None = None,
    claimed_are: str = "raw",
    source: str | None = None,
) -> ScoredInput:
    """Score a hand as read, and check the scores its players claimed.

    It is scored under ``rules`` and ``options`` (its own ``teams:`` unless they say otherwise;
    ``rest``: who takes every scoring card nobody else did). The claims (the file's
    ``claimed:``, then ``claimed``) are checked against the raws, or the ``final`` scores.
    Errors name ``source`` when given (the file the hand came from).
    """
    if not isinstance(spec, HandSpec):
        raise not_a("argument.spec", spec).within("spec")
    if not isinstance(rules, Variant):
        raise not_a("argument.variant", rules).within("rules")
    if claimed is not None and not isinstance(claimed, Mapping):
        raise not_a("argument.claimed", claimed).within("claimed")
    flag_of(partial)
    if not isinstance(options, ScoringOptions):
        raise not_a("argument.options", options).within("options")
    norm = options.normalization(rules, spec.teams)
    hand = spec.hand if rest is None else spec.hand.with_rest(rest, rules.decks)
    try:
        result = score(hand, rules, norm, partial=partial)
    except GongzhuError as e:
        raise e if source is None else e.within(source) from None
    said = {**spec.claimed, **(claimed or {})}
    if not said:
        return ScoredInput(result, spec)
    from .disputes.claimed import check_claimed  # only a dispute pays for it

    return ScoredInput(result, spec, tuple(check_claimed(result, said, claimed_are)))
