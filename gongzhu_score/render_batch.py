"""Batch output, written as the hands are scored: JSON Lines, CSV, a table, or one JSON object."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from typing import IO, Any

from .batch import BadRecord, Record, Summary, json_number
from .fastpath import Scored
from .render import csv_text, format_number, render_table_rows

__all__ = ["BatchWriter"]

_SUMMARY_KEYS = ("name", "hands", "raw", "final", "average", "pigs", "sheep", "transformers",
                 "full_reds", "grand_slams")  # fmt: skip
_SUMMARY_ZH = ("玩家", "局数", "原始分合计", "最后得分合计", "平均得分", "收猪", "收羊", "收变压器",
               "全红", "满贯")  # fmt: skip


_FOUR = '{"source": %s%d", "players": [%s%d, "final": %d}, %s%d, "final": %d}, %s%d, "final": %d}, %s%d, "final": %d}]}\n'  # noqa: E501


class BatchWriter:
    """Writes each hand as it comes, then the summary (and, for JSON, everything at once)."""

    def __init__(
        self,
        out: IO[str],
        fmt: str,
        lang: str = "en",
        summary_only: bool = False,
        header: bool = True,
    ) -> None:
        self.out, self.fmt, self.lang, self.summary_only = out, fmt, lang, summary_only
        self._names: dict[str, str] = {}  # a name's JSON text, worked out once per name
        self._files: dict[tuple[str, str], str] = {}
        self._pending: list[str] = []
        self._hands: list[dict[str, Any]] = []
        # What to call per hand: JSON Lines straight to its own writer, the hot path.
        self.emit = self.hand_jsonl if fmt == "jsonl" and not summary_only else self.hand
        if fmt == "csv" and not summary_only and header:
            out.write("source,seat,name,raw,final\n")

    def _name(self, name: str) -> str:
        """``{"name": "东", "raw": `` for a name, escaped once."""
        text = self._names.get(name)
        if text is None:
            text = self._names[name] = f'{{"name": {json.dumps(name, ensure_ascii=False)}, "raw": '
        return text

    def _source_prefix(self, record: Record) -> str:
        """``"file:`` as JSON, without the closing quote: the file's name escaped once."""
        prefix = json.dumps(f"{record.file}{record.mark}", ensure_ascii=False)[:-1]
        self._files[(record.file, record.mark)] = prefix
        return prefix

    def hand(self, record: Record, scored: Scored) -> None:
        """Write one scored hand (as the format wants it; nothing with --summary-only)."""
        if self.summary_only:
            return
        if self.fmt == "jsonl":
            self.hand_jsonl(record, scored)
        else:
            self._hand_other(record, scored)

    def hand_jsonl(self, record: Record, scored: Scored) -> None:
        """JSON Lines output of any record (a line, a YAML document, standard input)."""
        prefix = self._files.get((record.file, record.mark))
        if prefix is None:
            prefix = self._source_prefix(record)
        self._line(prefix, record.place, scored)

    def _line(self, prefix: str, place: int, scored: Scored) -> None:
        # Formatted by hand, names escaped once: json.dumps per hand would double the cost.
        known, names, raws, finals = self._names, scored.names, scored.raws, scored.finals
        try:
            # The usual hand (four players, whole finals): one C-level format for all of it.
            if len(names) != 4 or not all([type(f) is int for f in finals]):
                raise KeyError
            a, b, c, d = known[names[0]], known[names[1]], known[names[2]], known[names[3]]
            text = _FOUR % (prefix, place, a, raws[0], finals[0], b, raws[1], finals[1],
                            c, raws[2], finals[2], d, raws[3], finals[3])  # fmt: skip
        except KeyError:
            players = ", ".join(
                [
                    f'{known.get(n) or self._name(n)}{r}, "final": {json_number(f)}}}'
                    for n, r, f in zip(names, raws, finals, strict=True)
                ]
            )
            text = f'{{"source": {prefix}{place}", "players": [{players}]}}\n'
        pending = self._pending
        pending.append(text)
        if len(pending) >= 2048:  # one write per couple of thousand hands, not one per hand
            self.flush()

    def line_emitter(self, file: str) -> Callable[[int, Scored], None] | None:
        """For JSON Lines output: write a hand of ``file`` from its line number alone."""
        if self.emit != self.hand_jsonl:
            return None
        prefix = json.dumps(f"{file}:", ensure_ascii=False)[:-1]
        return functools.partial(self._line, prefix)

    def flush(self) -> None:
        """Write out the JSON Lines held back so far."""
        if self._pending:
            self.out.write("".join(self._pending))
            self._pending.clear()

    def _hand_other(self, record: Record, scored: Scored) -> None:
        if self.fmt == "csv":
            self.out.write(
                csv_text(
                    [record.source, seat, n, r, json_number(f)]
                    for seat, (n, r, f) in enumerate(
                        zip(scored.names, scored.raws, scored.finals, strict=True), 1
                    )
                )
            )
        elif self.fmt == "json":
            self._hands.append(
                {
                    "source": record.source,
                    "players": [
                        {"name": n, "raw": r, "final": json_number(f)}
                        for n, r, f in zip(scored.names, scored.raws, scored.finals, strict=True)
                    ],
                }
            )
        else:
            cells = "  ".join(
                f"{n} {r} ({format_number(f)})"
                for n, r, f in zip(scored.names, scored.raws, scored.finals, strict=True)
            )
            self.out.write(f"{record.source}  {cells}\n")

    def finish(self, summary: Summary | None, bad: Sequence[BadRecord]) -> None:
        """The summary (and, for JSON, everything), after every hand is written."""
        self.flush()
        rows = [] if summary is None else _summary_rows(summary)
        if self.fmt == "json":
            data: dict[str, Any] = {} if self.summary_only else {"hands": self._hands}
            if summary is not None:
                data["summary"] = [dict(zip(_SUMMARY_KEYS, row, strict=True)) for row in rows]
            data["bad_records"] = [{"source": b.source, "error": b.message} for b in bad]
            self.out.write(json.dumps(data, ensure_ascii=False) + "\n")
        elif summary is None:
            return
        elif self.fmt == "jsonl":  # --summary-only: one object per player
            for row in rows:
                self.out.write(json.dumps(dict(zip(_SUMMARY_KEYS, row, strict=True)),
                                          ensure_ascii=False) + "\n")  # fmt: skip
        elif self.fmt == "csv":
            self.out.write(csv_text([_SUMMARY_KEYS, *rows]))
        else:
            headers = _SUMMARY_ZH if self.lang == "zh" else _SUMMARY_KEYS
            shown = [[*row[:4], f"{row[4]:.1f}", *row[5:]] for row in rows]
            title = (
                f"汇总（{summary.hands} 局）"
                if self.lang == "zh"
                else f"summary ({summary.hands} hands)"
            )
            if not self.summary_only:
                self.out.write("\n")
            self.out.write(f"{title}\n{render_table_rows(shown, headers, 'simple')}\n")


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
