"""Every command's and option's ``--help`` in Chinese (``--lang zh``, ``GONGZHU_LANG=zh``): data
only, applied by :mod:`.click_zh` when help is shown in Chinese. The English is where each
command is declared (its docstring, each option's ``help=``); English stays the default.

- :data:`HELP`: per command (its path without the program: ``""`` the root, ``score``,
  ``match add``), the command's own text under ``""``, and the text of each option declared
  there by its first long flag (``--explain``) or of each argument by the name help shows
  (``N``, ``RECORD.yaml``). A text is laid out as Click lays out the English: paragraphs are
  refilled, and a paragraph whose first line is ``\\b`` is kept as typed (the examples).
- :data:`BY_ENGLISH`: the options and arguments declared once for many commands
  (``cli/common.py``'s ``CapturedOpt``, ``LangOpt`` …, ``cli/match.py``'s ``LedgerArg`` …, and
  Click's and Typer's own ``--help``, ``--install-completion``), by their English text: when
  that text changes, its Chinese is missing, not silently stale.
- :data:`METAVARS`: the names of values (``NAME=CARDS`` → ``名字=牌``); a choice (``<en|zh>``)
  and the words typed as they are stay as they are.

``tests/test_help_zh.py`` walks every command and option of the command line and names any
without Chinese, and where to add it; it also checks that each Chinese text names the same
options as its English one and that every example in it is a command line the program takes.
"""

# fmt: off

HEADINGS = {
    "usage": "用法：",
    "arguments": "参数",
    "options": "选项",
    "commands": "命令",
    "colon": "：",
    "semicolon": "；",
}

# The usage line's own words (the values' names are METAVARS).
USAGE = {
    "[OPTIONS]": "[选项]",
    "COMMAND [ARGS]...": "命令 [参数]...",
}

# What Click adds after an option's text: [default: 1; env var: GONGZHU_LANG; required].
EXTRAS = {
    "default": "默认",
    "env var": "环境变量",
    "required": "必填",
}

METAVARS = {
    "NAME": "名字",
    "NAMES": "名字",
    "NAME=CARDS": "名字=牌",
    "NAME=CARD": "名字=牌",
    "NAME=SCORE": "名字=得分",
    "FILE": "文件",
    "STYLE": "样式",
    "N": "N",
    "LEDGER": "比赛记录",
    "HAND.yaml": "牌局.yaml",
    "RECORD.yaml": "记录.yaml",
    "INPUT": "输入",
    "POSITIONS": "局面数",
    "ADDRESS": "地址",
    "ADDR": "地址",
    "TEXT": "文字",
    "OLD": "旧名字",
    "NEW": "新名字",
    "SECONDS": "秒数",
}

