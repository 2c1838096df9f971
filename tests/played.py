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
