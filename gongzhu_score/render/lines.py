"""JSON Lines of scored hands: ``batch``'s one writer of the format, for either door.

A line is formatted by hand, each name's JSON worked out once: ``json.dumps`` per hand would
double a batch's cost. What it writes is JSON all the same (the tests read every line back).
Hands come as flat lists (four entries a hand, as the many-hands door gives them), as Arrow and
numpy columns (:meth:`HandLines.columns`: the same text put together by Arrow's string functions,
a block of hands at a time), or as a :class:`HandResult` (the one-hand door's), which is written
as a list of one hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from ..core.engine import HandResult
from .formats import json_number

__all__ = ["HandLines", "LinesOf", "source_prefix"]


def source_prefix(file: str, mark: str = ":") -> str:
    """A hand's ``"source"`` as JSON, up to its place (``"file:``).

    The file's name is escaped once for all its hands.
    """
    return json.dumps(f"{file}{mark}", ensure_ascii=False)[:-1]


class HandLines:
    """Scored hands as JSON Lines, handed to ``write`` a few thousand at a time."""

    def __init__(self, write: Callable[[str], object]) -> None:
        self.names: dict[str, str] = {}
        """Each name's ``{"name": "东", "raw": `` (its JSON, escaped once)."""
        self.pending: list[str] = []
        self.write = write

    def _name(self, name: str) -> str:
        text = self.names.get(name)
        if text is None:
            text = f'{{"name": {json.dumps(name, ensure_ascii=False)}, "raw": '
            self.names[name] = text
        return text

    def hands(self, prefix: str, places: Sequence[int], names: Sequence[str],
              raws: Sequence[int], finals: Sequence[int | Fraction]) -> None:  # fmt: skip
        """The lines of hands numbered ``places`` (``prefix``: their source's JSON up to the
        place), four names, raws and finals a hand, in seat order."""
        pending, name = self.pending, self._name
        known = self.names
        for h, place in enumerate(places):
            i = 4 * h
            f0, f1, f2, f3 = finals[i], finals[i + 1], finals[i + 2], finals[i + 3]
            if type(f0) is int and type(f1) is int and type(f2) is int and type(f3) is int:
                a, b, c, d = names[i], names[i + 1], names[i + 2], names[i + 3]
                pending.append(
                    f'{{"source": {prefix}{place}", "players": ['
                    f'{known.get(a) or name(a)}{raws[i]}, "final": {f0}}}, '
                    f'{known.get(b) or name(b)}{raws[i + 1]}, "final": {f1}}}, '
                    f'{known.get(c) or name(c)}{raws[i + 2]}, "final": {f2}}}, '
                    f'{known.get(d) or name(d)}{raws[i + 3]}, "final": {f3}}}]}}\n'
                )
            else:
                players = ", ".join(
                    f'{name(names[j])}{raws[j]}, "final": {json_number(finals[j])}}}'
                    for j in range(i, i + 4)
                )
                pending.append(f'{{"source": {prefix}{place}", "players": [{players}]}}\n')
        if len(pending) >= 2048:  # one write per couple of thousand hands, not one per hand
            self.flush()

    def columns(self, prefix: str, places: Any, names: Any, raws: Any, finals: Any) -> None:
        """The lines :meth:`hands` writes, from columns: ``places`` and ``raws`` numpy's int64,
        ``finals`` too (else :meth:`hands` writes them), ``names`` an Arrow string array, four a
        hand.

        Each distinct name's JSON is worked out once (as :meth:`hands` does), the numbers are
        written by Arrow's cast to text and the pieces joined by its string functions: the
        block's text is then the joined array's data, written at once.
        """
        import numpy as np

        if finals.dtype != np.int64 or not _encodes(prefix):
            self.hands(prefix, places.tolist(), names.to_pylist(), raws.tolist(),
                       finals.tolist())  # fmt: skip
            return
        import pyarrow as pa
        import pyarrow.compute as pc

        if not len(places):
            return
        encoded = pc.dictionary_encode(names)
        known, name = self.names, self._name
        fragments = pa.array([known.get(n) or name(n) for n in encoded.dictionary.to_pylist()],
                             pa.string())  # fmt: skip
        join = pc.binary_join_element_wise
        players = join(
            fragments.take(encoded.indices),
            pc.cast(pa.array(raws), pa.string()),
            ', "final": ',
            pc.cast(pa.array(finals), pa.string()),
            "}",
            "",
        )
        fours = pa.ListArray.from_arrays(
            pa.array(np.arange(0, len(players) + 1, 4, dtype=np.int32)), players
        )
        lines = join(
            f'{{"source": {prefix}',
            pc.cast(pa.array(places), pa.string()),
            '", "players": [',
            pc.binary_join(fours, ", "),
            "]}\n",
            "",
        )
        offsets = np.frombuffer(lines.buffers()[1], np.int32, len(lines) + 1, lines.offset * 4)
        data = lines.buffers()[2]
        text = data[int(offsets[0]) : int(offsets[-1])].to_pybytes().decode()
        self.flush()
        self.write(text)

    def result(self, prefix: str, place: int, result: HandResult) -> None:
        """A :class:`HandResult`'s line, as :meth:`hands` writes it."""
        self.hands(prefix, (place,), result.names, result.raws, result.finals)

    def flush(self) -> None:
        """Hand the lines held back so far to ``write``."""
        if self.pending:
            text = "".join(self.pending)
            self.pending.clear()
            self.write(text)


def _encodes(text: str) -> bool:
    """Whether ``text`` is UTF-8 (a file's name may hold a lone surrogate, which Arrow's
    strings cannot)."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


class LinesOf:
    """The hands of one file, written from their line numbers (``"file:12"``)."""

    def __init__(self, lines: HandLines, file: str) -> None:
        self.lines = lines
        self.prefix = source_prefix(file)

    def hands(self, places: Sequence[int], names: Sequence[str], raws: Sequence[int],
              finals: Sequence[int | Fraction]) -> None:  # fmt: skip
        """Hands scored by the many-hands door, as :meth:`HandLines.hands` takes them."""
        self.lines.hands(self.prefix, places, names, raws, finals)

    def columns(self, places: Any, names: Any, raws: Any, finals: Any) -> None:
        """The same as columns (:meth:`HandLines.columns`)."""
        self.lines.columns(self.prefix, places, names, raws, finals)

    def result(self, place: int, result: HandResult) -> None:
        """A hand the one-hand door scored."""
        self.lines.result(self.prefix, place, result)
