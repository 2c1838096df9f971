"""The benchmark's library sections (tests/benchmark.py): hands per second on one core against
``orjson.loads`` of the same hands, and the time to decide a claim (声称)."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter

from bench_common import INSTALLED_ENV, TESTS, Place, engine, engine_words

from gongzhu_score import DECK, SCORING_CARDS

# Run in a process of its own, started in the temporary folder: one core, the installed package.
LIBRARY = """
import json, random, sys, time
sys.path.insert(0, {tests!r})
import orjson
from bench_common import as_data, engine, random_hand
from gongzhu_score import Scorer, score_hand
rng = random.Random(2026)
hands = [random_hand(rng) for _ in range({n})]
data = [as_data(h) for h in hands]
blobs = [orjson.dumps(d) for d in data]  # each hand's JSON, as a JSON Lines file holds it
def best(loop):
    out = []
    for _ in range(3):
        start = time.perf_counter()
        loop()
        out.append(time.perf_counter() - start)
    return {n} / min(out)
def one():
    for h in hands:
        r = score_hand(h["captured"], exposed=h["exposed"])
        r.raws, r.finals
scorer = Scorer()
def bulk():  # the many-hands door: the numbers as arrays, no result object made
    scorer.score_many(data)
def bulk_each():  # and every hand's HandResult made too, as a caller iterating them would
    for r in scorer.score_many(data):
        r.raws, r.finals
def parse():
    for b in blobs:
        orjson.loads(b)
print(json.dumps({{"engine": engine(), "bytes": sum(map(len, blobs)), "one": best(one),
                  "bulk": best(bulk), "each": best(bulk_each), "parse": best(parse)}}))
"""


def library_figures(place: Place, n: int) -> None:
    print(f"The library, one core, {n:,} random one-deck hands with random exposures as "
          "hand-file data (names, card strings); score_many's call (its numbers as arrays), then "
          "each result made as it is iterated; best of 3 (targets: score_many ≥ 1.0 × "
          "orjson.loads of the same hands' JSON; compiled "
          "score_hand ≥ 150,000 hands/s; plain Python ≥ 100,000 hands/s, read against "
          "score_many's):")  # fmt: skip
    code = LIBRARY.format(tests=str(TESTS), n=n)
    compiled = {k: v for k, v in INSTALLED_ENV.items() if k != "GONGZHU_PURE_PYTHON"}
    for label, extra, target in (("compiled", {}, None),
                                 ("plain Python", {"GONGZHU_PURE_PYTHON": "1"}, 100_000)):  # fmt: skip
        said = place.json(place.script("time_library.py", code), {**compiled, **extra})
        bulk, one, parse, each = said["bulk"], said["one"], said["parse"], said["each"]
        size = said["bytes"] / n
        print(f"  {label} (GONGZHU_PURE_PYTHON={extra.get('GONGZHU_PURE_PYTHON', 'unset')}): "
              f"engine timed: {engine_words(said['engine'])}")  # fmt: skip
        wanted = f"target ≥ {target:,} hands/s" if target else "target ≥ 1.0 ×"
        print(f"    Scorer.score_many (hand-file data) {bulk:10,.0f} hands/s = "
              f"{bulk / parse:.2f} × orjson.loads ({wanted})")  # fmt: skip
        print(f"    ... and each HandResult iterated   {each:10,.0f} hands/s = "
              f"{each / parse:.2f} × orjson.loads")  # fmt: skip
        print(f"    orjson.loads of the same hands     {parse:10,.0f} hands/s "
              f"({size:.0f} bytes a hand)")  # fmt: skip
        wanted = "" if target else "   (target ≥ 150,000 hands/s)"
        print(f"    score_hand from card strings       {one:10,.0f} hands/s{wanted}")


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
