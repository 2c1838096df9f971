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
# (a requirement with extras, "pyspark[sql]>=4.1", pins the package itself: pyspark==4.1; one
# with releases left out, "openskill>=5.0,!=6.1.*", pins its minimum)
REQUIREMENT = re.compile(
    r'^\s*"([A-Za-z0-9_.-]+)(?:\[[A-Za-z0-9_,.-]+\])?>=([0-9][0-9.]*)(?:,(?:<|!=)[0-9.*]+)*",?\s*$',
    re.M,
)
lows: dict[str, str] = {}
for name, low in REQUIREMENT.findall(text):
    if name.lower() in LINT:
        continue
    if lows.setdefault(name.lower(), low) != low:  # (extras repeat some: they must agree)
        sys.exit(f"pyproject.toml gives {name} two minimums: {lows[name.lower()]} and {low}")
    pin = f"{name}=={low}"
    if pin not in pins:
        pins.append(pin)
if not pins:
    sys.exit("no minimum versions found in pyproject.toml")
print("\n".join(pins))
