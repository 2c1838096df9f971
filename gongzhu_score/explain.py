"""Why each player scored what they did: a numbered derivation, rule by rule (``explain``).

It reads a :class:`~gongzhu_score.scoring.HandResult` (what ``score`` computed) and puts it into
words, English or Chinese, citing the variant's rule behind each step (the names that
``gongzhu-score variants show`` prints). Nothing is scored again; only the normalization's
arithmetic is written out with the numbers filled in.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .cards import ACE_OF_HEARTS, PIG, SHEEP, TRANSFORMER, Card
from .normalize import Method, Rounding
from .render import format_number
from .scoring import HandResult, Line, PlayerScore

__all__ = ["explain"]

# One template per step and language; {rule} is filled with the rule's citation.
_T: dict[str, dict[str, str]] = {
    "en": {
        "title": "Rules: {name} ({title})",
        "partial": "PARTIAL tally: nobody took {cards}",
        "player": "{name} (seat {seat}): raw {raw}, final {final}",
        "rule": " (rule {name})",
        "none_taken": "No scoring cards taken: raw 0.",
        "taken": "Scoring cards taken: {cards}.",
        "grand_slam": "Grand slam (满贯): every scoring card, so the hearts and the pig count "
        "positive{rule}",
        "hearts": "Hearts {cards}: {values}{total}{rule}",
        "full_red_fixed": "All {count} hearts (全红, full red): they count +{base} instead of "
        "their values{rule}",
        "full_red_flip": "All {count} hearts (全红, full red): their values turn positive, "
        "+{base}{rule}",
        "pig": "The pig Q♠ (猪): {value}{copies}{rule}",
        "pig_positive_slam": "The grand slam turns the pig Q♠ positive: +{total}{rule}",
        "pig_positive_red": "Full red turns the pig Q♠ positive (house rule): +{total}{rule}",
        "sheep": "The sheep J♦ (羊): +{value}{copies}{rule}",
        "alone": "The transformer 10♣ (变压器) with no other scoring card{note}: +{value}{rule}",
        "zero_note": " ({cards} are worth 0 and do not count here: rule {why})",
        "alone_times": "The transformer's multiplier ×{factor}: +{base} × {factor} = +{total}",
        "exposed_times": "{why}: ×{factor}, {base} × {factor} = {total}{rule}",
        "subtotal": "Subtotal: {parts} = {total}.",
        "transformer": "The transformer 10♣ (变压器){took} multiplies by {t}{why}{zero}: "
        "{subtotal} × {t} = {total}{rule}",
        "took": " ({count} taken)",
        "zero_sum": " (the other cards sum to 0)",
        "fixed_slam": "The rules fix the grand slam at {fixed} (the formula gives {plain}): "
        "{before} × {ratio} = {raw}{rule}",
        "raw": "Raw score (原始分): {raw}.",
        "exposed_by": "{card} was exposed{copies} by {by} (亮牌)",
        "copies": " ({count} copies)",
        "first_by": "{card} was exposed by {by} as 首明 (first card drawn)",
        "auto": "{card} counts as exposed because the other three were (auto-exposure)",
        "and": " and ",
        "finals": "Final scores (最后得分):",
        "none": "Final = raw{scale} (normalize none: paper scoring).",
        "jj": "Final = 3 × raw − (the other three raws) (normalize jj).",
        "zero": "Final = raw − (the other three raws)/3 (normalize zero-sum).",
        "residue": "After rounding the finals sum to {residue}, not 0.",
        "teams": "Teams, {mode}: {a} raw {a_raw}, {b} raw {b_raw}; difference {diff} (rule teams).",
        "side_jj": "{names}: each gets the difference, {text} (JJ 搭档).",
        "side_share": "{names}: each gets {diff}/{size} = {text}.",
        "partners": "打对家 (partners)",
        "pig-sheep": "猪羊一家 (pig-sheep)",
        "sep": ", ",
        "names": ", ",
        "because": " because ",
        "claims": "Claims:",
        "claim_ok": "{name} claimed {claimed}: right.",
        "claim_wrong": "{name} claimed {claimed}: wrong; the {kind} score is {actual} "
        "(off by {diff}).",
    },
    "zh": {
        "title": "规则：{name}（{title}）",
        "partial": "部分计分：无人收的分牌 {cards}",
        "player": "{name}（座位 {seat}）：原始分 {raw}，最后得分 {final}",
        "rule": "（规则 {name}）",
        "none_taken": "没有收到分牌：原始分 0",
        "taken": "收到的分牌：{cards}",
        "grand_slam": "满贯：收齐全部分牌，红桃和猪都变为正分{rule}",
        "hearts": "红桃 {cards}：{values}{total}{rule}",
        "full_red_fixed": "收全红（{count} 张红桃）：记 +{base}{rule}",
        "full_red_flip": "收全红（{count} 张红桃）：红桃全部变为正分，+{base}{rule}",
        "pig": "猪（黑桃Q）：{value}{copies}{rule}",
        "pig_positive_slam": "满贯，猪变为正分：+{total}{rule}",
        "pig_positive_red": "全红，猪也变为正分（本桌规则）：+{total}{rule}",
        "sheep": "羊（方块J）：+{value}{copies}{rule}",
        "alone": "只收变压器（梅花10），没有其他分牌{note}：+{value}{rule}",
        "zero_note": "（{cards} 为 0 分，不算其他分牌：规则 {why}）",
        "alone_times": "变压器倍数 ×{factor}：+{base} × {factor} = +{total}",
        "exposed_times": "{why}，×{factor}：{base} × {factor} = {total}{rule}",
        "subtotal": "小计：{parts} = {total}",
        "transformer": "变压器（梅花10）{took}翻倍 ×{t}{why}{zero}："
        "{subtotal} × {t} = {total}{rule}",
        "took": "（收了 {count} 张）",
        "zero_sum": "（其他分牌合计为 0）",
        "fixed_slam": "规则把满贯定为 {fixed}（公式为 {plain}）：{before} × {ratio} = {raw}{rule}",
        "raw": "原始分：{raw}",
        "exposed_by": "{card}被{by}亮出{copies}",
        "copies": "（{count} 张）",
        "first_by": "{card}被{by}首明",
        "auto": "{card}自动亮（其余三张都已亮）",
        "and": "、",
        "finals": "最后得分：",
        "none": "最后得分 = 原始分{scale}（规则 normalize none）",
        "jj": "最后得分 = 3 × 原始分 − 其他三家原始分之和（JJ 算法，规则 normalize jj）",
        "zero": "最后得分 = 原始分 − 其他三家原始分之和 / 3（零和，规则 normalize zero-sum）",
        "residue": "四舍五入后，最后得分合计为 {residue}",
        "teams": "组队（{mode}，规则 teams）：{a} 原始分 {a_raw}，{b} 原始分 {b_raw}，相差 {diff}",
        "side_jj": "{names}：各得相差 {text}（JJ 搭档）",
        "side_share": "{names}：各得 {diff}/{size} = {text}",
        "partners": "对家",
        "pig-sheep": "猪羊一家",
        "sep": "，",
        "names": "、",
        "because": "，因为",
        "claims": "自报得分：",
        "claim_ok": "{name} 自报 {claimed}：正确",
        "claim_wrong": "{name} 自报 {claimed}：不对，{kind}应为 {actual}（差 {diff}）",
    },
}
_CARD_NAME = {
    "en": {PIG: "the pig Q♠", SHEEP: "the sheep J♦", TRANSFORMER: "10♣", ACE_OF_HEARTS: "A♥"},
    "zh": {PIG: "猪（黑桃Q）", SHEEP: "羊（方块J）", TRANSFORMER: "变压器", ACE_OF_HEARTS: "红桃A"},
}
# The special card whose exposure scales each kind of line.
_LINE_CARD = {"hearts": ACE_OF_HEARTS, "full_red": ACE_OF_HEARTS, "pig": PIG,
              "pig_positive": PIG, "sheep": SHEEP}  # fmt: skip


def _n(value: int | Fraction) -> str:
    return format_number(value)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(c.symbol for c in cards)


class _Words:
    """The templates of one language, with the rule citation filled in."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.t = _T[lang]

    def __call__(self, key: str, rule: str | None = None, **values: object) -> str:
        cite = self.t["rule"].format(name=rule) if rule else ""
        return self.t[key].format(rule=cite, **values)

    def exposure(self, card: Card, result: HandResult) -> tuple[str, str] | None:
        """``(why, rule)``: who exposed ``card``, 首明, or auto-exposure; None if unexposed."""
        shown = [e for e in result.exposures if e.card == card]
        if not shown:
            return None
        name = _CARD_NAME[self.lang][card]
        by = [e.by for e in shown if e.by is not None]
        kinds = {e.kind for e in shown}
        if "auto" in kinds:
            return self("auto", card=name), "auto_exposure"
        if "first_exposed" in kinds:
            return self("first_by", card=name, by=by[0]), "first_exposure_level"
        copies = self("copies", count=len(by)) if len(by) > 1 else ""
        return self("exposed_by", card=name, by=self.t["and"].join(by), copies=copies), (
            "exposure_levels"
        )


