"""Many hands' results as a sequence, backed by the many-hands door's arrays.

:meth:`~gongzhu_score.api.Scorer.score_many` returns one. Each item is the hand's
:class:`~.engine.HandResult`, made when asked for; the numbers themselves are there at once,
as :meth:`HandResults.columns` or :meth:`HandResults.to_arrow`. The results come in parts:
the many-hands door's arrays (:class:`.masks.Part`, a part a chunk), or the one-hand door's
results (:class:`Results`, for a few hands).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any, Protocol, overload

from .engine import HandResult
from .normalize import Normalization, Rounding

__all__ = ["HandResults", "Part", "Results"]


class Part(Protocol):
    """Some hands' results, in order: a hand's made when asked, the numbers as flat lists."""

    def __len__(self) -> int: ...
    def result(self, h: int) -> HandResult: ...
    def numbers(self) -> tuple[list[str], list[int], list[int | Fraction]]:
        """Every player's name, raw and final, four a hand in seat order."""
        ...


class Results:
    """Hands the one-hand door scored, kept as their results."""

    __slots__ = ("results",)

    def __init__(self, results: list[HandResult]) -> None:
        self.results = results

    def __len__(self) -> int:
        return len(self.results)

    def result(self, h: int) -> HandResult:
        return self.results[h]

    def numbers(self) -> tuple[list[str], list[int], list[int | Fraction]]:
        names: list[str] = []
        raws: list[int] = []
        finals: list[int | Fraction] = []
        for r in self.results:
            names += r.names
            raws += r.raws
            finals += r.finals
        return names, raws, finals


class HandResults(Sequence[HandResult]):
    """The results of many hands, in order: indexing, iteration, ``len`` and equality as a
    list of :class:`~.engine.HandResult` has them."""

    __slots__ = ("_normalization", "_parts", "_size", "_starts")

    def __init__(self, parts: Sequence[Part], normalization: Normalization) -> None:
        self._parts, self._normalization = list(parts), normalization
        self._starts, self._size = [], 0
        for part in self._parts:
            self._starts.append(self._size)
            self._size += len(part)

    def __len__(self) -> int:
        return self._size

    def _result(self, h: int) -> HandResult:
        if not 0 <= h < self._size:
            raise IndexError(h)
        k = bisect_right(self._starts, h) - 1
        return self._parts[k].result(h - self._starts[k])

    @overload
    def __getitem__(self, index: int) -> HandResult: ...
    @overload
    def __getitem__(self, index: slice) -> list[HandResult]: ...
    def __getitem__(self, index: int | slice) -> HandResult | list[HandResult]:
        if isinstance(index, slice):
            return [self._result(h) for h in range(len(self))[index]]
        h = index.__index__()
        return self._result(h + len(self) if h < 0 else h)

    def __iter__(self) -> Iterator[HandResult]:
        for part in self._parts:
            result = part.result
            for h in range(len(part)):
                yield result(h)

    def _numbers(self) -> tuple[list[str], list[int], list[int | Fraction]]:
        names: list[str] = []
        raws: list[int] = []
        finals: list[int | Fraction] = []
        for part in self._parts:
            more = part.numbers()
            names += more[0]
            raws += more[1]
            finals += more[2]
        return names, raws, finals

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    # (a sequence, as a list: not hashable)
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(repr(r) for r in self[:3])
        more = ", …" if len(self) > 3 else ""
        return f"<HandResults of {len(self)} hands: [{shown}{more}]>"

    def columns(self) -> dict[str, list[Any]]:
        """The numbers as flat lists, four entries a hand in seat order: ``hand`` (its place),
        ``name``, ``raw`` and ``final`` (a whole number, or a :class:`~fractions.Fraction`
        under exact rounding)."""
        names, raws, finals = self._numbers()
        return {"hand": [h for h in range(len(self)) for _ in range(4)], "name": names,
                "raw": raws, "final": finals}  # fmt: skip

    def to_arrow(self) -> Any:
        """The results as a pyarrow table, a row a hand: ``players``, a list of four
        ``{name, raw, final}`` in seat order, as ``score_table`` writes them (``final`` a
        float64 under exact rounding). Needs the ``arrow`` extra."""
        import pyarrow as pa

        names, raws, finals = self._numbers()
        exact = self._normalization.rounding is Rounding.EXACT
        values = [float(f) for f in finals] if exact else finals
        members = pa.StructArray.from_arrays(
            [pa.array(names, pa.string()), pa.array(raws, pa.int64()),
             pa.array(values, pa.float64() if exact else pa.int64())],
            names=["name", "raw", "final"],
        )  # fmt: skip
        offsets = pa.array(range(0, 4 * len(self) + 1, 4), pa.int32())
        return pa.table({"players": pa.ListArray.from_arrays(offsets, members)})
