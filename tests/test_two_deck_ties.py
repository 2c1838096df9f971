"""Two decks, two plays of two singles whose higher cards tie (issue 21, rulings §11): they
compare by their higher card only, so the one played first wins, in `winner`, in replay and in
the claim search; and a two-deck counter-line in JSON keeps each play as it was made."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import every_line
import pytest
from clitools import run
from endgames import NAMES, order_from, playout
from every_line import brute

from gongzhu_score import Card, Suit, parse_cards
from gongzhu_score.core.cards import DECK
from gongzhu_score.io.records import parse_record
from gongzhu_score.play.claims import decide
from gongzhu_score.play.legal import winner
from gongzhu_score.play.replay import replay
from gongzhu_score.play.state import Position


def plays(*texts: str) -> list[tuple[Card, ...]]:
    return [parse_cards(t) for t in texts]


# --- winner ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("texts", "won"),
    [
        # the higher cards tie: the first played wins, whichever lower card is higher
        (("3S 3S", "KS 5S", "KS 8S", "AH AH"), 1),
        (("3S 3S", "KS 8S", "KS 5S", "AH AH"), 1),
        (("3S 3S", "QS 2S", "QS 9S", "2C 3C"), 1),
        (("3H 3H", "5H 4H", "9H 2H", "9H 8H"), 2),
        (("3C 3C", "2D 4D", "AC 2C", "AC KC"), 2),
        # the higher card decides, not the lower one
        (("3S 3S", "KS 5S", "AS 2S", "KS QS"), 2),
        # a discard never wins, whatever its cards
        (("3S 3S", "KS AH", "4S 2S", "AS AS"), 2),
        # pairs compare by rank; outside diamonds two singles beat any pair
        (("4S 4S", "KS KS", "JH KH", "2C 3C"), 1),
        (("4S 4S", "KS KS", "6S 5S", "7S 7S"), 2),
        # in diamonds a pair beats two singles (the lead is a pair: tied singles never decide)
        (("4D 4D", "KD 5D", "KD 8D", "2D 2D"), 0),
        (("4D 4D", "KD KD", "AD 8D", "QS QS"), 1),
    ],
)  # fmt: skip
def test_rulings_11_two_singles_compare_by_their_higher_card_only(
    texts: tuple[str, ...], won: int
) -> None:
    cards = plays(*texts)
    assert winner(cards, cards[0][0].suit) == won


# --- replay ------------------------------------------------------------------------------------

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def tie_record() -> dict:  # type: ignore[type-arg]
    """A whole legal two-deck hand: 东 holds 24 clubs and leads 23 of them, high first, winning
    each (北 drops 2♣ 2♣ on the first two, 南 and 西 hold no club); trick 24 is the tie: 东
    leads 3♠ 3♠, 南 (K♠ 5♠) and 西 (K♠ 8♠) hold no pair, 北 no spade (A♥ A♥); its winner leads
    trick 25, one diamond each but 东's last club."""
    clubs = [f"{r}C" for r in reversed(RANKS[1:]) for _ in range(2)]  # A♣ A♣ … 3♣ 3♣
    kept = {"东": ["3S", "3S"], "南": ["KS", "5S"], "西": ["KS", "8S"], "北": ["AH", "AH"]}
    last = {"南": "4D", "西": "5D", "北": "6D"}
    taken = Counter([*clubs, "2C", "2C", *last.values()] + [c for cs in kept.values() for c in cs])
    rest = [c.code for c in DECK for _ in range(2 - taken[c.code])]
    rest.sort(key=lambda code: Card.parse(code).sort_key)
    assert len(rest) == 67
    discards = {"南": rest[:23], "西": rest[23:46], "北": ["2C", "2C", *rest[46:]]}
    deal = {"东": clubs + kept["东"], **{n: [*d, *kept[n], last[n]] for n, d in discards.items()}}
    tricks = [
        {"lead": "东", "cards": [clubs[k], discards["南"][k], discards["西"][k], discards["北"][k]]}
        for k in range(23)
    ]
    tricks.append({"lead": "东", "cards": ["3S 3S", "KS 5S", "KS 8S", "AH AH"]})
    tricks.append({"lead": "南", "cards": ["4D", "5D", "6D", "3C"]})
    return {"variant": "two-deck", "players": list(NAMES), "deal": deal, "tricks": tricks}


