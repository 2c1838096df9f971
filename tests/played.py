"""Realistic played hands, as a data team holds them: every card of the deck captured four at a
time (one trick to one player), four players drawn from a pool of 3,000 names, exposures
(亮牌) of the four special cards, some of them 首明 (exposed at the first trick), 3% of hands
with two decks and 5% scored by partners. The benchmark's big data set and the engine tests'
tables come from here, so both measure and check the same kind of hand."""

from __future__ import annotations

import random
from collections.abc import Iterator

from gongzhu_score import DECK, SPECIAL_CARDS

SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋余于杜叶程"
)
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰涛明超秀霞平刚桂英华玉兰萍红娟建国文斌宇浩凯鹏飞晨阳"


def name_pool(size: int = 3_000, seed: int = 7) -> list[str]:
    """``size`` distinct names, a surname and one or two given characters, some in Latin
    letters (as a platform's user names come)."""
    rng = random.Random(seed)
    names: set[str] = set()
    while len(names) < size:
        if rng.random() < 0.1:
            names.add(f"player{rng.randrange(10**6)}")
        else:
            given = "".join(rng.choice(GIVEN) for _ in range(rng.choice((1, 2))))
            names.add(rng.choice(SURNAMES) + given)
    return sorted(names)


def played_hand(rng: random.Random, pool: list[str]) -> dict[str, object]:
    """One hand as a JSON Lines record holds it (exposures as strings of codes)."""
    decks = 2 if rng.random() < 0.03 else 1
    names = rng.sample(pool, 4)
    cards = [card.code for card in DECK] * decks
    rng.shuffle(cards)
    captured: dict[str, list[str]] = {name: [] for name in names}
    for trick in range(0, len(cards), 4):
        captured[rng.choice(names)].extend(cards[trick : trick + 4])
    exposed: dict[str, list[str]] = {}
    first: dict[str, list[str]] = {}
    for card in SPECIAL_CARDS:
        for _ in range(decks):
            if rng.random() < 0.3:
                who = rng.choice(names)
                # 首明 is one deck's, and a player's first card drawn only (rulings §4.3)
                if decks == 1 and who not in first and rng.random() < 0.1:
                    first[who] = [card.code]
                else:
                    exposed.setdefault(who, []).append(card.code)
    players: list[dict[str, str]] = []
    for name in names:
        player = {"name": name, "captured": " ".join(captured[name])}
        if name in exposed:
            player["exposed"] = " ".join(exposed[name])
        if name in first:
            player["first_exposed"] = " ".join(first[name])
        players.append(player)
    hand: dict[str, object] = {"players": players}
    if decks == 2:
        hand["variant"] = "two-deck"
    if rng.random() < 0.05:
        hand["teams"] = "partners"
    return hand


def played_hands(n: int, seed: int = 2026, pool: list[str] | None = None) -> Iterator[dict]:
    """``n`` realistic hands, the same ones for the same seed."""
    rng = random.Random(seed)
    names = pool or name_pool()
    for _ in range(n):
        yield played_hand(rng, names)


def played_table(hands: list[dict]) -> object:
    """The hands as an Arrow table, the columns of ``batch``'s Parquet input (a null
    ``variant`` or ``teams`` where the hand has none, as a data team's table has them)."""
    import pyarrow as pa

    text = pa.string()
    player = pa.struct([("name", text), ("captured", text), ("exposed", text),
                        ("first_exposed", text)])  # fmt: skip
    schema = pa.schema([("players", pa.list_(player)), ("variant", text), ("teams", text)])
    return pa.Table.from_pylist(
        [{"variant": None, "teams": None, **hand} for hand in hands], schema=schema
    )


