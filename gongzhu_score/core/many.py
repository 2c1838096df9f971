"""Many hands' results as a sequence, backed by the many-hands door's arrays.

:meth:`~gongzhu_score.api.Scorer.score_many` returns one. Each item is the hand's
:class:`~.engine.HandResult`, made when asked for; the numbers themselves are there at once,
as :meth:`HandResults.columns` or :meth:`HandResults.to_arrow`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

from .engine import HandResult, Scored
from .normalize import Rounding

__all__ = ["HandResults"]


class HandResults(Sequence[HandResult]):
    """The results of many hands, in order: indexing, iteration, ``len`` and equality as a
    list of :class:`~.engine.HandResult` has them."""

    __slots__ = ("_scored",)

    def __init__(self, scored: Scored) -> None:
        self._scored = scored

    def __len__(self) -> int:
        return len(self._scored)

    @overload
    def __getitem__(self, index: int) -> HandResult: ...
    @overload
    def __getitem__(self, index: slice) -> list[HandResult]: ...
    def __getitem__(self, index: int | slice) -> HandResult | list[HandResult]:
        if isinstance(index, slice):
            return [self._scored.result(h) for h in range(len(self))[index]]
        h = index.__index__()
        return self._scored.result(h + len(self) if h < 0 else h)

    def __iter__(self) -> Iterator[HandResult]:
        result = self._scored.result
        for h in range(len(self)):
            yield result(h)

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
        scored = self._scored
        n = len(self)
        return {
            "hand": [h for h in range(n) for _ in range(4)],
            "name": list(scored.hands.names),
            "raw": list(scored.raws),
            "final": list(scored.finals),
        }

    def to_arrow(self) -> Any:
        """The results as a pyarrow table, a row a hand: ``players``, a list of four
        ``{name, raw, final}`` in seat order, as ``score_table`` writes them (``final`` a
        float64 under exact rounding). Needs the ``arrow`` extra."""
        import pyarrow as pa

        scored = self._scored
        exact = scored.normalization.rounding is Rounding.EXACT
        finals = [float(f) for f in scored.finals] if exact else scored.finals
        members = pa.StructArray.from_arrays(
            [pa.array(scored.hands.names, pa.string()), pa.array(scored.raws, pa.int64()),
             pa.array(finals, pa.float64() if exact else pa.int64())],
            names=["name", "raw", "final"],
        )  # fmt: skip
        offsets = pa.array(range(0, 4 * len(self) + 1, 4), pa.int32())
        return pa.table({"players": pa.ListArray.from_arrays(offsets, members)})
