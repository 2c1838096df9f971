"""Shell completion of the values a table types: variant names, player names, ledger files.

Each function is an ``autocompletion`` of Typer (it returns the values; Typer keeps those that
start with what is typed). They run while the shell completes, so they never raise and never
print: whatever cannot be read offers nothing. A player's name comes from what the command line
holds already (``-c NAME=…``) and from the match (the ledger given, else the current one:
:mod:`.current`). Nothing heavy is imported until a completion runs (these functions are named
by options every command has).

(No ``from __future__ import annotations``: Typer reads these functions' annotations to pass
them the context and what is typed.)
"""

import os
from collections.abc import Iterable

import typer

__all__ = [
    "complete_captured",
    "complete_exposed",
    "complete_ledger",
    "complete_player",
    "complete_variant",
]

MAX_OFFERED = 200


def complete_variant(incomplete: str) -> list[str]:
    """The built-in rule sets' names and aliases."""
    try:
        from ..io.variants import VARIANTS

        aliases: dict[str, str] = getattr(VARIANTS, "aliases", dict)()
        names = {*VARIANTS, *aliases}
    except Exception:  # (completing must never fail)
        return []
    return sorted(n for n in names if n.startswith(incomplete))


def complete_player(ctx: typer.Context, incomplete: str) -> list[str]:
    """The players: the match's, else those named on the command line so far."""
    return [n for n in _players(ctx) if n.startswith(incomplete)]


def complete_captured(ctx: typer.Context, incomplete: str) -> list[str]:
    """``NAME=`` for each player (for ``-c``, the players whose cards are not given yet)."""
    if "=" in incomplete:
        return []
    given = set(_named(ctx.params.get("captured")))
    return [f"{n}=" for n in _players(ctx) if n not in given and n.startswith(incomplete)]


def complete_exposed(ctx: typer.Context, incomplete: str) -> list[str]:
    """``NAME=`` for each player (for ``-e`` and ``--first-exposed``)."""
    if "=" in incomplete:
        return []
    return [f"{n}=" for n in _players(ctx) if n.startswith(incomplete)]


def complete_ledger(incomplete: str) -> list[str]:
    """Ledger files (those that say they are one) and folders, from what is typed."""
    try:
        from ..match.current import is_ledger_file

        folder, start = os.path.split(incomplete)
        offered: list[str] = []
        with os.scandir(folder or ".") as entries:
            for entry in entries:
                if len(offered) >= MAX_OFFERED:
                    break
                if not entry.name.startswith(start) or (
                    entry.name.startswith(".") and not start.startswith(".")
                ):
                    continue
                path = os.path.join(folder, entry.name)
                if entry.is_dir():
                    offered.append(path + os.sep)
                elif entry.name.endswith((".yaml", ".yml")) and is_ledger_file(path):
                    offered.append(path)
        return sorted(offered)
    except Exception:
        return []


def _named(values: Iterable[str] | None) -> list[str]:
    return [str(v).partition("=")[0].strip() for v in values or () if "=" in str(v)]


def _players(ctx: typer.Context) -> list[str]:
    """The match's players (the ledger given, else the current match, for a match command),
    else the names given with ``-c`` so far."""
    found = _named(ctx.params.get("captured"))
    if "ledger_file" not in ctx.params and not ctx.params.get("like"):
        return found
    try:
        from ..match.current import find_current
        from ..match.storage import read_ledger

        ledger = ctx.params.get("ledger_file") or ctx.params.get("like")
        if not ledger:
            ledger = find_current(os.environ, os.getcwd())[0].ledger
        players = list(read_ledger(ledger).players)
    except Exception:
        return found
    return players + [n for n in found if n not in players]
