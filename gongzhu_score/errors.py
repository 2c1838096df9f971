"""One error hierarchy: everything the library refuses is a :class:`GongzhuError`.

Only the CLI turns these into exit codes; the library never exits or prints.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def _unsaid(key: str, lang: str = "en", /, **values: object) -> str:
    return key  # (until :mod:`.terms`, which every layer imports, says it)


speaker: Callable[..., str] = _unsaid
"""What says a :class:`Said` in a language: :func:`gongzhu_score.terms.say`, set there."""


class Said:
    """A term not yet said in any language: its key and values, said by :meth:`text` (an
    error's message, where in an input it is, a part of another message)."""

    __slots__ = ("key", "values")

    def __init__(self, key: str, values: Mapping[str, object]) -> None:
        self.key, self.values = key, dict(values)

    def text(self, lang: str = "en") -> str:
        return speaker(self.key, lang, **self.values)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Said({self.key!r}, {self.values!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Said) and (self.key, self.values) == (other.key, other.values)

    __hash__ = None  # type: ignore[assignment]  # (its values may be lists)

    def __reduce__(self) -> tuple[Any, ...]:
        return Said, (self.key, self.values)


class GongzhuError(ValueError):
    """Base of every error gongzhu-score raises on bad input or bad options.

    ``str(error)`` is the English message; :meth:`text` says it in any language the tool
    speaks, where the error was made from a term (:func:`gongzhu_score.terms.error`).
    """

    def __init__(self, message: object = "") -> None:
        super().__init__(str(message))
        self.said = message if hasattr(message, "text") else None
        """The message as a term (a :class:`~gongzhu_score.terms.Said`), or None: plain text."""

    def text(self, lang: str = "en") -> str:
        """The message in ``lang`` (English where it was made of plain text)."""
        return str(self) if self.said is None else str(self.said.text(lang))

    def recast(self, kind: type[GongzhuError]) -> GongzhuError:
        """The same message, in every language, as an error of another ``kind``."""
        err = kind(self.said if self.said is not None else str(self))
        err.__cause__ = self.__cause__
        return err

    def within(self, where: object) -> GongzhuError:
        """The same error, its message prefixed by where it happened: a file or a name (the
        same in every language), or a :class:`~gongzhu_score.terms.Said`."""
        message = self.said if self.said is not None else str(self)
        err = type(self)(Said("within", {"where": where, "message": message}))
        err.__cause__ = self.__cause__
        return err


class CardError(GongzhuError):
    """A token that is not a card (``QX``), or a card where it cannot stand."""


class HandError(GongzhuError):
    """A hand that breaks the input rules (rulings §9): a card taken twice, cards missing, …"""


class MissingCardsError(HandError):
    """Scoring cards nobody captured, in a hand that is not a partial tally (rulings §9)."""


class RestError(HandError):
    """The rest (every scoring card nobody else took) given to a player who is not there."""


class ArgumentError(GongzhuError, TypeError):
    """A library function given a value of the wrong kind (``score_hand(None)``, cards as
    bytes, a dict where a table belongs): a :class:`GongzhuError` that is a ``TypeError`` too,
    its message naming the argument."""


class RulesError(GongzhuError):
    """An unknown variant or an option value the rules do not know."""


class InputError(GongzhuError):
    """A hand file that cannot be read: too large, bad YAML, unknown keys, …"""


class LedgerError(InputError):
    """A match ledger that cannot be read or a change it refuses (rulings §8)."""


class PlayersError(LedgerError):
    """A match's players that are not four different, well-formed names."""


class NotALedgerError(LedgerError):
    """A file that is not a match ledger at all (a hand file, say)."""


class TournamentError(InputError):
    """A tournament file that cannot be read, or a round it cannot seat (rulings §12.3)."""


class LedgerNotHandError(InputError):
    """A match ledger given where one hand is wanted."""


class MatchOverError(LedgerError):
    """A hand offered to a match that has already ended."""


class ChangedMeanwhileError(LedgerError):
    """A change made against the ledger as the caller last saw it (its ``expect``ed version),
    refused because the ledger has changed since: another front door got there first."""


class FirstPigError(LedgerError):
    """Two decks under ``first_lead: pig``: two players each captured a pig and who took the
    first (who leads the next hand, rulings §10) was not said. ``takers``: the two of them."""

    takers: tuple[str, ...] = ()

    def within(self, where: object) -> GongzhuError:
        err = super().within(where)
        if isinstance(err, FirstPigError):
            err.takers = self.takers
        return err
