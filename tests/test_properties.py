"""Invariants over random legal hands (hypothesis): zero-sum, seat symmetry, notation."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import RandomHand, legal_hands, spellings

from gongzhu_score import DECK, SCORING_CARDS, GongzhuError, HandResult, score_hand
from gongzhu_score.render.hand import result_to_dict

settings.register_profile("default", max_examples=200, deadline=None)
settings.load_profile("default")


def scored(hand: RandomHand, **options: object) -> HandResult:
    return score_hand(hand.captured, **{**hand.kwargs(), **options})  # type: ignore[arg-type]


@given(legal_hands(), st.integers(1, 20))
def test_jj_finals_sum_to_exactly_zero(hand: RandomHand, scale: int) -> None:
    r = scored(hand, normalize="jj", scale=scale)
    assert sum(r.finals) == 0
    total = sum(r.raws)
    assert list(r.finals) == [(4 * raw - total) * scale for raw in r.raws]


@given(legal_hands(), st.integers(1, 20))
def test_zero_sum_finals_sum_to_the_reported_residue(hand: RandomHand, scale: int) -> None:
    r = scored(hand, normalize="zero-sum", scale=scale)
    data = result_to_dict(r)
    assert sum(p["final"] for p in data["players"]) == data["final_sum"]
    assert data["final_sum"] in (-scale, 0, scale)
    exact = scored(hand, normalize="zero-sum", rounding="exact", scale=scale)
    assert sum(exact.finals) == 0
    for rounded, precise in zip(r.finals, exact.finals, strict=True):
        assert abs(Fraction(rounded) - Fraction(precise)) < Fraction(scale, 2)


@given(legal_hands())
def test_none_keeps_the_raw_scores(hand: RandomHand) -> None:
    r = scored(hand, normalize="none")
    assert r.finals == r.raws


@given(legal_hands(), st.permutations(range(4)))
def test_reordering_seats_permutes_results_and_changes_nothing_else(
    hand: RandomHand, order: list[int]
) -> None:
    before = scored(hand)
    moved = {hand.names[i]: hand.captured[hand.names[i]] for i in order}
    after = score_hand(moved, **hand.kwargs())  # type: ignore[arg-type]

    def by_name(r: HandResult) -> dict[str, tuple[object, ...]]:
        return {
            p.name: (p.raw, p.final, p.scoring_cards, p.lines, p.transformer, p.full_red)
            for p in r.players
        }

    assert by_name(before) == by_name(after)
    assert [p.name for p in after.players] == [hand.names[i] for i in order]
    assert [p.seat for p in after.players] == [1, 2, 3, 4]


@given(legal_hands(), st.data())
def test_spelling_cards_differently_or_adding_non_scoring_cards_changes_nothing(
    hand: RandomHand, data: st.DataObject
) -> None:
    listed = {c for cards in hand.captured.values() for c in cards}
    extra = [c for c in DECK if c not in listed and c not in SCORING_CARDS]
    respelled: dict[str, list[str]] = {}
    for name, cards in hand.captured.items():
        respelled[name] = [data.draw(st.sampled_from(spellings(c))) for c in cards]
    for card in data.draw(st.lists(st.sampled_from(extra), unique=True)) if extra else []:
        respelled[data.draw(st.sampled_from(hand.names))].append(card.code)
    # one string per player, with the separators a person might type
    sep = data.draw(st.sampled_from([" ", ", ", "，", "、", ";"]))
    as_text = {name: sep.join(tokens) for name, tokens in respelled.items()}
    assert score_hand(as_text, **hand.kwargs()) == scored(hand)  # type: ignore[arg-type]


# --- two decks and teams (rulings §5, §7) ------------------------------------------------------


@given(legal_hands(variants=("classic", "online", "jj", "two-deck")), st.integers(1, 12))
def test_partners_are_equal_within_a_side_and_zero_sum(hand: RandomHand, scale: int) -> None:
    for method in ("zero-sum", "jj"):
        r = scored(hand, teams="partners", normalize=method, scale=scale)
        assert r.finals[0] == r.finals[2] == -r.finals[1] == -r.finals[3]
        assert r.final_sum == 0  # D/2 with raws in tens never leaves a half


@given(legal_hands(variants=("classic", "dehong", "two-deck"), exposures=False))
def test_pig_sheep_sides_are_equal_within_and_zero_sum_up_to_rounding(hand: RandomHand) -> None:
    try:
        r = scored(hand, teams="pig-sheep", normalize="zero-sum")
    except GongzhuError as e:  # two decks: every player may hold a pig or a sheep
        assert "every player took a pig or a sheep" in str(e)
        return
    for side in (0, 1):
        finals = {p.final for p in r.players if p.side == side}
        assert len(finals) == 1
    assert abs(r.final_sum) <= 1
    exact = scored(hand, teams="pig-sheep", normalize="zero-sum", rounding="exact")
    assert sum(exact.finals) == 0


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@given(legal_hands(variants=("two-deck",)))
def test_two_deck_exposure_never_changes_the_sign_of_a_score(hand: RandomHand) -> None:
    plain = score_hand(hand.captured, variant="two-deck")  # type: ignore[arg-type]
    exposed = scored(hand)
    for before, after in zip(plain.players, exposed.players, strict=True):
        assert [(line.rule, _sign(line.points)) for line in before.lines] == [
            (line.rule, _sign(line.points)) for line in after.lines
        ]
        assert (before.transformer is None) == (after.transformer is None)
        if len({_sign(line.points) for line in before.lines if line.points}) <= 1:
            # every part of the score counts the same way, so the total keeps its sign
            assert _sign(before.raw) == _sign(after.raw)


@given(legal_hands(variants=("two-deck", "classic", "dehong")), st.data())
def test_a_score_never_depends_on_who_exposed_a_card(hand: RandomHand, data: st.DataObject) -> None:
    shown = [c for cards in hand.exposed.values() for c in cards]
    moved: dict[str, list[object]] = {}
    for card in shown:
        moved.setdefault(data.draw(st.sampled_from(hand.names)), []).append(card)
    r = score_hand(
        hand.captured,
        exposed=moved,
        first_exposed=hand.first_exposed,
        variant=hand.variant,  # type: ignore[arg-type]
    )
    assert r.raws == scored(hand).raws
    assert r.finals == scored(hand).finals
