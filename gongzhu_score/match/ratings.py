"""A season's ratings (rulings §13): every finished match is one game of openskill's
Plackett–Luce model, with the library's defaults.

A game's teams are its players, one each, or in partner play its two sides; their ranks are the
match's own order (:attr:`.order.Order.ranks`: level players, and partners, share a rank; in a
draw everyone does). Games count in the order given (the order the matches ended: ``stats``
sorts them). A rating is shown as openskill's ordinal, μ − 3σ: the skill the games show, less
three times the doubt about it, so that a player rises by playing well often, not by one lucky
evening. Pure: ledgers in, numbers out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .ledger import Ledger
from .order import PARTNER_SIDES

__all__ = ["Game", "Rated", "Rating", "game_of", "rate", "start"]

Number = int | Fraction


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating: openskill's μ (the skill shown) and σ (the doubt about it), and the
    ordinal μ − 3σ that ranks the players."""

    mu: float
    sigma: float
    ordinal: float

    def data(self) -> dict[str, float]:
        """As JSON and CSV give it: each number rounded to 2 decimals."""
        return {"mu": round(self.mu, 2), "sigma": round(self.sigma, 2),
                "ordinal": round(self.ordinal, 2)}  # fmt: skip

    @property
    def shown(self) -> float:
        """The one number a table shows and ranks by: the ordinal, to 2 decimals."""
        return round(self.ordinal, 2)


@dataclass(frozen=True)
class Game:
    """One finished match as a game: where it is, when it ended, who sat where and how they
    finished."""

    file: str
    ended: str | None
    """When its last hand was entered (ISO 8601 with the UTC offset), or None in a ledger written
    before hands kept their time."""
    players: tuple[str, ...]
    """The names counted, in seat order (a renamed player under the latest name)."""
    ranks: tuple[int, ...]
    """Each seat's rank, 1 the first (:attr:`.order.Order.ranks`)."""
    finals: tuple[Number, ...]
    """Each seat's final total when the match ended."""
    teams: tuple[tuple[int, ...], ...]
    """The seats of each of the game's teams: one each, or the two sides in partner play."""


def game_of(ledger: Ledger, file: str, players: Sequence[str]) -> Game | None:
    """The game ``ledger`` (read from ``file``) is, its players named ``players``; None while the
    match is in play (an unfinished match is no game)."""
    status = ledger.status()
    if status.ended_after is None:
        return None
    end = ledger.entry(status.ended_after)
    teams = PARTNER_SIDES if ledger.partners else tuple((i,) for i in range(len(players)))
    return Game(file, ledger.entries[-1].entered, tuple(players), ledger.order().ranks,
                end.total_final, teams)  # fmt: skip


@dataclass(frozen=True)
class Rated:
    """The ratings after a run of games."""

    ratings: dict[str, Rating]
    """Each player's rating after the last game they played."""
    after: tuple[dict[str, Rating], ...]
    """For each game, in order, its players' ratings after it."""


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def start() -> Rating:
    """A new player's rating: openskill's default (μ 25, σ 25/3, ordinal 0)."""
    new = _model().rating()
    return Rating(new.mu, new.sigma, new.ordinal())


def rate(games: Iterable[Game]) -> Rated:
    """Every player's rating after ``games``, played in that order, and each game's after it."""
    model = _model()
    now: dict[str, Any] = {}
    after: list[dict[str, Rating]] = []
    for game in games:
        names = [[game.players[i] for i in team] for team in game.teams]
        teams = [[now[n] if n in now else model.rating(name=n) for n in team] for team in names]
        ranks = [game.ranks[team[0]] for team in game.teams]
        rated = model.rate(teams, ranks=ranks)
        for team, ratings in zip(names, rated, strict=True):
            for name, rating in zip(team, ratings, strict=True):
                now[name] = rating
        after.append({n: _rating(now[n]) for n in game.players})
    return Rated({n: _rating(r) for n, r in now.items()}, tuple(after))


def _rating(rating: Any) -> Rating:
    return Rating(float(rating.mu), float(rating.sigma), float(rating.ordinal()))
