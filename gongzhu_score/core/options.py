"""What a user asked to score by: a rule set and the options that turn raws into finals.

One value carries them from a front door (the command line, the page, a library call) to the
engine, so no layer passes them loose. An option left None takes its default where a hand is
scored: the rule set's, the hand file's own ``teams:``, or the match's settings.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import RulesError
from ..terms import error
from .normalize import Method, Normalization, Rounding, Teams, check_scale, choice
from .variant import Variant

__all__ = ["ScoringOptions"]

# Each chosen option: its field, its values, and what an error calls it.
_CHOICES = (("normalize", Method, "normalization"), ("rounding", Rounding, "rounding"),
            ("teams", Teams, "teams"))  # fmt: skip


@dataclass(frozen=True, slots=True)
class ScoringOptions:
    """A rule set and the normalization options asked for (each None: its default).

    >>> ScoringOptions(normalize="jj", scale=12)
    ScoringOptions(rules=None, normalize=<Method.JJ: 'jj'>, scale=12, rounding=None, teams=None)
    """

    rules: Variant | None = None
    """The rule set (None: the hand's own ``variant:``, else classic)."""
    normalize: Method | None = None
    scale: int | None = None
    rounding: Rounding | None = None
    teams: Teams | None = None
    """Who plays together (None: the hand's own ``teams:``, else nobody)."""

    def __post_init__(self) -> None:
        if self.rules is not None and not isinstance(self.rules, Variant):
            raise error(RulesError, "error.option.rules", value=repr(self.rules))
        for name, kind, what in _CHOICES:
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, choice(kind, value, what))
        if self.scale is not None:
            check_scale(self.scale)

    @classmethod
    def parse(
        cls,
        rules: Variant | None = None,
        normalize: object = None,
        scale: object = None,
        rounding: object = None,
        teams: object = None,
    ) -> ScoringOptions:
        """The options as a caller spells them (``"zero-sum"``, ``"exact"``), each checked."""
        return cls(rules, normalize, scale, rounding, teams)  # type: ignore[arg-type]

    def given(self) -> bool:
        """Whether any option was asked for (``match set`` needs one)."""
        return any(getattr(self, name) is not None for name in self.__slots__)

    def or_teams(self, teams: Teams | str | None) -> ScoringOptions:
        """These options, with the hand's own ``teams`` where none is asked."""
        if self.teams is not None or teams is None:
            return self
        return replace(self, teams=choice(Teams, teams, "teams"))

    def normalization(self, rules: Variant, teams: Teams | str | None = None) -> Normalization:
        """The finals as asked under ``rules``; ``teams``: the hand's own, when none is asked."""
        team_play = self.teams or choice(Teams, teams or Teams.NONE, "teams")
        method = self.normalize or rules.default_method(team_play)
        return Normalization(method, self.scale or 1, self.rounding or Rounding.NEAREST,
                             team_play)  # fmt: skip

    def after(
        self, previous: Normalization | None, rules: Variant, *, same_rules: bool
    ) -> Normalization:
        """A match's finals once its settings change (or a match starts like another): each
        option asked wins, else ``previous``'s; its method too while the rule set stays the
        same (``same_rules``: a new rule set brings its own default)."""
        if previous is None:
            return self.normalization(rules)
        teams = self.teams or previous.teams
        kept = previous.method if same_rules else rules.default_method(teams)
        return Normalization(self.normalize or kept, self.scale or previous.scale,
                             self.rounding or previous.rounding, teams)  # fmt: skip
