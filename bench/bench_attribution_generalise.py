"""Attributions on sentences shaped as technical writers credit in the wild
(tests/data/attribution_generalise.toml; issue 19; claims/attribution.py).

Run: ``.venv/bin/python bench/bench_attribution_generalise.py`` prints the tune half's figures and
its errors. ``--check`` prints the check half's figures only (no errors): the check half is scored
once, when a change to the rules is finished, never while tuning (the split is fixed in the data
file by sha256 of each sentence).

Each sentence is read as a one-paragraph document by :func:`claims.extract.extract_claims`; it
is *attributed* as bench/bench_claims_quality.py reads a row (kind ``attribution``, or a measured
result whose cue names the credit), and a gold cited name is *found* when a row's cited name
holds it or is held by it, folded, with `` et al.`` ignored (the same rule as that bench).
"""

from __future__ import annotations

import sys
import tomllib
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from claims.extract import TABLE_VALUE, extract_claims  # noqa: E402
from sources.names import fold  # noqa: E402

DATA = REPO / "tests" / "data" / "attribution_generalise.toml"


def sentences(part: str) -> list[dict]:
    """The labelled sentences of one half (``tune`` or ``check``)."""
    rows = tomllib.loads(DATA.read_text(encoding="utf-8"))["sentence"]
    return [r for r in rows if r["part"] == part]


def attributed(row) -> bool:
    """bench/bench_claims_quality.py ``is_attributed``."""
    return row.kind == "attribution" or "credited to" in row.cue


def name_found(name: str, names: list[str]) -> bool:
    """bench/bench_claims_quality.py's cited-name match."""
    gold = fold(name).replace(" et al.", "")
    return any(gold in n or n in fold(name) for n in (fold(x) for x in names) if n)


def score(part: str) -> tuple[Counter, list[str]]:
    """Counts (``predicted``, ``gold``, ``correct``, ``names_gold``, ``names_found``) and errors."""
    c: Counter = Counter()
    errors: list[str] = []
    for s in sentences(part):
        rows = [r for r in extract_claims(s["text"]) if r.kind != TABLE_VALUE]
        flag = any(attributed(r) for r in rows)
        names = [n for r in rows for n in r.cited_names]
        c["sentences"] += 1
        c["gold"] += s["attribution"]
        c["predicted"] += flag
        c["correct"] += s["attribution"] and flag
        if flag != s["attribution"]:
            cue = "; ".join(r.cue for r in rows)
            errors.append(f"{'FN' if s['attribution'] else 'FP'} [{s['shape']}] {s['text']!r} ({cue})")
        if s["attribution"]:
            for name in s["cited"]:
                c["names_gold"] += 1
                found = name_found(name, names)
                c["names_found"] += found
                if not found:
                    errors.append(f"NAME {name!r} not in {names} [{s['shape']}] {s['text']!r}")
    return c, errors


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f} ({a}/{b})" if b else "n/a (0/0)"


def main() -> int:
    part = "check" if "--check" in sys.argv else "tune"
    c, errors = score(part)
    print(f"attribution generalisation set, {part} half ({c['sentences']} sentences, {c['gold']} attributions)")
    print(f"  precision    {_ratio(c['correct'], c['predicted'])}")
    print(f"  recall       {_ratio(c['correct'], c['gold'])}")
    print(f"  cited names  {_ratio(c['names_found'], c['names_gold'])}")
    if part == "tune":
        for line in errors:
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
