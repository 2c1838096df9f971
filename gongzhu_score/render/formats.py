"""The output formats, in one place: which exist, and how each is written.

Every command picks the formats it supports from :class:`Format` (the CLI refuses any other,
exit 2); each writer here is the only one of its kind. Machine formats keep English keys and
card codes; only tables are written in the players' language.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from ..errors import InputError
from ..terms import error

__all__ = [
    "Format",
    "csv_cell",
    "csv_text",
    "csv_text_back",
    "format_number",
    "json_number",
    "json_text",
    "table",
    "yaml_text",
]


class Format(str, enum.Enum):
    """An output format. Each command declares the ones it prints."""

    table = "table"
    """For people: aligned columns, in English or Chinese (``--lang``)."""
    json = "json"
    """One JSON object (or list) for scripts."""
    jsonl = "jsonl"
    """JSON Lines: one object per line, streamed (batch)."""
    csv = "csv"
    """One CSV table: one header, the same columns on every row."""
    yaml = "yaml"
    """The JSON data as YAML."""
    parquet = "parquet"
    """A Parquet file (or a folder of them), written with ``--output`` (batch)."""

    def __str__(self) -> str:
        # The name a user types (Typer before 0.29 maps a parsed value back by its str()).
        return self.value


_THIRDS = {1: "⅓", 2: "⅔"}


def format_number(value: int | Fraction, sign: bool = False) -> str:
    """``-293``, with exact rounding ``-293⅓``; ``sign`` writes ``+200`` for positives."""
    if isinstance(value, int) or value.denominator == 1:
        whole_number = int(value)
        return f"{whole_number:+}" if sign else str(whole_number)
    prefix = "-" if value < 0 else ("+" if sign else "")
    whole, rest = divmod(abs(value.numerator), value.denominator)
    if value.denominator == 3:
        return f"{prefix}{whole}{_THIRDS[rest]}"
    return f"{prefix}{whole} {rest}/{value.denominator}"


def json_number(value: int | Fraction) -> int | float:
    """A score as JSON has it: an integer, or the nearest float for thirds."""
    if isinstance(value, int) or value.denominator == 1:
        return int(value)
    return float(value)


def json_text(data: object) -> str:
    import json  # (a table needs none of json, csv and io: imported by the formats that do)

    return json.dumps(data, ensure_ascii=False) + "\n"


def yaml_text(data: object) -> str:
    import yaml  # only the commands that write YAML pay for it

    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet take a cell for a formula (OWASP's list for CSV injection)."""


def csv_cell(value: object) -> object:
    """A cell as CSV output writes it, defused for spreadsheets.

    A text cell (a name, a source, a header naming a player) that a spreadsheet would run as a
    formula gets a leading ``'`` (OWASP's advice). So does one that already starts with ``'``
    followed by such a text, so the rule undoes exactly (:func:`csv_text_back`). Numbers are
    left alone: ``-200`` is no formula.
    """
    if isinstance(value, str) and value and value.lstrip("'").startswith(FORMULA_START):
        return "'" + value
    return value


def csv_text_back(cell: str) -> str:
    """The text a CSV text cell stands for, undoing :func:`csv_cell`.

    One leading ``'`` is dropped where :func:`csv_cell` added it: what it prints, it reads.
    """
    if cell.startswith("'") and cell.lstrip("'").startswith(FORMULA_START):
        return cell[1:]
    return cell


def _neutral(row: Sequence[object]) -> list[object]:
    return [csv_cell(value) for value in row]


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """CSV text, every cell through :func:`csv_cell`."""
    import csv
    import io

    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(map(_neutral, rows))
    return buf.getvalue()


def table(rows: Any, headers: Any, table_format: str = "simple", **options: Any) -> str:
    """A tabulate table, Chinese text aligned (tabulate measures it with wcwidth, as
    :func:`.fit.columns` does); an error for unknown formats.

    Cells are shown as given (no number parsing: ``-0`` and card codes stay as typed).
    """
    import tabulate  # (JSON, CSV and --version need none of it)

    if table_format not in tabulate.tabulate_formats:
        known = ", ".join(sorted(tabulate.tabulate_formats))
        raise error(InputError, "error.table_format", value=repr(table_format), known=known)
    if not rows:  # (tabulate 0.9 fails on column alignments for a table without rows)
        options.pop("colalign", None)
    options.setdefault("disable_numparse", True)
    return tabulate.tabulate(rows, headers=headers, tablefmt=table_format, **options)
