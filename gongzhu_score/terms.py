"""Every word the tool shows people, in English and Chinese: one table, one lookup.

``TERMS[key] = (english, chinese)``; :func:`say` picks the language and fills in the values.
Machine formats (JSON, CSV, YAML) never go through here: their keys stay English whatever the
language, so scripts do not depend on ``--lang``. Values may be a :class:`Names` (joined with
"and"/"、", or "nobody"), :class:`Cards` (their symbols, or "nothing"), anything with a ``term``
(a key of this table: a suit says its word), or anything with a ``str``.

It sits at the bottom of the package beside :mod:`.errors` (it imports nothing of it), so that
every layer can speak both languages, errors included (:func:`error`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, TypeVar

from .errors import GongzhuError

__all__ = [
    "LANGS",
    "TERMS",
    "Both",
    "Cards",
    "Listed",
    "Names",
    "colon",
    "error",
    "join",
    "place",
    "printable",
    "rule_name",
    "say",
    "title",
    "unsafe_character",
]

LANGS = ("en", "zh")

# One term a line, English then Chinese, so the two can be read side by side.
# fmt: off
TERMS: dict[str, tuple[str, str]] = {
    # --- punctuation and joining words
    "colon": (": ", "："),
    "comma": (", ", "，"),
    "semicolon": ("; ", "；"),
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
    # --- errors: cards (e.card.*)
    "e.card.unknown": ("unknown card {token}{detail}", "无法识别的牌 {token}{detail}"),
    "e.card.no_suit": (" (a rank with no suit; write e.g. {rank}H or {rank}S)", "（只有点数没有花色；例如写 红桃{rank} 或 {rank}H）"),
    "e.card.no_rank": (" (a suit with no rank; write e.g. QS or ♥AK)", "（只有花色没有点数；例如写 黑桃Q 或 ♥AK）"),
    "e.card.no_rank_after": (" (a suit with no rank; write e.g. 红桃6 8 10 J or ♥A K Q)", "（花色后面没有点数；例如写 红桃6 8 10 J 或 ♥A K Q）"),
    "e.card.not_rank": (" ({char} is not a rank; ranks are A K Q J 10 (or T) 9 … 2)", "（{char} 不是点数；点数为 A K Q J 10（或 T）9 … 2）"),
    "e.card.range": (" (a range needs a rank on each side, e.g. 红桃2-10)", "（范围两边都要有点数，例如 红桃2-10）"),
    "e.card.letter_group": (" (for several {suit} write {letter}:{rest})", "（同一花色的几张牌请写 {letter}:{rest}）"),
    "e.card.suggest": ("; did you mean {candidate}{shown}?", "；是不是要写 {candidate}{shown}？"),
    "e.card.forms": (" (a card is a rank and a suit: QS, Q♠, ♠Q, 黑桃Q; several of one suit: ♥A K Q, 红桃6 8 10 J, 红桃2-10, H:AKQ; nicknames 猪 羊 变压器, 猪羊, 全红)",
                     "（一张牌由点数和花色组成：QS、Q♠、♠Q、黑桃Q；同一花色的几张：♥A K Q、红桃6 8 10 J、红桃2-10、H:AKQ；别名：猪 羊 变压器、猪羊、全红）"),
    "e.card.empty": ("empty card", "空白的牌"),
    "e.card.not_scoring": ("{token} is not a scoring card and not an alias of one; write its cards instead ({cards})", "{token} 不是分牌，也不是分牌的别名；请写出具体的牌（{cards}）"),
    "e.card.count": ("{token} is {count} cards, expected one", "{token} 是 {count} 张牌，这里只要一张"),
    "e.card.not_card": ("{item} is not a card", "{item} 不是一张牌"),
    "e.card.number": ("{item} is a number, not a card; give it a suit, e.g. '{item}H' (in YAML a bare 10 reads as a number)", "{item} 是数字，不是牌；请加上花色，例如 '{item}H'（YAML 里单独的 10 会被读成数字）"),
    # --- errors: a hand (e.hand.*), teams and options
    "e.hand.unknown_player": ("no player named {name} (players: {players})", "没有名为 {name} 的玩家（玩家：{players}）"),
    "e.hand.rest_seat": ("no player named {name} (players: {players}) (a new seat for the rest needs exactly three listed players)", "没有名为 {name} 的玩家（玩家：{players}）（要新增一位玩家取其余的牌，需要正好列出三位）"),
    "e.hand.missing": ("scoring cards nobody captured: {cards}", "无人收的分牌：{cards}"),
    "e.hand.four": ("a hand needs exactly four players, got {count}{listed}", "一局需要正好四位玩家，这里有 {count} 位{listed}"),
    "e.hand.listed": (" ({names})", "（{names}）"),
    "e.name.unsafe": ("player name {name} holds {char}: a name may not hold control characters, line breaks or marks that reorder text", "玩家名字 {name} 含有 {char}：名字里不能有控制字符、换行符或改变文字方向的符号"),
    "e.name.space": ("player name {name} starts or ends with a space", "玩家名字 {name} 的开头或结尾有空格"),
    "e.name.not_text": ("a player name is text, not {value}", "玩家名字应是文字，不能是 {value}"),
    "e.hand.no_name": ("player {seat} has no name", "第 {seat} 位玩家没有名字"),
    "e.hand.same_name": ("two players are named {name}; names must differ", "有两位玩家都叫 {name}；名字不能相同"),
    "e.hand.captured_twice": ("player {name}: {code} ({card}) captured twice", "玩家 {name}：{card}（{code}）收了两次"),
    "e.hand.captured_already": ("player {name}: {code} ({card}) captured already by {holder}", "玩家 {name}：{card}（{code}）已经被{holder}收了"),
    "e.hand.captured_third": ("player {name}: {code} ({card}) captured a third time (already by {holders}; two decks hold two)", "玩家 {name}：{card}（{code}）被收了第三次（{holders}已经收了；两副牌只有两张）"),
    "e.hand.exposed_twice": ("player {name}: {code} ({card}) exposed twice", "玩家 {name}：{card}（{code}）亮了两次"),
    "e.hand.exposed_already": ("player {name}: {code} ({card}) exposed already by {holder}", "玩家 {name}：{card}（{code}）已经被{holder}亮了"),
    "e.hand.exposed_third": ("player {name}: {code} ({card}) exposed a third time (already by {holders}; two decks hold two)", "玩家 {name}：{card}（{code}）被亮了第三次（{holders}已经亮了；两副牌只有两张）"),
    "e.hand.first_not_allowed": ("player {name}: first_exposed {cards}: 首明 is not part of the {variant} rules; list the card under exposed instead", "玩家 {name}：{variant} 规则没有首明（{cards}）；请把这张牌列在亮牌里"),
    "e.hand.first_one": ("player {name}: first_exposed {cards}: only the first card a player drew can be 首明, so one card at most", "玩家 {name}：首明 {cards}：只有摸到的第一张牌才能首明，最多一张"),
    "e.hand.cannot_expose": ("player {name}: cannot expose {code} ({card}); only {allowed} can be exposed (亮牌)", "玩家 {name}：{card}（{code}）不能亮；只有 {allowed} 可以亮"),
    "e.hand.a_hand_carries": ("a Hand carries its own exposures; pass them in the Hand", "Hand 自带亮牌信息；请放在 Hand 里"),
    "e.teams.no_exposure": ("player {name}: 猪羊一家 (teams pig-sheep) allows no exposure (亮牌) or 首明", "玩家 {name}：猪羊一家不能亮牌或首明"),
    "e.teams.no_taker": ("猪羊一家 (teams pig-sheep) needs the pig or the sheep captured", "猪羊一家需要有人收到猪或羊"),
    "e.teams.one_side": ("猪羊一家 (teams pig-sheep): every player took a pig or a sheep, so there is no other side", "猪羊一家：每位玩家都收了猪或羊，没有另一方"),
    "e.option.unknown": ("unknown {what} {value} (known: {known})", "未知的{what_zh} {value}（可选：{known}）"),
    "e.option.scale": ("scale must be a whole number from 1 to 1,000,000, not {value}", "倍数必须是 1 到 1,000,000 之间的整数，不能是 {value}"),
    "e.option.teams_none": ("teams {teams} with normalization none is not defined by the rules; use zero-sum or jj", "组队 {teams} 不能用 none 计分（规则没有定义）；请用 zero-sum 或 jj"),
    "e.option.pig_sheep_jj": ("teams pig-sheep (猪羊一家) with normalization jj is not defined by the rules; use zero-sum", "猪羊一家不能用 jj 计分（规则没有定义）；请用 zero-sum"),
    # --- errors: reading input (e.in.*, e.yaml.*, e.file.*, e.rec.*, e.rules.*)
    "e.in.cards_list": ("expected a list of cards, not {value}", "应为一列牌，不能是 {value}"),
    "e.in.not_score": ("{value}… is not a score", "{value}… 不是得分"),
    "e.in.not_whole": ("{value} is not a whole number, e.g. -400", "{value} 不是整数，例如 -400"),
    "e.in.unknown_key": ("unknown key {key} (allowed: {allowed}){hint}", "未知的键 {key}（可用：{allowed}）{hint}"),
    "e.in.did_you_mean": ("; did you mean {word}?", "；是不是要写 {word}？"),
    "e.in.name": ("{where} must be a non-empty name, not {value}", "{where}必须是非空的名字，不能是 {value}"),
    "e.in.hand_mapping": ("a hand file holds a mapping with 'players', not {kind}", "牌局文件应是含 'players' 的映射，不能是 {kind}"),
    "e.in.top_field": ("{key} belongs to a player, not to the hand: players: [{{name: 南, captured: [AH, KH], {key}: ...}}]", "{key} 属于某位玩家，不属于整局：players: [{{name: 南, captured: [AH, KH], {key}: ...}}]"),
    "e.in.variant_name": ("variant must be a name such as classic, not {value}", "variant 应是规则名，例如 classic，不能是 {value}"),
    "e.in.teams_name": ("teams must be none, partners or pig-sheep, not {value}", "teams 应是 none、partners 或 pig-sheep，不能是 {value}"),
    "e.in.no_players": ("missing 'players': list the four players in seat order", "缺少 'players'：请按座位顺序列出四位玩家"),
    "e.in.players_list": ("players must be a list (or a mapping by name) of four players", "players 应是四位玩家的列表（或以名字为键的映射）"),
    "e.in.player_mapping": ("expected a mapping with name and captured, not {value}", "应是含 name 和 captured 的映射，不能是 {value}"),
    "e.in.no_name": ("missing 'name'", "缺少 'name'"),
    "e.in.player_value": ("expected the captured cards or a mapping, not {value}", "应是收的牌或一个映射，不能是 {value}"),
    "e.in.claims_mapping": ("claimed: expected a mapping of player to score", "claimed：应是玩家到得分的映射"),
    "e.yaml.deep": ("{where}: nested more than {depth} levels deep", "{where}：嵌套超过 {depth} 层"),
    "e.yaml.twice": ("line {line}: key {key} given twice", "第 {line} 行：键 {key} 出现了两次"),
    "e.yaml.key_plain": ("line {line}: a key must be a plain value, not {key}", "第 {line} 行：键必须是简单的值，不能是 {key}"),
    "e.yaml.anchor": ("{where}: YAML anchors and aliases are not allowed here", "{where}：这里不允许 YAML 锚点和别名"),
    "e.yaml.where": ("line {line}, column {column}", "第 {line} 行第 {column} 列"),
    "e.yaml.invalid": ("{where}invalid YAML: {problem}", "{where}YAML 格式错误：{problem}"),
    "e.yaml.value": ("a value that cannot be read: {problem}", "无法读取的值：{problem}"),
    "e.yaml.document": ("a document over {size} characters; a hand is far smaller", "文档超过 {size} 个字符；一局牌远没有这么大"),
    "e.yaml.utf8": ("not UTF-8 text; save the file as UTF-8", "不是 UTF-8 文本；请以 UTF-8 保存"),
    "e.batch.twice": ("key {key} given twice", "键 {key} 出现了两次"),
    "e.batch.long": ("a line over {size} bytes; a hand is far smaller", "一行超过 {size} 字节；一局牌远没有这么大"),
    "e.file.missing": ("no such file", "没有这个文件"),
    "e.file.folder": ("is a folder, not a {what}", "这是文件夹，不是{what}"),
    "e.file.unreadable": ("cannot read: {why}", "无法读取：{why}"),
    "e.file.large": ("larger than {size} bytes; a {what} is far smaller", "超过 {size} 字节；{what}远没有这么大"),
    "e.file.utf8": ("not UTF-8 text (byte 0x{byte} at offset {offset}); save the file as UTF-8", "不是 UTF-8 文本（偏移 {offset} 处的字节 0x{byte}）；请以 UTF-8 保存"),
    "what.hand file": ("hand file", "牌局文件"),
    "what.rules file": ("rules file", "规则文件"),
    "what.record": ("record", "出牌记录"),
    "e.rec.mapping": ("a record is a mapping with players and tricks", "出牌记录应是含 players 和 tricks 的映射"),
    "e.rec.by_player": ("expected a mapping of player to cards", "应是玩家到牌的映射"),
    "e.rec.unknown_key": ("unknown key {key} in a record (allowed: {allowed})", "出牌记录中未知的键 {key}（可用：{allowed}）"),
    "e.rec.players": ("players: a list of the four names in seat order", "players：按座位顺序的四个名字"),
    "e.rec.four": ("players: four different names, not {names}", "players：需要四个不同的名字，不能是 {names}"),
    "e.rec.tricks": ("tricks: a list of tricks, each {{lead: NAME, cards: [...]}}", "tricks：一列出牌，每圈 {{lead: 名字, cards: [...]}}"),
    "e.rec.too_many": ("tricks: {count} tricks, but {decks} deck(s) make at most {most}", "tricks：{count} 圈，但 {decks} 副牌最多 {most} 圈"),
    "e.rec.hand": ("hand: which hand of the match (1, 2, …; 1 with first_hand), not {value}", "hand：比赛的第几局（1、2…；first_hand 时为 1），不能是 {value}"),
    "e.rec.trick": ("expected {{lead: NAME, cards: [...]}}, not {value}", "应为 {{lead: 名字, cards: [...]}}，不能是 {value}"),
    "e.rec.lead": ("lead {lead} is not a player ({players})", "首家 {lead} 不是玩家（{players}）"),
    "e.rec.plays": ("cards: the four plays in order, from the leader", "cards：从首家起按顺序的四家出牌"),
    "e.rec.play_size": ("each play is one card (two decks: one or two)", "每家出一张牌（两副牌：一张或一对）"),
    "e.rec.breaks": ("the record breaks the rules of play: {shown}{more}; see 'gongzhu-score replay'", "这份记录违反出牌规则：{shown}{more}；请用 'gongzhu-score replay' 查看"),
    "e.claim.mapping": ("a claim is {by: NAME, takes: {NAME: [cards], …} or all, line: [cards]}", "声称应为 {by: 名字, takes: {名字: [牌], …} 或 all, line: [牌]}"),
    "e.claim.deal": ("a claim needs the deal (deal: each player's 13 cards), so that every hand is known", "声称需要发牌（deal：每家的牌），才能知道每家的牌"),
    "e.claim.lead_after": ("the next lead is the last trick's winner; give lead only when no trick was played", "下一圈由上一圈的赢家先出；只有一圈都没出时才写 lead"),
    "e.claim.lead_needed": ("no trick was played: say who leads (lead: NAME)", "一圈都没出：请写明谁先出（lead: 名字）"),
    "e.claim.takes": ("takes: a mapping of player to the scoring cards they take, or all", "takes：玩家到其收的分牌的映射，或 all"),
    "e.claim.not_scoring": ("{card} is not a scoring card; takes names only 红桃, 猪, 羊 and 变压器", "{card} 不是分牌；takes 只写红桃、猪、羊和变压器"),
    "e.claim.played": ("{card} was already played in the tricks before the claim", "{card} 在声称之前已经出过了"),
    "e.claim.twice": ("{card} is named more times than it is left to play", "{card} 写的次数比剩下的张数多"),
    "e.claim.missing": ("every scoring card still to play goes to someone; not named: {cards}", "每张未出的分牌都要写明归谁；没写的：{cards}"),
    "e.claim.line_card": ("{by} does not hold {card} (left to play: {cards})", "{by} 手上没有 {card}（剩下的牌：{cards}）"),
    "e.rec.more": (" (and {count} more)", "（还有 {count} 处）"),
    "e.ledger.not_hand": ("this is a match ledger (format, players, hands), not a hand", "这是比赛记录（format、players、hands），不是一局牌"),
    "e.batch.not_json": ("not a JSON object: {problem}", "不是 JSON 对象：{problem}"),
    "e.batch.no_files": ("no hand files (*.jsonl, *.yaml, *.yml, *.parquet) in {inputs}", "{inputs} 中没有牌局文件（*.jsonl、*.yaml、*.yml、*.parquet）"),
    "e.extra.missing": ("this needs the optional libraries of the {extra} extra: pip install 'gongzhu-score[{extra}]'", "这需要可选依赖 {extra}：pip install 'gongzhu-score[{extra}]'"),
    "e.parquet.unreadable": ("not a readable Parquet file: {why}", "无法读取的 Parquet 文件：{why}"),
    "e.parquet.output": ("--format parquet writes a file: give it with --output FILE.parquet (or a folder)", "--format parquet 需要写入文件：请用 --output FILE.parquet（或文件夹）指定"),
    "e.parquet.summary": ("--summary-only prints totals, which --format parquet does not hold; use table, csv or json", "--summary-only 只输出合计，--format parquet 不含合计；请用 table、csv 或 json"),
    "e.parquet.folder_exists": ("the output folder exists and is not empty; give a new folder (or FILE.parquet)", "输出文件夹已存在且不为空；请给一个新文件夹（或 FILE.parquet）"),
    "e.parquet.is_folder": ("is a folder; a Parquet file's name ends in .parquet", "是文件夹；Parquet 文件名以 .parquet 结尾"),
    "e.parquet.no_folder": ("the folder to write in does not exist", "要写入的文件夹不存在"),
    "e.dask.format": ("--dask writes a Parquet dataset: give --format parquet and --output FOLDER", "--dask 写出 Parquet 数据集：请加 --format parquet 和 --output 文件夹"),
    "e.dask.inputs": ("--dask scores Parquet files; not: {path}", "--dask 只处理 Parquet 文件；不能是：{path}"),
    "e.dask.connect": ("cannot reach the Dask scheduler at {address}: {why}", "无法连接 Dask 调度器 {address}：{why}"),
    "e.batch.no_input": ("{path}: no such file or folder", "{path}：没有这个文件或文件夹"),
    "e.batch.worker": ("the process scoring {lines} stopped before it finished (killed, or out of memory?); the batch is incomplete", "计算 {lines} 的进程中途停止（被终止或内存不足？）；批量结果不完整"),
    "e.rule.thirteen": ("heart_values: needs a value for each of the 13 hearts, 2 to A", "heart_values：13 张红桃（2 到 A）每张都要有分值"),
    "e.rule.decks": ("decks: 1 or 2, not {value}", "decks：应为 1 或 2，不能是 {value}"),
    "e.rule.levels_count": ("exposure_levels: needs {count} values (0 to {decks} copies exposed)", "exposure_levels：需要 {count} 个值（亮 0 到 {decks} 张）"),
    "e.rule.level": ("exposure levels are multipliers ≥ 1, not {value}", "亮牌倍数应不小于 1，不能是 {value}"),
    "e.rule.multiplier": ("transformer_multiplier: a multiplier ≥ 1, not {value}", "transformer_multiplier：倍数应不小于 1，不能是 {value}"),
    "e.rule.mode": ("full_red_mode: fixed or flip, not {value}", "full_red_mode：应为 fixed 或 flip，不能是 {value}"),
    "e.rule.exposable": ("exposable: {code} cannot be exposed; only QS JD 10C AH", "exposable：{code} 不能亮；只有 QS JD 10C AH 可以"),
    "e.rule.match_end": ("match_end: the raw total that ends a match is below 0, not {value}", "match_end：结束比赛的原始分合计应小于 0，不能是 {value}"),
    "e.rule.slam_zero": ("grand_slam: fixed at {value}, but the formula it scales gives 0 with these values (hearts, pig, sheep); set grand_slam: null or change them", "grand_slam：定为 {value}，但按这些分值（红桃、猪、羊）公式得 0，无法换算；请设 grand_slam: null 或修改分值"),
    "e.rule.row_twice": ("transformer_table: a row (exposed, taken) is given twice", "transformer_table：同一行（exposed, taken）出现了两次"),
    "e.rule.rows": ("transformer_table: needs one row for each (copies exposed, copies taken): {rows}", "transformer_table：每种（亮的张数, 收的张数）都要有一行：{rows}"),
    "e.rule.row_times": ("transformer_table: ({exposed} exposed, {taken} taken) is a multiplier ≥ 1, not {value}", "transformer_table：（亮 {exposed} 张，收 {taken} 张）的倍数应不小于 1，不能是 {value}"),
    "e.rule.row_multiple": ("transformer_table: ×{times} ({exposed} exposed, {taken} taken) is not a multiple of ×{base} (nothing exposed, one taken), so a lone 10♣ would score a fraction", "transformer_table：×{times}（亮 {exposed} 张，收 {taken} 张）不是 ×{base}（未亮、收一张）的倍数，单变压器会得到分数"),
    "e.rule.first_lead": ("{key}: pig or rotation, not {value}", "{key}：应为 pig 或 rotation，不能是 {value}"),
    "e.rule.unknown": ("unknown rule {key}{hint}", "未知的规则 {key}{hint}"),
    "e.rule.unsafe": ("{key}: holds {char}; text here may not hold control characters, line breaks or marks that reorder text", "{key}：含有 {char}；这里的文字不能有控制字符、换行符或改变文字方向的符号"),
    "e.rule.no_name": ("name: a rules file needs a name", "name：规则文件需要名称"),
    "e.rule.whole": ("{key}: expected a whole number, not {value}", "{key}：应为整数，不能是 {value}"),
    "e.rule.range": ("{key}: {value} is out of range (at most {largest} either way)", "{key}：{value} 超出范围（正负最多 {largest}）"),
    "e.rule.text": ("{key}: expected text, not {value}", "{key}：应为文字，不能是 {value}"),
    "e.rule.flag": ("{key}: expected true or false, not {value}", "{key}：应为 true 或 false，不能是 {value}"),
    "e.rule.hearts_mapping": ("heart_values: expected a mapping of rank (2 … 10, J, Q, K, A) to points", "heart_values：应是点数（2 … 10、J、Q、K、A）到分值的映射"),
    "e.rule.hearts_rank": ("heart_values: {rank} is not a rank (2 … 10, J, Q, K, A)", "heart_values：{rank} 不是点数（2 … 10、J、Q、K、A）"),
    "e.rule.hearts_missing": ("heart_values: no value for {ranks}", "heart_values：{ranks} 没有分值"),
    "e.rule.exposable_list": ("exposable: expected a list of cards, e.g. [QS, JD, 10C, AH]", "exposable：应是一列牌，例如 [QS, JD, 10C, AH]"),
    "e.rule.levels_list": ("exposure_levels: expected a list, e.g. [1, 2]", "exposure_levels：应是一个列表，例如 [1, 2]"),
    "e.rule.table_list": ("transformer_table: expected a list of {{exposed, taken, times}}", "transformer_table：应是 {{exposed, taken, times}} 的列表"),
    "e.rule.table_row": ("transformer_table: each row is {{exposed, taken, times}}, not {row}", "transformer_table：每行应是 {{exposed, taken, times}}，不能是 {row}"),
    "e.rule.normalize": ("normalize: none, zero-sum or jj, not {value}", "normalize：应为 none、zero-sum 或 jj，不能是 {value}"),
    "e.rules.mapping": ("a rules file holds a mapping of rule names to values", "规则文件应是规则名到值的映射"),
    "e.rules.extends": ("extends: {parent} is not a built-in variant ({known})", "extends：{parent} 不是内置规则（{known}）"),
    "e.rules.circle": ("extends: {chain} goes round in a circle", "extends：{chain} 形成了循环"),
    "e.rules.named": ("built-in variant {name}: its file names it {other}", "内置规则 {name}：文件里的名字是 {other}"),
    "e.rules.text": ("a variant is named by text, such as classic, not {value}", "规则名应是文字，例如 classic，不能是 {value}"),
    "e.rules.unknown": ("unknown variant {name} (known: {known}){hint}", "未知的规则 {name}（已有：{known}）{hint}"),
    "e.rules.aliases": ("aliases: only the built-in variants have other names", "aliases：只有内置规则有别名"),
    # --- errors: a match ledger (e.led.*), its file (e.store.*), its history (e.hist.*)
    "e.led.players": ("players {players}: a match needs four different names in seat order, e.g. 东,南,西,北", "玩家 {players}：一场比赛需要四个不同的名字，按座位顺序，例如 东,南,西,北"),
    "e.led.not_player": ("player {name} is not in this match (players: {players})", "玩家 {name} 不在这场比赛中（玩家：{players}）"),
    "e.led.twice": ("a player is given twice", "有一位玩家给了两次"),
    "e.led.no_cards": ("no cards given for {names}; every player is needed", "没有给出 {names} 的牌；每位玩家都要有"),
    "e.led.over": ("the match ended after hand {hand} ({loser} 当猪); start a new ledger for the next match", "比赛在第 {hand} 局后已经结束（{loser} 当猪）；下一场请新建比赛记录"),
    "e.led.nothing_to_undo": ("no hands to undo", "没有可以撤销的局"),
    "e.led.rescore": ("hand {number} cannot be scored under these rules: {error}", "第 {number} 局无法按这些规则计分：{error}"),
    "e.led.no_hands": ("no hand {number}: this match has no hands yet", "没有第 {number} 局：这场比赛还没有局"),
    "e.led.no_hand": ("no hand {number}: this match has hands 1 to {count}", "没有第 {number} 局：这场比赛有第 1 到第 {count} 局"),
    "e.led.ends_before": ("after this change the match ends at hand {end}, but hands {next} to {count} follow it; remove them first", "这样改后比赛在第 {end} 局就结束了，但后面还有第 {next} 到第 {count} 局；请先删除它们"),
    "e.led.rename": ("cannot rename {old} to {new}: names must be new and non-empty", "不能把 {old} 改名为 {new}：新名字不能为空，也不能和已有的相同"),
    "e.led.not_mapping": ("not a ledger: expected a mapping with format, players and hands", "不是比赛记录：应是含 format、players 和 hands 的映射"),
    "e.led.no_format": ("not a ledger: it has no format, players and hands", "不是比赛记录：没有 format、players 和 hands"),
    "e.led.format": ("format: expected {expected}, found {found}", "format：应为 {expected}，却是 {found}"),
    "e.led.unknown_key": ("unknown key {key}", "未知的键 {key}"),
    "e.led.players_list": ("players: expected a list of four names", "players：应是四个名字的列表"),
    "e.led.variant_or_rules": ("give variant or rules, not both", "variant 和 rules 只能有一个"),
    "e.led.hands_list": ("hands: expected a list", "hands：应是一个列表"),
    "e.led.mapping": ("expected a mapping", "应是一个映射"),
    "e.led.hand_number": ("hand: expected {number}, found {found}", "hand：应为 {number}，却是 {found}"),
    "e.led.by_player": ("{label}: expected a mapping of player to cards", "{label}：应是玩家到牌的映射"),
    "e.led.label_player": ("{label}: no player named {name}", "{label}：没有名为 {name} 的玩家"),
    "e.led.partial": ("partial: expected true or false", "partial：应为 true 或 false"),
    "e.led.marks": ("marks: expected a mapping", "marks：应是一个映射"),
    "e.led.end": ("{said}: the end is a negative total{hint}", "{said}：终局线应是负的合计{hint}"),
    "e.led.end_at": ("end at {end}", "终局线 {end}"),
    "e.led.end_fix": ("; did you mean {value}?", "；是不是要写 {value}？"),
    "e.led.end_eg": ("; e.g. -1000", "；例如 -1000"),
    "e.led.missing": ("missing {key}", "缺少 {key}"),
    "e.led.kind": ("{key}: expected {kind}, found {value}", "{key}：应为 {kind}，却是 {value}"),
    "e.led.four_numbers": ("{key}: expected a list of four numbers", "{key}：应是四个数的列表"),
    "e.led.not_number": ("{key}: {value} is not a number", "{key}：{value} 不是数"),
    "e.led.not_whole": ("{key}: {value} is not a whole number", "{key}：{value} 不是整数"),
    "v.no_score": ("hand {number}: its input no longer scores: {error}", "第 {number} 局：记录的牌已无法计分：{error}"),
    "v.differs": ("hand {number}: {label} of {name}: stored {stored}, recomputed {fresh}", "第 {number} 局：{name} 的 {label}：记录为 {stored}，重新计算为 {fresh}"),
    "v.after_end": ("hands {next} to {count} follow the end (hand {end})", "第 {next} 到第 {count} 局在比赛结束（第 {end} 局）之后"),
    "e.store.invalid": ("{error}; not a valid ledger", "{error}；不是有效的比赛记录"),
    "e.store.none": ("no such ledger; start one with 'gongzhu-score match new {path} --players 东,南,西,北'", "没有这个比赛记录；新建请用 'gongzhu-score match new {path} --players 东,南,西,北'"),
    "e.store.large": ("larger than {size} bytes; not a {what}", "超过 {size} 字节；不是{what}"),
    "e.store.lock": ("cannot lock ({lock}: {why})", "无法加锁（{lock}：{why}）"),
    "e.store.no_folder": ("the folder {folder} does not exist", "文件夹 {folder} 不存在"),
    "e.store.exists": ("already exists; a match ledger is never overwritten (pick another name)", "已经存在；比赛记录不会被覆盖（请换个名字）"),
    "e.output": ("cannot write the output: ", "无法写出结果："),
    "e.read.special": ("is not a regular file (a pipe or a device?); give a file, or - for standard input", "不是普通文件（管道或设备？）；请给出文件，或用 - 表示标准输入"),
    "e.write.empty": ("an empty file name; name a file", "文件名为空；请给出文件名"),
    "e.write.folder": ("is a folder; name a file", "这是文件夹；请给出文件名"),
    "e.write.special": ("is not a regular file (a device or a pipe?); name a file", "不是普通文件（设备或管道？）；请给出文件名"),
    "e.write.failed": ("cannot write: {why}; nothing was changed", "无法写入：{why}；没有任何改动"),
    "e.store.busy": ("another process is changing this ledger (it holds {lock}); nothing was changed, try again", "另一个进程正在修改这个比赛记录（{lock} 被占用）；没有任何改动，请稍后再试"),
    "e.store.unwritable": ("cannot write: {why}; the ledger is unchanged", "无法写入：{why}；比赛记录没有改动"),
    "e.store.more": (" (and {count} more)", "（还有 {count} 处）"),
    "e.store.by_hand": ("{problem}{more}; the file was changed by hand: see 'gongzhu-score match verify {path}', and correct it before adding hands", "{problem}{more}；文件被手动改过：请用 'gongzhu-score match verify {path}' 查看，改正后再加局"),
    "e.store.nothing": ("no change to revert; the match is as it started", "没有可以撤回的修改；比赛还是开始时的样子"),
    "e.store.edited": ("the ledger was changed after its last recorded change (edited by hand?), so that change cannot be reverted exactly; nothing was restored", "比赛记录在最后一次记录的修改之后又被改过（手动编辑？），无法准确撤回；什么也没有恢复"),
    "e.hist.start": ("the start of a match cannot be reverted", "比赛的开始无法撤回"),
    "e.hist.line": ("{where} is not a recorded change", "{where}不是记录的修改"),
    "w.line": ("line {number}", "第 {number} 行"),
    "w.last_line": ("the last line", "最后一行"),
    "e.hist.write": ("cannot write the history: {why}; the ledger is unchanged", "无法写入修改记录：{why}；比赛记录没有改动"),
    "what.ledger": ("ledger", "比赛记录"),
    "what.history": ("history", "修改记录"),
    # --- errors: the command line (e.cli.*), claims, compare
    "e.cli.variant_or_rules": ("give --variant or --rules, not both", "--variant 和 --rules 只能给一个"),
    "e.cli.claim": ("--claim {value}: expected NAME=SCORE, e.g. --claim 南=-200", "--claim {value}：应为 名字=得分，例如 --claim 南=-200"),
    "e.cli.captured_twice": ("--captured {name}= given twice; put all of {name}'s cards in one", "--captured {name}= 给了两次；请把 {name} 的牌写在一起"),
    "e.cli.flag_player": ("{flag} {name}=: no player named {quoted} in --captured", "{flag} {name}=：--captured 里没有名为 {quoted} 的玩家"),
    "e.cli.file_or_flags": ("give the hand either as a file or with --captured/--exposed flags, not both", "牌局请用文件或 --captured/--exposed 给出，不要两者都给"),
    "e.cli.no_hand": ("no hand given: name a hand file (or - for stdin), or give --captured NAME=CARDS for each player; see 'gongzhu-score {command} --help'", "没有给出牌局：请给出牌局文件（或 - 表示标准输入），或为每位玩家给出 --captured 名字=牌；见 'gongzhu-score {command} --help'"),
    "e.cli.name_cards": ("{flag} {value}: expected NAME=CARDS, e.g. {flag} 东=\"QS 6H\" (an empty {flag} 北= means no cards)", "{flag} {value}：应为 名字=牌，例如 {flag} 东=\"QS 6H\"（{flag} 北= 表示没有牌）"),
    "e.cli.players_or_like": ("name the players (--players 东,南,西,北) or a match to copy (--like)", "请给出玩家（--players 东,南,西,北）或要照搬的比赛（--like）"),
    "e.cli.not_tty": ("remove hand {number}: not asked at a terminal; add --yes", "删除第 {number} 局：不在终端上，无法询问；请加 --yes"),
    "e.cli.nothing_to_set": ("nothing to set: give --end-at, --variant, --rules, --normalize, --scale, --rounding or --teams", "没有要改的设置：请给出 --end-at、--variant、--rules、--normalize、--scale、--rounding 或 --teams"),
    "e.cli.explain_n": ("N names a hand of a match ledger: explain LEDGER N", "N 指比赛记录中的一局：explain 比赛记录 N"),
    "e.cli.compare_two": ("compare needs two or more rule sets: --variant NAME or --rules FILE", "compare 需要两套或更多规则：--variant 名称 或 --rules 文件"),
    "e.cli.no_ledgers": ("no match ledgers in {inputs}", "{inputs} 中没有比赛记录"),
    "e.cli.table_format": ("--table-format {value}: not a tabulate format; try simple, github, grid, plain, rounded_outline (all: {known})", "--table-format {value}：不是 tabulate 的表格格式；可用 simple、github、grid、plain、rounded_outline（全部：{known}）"),
    "e.cli.format": ("{value}: this command prints {formats}", "{value}：这个命令只输出 {formats}"),
    "h.missing": ("add them to a player, give one player the rest (--rest NAME), or score a partial tally (--partial)", "请把它们加给某位玩家，或让一位玩家取其余的牌（--rest 名字），或按部分计分（--partial）"),
    "h.ledger_not_hand": ("name one of its hands: 'gongzhu-score explain LEDGER N', 'gongzhu-score match show LEDGER N'", "请指明其中一局：'gongzhu-score explain 比赛记录 N'、'gongzhu-score match show 比赛记录 N'"),
    "h.see_help": (" (see '{command} --help')", "（见 '{command} --help'）"),
    "aborted": ("aborted", "已取消"),
    "e.claim.kind": ("a claim is about the raw or the final score, not {kind}", "自报的是原始分或最后得分，不能是 {kind}"),
    "e.claim.player": ("claim for {name}: no such player ({players})", "{name} 的自报：没有这位玩家（{players}）"),
    "e.compare.none": ("no rule set accepts this hand ({errors})", "没有一套规则能接受这局牌（{errors}）"),
    "w.builtin": ("built-in variant {name}", "内置规则 {name}"),
    "w.trick": ("trick {number}", "第 {number} 圈"),
    "w.play": ("trick {number}: play {play}", "第 {number} 圈第 {play} 家"),
    "w.by_player": ("{key}: {name}", "{key_zh}：{name}"),
    "w.deal": ("deal", "发牌"),
    "w.claimed": ("claimed", "自报"),
    "w.players_seat": ("players[{seat}]", "players[{seat}]"),
    "w.player_name": ("players: a player's name", "players：玩家的名字"),
    "w.name_of": ("{where}: name", "{where}：名字"),
    # --- places an error names (within)
    "w.player": ("player {name}", "玩家 {name}"),
    "w.captured": ("captured", "收的牌"),
    "w.exposed": ("exposed", "亮牌"),
    "w.first_exposed": ("first_exposed", "首明"),
    "w.player_field": ("player {name}: {field}", "玩家 {name}：{field_zh}"),
    # --- the rules, by their names in a rules file (variants show, compare, explain's citations)
    "rule.name": ("name", "名称"),
    "rule.title": ("title", "说明"),
    "rule.title_zh": ("title_zh", "中文说明"),
    "rule.source": ("source", "出处"),
    "rule.decks": ("decks", "副数"),
    "rule.heart_values": ("heart_values", "红桃分值"),
    "rule.pig": ("pig", "猪"),
    "rule.sheep": ("sheep", "羊"),
    "rule.exposable": ("exposable", "可亮的牌"),
    "rule.exposure_levels": ("exposure_levels", "亮牌倍数"),
    "rule.first_exposure_level": ("first_exposure_level", "首明倍数"),
    "rule.first_exposure_allowed": ("first_exposure_allowed", "允许首明"),
    "rule.auto_exposure": ("auto_exposure", "三亮自动亮第四张"),
    "rule.transformer_multiplier": ("transformer_multiplier", "变压器倍数"),
    "rule.transformer_table": ("transformer_table", "变压器倍数表"),
    "rule.transformer_alone": ("transformer_alone", "单变压器"),
    "rule.zero_hearts_are_scoring": ("zero_hearts_are_scoring", "零分红桃算分牌"),
    "rule.full_red": ("full_red", "全红"),
    "rule.full_red_mode": ("full_red_mode", "全红算法"),
    "rule.full_red_pig_positive": ("full_red_pig_positive", "全红时猪变正分"),
    "rule.grand_slam": ("grand_slam", "满贯"),
    "rule.normalize": ("normalize", "计分方法"),
    "rule.match_end": ("match_end", "终局线"),
    "rule.first_lead": ("first_lead", "首引"),
    "rule.first_lead_with_partners": ("first_lead_with_partners", "打对家时的首引"),
    "rule.opening_card": ("opening_card", "首引牌"),
    "rule.opening_card_must_be_played": ("opening_card_must_be_played", "首引牌必须先出"),
    "rule.transformer_multipliers": ("transformer_multipliers", "变压器倍数（由规则推出）"),
    "rule.transformer_alone_values": ("transformer_alone_values", "单变压器得分（由规则推出）"),
    "rule.grand_slam_rule": ("grand_slam_rule", "满贯得分（由规则推出）"),
    "rule.teams": ("teams", "组队"),
    # --- explain
    "x.title": ("Rules: {name} ({title})", "规则：{name}（{title}）"),
    "x.first_lead.pig": ("First lead (首引): the holder of {card} leads a match's first hand{must}; each later hand, whoever took the pig in the hand before{rule}.",
                         "首引：比赛第一局由持{card}者先出{must}；以后每局由上一局收猪者先出{rule}。"),
    "x.first_lead.must": (", and leads {card} itself", "，且必须先出{card}"),
    "x.first_lead.any": (", any card", "，出什么牌都可以"),
    "x.first_lead.rotation": ("First lead (首引): by rotation, hand k of a match is led by seat ((k − 1) mod 4) + 1, any card{rule}.",
                              "首引：轮流，比赛第 k 局由第 ((k − 1) mod 4) + 1 座先出，出什么牌都可以{rule}。"),
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
    "r.claim": ("Claim (声称) by {by}, scored as claimed: {takes}", "{by} 声称，按声称计分：{takes}"),
    "r.claim_line": ("stated line: {line}", "声明的出法：{line}"),
    "r.claim_yes": ("Guaranteed: every legal play of the others sends each scoring card where the claim says ({positions} positions searched).",
                    "成立：其他三家无论怎样合规出牌，每张分牌都归声称所说的一家（搜索了 {positions} 个局面）。"),
    "r.claim_no": ("Not guaranteed: the others can defeat it, with these legal plays:", "不成立：其他三家可以这样合规出牌推翻它："),
    "r.claim_trick": ("trick {trick}: {plays} → {winner} takes {took}", "第 {trick} 圈：{plays} → {winner} 收 {took}"),
    "r.claim_astray": ("so {card} goes to {taker}, not to {claimed} as claimed.", "于是 {card} 归 {taker}，而不是声称的 {claimed}。"),
    "r.claim_unplayable": ("trick {trick}: {plays} … {by} cannot play the stated line here (it breaks a rule)",
                           "第 {trick} 圈：{plays} … {by} 此时无法按声明的出法出牌（违反出牌规则）"),
    "r.claim_undecided": ("Undecided: the search stopped after {positions} positions, its limit (no guess is made).",
                          "无法判定：搜索到 {positions} 个局面达到上限，不作猜测。"),
    "r.claim_unjudged": ("Not judged: the tricks before the claim break the rules.", "未判定：声称之前的出牌违反规则。"),
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
    "v.dealt_count": ("deal: {card} is dealt {count} time(s); {decks} deck(s) hold it {decks} time(s)",
                      "发牌：{card} 发了 {count} 次；{decks} 副牌中有 {decks} 张"),
    "v.claim_uneven": ("claim: the players do not have as many cards left each ({sizes})",
                       "声称：各家剩下的牌数不一样（{sizes}）"),
    "v.never_played": ("cards never played: {cards}", "没有出过的牌：{cards}"),
    "v.first_lead_holder": ("trick 1: {player} led, but {holders} held {card} (in the first hand "
                            "the holder of {card} leads it)",
                            "第1圈：{player}首出，但{card}在{holders}手里（第一局由持{card}者首出）"),
    "v.first_lead_card": ("trick 1: {player} led {cards}, not {card} (the first hand opens with {card})",
                          "第1圈：{player}首出{cards}，不是{card}（第一局先出{card}）"),
    "v.first_lead_rotation": ("trick 1: {player} led, but hand {hand} is led by seat {seat}, {leader} (rotation)",
                              "第1圈：{player}首出，但第 {hand} 局应由座位 {seat}（{leader}）首引（轮流首引）"),
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
    "m.no_hands": ("no hands yet; the holder of {card} leads the first hand",
                   "尚无牌局；第一局由持{card}者先出"),
    "m.no_hands_rotation": ("no hands yet; {lead} leads the first hand (rotation: seat 1)",
                            "尚无牌局；第一局由{lead}先出（轮流首引：座位 1）"),
    "m.in_play_rotation": ("in play after {count}; {lead} leads the next hand (rotation: seat {seat})",
                           "进行中（已打 {count}）；下一局由{lead}先出（轮流首引：座位 {seat}）"),
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
    "m.new": ("new match in {ledger}: {players} · {variant} · {normalize} · ends at {end}", "新比赛 {ledger}：{players} · {variant} · {normalize} · 终局线 {end}"),
    "m.renamed": ("renamed {old} to {new}", "已把 {old} 改名为 {new}"),
    "m.verified": ("{ledger}: {count}, every number agrees", "{ledger}：{count}，每个数都对得上"),
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
    "b.bad": ("{count} bad record", "{count} 条错误记录"),
    "b.bad.many": ("{count} bad records", "{count} 条错误记录"),
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


# What a terminal may take as a command rather than text, or as the end of a line: C0 and C1
# controls (ESC starts an escape sequence, U+009B is a one-byte CSI), DEL, the line and paragraph
# separators (YAML and many readers break lines there), the byte-order mark and the marks that
# reorder text (bidirectional overrides and isolates: text that displays other than it reads).
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]"
)


def unsafe_character(text: str) -> str | None:
    """The first character of ``text`` that cannot be shown as it is (see :func:`printable`),
    or None."""
    found = _UNSAFE.search(text)
    return None if found is None else found.group()


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` safe to print on a terminal and on one line: every character that a terminal
    could act on, or a reader take as a line break, written as its escape (``\\x1b``,
    ``\\u2028``). Everything else (CJK, emoji, ♠) is kept."""
    return _UNSAFE.sub(_escaped, text) if _UNSAFE.search(text) else text


