"""Shared test set-up: a steady terminal for Typer/Rich, a state folder per test, and what each
marked suite needs (a skip naming what to install, or a failure in CI)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

# Before typer is imported anywhere: fixed width, no colour, so output is the same on a
# terminal and in CI.
os.environ["TERMINAL_WIDTH"] = "100"
os.environ["COLUMNS"] = "100"
os.environ["NO_COLOR"] = "1"
os.environ.pop("FORCE_COLOR", None)

# The matches the tests start and change are remembered in a state folder of their own, never
# the user's (each test gets a fresh one: `_own_state_folder`); the current match and the
# clock of the shell that runs the tests do not reach them.
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="gongzhu-state-")
os.environ.pop("GONGZHU_MATCH", None)
os.environ.pop("GONGZHU_NOW", None)

# The engine (the hand's rules, the bit layouts, a batch's hot path) as installed: compiled in
# place by `pip install -e .`, or plain Python; a checkout edited since runs its sources
# uncompiled (gongzhu_score/core/__init__.py), so the tests see the code as it reads.
import atexit
import functools
import importlib
import importlib.util
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings as _hypothesis
from serving import CHROMIUM

atexit.register(shutil.rmtree, os.environ["XDG_STATE_HOME"], True)

# Speed is measured in tests/benchmark.py, never by a test: Hypothesis's per-example deadline
# (200 ms) timed every property test, and failed one on a CI machine busy with other work.
_hypothesis.register_profile("untimed", deadline=None)
_hypothesis.load_profile("untimed")


@pytest.fixture(autouse=True)
def _own_state_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh state folder for each test: no test sees a match another one remembered."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


def pytest_collection_finish(session: pytest.Session) -> None:
    """With ``GONGZHU_COLLECTED_MODULES=FILE``, write the modules imported once the suite is
    collected, one a line (tests/test_layers.py: collecting imports no optional library)."""
    if path := os.environ.get("GONGZHU_COLLECTED_MODULES"):
        Path(path).write_text("\n".join(sorted(sys.modules)) + "\n", encoding="utf-8")


# --- the marked suites: what each needs, and what to install ---------------------------------
# pyproject.toml declares the markers (README's command deselects them); docs/development.md
# says how to run each. A marked test that is selected and cannot run fails where CI=true (a
# test that cannot run must not pass unseen in CI), and is skipped elsewhere, with one line
# naming what to install.


def _modules(*names: str) -> Callable[[], bool]:
    """Whether each of these top-level modules can be imported (none is imported here)."""
    return lambda: all(importlib.util.find_spec(name) is not None for name in names)


def _java() -> bool:
    """A Java runtime Spark 4 takes (17 or newer): JAVA_HOME's, else the PATH's."""
    home = os.environ.get("JAVA_HOME")
    java = str(Path(home, "bin", "java")) if home else shutil.which("java")
    if not java or not os.access(java, os.X_OK):
        return False
    said = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60).stderr
    found = re.search(r'version "(\d+)(?:\.(\d+))?', said)
    return found is not None and int(found[1] if found[1] != "1" else found[2] or 0) >= 17


def _network_namespace() -> bool:
    """Whether this process may make a network namespace of its own with only loopback up
    (root, util-linux's unshare, iproute2's ip): Ray's test runs in one, and serve's addresses'
    (tests/test_web_addresses.py)."""
    if not (shutil.which("unshare") and shutil.which("ip")):
        return False
    alone = ["unshare", "--net", "ip", "link", "set", "lo", "up"]
    return subprocess.run(alone, capture_output=True, timeout=60).returncode == 0


def _mount_namespace() -> bool:
    """Whether this process may make a mount and host-name namespace of its own (root, unshare,
    mount, hostname): serve's addresses' test gives it a host name and an /etc/hosts of its own."""
    if not (shutil.which("unshare") and shutil.which("mount") and shutil.which("hostname")):
        return False
    alone = ["unshare", "--mount", "--uts", "mount", "--make-rprivate", "/"]
    return subprocess.run(alone, capture_output=True, timeout=60).returncode == 0


def _chinese_font() -> bool:
    """A font with Chinese characters, as matplotlib finds one for a PNG chart (fontconfig's
    list where matplotlib is not installed)."""
    if importlib.util.find_spec("matplotlib") is not None:
        from gongzhu_score.render import chart

        return chart._family_for("东南西北老王") not in ("", None)
    if not shutil.which("fc-list"):
        return False
    listed = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True)
    return bool(listed.stdout.strip())


def _chromium() -> bool:
    return os.access(CHROMIUM, os.X_OK)


@dataclass(frozen=True)
class Need:
    what: str
    install: str
    present: Callable[[], bool]


JAVA = "apt-get install openjdk-17-jre-headless"
NETWORK = "run as root, with unshare and ip (apt-get install util-linux iproute2)"
MOUNT = "run as root, with unshare, mount and hostname (apt-get install util-linux mount hostname)"
FONT = "apt-get install fonts-wqy-microhei"
CHROMIUM_PACKAGE = "apt-get install chromium (or GONGZHU_CHROMIUM=PATH)"
AXE = os.environ.get(
    "GONGZHU_AXE", str(Path.home() / ".cache/gongzhu-axe/node_modules/axe-core/axe.min.js")
)
AXE_PACKAGE = "npm install --prefix ~/.cache/gongzhu-axe axe-core@4 (or GONGZHU_AXE=PATH)"
NEEDS: dict[str, list[Need]] = {
    "spark": [
        Need("pyspark", "pip install -e '.[spark]'", _modules("pyspark", "pandas", "pyarrow")),
        Need("Java 17 or newer", JAVA, _java),
    ],
    "ray": [
        Need("Ray", "pip install -e '.[ray]'", _modules("ray", "pyarrow")),
        Need("a network namespace of its own", NETWORK, _network_namespace),
    ],
    "dask": [Need("Dask", "pip install -e '.[dask]'", _modules("dask", "distributed", "pandas"))],
    "chart": [Need("matplotlib", "pip install -e '.[chart]'", _modules("matplotlib"))],
    "font": [Need("a font with Chinese characters", FONT, _chinese_font)],
    "browser": [
        Need("Playwright", "pip install -e '.[test-browser]'", _modules("playwright")),
        Need(f"Chromium at {CHROMIUM}", CHROMIUM_PACKAGE, _chromium),
        Need(f"axe-core at {AXE}", AXE_PACKAGE, lambda: os.path.isfile(AXE)),
    ],
    "netns": [
        Need("a network namespace of its own", NETWORK, _network_namespace),
        Need("a mount and host-name namespace of its own", MOUNT, _mount_namespace),
    ],
    "crash": [],
    "soak": [],
}
"""Each marker's needs (the crash matrix and the soak need nothing: they are marked for their
time)."""


@functools.cache
def _missing(need: Need) -> bool:
    return not need.present()


def pytest_runtest_setup(item: pytest.Item) -> None:
    needs = dict.fromkeys(n for mark in item.iter_markers() for n in NEEDS.get(mark.name, ()))
    missing = [need for need in needs if _missing(need)]
    if not missing:
        return
    said = "needs " + "; ".join(f"{need.what}: {need.install}" for need in missing)
    if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
        pytest.fail(f"{said} (CI=true: a test that cannot run fails)", pytrace=False)
    pytest.skip(said)
