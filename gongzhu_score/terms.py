"""Every word the tool shows people, in English and Chinese: one table, one lookup.

``TERMS[key] = (english, chinese)``; :func:`say` picks the language and fills in the values.
Machine formats (JSON, CSV, YAML) never go through here: their keys stay English whatever the
language, so scripts do not depend on ``--lang``. Values may be a :class:`Names` (joined with
"and"/"、", or "nobody"), :class:`Cards` (their symbols, or "nothing"), a :class:`Suit` (its
word), or anything with a ``str``.
"""

from __future__ import annotations

from collections.abc import Iterable

from .core.cards import Card, Suit
from .core.variant import Variant

__all__ = ["LANGS", "TERMS", "Cards", "Names", "colon", "join", "say", "title"]

LANGS = ("en", "zh")

# One term a line, English then Chinese, so the two can be read side by side.
# fmt: off
TERMS: dict[str, tuple[str, str]] = {
    # --- punctuation and joining words
    "colon": (": ", "："),
    "comma": (", ", "，"),
    "list": (", ", "、"),
    "and": (" and ", "、"),
    "or": (" or ", "、"),
    "nobody": ("nobody", "无人"),
    "nothing": ("nothing", "无"),
    "none": ("none", "无"),
    "suit.S": ("spades", "黑桃"),
    "suit.H": ("hearts", "红桃"),
    "suit.D": ("diamonds", "方块"),
    "suit.C": ("clubs", "梅花"),
    # --- a scored hand (score, replay, match add)
    "seat": ("seat", "座位"),
    "player": ("player", "玩家"),
    "cards": ("scoring cards", "分牌"),
    "marks": ("marks", "标记"),
    "raw": ("raw", "原始分"),
    "final": ("final", "最后得分"),
    "sum": ("sum", "合计"),
    "variant": ("variant", "规则"),
    "normalize": ("normalize", "计分"),
    "exposed": ("exposed", "亮牌"),
    "full_red": ("full red", "全红"),
    "grand_slam": ("grand slam", "满贯"),
    "transformer": ("transformer", "变压器"),
    "transformer_alone": ("transformer alone", "单变压器"),
    "partial": ("PARTIAL tally, not captured by anyone", "部分计分，无人收的分牌"),
    "residue": ("(rounding leaves the finals summing to {residue})", "(四舍五入后合计为 {residue})"),
    "side": ("side", "一方"),
    "teams": ("teams", "组队"),
    "difference": ("difference", "相差"),
    "exposure.exposed": ("{card} ×{level} by {by}", "{card} ×{level} {by}亮"),
    "exposure.first_exposed": ("{card} ×{level} first-exposed (首明) by {by}",
                               "{card} ×{level} {by}首明"),
    "exposure.auto": ("{card} ×{level} auto-exposed", "{card} ×{level} 自动亮"),
    "teams.none": ("none", "无"),
    "teams.partners": ("partners (打对家)", "对家"),
    "teams.pig-sheep": ("pig-sheep (猪羊一家)", "猪羊一家"),
    "method": ("{describe}", "{word} ({describe})"),
    "method.none": ("none", "原始分"),
    "method.zero-sum": ("zero-sum", "零和"),
    "method.jj": ("jj", "JJ算法"),
    "nick.QS": ("Q♠", "猪"),
    "nick.JD": ("J♦", "羊"),
    "nick.10C": ("10♣", "变压器"),
    "hearts_group": ("{ranks}", "红桃{ranks}"),
    # --- claims
    "claims": ("claims", "自报得分"),
    "claim_ok": ("{name} claimed {claimed}: right", "{name} 自报 {claimed}：正确"),
    "claim_wrong": ("{name} claimed {claimed}: WRONG, the {kind} score is {actual} "
                    "(the claim is off by {diff})",
                    "{name} 自报 {claimed}：不对，{kind}应为 {actual}（差 {diff}）"),
    # --- variants
    "rule": ("rule", "规则"),
    "value": ("value", "值"),
    "name": ("name", "名称"),
    "title": ("title", "说明"),
    "source": ("source", "出处"),
    # --- explain
    "x.title": ("Rules: {name} ({title})", "规则：{name}（{title}）"),
    "x.partial": ("PARTIAL tally: nobody took {cards}", "部分计分：无人收的分牌 {cards}"),
    "x.player": ("{name} (seat {seat}): raw {raw}, final {final}",
                 "{name}（座位 {seat}）：原始分 {raw}，最后得分 {final}"),
    "x.rule": (" (rule {name})", "（规则 {name}）"),
    "x.none_taken": ("No scoring cards taken: raw 0.", "没有收到分牌：原始分 0"),
    "x.taken": ("Scoring cards taken: {cards}.", "收到的分牌：{cards}"),
    "x.grand_slam": ("Grand slam (满贯): every scoring card, so the hearts and the pig count "
                     "positive{rule}", "满贯：收齐全部分牌，红桃和猪都变为正分{rule}"),
    "x.hearts": ("Hearts {cards}: {values}{total}{rule}", "红桃 {cards}：{values}{total}{rule}"),
    "x.full_red_fixed": ("All {count} hearts (全红, full red): they count +{base} instead of "
                         "their values{rule}", "收全红（{count} 张红桃）：记 +{base}{rule}"),
    "x.full_red_flip": ("All {count} hearts (全红, full red): their values turn positive, "
                        "+{base}{rule}", "收全红（{count} 张红桃）：红桃全部变为正分，+{base}{rule}"),
    "x.pig": ("The pig Q♠ (猪): {value}{copies}{rule}", "猪（黑桃Q）：{value}{copies}{rule}"),
    "x.pig_positive_slam": ("The grand slam turns the pig Q♠ positive: +{total}{rule}",
                            "满贯，猪变为正分：+{total}{rule}"),
    "x.pig_positive_red": ("Full red turns the pig Q♠ positive (house rule): +{total}{rule}",
                           "全红，猪也变为正分（本桌规则）：+{total}{rule}"),
    "x.sheep": ("The sheep J♦ (羊): +{value}{copies}{rule}", "羊（方块J）：+{value}{copies}{rule}"),
    "x.alone": ("The transformer 10♣ (变压器) with no other scoring card{note}: +{value}{rule}",
                "只收变压器（梅花10），没有其他分牌{note}：+{value}{rule}"),
    "x.zero_note": (" ({cards} are worth 0 and do not count here: rule {why})",
                    "（{cards} 为 0 分，不算其他分牌：规则 {why}）"),
    "x.alone_times": ("The transformer's multiplier ×{factor}: +{base} × {factor} = +{total}",
                      "变压器倍数 ×{factor}：+{base} × {factor} = +{total}"),
    "x.exposed_times": ("{why}: ×{factor}, {base} × {factor} = {total}{rule}",
                        "{why}，×{factor}：{base} × {factor} = {total}{rule}"),
    "x.subtotal": ("Subtotal: {parts} = {total}.", "小计：{parts} = {total}"),
    "x.transformer": ("The transformer 10♣ (变压器){took} multiplies by {t}{why}{zero}: "
                      "{subtotal} × {t} = {total}{rule}",
                      "变压器（梅花10）{took}翻倍 ×{t}{why}{zero}：{subtotal} × {t} = {total}{rule}"),
    "x.took": (" ({count} taken)", "（收了 {count} 张）"),
    "x.zero_sum": (" (the other cards sum to 0)", "（其他分牌合计为 0）"),
    "x.fixed_slam": ("The rules fix the grand slam at {fixed} (the formula gives {plain}): "
                     "{before} × {ratio} = {raw}{rule}",
                     "规则把满贯定为 {fixed}（公式为 {plain}）：{before} × {ratio} = {raw}{rule}"),
    "x.raw": ("Raw score (原始分): {raw}.", "原始分：{raw}"),
    "x.exposed_by": ("{card} was exposed{copies} by {by} (亮牌)", "{card}被{by}亮出{copies}"),
    "x.copies": (" ({count} copies)", "（{count} 张）"),
    "x.first_by": ("{card} was exposed by {by} as 首明 (first card drawn)", "{card}被{by}首明"),
    "x.auto": ("{card} counts as exposed because the other three were (auto-exposure)",
               "{card}自动亮（其余三张都已亮）"),
    "x.card.QS": ("the pig Q♠", "猪（黑桃Q）"),
    "x.card.JD": ("the sheep J♦", "羊（方块J）"),
    "x.card.10C": ("10♣", "变压器"),
    "x.card.AH": ("A♥", "红桃A"),
    "x.finals": ("Final scores (最后得分):", "最后得分："),
    "x.none": ("Final = raw{scale} (normalize none: paper scoring).",
               "最后得分 = 原始分{scale}（规则 normalize none）"),
    "x.jj": ("Final = 3 × raw − (the other three raws) (normalize jj).",
             "最后得分 = 3 × 原始分 − 其他三家原始分之和（JJ 算法，规则 normalize jj）"),
    "x.zero": ("Final = raw − (the other three raws)/3 (normalize zero-sum).",
               "最后得分 = 原始分 − 其他三家原始分之和 / 3（零和，规则 normalize zero-sum）"),
    "x.residue": ("After rounding the finals sum to {residue}, not 0.",
                  "四舍五入后，最后得分合计为 {residue}"),
    "x.teams": ("Teams, {mode}: {a} raw {a_raw}, {b} raw {b_raw}; difference {diff} (rule teams).",
                "组队（{mode}，规则 teams）：{a} 原始分 {a_raw}，{b} 原始分 {b_raw}，相差 {diff}"),
    "x.side_jj": ("{names}: each gets the difference, {text} (JJ 搭档).",
                  "{names}：各得相差 {text}（JJ 搭档）"),
    "x.side_share": ("{names}: each gets {diff}/{size} = {text}.", "{names}：各得 {diff}/{size} = {text}"),
    "x.partners": ("打对家 (partners)", "对家"),
    "x.pig-sheep": ("猪羊一家 (pig-sheep)", "猪羊一家"),
    "x.sep": (", ", "，"),
    "x.because": (" because ", "，因为"),
    "x.claims": ("Claims:", "自报得分："),
    # --- compare
    "c.refused": ("refused", "不接受"),
    "c.header": ("Differences from {base}:", "与 {base} 的不同："),
    "c.raws": ("{rule}: {changes}", "{rule}：{changes}"),
    "c.raw_change": ("{name} raw {before} → {after}", "{name} 原始分 {before} → {after}"),
    "c.finals": ("{rule}: changes the finals only", "{rule}：只改变最后得分"),
    "c.no_effect": ("{rule}: no effect on this hand", "{rule}：对本局无影响"),
    "c.not_alone": ("{rule} (goes with the rules above)", "{rule}（与上面的规则一起变）"),
    "c.refuses": ("{name} refuses the hand: {error}", "{name} 不接受这一局：{error}"),
    "c.same": ("{name}: the same rules", "{name}：规则相同"),
    "c.join": ("; ", "；"),
    # --- replay: the table
    "r.trick": ("trick", "圈"),
    "r.lead": ("lead", "首家"),
    "r.plays": ("plays, in order", "出牌（按顺序）"),
    "r.winner": ("winner", "赢家"),
    "r.took": ("scoring cards taken", "收到的分牌"),
    "r.legal": ("No violations: every play follows the rules.", "没有违规：每一张牌都合规。"),
    "r.violations": ("Violations ({count}):", "违规 ({count})："),
    "r.disagreements": ("Disagreements with the record:", "与记录不符："),
    "r.unscored": ("The captures cannot be scored: {error}", "无法计分: {error}"),
    # --- replay: what a record can break (RULINGS §11: legal play)
    "v.exposed_not_held": ("{name} exposed {card} but did not hold it",
                           "{name}亮了{card}，但手里没有这张牌"),
    "v.led_out_of_turn": ("trick {trick}: {lead} led, but {previous} won trick {before}",
                          "第{trick}圈：{lead}首出，但上一圈是{previous}赢的"),
    "v.lead_not_one_or_pair": ("trick {trick}: {lead} led {cards}; a lead is one card or a pair",
                               "第{trick}圈：{lead}首出{cards}；首出只能是一张或一对"),
    "v.deal_count": ("deal: {name} holds {count} cards, not {size}",
                     "发牌：{name}有{count}张牌，不是{size}张"),
    "v.not_dealt": ("{name} played {card}, which was not dealt to {name}",
                    "{name}出了{card}，但发给{name}的牌里没有"),
    "v.played_too_often.1": ("{card} is played {count} times; a deck holds one",
                             "{card}出了{count}次；一副牌只有一张"),
    "v.played_too_often.2": ("{card} is played {count} times; two decks hold two",
                             "{card}出了{count}次；两副牌只有两张"),
    "v.never_played": ("cards never played: {cards}", "没有出过的牌：{cards}"),
    "v.first_lead_holder": ("trick 1: {player} led, but {holders} held 2♣ (in the first hand "
                            "the holder of 2♣ leads it)",
                            "第1圈：{player}首出，但梅花2在{holders}手里（第一局由持梅花2者首出）"),
    "v.first_lead_card": ("trick 1: {player} led {cards}, not 2♣ (the first hand opens with 2♣)",
                          "第1圈：{player}首出{cards}，不是梅花2（第一局先出梅花2）"),
    "v.wrong_count": ("trick {trick}: {player} played {count} card(s) on a lead of {led}",
                      "第{trick}圈：{player}出了{count}张，首家出了{led}张"),
    "v.revoke": ("trick {trick}: {player} played {cards} on a {suit} lead while holding {card}",
                 "第{trick}圈：{suit}领出，{player}手里有{card}却出了{cards}（有该花色必须跟）"),
    "v.revoke_later": ("trick {trick}: {player} showed out of {suit} ({cards}) but played {card} "
                       "in trick {later}",
                       "第{trick}圈：{player}在{suit}领出时垫了{cards}，却在第{later}圈出了{card}"),
    "v.pair_not_followed": ("trick {trick}: {player} played {cards} on a pair lead while holding "
                            "the pair {pair} {pair}",
                            "第{trick}圈：首家出对，{player}手里有对子{pair} {pair}却出了{cards}"),
    "v.exposed_first_round": ("trick {trick}: {player} played the exposed {card} the first time "
                              "{suit} were led, while holding {other}",
                              "第{trick}圈：{suit}首轮，{player}出了亮过的{card}，而手里还有{other}"),
    "v.captured_disagrees": ("captured: the record gives {name} {said}; the tricks give {given}",
                             "收分：记录里{name}收了{said}；按出牌应为{given}"),
    # --- a match
    "m.hand": ("hand", "局"),
    "m.marks": ("marks", "标记"),
    "m.pig": ("pig", "收猪"),
    "m.total": ("total", "合计"),
    "m.total_raw": ("raw total", "原始分合计"),
    "m.chart": ("running totals (final):", "累计得分走势："),
    "m.end_at": ("ends at", "终局线"),
    "m.rules_line": ("variant: {variant} · normalize: {method}{teams} · ends at {end}",
                     "规则：{variant} · 计分：{method}{teams} · 终局线 {end}"),
    "m.teams_part": (" · teams: {teams}", " · 组队：{teams}"),
    "m.final_total": ("final total", "累计得分"),
    "m.raw_total": ("raw total", "原始分合计"),
    "m.ended": ("ended after hand {hand}: {loser} is the pig (当猪, {kind} {loser_total}); "
                "{winner} wins ({kind} {winner_total})",
                "第 {hand} 局后结束：{loser} 当猪（{kind} {loser_total}）；{winner} 获胜（{kind} "
                "{winner_total}）"),
    "m.no_hands": ("no hands yet; the holder of 2♣ leads the first hand",
                   "尚无牌局；第一局由持梅花2者先出"),
    "m.in_play": ("in play after {count}; {lead} leads the next hand (took the pig)",
                  "进行中（已打 {count}）；下一局由{lead}先出（上一局收猪）"),
    "m.no_pig": ("(nobody took the pig: a partial hand)", "（无人收猪：部分计分）"),
    "m.hand_title": ("hand {number}", "第 {number} 局"),
    "m.totals": ("totals, raw (final): {totals}", "合计 原始分（最后得分）：{totals}"),
    "m.removed": ("removed hand {number}: {players}", "已删除第 {number} 局：{players}"),
    "m.replaced": ("hand {number} replaced", "已替换第 {number} 局"),
    "m.hand_view": ("hand {number} of {count}", "第 {number} 局（共 {count} 局）"),
    "m.captured": ("captured (scoring cards)", "收的分牌"),
    "m.exposed_col": ("exposed", "亮牌"),
    "m.total_col": ("total", "累计"),
    "m.cells": ("Each cell: the hand's final score (the running total after it).", "每格：本局最后得分（累计得分）。"),
    "m.partial_mark": ("PARTIAL", "部分计分"),
    "m.readd": ("To enter it again: {command}", "重新录入：{command}"),
    "m.restore_hint": ("('gongzhu-score match restore {ledger}' brings it back.)", "（可用 gongzhu-score match restore {ledger} 恢复。）"),
    "m.confirm_remove": ("Remove hand {number}?", "删除第 {number} 局？"),
    "m.not_removed": ("nothing removed", "未删除"),
    "m.added": ("added as hand {number}", "已添加为第 {number} 局"),
    "m.settings": ("{what}: {before} → {after}", "{what}：{before} → {after}"),
    "m.unchanged": ("the settings are as they were: nothing changed", "设置未变：没有修改"),
    "m.moved": ("totals, raw (final), before → after:", "合计 原始分（最后得分），修改前 → 修改后："),
    "m.end_now": ("now: {status}", "现在：{status}"),
    "h.number": ("#", "#"),
    "h.time": ("time", "时间"),
    "h.change": ("change", "修改"),
    "h.new": ("started the match", "开始比赛"),
    "h.add": ("added hand {hand}", "添加第 {hand} 局"),
    "h.remove": ("removed hand {hand}", "删除第 {hand} 局"),
    "h.undo": ("undid hand {hand}", "撤销第 {hand} 局"),
    "h.edit": ("replaced hand {hand}", "修改第 {hand} 局"),
    "h.rename": ("renamed {old} to {new}", "将 {old} 改名为 {new}"),
    "h.set": ("changed {changes}", "修改设置：{changes}"),
    "h.restored": ("restored the ledger as it was before this change: {what}", "已恢复到此修改之前：{what}"),
    "h.last": (" (match restore reverts this one)", "（match restore 可撤回此项）"),
    "p.captured": ("{name} captured", "{name} 收的牌"),
    "p.unassigned": ("  scoring cards not placed yet: {cards}", "  尚未分配的分牌：{cards}"),
    "p.all_placed": ("  every scoring card is placed", "  分牌已全部分配"),
    "p.rest": (" (-: nothing; rest: every scoring card left)", "（-：无；其余：剩下的全部分牌）"),
    "p.blank": (" (-: nothing)", "（-：无）"),
    "p.exposed": ("exposed (亮牌): NAME=CARDS, several joined by ';' (-: none)", "亮牌：姓名=牌，多人用“;”隔开（-：无）"),
    "p.first": ("首明 (the first card drawn, exposed): NAME=CARD (-: none)", "首明（摸到的第一张牌亮出）：姓名=牌（-：无）"),
    "p.taken": ("{card} is {holder}'s already; enter {name}'s cards again", "{card}已经是{holder}的了；请重新输入{name}的牌"),
    "p.error": ("error: {error}; try again", "错误：{error}；请重试"),
    "p.rest_last": ("only the last player can take the rest", "只有最后一位玩家可以取“其余”"),
    "p.no_player": ("no player named {name} ({players})", "没有名为 {name} 的玩家（{players}）"),
    "p.confirm": ("y: add it, n: cancel, or the number of a line to change", "y：添加，n：取消，或输入要修改的行号"),
    "p.confirm_edit": ("y: replace hand {number} with it, n: cancel, or the number of a line to change", "y：替换第 {number} 局，n：取消，或输入要修改的行号"),
    "p.line": ("{number}. {what}: {value}", "{number}. {what}：{value}"),
    "p.choice": ("your choice", "请选择"),
    "p.bad_choice": ("answer y, n or a line number from 1 to {lines}", "请回答 y、n 或 1 到 {lines} 之间的行号"),
    "p.missing": ("scoring cards nobody took: {cards}; change a line to place them", "无人收的分牌：{cards}；请修改某一行"),
    "p.refused": ("this hand cannot be added: {error}; change a line", "这一局无法添加：{error}；请修改某一行"),
    "p.cancelled": ("nothing was changed", "没有修改"),
    "p.nothing": ("nothing", "无"),
    "st.name": ("name", "玩家"),
    "st.matches": ("matches", "场数"),
    "st.hands": ("hands", "局数"),
    "st.lost": ("lost (当猪)", "当猪"),
    "st.won": ("won", "获胜"),
    "st.pigs": ("pigs", "收猪"),
    "st.sheep": ("sheep", "收羊"),
    "st.transformers": ("transformers", "收变压器"),
    "st.full_reds": ("full reds", "全红"),
    "st.grand_slams": ("grand slams", "满贯"),
    "st.average": ("average final", "平均得分"),
    "st.title": ("{matches}, {hands}", "{matches}，{hands}"),
    "matches": ("{count} match", "{count} 场比赛"),
    "matches.many": ("{count} matches", "{count} 场比赛"),
    "hands": ("{count} hand", "{count} 局"),
    "hands.many": ("{count} hands", "{count} 局"),
    # --- batch
    "b.summary": ("summary ({count})", "汇总（{count}）"),
    "b.name": ("name", "玩家"),
    "b.hands": ("hands", "局数"),
    "b.raw": ("raw", "原始分合计"),
    "b.final": ("final", "最后得分合计"),
    "b.average": ("average", "平均得分"),
    "b.pigs": ("pigs", "收猪"),
    "b.sheep": ("sheep", "收羊"),
    "b.transformers": ("transformers", "收变压器"),
    "b.full_reds": ("full_reds", "全红"),
    "b.grand_slams": ("grand_slams", "满贯"),
}
# fmt: on


