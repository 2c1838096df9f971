"""Print pip constraints pinning every runtime and test dependency at its declared minimum.

Read from pyproject.toml, so the versions CI tests as the lowest are the ones the project
declares, and cannot drift apart. The lint tools (ruff, mypy, stubs) are left out: the tests do
not need them.
"""

import re
import sys
from pathlib import Path

LINT = {"ruff", "mypy", "types-pyyaml", "types-tabulate"}

text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
pins = []
REQUIREMENT = re.compile(r'^\s*"([A-Za-z0-9_.-]+)>=([0-9][0-9.]*)(?:,<[0-9.]+)?",?\s*$', re.M)
for name, low in REQUIREMENT.findall(text):
    pin = f"{name}=={low}"
    if name.lower() not in LINT and pin not in pins:  # (extras repeat some: once each)
        pins.append(pin)
if not pins:
    sys.exit("no minimum versions found in pyproject.toml")
print("\n".join(pins))