BY_ENGLISH = {
    # Click's and Typer's own
    "Show this message and exit.": "显示本帮助并退出。",
    "Install completion for the current shell.": "为当前的 shell 安装命令补全。",
    "Show completion for the current shell, to copy it or customize the installation.":
        "显示当前 shell 的命令补全脚本，可复制下来或自行安装。",

    # cli/common.py
    "A YAML hand file, or - for standard input. Or give the hand with --captured.":
        "YAML 牌局文件，或 - 表示从标准输入读。也可以用 --captured 给出这一局。",
    'One per player, in seat order (counter-clockwise): the cards that player captured, e.g. '
    '东="QS 6H 8H 10C". An empty 北= means nothing.':
        '每位玩家一个，按座位顺序（逆时针）：这位玩家收的牌，例如 东="猪 变压器 红桃6 8"。'
        "空的 北= 表示什么也没收。",
    "Special cards a player exposed (亮牌/卖牌): Q♠ J♦ 10♣ A♥, e.g. 南=AH.":
        "玩家亮出（卖）的特殊牌：猪、羊、变压器、红桃A，例如 南=红桃A。",
    "A card exposed under 首明 (the first card the player drew): counts ×4.":
        "首明亮出的牌（玩家摸到的第一张牌）：按 ×4 计。",
    "This player took every scoring card the others did not (the fourth player at a table "
    "need not count).":
        "这位玩家收了其他人没收的全部分牌（一桌的第四位玩家不必数牌）。",
    "Rule set: classic (default), online, dehong, jj, two-deck. Overrides the file's.":
        "规则：classic（默认）、online、dehong、jj、two-deck。优先于文件里写的。",
    "House rules: a YAML file in the variants' schema (start from 'gongzhu-score variants show "
    "classic --format yaml'). Instead of --variant.":
        "本桌规则：按规则格式写的 YAML 文件（可以从 'gongzhu-score variants show classic "
        "--format yaml' 改起）。代替 --variant。",
    "Raw to final: none, zero-sum (r − others/3), jj (3r − others). Default: the variant's.":
        "原始分怎样换算成最后得分：none（不换算）、zero-sum（r − 其他三家之和/3）、"
        "jj（3r − 其他三家之和）。默认按规则。",
    "Multiply the finals (the seed's one-deck ×12).":
        "最后得分乘以这个倍数（一副牌常用 ×12）。",
    "zero-sum finals: nearest integer, or exact thirds.":
        "零和计分的最后得分：nearest 四舍五入到整数，exact 保留三分之一。",
    "none (default); partners (打对家: seats 1+3 against 2+4); pig-sheep (猪羊一家: the takers "
    "of the pig and the sheep against the others). Overrides the file's.":
        "none（默认，不组队）；partners（打对家：1、3 座对 2、4 座）；pig-sheep（猪羊一家："
        "收猪的和收羊的对其他人）。优先于文件里写的。",
    "Allow scoring cards nobody captured; the result says partial.":
        "允许有无人收的分牌；结果注明是部分计分。",
    "What a player says they scored, e.g. 南=-200; each wrong claim is shown with the right "
    "number, and the command exits 3.":
        "玩家自报的得分，例如 南=-200；每个不对的自报都给出正确的数，命令以 3 退出。",
    "Claims are raw scores (原始分) or final scores.":
        "自报的是原始分（raw）还是最后得分（final）。",
    "Output: a table for people, or json, csv, yaml.":
        "输出：给人看的表格（table），或 json、csv、yaml。",
    "Language of tables, prompts and messages: en, or zh (中文). The environment variable "
    "GONGZHU_LANG sets the default.":
        "表格、提示和消息（还有帮助）的语言：en（英文）或 zh（中文）。环境变量 GONGZHU_LANG "
        "设定默认的语言。",
    "Any tabulate table style: simple, github, grid, plain, …":
        "任何一种 tabulate 表格样式：simple、github、grid、plain……",
    "table, json or yaml.": "table（表格）、json 或 yaml。",
    "table, json or csv.": "table（表格）、json 或 csv。",
    "table or json.": "table（表格）或 json。",
    "csv or json.": "csv 或 json。",

    # cli/match.py
    "The match's ledger file. Left out: the match GONGZHU_MATCH names, else the one last "
    "started or changed in this folder (said on stderr).":
        "比赛记录文件。不写时：用 GONGZHU_MATCH 指的比赛，否则用这个文件夹里最后开始或修改的那"
        "场（在标准错误上说明是哪一场）。",
    "The new match's ledger file; it becomes this folder's current match.":
        "新比赛的记录文件；它成为这个文件夹的当前比赛。",
    "A hand of the match (1 = first).": "比赛中的一局（1 = 第一局）。",
    "Ask for each player's cards (the default when no hand is given at a terminal).":
        "逐一询问每位玩家的牌（在终端上且没有给出牌局时就是这样）。",
    "Do it without asking (for scripts).": "不询问，直接执行（供脚本用）。",
    "A note kept with the hand (one line, at most 200 characters), shown by 'match show LEDGER "
    "N' and exported.":
        "与这一局一起记下的备注（一行，最多 200 个字符）：'match show 比赛记录 N' 会显示，导出时"
        "也带上。",
    "A new note for the hand (--note '' removes it); without it, its note stays.":
        "这一局的新备注（--note '' 删去备注）；不给则保留原来的备注。",
    "Two decks: who took the first pig (Q♠), when two players took one each; under the "
    "first-lead rule pig they lead the next hand, and the match asks it.":
        "两副牌：两位玩家各收了一只猪时，谁先收到第一只猪（黑桃Q）；按首引规则 pig 由他先出"
        "下一局，比赛会问这一点。",
    "The end, a negative total: a raw total at or below it (default -1000); in team play a "
    "final total reaching it or its opposite.":
        "终局线，一个负数：原始分合计达到或低于它时比赛结束（默认 -1000）；组队时最后得分"
        "合计达到它或它的相反数时结束。",
}