class Names(tuple[str, ...]):
    """Player names, shown joined with "and" (English) or "、" (Chinese), or "nobody"."""


class Cards(tuple[Card, ...]):
    """Cards, shown as their symbols, or "nothing"."""


def _shown(value: object, lang: str) -> object:
    if isinstance(value, Names):
        return join(value, lang, "and") or say("nobody", lang)
    if isinstance(value, Cards):
        return " ".join(c.symbol for c in value) or say("nothing", lang)
    if isinstance(value, Suit):
        return say(f"suit.{value.value}", lang)
    return value


def say(key: str, lang: str = "en", /, **values: object) -> str:
    """The term ``key`` in ``lang`` (``en`` or ``zh``), with ``values`` filled in."""
    text = TERMS[key][1 if lang == "zh" else 0]
    if not values:
        return text
    return text.format(**{k: _shown(v, lang) for k, v in values.items()})


def join(items: Iterable[object], lang: str, how: str = "list") -> str:
    """Items joined the way the language lists them (``how``: list, and, or, comma)."""
    return say(how, lang).join(str(item) for item in items)


def title(variant: Variant, lang: str) -> str:
    """A rule set's title in the language: ``Classic one-deck rules``, ``一副牌规则``."""
    return variant.title_zh if lang == "zh" else variant.title


def colon(lang: str) -> str:
    return say("colon", lang)


def count_of_hands(count: int, lang: str) -> str:
    """``1 hand``, ``3 hands``, ``3 局``."""
    return count_of("hands", count, lang)


def count_of(what: str, count: int, lang: str) -> str:
    """A count and its noun, singular or plural: ``1 match``, ``2 matches``."""
    return say(what if count == 1 else f"{what}.many", lang, count=count)
