"""The files made from the program: the catalogs' template, the catalogs, and docs/cli.md.

    python tests/regenerate.py           # write them: the template, each catalog (Babel's
                                         # update), each .mo (Babel's compile), docs/cli.md
    python tests/regenerate.py --check   # change nothing; say what is out of date (exit 1): a
                                         # catalog by its entries, whatever Babel lays it out

The template (``gongzhu_score/locale/gongzhu_score.pot``) holds every text a person reads, taken
from the running program rather than from its source (help texts are Typer declarations and
docstrings, the terms are tables): each term (context: its key), each page word (``page.KEY``),
each command's and option's help (id: its English, reflowed as help shows it), each value's name
(context ``metavar``, the usage line's words too), the built-in rule sets' titles
(``variant.title``). Babel's update merges it into each catalog: a
changed English goes fuzzy and a new one empty, which the tests name until it is translated.
Needs Babel (the test extra).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "gongzhu_score" / "locale"
TEMPLATE = LOCALE / "gongzhu_score.pot"
CLI_MD = ROOT / "docs" / "cli.md"


def commands(command: Any = None, path: str = "gongzhu-score") -> Iterator[tuple[str, Any, Any]]:
    """Every command of the command line (path, command, a context for it), root first."""
    import typer

    from gongzhu_score.cli.root import built, whole

    if command is None:
        command = built(whole())
    ctx = typer.Context(command, info_name=path.rpartition(" ")[2])
    yield path, command, ctx
    if hasattr(command, "list_commands"):
        for name in command.list_commands(ctx):
            yield from commands(command.get_command(ctx, name), f"{path} {name}")


def template(root: Any = None) -> Any:
    """The catalogs' template: every text the program says, from the program itself (``root``:
    another command line's, for a test)."""
    from babel.messages.catalog import Catalog

    import gongzhu_score.cli
    import gongzhu_score.render  # noqa: F401  (their words join the table)
    from gongzhu_score.io.variants import VARIANTS
    from gongzhu_score.render.help import reflowed, usage_pieces
    from gongzhu_score.terms import TERMS
    from gongzhu_score.web.words import WORDS

    catalog = Catalog(project="gongzhu-score", version="0.1.0", charset="utf-8",
                      msgid_bugs_address="", copyright_holder="gongzhu-score")  # fmt: skip
    catalog.creation_date = catalog.revision_date = _fixed_date()
    for key, english in TERMS.items():
        catalog.add(english, context=key, auto_comments=["a term"])
    for key, english in WORDS.items():
        catalog.add(english, context=f"page.{key}", auto_comments=["a word of the page"])
    for variant in VARIANTS.values():
        catalog.add(variant.title, context="variant.title")
    for path, command, ctx in commands(root):
        if command.help:
            catalog.add(reflowed(command.help), auto_comments=[f"{path}"])
        for piece in usage_pieces(command, ctx):
            catalog.add(piece.strip("[]").removesuffix("..."), context="metavar")
        for param in command.get_params(ctx):
            if param.help:
                catalog.add(reflowed(param.help), auto_comments=[f"{path} {param.opts[0]}"])
            if param.metavar and not param.metavar.startswith("<"):
                catalog.add(param.metavar, context="metavar")
    return catalog


def _fixed_date() -> Any:
    from datetime import datetime, timezone

    return datetime(2026, 12, 1, tzinfo=timezone.utc)  # (the same bytes every run)


def po_bytes(catalog: Any, template: bool = False) -> bytes:
    from babel.messages.pofile import write_po

    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, omit_header=False, include_lineno=False,
             ignore_obsolete=True)  # fmt: skip
    return out.getvalue()


def mo_bytes(catalog: Any) -> bytes:
    from babel.messages.mofile import write_mo

    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def catalogs() -> Iterator[Path]:
    """Each language's catalog (``.po``)."""
    return iter(sorted(LOCALE.glob("*/LC_MESSAGES/gongzhu_score.po")))


def updated(po: Path, new: Any) -> Any:
    """The catalog ``po`` updated from the template ``new`` (Babel's update: fuzzy matching)."""
    from babel.messages.pofile import read_po

    with po.open("rb") as file:
        catalog = read_po(file)
    catalog.update(new, update_header_comment=False, keep_user_comments=True)
    return catalog


def cli_reference() -> str:
    """docs/cli.md: every command's ``--help`` as the program prints it, 100 columns wide."""
    from clitools import run

    env: dict[str, str | None] = {"COLUMNS": "100", "GONGZHU_LANG": None, "LANGUAGE": None,
                                  "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}  # fmt: skip
    paths = [path for path, _, _ in commands()]
    contents = "".join(f"- [`{p}`](#{p.replace(' ', '-')})\n" for p in paths)
    sections = []
    for path in paths:
        r = run(*path.split()[1:], "--help", env=env)
        assert r.exit_code == 0, r.output
        sections.append(f"\n## {path}\n\n```text\n{r.stdout}```\n")
    return (
        "# CLI reference\n\n"
        "Every command's `--help`, as the program prints it (the same under every Typer it\n"
        "supports: the page is laid out by the program, with Rich): what to look up, not what to\n"
        "read first (the other pages explain each command and option; README's\n"
        "[contents](../README.md#contents) lists them). Made from the program by\n"
        "`python tests/regenerate.py`: do not edit it by hand, the tests fail when it and the\n"
        "program differ.\n\n"
        f"{contents}{''.join(sections)}"
    )


def _said(path: Path, data: bytes) -> object:
    """What a file says, for a comparison that no Babel version's own layout changes: a
    catalog's entries (and a compiled one's), else its bytes."""
    from babel.messages.mofile import read_mo
    from babel.messages.pofile import read_po

    if path.suffix not in (".po", ".pot", ".mo"):
        return data
    with io.BytesIO(data) as file:
        catalog = read_mo(file) if path.suffix == ".mo" else read_po(file)

    def text(value: object) -> str:  # (Babel before 2.15 reads a compiled context as bytes)
        return value.decode() if isinstance(value, bytes) else str(value or "")

    return sorted((text(m.context), text(m.id), text(m.string), m.fuzzy, tuple(m.user_comments))
                  for m in catalog if m.id)  # fmt: skip


def stale(wanted: dict[Path, bytes]) -> list[Path]:
    """The files that do not say what the program makes them say."""
    return [p for p, data in wanted.items()
            if not p.exists() or _said(p, p.read_bytes()) != _said(p, data)]  # fmt: skip


def wanted_files() -> dict[Path, bytes]:
    """Every file this script makes, as it makes them now."""
    from babel.messages.pofile import read_po

    new = template()
    wanted = {TEMPLATE: po_bytes(new), CLI_MD: cli_reference().encode()}
    for po in catalogs():
        catalog = updated(po, new)
        wanted[po] = po_bytes(catalog)
        with io.BytesIO(wanted[po]) as again:
            wanted[po.with_suffix(".mo")] = mo_bytes(read_po(again))
    return wanted


def main(check: bool) -> int:
    wanted = wanted_files()
    found = stale(wanted) if check else [p for p, d in wanted.items()
                                         if not p.exists() or p.read_bytes() != d]  # fmt: skip
    for path in found:
        print(f"{'out of date' if check else 'wrote'}: {path.relative_to(ROOT)}")
        if not check:
            path.write_bytes(wanted[path])
    return 1 if check and found else 0


if __name__ == "__main__":
    sys.exit(main("--check" in sys.argv[1:]))