HELP: dict[str, dict[str, str]] = {
    "": {
        "": """
            拱猪（Gongzhu）记分。

            按每位玩家收的牌计一局的分（score），说明为什么这样计（explain），比较几套规则
            （compare），逐圈回放出牌记录（replay），给一批记录下来的牌局计分（batch），
            记一场比赛直到有人当猪（match），看多场比赛的统计（stats），把比赛放到牌桌上
            每个人的手机上（serve），列出或查看规则（variants）。

            \b
            示例：
              gongzhu-score score sample_hands/seed_minus_400.yaml --lang zh
              gongzhu-score score -c 东=猪 -c 南="红桃A K Q" -c 西= --rest 北
              gongzhu-score match new tonight.yaml --players 东,南,西,北
              gongzhu-score variants show classic
            """,
        "--version": "显示版本号。",
    },
    "score": {
        "": """
            计一局的分：谁收了哪些分牌，谁亮了什么牌。

            \b
            示例：
              gongzhu-score score sample_hands/seed_minus_400.yaml --lang zh
              gongzhu-score score --captured 东="猪 变压器 红桃6 8 10 J" \\
                  --captured 南="红桃A 2 3 4 5 7 9" --captured 西="羊 红桃Q K" \\
                  --captured 北= --exposed 南=红桃A
              gongzhu-score score -c 东=猪 -c 南="红桃A K Q" -c 西= --rest 北
              gongzhu-score score -c 东="QS 10C 6H 8H 10H JH" \\
                  -c 南="AH 2H 3H 4H 5H 7H 9H" -c 西="JD QH KH" -c 北= -e 南=AH
              cat hand.yaml | gongzhu-score score - --format json

            牌的写法：黑桃Q 或 猪，方块J 或 羊，梅花10 或 变压器，猪羊 表示猪和羊；花色会带到
            后面不写花色的点数上（红桃6 8 10 J），范围 红桃2-10，中文数字 红桃十，全红 表示
            全部红桃（两副牌是 26 张）；也认 QS、Q♠、10C 这些写法。

            退出码：0 成功，2 牌局被拒绝，3 有 --claim 不对。
            """,
        "--explain": "同时逐步解释每个得分。",
    },
    "explain": {
        "": """
            逐步解释每位玩家的得分，每一步注明依据的规则。

            与 score 用同样的牌局和选项；也可以给一个比赛记录和其中一局的局数（按比赛的规则
            解释）。最后是换算最后得分的公式和代入的数，组队时还有各方的分。

            \b
            示例：
              gongzhu-score explain sample_hands/seed_minus_400.yaml
              gongzhu-score explain sample_hands/seed_minus_400.yaml --lang zh --claim 东=-200
              gongzhu-score explain tonight.yaml 3
            """,
        "N": "给的是比赛记录而不是牌局文件时：解释其中的第 N 局。",
    },
    "compare": {
        "": """
            同一局牌按几套规则并排计分，并指出每处差别来自哪一条规则。

            出牌记录的出牌按它自己的规则（这桌实际打的规则）判定；比较的几套规则只改变计分。加上
            --claim，就列出能得出玩家自报的那个数的规则：比较的几套规则和内置的规则原样，以及第一
            套规则改动一条之后（每一种都给出可用来核对的本桌规则文件）。

            \b
            示例：
              gongzhu-score compare sample_hands/seed_minus_400.yaml -v classic -v dehong -v jj
              gongzhu-score compare hand.yaml -v classic --rules our-table.yaml
              gongzhu-score compare sample_hands/seed_minus_400.yaml --claim 东=-200
            """,
        "--variant": "要比较的一套规则；给两套或更多（默认：四套一副牌规则）。第一套是其他几套"
                     "与之比较的基准。",
        "--rules": "也一起比较的本桌规则文件（可以给多次）。",
        "--claim": "玩家自报的得分，例如 东=-200，按第一套规则核对；不对的，就列出能得出它的几套"
                   "规则和第一套规则的单条改动。有不对的就以 3 退出。",
    },
    "replay": {
        "": """
            逐圈回放一局：检查每一张出牌，找出每圈谁赢，然后计分。

            出牌规则按给出的 --variant、--rules 和 --teams，否则按记录自己的 variant: 和
            teams:。

            检查：每张牌只出一次；有发牌时每人 13 张，且只出自己的牌；首引按所用的规则：
            online 和德宏每局由持梅花2（或黑桃3）者先出，出什么牌都可以；classic 比赛的第一局
            （hand: 1，或 first_hand: true）由持梅花2者先出梅花2；轮流时第 N 局（hand: N）
            由对应的座位先出；每圈由上一圈的赢家先出；有该花色必须跟；亮过的牌（包括三亮自动
            亮出的第四张）在它的花色第一次被领出时不能出，除非是这位玩家这个花色的最后一张
            （首明的除外）；亮过的牌要在亮牌的人手里。两副牌：每次出一张或一对，领出对子要跟
            对子。

            记录可以在声称剩下的各圈时结束（声称：claim: {by, takes, line}）。这一局按声称
            计分，并判定声称：在每个人的牌都已知的情况下，声称的人有一种出法（给了 line 就按
            line），使其他人无论怎样合规出牌，每张分牌都归声称所说的那一家，声称就成立；
            否则列出一条推翻它的合规出牌路线。搜索是精确的；超过上限就说“无法判定”，从不
            猜测。

            退出码：0 记录合规（声称成立），1 违反出牌规则（列出违规），2 无法读取，3 只有收的
            牌或自报得分对不上，或者声称不成立（或无法判定）。

            \b
            示例：
              gongzhu-score replay sample_hands/record.yaml
              gongzhu-score replay sample_hands/claim_guaranteed.yaml
              gongzhu-score replay sample_hands/claim_defeated.yaml --lang zh
              gongzhu-score replay sample_hands/dehong_record.yaml --variant classic
            """,
        "RECORD.yaml": "逐圈的出牌记录（YAML 或 JSON），或 - 表示从标准输入读。",
        "--claim-limit": "判定声称时，搜索最多访问多少个局面，超过就说“无法判定”：每试一种"
                         "出法都算一个，不论在一圈之内还是圈与圈之间（默认 500,000：最多几秒"
                         "钟，两副牌在第一圈之前也是如此）。",
    },
    "batch": {
        "": """
            给许多记录下来的牌局计分：先列每一局的得分，再列每位玩家的合计。

            每一局都按牌局文件的格式（players、captured、exposed ……）；除非给了 --variant 或
            --rules，否则按这一局自己的规则。遇到坏记录，批处理就停下，报出文件和行号或文档号，
            除非给了 --keep-going。

            Parquet 文件（*.parquet：players 列是结构体，格式同 JSON Lines）在装了 [arrow]
            扩展后按列计分；--format parquet 把结果写成 Parquet（source，然后是 players：
            name、raw、final）。

            \b
            示例：
              gongzhu-score batch sample_hands/batch.jsonl
              gongzhu-score batch recorded/ --format jsonl --output scores.jsonl
              gongzhu-score batch club-2026.yaml --summary-only --lang zh
              gongzhu-score batch sample_hands/batch.parquet --format parquet -o scores.parquet
              gongzhu-score batch lake/ --format parquet --dask local -o scored/
            """,
        "INPUT": "牌局文件（.yaml/.yml，可以有多个文档；.jsonl，每行一局；.parquet，每行一局）、"
                 "文件夹（在其中找这三种文件），或 - 表示从标准输入读。",
        "--format": "table（先列各局，再列合计）、csv（每位玩家每局一行；加 --summary-only 则是"
                    "合计）、jsonl（每局一个对象）、json，或 parquet（要加 --output：一个文件，"
                    "或数据集的文件夹；需要 [arrow] 扩展）。",
        "--output": "把结果写到这个文件，而不是标准输出。",
        "--summary-only": "只列每位玩家的合计。",
        "--keep-going": "遇到坏记录后继续给其余的计分；最后列出所有坏记录，以 1 退出。",
        "--dask": "在 Dask 集群上给 Parquet 输入计分，每个行组一个任务，写进 --output 这个"
                  "数据集文件夹（要加 --format parquet；需要 [dask] 扩展）：'local' 在本机的"
                  "各个核上启动一个，否则给调度器的地址（tcp://host:8786；它的工作进程要能"
                  "访问输入和输出的路径）。",
        "--dask-timeout": "与 --dask 一起用：连接调度器、以及集群里没有可用 worker 时，最多等"
                          "多少秒，然后放弃（以 2 退出）。[默认：10]",
        "--verbose": "与 --dask 一起用：把 Dask 自己的日志也写到标准错误。",
    },
    "stats": {
        "": """
            多场比赛中每位玩家的统计：比赛场数、局数、当猪（输）的次数、赢的场数、收猪和收羊的
            次数、变压器、全红、满贯，以及每局的平均最后得分。

            \b
            示例：
              gongzhu-score stats sample_hands/match/ledger.yaml
              gongzhu-score stats club-2026/ --lang zh
              gongzhu-score stats club-2026/ --format csv > season.csv
            """,
        "LEDGER": "比赛记录，或放比赛记录的文件夹（其中其他的 YAML 文件略过）。",
    },
    "serve": {
        "": """
            把比赛的页面提供给牌桌：比分、各局、每局的计分说明、点牌记一局。

            打印带比赛密钥的页面地址，以及它的二维码，供手机扫描。有这个地址的每部手机看到的
            都是同一场比赛，实时更新：在一部手机上记的一局（或在同一个比赛记录上用 match add
            加的一局）一秒内出现在所有手机上。没有密钥的请求一律拒绝。按 Ctrl-C 停止服务；
            比赛记录绝不会只写一半。

            除非 --host 另有指定，只在本机上监听：用 --host 0.0.0.0 时，网络上任何拿到地址的
            人都能修改比赛（见 docs/web.md）。

            需要 web 可选依赖：pip install 'gongzhu-score[web]'。

            \b
            示例：
              gongzhu-score serve tonight.yaml --lang zh
              gongzhu-score serve 牌局.yaml --host 0.0.0.0 --port 8080 --lang zh
              gongzhu-score serve tonight.yaml --new-key
            """,
        "--host": "监听的地址：默认 127.0.0.1（只有本机）；0.0.0.0 让网络上每部手机都能打开"
                  "（网络上拿到地址的任何人都能修改比赛）。",
        "--port": "端口（0：任选一个空闲端口，地址里会写出）。",
        "--new-key": "为比赛的页面生成新的密钥：之前给出的地址全部失效（密钥保存在比赛记录"
                     "旁边的 LEDGER.key 里）。",
        "--qr": "同时把地址画成二维码。",
    },
    "variants": {
        "": """
            列出内置的几套规则；'variants show 名称' 完整列出其中一套。

            \b
            示例：
              gongzhu-score variants --lang zh
              gongzhu-score variants show dehong
            """,
    },
    "variants show": {
        "": """
            列出一套规则的每一条：分值、亮牌、变压器、全红、默认设置。

            JSON 和 YAML 按规则文件的格式输出：复制一份，改成本桌规则（--rules 文件）。

            \b
            示例：
              gongzhu-score variants show classic --lang zh
              gongzhu-score variants show classic --format yaml > our-table.yaml
            """,
        "NAME": "classic、online、dehong、jj 或 two-deck。",
    },
    "match": {
        "": """
            记一场比赛：比赛记录是 YAML 文件，每场一个；下面是各个命令。

            \b
            示例：
              gongzhu-score match new tonight.yaml --players 东,南,西,北
              gongzhu-score match add tonight.yaml
              gongzhu-score match show tonight.yaml --lang zh
            """,
    },
    "match new": {
        "": """
            新建比赛记录。已有的文件不会被覆盖。

            \b
            示例：
              gongzhu-score match new tonight.yaml --players 东,南,西,北
              gongzhu-score match new tomorrow.yaml --like tonight.yaml
            """,
        "--players": "按座位顺序（逆时针）的四个名字：东,南,西,北。",
        "--like": "沿用另一场比赛的玩家和规则（这里给出的选项优先）。",
        "--scale": "最后得分乘以这个倍数（默认 1）。",
        "--rounding": "零和计分的最后得分：nearest 四舍五入（默认），或 exact 保留三分之一。",
    },
    "match add": {
        "": """
            按比赛的规则计一局的分，记进比赛；列出这一局和新的合计。

            在终端上且没有给出牌局时，依次询问每位玩家的牌，每输入一行就检查一行（任何一位玩家
            都可以回答“其余”：其他人没收的全部分牌），然后显示这一局：添加、取消，或者选一行
            修改。比赛记录如果被手动改过，数字和牌对不上，就会
            被拒绝（见 match verify）。两副牌时，如果两位玩家各收了一只猪，要说明谁先收到第一
            只（--first-pig）：由他先出下一局。

            \b
            示例：
              gongzhu-score match add tonight.yaml sample_hands/seed_minus_400.yaml
              gongzhu-score match add tonight.yaml -c 东=猪 -c 南="红桃A K Q" -c 西= --rest 北
              gongzhu-score match add tonight.yaml            （在终端上：询问各家的牌）
              gongzhu-score match add two-decks.yaml -c 东=猪 -c 南="猪 羊" -c 西= --rest 北 \\
                  --first-pig 南
            """,
    },
    "match show": {
        "": """
            每一局的最后得分和累计，下一局谁先出，比赛是否结束；或者第 N 局的全部：牌、亮牌、
            原始分、最后得分和这一局之后的合计。

            \b
            示例：
              gongzhu-score match show tonight.yaml
              gongzhu-score match show tonight.yaml 3 --lang zh
              gongzhu-score match show tonight.yaml 3 --format json
            """,
        "N": "一局的全部：牌、亮牌和得分。",
    },
    "match explain": {
        "": """
            按比赛的规则逐步解释第 N 局（也可以用：explain 比赛记录 N）。

            \b
            示例：
              gongzhu-score match explain tonight.yaml 3 --lang zh
            """,
    },
    "match undo": {
        "": """
            删去最后一局，并列出重新录入它所需的一切。

            'match restore' 可以把它恢复。

            \b
            示例：
              gongzhu-score match undo tonight.yaml
            """,
    },
    "match remove": {
        "": """
            删去第 N 局（哪一局都可以），重算它之后的每个合计；在终端上会先询问。

            'match restore' 可以把它恢复。

            \b
            示例：
              gongzhu-score match remove tonight.yaml 2 --yes
            """,
    },
    "match edit": {
        "": """
            替换第 N 局（输入方式同 add），并重算它之后的每个合计。

            在终端上且没有给出牌局时，显示第 N 局原来的样子，每一行都用牌桌的写法：选一行，
            重新输入（直接按回车保留原样）并确认；其他行不再询问。'match restore' 可以把这一局
            恢复原样。这一局是整个替换的：两副牌时谁先收到第一只猪，
            凡是 add 需要的地方都要再用 --first-pig 说一遍。

            \b
            示例：
              gongzhu-score match edit tonight.yaml 2 fixed-hand.yaml
              gongzhu-score match edit tonight.yaml 2      （在终端上：改一两行）
              gongzhu-score match edit two-decks.yaml 2 -c 东=猪 -c 南=猪 -c 西=羊 --rest 北 \\
                  --first-pig 东
            """,
        "N": "要替换的一局（1 = 第一局）。",
    },
    "match rename": {
        "": """
            在整个比赛记录里给一位玩家改名（'match restore' 可以改回原来的名字）。

            \b
            示例：
              gongzhu-score match rename tonight.yaml 北 小北
            """,
        "OLD": "现在的名字。",
        "NEW": "新名字。",
    },
    "match set": {
        "": """
            比赛开始后修改比赛的设置：每一局都按新设置重新计分，每个合计都重算；并说明哪些数
            变了。'match restore' 可以恢复原来的设置。

            \b
            示例：
              gongzhu-score match set tonight.yaml --end-at -800
              gongzhu-score match set tonight.yaml --variant dehong --scale 12
            """,
        "--scale": "最后得分乘以这个倍数。",
        "--rounding": "零和计分的最后得分：nearest 四舍五入，或 exact 保留三分之一。",
    },
    "match history": {
        "": """
            这场比赛记录下来的每一项修改，从最早的开始；'match restore' 撤回最后一项。

            \b
            示例：
              gongzhu-score match history tonight.yaml --lang zh
            """,
    },
    "match restore": {
        "": """
            把比赛记录恢复到最后一项记录下来的修改（添加、删去或修改一局，改名，新的设置）之前
            的样子，一字不差。再运行一次就再往前退一步。

            \b
            示例：
              gongzhu-score match restore tonight.yaml
            """,
    },
    "match verify": {
        "": """
            按记录的输入重算每一局；列出每个对不上的记录数字。

            退出码：0 全部一致，1 有对不上的（比赛记录被手动改过或被篡改）。

            \b
            示例：
              gongzhu-score match verify tonight.yaml
            """,
    },
    "match export": {
        "": """
            每局一行，每位玩家一列：最后得分（或原始分），给电子表格用；最后两列是每局的录入
            时间和备注。

            \b
            示例：
              gongzhu-score match export tonight.yaml --totals --bom > tonight.csv
            """,
        "--values": "final（最后得分，默认）或 raw（原始分）。",
        "--totals": "最后加一行 'total'，是每位玩家的合计。",
        "--bom": "CSV 以字节顺序标记（BOM）开头，让 Excel 正确读出中文名字。",
    },
    "match chart": {
        "": """
            把比赛画成图来分享（SVG 或 PNG），带终局线。

            每位玩家逐局的累计分：决定终局的那个合计（原始分合计；组队时是累计得分），用本桌的语言。

            需要可选依赖 chart：pip install 'gongzhu-score[chart]'。

            \b
            示例：
              gongzhu-score match chart tonight.yaml -o tonight.svg
              gongzhu-score match chart 牌局.yaml -o 牌局.png --lang zh
            """,
        "--output": "要写的图：FILE.svg（文字仍是文字：任何查看器都能显示中文名字）"
                    "或 FILE.png（用本机上有这些名字的字的字体来画）。",
    },
    "match summary": {
        "": """
            用几行字说明比赛，贴到群聊里（最宽 40 列）。

            按决定终局的合计排名，每位玩家离终局线还差多少分，结束后谁当猪，已打几局。

            \b
            示例：
              gongzhu-score match summary tonight.yaml
              gongzhu-score match summary 牌局.yaml --lang zh
            """,
    },
    "match list": {
        "": """
            你的比赛：用本工具开始或修改过的每一场（在哪个文件夹都算），以及这个文件夹里的比赛
            记录，各有最后修改的时间、玩家、局数和状态（进行中，或已结束、谁当猪），最新的在前。
            当前比赛（不写比赛记录的 match 命令用它）标有 *。移走或删除了的比赛记录列为找不到。

            \b
            示例：
              gongzhu-score match list
              gongzhu-score match list --format json
            """,
    },
}
