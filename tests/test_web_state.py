"""The table page's use cases as data (gongzhu_score.web.state), without HTTP: a hand tapped in
scores as the library scores it, under random house rules; what the page is shown (codes and
names of the cards) reads back; a change made against an old version changes nothing."""

from __future__ import annotations

import tempfile
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import hands_for, rule_sets

from gongzhu_score import GongzhuError, score_hand
from gongzhu_score.core.cards import SCORING_CARDS, parse_cards
from gongzhu_score.core.options import ScoringOptions
from gongzhu_score.core.variant import Variant
from gongzhu_score.errors import ChangedMeanwhileError
from gongzhu_score.match.actions import add_hand, new_match, undo_hand
from gongzhu_score.match.storage import read_version
from gongzhu_score.render.match import match_to_dict
from gongzhu_score.web import state

NOW = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc)


def outcome(work):  # type: ignore[no-untyped-def]
    try:
        return work()
    except GongzhuError:
        return "refused"


@settings(max_examples=40, derandomize=True, deadline=None)
@given(rule_sets(), st.data())
def test_a_hand_tapped_in_scores_as_the_library_scores_it_under_random_rules(
    rules: Variant, data: st.DataObject
) -> None:
    hand = data.draw(hands_for(rules))
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "m.yaml")
        try:
            new_match(path, hand.names, options=ScoringOptions(rules))
        except GongzhuError:
            return  # (names the ledger refuses: the library's own tests cover them)
        # The page sends the scoring cards only, as the codes it was given.
        entry = {
            "captured": {
                n: [c.code for c in cards if c in SCORING_CARDS]
                for n, cards in hand.captured.items()
            },
            "exposed": {n: [c.code for c in cs] for n, cs in hand.exposed.items()},
            "first_exposed": {n: [c.code for c in cs] for n, cs in hand.first_exposed.items()},
        }
        shown = {"exposed": hand.exposed, "first_exposed": hand.first_exposed}
        ledger, version = read_version(path)
        expected = outcome(
            lambda: score_hand(
                hand.captured, **shown, variant=rules, normalize=ledger.normalization.method
            )
        )
        preview = state.preview(path, {"entry": entry}, "en")
        assert preview["complete"] and preview["unplaced"] == []
        if expected == "refused":
            assert preview["problem"] and preview["raw"] is None
            return
        assert preview["raw"] == list(expected.raws)
        if preview["asks_first_pig"]:  # two decks, two pig takers: the page asks who was first
            assert "first" in preview["problem"]
            takers = [n for n, cs in entry["captured"].items() if "QS" in cs]
            entry["first_pig"] = data.draw(st.sampled_from(takers))
            preview = state.preview(path, {"entry": entry}, "en")
        assert preview["problem"] is None, preview
        added = state.add(path, {"version": version, "entry": entry}, "en", lambda: NOW)
        assert added["state"]["match"]["hands"][0]["raw"] == list(expected.raws)
        assert added["state"]["match"] == match_to_dict(read_version(path)[0])


def test_every_card_the_page_shows_reads_back_as_itself() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "m.yaml")
        for variant in ("classic", "two-deck"):
            Path(path).unlink(missing_ok=True)
            from gongzhu_score.io.variants import find_variant

            new_match(path, ["东", "南", "西", "北"], options=ScoringOptions(find_variant(variant)))
            for lang in ("zh", "en"):
                cards = state.page_state(path, lang)["cards"]
                assert len(cards) == 16
                for c in cards:
                    for said in (c["code"], c["symbol"], c["name"], c["nickname"]):
                        assert [x.code for x in parse_cards(said)] == [c["code"]], said


def test_a_change_against_an_old_version_changes_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "m.yaml")
    new_match(path, ["东", "南", "西", "北"])
    _, seen = read_version(path)
    add_hand(path, _hand(), expect=seen)
    before = Path(path).read_bytes()
    with pytest.raises(ChangedMeanwhileError, match="changed since you looked"):
        add_hand(path, _hand(), expect=seen)
    with pytest.raises(ChangedMeanwhileError):
        undo_hand(path, expect=seen)
    assert Path(path).read_bytes() == before
    undo_hand(path, expect=read_version(path)[1])
    assert read_version(path)[1] == seen  # the ledger as it was: the same version again


def _hand():  # type: ignore[no-untyped-def]
    from gongzhu_score.core.hand import Hand

    return Hand.from_captured({"东": "QS", "南": "", "西": "", "北": ""}).with_rest("西")
