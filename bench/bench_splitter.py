"""The sentence splitter alone, on the gold sentences of the labelled corpus (issue 19).

Run: ``.venv/bin/python bench/bench_splitter.py [--batch N] [--errors]`` (development part only;
``--batch N`` one development batch).

For every prose block the Markdown reader gives (``bench_claims_quality.corpus_document``), the
gold sentences whose text (compared as the quality bench compares: roles, backticks, ``$`` and a
list marker removed) lies inside the block's text are that block's expected sentences. The block
is then split exactly as ``claims`` splits it (``claims.extract._sentence_rows``: sentencex and
the guards, with the block's protected spans) and each expected sentence is counted:

* ``exact``: a row is that sentence;
* ``split``: no row is, and rows lie inside it (a boundary too many);
* ``merged``: no row is, and one row holds it and more (a boundary missed).

Sentences the reader never puts in a prose block (set aside, dropped) are not the splitter's and
are not counted here; ``bench/bench_claims_quality.py`` counts them.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import bench_claims_quality as quality  # noqa: E402
from claims.extract import _sentence_rows  # noqa: E402


def _compared(text: str) -> str:
    return quality.matchable(quality.normalise(text))


def score(batches: frozenset[int] | None = None) -> tuple[Counter, list[str]]:
    """Counts of exact / split / merged expected sentences over the development part, and the errors."""
    counts: Counter = Counter()
    errors: list[str] = []
    for document in quality.corpus_documents("development", batches):
        gold = [_compared(g["text"]) for g in quality.corpus_labels(document)]
        doc = quality.corpus_document(document, "markdown")
        for block in doc.prose_blocks():
            whole = _compared(block.text)
            inside = [g for g in dict.fromkeys(gold) if g and g in whole]
            # a gold text inside another gold sentence of the block (a name, a list item quoted
            # again) is that sentence's part, not a sentence of the block
            expected = [g for g in inside if not any(g != other and g in other for other in inside)]
            if not expected:
                continue
            rows = [_compared(r.text) for r in _sentence_rows(block, 1)]
            for sentence in expected:
                counts["expected"] += 1
                if sentence in rows:
                    counts["exact"] += 1
                elif any(r in sentence for r in rows if len(r) > 3):
                    counts["split"] += 1
                    errors.append(f"split   {document['id']}:{block.line}: {sentence[:110]!r} → "
                                  f"{[r[:50] for r in rows if r in sentence]}")
                else:
                    counts["merged"] += 1
                    holder = next((r for r in rows if sentence in r), "")
                    errors.append(f"merged  {document['id']}:{block.line}: {sentence[:60]!r} in {holder[:150]!r}")
    return counts, errors


def main() -> int:
    batch = quality.BATCH_OPTION
    counts, errors = score(frozenset({batch}) if batch is not None else None)
    total = counts["expected"]
    label = f"batch {batch}" if batch is not None else "development part"
    print(f"sentence splitter on the gold sentences inside prose blocks ({label}, Markdown reading)")
    print(f"  exact  {counts['exact']}/{total} = {counts['exact'] / total:.4f}" if total else "  no sentences")
    print(f"  split  {counts['split']}")
    print(f"  merged {counts['merged']}")
    if "--errors" in sys.argv:
        for line in errors:
            print(f"    {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
