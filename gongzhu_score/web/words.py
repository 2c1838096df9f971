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
    "app.short_name": "Gongzhu",
    "loading": "Loading…",
    "offline": "Connection lost: trying again…",
    "offline.kept": "The server cannot be reached: these are the last standings this phone saw, read-only.",

    "key.title": "This address has no way in",
    "key.missing": "The address lacks the server's key.\nOpen the address the laptop printed, or scan its QR code again.",
    "key.wrong": "The key in this address is not (or no longer) the server's.\nScan the QR code on the laptop again, or ask for the address it printed.",

    "tab.standings": "Standings",
    "tab.entry": "Enter a hand",
    "tab.hands": "Hands",
    "tab.rules": "Rules",
    "tab.matches": "Matches",
    "tab.players": "Players",

    "standings.raw": "Raw totals: they decide the end",
    "standings.final": "Final totals: they decide the end",
    "standings.finals": "final total",
    "standings.raws": "raw total",
    "standings.to_go": "{points} above the end line",
    "standings.to_go_team": "{points} from {line}",
    "standings.past_end": "past the end line",
    "standings.end_at": "end line {line}",
    "standings.end_at_team": "end lines {low} and {high}",
    "chart.title": "The evening, hand by hand",
    "chart.start": "start",

    "hands.none": "No hands yet.",
    "hands.number": "#",
    "hands.pig": "pig",
    "hands.auto": "托管: {name} was auto-played",
    "hands.auto_last": "托管: {name}, with only the last card left (scored as usual)",
    "hands.cell": "Each cell: the hand's raw score (the running total below).",
    "hands.cell_final": "Each cell: the hand's final score (the running total below).",
    "hand.title": "Hand {number}",
    "hand.captured": "took",
    "hand.exposed": "exposed",
    "hand.raw": "raw",
    "hand.final": "final",
    "hand.total": "total",
    "hand.entered": "Entered {time}",
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
    "entry.full_red": "Full red to {name}",
    "entry.full_red_none": "Full red to …",
    "entry.full_red_done": "Every heart is with {name} now.",
    "entry.grand_slam": "Grand slam to {name}",
    "entry.grand_slam_none": "Grand slam to …",
    "entry.grand_slam_done": "Every scoring card is with {name} now.",
    "entry.missing": "Still missing:",
    "entry.all_in": "Every scoring card is placed.",
    "entry.exposed": "Exposed (亮牌)",
    "entry.first_exposed": "first (首明)",
    "entry.nobody": "–",
    "entry.nobody_said": "nobody",
    "entry.first_pig": "Who took the first pig?",
    "entry.auto_played": "Auto-played after a disconnect (托管)?",
    "entry.auto_nobody": "Nobody",
    "entry.last_card": "Only the last card was left then",
    "entry.note": "Note (optional)",
    "face.exposed": "exposed",
    "face.first": "首明",
    "hand.auto_played": "托管",
    "ask.exposed": "Exposed (亮牌):",
    "ask.exposed_by": "{card} by {name}",
    "ask.first_by": "{card} by {name} (首明)",
    "ask.no_exposure": "Nothing exposed (no 亮牌).",
    "ask.auto": "Auto-played after a disconnect (托管): {name}.",
    "ask.auto_last": "Auto-played (托管): {name}, with only the last card left.",
    "ask.no_auto": "Nobody auto-played (no 托管).",
    "ask.first_pig": "The first pig: {name}.",
    "list": ", ",
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
    "suit.H": "hearts",

    "ask.add": "Add this as hand {number}?",
    "ask.edit": "Replace hand {number} with this?",
    "ask.remove": "Remove hand {number}? The totals after it are worked out again.",
    "ask.undo": "Take out the last hand, hand {number}?",
    "ask.before": "before",
    "ask.again": "Start another match with the same players and rules?",
    "ask.rename": "Rename {old} to {new}?",
    "ask.discard": "Put the hand being entered aside to edit hand {number}? Its taps are lost.",
    "ask.yes": "Yes",
    "ask.no": "Cancel",

    "conflict": "Another phone or the command line got there first: this is what it did.",
    "conflict.same": "This very hand was just added from another phone, as hand {number}: there is nothing to add again.",
    "conflict.kept": "Your entry is kept: confirm it again, or discard it.",
    "conflict.discard": "Discard my entry",
    "notice.close": "OK",

    "done.add": "Hand {number} added.",
    "done.edit": "Hand {number} replaced.",
    "done.remove": "Hand {number} removed.",
    "done.undo": "Hand {number} taken out.",
    "done.rename": "{old} is called {new} now.",
    "done.start": "Match {name} started.",
    "done.joined": "The next match at this table was already started: {name}.",

    "matches.title": "Matches",
    "tournament.table": "Round {round}, table {table}",
    "matches.none": "No match here yet: start one below.",
    "matches.left_out": "The {count} oldest matches of the folder are not listed here: the list keeps the newest {most}.",
    "matches.current": "current",
    "matches.hands": "hands: {count}",
    "matches.ended": "over, {pig} is the pig",
    "matches.drawn": "over, a draw",
    "matches.next": "To the next match at this table: {name}",
    "matches.again": "Another match (再来一盘)",
    "matches.new": "A new match",
    "matches.player": "Player {seat} {where}",
    "matches.rules": "Rules",
    "matches.teams": "Teams",
    "matches.end_at": "Ends at minus: points (e.g. 1000; empty: the rules')",
    "matches.end_at_team": "Ends at plus or minus: points (e.g. 1000; empty: the rules')",
    "matches.end_bad": "The end line is a number of points, like 1000, not {value}.",
    "matches.hands_label": "A 盤 of a number of hands (empty: play to the end line)",
    "matches.hands_bad": "The number of hands is a whole number, like 8, not {value}.",
    "matches.auto_play": "Auto-play after a disconnect (托管)",
    "matches.title_label": "Table (桌名), e.g. Table 1: what the phones call this match",
    "matches.recent": "Played here lately: tap a name to seat it.",
    "auto.tournament": "tournament (錦標賽): scored as usual",
    "auto.island": "island (島嶼): a losing side's loss falls on the auto-played player",
    "seat.0": "North",
    "seat.1": "West",
    "seat.2": "South",
    "seat.3": "East",
    "seating.partners": "Partners: {a} and {c} (North and South) against {b} and {d} (West and East).",
    "seating.none": "Everyone for themselves; play goes round counter-clockwise: North, West, South, East.",
    "settings.title": "This phone",
    "settings.lang": "Language",
    "settings.theme": "Light or dark",
    "theme.auto": "as the phone is set",
    "theme.light": "light",
    "theme.dark": "dark",
    "matches.start": "Start the match",
    "teams.none": "everyone for themselves",
    "teams.partners": "partners (打对家)",
    "teams.pig-sheep": "pig and sheep (猪羊一家)",

    "season.title": "The season, by rating",
    "season.note": "Each finished match moves a rating: more for finishing ahead of strong players than of weak ones, less once many matches are known (openskill's ordinal). Unlike a count of wins, it weighs whom each player met.",
    "season.none": "No match has ended here yet: the ratings come with the first.",
    "season.col.rank": "#",
    "season.col.player": "Player",
    "season.col.rating": "Rating",
    "season.col.matches": "Matches",
    "season.col.won": "Won",
    "season.col.lost": "Pig (当猪)",
    "season.col.average": "Final a hand",
    "player.rating": "Rating {ordinal} (μ {mu}, σ {sigma})",
    "player.unrated": "No finished match yet: no rating.",
    "player.chart": "Rating after each match",
    "player.history": "Match by match",
    "player.col.when": "Ended",
    "player.col.players": "Table",
    "player.col.rank": "Place",
    "player.col.final": "Final",
    "player.col.rating": "Rating after",
    "player.h2h": "Head to head",
    "player.back": "Back to the season",
    "h2h.col.name": "Against",
    "h2h.col.together": "Together",
    "h2h.col.ahead": "Ahead",
    "h2h.col.behind": "Behind",

    "rename.title": "Rename a player",
    "rename.who": "Player",
    "rename.to": "New name",
    "rename.go": "Rename",

    "share.text": "Share the standings",
    "share.chart": "Share the chart",
    "share.downloaded": "Saved as {name}.",
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