def _line_steps(line: Line, p: PlayerScore, result: HandResult, w: _Words) -> list[str]:
    v = result.variant
    # "−100 × 2 = −200" for two pigs; a single card's value needs no sum
    copies = f" × {len(line.cards)} = {_n(line.base)}" if len(line.cards) > 1 else ""
    steps: list[str] = []
    if line.rule == "hearts":
        # one heart needs no sum: "A♥: -50", several: "6♥ 8♥: -10 -10 = -20"
        values = " ".join(_n(v.card_values[c]) for c in line.cards)
        values = values if len(line.cards) > 1 else ""
        steps.append(w("hearts", "heart_values", cards=_cards(line.cards),
                       values=f"{values} = " if values else "", total=_n(line.base)))  # fmt: skip
    elif line.rule == "full_red":
        steps.append(w(f"full_red_{v.full_red_mode}", "full_red", count=len(line.cards),
                       base=line.base))  # fmt: skip
    elif line.rule == "pig":
        steps.append(w("pig", "pig", value=_n(v.pig), copies=copies))
    elif line.rule == "pig_positive":
        key, rule = (("pig_positive_slam", "grand_slam") if p.grand_slam
                     else ("pig_positive_red", "full_red_pig_positive"))  # fmt: skip
        steps.append(w(key, rule, total=line.base))
    elif line.rule == "sheep":
        steps.append(w("sheep", "sheep", value=v.sheep, copies=copies.replace("= ", "= +")))
    elif line.rule == "transformer_alone":
        zero = [c for c in p.scoring_cards if c is not TRANSFORMER]
        note = w("zero_note", cards=_cards(zero), why="zero_hearts_are_scoring") if zero else ""
        steps.append(w("alone", "transformer_alone", note=note, value=v.transformer_alone))
    if line.factor != 1:
        if line.rule == "transformer_alone":
            steps.append(w("alone_times", factor=line.factor, base=line.base, total=line.points))
        else:
            why, rule = w.exposure(_LINE_CARD[line.rule], result) or ("", "exposure_levels")
            why = why[:1].upper() + why[1:]  # it starts the step
            steps.append(w("exposed_times", rule, why=why, factor=line.factor,
                           base=_n(line.base), total=_n(line.points)))  # fmt: skip
    return steps


