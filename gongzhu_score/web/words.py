"""The table page's own words, in English; the catalogs translate them (``page.KEY``).

They are its tabs, buttons, the entry panel's hints, the confirmations and what it says when
another phone got there first. The server puts :func:`page_words` into the state it sends
(``state["words"]``); the page (``static/app.js``) looks every word up there, so it speaks the
language it was opened in. The texts from the library (the status line, a hand's table, its
explanation, the rules, error messages) come already in that language and are not repeated here.

A word may have ``{name}``-style fields; the page fills them in (``fill`` in app.js), always as
text. Each language says them as its tables do (确认, 撤销上一手, 剩下的都给…).
"""

from __future__ import annotations

from ..terms import translations

__all__ = ["WORDS", "page_words"]

# One term a line, in English (each catalog in gongzhu_score/locale/ translates it).
# fmt: off
WORDS: dict[str, str] = {
    "title": "Gongzhu score",
    "loading": "Loading…",
    "offline": "Connection lost: trying again…",

    "tab.standings": "Standings",
    "tab.entry": "Enter a hand",
    "tab.hands": "Hands",
    "tab.rules": "Rules",

    "standings.raw": "Raw totals: they decide the end",
    "standings.final": "Final totals: they decide the end",
    "standings.finals": "final total",
    "standings.raws": "raw total",
    "standings.to_go": "{points} to go",
    "standings.past_end": "past the end line",
    "standings.end_at": "end line {line}",
    "chart.title": "The evening, hand by hand",
    "chart.start": "start",

    "hands.none": "No hands yet.",
    "hands.number": "#",
    "hands.pig": "pig",
    "hands.cell": "Each cell: the hand's raw score (the running total below).",
    "hands.cell_final": "Each cell: the hand's final score (the running total below).",
    "hand.title": "Hand {number}",
    "hand.explain": "Step by step",
    "hand.edit": "Edit",
    "hand.remove": "Remove",
    "hand.close": "Close",

    "entry.pick": "Pick a player, then tap the cards they took.",
    "entry.pick_first": "Pick a player first.",
    "entry.held": "{card} is with {name}: tap it with {name} picked to take it back.",
    "entry.rest": "The rest to {name}",
    "entry.rest_none": "The rest to …",
    "entry.rest_is": "{name} takes the rest",
    "entry.missing": "Still missing:",
    "entry.all_in": "Every scoring card is placed.",
    "entry.exposed": "Exposed (亮牌)",
    "entry.first_exposed": "first (首明)",
    "entry.nobody": "–",
    "entry.first_pig": "Who took the first pig?",
    "entry.note": "Note (optional)",
    "entry.raw": "raw",
    "entry.final": "final",
    "entry.confirm": "Confirm",
    "entry.clear": "Clear",
    "entry.undo": "Undo last hand",
    "entry.editing": "Editing hand {number}",
    "entry.stop_edit": "Stop editing",
    "entry.over": "The match is over.",

    "card.QS": "pig",
    "card.JD": "sheep",
    "card.10C": "transformer",
    "suit.S": "spades",
    "suit.H": "hearts",
    "suit.D": "diamonds",
    "suit.C": "clubs",

    "ask.add": "Add this as hand {number}?",
    "ask.edit": "Replace hand {number} with this?",
    "ask.remove": "Remove hand {number}? The totals after it are worked out again.",
    "ask.undo": "Take out the last hand, hand {number}?",
    "ask.before": "before",
    "ask.after": "after",
    "ask.yes": "Yes",
    "ask.no": "Cancel",

    "conflict": "Another phone or the command line got there first: this is what it did.",
    "conflict.kept": "Your entry is kept: confirm it again, or discard it.",
    "conflict.discard": "Discard my entry",
    "notice.close": "OK",
}
# fmt: on


def page_words(lang: str) -> dict[str, str]:
    """The page's words in ``lang``, by key (catalog entry ``page.KEY``).

    ``lang`` is one of :data:`~gongzhu_score.terms.LANGS`.

    >>> page_words("zh")["entry.confirm"]
    '确认'
    """
    catalog = translations(lang)
    return {key: catalog.pgettext(f"page.{key}", english) for key, english in WORDS.items()}
