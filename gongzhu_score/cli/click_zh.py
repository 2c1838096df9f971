"""Click's own words in Chinese, for ``--lang zh`` (or ``GONGZHU_LANG=zh``): every help page,
and Click's usage errors (``No such option``, ``Missing argument``, ``Invalid value`` …).

The Chinese is data, in :mod:`.help_zh`; the English stays where it is declared (the commands'
docstrings, each option's ``help=``), and docs/cli.md is made from it. A help page is laid out
here the way Click lays out the English one (usage, text, arguments, options, commands), but
measured in display columns, a Chinese character being two wide, so that it fits the terminal
as the English does; Click's layout counts characters. A text with no Chinese yet (a command
added since) is shown in English rather than not at all; ``tests/test_help_zh.py`` names every
one. This module is imported only to show help or a usage error in Chinese.

Click's errors are read from their documented attributes (``option_name``, ``param``,
``param_hint``, ``possibilities``) and their class, by name: Typer 0.29 carries its own copy of
Click (``typer._click``), older Typers use Click itself, and the names are the same in both.
"""

from __future__ import annotations

import inspect
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from .help_zh import BY_ENGLISH, EXTRAS, HEADINGS, HELP, METAVARS, USAGE

__all__ = ["chinese_of", "command_key", "help_page", "param_key", "usage_error_zh"]


# --- what is said: the Chinese of a command and of each of its parameters ----------------------


def command_key(ctx: Any) -> str:
    """A command as :data:`.help_zh.HELP` names it: its path without the program (``""`` for
    the root, ``score``, ``match add``)."""
    names: list[str] = []
    while ctx is not None and ctx.parent is not None:
        names.append(str(ctx.info_name))
        ctx = ctx.parent
    return " ".join(reversed(names))


def param_key(param: Any) -> str:
    """A parameter as :data:`.help_zh.HELP` names it: an option by its first long flag
    (``--captured``), an argument by the name help shows (``LEDGER``, ``N``, ``HAND.yaml``)."""
    if param.param_type_name == "argument":
        return str(param.metavar or param.name.upper()).strip("[]").removesuffix("...")
    longs = [o for o in param.opts if o.startswith("--")]
    return str(longs[0] if longs else param.opts[0])


def chinese_of(key: str, param: Any | None = None) -> str | None:
    """The Chinese help of the command ``key`` (``param`` None) or of its parameter ``param``:
    the command's own entry, else, for a parameter declared once for many commands, the entry
    of its English text; None when it has none."""
    own = HELP.get(key, {})
    if param is None:
        return own.get("")
    said = own.get(param_key(param))
    return said if said is not None else BY_ENGLISH.get(param.help or "")


def _metavar(text: str) -> str:
    """A value's name in Chinese (``NAME=CARDS`` → ``名字=牌``), with its ``[…]`` and ``...``."""
    optional = text.startswith("[") and text.endswith("]")
    core = text.strip("[]")
    many = core.endswith("...")
    core = METAVARS.get(core.removesuffix("..."), core.removesuffix("..."))
    core += "..." if many else ""
    return f"[{core}]" if optional else core


def _name_column(param: Any, name: str) -> str:
    if param.param_type_name == "argument":
        return " ".join(_metavar(part) for part in name.split(" "))
    metavar = param.metavar
    if metavar and name.endswith(f" {metavar}"):
        return f"{name[: -len(metavar)]}{_metavar(metavar)}"
    return name


_EXTRA = re.compile(r"\s*\[(?P<items>[^\[\]]*)\]$")


def _extras(param: Any, text: str) -> str:
    """What Click adds after an option's help (``[default: 1; 1<=x<=1000000]``), in Chinese."""
    english = param.help or ""
    found = _EXTRA.search(text[len(english) :] if text.startswith(english) else "")
    if found is None:
        return ""
    items = []
    for item in found.group("items").split("; "):
        word, sep, value = item.partition(": ")
        if word in EXTRAS:
            items.append(f"{EXTRAS[word]}{HEADINGS['colon']}{value}" if sep else EXTRAS[word])
        else:
            items.append(item)  # a range, 1<=x<=1000000, reads the same
    return f"[{HEADINGS['semicolon'].join(items)}]"


def _param_line(key: str, param: Any, name: str, text: str) -> tuple[str, str]:
    said = chinese_of(key, param)
    if said is None:
        return name, text  # (tests/test_help_zh.py names it)
    extras = _extras(param, text)
    return _name_column(param, name), f"{said}  {extras}" if extras else said