def played_arrow(n: int, seed: int = 2026, pool: list[str] | None = None,
                 chunk: int = 100_000) -> object:  # fmt: skip
    """``n`` realistic hands as :func:`played_table` gives them, drawn with numpy ``chunk``
    hands at a time: the distribution of :func:`played_hands` (each deck shuffled, each trick
    to a player drawn at random, four distinct names of the pool in random seats, the same
    odds of two decks, partners, exposures and 首明), not its hands; the same hands for the same
    ``n``, ``seed`` and ``chunk``. About 20 times faster, for the benchmark's million hands."""
    import numpy as np
    import pyarrow as pa

    names = pa.array(pool or name_pool(), pa.string())
    children = np.random.SeedSequence(seed).spawn(-(-n // chunk))
    tables = [_played_chunk(np.random.default_rng(s), min(chunk, n - k * chunk), names)
              for k, s in enumerate(children)]  # fmt: skip
    schema = played_table([]).schema  # type: ignore[attr-defined]
    return pa.concat_tables(tables) if tables else schema.empty_table()


_CODES = [card.code for card in DECK]
_SPECIAL = [card.code for card in SPECIAL_CARDS]


def _played_chunk(rng: object, m: int, names: object) -> object:
    import numpy as np
    import pyarrow as pa

    g: np.random.Generator = rng  # type: ignore[assignment]
    rows = np.arange(m)
    decks = np.where(g.random(m) < 0.03, 2, 1)
    seats = g.integers(0, len(names), (m, 4))  # type: ignore[arg-type]
    while True:  # four distinct names, each ordered draw as likely (random.sample)
        ordered = np.sort(seats, axis=1)
        twice = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
        if not twice.any():
            break
        seats[twice] = g.integers(0, len(names), (int(twice.sum()), 4))  # type: ignore[arg-type]
    # each card code and a space, padded to 4 bytes; the last card of a player has no space
    tokens = np.zeros((len(_CODES), 4), np.uint8)
    for k, code in enumerate(_CODES):
        tokens[k, : len(code) + 1] = np.frombuffer(code.encode() + b" ", np.uint8)
    widths = np.array([len(code) + 1 for code in _CODES])
    groups, where = [], np.empty(m, np.int64)
    done = 0
    for d in (1, 2):
        mine = rows[decks == d]
        k = len(mine)
        where[mine] = done + np.arange(k)
        done += k
        cards = np.argsort(g.random((k, 52 * d)), axis=1) % 52  # the decks shuffled
        owner = np.repeat(g.integers(0, 4, (k, 13 * d)), 4, axis=1)  # each trick's taker
        order = np.argsort(owner, axis=1, kind="stable")  # a player's cards in trick order
        cards = np.take_along_axis(cards, order, axis=1)
        owner = np.take_along_axis(owner, order, axis=1)
        last = np.ones_like(owner, dtype=bool)
        last[:, :-1] = owner[:, 1:] != owner[:, :-1]
        lengths = (widths[cards] - last).ravel()
        text = tokens[cards.ravel()][np.arange(4) < lengths[:, None]]
        who = (np.arange(k)[:, None] * 4 + owner).ravel()
        sizes = np.bincount(who, weights=lengths, minlength=4 * k).astype(np.int64)
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
        groups.append(pa.StringArray.from_buffers(4 * k, pa.py_buffer(offsets),
                                                  pa.py_buffer(text.tobytes())))  # fmt: skip
    captured = pa.concat_arrays(groups).take(pa.array((where[:, None] * 4 + np.arange(4)).ravel()))
    counts = np.zeros((m, 4, 4), np.int64)  # hand, seat, special card: times exposed
    first = np.full((m, 4), -1)  # hand, seat: the special card exposed as 首明
    for c in range(len(_SPECIAL)):
        for copy in range(2):
            shown = (copy < decks) & (g.random(m) < 0.3)
            who = g.integers(0, 4, m)
            as_first = shown & (decks == 1) & (first[rows, who] < 0) & (g.random(m) < 0.1)
            first[rows[as_first], who[as_first]] = c
            counts[rows[shown & ~as_first], who[shown & ~as_first], c] += 1
    spelt = [" ".join(code for c, code in enumerate(_SPECIAL) for _ in range(key // 3**c % 3))
             for key in range(3 ** len(_SPECIAL))]  # fmt: skip
    exposed = pa.array([s or None for s in spelt], pa.string()).take(
        pa.array((counts * 3 ** np.arange(len(_SPECIAL))).sum(axis=2).ravel())
    )
    first_exposed = pa.array([None, *_SPECIAL], pa.string()).take(pa.array((first + 1).ravel()))
    schema = played_table([]).schema  # type: ignore[attr-defined]
    player = schema.field("players").type.value_type
    players = pa.StructArray.from_arrays(
        [names.take(pa.array(seats.ravel())), captured, exposed, first_exposed],  # type: ignore[attr-defined]
        fields=list(player))  # fmt: skip
    return pa.table({
        "players": pa.ListArray.from_arrays(pa.array(np.arange(0, 4 * m + 1, 4, np.int32)),
                                            players, type=schema.field("players").type),
        "variant": pa.array([None, "two-deck"], pa.string()).take(pa.array(decks - 1)),
        "teams": pa.array([None, "partners"], pa.string()).take(
            pa.array((g.random(m) < 0.05).astype(np.int64))),
    }, schema=schema)  # fmt: skip
