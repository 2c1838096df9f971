"""Batch output, written as hands are scored: JSON Lines, CSV, a table, or JSON.

CSV is one table: the hands (``source, seat, name, raw, final``), or with ``--summary-only`` the
per-player totals; never both in one stream.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import IO, Any

from ..batch.reading import BadRecord, InputRecord
from ..batch.runner import Summary
from ..core.engine import HandResult
from ..terms import count_of_hands, say
from .formats import Format, csv_text, format_number, json_number, table
from .lines import HandLines, LinesOf, source_prefix

__all__ = ["BatchWriter"]

_SUMMARY_KEYS = ("name", "hands", "raw", "final", "average", "pigs", "sheep", "transformers",
                 "full_reds", "grand_slams")  # fmt: skip


class BatchWriter:
    """Writes each hand as it comes, then the summary.

    JSON output is written all at once, at the end.
    """

    def __init__(
        self,
        out: IO[str],
        fmt: Format,
        lang: str = "en",
        summary_only: bool = False,
        header: bool = True,
    ) -> None:
        self.out, self.fmt, self.lang, self.summary_only = out, fmt, lang, summary_only
        self._files: dict[tuple[str, str], str] = {}
        self._lines = HandLines(out.write)
        self._hands: list[dict[str, Any]] = []
        # What to call per hand: JSON Lines straight to its own writer, the hot path.
        self.emit = self.hand_jsonl if fmt is Format.jsonl and not summary_only else self.hand
        if fmt is Format.csv and not summary_only and header:
            out.write("source,seat,name,raw,final\n")

    def _source_prefix(self, record: InputRecord) -> str:
        """``"file:`` as JSON, no closing quote: the file's name escaped once."""
        prefix = self._files[(record.file, record.mark)] = source_prefix(record.file, record.mark)
        return prefix

    def hand(self, record: InputRecord, result: HandResult) -> None:
        """Write one scored hand as the format wants; nothing with --summary-only."""
        if self.summary_only:
            return
        if self.fmt is Format.jsonl:
            self.hand_jsonl(record, result)
        else:
            self._hand_other(record, result)

    def hand_jsonl(self, record: InputRecord, result: HandResult) -> None:
        """JSON Lines output of any record: a line, a YAML document, stdin."""
        prefix = self._files.get((record.file, record.mark))
        if prefix is None:
            prefix = self._source_prefix(record)
        self._lines.result(prefix, record.place, result)

    def line_emitter(self, file: str) -> LinesOf | None:
        """A JSON Lines writer of ``file``'s hands, from line numbers alone (None: the format
        is another)."""
        if self.emit != self.hand_jsonl:
            return None
        return LinesOf(self._lines, file)

    def flush(self) -> None:
        """Write out the JSON Lines held back so far."""
        self._lines.flush()

    def _hand_other(self, record: InputRecord, result: HandResult) -> None:
        if self.fmt is Format.csv:
            self.out.write(
                csv_text(
                    [record.source, seat, n, r, json_number(f)]
                    for seat, (n, r, f) in enumerate(
                        zip(result.names, result.raws, result.finals, strict=True), 1
                    )
                )
            )
        elif self.fmt is Format.json:
            self._hands.append(
                {
                    "source": record.source,
                    "players": [
                        {"name": n, "raw": r, "final": json_number(f)}
                        for n, r, f in zip(result.names, result.raws, result.finals, strict=True)
                    ],
                }
            )
        else:
            cells = "  ".join(
                f"{n} {r} ({format_number(f)})"
                for n, r, f in zip(result.names, result.raws, result.finals, strict=True)
            )
            self.out.write(f"{record.source}  {cells}\n")

    def finish(self, summary: Summary | None, bad: Sequence[BadRecord]) -> None:
        """Write the summary (for JSON, everything) after every hand."""
        self.flush()
        rows = [] if summary is None else _summary_rows(summary)
        if self.fmt is Format.json:
            data: dict[str, Any] = {} if self.summary_only else {"hands": self._hands}
            if summary is not None:
                data["summary"] = [dict(zip(_SUMMARY_KEYS, row, strict=True)) for row in rows]
            data["bad_records"] = [{"source": b.source, "error": b.message} for b in bad]
            self.out.write(json.dumps(data, ensure_ascii=False) + "\n")
        elif summary is None or not (self.summary_only or self.fmt is Format.table):
            return  # CSV and JSON Lines print the totals only when asked for them alone
        elif self.fmt is Format.jsonl:  # --summary-only: one object per player
            for row in rows:
                self.out.write(json.dumps(dict(zip(_SUMMARY_KEYS, row, strict=True)),
                                          ensure_ascii=False) + "\n")  # fmt: skip
        elif self.fmt is Format.csv:
            self.out.write(csv_text([_SUMMARY_KEYS, *rows]))
        else:
            headers = [say(f"batch.{key}", self.lang) for key in _SUMMARY_KEYS]
            shown = [[*row[:4], f"{row[4]:.1f}", *row[5:]] for row in rows]
            title = say("batch.summary", self.lang, count=count_of_hands(summary.hands, self.lang))
            if not self.summary_only:
                self.out.write("\n")
            self.out.write(f"{title}\n{table(shown, headers, 'simple')}\n")


def _summary_rows(summary: Summary) -> list[list[Any]]:
    return [
        [
            name,
            t.hands,
            t.raw,
            json_number(t.final),
            round(float(t.average), 2),
            t.pigs,
            t.sheep,
            t.transformers,
            t.full_reds,
            t.grand_slams,
        ]
        for name, t in summary.players.items()
    ]
