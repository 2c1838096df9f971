"""JSON Lines of scored hands: ``batch``'s hot path out.

mypyc compiles it beside the engine (``setup.py``); the same source runs as plain Python where
nothing was compiled.

A line is formatted by hand, each name's JSON worked out once: ``json.dumps`` per hand would
double a batch's cost. What it writes is JSON all the same (the tests read every line back).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction

from ..core.engine import HandResult, Scored
from .formats import json_number

__all__ = ["HandLines", "LinesOf", "source_prefix"]


def source_prefix(file: str, mark: str = ":") -> str:
    """A hand's ``"source"`` as JSON, up to its place (``"file:``).

    The file's name is escaped once for all its hands.
    """
    return json.dumps(f"{file}{mark}", ensure_ascii=False)[:-1]


class HandLines:
    """Scored hands as JSON Lines, written a couple of thousand at a time."""

    names: dict[str, str]
    """Each name's ``{"name": "东", "raw": `` (its JSON, escaped once)."""
    pending: list[str]
    flush: Callable[[], None]
    raw: Callable[[bytes], None]
    """Writes lines already encoded, after those held back."""

    def __init__(self, flush: Callable[[], None], raw: Callable[[bytes], None]) -> None:
        self.names, self.pending, self.flush, self.raw = {}, [], flush, raw

    def _name(self, name: str) -> str:
        text = self.names.get(name)
        if text is None:
            text = f'{{"name": {json.dumps(name, ensure_ascii=False)}, "raw": '
            self.names[name] = text
        return text

    def line(self, prefix: str, place: int, scored: Scored, h: int) -> None:
        """Hand ``h`` of ``scored``'s line; ``prefix`` is its source's JSON up to the place."""
        self._put(prefix, place, scored.hands.names, scored.raws, scored.finals, 4 * h,
                  scored.plain(h))  # fmt: skip

    def result_line(self, prefix: str, place: int, result: HandResult) -> None:
        """A :class:`HandResult`'s line, as :meth:`line` writes it."""
        finals = list(result.finals)
        plain = all(type(f) is int for f in finals)
        self._put(prefix, place, list(result.names), list(result.raws), finals, 0, plain)

    def _put(
        self,
        prefix: str,
        place: int,
        names: list[str],
        raws: list[int],
        finals: list[int | Fraction],
        i: int,
        plain: bool,
    ) -> None:
        """The line of the four players from ``i`` on; ``plain``: their finals are whole."""
        if plain:  # the usual hand
            a, b = self._name(names[i]), self._name(names[i + 1])
            c, d = self._name(names[i + 2]), self._name(names[i + 3])
            text = (
                f'{{"source": {prefix}{place}", "players": [{a}{raws[i]}, "final": {finals[i]}}}, '
                f'{b}{raws[i + 1]}, "final": {finals[i + 1]}}}, {c}{raws[i + 2]}, "final": '
                f'{finals[i + 2]}}}, {d}{raws[i + 3]}, "final": {finals[i + 3]}}}]}}\n'
            )
        else:
            players = ", ".join(
                [
                    f'{self._name(names[j])}{raws[j]}, "final": {json_number(finals[j])}}}'
                    for j in range(i, i + 4)
                ]
            )
            text = f'{{"source": {prefix}{place}", "players": [{players}]}}\n'
        pending = self.pending
        pending.append(text)
        if len(pending) >= 2048:  # one write per couple of thousand hands, not one per hand
            self.flush()

    def drain(self) -> str:
        """The lines held back so far, as one text, and no longer held."""
        text = "".join(self.pending)
        self.pending.clear()
        return text


class LinesOf:
    """The hands of one file, written from line numbers alone (``"file:12"``)."""

    lines: HandLines
    prefix: str

    def __init__(self, lines: HandLines, file: str) -> None:
        self.lines = lines
        self.prefix = source_prefix(file)

    def __call__(self, place: int, scored: Scored, h: int) -> None:
        self.lines.line(self.prefix, place, scored, h)

    def put(self, data: bytes) -> None:
        """Lines formatted elsewhere as UTF-8 (a chunk scored as arrays), written in their
        turn (``raw`` writes the lines held back first)."""
        self.lines.raw(data)
