"""The table's load on loopback (the issue's "done when"): one ``serve FOLDER`` of four matches,
four live phones on each, and 200 hands added at once, 160 from pages (a client a hand, all
sent the same moment; a 409 re-reads the state and sends the hand again) and 40 with
``match add`` at the terminals. Each hand lands exactly once, every ledger verifies, every phone
hears every change, and no request gets a 5xx. The driver is tests/web_load.py (the benchmark's
web section runs the same load and prints its times)."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_load import Load, run


@pytest.mark.soak
def test_four_tables_at_once_every_hand_lands_once_and_every_phone_hears_it(
    tmp_path: Path,
) -> None:
    load = Load()
    report = run(tmp_path / "club", load)
    print("\n".join(report.figures()))  # (pytest -s shows them)
    said = f"server's stderr:\n{report.server_err}"
    assert not [t for t in report.timed if t.status >= 500], said
    assert not report.failed_requests(), (report.failed_requests()[:5], said)
    assert not report.problems, (report.problems[:10], said)
    # Every hand sent is in its ledger once, whether it lost to others first (409) or not.
    assert report.not_once() == {}
    assert report.hands == {name: load.page_hands + load.cli_hands for name in report.names}
    assert {n: v[0] for n, v in report.verified.items()} == dict.fromkeys(report.names, 0), (
        report.verified
    )
    # Every phone heard its ledger's last version; every version heard was one the ledger had,
    # in the order it had them; and every change reached every phone of its match.
    assert report.deaf() == []
    assert report.strange() == []
    delays, unheard = report.heard_after()
    assert unheard == []
    assert len(delays) == load.hands
    assert report.server_err.count("Traceback") == 0, said