def _player_steps(p: PlayerScore, result: HandResult, w: _Words) -> list[str]:
    v = result.variant
    if not p.scoring_cards:
        return [w("none_taken")]
    steps = [w("taken", cards=_cards(p.scoring_cards))]
    if p.grand_slam:
        steps.append(w("grand_slam", "grand_slam"))
    for line in p.lines:
        steps += _line_steps(line, p, result, w)
    counted = [line for line in p.lines if line.rule != "transformer_alone"]
    if len(counted) > 1:
        parts = " + ".join(_n(line.points) for line in counted)
        steps.append(w("subtotal", parts=parts, total=_n(p.subtotal)))
    if p.transformer is not None and not p.transformer_alone:
        reason = w.exposure(TRANSFORMER, result)
        tens = p.scoring_cards.count(TRANSFORMER)
        steps.append(
            w(
                "transformer",
                "transformer_table" if v.transformer_table else "transformer_multiplier",
                took=w("took", count=tens) if tens > 1 else "",
                t=p.transformer,
                why="" if reason is None else w.t["because"] + reason[0],
                zero=w("zero_sum") if p.subtotal == 0 else "",
                subtotal=_n(p.subtotal),
                total=_n(p.subtotal * p.transformer),
            )
        )
    if p.grand_slam_ratio is not None:
        steps.append(w("fixed_slam", "grand_slam", fixed=v.grand_slam, plain=v.grand_slam_plain(),
                       before=_n(p.subtotal * (p.transformer or 1)), ratio=p.grand_slam_ratio,
                       raw=p.raw))  # fmt: skip
    steps.append(w("raw", raw=p.raw))
    return steps