class Names(tuple[str, ...]):
    """Player names, shown joined with "and" (English) or "、" (Chinese), or "nobody"."""


class Listed(tuple[str, ...]):
    """Items shown as a list: ``东, 南, 西, 北`` (English), ``东、南、西、北`` (Chinese)."""


class Cards(tuple[Any, ...]):
    """Cards, shown as their symbols, or "nothing"."""


class Both(tuple[str, str]):
    """Words already said in both languages (English, Chinese): a value of a term, or where an
    error happened (:meth:`GongzhuError.within`)."""


def _shown(value: object, lang: str) -> object:
    if isinstance(value, str):  # what came from input: a name, a file, a token
        return printable(value)
    if isinstance(value, GongzhuError):  # an error within another: in the same language
        return printable(value.text(lang))
    if isinstance(value, Both):
        return value[1] if lang == "zh" else value[0]
    if isinstance(value, Listed):
        return join(value, lang)
    if isinstance(value, Names):
        return join(value, lang, "and") or say("nobody", lang)
    if isinstance(value, Cards):
        return " ".join(c.symbol for c in value) or say("nothing", lang)
    term = getattr(value, "term", None)
    if isinstance(term, str) and term in TERMS:  # a suit: spades, 黑桃
        return say(term, lang)
    return value


