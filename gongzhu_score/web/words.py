"""The table page's own words, in English and Chinese: its tabs, buttons, the entry panel's hints,
the confirmations and what it says when another phone got there first. The server puts
:func:`page_words` into the state it sends (``state["words"]``); the page (``static/app.js``)
looks every word up there, so the page speaks the language it was opened in. The texts from the
library (the status line, a hand's table, its explanation, the rules, error messages) come
already in that language and are not repeated here.

A word may have ``{name}``-style fields; the page fills them in (``fill`` in app.js), always as
text. Chinese is written as a Chinese table says it (确认, 撤销上一手, 剩下的都给…).
"""

from __future__ import annotations

from ..terms import LANGS

__all__ = ["WORDS", "page_words"]

# One term a line, English then Chinese.
# fmt: off
WORDS: dict[str, tuple[str, str]] = {
    "title": ("Gongzhu score", "拱猪记分"),
    "loading": ("Loading…", "加载中…"),
    "offline": ("Connection lost: trying again…", "连接断开，正在重连…"),

    "tab.standings": ("Standings", "比分"),
    "tab.entry": ("Enter a hand", "记一局"),
    "tab.hands": ("Hands", "各局"),
    "tab.rules": ("Rules", "规则"),

    "standings.raw": ("Raw totals: they decide the end", "原始分合计（决定终局）"),
    "standings.final": ("Final totals: they decide the end", "最后得分合计（决定终局）"),
    "standings.finals": ("final total", "最后得分"),
    "standings.raws": ("raw total", "原始分"),
    "standings.to_go": ("{points} to go", "还差 {points} 分"),
    "standings.past_end": ("past the end line", "已过终局线"),
    "standings.end_at": ("end line {line}", "终局线 {line}"),
    "chart.title": ("The evening, hand by hand", "每局走势"),
    "chart.start": ("start", "开始"),

    "hands.none": ("No hands yet.", "还没有记过牌局。"),
    "hands.number": ("#", "局"),
    "hands.pig": ("pig", "收猪"),
    "hands.cell": ("Each cell: the hand's raw score (the running total below).",
                   "每格：本局原始分（下面是累计）。"),
    "hands.cell_final": ("Each cell: the hand's final score (the running total below).",
                         "每格：本局最后得分（下面是累计）。"),
    "hand.title": ("Hand {number}", "第 {number} 局"),
    "hand.explain": ("Step by step", "逐步计算"),
    "hand.edit": ("Edit", "修改"),
    "hand.remove": ("Remove", "删除"),
    "hand.close": ("Close", "收起"),

    "entry.pick": ("Pick a player, then tap the cards they took.", "先选玩家，再点他收的分牌。"),
    "entry.pick_first": ("Pick a player first.", "请先选玩家。"),
    "entry.held": ("{card} is with {name}: tap it with {name} picked to take it back.",
                   "{card}在{name}那里：先选{name}再点，才能拿回。"),
    "entry.rest": ("The rest to {name}", "剩下的都给{name}"),
    "entry.rest_none": ("The rest to …", "剩下的都给…"),
    "entry.rest_is": ("{name} takes the rest", "剩下的归{name}"),
    "entry.missing": ("Still missing:", "还差："),
    "entry.all_in": ("Every scoring card is placed.", "分牌都齐了。"),
    "entry.exposed": ("Exposed (亮牌)", "亮牌"),
    "entry.first_exposed": ("first (首明)", "首明"),
    "entry.nobody": ("–", "无"),
    "entry.first_pig": ("Who took the first pig?", "谁先收到第一只猪？"),
    "entry.note": ("Note (optional)", "备注（可不填）"),
    "entry.raw": ("raw", "原始分"),
    "entry.final": ("final", "最后得分"),
    "entry.confirm": ("Confirm", "确认"),
    "entry.clear": ("Clear", "清空"),
    "entry.undo": ("Undo last hand", "撤销上一手"),
    "entry.editing": ("Editing hand {number}", "正在修改第 {number} 局"),
    "entry.stop_edit": ("Stop editing", "不改了"),
    "entry.over": ("The match is over.", "本场已结束。"),

    "card.QS": ("pig", "猪"),
    "card.JD": ("sheep", "羊"),
    "card.10C": ("transformer", "变压器"),
    "suit.S": ("spades", "黑桃"),
    "suit.H": ("hearts", "红桃"),
    "suit.D": ("diamonds", "方块"),
    "suit.C": ("clubs", "梅花"),

    "ask.add": ("Add this as hand {number}?", "把这一局记为第 {number} 局？"),
    "ask.edit": ("Replace hand {number} with this?", "用这一局替换第 {number} 局？"),
    "ask.remove": ("Remove hand {number}? The totals after it are worked out again.",
                   "删除第 {number} 局？之后的合计会重新计算。"),
    "ask.undo": ("Take out the last hand, hand {number}?", "撤销最后一局（第 {number} 局）？"),
    "ask.before": ("before", "原来"),
    "ask.after": ("after", "改后"),
    "ask.yes": ("Yes", "确定"),
    "ask.no": ("Cancel", "取消"),

    "conflict": ("Another phone or the command line got there first: this is what it did.",
                 "另一部手机或命令行抢先改了，这是它记的："),
    "conflict.kept": ("Your entry is kept: confirm it again, or discard it.",
                      "你录的这一局还在：可以再确认，或者放弃。"),
    "conflict.discard": ("Discard my entry", "放弃我录的"),
    "notice.close": ("OK", "知道了"),
}
# fmt: on


def page_words(lang: str) -> dict[str, str]:
    """The page's words in ``lang`` (``en`` or ``zh``), by key.

    >>> page_words("zh")["entry.confirm"]
    '确认'
    """
    index = LANGS.index(lang)
    return {key: pair[index] for key, pair in WORDS.items()}
