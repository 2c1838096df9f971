"""Every reliance on Typer's undocumented parts, in one module (``tests/test_typer_internals.py``
checks each against the Typer installed, and fails loudly if a release changes one):

- option values read without pydantic, where Typer would import it to read them (below);
- a command line built with one command only (:func:`only`, :func:`has_command`,
  :func:`register_after`), which reads and sets a Typer app's ``registered_commands`` and
  ``registered_groups``, so that a ``score`` does not pay for building every command.

Option values read without pydantic, where Typer would import it to read them.

Typer 0.29 converts every option through a pydantic ``TypeAdapter`` built when the command
runs: importing pydantic and building the adapters is about 80 ms, most of a ``score``'s start.
The options here are plain (text, lists of text, whole numbers in a range, a choice from an
enum, a format with its own parser), and a plain value needs no pydantic to be read: ``5``,
``json``, ``东=QS``. So each option gets a quick reader for the plain case, and anything else
(a mistake, ``5.0``, ``1_000``, a case to fold) goes to Typer's own reader, pydantic and all:
whatever Typer accepts, refuses or says about a value stays exactly as it was. Older Typers
(before 0.29) read options with Click's types and never import pydantic; nothing is changed
for them. Only private parts of Typer are touched (``_runtime_param``, ``typer._coercion``),
so every lookup is guarded: if a later Typer moves them, its own reader is used, as before.
``tests/test_startup.py`` checks that a ``score`` never imports pydantic and that each quick
reader agrees with Typer's.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, get_args, get_origin

if TYPE_CHECKING:
    import typer

__all__ = ["has_command", "only", "quick_reader", "read_quickly", "register_after"]

ASK_TYPER: Any = object()
"""What a quick reader returns for a value it leaves to Typer."""

_PLAIN_INT = re.compile(r"[+-]?[0-9]{1,18}")

Reader = Callable[[Any], Any]

_RuntimeParam: Any = None
_typer_reader: Any = None
try:
    from typer import _coercion

    _RuntimeParam, _typer_reader = _coercion.RuntimeParam, _coercion.build_runtime_param
except (ImportError, AttributeError):  # a Typer without pydantic readers: nothing to do
    pass


def quick_reader(annotation: Any, info: Any) -> Reader | None:
    """A reader for the plain values of an option of this type (None: Typer reads them all)."""
    parser = getattr(info, "parser", None)
    if parser is not None:
        return _by_parser(parser)
    if get_origin(annotation) is list:
        (item,) = get_args(annotation) or (Any,)
        each = quick_reader(item, info)
        return None if each is None else _each(each)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return _choice(annotation)
    if annotation is int:
        return _whole(getattr(info, "min", None), getattr(info, "max", None))
    if annotation is str:
        return _text
    if annotation is bool:  # a flag is read by Click; an unset one (None) must not cost an adapter
        return _flag
    return None


def _by_parser(parser: Callable[[Any], Any]) -> Reader:
    def read(value: Any) -> Any:
        try:
            return parser(value)
        except Exception:  # Typer says it, in its words, with the option's name
            return ASK_TYPER

    return read


def _each(read_one: Reader) -> Reader:
    def read(values: Any) -> Any:
        if not isinstance(values, list | tuple):
            return ASK_TYPER
        out = [read_one(v) for v in values]
        return ASK_TYPER if any(v is ASK_TYPER for v in out) else out

    return read


def _choice(kind: type[enum.Enum]) -> Reader:
    by_value = {member.value: member for member in kind}

    def read(value: Any) -> Any:
        if isinstance(value, kind):
            return value
        return by_value.get(value, ASK_TYPER) if isinstance(value, str) else ASK_TYPER

    return read


def _whole(low: float | None, high: float | None) -> Reader:
    def read(value: Any) -> Any:
        if isinstance(value, str) and _PLAIN_INT.fullmatch(value):
            value = int(value)
        elif type(value) is not int:
            return ASK_TYPER
        if (low is not None and value < low) or (high is not None and value > high):
            return ASK_TYPER
        return value

    return read


def _flag(value: Any) -> Any:
    return value if isinstance(value, bool) else ASK_TYPER


def _text(value: Any) -> Any:
    return value if isinstance(value, str) else ASK_TYPER


if _RuntimeParam is not None:

    class _Quick(_RuntimeParam):  # type: ignore[misc]
        """Typer's reader for one option, with a quick path for plain values. (Not made a
        dataclass: generating its methods would cost a good part of what it saves.)"""

        def __init__(self, info: Any, annotation: Any, quick: Reader, descriptor: Any) -> None:
            super().__init__(parameter_info=info, annotation=annotation)
            object.__setattr__(self, "quick", quick)
            object.__setattr__(self, "descriptor", descriptor)

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            out = self.quick(value)
            if out is ASK_TYPER:
                return _typer_reader(self.descriptor)._coerce_value(value, param=param, ctx=ctx)
            return out


def read_quickly(params: Iterable[Any]) -> None:
    """Give each Typer option of ``params`` its quick reader (see the module's text)."""
    if _RuntimeParam is None:
        return
    for param in params:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is None or getattr(param, "_runtime_param", ASK_TYPER) is not None:
            continue  # not Typer's, or its reader is made already
        annotation = getattr(descriptor, "annotation", None)
        info = getattr(descriptor, "parameter_info", None)
        quick = quick_reader(annotation, info)
        if quick is not None:
            try:
                param._runtime_param = _Quick(info, annotation, quick, descriptor)
            except TypeError:  # pragma: no cover  (a RuntimeParam with other fields)
                return


# --- a command line with one command ----------------------------------------------------------


def has_command(app: typer.Typer, name: str) -> bool:
    """Whether ``app`` has a command or a group of commands called ``name``."""
    return any(c.name == name for c in app.registered_commands) or any(
        g.name == name for g in app.registered_groups
    )


def only(app: typer.Typer, name: str | None) -> typer.Typer:
    """A copy of ``app`` with just the command or group ``name`` (None: the root alone)."""
    import copy

    root = copy.copy(app)
    root.registered_commands = [c for c in app.registered_commands if c.name == name]
    root.registered_groups = [g for g in app.registered_groups if g.name == name]
    return root


def register_after(
    app: typer.Typer, name: str, function: Any, cls: type, after: str | None
) -> None:
    """Register ``function`` as the command ``name`` of ``app`` (of class ``cls``), listed just
    after the command ``after`` (help lists commands in registration order)."""
    app.command(name, cls=cls)(function)
    info = app.registered_commands.pop()
    places = [c.name for c in app.registered_commands]
    at = places.index(after) + 1 if after in places else len(places)
    app.registered_commands.insert(at, info)
