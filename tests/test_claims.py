"""Claims of the remaining tricks (声称, issue 14, rulings §11): the search decides exactly what
a plain search of every line of play decides, on random endgames of random legal games (one
deck and two), both outcomes, with and without a stated line; the counter-line it prints is
legal and defeats the claim; records with a claim replay, score as claimed and exit as the
contract says; every bad claim is refused with exit 2."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest
from clitools import SAMPLES, done, refused, run
from endgames import NAMES, endgame, order_from, playout
from every_line import brute

from gongzhu_score.core.cards import DECK, SCORING_CARDS, Card
from gongzhu_score.io.records import parse_record
from gongzhu_score.io.yamlfile import load_yaml
from gongzhu_score.play.claims import POSITION_BUDGET, decide
from gongzhu_score.play.legal import exposed_problem, follow_problem, legal_plays, winner
from gongzhu_score.play.replay import replay
from gongzhu_score.play.state import Position


def claims(rng: random.Random, pos: Position, decks: int):  # type: ignore[no-untyped-def]
    """A claim as players make them: where one playout sent the scoring cards (often right),
    sometimes with the claimer's plays of it as the stated line, sometimes shuffled (often
    wrong)."""
    by = rng.choice(NAMES)
    takes, line = playout(rng, pos, by, decks)
    if rng.random() < 0.25:
        cards = [c for cards in takes.values() for c in cards]
        takes = {n: [] for n in NAMES}
        for card in cards:
            takes[rng.choice(NAMES)].append(card)
    stated = line if rng.random() < 0.4 else None
    return by, takes, stated


def winner_of(plays: Sequence[tuple[str, Sequence[Card]]]) -> str:
    return plays[winner([p for _, p in plays], plays[0][1][0].suit)][0]


def check_counter_line(pos: Position, by: str, takes: Mapping[str, Sequence[Card]],
                       line: Sequence[Card] | None, decks: int) -> None:  # fmt: skip
    """The counter-line is made of legal plays (the claimer's by the stated line) and the
    claim fails on its last trick."""
    result = decide(pos, by, takes, line, decks=decks)
    assert result.guaranteed is False and result.counter_line
    hands = {n: Counter(h) for n, h in pos.hands.items()}
    leader, done_suits = pos.leader, pos.suits_led
    owed: Counter[tuple[Card, str]] = Counter()
    for name, cards in takes.items():
        owed.update((c, name) for c in cards)
    stated = list(line) if line is not None else None
    failed = False
    for trick in result.counter_line:
        plays = trick.plays
        assert [name for name, _ in plays] == order_from(leader)[: len(plays)]
        if len(plays) < 4:  # stops where the stated line breaks a rule
            assert trick.winner is None
            name = order_from(leader)[len(plays)]
            assert name == by and stated, trick
            options = legal_plays(hands[name], plays[0][1] if plays else None, done_suits,
                                  pos.exposed.get(name, Counter()), decks)  # fmt: skip
            assert all(Counter(p) != Counter(stated[: len(p)]) for p in options)
            return
        for k, (name, play) in enumerate(plays):
            lead = plays[0][1] if k else None
            options = legal_plays(hands[name], lead, done_suits, pos.exposed.get(name, Counter()),
                                  decks)  # fmt: skip
            assert play in options, (name, play, options)
            if name == by and stated:
                assert Counter(play) == Counter(stated[: len(play)])
                stated = stated[len(play) :]
            hands[name] -= Counter(play)
        taker = trick.winner
        assert taker is not None  # (a line that can be followed: tricks are whole)
        assert taker == winner_of(plays)  # the state of play says who wins, as the rules do
        for card in (c for _, p in plays for c in p if c in SCORING_CARDS):
            if owed[card, taker] < 1:
                failed = True
            owed[card, taker] -= 1
        leader, done_suits = taker, done_suits | {plays[0][1][0].suit}
    assert failed, "the counter-line does not defeat the claim"
    assert result.astray and all(taker != claimed for _, taker, c in result.astray
                                 for claimed in c)  # fmt: skip


@pytest.mark.parametrize(("decks", "cards_left", "games"), [(1, 3, 150), (1, 4, 120),
                                                             (2, 2, 120), (2, 4, 60)])  # fmt: skip
def test_rulings_11_claims_decided_as_a_search_of_every_line_decides(
    decks: int, cards_left: int, games: int
) -> None:
    rng = random.Random(1000 * decks + cards_left)
    seen: Counter[tuple[bool, bool]] = Counter()
    for _ in range(games):
        pos = endgame(rng, decks, cards_left)
        by, takes, line = claims(rng, pos, decks)
        expected = brute(pos, by, takes, decks, line)
        result = decide(pos, by, takes, line, decks=decks)
        assert result.guaranteed is expected, (pos, by, takes, line)
        seen[expected, line is not None] += 1
        if not expected and rng.random() < 0.3:
            check_counter_line(pos, by, takes, line, decks)
    # both outcomes, with and without a stated line
    assert all(seen[outcome, stated] for outcome in (True, False) for stated in (True, False)), seen


def test_rulings_11_a_claim_past_the_budget_is_undecided_never_guessed() -> None:
    rng = random.Random(5)
    pos = endgame(rng, 1, 7)
    by, takes, _ = claims(rng, pos, 1)
    assert decide(pos, by, takes, budget=1).guaranteed is None
    assert decide(pos, by, takes).guaranteed in (True, False)


def top_cards_position(decks: int) -> tuple[Position, dict[str, list[Card]]]:
    """东 leads, holding the highest cards of three suits, seven tricks left: "the rest are
    mine" is guaranteed (the others' every reply must be tried)."""
    tops = [Card.parse(c) for c in ("AH", "KH", "QH", "AS", "KS", "AD", "KD")]
    rest = [c for c in DECK if c not in tops] * decks
    random.Random(3).shuffle(rest)
    hands = {"东": Counter(tops)}
    for k, name in enumerate(NAMES[1:]):
        hands[name] = Counter(rest[k * 7 : (k + 1) * 7])
    left = [c for h in hands.values() for c in h.elements() if c in SCORING_CARDS]
    pos = Position(NAMES, hands, "东", frozenset(), {})
    return pos, {"东": left, "南": [], "西": [], "北": []}


@pytest.mark.parametrize("decks", [1, 2])
def test_rulings_11_holding_the_top_cards_the_rest_are_guaranteed(decks: int) -> None:
    pos, takes = top_cards_position(decks)
    assert decide(pos, "东", takes, decks=decks).guaranteed is True


# --- records with a claim ------------------------------------------------------------------------


def record(name: str) -> dict:  # type: ignore[type-arg]
    data = load_yaml((SAMPLES / name).read_text(encoding="utf-8"), name, keep_text=True)
    assert isinstance(data, dict)
    return copy.deepcopy(data)


def test_contract_a_guaranteed_claim_exits_0_and_scores_as_claimed() -> None:
    out, _ = done("replay", str(SAMPLES / "claim_guaranteed.yaml"), "--format", "json")
    data = json.loads(out)
    assert data["claim"]["by"] == "东"
    assert data["claim"]["guaranteed"] is True
    assert "counter_line" not in data["claim"]
    # every scoring card left (Q♠ J♦ 10♥ 2♥ A♥) to 东 on top of the ten tricks' captures
    raw = {p["name"]: p["raw"] for p in data["players"]}
    assert raw == {"东": -220, "南": -120, "西": -120, "北": 0}
    assert len(data["tricks"]) == 10


def test_contract_a_claim_not_guaranteed_exits_3_with_a_counter_line() -> None:
    r = run("replay", str(SAMPLES / "claim_defeated.yaml"), "--format", "json")
    assert r.exit_code == 3
    data = json.loads(r.stdout)
    claim = data["claim"]
    assert claim["guaranteed"] is False
    assert claim["counter_line"] == [["AH", "JS", "10H", "2H"], ["QD", "2D", "QS", "5D"],
                                     ["JD", "9D", "KS", "AD"]]  # fmt: skip
    # the hand is still scored as claimed
    assert {p["name"]: p["raw"] for p in data["players"]}["东"] == -220


def test_the_counter_line_reads_as_a_table_would_say_it() -> None:
    r = run("replay", str(SAMPLES / "claim_defeated.yaml"))
    assert r.exit_code == 3
    assert "    trick 13: 东 J♦  南 9♦  西 K♠  北 A♦ → 北 takes J♦\n" in r.stdout
    assert "  so J♦ goes to 北, not to 东 as claimed.\n" in r.stdout
    zh = run("replay", str(SAMPLES / "claim_defeated.yaml"), "--lang", "zh").stdout
    assert "    第 13 圈：东 方块J  南 方块9  西 黑桃K  北 方块A → 北 收 羊\n" in zh
    assert "  于是 羊 归 北，而不是声称的 东。\n" in zh


def test_a_claim_before_any_trick_names_the_leader(tmp_path) -> None:  # type: ignore[no-untyped-def]
    data = record("claim_guaranteed.yaml")
    data["deal"] = {"东": ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H",
                          "2H"],
                    "南": [f"{r}S" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5",
                                            "4", "3", "2")],
                    "西": [f"{r}D" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5",
                                            "4", "3", "2")],
                    "北": [f"{r}C" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5",
                                            "4", "3", "2")]}  # fmt: skip
    data["tricks"] = []
    data["exposed"] = {}
    data.pop("first_hand")  # (not a match's first hand: no opening card to lead)
    data["claim"] = {"by": "东", "takes": "all", "lead": "东"}
    played = replay(parse_record(data))
    assert not played.violations
    result = played.decide_claim()
    assert result is not None and result.guaranteed is True  # 东 leads thirteen hearts
    data["claim"]["lead"] = "南"  # 南 leads a spade and wins the heart 东 must throw on it
    played = replay(parse_record(data))
    decision = played.decide_claim()
    assert decision is not None and decision.guaranteed is False


