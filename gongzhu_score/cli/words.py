"""The command line's words, in English and Chinese: its own refusals of flags
(``error.cli.…``), the hints that name the flag that fixes an error (``hint.…``), the prompts
of interactive entry (``prompt.…``). They join :data:`gongzhu_score.terms.TERMS` when the
command line is imported (``cli/__init__.py``).
"""

from ..terms import add_terms

# One term a line, English then Chinese.
# fmt: off
add_terms({
    "error.prefix": ("error: ", "错误："),
    "error.output": ("cannot write the output: ", "无法写出结果："),
    "error.stream.stdin_closed": ("standard input is closed: there is nothing to read (name a file instead of -)", "标准输入已关闭：没有可读的内容（请给出文件，而不是 -）"),
    "error.stream.stdout_closed": ("standard output is closed", "标准输出已关闭"),
    "error.stream.stdin_encoding": ("standard input is not {encoding} text ({why})", "标准输入不是 {encoding} 编码的文字（{why}）"),
    "warning.stream.replaced": ("warning: standard output is {encoding}, which cannot show every character printed: those were written as ?", "警告：标准输出的编码是 {encoding}，无法显示所有字符：这些字符已写为 ?"),
    "error.cli.unshown": ("{ledger}: the change was made ({change}; 'match history' lists it, 'match restore' reverts it), but printing its output failed: {why}", "{ledger}：修改已完成（{change}；'match history' 可查看，'match restore' 可撤回），但输出失败：{why}"),
    "error.cli.unshown.restored": ("{ledger}: {change}, but printing its output failed: {why}; do not run restore again: it would revert one more change ('match show' shows the match)", "{ledger}：{change}，但输出失败：{why}；不要再运行 restore：那会再撤回一项修改（'match show' 可查看比赛）"),
    "error.cli.unshown.new": ("{ledger}: the match was started, but printing its output failed: {why}; 'match show' shows it", "{ledger}：比赛已开始，但输出失败：{why}；'match show' 可查看"),
    "error.cli.claim": ("--claim {value}: expected NAME=SCORE, e.g. --claim 南=-200", "--claim {value}：应为 名字=得分，例如 --claim 南=-200"),
    "error.cli.captured_twice": ("--captured {name}= given twice; put all of {name}'s cards in one", "--captured {name}= 给了两次；请把 {name} 的牌写在一起"),
    "error.cli.flag_player": ("{flag} {name}=: no player named {quoted} in --captured", "{flag} {name}=：--captured 里没有名为 {quoted} 的玩家"),
    "error.cli.file_or_flags": ("give the hand either as a file or with --captured/--exposed flags, not both", "牌局请用文件或 --captured/--exposed 给出，不要两者都给"),
    "error.cli.no_hand": ("no hand given: name a hand file (or - for stdin), or give --captured NAME=CARDS for each player; see 'gongzhu-score {command} --help'", "没有给出牌局：请给出牌局文件（或 - 表示标准输入），或为每位玩家给出 --captured 名字=牌；见 'gongzhu-score {command} --help'"),
    "error.cli.name_cards": ("{flag} {value}: expected NAME=CARDS, e.g. {flag} 东=\"QS 6H\" (an empty {flag} 北= means no cards)", "{flag} {value}：应为 名字=牌，例如 {flag} 东=\"QS 6H\"（{flag} 北= 表示没有牌）"),
    "error.cli.players_or_like": ("name the players (--players 东,南,西,北) or a match to copy (--like)", "请给出玩家（--players 东,南,西,北）或要照搬的比赛（--like）"),
    "error.cli.not_tty": ("remove hand {number}: not asked at a terminal; add --yes", "删除第 {number} 局：不在终端上，无法询问；请加 --yes"),
    "error.cli.nothing_to_set": ("nothing to set: give --end-at, --variant, --rules, --normalize, --scale, --rounding or --teams", "没有要改的设置：请给出 --end-at、--variant、--rules、--normalize、--scale、--rounding 或 --teams"),
    "error.cli.explain_n": ("N names a hand of a match ledger: explain LEDGER N", "N 指比赛记录中的一局：explain 比赛记录 N"),
    "error.cli.compare_two": ("compare needs two or more rule sets: --variant NAME or --rules FILE", "compare 需要两套或更多规则：--variant 名称 或 --rules 文件"),
    "error.cli.format": ("{value}: this command prints {formats}", "{value}：这个命令只输出 {formats}"),

    "hint.missing": ("add them to a player, give one player the rest (--rest NAME), or score a partial tally (--partial)", "请把它们加给某位玩家，或让一位玩家取其余的牌（--rest 名字），或按部分计分（--partial）"),
    "hint.ledger_not_hand": ("name one of its hands: 'gongzhu-score explain LEDGER N', 'gongzhu-score match show LEDGER N'", "请指明其中一局：'gongzhu-score explain 比赛记录 N'、'gongzhu-score match show 比赛记录 N'"),
    "hint.see_help": (" (see '{command} --help')", "（见 '{command} --help'）"),
    "hint.first_pig": ("give --first-pig {first} (or --first-pig {second})", "请加上 --first-pig {first}（或 --first-pig {second}）"),
    "hint.current": ("match: {ledger}", "比赛：{ledger}"),
    "hint.current_variable": ("match: {ledger} (GONGZHU_MATCH)", "比赛：{ledger}（GONGZHU_MATCH）"),
    "error.cli.ambiguous": ("{token}: a hand number, or the ledger file of that name here? Write ./{token} for the file, or name the ledger first: gongzhu-score match {command} LEDGER {token}", "{token}：是局数，还是这里同名的比赛记录文件？文件请写 ./{token}，局数请先写出比赛记录：gongzhu-score match {command} 比赛记录 {token}"),

    "aborted": ("aborted", "已取消"),

    "prompt.captured": ("{name} captured", "{name} 收的牌"),
    "prompt.unassigned": ("  scoring cards not placed yet: {cards}", "  尚未分配的分牌：{cards}"),
    "prompt.all_placed": ("  every scoring card is placed", "  分牌已全部分配"),
    "prompt.rest": (" (-: nothing; rest: every scoring card left)", "（-：无；其余：剩下的全部分牌）"),
    "prompt.blank": (" (-: nothing)", "（-：无）"),
    "prompt.exposed": ("exposed (亮牌): NAME=CARDS, several joined by ';' (-: none)", "亮牌：姓名=牌，多人用“;”隔开（-：无）"),
    "prompt.first": ("首明 (the first card drawn, exposed): NAME=CARD (-: none)", "首明（摸到的第一张牌亮出）：姓名=牌（-：无）"),
    "prompt.taken": ("{card} is {holder}'s already; enter {name}'s cards again", "{card}已经是{holder}的了；请重新输入{name}的牌"),
    "prompt.error": ("error: {error}; try again", "错误：{error}；请重试"),
    "prompt.no_player": ("no player named {name} ({players})", "没有名为 {name} 的玩家（{players}）"),
    "prompt.confirm": ("y: add it, n: cancel, or the number of a line to change", "y：添加，n：取消，或输入要修改的行号"),
    "prompt.confirm_edit": ("y: replace hand {number} with it, n: cancel, or the number of a line to change", "y：替换第 {number} 局，n：取消，或输入要修改的行号"),
    "prompt.line": ("{number}. {what}: {value}", "{number}. {what}：{value}"),
    "prompt.bad_choice": ("answer y, n or a line number from 1 to {lines}", "请回答 y、n 或 1 到 {lines} 之间的行号"),
    "prompt.missing": ("scoring cards nobody took: {cards}; change a line to place them", "无人收的分牌：{cards}；请修改某一行"),
    "prompt.refused": ("this hand cannot be added: {error}; change a line", "这一局无法添加：{error}；请修改某一行"),
    "prompt.cancelled": ("nothing was changed", "没有修改"),
    "prompt.nothing": ("nothing", "无"),
    "prompt.first_pig": ("who took the first pig? ({takers})", "谁先得到第一只猪？（{takers}）"),
    "prompt.first_pig_line": ("first pig", "第一只猪"),
    "prompt.unassigned_rest": ("  scoring cards not placed yet (what is left goes to {name}): {cards}", "  尚未分配的分牌（剩下的归{name}）：{cards}"),
    "prompt.rest_taken": ("{name} takes the rest already, and only one player can; enter this player's cards, or change {name}'s line first", "{name}已经取了“其余”，只能有一位玩家取其余；请输入这位玩家的牌，或先修改{name}那一行"),
    "prompt.rest_came_to": ("{word} ({cards})", "{word}（{cards}）"),
    "prompt.typed_twice": ("{card} is typed {count} times on {name}'s line, but a deck has one; enter {name}'s cards again", "{card}在{name}这一行写了 {count} 次，但一副牌只有一张；请重新输入{name}的牌"),
    "prompt.typed_twice.two": ("{card} is typed {count} times on {name}'s line, but two decks have two; enter {name}'s cards again", "{card}在{name}这一行写了 {count} 次，但两副牌只有两张；请重新输入{name}的牌"),
    "serve.running": ("serving {ledger} to the table: open the address above on each phone (anyone with it can change the match); Ctrl-C stops", "正在为牌桌提供 {ledger}：每部手机打开上面的地址（有这个地址的人都能修改比赛）；按 Ctrl-C 停止"),
    "hint.stdin_terminal": ("reading a hand from standard input: type or paste it, then press Ctrl-D at the start of a line (Ctrl-Z then Enter on Windows)", "正在从标准输入读取牌局：输入或粘贴后，在新的一行开头按 Ctrl-D 结束（Windows 上按 Ctrl-Z 再回车）"),
})
# fmt: on