def _finish(exact: Fraction, result: HandResult, final: int | Fraction) -> str:
    """``-333⅓ → -333 × 12 = -3996``: the exact value, its rounding, the scale."""
    norm = result.normalization
    text = _n(exact)
    rounded = exact if norm.rounding is Rounding.EXACT else Fraction(final) / norm.scale
    if rounded != exact:
        text += f" → {_n(rounded)}"
    if norm.scale != 1:
        text += f" × {norm.scale} = {_n(final)}"
    return text


def _others(names: Sequence[str], raws: Sequence[int], name: str) -> str:
    return "(" + " + ".join(str(r) for n, r in zip(names, raws, strict=True) if n != name) + ")"


def _normalization_steps(result: HandResult, w: _Words) -> list[str]:
    norm = result.normalization
    names, raws = [p.name for p in result.players], result.raws
    sides = result.sides
    if sides is not None:
        a, b = sides
        diff = a.raw - b.raw
        lines = [w("teams", mode=w.t[norm.teams.value], a="+".join(a.names), a_raw=a.raw,
                   b="+".join(b.names), b_raw=b.raw, diff=diff)]  # fmt: skip
        for side, d in ((a, diff), (b, -diff)):
            final = next(p.final for p in result.players if p.name == side.names[0])
            members = w.t["names"].join(side.names)
            if norm.method is Method.JJ:
                scaled = f" × {norm.scale} = {_n(final)}" if norm.scale != 1 else ""
                lines.append(w("side_jj", names=members, text=f"{d}{scaled}"))
            else:
                size = len(side.names)
                text = _finish(Fraction(d, size), result, final)
                lines.append(w("side_share", names=members, diff=d, size=size, text=text))
        return lines
    if norm.method is Method.NONE:
        return [w("none", scale=f" × {norm.scale}" if norm.scale != 1 else "")]
    total = sum(raws)
    lines = [w("jj" if norm.method is Method.JJ else "zero")]
    for name, r, p in zip(names, raws, result.players, strict=True):
        if norm.method is Method.JJ:
            scaled = f" × {norm.scale} = {_n(p.final)}" if norm.scale != 1 else ""
            lines.append(
                f"{name}: 3 × {r} − {_others(names, raws, name)} = {4 * r - total}{scaled}"
            )
        else:
            exact = _finish(Fraction(4 * r - total, 3), result, p.final)
            lines.append(f"{name}: {r} − {_others(names, raws, name)}/3 = {exact}")
    if result.final_sum != 0:
        lines.append(w("residue", residue=_n(result.final_sum)))
    return lines


def explain(result: HandResult, lang: str = "en") -> str:
    """The derivation of every player's raw and final score, as text."""
    w = _Words(lang)
    v = result.variant
    out = [w("title", name=v.name, title=v.title_zh if lang == "zh" else v.title)]
    if result.partial:
        out.append(w("partial", cards=_cards(result.missing)))
    for p in result.players:
        out += ["", w("player", name=p.name, seat=p.seat, raw=p.raw, final=_n(p.final))]
        out += [f"  {i}. {step}" for i, step in enumerate(_player_steps(p, result, w), 1)]
    out += ["", w("finals")]
    out += [f"  {line}" for line in _normalization_steps(result, w)]
    return "\n".join(out) + "\n"
