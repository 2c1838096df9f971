"""The benchmark's library sections (tests/benchmark.py): hands per second on one core against
``orjson.loads`` of the same hands, and the time to decide a claim (声称)."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter

from bench_common import TESTS, Place, engine, engine_words

from gongzhu_score import DECK, SCORING_CARDS

# Run in a process of its own, started in the temporary folder: one core, the installed package.
LIBRARY = """
import json, sys, time
sys.path.insert(0, {tests!r})
import orjson
from bench_common import engine
from played import played_hands
from gongzhu_score import Scorer, score_hand
# one deck in individual play: what one Scorer scores (a hand's own variant and teams are not
# read by it)
data = [h for h in played_hands({n}) if "variant" not in h and "teams" not in h]
blobs = [orjson.dumps(d) for d in data]  # each hand's JSON, as a JSON Lines file holds it
args = [({{p["name"]: p.get("captured") for p in h["players"]}},
         {{p["name"]: p["exposed"] for p in h["players"] if "exposed" in p}},
         {{p["name"]: p["first_exposed"] for p in h["players"] if "first_exposed" in p}})
        for h in data[:{one}]]
def best(loop, count, runs=3):
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        loop()
        out.append(time.perf_counter() - start)
    return count / min(out)
def one():
    for captured, exposed, first in args:
        r = score_hand(captured, exposed=exposed, first_exposed=first)
        r.raws, r.finals
scorer = Scorer()
def bulk():  # the call alone
    scorer.score_many(data)
def players():  # and every result's players read, as a caller does
    for r in scorer.score_many(data):
        r.players
def parse():
    for b in blobs:
        orjson.loads(b)
print(json.dumps({{"engine": engine(), "hands": len(data), "one": best(one, len(args)),
                  "bulk": best(bulk, len(data), {runs}),
                  "players": best(players, len(data), {runs}),
                  "parse": best(parse, len(data))}}))
"""


def library_figures(place: Place, n: int, runs: int = 3) -> None:
    code = LIBRARY.format(tests=str(TESTS), n=n, one=min(n, 20_000), runs=runs)
    said = place.json(place.script("time_library.py", code))
    hands, one, bulk = said["hands"], said["one"], said["bulk"]
    players, parse = said["players"], said["parse"]
    print(f"The library, one core, {hands:,} realistic played hands of one deck in individual "
          "play (tests/played.py) as hand-file data, best of 3 (score_many: of "
          f"{runs}); targets: score_hand ≥ 20,000 played hands/s, score_many with every "
          "result's players read ≥ 0.5 × orjson.loads of the same hands:")  # fmt: skip
    print(f"  engine timed: {engine_words(said['engine'])}")
    print(f"  score_hand from card strings ({min(hands, 20_000):,} hands) {one:10,.0f} hands/s")
    print(f"  Scorer.score_many, the call               {bulk:10,.0f} hands/s = "
          f"{bulk / parse:.2f} × orjson.loads")  # fmt: skip
    print(f"  ... and every result's players read       {players:10,.0f} hands/s = "
          f"{players / parse:.2f} × orjson.loads (target ≥ 0.5 ×)")  # fmt: skip
    print(f"  orjson.loads of the same hands' lines     {parse:10,.0f} hands/s")


def claim_figures(claims: dict[int, int]) -> None:
    """Claims of random endgames, ``claims[left]`` of them at ``left`` tricks left (in this
    process: the caller says which engine it imported)."""
    from endgames import NAMES as SEATS
    from endgames import endgame, playout

    from gongzhu_score.core.cards import Card
    from gongzhu_score.play.claims import decide
    from gongzhu_score.play.state import Position

    def timed(pos: Position, by: str, takes: dict[str, list[Card]], decks: int
              ) -> tuple[float, bool | None]:  # fmt: skip
        start = time.perf_counter()
        answer = decide(pos, by, takes, decks=decks).guaranteed
        return time.perf_counter() - start, answer

    counts = ", ".join(f"{n} at {left}" for left, n in claims.items())
    print(f"Claims (声称), the time to decide one claim, in this process (random: claims from a "
          f"random playout of random endgames of random legal games, {counts} tricks left; "
          "guaranteed: 东 leads holding the top cards, takes: all; target: the slowest of the "
          "random claims at 7 tricks left ≤ 100 ms, one deck and two):")  # fmt: skip
    print(f"  engine timed (this process): {engine_words(engine())}")
    tops = [Card.parse(c) for c in ("AH", "AS", "AD", "KH", "KS", "KD", "QH")]
    for decks in (1, 2):
        for left, many in claims.items():
            rng = random.Random(100 * decks + left)
            times, answers = [], Counter[bool | None]()
            for _ in range(many):
                pos = endgame(rng, decks, left)
                by = rng.choice(SEATS)
                takes, _ = playout(rng, pos, by, decks)
                seconds, answer = timed(pos, by, takes, decks)
                times.append(seconds)
                answers[answer] += 1
            mine = tops[:left]
            rest = [c for c in DECK if c not in mine] * decks
            rng.shuffle(rest)
            hands = {"东": Counter(mine)}
            for k, name in enumerate(SEATS[1:]):
                hands[name] = Counter(rest[k * left : (k + 1) * left])
            left_cards = [c for h in hands.values() for c in h.elements() if c in SCORING_CARDS]
            pos = Position(SEATS, hands, "东", frozenset(), {})
            claim = {"东": left_cards, "南": [], "西": [], "北": []}
            hard, answer = timed(pos, "东", claim, decks)
            p99 = statistics.quantiles(times, n=100, method="inclusive")[98]
            target = " (target ≤ 100 ms)" if left == 7 else ""
            print(f"  {decks} deck(s), {left} tricks left, {many} random: median "
                  f"{statistics.median(times) * 1000:5.1f} ms, p99 {p99 * 1000:6.1f} ms, slowest "
                  f"{max(times) * 1000:6.1f} ms{target}; {answers[True]} guaranteed, "
                  f"{answers[False]} not, {answers[None]} undecided; the guaranteed claim "
                  f"{hard * 1000:5.1f} ms ({answer})")  # fmt: skip
