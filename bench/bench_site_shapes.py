"""The Markdown shape catalogue, scored per case (tests/data/site_shapes/).

Run: ``.venv/bin/python bench/bench_site_shapes.py [--round 1|2|3|4] [--check] [--show]``

Prints, for each case of the chosen round (default 2, ``catalogue2.toml``) and part (default
``tune``; ``--check`` scores the check part instead and appends the result, with the time and the
commit, to ``bench/data/site_shapes_check.log``: the check part is scored once, when the reader
change is finished), whether the reader gives exactly the expected rows (text and line) and sets
aside every expected line, and with ``--show`` what it gave instead.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from test_reader_sites_shapes import CASES, CASES_2, CASES_3, CASES_4, outcome  # noqa: E402

LOG = REPO / "bench" / "data" / "site_shapes_check.log"


def _commit() -> str:
    try:
        return subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):  # pragma: no cover - not a checkout
        return "unknown"


def main() -> int:
    round_number = int(sys.argv[sys.argv.index("--round") + 1]) if "--round" in sys.argv else 2
    part = "check" if "--check" in sys.argv else "tune"
    cases = [c for c in {1: CASES, 2: CASES_2, 3: CASES_3, 4: CASES_4}[round_number] if c["part"] == part]
    passed, failed = [], []
    for case in cases:
        rows, unheld, in_prose = outcome(case)
        ok = rows == case["prose"] and not unheld and not in_prose
        (passed if ok else failed).append(case["id"])
        print(f"{'pass' if ok else 'FAIL'}  {case['id']}")
        if not ok and "--show" in sys.argv:
            print(f"      rows   {rows}")
            print(f"      wanted {case['prose']}")
            if unheld or in_prose:
                print(f"      aside lines not set aside: {unheld}; held by prose: {in_prose}")
    print(f"round {round_number}, {part} part: {len(passed)} of {len(cases)} cases read as expected")
    if part == "check":
        LOG.parent.mkdir(parents=True, exist_ok=True)
        with LOG.open("a", encoding="utf-8") as log:
            log.write(json.dumps({"time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": _commit(),
                                  "round": round_number, "passed": passed, "failed": failed}, sort_keys=True) + "\n")
    return 0 if not failed else 1


if __name__ == "__main__":
    raise SystemExit(main())