def test_rulings_10_a_claim_before_the_first_trick_of_a_match_leads_the_opening_card() -> None:
    data = record("claim_defeated.yaml")
    data["tricks"] = []
    data["claim"] = {"by": "东", "takes": "all", "lead": "南"}
    found = [v.text() for v in replay(parse_record(data)).violations]
    assert found == ["trick 1: 南 led, but 东 held 2♣ (in the first hand the holder of 2♣ "
                     "leads it)"]  # fmt: skip
    data["claim"]["lead"] = "东"
    played = replay(parse_record(data))
    assert not played.violations
    assert played.position is not None and played.position.opening == Card.parse("2C")
    hands = played.position.hands
    assert legal_plays(hands["东"], None, frozenset(), Counter(), 1) != [(Card.parse("2C"),)]
    # 东 must open with 2♣: a claim to lose every trick but 13 stands or falls with it
    decision = played.decide_claim()
    assert decision is not None and decision.guaranteed is False
    assert decision.counter_line[0].plays[0] == ("东", (Card.parse("2C"),))


def test_a_claim_after_broken_tricks_is_not_judged_exit_1(tmp_path) -> None:  # type: ignore[no-untyped-def]
    data = record("claim_defeated.yaml")
    data["tricks"][1]["cards"][2] = "3D"  # 东 trumps a spade lead while holding 10♠ (a revoke)
    data["tricks"][2]["cards"][1] = "10S"
    path = tmp_path / "r.yaml"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    r = run("replay", str(path), "--format", "json")
    assert r.exit_code == 1
    claim = json.loads(r.stdout)["claim"]
    assert claim["guaranteed"] is None
    assert claim["note"] == "Not judged: the tricks before the claim break the rules."


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("deal"),
         "claim: a claim needs the deal (deal: each player's 13 cards), so that every hand is known"),
        (lambda d: d["claim"]["takes"].update({"南": ["4H"]}),
         "claim: takes: 南: 4♥ was already played in the tricks before the claim"),
        (lambda d: d["claim"]["takes"].update({"南": ["QS"]}),
         "claim: takes: 南: Q♠ is named more times than it is left to play"),
        (lambda d: d["claim"]["takes"].update({"东": ["AH", "10H", "2H", "JD"]}),
         "claim: takes: every scoring card still to play goes to someone; not named: Q♠"),
        (lambda d: d["claim"].update({"line": ["AH", "KS"]}),
         "claim: line: 东 does not hold K♠ (left to play: A♥ J♦ Q♦)"),
        (lambda d: d["claim"].update({"by": "中"}),
         "claim: by: no player named '中' (players: 东, 南, 西, 北)"),
        (lambda d: d["claim"].update({"lead": "南"}),
         "claim: lead: the next lead is the last trick's winner; give lead only when no trick was played"),
        (lambda d: d["claim"].update({"takes": {"东": ["QS", "AH", "10H", "2H", "JD", "3C"]}}),
         "claim: takes: 东: 3♣ is not a scoring card; takes names only 红桃, 猪, 羊 and 变压器"),
        (lambda d: d["claim"].update({"takes": "some"}),
         "claim: takes: takes: a mapping of player to the scoring cards they take, or all"),
        (lambda d: d["claim"].update({"who": "东"}),
         "claim: unknown key 'who' in a record (allowed: by, takes, line, lead)"),
        (lambda d: d.update({"claim": ["东"]}),
         "claim: a claim is {by: NAME, takes: {NAME: [cards], …} or all, line: [cards]}"),
    ],
)  # fmt: skip
def test_every_bad_claim_is_refused_exit_2(tmp_path, change, message) -> None:  # type: ignore[no-untyped-def]
    data = record("claim_defeated.yaml")
    change(data)
    path = tmp_path / "claim.yaml"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert refused("replay", str(path)) == f"{path}: {message}"


