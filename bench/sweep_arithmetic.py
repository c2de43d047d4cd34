"""False-alarm sweep of the reviewer's-arithmetic checks over a directory of real pages.

    PYTHONPATH=. .venv/bin/python bench/sweep_arithmetic.py DIR_OR_FILE [...]

Runs ``claims.consistency.check_results_page`` on every ``.md`` / ``.txt`` file given (directories
searched recursively) and counts, for the checks added in issue 22 (``percent-of-baseline``,
``ratio-to-baseline``, ``prose-ratio``, ``prose-points``, ``code-count``), how many passed,
failed and were skipped; every failure is printed with its arithmetic, so that each can be read
and judged (a failure on a real page is either a real error of that page or a false alarm).
A page that cannot be read is counted and named, never fatal.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

KINDS = ("percent-of-baseline", "ratio-to-baseline", "prose-ratio", "prose-points", "code-count")


def pages(args: list[str]) -> list[Path]:
    out: list[Path] = []
    for arg in args:
        path = Path(arg)
        if path.is_dir():
            out.extend(sorted(p for p in path.rglob("*") if p.suffix in (".md", ".txt") and p.is_file()))
        elif path.is_file():
            out.append(path)
    return out


def main(argv: list[str]) -> int:
    from claims.consistency import check_results_page

    counts: Counter[tuple[str, str]] = Counter()
    unreadable, failures = [], []
    found = pages(argv)
    for page in found:
        try:
            report = check_results_page(page)
        except Exception as exc:  # a page the reader refuses is not a check result
            unreadable.append(f"{page}: {exc.__class__.__name__}: {exc}"[:200])
            continue
        for check in report.checks:
            if check.group in KINDS:
                counts[(check.group, check.status)] += 1
                if check.status == "fail":
                    failures.append(f"{page}: {check.arithmetic}")
    print(f"{len(found)} pages read ({len(unreadable)} unreadable)")
    for kind in KINDS:
        print(f"{kind}: {counts[(kind, 'pass')]} pass, {counts[(kind, 'fail')]} fail, {counts[(kind, 'skip')]} skip")
    for line in failures:
        print("FAIL", line)
    for line in unreadable:
        print("UNREADABLE", line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