def _short(text: str, limit: int) -> str:
    """A command's line in its group's list: its first sentence, cut to ``limit`` columns."""
    first = text.strip().split("\n\n")[0]
    first = _joined(first.splitlines())
    end = first.find("。")
    first = first[: end + 1] if end >= 0 else first
    if width(first) <= limit:
        return first
    while first and width(first) > limit - 1:
        first = first[:-1]
    return first.rstrip("，、；：") + "…"


# --- the page ----------------------------------------------------------------------------------


def help_page(command: Any, ctx: Any, records: Sequence[tuple[Any, str, str]]) -> str:
    """``command``'s ``--help`` in Chinese, as wide as Click would make the English one."""
    key = command_key(ctx)
    page = _Page(ctx.make_formatter().width)  # (Click's width: the terminal's, or the tests')
    pieces = [USAGE.get(piece, _metavar(piece)) for piece in command.collect_usage_pieces(ctx)]
    page.usage(ctx.command_path, " ".join(pieces))
    text = chinese_of(key) or command.help or ""
    text = inspect.cleandoc(text).partition("\f")[0]
    if text:
        page.paragraph()
        page.text(text, 2)
    arguments = [
        _param_line(key, p, n, t) for p, n, t in records if p.param_type_name == "argument"
    ]
    options = [_param_line(key, p, n, t) for p, n, t in records if p.param_type_name != "argument"]
    page.section(HEADINGS["arguments"], arguments)
    page.section(HEADINGS["options"], options)
    names = command.list_commands(ctx) if hasattr(command, "list_commands") else []
    shown = [
        (n, c) for n in names if (c := command.get_command(ctx, n)) is not None and not c.hidden
    ]
    if shown:
        limit = page.width - 6 - max(width(n) for n, _ in shown)
        rows = []
        for name, sub in shown:
            said = chinese_of(f"{key} {name}".strip())
            rows.append((name, _short(said, limit) if said else sub.get_short_help_str(limit)))
        page.section(HEADINGS["commands"], rows)
    return page.text_so_far().rstrip("\n")