def test_a_deal_that_is_not_a_whole_deck_is_a_violation_with_a_claim() -> None:
    data = record("claim_defeated.yaml")
    data["deal"]["北"] = [c if c != "AD" else "AH" for c in data["deal"]["北"]]
    found = [v.text() for v in replay(parse_record(data)).violations]
    assert "deal: A♥ is dealt 2 time(s); 1 deck(s) hold it 1 time(s)" in found
    assert "deal: A♦ is dealt 0 time(s); 1 deck(s) hold it 1 time(s)" in found


def test_score_and_batch_take_a_claimed_record_as_claimed() -> None:
    out, _ = done("score", str(SAMPLES / "claim_defeated.yaml"), "--format", "json")
    assert {p["name"]: p["raw"] for p in json.loads(out)["players"]}["东"] == -220


def test_two_decks_a_pair_to_follow_may_hold_an_exposed_copy_on_the_first_round() -> None:
    """Two decks (our ruling): the exposed-card rule gives way only to the rules of following,
    as the seeds' "只有一张牌时…必须出" does: a pair led, the player's only pair of the suit
    holds an exposed copy, so that pair is played; with another pair, it is held back."""
    cards = Card.parse
    hand = Counter([cards("5H"), cards("6H"), cards("AH"), cards("AH")])
    exposed = Counter([cards("AH")])
    led = (cards("9H"), cards("9H"))
    assert legal_plays(hand, led, frozenset(), exposed, 2) == [(cards("AH"), cards("AH"))]
    assert exposed_problem((cards("AH"), cards("AH")), led, cards("9H").suit, hand, exposed) is None
    assert follow_problem((cards("5H"), cards("6H")), led, cards("9H").suit, hand) == "pair"
    hand[cards("6H")] += 1  # a second pair: A♥ A♥ waits
    assert legal_plays(hand, led, frozenset(), exposed, 2) == [(cards("6H"), cards("6H"))]
    problem = exposed_problem((cards("AH"), cards("AH")), led, cards("9H").suit, hand, exposed)
    assert problem == cards("5H")
    # a single led: the unexposed copy of A♥ may go, the exposed one waits
    single = (cards("9H"),)
    assert (cards("AH"),) in legal_plays(hand, single, frozenset(), exposed, 2)
    assert exposed_problem((cards("AH"),), single, cards("9H").suit, hand, exposed) is None


