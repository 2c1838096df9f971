"""JSON Lines of scored hands: ``batch``'s hot path out.

mypyc compiles it beside the engine (``setup.py``); the same source runs as plain Python where
nothing was compiled.

A line is formatted by hand, each name's JSON worked out once: ``json.dumps`` per hand would
double a batch's cost. What it writes is JSON all the same (the tests read every line back).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ..core.engine import HandResult
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

    def __init__(self, flush: Callable[[], None]) -> None:
        self.names, self.pending, self.flush = {}, [], flush

    def _name(self, name: str) -> str:
        text = self.names.get(name)
        if text is None:
            text = f'{{"name": {json.dumps(name, ensure_ascii=False)}, "raw": '
            self.names[name] = text
        return text

    def line(self, prefix: str, place: int, result: HandResult) -> None:
        """One hand's line; ``prefix`` is its source's JSON up to the place."""
        names, raws, finals = result.names, result.raws, result.finals
        if len(names) == 4 and all(type(f) is int for f in finals):  # the usual hand
            a, b = self._name(names[0]), self._name(names[1])
            c, d = self._name(names[2]), self._name(names[3])
            text = (
                f'{{"source": {prefix}{place}", "players": [{a}{raws[0]}, "final": {finals[0]}}}, '
                f'{b}{raws[1]}, "final": {finals[1]}}}, {c}{raws[2]}, "final": {finals[2]}}}, '
                f'{d}{raws[3]}, "final": {finals[3]}}}]}}\n'
            )
        else:
            players = ", ".join(
                [
                    f'{self._name(n)}{r}, "final": {json_number(f)}}}'
                    for n, r, f in zip(names, raws, finals, strict=True)
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

    def __call__(self, place: int, result: HandResult) -> None:
        self.lines.line(self.prefix, place, result)
