"""Claim-row quality on the labelled evaluation set (tests/data/labelled/), and the seed-002 checks.

Run: ``.venv/bin/python bench/bench_claims_quality.py``

The labelled set is our own prose imitating real posts: front matter (YAML and TOML), fenced and
indented code with logs in it, tables with group rows, display and inline math, numbered lists
with bold lead-ins, footnotes, HTML, images, and a flattened plain-text pack with a glued
heading, a flattened table and a formula line. Each ``<name>.gold.toml`` lists every prose
sentence and every numeric table cell of ``<name>.md``/``.txt`` with its gold kind.

Printed:

* per kind: predicted, gold, correct, precision and recall (a row is correct when its text is a
  gold row's text exactly and the kinds agree);
* non-prose rows: predicted rows whose text is not a gold row (code, headings, front matter,
  merged headings/tables/formulas, split fragments all land here);
* the sentence splitters compared on the gold sentences of the prose blocks (exact sentences
  found / gold sentences), for each library that is installed;
* the seed-002 checks (recovered headings as section paths; no merged heading, table or formula
  row), when the seed is present.

Goals (issue 9): 0 non-prose rows; measured-result precision >= 0.95 and recall >= 0.90.
The ``heldout_*`` documents were written after the rules were frozen and are also scored alone;
their first score, before the fixes they prompted, is recorded in the README. The other
documents were written while the rules were developed, so their figures are optimistic.
"""

from __future__ import annotations

import os
import sys
import tomllib
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from audit.document import document_from_pack  # noqa: E402
from audit.pack import load_pack  # noqa: E402
from claims.extract import KINDS, MEASURED, extract_claims, sentence_spans  # noqa: E402

LABELLED = REPO / "tests" / "data" / "labelled"
SEEDS = Path(os.environ.get("CHAPTER_AUDIT_SEEDS_DIR", REPO.parent.parent / "shared" / "seeds"))


def labelled_documents() -> list[tuple[Path, list[dict]]]:
    out = []
    for gold in sorted(LABELLED.glob("*.gold.toml")):
        stem = gold.name[: -len(".gold.toml")]
        document = next(p for p in LABELLED.iterdir() if p.stem == stem and not p.name.endswith(".toml"))
        out.append((document, tomllib.loads(gold.read_text(encoding="utf-8"))["row"]))
    return out


def score(prefix: str = "") -> dict:
    """Per-kind counts, the non-prose rows and the missed gold rows (documents named ``prefix*``)."""
    predicted, gold_count, correct = Counter(), Counter(), Counter()
    non_prose: list[str] = []
    missed: list[str] = []
    wrong: list[str] = []
    for document, gold_rows in labelled_documents():
        if not document.name.startswith(prefix):
            continue
        gold = {row["text"]: row["kind"] for row in gold_rows}
        rows = extract_claims(load_pack(document))
        seen = set()
        for row in rows:
            predicted[row.kind] += 1
            seen.add(row.text)
            if row.text not in gold:
                non_prose.append(f"{document.name}: {row.claim_id} {row.text!r}")
            elif gold[row.text] == row.kind:
                correct[row.kind] += 1
            else:
                wrong.append(f"{document.name}: {row.text[:70]!r} predicted {row.kind!r}, gold {gold[row.text]!r}")
        for text, kind in gold.items():
            gold_count[kind] += 1
            if text not in seen:
                missed.append(f"{document.name}: {text!r}")
    return {"predicted": predicted, "gold": gold_count, "correct": correct, "non_prose": non_prose,
            "missed": missed, "wrong": wrong}


def _splitters() -> dict:
    splitters = {"sentencex + guards (ours)": lambda text, protected=(): [
        text[s:e] for s, e in sentence_spans(text, protected)]}
    try:
        import sentencex

        splitters["sentencex alone"] = lambda text: [p.strip() for p in sentencex.segment("en", text) if p.strip()]
    except ImportError:  # pragma: no cover - optional comparison
        pass
    try:
        import pysbd

        segmenter = pysbd.Segmenter(language="en", clean=False)
        splitters["pysbd"] = lambda text: [p.strip() for p in segmenter.segment(text) if p.strip()]
    except ImportError:  # pragma: no cover
        pass
    try:
        import syntok.segmenter as syntok

        splitters["syntok"] = lambda text: [
            "".join(t.spacing + t.value for t in sentence).strip()
            for paragraph in syntok.analyze(text) for sentence in paragraph]
    except ImportError:  # pragma: no cover
        pass
    return splitters