def width(text: str) -> int:
    """Display columns: two for a wide character (CJK, full-width punctuation), else one."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _wide(c: str) -> bool:
    return unicodedata.east_asian_width(c) in "WF"


# Not at the start of a line (closing punctuation), not at its end (opening brackets).
_NO_START = set("，。、；：？！）》」』】…”’")
_NO_END = set("（《「『【“‘")
# After these a line may break even before a narrow character (、simple).
_BREAK_AFTER = set("，。、；：？！")
# Words a line never breaks within: the names of the suits and of the transformer.
_WORDS = ("红桃", "黑桃", "方块", "梅花", "变压器")


def _joined(lines: Iterable[str]) -> str:
    """Lines of one paragraph as one line: a space where one ends or the next starts with a
    word (``加上 --claim``), none between two characters (``规则文件``) nor after a Chinese
    comma or stop."""
    out = ""
    for line in (line.strip() for line in lines):
        if out and line:
            a, b = out[-1], line[0]
            if not ((_wide(a) and _wide(b)) or a in _BREAK_AFTER or b in _NO_START):
                out += " "
        out += line
    return out


def _pieces(text: str) -> list[tuple[str, bool]]:
    """``text`` cut where a line may break: (piece, whether a space comes before it). At a
    space, and between two wide characters unless the second closes (，。）) or the first opens
    (（), or after a Chinese comma, stop or colon; never within ``[…]`` (``[默认：1]``) nor
    else between a wide character and a narrow one it touches (``红桃A``, ``北=``)."""
    pieces: list[tuple[str, bool]] = []
    for word in text.split(" "):
        if not word:
            continue
        start, depth = 0, 0
        whole = {
            i for w in _WORDS for m in re.finditer(w, word) for i in range(m.start() + 1, m.end())
        }
        for i in range(1, len(word)):
            a, b = word[i - 1], word[i]
            depth += (a == "[") - (a == "]")
            wide = (_wide(a) and _wide(b)) or a in _BREAK_AFTER
            if depth <= 0 and wide and i not in whole and b not in _NO_START and a not in _NO_END:
                pieces.append((word[start:i], start == 0))
                start = i
        pieces.append((word[start:], start == 0))
    return pieces


def _wrap(text: str, columns: int, first: str, rest: str) -> list[str]:
    """One paragraph filled to ``columns`` display columns, the first line after ``first``,
    the others after ``rest``. Closing punctuation that would start a line takes the piece it
    closes down with it (or, where nothing can go down, the line runs over)."""
    lines: list[str] = []
    indent = first
    line: list[tuple[str, int]] = []  # the line being filled: (piece, spaces before it)
    for piece, spaced in _pieces(text):
        gap = 1 if spaced and line else 0
        used = width(indent) + sum(g + width(p) for p, g in line)
        if line and used + gap + width(piece) > columns:
            carried = _carried(line) if piece[0] in _NO_START else []
            if piece[0] not in _NO_START or carried:
                lines.append(indent + "".join(" " * g + p for p, g in line))
                indent, line = rest, [(p, 0 if i == 0 else g) for i, (p, g) in enumerate(carried)]
                gap = gap if carried else 0
        line.append((piece, gap))
    lines.append(indent + "".join(" " * g + p for p, g in line))
    return lines


def _carried(line: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """What goes down to the next line with a closing mark: the line's last piece that is not
    one, and the closing marks after it; none when that would leave the line empty."""
    for i in range(len(line) - 1, 0, -1):
        if line[i][0][0] not in _NO_START:
            carried = line[i:]
            del line[i:]
            return carried
    return []


class _Page:
    """A help page being written, as Click's HelpFormatter writes one, in display columns."""

    def __init__(self, columns: int) -> None:
        self.width = columns
        self.indent = 0
        self.out: list[str] = []

    def text_so_far(self) -> str:
        return "".join(self.out)

    def paragraph(self) -> None:
        if self.out:
            self.out.append("\n")

    def usage(self, prog: str, args: str) -> None:
        prefix = f"{HEADINGS['usage']}{prog} "
        if width(prefix) + 20 <= self.width:
            lines = _wrap(args, self.width, prefix, " " * width(prefix))
        else:
            lines = [prefix.rstrip(), *_wrap(args, self.width, " " * 4, " " * 4)]
        self.out.append("\n".join(lines) + "\n")

    def text(self, text: str, indent: int) -> None:
        """Paragraphs, refilled, but those that start with a line of ``\\b`` (kept as typed)."""
        self.indent += indent
        self.out.append("\n\n".join(self._paragraphs(text, self.width, " " * self.indent)) + "\n")
        self.indent -= indent

    def _paragraphs(self, text: str, columns: int, indent: str) -> list[str]:
        out = []
        for block in re.split(r"\n\s*\n", text.expandtabs()):
            lines = block.splitlines()
            if not lines:
                continue
            if lines[0].strip() == "\b":
                out.append("\n".join(indent + line for line in lines[1:]))
                continue
            own = " " * (len(lines[0]) - len(lines[0].lstrip()))
            said = _joined(lines)
            out.append("\n".join(_wrap(said, columns, indent + own, indent + own)))
        return out

    def section(self, heading: str, rows: Sequence[tuple[str, str]]) -> None:
        if not rows:
            return
        self.paragraph()
        self.out.append(f"{' ' * self.indent}{heading}{HEADINGS['colon']}\n")
        self.indent += 2
        self._definitions(rows)
        self.indent -= 2

    def _definitions(self, rows: Sequence[tuple[str, str]]) -> None:
        """Names and their texts in two columns, as Click's ``write_dl`` sets them."""
        first = min(max(width(name) for name, _ in rows), 30) + 2
        columns = max(self.width - first - 2, 10)
        for name, text in rows:
            self.out.append(" " * self.indent + name)
            if not text:
                self.out.append("\n")
                continue
            if width(name) <= first - 2:
                self.out.append(" " * (first - width(name)))
            else:
                self.out.append("\n" + " " * (first + self.indent))
            lines = "\n\n".join(self._paragraphs(text, columns, "")).splitlines()
            self.out.append(f"{lines[0]}\n" if lines else "\n")
            self.out.extend(f"{' ' * (first + self.indent)}{line}\n" for line in lines[1:])


# --- Click's usage errors ----------------------------------------------------------------------


def _kinds(e: BaseException) -> set[str]:
    return {kind.__name__ for kind in type(e).__mro__}