def test_rulings_11_replay_gives_tied_singles_to_the_first_played(tmp_path: Path) -> None:
    data = tie_record()
    played = replay(parse_record(data))
    assert played.violations == ()
    assert played.tricks[23].winner == "南"  # K♠ 5♠ played before K♠ 8♠
    path = tmp_path / "tie.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    r = run("replay", str(path), "--format", "json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["tricks"][23] == {"number": 24, "lead": "东",
                                 "cards": ["3S 3S", "KS 5S", "KS 8S", "AH AH"], "winner": "南"}  # fmt: skip
    assert out["violations"] == []
    # 南 took both A♥; nobody else took one
    taken = {p["name"]: p["scoring_cards"] for p in out["players"]}
    assert taken["南"].count("AH") == 2
    assert all("AH" not in cards for name, cards in taken.items() if name != "南")
    # the next trick is led by the tie's winner: led by 西 instead, replay says so
    data["tricks"][24] = {"lead": "西", "cards": ["5D", "6D", "3C", "4D"]}
    found = [v.text() for v in replay(parse_record(data)).violations]
    assert found == ["trick 25: 西 led, but 南 won trick 24"]


# --- the claim search --------------------------------------------------------------------------


def position(hands: dict[str, str]) -> Position:
    """东 to lead, clubs already led (no first round left to mind but the others')."""
    return Position(NAMES, {n: Counter(parse_cards(h)) for n, h in hands.items()}, "东",
                    frozenset({Suit.CLUBS}), {})  # fmt: skip


TIE = {"东": "3S 3S", "南": "KS 5S", "西": "KS 8S", "北": "AH AH"}
"""The tie as a position: 东 to lead 3♠ 3♠, 南 K♠ 5♠, 西 K♠ 8♠, 北 A♥ A♥."""

A_HEARTS = parse_cards("AH AH")


def test_rulings_11_a_claim_guaranteed_only_because_the_first_tied_single_wins() -> None:
    """东 claims both A♥ for 南 and leads the pair: 南's K♠ 5♠, played before 西's K♠ 8♠, wins
    (comparing the lower cards next, 西 would)."""
    pos = position(TIE)
    line = parse_cards("3S 3S")
    result = decide(pos, "东", {"南": A_HEARTS}, line, decks=2)
    assert result.guaranteed is True
    assert brute(pos, "东", {"南": A_HEARTS}, 2, line) is True
    # and so the claim that 西 takes them is defeated, by that very trick
    defeated = decide(pos, "东", {"西": A_HEARTS}, line, decks=2)
    assert defeated.guaranteed is False
    (trick,) = defeated.counter_line
    assert trick.winner == "南"
    assert [p.cards for p in trick.plays] == plays("3S 3S", "5S KS", "8S KS", "AH AH")
    assert defeated.astray == ((Card.parse("AH"), "南", ("西",)),) * 2


def test_rulings_11_tied_singles_with_choices_to_make() -> None:
    """On 东's pair lead 西 chooses two of K♠ 8♠ 7♠ and 北 two of four hearts; whatever they
    choose, 南's K♠ 5♠ (played first) wins, then 南's A♦ A♦ win the rest: "南 takes every
    heart" is guaranteed (comparing the lower cards next, 西's K♠ 8♠ would defeat it). With
    A♠ instead of K♠, 西 defeats it."""
    hands = {"东": "3S 3S 2C 2C", "南": "KS 5S AD AD", "西": "KS 8S 7S 4D", "北": "AH AH QH QH"}
    line = parse_cards("3S 3S 2C 2C")
    takes = {"南": parse_cards("AH AH QH QH")}
    pos = position(hands)
    assert decide(pos, "东", takes, line, decks=2).guaranteed is True
    assert brute(pos, "东", takes, 2, line) is True
    with_ace = position({**hands, "西": "AS 8S 7S 4D"})
    assert decide(with_ace, "东", takes, line, decks=2).guaranteed is False
    assert brute(with_ace, "东", takes, 2, line) is False


def test_rulings_11_the_search_keeps_apart_singles_that_differ_in_the_lower_card() -> None:
    """Two plays of two singles with the same higher card now win the same tricks, but they
    keep different cards: the search must not take them for one. 北 leads 3♠ 3♠ and claims
    every scoring card for 南; 南 wins the pair with any two of 8♠ Q♠ K♠ (东 and 西 discard),
    and only Q♠ K♠, keeping 8♠ to lead under 北's 9♠, defeats the claim (K♠ 8♠ does not)."""
    hands = {"北": "3S 3S 9S", "东": "KS QH 4D", "南": "8S QS KS", "西": "2S KH JD"}
    pos = Position(NAMES, {n: Counter(parse_cards(h)) for n, h in hands.items()}, "北",
                   frozenset({Suit.CLUBS}), {})  # fmt: skip
    takes = {"南": parse_cards("QS QH KH JD")}
    line = parse_cards("3S 3S 9S")
    assert brute(pos, "北", takes, 2, line) is False
    result = decide(pos, "北", takes, line, decks=2)
    assert result.guaranteed is False
    assert [p.cards for p in result.counter_line[0].plays][2] == parse_cards("QS KS")
    assert result.counter_line[1].plays[0] == ("南", parse_cards("8S"))