def test_the_claim_limit_says_undecided_plainly_exit_3(tmp_path) -> None:  # type: ignore[no-untyped-def]
    r = run("replay", str(SAMPLES / "claim_guaranteed.yaml"), "--claim-limit", "1", "-f", "json")
    assert r.exit_code == 3
    claim = json.loads(r.stdout)["claim"]
    assert claim["guaranteed"] is None
    assert claim["note"] == ("Undecided: the search stopped after 2 positions, its limit (no "
                             "guess is made).")  # fmt: skip
    text = run("replay", str(SAMPLES / "claim_guaranteed.yaml"), "--claim-limit", "1").stdout
    assert "  Undecided: the search stopped after 2 positions" in text
    assert f"default {POSITION_BUDGET:,}" in " ".join(run("replay", "--help").stdout.split())


def two_deck_record(seed: int, tricks: int) -> dict:  # type: ignore[type-arg]
    """A random legal two-deck hand, stopped after ``tricks`` tricks with a claim by the next
    leader of where one random playout sends the rest."""
    rng = random.Random(seed)
    pool = list(DECK) * 2
    rng.shuffle(pool)
    deal = {n: pool[k * 26 : (k + 1) * 26] for k, n in enumerate(NAMES)}
    hands = {n: Counter(cards) for n, cards in deal.items()}
    leader, done_suits, played = "东", frozenset(), []
    for _ in range(tricks):
        order = order_from(leader)
        plays: list[tuple[Card, ...]] = []
        for name in order:
            play = rng.choice(legal_plays(hands[name], plays[0] if plays else None, done_suits,
                                          Counter(), 2))  # fmt: skip
            plays.append(play)
            hands[name] -= Counter(play)
        played.append({"lead": leader, "cards": [" ".join(c.code for c in p) for p in plays]})
        suit = plays[0][0].suit
        leader, done_suits = order[winner(plays, suit)], done_suits | {suit}
    pos = Position(NAMES, hands, leader, done_suits, {})
    takes, _ = playout(rng, pos, leader, 2)
    return {
        "variant": "two-deck",
        "players": list(NAMES),
        "deal": {n: [c.code for c in cards] for n, cards in deal.items()},
        "tricks": played,
        "claim": {"by": leader, "takes": {n: [c.code for c in cs] for n, cs in takes.items()}},
    }