def _hint(e: Any) -> str:
    """The parameter an error is about, as Click names it (``'--scale'``, ``'-f' / '--format'``),
    an argument by its name in Chinese (``'比赛记录'``)."""
    hint = getattr(e, "param_hint", None)
    if hint is not None:
        return str(hint) if isinstance(hint, str) else " / ".join(repr(h) for h in hint)
    param = getattr(e, "param", None)
    if param is None:
        return ""
    if param.param_type_name == "argument":
        return repr(_metavar(str(param.metavar or param.name.upper()).strip("[]")))
    return " / ".join(repr(o) for o in param.opts)


# Click's and pydantic's words for a value refused, and how they are said in Chinese ({given}:
# the value typed, which pydantic's words leave out); a value refused in other words keeps them.
_VALUE_WORDS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"(?:Value error, )?(?P<value>'.*') is not one of (?P<choices>.*?)\.?"), "choices"),
    (re.compile(r"(?P<value>'.*') is not a valid int(?:eger)?(?: range)?\.?"), "{value} 不是整数"),
    (re.compile(r"Input should be a valid integer.*"), "{given}不是整数"),
    (re.compile(r"(?P<value>\S+) is not in the range (?P<range>\S+?)\.?"),
     "{value} 不在范围 {range} 内"),
    (re.compile(r"Input should be greater than or equal to (?P<low>\S+)"), "{given}小于 {low}"),
    (re.compile(r"Input should be less than or equal to (?P<high>\S+)"), "{given}大于 {high}"),
    (re.compile(r"Input should be greater than (?P<low>\S+)"), "{given}不大于 {low}"),
    (re.compile(r"Input should be less than (?P<high>\S+)"), "{given}不小于 {high}"),
]  # fmt: skip


def _given(e: BaseException) -> str:
    """The value typed, as a pydantic error behind ``e`` keeps it (``'x' ``), or ``值``."""
    errors = getattr(e.__cause__, "errors", None)
    try:
        value = errors()[0]["input"] if callable(errors) else None
    except (TypeError, LookupError, ValueError):
        value = None
    return f"{value!r} " if isinstance(value, str) else "值"


def _value_words(message: str, given: str) -> str:
    for pattern, said in _VALUE_WORDS:
        found = pattern.fullmatch(message.strip())
        if found is None:
            continue
        if said == "choices":
            choices = re.findall(r"'[^']*'", found.group("choices"))
            return f"{found.group('value')} 不是 {'、'.join(choices)} 之一"
        return said.format(given=given, **found.groupdict())
    return message


_EXTRA_ARGUMENTS = re.compile(r"Got unexpected extra arguments? ?(?:\(s\))? \((?P<args>.*)\)")
_NO_COMMAND = re.compile(r"No such command (?P<name>'.*?')\.(?: Did you mean (?P<close>.*)\?)?")


def usage_error_zh(e: Any) -> str:
    """A usage error of Click's, or one of its other errors, in Chinese (its English words when
    it is of a kind not known here)."""
    kinds = _kinds(e)
    message = str(getattr(e, "message", "") or "")
    if "NoSuchOption" in kinds:
        close = sorted(getattr(e, "possibilities", None) or ())
        said = f"没有这个选项：{e.option_name}"
        return f"{said}；是不是要写 {'、'.join(close)}？" if close else said
    if "MissingParameter" in kinds:
        param = getattr(e, "param", None)
        kind = getattr(e, "param_type", None) or getattr(param, "param_type_name", "parameter")
        what = {"argument": "参数", "option": "选项"}.get(str(kind), "参数")
        return f"缺少{what} {_hint(e)}".rstrip()
    if "BadParameter" in kinds:
        hint = _hint(e)
        said = _value_words(message, _given(e))
        return f"{hint} 的值无效：{said}" if hint else f"值无效：{said}"
    if "BadOptionUsage" in kinds:
        name = e.option_name
        if re.fullmatch(r"Option '.*' requires (?:an argument|\d+ arguments)\.", message):
            return f"选项 '{name}' 需要一个值"
        if re.fullmatch(r"Option '.*' does not take a value\.", message):
            return f"选项 '{name}' 不带值"
        return message
    found = _EXTRA_ARGUMENTS.fullmatch(message)
    if found is not None:
        return f"多余的参数：{found.group('args')}"
    found = _NO_COMMAND.fullmatch(message)
    if found is not None:
        near = found.group("close")
        said = f"没有这个命令：{found.group('name')}"
        return f"{said}；是不是要写 {near.replace(', ', '、')}？" if near else said
    if message == "Missing command.":
        return "缺少命令"
    return str(e.format_message())