E = TypeVar("E", bound=GongzhuError)


def error(kind: type[E], key: str, /, **values: object) -> E:
    """An error of ``kind`` saying the term ``key`` (``e.…``), in English and in Chinese."""
    return kind(say(key, "en", **values), zh=say(key, "zh", **values))


def place(key: str, /, **values: object) -> Both:
    """A term in both languages: where an error happened (for :meth:`GongzhuError.within`),
    or a part of a message."""
    return Both((say(key, "en", **values), say(key, "zh", **values)))


def say(key: str, lang: str = "en", /, **values: object) -> str:
    """The term ``key`` in ``lang`` (``en`` or ``zh``), with ``values`` filled in."""
    text = TERMS[key][1 if lang == "zh" else 0]
    if not values:
        return text
    return text.format(**{k: _shown(v, lang) for k, v in values.items()})


def join(items: Iterable[object], lang: str, how: str = "list") -> str:
    """Items joined the way the language lists them (``how``: list, and, or, comma)."""
    return say(how, lang).join(printable(str(item)) for item in items)


def rule_name(rule: str, lang: str) -> str:
    """A rule as a table shows it: its name in a rules file, and in Chinese its meaning too
    (``红桃分值 heart_values``), so that either can be looked up."""
    key = f"rule.{rule}"
    if lang != "zh" or key not in TERMS or TERMS[key][1] == rule:
        return rule
    return f"{TERMS[key][1]} {rule}"


def title(variant: Any, lang: str) -> str:
    """A rule set's title in the language: ``Classic one-deck rules``, ``一副牌规则``."""
    return str(variant.title_zh if lang == "zh" else variant.title)


def colon(lang: str) -> str:
    return say("colon", lang)


def count_of_hands(count: int, lang: str) -> str:
    """``1 hand``, ``3 hands``, ``3 局``."""
    return count_of("hands", count, lang)


def count_of(what: str, count: int, lang: str) -> str:
    """A count and its noun, singular or plural: ``1 match``, ``2 matches``."""
    return say(what if count == 1 else f"{what}.many", lang, count=count)
