"""One error hierarchy: everything the library refuses is a :class:`GongzhuError`.

Only the CLI turns these into exit codes; the library never exits or prints.
"""

from __future__ import annotations


class GongzhuError(ValueError):
    """Base of every error gongzhu-score raises on bad input or bad options.

    ``str(error)`` is the English message; :meth:`text` gives it in Chinese too, where the
    error was made with both (:func:`gongzhu_score.terms.error`).
    """

    def __init__(self, message: str = "", zh: str | None = None) -> None:
        super().__init__(message)
        self.zh = zh

    def text(self, lang: str = "en") -> str:
        """The message in ``lang`` (``en`` or ``zh``; English where no Chinese was given)."""
        return self.zh if lang == "zh" and self.zh is not None else str(self)

    def recast(self, kind: type[GongzhuError]) -> GongzhuError:
        """The same message, in both languages, as an error of another ``kind``."""
        err = kind(str(self), self.zh)
        err.__cause__ = self.__cause__
        return err

    def within(self, where: str | tuple[str, str]) -> GongzhuError:
        """The same error, its message prefixed by where it happened (a file, a player):
        ``where`` is the same in both languages (a file name) or a pair (English, Chinese)."""
        en, zh = (where, where) if isinstance(where, str) else where
        err = type(self)(f"{en}: {self}", f"{zh}：{self.text('zh')}")
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

    def within(self, where: str | tuple[str, str]) -> GongzhuError:
        err = super().within(where)
        if isinstance(err, FirstPigError):
            err.takers = self.takers
        return err
