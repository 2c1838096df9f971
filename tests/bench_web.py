"""The benchmark's section on the table's page under load (tests/benchmark.py): the load of
tests/web_load.py (the soak test's, tests/test_web_load.py) against one real ``gongzhu-score
serve FOLDER`` started in the temporary folder (``Place``) without PYTHONPATH, as are the
``match new``, ``match add``, ``match show`` and ``match verify`` processes around it."""

from __future__ import annotations

from bench_common import INSTALLED_ENV, Place
from web_load import Load, percentile, run

HEARD_TARGET = 1.0
"""Seconds: docs/web.md's "a change shows everywhere within a second" (the last phone, p95)."""


def web_figures(cli: list[str], place: Place) -> None:
    load = Load()
    print(f"serve FOLDER under load, on loopback: {load.matches} matches, {load.phones} live "
          f"phones each (GET /api/events), {load.hands} hands at once ({load.page_hands} a "
          f"match from pages, a client a hand, all sent the same moment, a 409 read again and "
          f"sent again; {load.cli_hands} a match with match add, one terminal a match); the "
          f"last phone hears a change within {HEARD_TARGET:.0f} s (p95, target):")  # fmt: skip
    print(place.engine_line())
    env = {**INSTALLED_ENV, "XDG_STATE_HOME": str(place.folder / "web-state")}
    report = run(place.folder / "club", load, program=cli, env=env, cwd=place.folder)
    for line in report.figures():
        print(f"  {line}")
    delays, unheard = report.heard_after()
    heard = percentile(delays, 95)
    print(f"  last phone p95 {heard * 1000:.0f} ms: {'within' if heard <= HEARD_TARGET else 'OVER'}"
          f" the target of {HEARD_TARGET * 1000:.0f} ms")  # fmt: skip
    wrong = {
        "requests answered 5xx": sum(t.status >= 500 for t in report.timed),
        "other refusals": len(report.failed_requests()),
        "problems while it ran": len(report.problems),
        "hands not in their ledger exactly once": sum(len(v) for v in report.not_once().values()),
        "ledgers that do not verify": sum(c != 0 for c, _ in report.verified.values()),
        "phones that missed the last version": len(report.deaf()),
        "phones that heard a version never had": len(report.strange()),
        "changes a phone never heard": len(unheard),
    }
    if any(wrong.values()):
        print("  WRONG: " + "; ".join(f"{k}: {v}" for k, v in wrong.items() if v))
        for text in report.problems[:5]:
            print(f"    {text}")
        if report.server_err:
            print("    serve's stderr:\n" + report.server_err[-4000:])
    else:
        print("  every hand landed once, every ledger verifies, every phone heard every change, "
              "no 5xx")  # fmt: skip