@pytest.mark.parametrize("seed", range(8))
def test_two_deck_records_with_a_claim_are_judged_from_the_record(seed: int, tmp_path) -> None:  # type: ignore[no-untyped-def]
    data = two_deck_record(seed, 13 + seed % 4)
    played = replay(parse_record(data))
    assert played.violations == ()
    assert played.position is not None
    claim = played.record.claim
    assert claim is not None
    expected = decide(played.position, claim.by, claim.takes, decks=2)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    r = run("replay", str(path), "--format", "json")
    assert r.exit_code == (0 if expected.guaranteed else 3)
    out = json.loads(r.stdout)
    assert out["claim"]["guaranteed"] is expected.guaranteed
    # scored as claimed: every scoring card once per deck, the claimed ones where claimed
    scoring = Counter(c for p in out["players"] for c in p["scoring_cards"])
    assert all(n == 2 for n in scoring.values()) and len(scoring) == 16


def test_two_decks_a_claim_may_name_a_card_twice_but_not_three_times(tmp_path) -> None:  # type: ignore[no-untyped-def]
    data = two_deck_record(1, 14)
    left = Counter(c for cs in data["claim"]["takes"].values() for c in cs)
    twice = next((c for c, n in left.items() if n == 2), None)
    assert twice is not None
    by = data["claim"]["by"]
    data["claim"]["takes"] = {n: [c for c in cs if c != twice] for n, cs in
                              data["claim"]["takes"].items()}  # fmt: skip
    data["claim"]["takes"][by] += [twice, twice]
    assert parse_record(data).claim is not None  # both copies to one player: fine
    data["claim"]["takes"][by] += [twice]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    card = Card.parse(twice)
    assert refused("replay", str(path)) == (
        f"{path}: claim: takes: {by}: {card.symbol} is named more times than it is left to play"
    )
