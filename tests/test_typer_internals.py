"""The parts of Typer that are not its documented interface, which gongzhu_score.cli.typer_internals
relies on, checked against the Typer installed: a release that moves one fails here, loudly,
instead of quietly making start-up slower or the help wrong."""

from __future__ import annotations

import importlib.metadata

import typer
from typer.main import get_command

from gongzhu_score.cli import typer_internals
from gongzhu_score.cli.main import whole_app

VERSION = tuple(int(p) for p in importlib.metadata.version("typer").split(".")[:2])


def test_the_installed_typer_is_in_the_tested_range() -> None:
    # pyproject.toml declares typer>=0.28,<0.30: CI tests 0.28 (the lowest) and 0.29 (the
    # newest); a Typer outside that range has not been checked against these parts.
    assert (0, 28) <= VERSION < (0, 30), VERSION


def test_options_are_read_by_typers_runtime_params_where_typer_has_them() -> None:
    if VERSION < (0, 29):  # Typer reads option values with Click's own types: nothing to do
        assert typer_internals._RuntimeParam is None
        return
    from typer import _coercion

    assert typer_internals._RuntimeParam is _coercion.RuntimeParam
    assert typer_internals._typer_reader is _coercion.build_runtime_param
    command = get_command(whole_app()).commands["score"]  # type: ignore[attr-defined]
    options = [p for p in command.params if getattr(p, "type_descriptor", None) is not None]
    assert options, "Typer's options no longer carry a type_descriptor"
    for param in options:
        assert hasattr(param, "_runtime_param"), param.name
        descriptor = param.type_descriptor
        assert hasattr(descriptor, "annotation") and hasattr(descriptor, "parameter_info")
    typer_internals.read_quickly(command.params)
    quick = [p for p in options if isinstance(p._runtime_param, typer_internals._Quick)]
    assert len(quick) == len(options)  # every option of score has its quick reader


def test_an_app_lists_its_commands_and_groups_where_only_and_register_after_look() -> None:
    app = whole_app()
    assert isinstance(app.registered_commands, list) and isinstance(app.registered_groups, list)
    assert {c.name for c in app.registered_commands} >= {"score", "explain", "batch"}
    assert {g.name for g in app.registered_groups} >= {"match", "variants"}
    alone = typer_internals.only(app, "score")
    assert [c.name for c in alone.registered_commands] == ["score"]
    assert not alone.registered_groups
    assert typer_internals.has_command(alone, "score")
    assert not typer_internals.has_command(alone, "match")

    def extra() -> None:
        """A command for the test."""

    fresh = typer.Typer()
    fresh.command("first")(extra)
    fresh.command("last")(extra)
    typer_internals.register_after(fresh, "middle", extra, typer.core.TyperCommand, "first")
    assert [c.name for c in fresh.registered_commands] == ["first", "middle", "last"]
    assert list(get_command(fresh).commands) == ["first", "middle", "last"]  # type: ignore[attr-defined]
