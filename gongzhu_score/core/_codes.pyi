"""The column path's reader of card-code texts, in C (``codes.c``; built by ``setup.py``)."""

from typing import Any

def read_codes(
    data: Any, offsets: Any, entries: Any, ors: Any, sums: Any, counts: Any, bad: Any
) -> None: ...
def read_hands(
    hands: list[Any], numbers: dict[str, int], masks: Any, bad: Any, codes: Any, plain: Any
) -> None: ...
def read_lines(
    data: Any,
    offsets: Any,
    numbers: dict[str, int],
    values: dict[str, int],
    masks: Any,
    bad: Any,
    codes: Any,
    rules: Any,
    plain: Any,
) -> None: ...
def write_lines(
    prefix: bytes,
    names: list[bytes],
    rows: Any,
    numbers: Any,
    codes: Any,
    raws: Any,
    finals: Any,
    ends: Any,
) -> list[bytes]: ...
def line_ends(data: Any, begin: int, ends: Any) -> int: ...
