"""``gongzhu-score match chart`` and ``match summary``: the match to share, as a picture or as a
few lines for a group chat.

Importing this module registers both on :mod:`.match`'s ``match_app``, which it hands on (the
root takes the match group from here), so that :mod:`.match` need not import this module back.
What they draw and write is the library's (:mod:`..render.chart`, :mod:`..render.summary`),
imported when they run: no other command pays for matplotlib.
"""

from __future__ import annotations

import typer

from ..errors import InputError
from ..terms import count_of_hands, say
from .boundary import HelpOpt
from .match import match_app
from .options import LangOpt, LedgerArg, OutputOpt, language, output_needed

__all__ = ["match_app", "match_chart", "match_summary"]


@match_app.command("chart")
def match_chart(
    ledger_file: LedgerArg,
    output: OutputOpt = None,
    lang_asked: LangOpt = None,
    help: HelpOpt = False,
) -> None:
    """Draw the match as a picture to share (SVG or PNG), with the end line.

    Every player's running total, hand by hand: the totals the end is decided on (raw totals;
    final totals in team play), in the table's language. --output FILE.svg or FILE.png.

    Needs the chart extra: pip install 'gongzhu-score[chart]'.

    Examples:
      gongzhu-score match chart tonight.yaml -o tonight.svg
      gongzhu-score match chart 牌局.yaml -o 牌局.png --lang zh
    """
    from ..match.storage import read_ledger
    from ..render.chart import chart_format, write_chart

    lang = language(lang_asked)
    output = output_needed(output, "match chart")
    try:
        chart_format(output)
    except InputError as e:
        raise e.within(f"--output {output}") from None
    ledger = read_ledger(ledger_file)
    write_chart(ledger, output, lang)
    count = count_of_hands(ledger.count, lang)
    typer.echo(say("chart.written", lang, count=count, file=output))


@match_app.command("summary")
def match_summary(
    ledger_file: LedgerArg, lang_asked: LangOpt = None, help: HelpOpt = False
) -> None:
    """The match in a few lines to paste into a group chat (at most 40 columns wide).

    The standings on the totals the end is decided on, how far each player is from the end
    line, the pig (当猪) once it is over, and the hands played.

    Examples:
      gongzhu-score match summary tonight.yaml
      gongzhu-score match summary 牌局.yaml --lang zh
    """
    from ..match.storage import read_ledger
    from ..render.summary import match_summary as summary_of

    typer.echo(summary_of(read_ledger(ledger_file), language(lang_asked)), nl=False)
