"""The command line's words, in English (the catalogs translate them): its own refusals of flags
(``error.cli.…``), the hints that name the flag that fixes an error (``hint.…``), the prompts
of interactive entry (``prompt.…``). They join :data:`gongzhu_score.terms.TERMS` when the
command line is imported (``cli/__init__.py``).
"""

from ..terms import add_terms

# One term a line, in English (each catalog in gongzhu_score/locale/ translates it).
# fmt: off
add_terms({
    "error.prefix": "error: ",
    "error.output": "cannot write the output: ",
    "error.stream.stdin_closed": "standard input is closed: there is nothing to read (name a file instead of -)",
    "error.stream.stdout_closed": "standard output is closed",
    "error.stream.stdin_encoding": "standard input is not {encoding} text ({why})",
    "warning.stream.replaced": "warning: standard output is {encoding}, which cannot show every character printed: those were written as ?",
    "error.cli.unshown": "{ledger}: the change was made ({change}; 'match history' lists it, 'match restore' reverts it), but printing its output failed: {why}",
    "error.cli.unshown.restored": "{ledger}: {change}, but printing its output failed: {why}; do not run restore again: it would revert one more change ('match show' shows the match)",
    "error.cli.unshown.new": "{ledger}: the match was started, but printing its output failed: {why}; 'match show' shows it",
    "error.cli.claim": "--claim {value}: expected NAME=SCORE, e.g. --claim 南=-200",
    "error.cli.captured_twice": "--captured {name}= given twice; put all of {name}'s cards in one",
    "error.cli.flag_player": "{flag} {name}=: no player named {quoted} in --captured",
    "error.cli.file_or_flags": "give the hand either as a file or with --captured/--exposed flags, not both",
    "error.cli.no_hand": "no hand given: name a hand file (or - for stdin), or give --captured NAME=CARDS for each player; see 'gongzhu-score {command} --help'",
    "error.cli.name_cards": "{flag} {value}: expected NAME=CARDS, e.g. {flag} 东=\"QS 6H\" (an empty {flag} 北= means no cards)",
    "error.cli.players_or_like": "name the players (--players 东,南,西,北) or a match to copy (--like)",
    "error.cli.not_tty": "remove hand {number}: not asked at a terminal; add --yes",
    "error.cli.nothing_to_set": "nothing to set: give --end-at, --variant, --rules, --normalize, --scale, --rounding or --teams",
    "error.cli.explain_n": "N names a hand of a match ledger: explain LEDGER N",
    "error.cli.compare_two": "compare needs two or more rule sets: --variant NAME or --rules FILE",
    "error.cli.format": "{value}: this command prints {formats}",

    "error.with_hint": "{message}; {hint}",
    "hint.missing": "add them to a player, give one player the rest (--rest NAME), or score a partial tally (--partial)",
    "hint.ledger_not_hand": "name one of its hands: 'gongzhu-score explain LEDGER N', 'gongzhu-score match show LEDGER N'",
    "hint.see_help": " (see '{command} --help')",
    "hint.first_pig": "give --first-pig {first} (or --first-pig {second})",
    "hint.current": "match: {ledger}",
    "hint.current_variable": "match: {ledger} (GONGZHU_MATCH)",
    "error.cli.ambiguous": "{token}: a hand number, or the ledger file of that name here? Write ./{token} for the file, or name the ledger first: gongzhu-score match {command} LEDGER {token}",

    "aborted": "aborted",

    "prompt.rest_word": "rest",
    "prompt.captured": "{name} captured",
    "prompt.unassigned": "  scoring cards not placed yet: {cards}",
    "prompt.all_placed": "  every scoring card is placed",
    "prompt.rest": " (-: nothing; rest: every scoring card left)",
    "prompt.blank": " (-: nothing)",
    "prompt.exposed": "exposed (亮牌): NAME=CARDS, several joined by ';' (-: none)",
    "prompt.first": "首明 (the first card drawn, exposed): NAME=CARD (-: none)",
    "prompt.taken": "{card} is {holder}'s already; enter {name}'s cards again",
    "prompt.error": "error: {error}; try again",
    "prompt.no_player": "no player named {name} ({players})",
    "prompt.confirm": "y: add it, n: cancel, or the number of a line to change",
    "prompt.confirm_edit": "y: replace hand {number} with it, n: cancel, or the number of a line to change",
    "prompt.line": "{number}. {what}: {value}",
    "prompt.bad_choice": "answer y, n or a line number from 1 to {lines}",
    "prompt.missing": "scoring cards nobody took: {cards}; change a line to place them",
    "prompt.refused": "this hand cannot be added: {error}; change a line",
    "prompt.cancelled": "nothing was changed",
    "prompt.nothing": "nothing",
    "prompt.first_pig": "who took the first pig? ({takers})",
    "prompt.first_pig_line": "first pig",
    "prompt.unassigned_rest": "  scoring cards not placed yet (what is left goes to {name}): {cards}",
    "prompt.rest_taken": "{name} takes the rest already, and only one player can; enter this player's cards, or change {name}'s line first",
    "prompt.rest_came_to": "{word} ({cards})",
    "prompt.typed_twice": "{card} is typed {count} times on {name}'s line, but a deck has one; enter {name}'s cards again",
    "prompt.typed_twice.two": "{card} is typed {count} times on {name}'s line, but two decks have two; enter {name}'s cards again",
    "serve.running": "serving {ledger} to the table: open the address above on each phone (anyone with it can change the match); Ctrl-C stops",
    "hint.stdin_terminal": "reading a hand from standard input: type or paste it, then press Ctrl-D at the start of a line (Ctrl-Z then Enter on Windows)",
})
# fmt: on