def splitter_scores() -> dict[str, tuple[int, int]]:
    """For each splitter: (gold sentences produced exactly, gold sentences), over prose blocks."""
    cases = []
    for document, gold_rows in labelled_documents():
        gold = {row["text"] for row in gold_rows if row["kind"] != "table value"}
        for block in document_from_pack(load_pack(document)).prose_blocks():
            protected = block.math_spans + (((0, block.lead_in + 1),) if block.lead_in else ())
            cases.append((block.text, protected, {g for g in gold if g in block.text}))
    results = {}
    for name, split in _splitters().items():
        found = 0
        for text, protected, expected in cases:
            pieces = split(text, protected) if name.endswith("(ours)") else split(text)
            found += len(expected & set(pieces))
            if os.environ.get("SHOW_MISSES"):
                for miss in sorted(expected - set(pieces)):
                    print(f"    {name}: missed {miss!r}")
        results[name] = (found, sum(len(expected) for _, _, expected in cases))
    return results


def seed_checks() -> list[str]:
    path = next(iter(sorted(SEEDS.glob("002_*.txt"))), None) if SEEDS.is_dir() else None
    if path is None:
        return ["seed 002 not found: skipped"]
    rows = extract_claims(load_pack(path))
    sections = sorted({r.section_path for r in rows if r.section_path})
    merged = [r.claim_id for r in rows if any(marker in r.text for marker in (
        "State the resource before comparing methods", "Separate redundancy from relevance",
        "Observe the price of the cap", "Selector Unit cap", "Selector Mean units", "marginal ="))]
    return [f"section paths: {sections}", f"rows merging a heading, table or formula: {len(merged)} {merged}",
            f"table-value rows: {sum(1 for r in rows if r.kind == 'table value')}"]


def main() -> int:
    result = score()
    print("Claim rows on the labelled set "
          f"({len(labelled_documents())} documents, {sum(result['gold'].values())} gold rows)")
    print(f"{'kind':<22} {'predicted':>9} {'gold':>5} {'correct':>7} {'precision':>9} {'recall':>6}")
    for kind in KINDS:
        p, g, c = result["predicted"][kind], result["gold"][kind], result["correct"][kind]
        precision = f"{c / p:.3f}" if p else "n/a"
        recall = f"{c / g:.3f}" if g else "n/a"
        print(f"{kind:<22} {p:>9} {g:>5} {c:>7} {precision:>9} {recall:>6}")
    print(f"non-prose rows: {len(result['non_prose'])}")
    for line in result["non_prose"]:
        print(f"  {line}")
    print(f"gold rows missed: {len(result['missed'])}")
    for line in result["missed"]:
        print(f"  {line}")
    for line in result["wrong"]:
        print(f"  kind: {line}")
    held = score("heldout")
    hp, hg, hc = held["predicted"][MEASURED], held["gold"][MEASURED], held["correct"][MEASURED]
    print(f"held out (heldout_*, written after the rules were frozen; three fixes followed, see README): measured result "
          f"precision {hc / hp:.3f} ({hc}/{hp}), recall {hc / hg:.3f} ({hc}/{hg}); "
          f"non-prose rows {len(held['non_prose'])}")
    print("sentence splitters on the gold sentences of the prose blocks:")
    for name, (found, total) in splitter_scores().items():
        print(f"  {name:<28} {found}/{total} = {found / total:.3f}")
    print("seed 002:")
    for line in seed_checks():
        print(f"  {line}")
    p, g, c = result["predicted"][MEASURED], result["gold"][MEASURED], result["correct"][MEASURED]
    met = not result["non_prose"] and p and c / p >= 0.95 and g and c / g >= 0.90
    print(f"goals (0 non-prose rows; measured result precision >= 0.95, recall >= 0.90): "
          f"{'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
