# ruff: noqa: UP045  (kept as it was given: the floor issue 56 names, a copy of the shared one)
"""The start-up floor of a Typer command line: the least a `score` given by flags can cost.

A Typer app with the options `gongzhu-score score` takes from flags (repeated --captured and
--exposed, --format), importing the three packages of the product card, that parses its
arguments and prints them as JSON. Time it in the same environment as the tool:

    python typer_floor.py --captured "东=QS 6H" --captured "南=AH" --exposed "南=AH" --format json

Typer (0.29 and later) converts parameters through pydantic, so this floor includes that cost.
"""

from __future__ import annotations

import json
from typing import Annotated, Optional

import tabulate  # noqa: F401  (the product card's packages: what every run may need)
import typer
import yaml  # noqa: F401

app = typer.Typer(add_completion=False)


@app.command()
def score(
    captured: Annotated[Optional[list[str]], typer.Option("--captured", "-c")] = None,
    exposed: Annotated[Optional[list[str]], typer.Option("--exposed", "-e")] = None,
    format: Annotated[str, typer.Option("--format", "-f")] = "table",
) -> None:
    print(json.dumps({"captured": captured or [], "exposed": exposed or [], "format": format},
                     ensure_ascii=False))  # fmt: skip


if __name__ == "__main__":
    app()