def old_winner(cards: Sequence[Sequence[Card]], suit: Suit) -> int:
    """The rule before issue 21: two singles compared by their higher card, then the lower."""

    def strength(play: Sequence[Card]) -> tuple[int, ...]:
        if any(c.suit is not suit for c in play):
            return (-1,)
        ranks = sorted((c.rank for c in play), reverse=True)
        if len(play) == 1:
            return (0, *ranks)
        pair = ranks[0] == ranks[1]
        kind = (2 if pair else 1) if suit is Suit.DIAMONDS else (1 if pair else 2)
        return (kind, *ranks)

    best = 0
    for k in range(1, len(cards)):
        if strength(cards[k]) > strength(cards[best]):
            best = k
    return best


def tie_prone(rng: random.Random, size: int) -> Position:
    """A two-deck endgame of ``size`` cards each shaped for the tie: the leader holds 3♠ 3♠,
    the next two a K♠ each, and the rest is dealt at random from a few spades (the pig among
    them), hearts and others, both copies of each; clubs already led."""
    leader = rng.choice(NAMES)
    order = order_from(leader)
    others = list(parse_cards("5S 8S 9S QS 2S AH KH QH 2C 4D JD 10C")) * 2
    rng.shuffle(others)
    hands = {order[0]: Counter(parse_cards("3S 3S")), order[1]: Counter(parse_cards("KS")),
             order[2]: Counter(parse_cards("KS")), order[3]: Counter()}  # fmt: skip
    for name in order:
        while sum(hands[name].values()) < size:
            hands[name][others.pop()] += 1
    return Position(NAMES, hands, leader, frozenset({Suit.CLUBS}), {})


def test_rulings_11_the_search_decides_tied_singles_as_every_line_decides(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The claim search remembers positions, groups cards that play alike and keeps the
    winners it worked out: on endgames full of tied singles it still decides exactly as a plain
    search of every line (nothing grouped); and these endgames are ones where the tie rule
    matters (under the old rule some are decided the other way)."""
    rng = random.Random(21)
    differ = seen = 0
    games = 300
    for _ in range(games):
        size = rng.choice((2, 3, 4))
        pos = tie_prone(rng, size)
        by = rng.choice(NAMES)
        takes, line = playout(rng, pos, by, 2)
        if rng.random() < 0.3:
            cards = [c for cs in takes.values() for c in cs]
            takes = {n: [] for n in NAMES}
            for card in cards:
                takes[rng.choice(NAMES)].append(card)
        stated = line if rng.random() < 0.5 else None
        expected = brute(pos, by, takes, 2, stated)
        assert decide(pos, by, takes, stated, decks=2).guaranteed is expected, (pos, takes)
        seen += expected
        with monkeypatch.context() as m:
            m.setattr(every_line, "winner", old_winner)
            differ += brute(pos, by, takes, 2, stated) is not expected
    assert 0 < seen < games
    assert differ > 0


# --- the counter-line in JSON ------------------------------------------------------------------


def claim_record(claim: dict) -> dict:  # type: ignore[type-arg]
    """The tie's hand stopped after 23 tricks, with ``claim``."""
    data = tie_record()
    data["tricks"] = data["tricks"][:23]
    data["claim"] = claim
    return data


def counter_line(data: dict, tmp_path: Path) -> list:  # type: ignore[type-arg]
    path = tmp_path / "claim.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    r = run("replay", str(path), "--format", "json")
    assert r.exit_code == 3, r.stderr
    claim = json.loads(r.stdout)["claim"]
    assert claim["guaranteed"] is False
    return claim["counter_line"]  # type: ignore[no-any-return]


def test_contract_a_two_deck_counter_line_keeps_each_play_as_made(tmp_path: Path) -> None:
    """Two decks: each trick of the counter-line is a list of plays, each the list of its
    cards' codes; the pair 3♠ 3♠ and the two singles K♠ 5♠ read apart (flattened, as one deck
    has it, the trick would read 3S 3S 5S KS 8S KS AH AH)."""
    data = claim_record({"by": "东", "takes": {"西": ["AH", "AH"]}, "line": ["3S", "3S"]})
    assert counter_line(data, tmp_path) == [
        [["3S", "3S"], ["5S", "KS"], ["8S", "KS"], ["AH", "AH"]]
    ]


def test_contract_a_two_deck_counter_line_gives_a_single_card_as_a_list_of_one(
    tmp_path: Path,
) -> None:
    """No stated line: the search tries 东's single 3♠ first, and the others defeat the claim
    from there (西 wins one A♥ with 8♠, then leads away the lead to 北, who keeps the other)."""
    data = claim_record({"by": "东", "takes": {"西": ["AH", "AH"]}})
    assert counter_line(data, tmp_path) == [
        [["3S"], ["5S"], ["8S"], ["AH"]],
        [["5D"], ["6D"], ["3S"], ["4D"]],
        [["AH"], ["3C"], ["KS"], ["KS"]],
    ]
