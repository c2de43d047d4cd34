"""Regenerate the small hand-controlled budget fixtures in this directory (deterministic).

Unit text = title + LF + text (text alone when the title is empty); lengths in codepoints.
Run: ``python tests/data/budget/make_data.py``. Expected values are derived by hand in
tests/test_budget_run.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
WORDS = ("alpha-synuclein aggregation in dopaminergic neurons — résumé of cohort evidence; "
         "the trial reported outcomes at twelve months ").split()

# doc id -> (title, unit length in codepoints); title "" means text alone
DOCS = {
    "12": ("Exercise and Parkinson's disease progression", 1108),
    "5": ("α-synuclein seeding in the enteric nervous system", 1298),
    "9": ("", 500),
    "a": ("Statin therapy A", 300), "b": ("Statin therapy B", 300),
    "c": ("Vitamin D and fractures", 300), "d": ("Sleep duration and memory", 300),
    "e": ("Budget E", 600), "g": ("Budget G", 599), "f": ("Budget F", 598),
    "x": ("", 1500), "y": ("Long Y", 1201),
    **{f"p{i:02d}": (f"Short {i}", 100) for i in range(1, 12)},
}

VECTORS = {
    "12": (1, 0, 0, 0), "5": (0, 1, 0, 0), "9": (0, 0, 1, 0),
    "a": (1, 0, 0, 0), "b": (0.99, float(np.sqrt(1 - 0.99 ** 2)), 0, 0),
    "c": (0, 0, 3, 0),                      # not unit length: normalised with a warning
    "d": (-0.6, 0.8, 0, 0),                 # negative cosine with a: redundancy max(0, cos) = 0
    "e": (0, 0, 0, 1), "g": (0, 1, 0, 0), "f": (1, 0, 0, 0),
    "x": (1, 1, 0, 0), "y": (0, 1, 1, 0),   # not unit length either
    **{f"p{i:02d}": (0.5, 0.5, 0.5, 0.5) for i in range(1, 12)},
}

RUN = [  # topic doc score (file order deliberately not the ranked order)
    ("1337", "12", 9.0), ("1337", "9", 7.0), ("1337", "5", 8.0),
    ("2", "a", 4.0), ("2", "b", 3.0), ("2", "c", 2.0), ("2", "d", 1.0),
    ("3", "e", 3.0), ("3", "g", 2.0), ("3", "f", 1.0),
    ("4", "x", 2.0), ("4", "y", 1.0),
    ("5", "p01", 20.0), ("5", "p03", 19.0), ("5", "p02", 19.0),   # tie: p02 before p03
    *[("5", f"p{i:02d}", 21.0 - i) for i in range(4, 12)],
    ("5", "p12", 1.0),                                            # rank 12: beyond depth 10, not in corpus
]

QRELS = [("1337", "5", 1), ("1337", "12", 0), ("2", "c", 1), ("2", "d", 2), ("3", "g", 1),
         ("4", "y", 0), ("4", "z", 1), ("5", "p04", 1), ("5", "p11", 1)]


def text_of(length: int) -> str:
    out, i = "", 0
    while len(out) < length:
        out = f"{out} {WORDS[i % len(WORDS)]}" if out else WORDS[0]
        i += 1
    return out[:length]


def main() -> None:
    lines = []
    for doc, (title, length) in DOCS.items():
        body = text_of(length - (len(title) + 1 if title else 0))
        record = {"_id": doc, "title": title, "text": body} if doc != "9" else {"_id": doc, "text": body}
        unit = f"{title}\n{body}" if title else body
        assert len(unit) == length, (doc, len(unit), length)
        lines.append(json.dumps(record, ensure_ascii=False))
    (HERE / "corpus.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    ids = sorted(VECTORS, reverse=True)  # any order: the ids file aligns rows
    np.save(HERE / "vectors.npy", np.array([VECTORS[d] for d in ids], dtype=np.float32))
    (HERE / "vector_ids.txt").write_text("\n".join(ids) + "\n", encoding="utf-8")
    (HERE / "candidates.tsv").write_text(
        "".join(f"{t} Q0 {d} {r} {s:.4f} fixture\n" for r, (t, d, s) in enumerate(RUN, start=1)), encoding="utf-8")
    (HERE / "qrels.txt").write_text("".join(f"{t} 0 {d} {g}\n" for t, d, g in QRELS), encoding="utf-8")


if __name__ == "__main__":
    main()
