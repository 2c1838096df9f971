"""The engine shared by threads (serve answers each request in a thread of its own): rule sets
and normalizations made and thrown away while others score never make a scoring fail. A soak
run of serve found two threads evicting one kept entry at once (a KeyError, a 500)."""

from __future__ import annotations

import sys
import threading
from dataclasses import replace

from gongzhu_score.core.engine import compiled_rules
from gongzhu_score.core.hand import Hand
from gongzhu_score.core.normalize import Normalization
from gongzhu_score.io.variants import find_variant

HAND = Hand.from_captured({"A": "QS", "B": "JD", "C": "全红", "D": "10C"})


def test_scoring_from_many_threads_with_fresh_rules_never_fails() -> None:
    classic = find_variant("classic")
    failed: list[BaseException] = []

    def score(k: int) -> None:
        try:
            for i in range(400):
                rules = replace(classic, pig=-100 - (k * 400 + i) % 97)  # (a new object each)
                result = compiled_rules(rules).score(HAND, Normalization(scale=1 + i % 3))
                assert result.raws[0] == rules.pig
        except BaseException as e:  # (a thread's failure, said to the test)
            failed.append(e)

    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # (threads change as often as they can: a race shows)
    try:
        threads = [threading.Thread(target=score, args=(k,)) for k in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(before)
    assert not failed, failed[:3]
