"""The flattened-line shape catalogue (tests/data/flattened_shapes.toml) read by the pack reader.

Run: ``.venv/bin/python bench/bench_flattened_shapes.py [--check] [--show]``

Each case is a few flattened lines written by us in the shape real pages have when a browser
or an HTML-to-text tool flattens them, with the reading a careful reader gives each block
(prose with its exact text, heading with its exact text, table, code, math, chrome). The part of
a case was fixed before any tuning, from its id alone: ``sha256(id)`` read as an integer, even
is ``tune``, odd is ``check``. The reader is tuned on the ``tune`` part (and the development
corpus); ``--check`` scores the ``check`` part too (once, when the change is finished; each
scoring is appended to bench/data/flattened_shapes_check.log).

A case passes when the blocks of ``audit.flattened.read_flattened(text)``, mapped to classes
(paragraph and list item → prose; heading; table, and a ``number grid``: a table whose columns
could not be split; code; math; navigation, other markup, html → chrome) and with consecutive blocks of one non-prose class taken as one, match the expected
readings in order: a prose or heading reading needs its exact text (whitespace collapsed); a
reading ``a|b`` accepts a run of blocks whose classes are all ``a`` or ``b``.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from audit.flattened import read_flattened  # noqa: E402

CATALOGUE = REPO / "tests" / "data" / "flattened_shapes.toml"
CHECK_LOG = REPO / "bench" / "data" / "flattened_shapes_check.log"
CLASSES = {"paragraph": "prose", "list_item": "prose", "heading": "heading", "table": "table", "code": "code",
           "math": "math", "navigation": "chrome", "markup": "chrome", "html": "chrome"}


def part_of(case_id: str) -> str:
    """``tune`` or ``check``, fixed by the case id alone (even or odd sha256)."""
    return "tune" if int(hashlib.sha256(case_id.encode("utf-8")).hexdigest(), 16) % 2 == 0 else "check"


def cases(part: str | None = None) -> list[dict]:
    out = tomllib.loads(CATALOGUE.read_text(encoding="utf-8"))["case"]
    return [c for c in out if part is None or part_of(c["id"]) == part]


def reading(text: str) -> list[tuple[str, str]]:
    """(class, text) of each block, consecutive blocks of one non-prose, non-heading class merged."""
    out: list[tuple[str, str]] = []
    for block in read_flattened(text.strip("\n")).blocks:
        cls = CLASSES.get(block.kind, "chrome")
        if block.kind == "markup" and block.note == "number grid":
            cls = "table"  # a table whose columns the reader could not split is still read as a table
        body = " ".join(block.text.split())
        if out and cls == out[-1][0] and cls not in ("prose", "heading"):
            out[-1] = (cls, out[-1][1] + "\n" + body)
        else:
            out.append((cls, body))
    return out


def matches(actual: list[tuple[str, str]], expected: list[list[str]]) -> bool:
    position = 0
    for allowed, text in expected:
        classes = set(allowed.split("|"))
        if position >= len(actual) or actual[position][0] not in classes:
            return False
        if classes & {"prose", "heading"} and len(classes) == 1:
            if actual[position][1] != " ".join(text.split()):
                return False
            position += 1
            continue
        while position < len(actual) and actual[position][0] in classes and actual[position][0] not in (
                "prose", "heading"):
            position += 1
        if position < len(actual) and actual[position][0] in classes and actual[position][0] == "heading":
            position += 1  # a heading accepted as one reading of an alternative
    return position == len(actual)


def score(part: str, show: bool = False) -> tuple[int, int, list[str]]:
    chosen = cases(part)
    failed = []
    for case in chosen:
        actual = reading(case["text"])
        if not matches(actual, case["expect"]):
            failed.append(case["id"])
            if show:
                print(f"  FAIL {case['id']}: {actual}")
    return len(chosen) - len(failed), len(chosen), failed


def _commit() -> str:
    try:
        return subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):  # pragma: no cover
        return "unknown"


def main() -> int:
    show = "--show" in sys.argv
    passed, total, failed = score("tune", show)
    print(f"tune part: {passed}/{total} cases read as expected; failing: {', '.join(failed) or 'none'}")
    if "--check" in sys.argv:
        passed, total, failed = score("check", show)
        print(f"check part: {passed}/{total} cases read as expected; failing: {', '.join(failed) or 'none'}")
        CHECK_LOG.parent.mkdir(parents=True, exist_ok=True)
        with CHECK_LOG.open("a", encoding="utf-8") as log:
            log.write(json.dumps({"time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": _commit(),
                                  "check": [passed, total], "failing": failed}, sort_keys=True) + "\n")
    else:
        print("check part not scored (run with --check once, when the change is finished)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
