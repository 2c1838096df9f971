"""Click's usage errors (a bad option, a bad value, a missing argument) in the table's language.

English says Click's own words; every other language says them from its catalog (``usage.…``),
each error read from its attributes and its class, by name: Typer 0.29 carries its own copy of
Click, older Typers use Click itself, and the names are the same in both. Pydantic's words for a
value refused (Typer 0.29 reads values with it) are matched and said too.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import Said
from ..terms import Listed, place, say
from .help import said_in

__all__ = ["usage_error"]

# Click's and pydantic's words for a value refused, and the term that says each ({given}: the
# value typed, which pydantic's words leave out); a value refused in other words keeps them.
_VALUE_WORDS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"(?:Value error, )?(?P<value>'.*') is not one of (?P<choices>.*?)\.?"),
     "usage.value.choices"),
    (re.compile(r"(?P<value>'.*') is not a valid int(?:eger)?(?: range)?\.?"), "usage.value.int"),
    (re.compile(r"Input should be a valid integer.*"), "usage.value.int_given"),
    (re.compile(r"(?P<value>\S+) is not in the range (?P<range>\S+?)\.?"), "usage.value.range"),
    (re.compile(r"Input should be greater than or equal to (?P<low>\S+)"), "usage.value.at_least"),
    (re.compile(r"Input should be less than or equal to (?P<high>\S+)"), "usage.value.at_most"),
    (re.compile(r"Input should be greater than (?P<low>\S+)"), "usage.value.above"),
    (re.compile(r"Input should be less than (?P<high>\S+)"), "usage.value.below"),
]  # fmt: skip
_EXTRA = re.compile(r"Got unexpected extra arguments? ?(?:\(s\))? \((?P<args>.*)\)")
_NO_COMMAND = re.compile(r"No such command (?P<name>'.*?')\.(?: Did you mean (?P<close>.*)\?)?")
_OPTION_USAGE = {
    re.compile(r"Option '.*' requires (?:an argument|\d+ arguments)\."): "usage.needs_value",
    re.compile(r"Option '.*' does not take a value\."): "usage.takes_no_value",
}


def usage_error(e: Any, lang: str) -> str:
    """One of Click's usage errors (a bad option, a bad value, a missing argument) in
    ``lang``: Click's own words in English, the catalog's in any other language."""
    if lang == "en":  # (Typer's choice errors read "Value error, 'x' is not one of …")
        return str(e.format_message()).replace("Value error, ", "")
    formats = getattr(e, "formats", None)  # (a --format the command does not print)
    if formats is not None:
        return say("error.cli.format_of", lang, value=repr(e.value), formats=Listed(formats))
    return _said(e, lang).text(lang)


def _said(e: Any, lang: str) -> Said:
    kinds = {kind.__name__ for kind in type(e).__mro__}
    message = str(getattr(e, "message", "") or "")
    if "NoSuchOption" in kinds:
        close = sorted(getattr(e, "possibilities", None) or ())
        hint = place("usage.did_you_mean", names=Listed(close)) if close else ""
        return place("usage.no_such_option", name=e.option_name, hint=hint)
    if "MissingParameter" in kinds:
        param = getattr(e, "param", None)
        kind = getattr(e, "param_type", None) or getattr(param, "param_type_name", "argument")
        missing = "usage.missing.option" if kind == "option" else "usage.missing.argument"
        return place(missing, name=_hint(e, lang))
    if "BadParameter" in kinds:
        hint = _hint(e, lang)
        why = _value_words(message, e)
        return place("usage.invalid_for", name=hint, why=why) if hint else place(
            "usage.invalid", why=why)  # fmt: skip
    if "BadOptionUsage" in kinds:
        key = next((k for p, k in _OPTION_USAGE.items() if p.fullmatch(message)), None)
        return place(key, name=repr(e.option_name)) if key else place("usage.as_said", text=message)
    found = _EXTRA.fullmatch(message)
    if found is not None:
        return place("usage.extra", args=found.group("args"))
    found = _NO_COMMAND.fullmatch(message)
    if found is not None:
        near = found.group("close")
        hint = place("usage.did_you_mean", names=Listed(near.split(", "))) if near else ""
        return place("usage.no_such_command", name=found.group("name"), hint=hint)
    if message == "Missing command.":
        return place("usage.missing_command")
    return place("usage.as_said", text=str(e.format_message()))


def _hint(e: Any, lang: str) -> str:
    """The parameter an error is about, as Click names it (``'--scale'``, ``'-f' / '--format'``),
    an argument by its value's name as help shows it in ``lang`` (``'记录.yaml'``)."""
    hint = getattr(e, "param_hint", None)
    if hint is not None:
        return str(hint) if isinstance(hint, str) else " / ".join(repr(h) for h in hint)
    param = getattr(e, "param", None)
    if param is None:
        return ""
    if param.param_type_name == "argument":
        return repr(said_in(str(param.metavar or param.name.upper()).strip("[]"), lang, "metavar"))
    return " / ".join(repr(o) for o in param.opts)


def _value_words(message: str, e: BaseException) -> Said | str:
    for pattern, key in _VALUE_WORDS:
        found = pattern.fullmatch(message.strip())
        if found is None:
            continue
        values = found.groupdict()
        if "choices" in values:
            values["choices"] = Listed(re.findall(r"'[^']*'", values["choices"]))
        return place(key, given=_given(e), **values)
    return message


def _given(e: BaseException) -> Said:
    """The value typed, as a pydantic error behind ``e`` keeps it, or "the value"."""
    errors = getattr(e.__cause__, "errors", None)
    try:
        value = errors()[0]["input"] if callable(errors) else None
    except (TypeError, LookupError, ValueError):
        value = None
    if isinstance(value, str):
        return place("usage.given", value=repr(value))
    return place("usage.a_value")
