"""Every attribution error of development documents, in full (issue 19; claims/attribution.py).

Run: ``.venv/bin/python bench/bench_attribution_errors.py [--batch N]`` lists, for the Markdown
reading of the development part (of batch N only when given), each labelled sentence whose
attribution the rules miss (``FN``) or give wrongly (``FP``), and each credited name they do not
find (``NAME``), with the row's cue and cited names. bench/bench_claims_quality.py ``--errors``
cuts a sentence at 90 characters; tuning needs all of it. Held-out documents are never read
here: the part is fixed to ``development``.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_claims_quality import (corpus_document, corpus_documents, corpus_labels, is_attributed,  # noqa: E402
                                  matchable, normalise)
from claims.extract import TABLE_VALUE, claims_from_document  # noqa: E402
from sources.names import fold  # noqa: E402


def errors(batches: frozenset[int] | None = None) -> list[str]:
    """One line per attribution error of the development part (module docstring)."""
    out = []
    for document in corpus_documents("development", batches):
        doc = corpus_document(document, "markdown")
        rows = [r for r in claims_from_document(doc) if r.kind != TABLE_VALUE]
        texts = [matchable(normalise(r.text)) for r in rows]
        for label in corpus_labels(document):
            text = matchable(normalise(label["text"]))
            chosen = ([i for i, t in enumerate(texts) if t == text][:1]
                      or [i for i, t in enumerate(texts) if text in t][:1]
                      or [i for i, t in enumerate(texts) if t in text and len(t) > 3])
            flag = any(is_attributed(rows[i]) for i in chosen)
            cues = "; ".join(rows[i].cue for i in chosen)
            names = [n for i in chosen for n in rows[i].cited_names]
            where = f"{document['id']}: {label['text']!r}"
            if flag != label["attribution"]:
                out.append(f"{'FN' if label['attribution'] else 'FP'} {where}\n     gold {label['cited']} "
                           f"got {names} ({cues})")
            elif flag and label["cited"]:
                folded = [fold(n) for n in names]
                for name in label["cited"]:
                    if not any(fold(name).replace(" et al.", "") in n or n in fold(name) for n in folded if n):
                        out.append(f"NAME {name!r} not in {names}: {where}")
    return out


def main() -> int:
    batches = frozenset({int(sys.argv[sys.argv.index("--batch") + 1])}) if "--batch" in sys.argv else None
    lines = errors(batches)
    for line in lines:
        print(line)
    print(f"{sum(line.startswith('FN') for line in lines)} missed, {sum(line.startswith('FP') for line in lines)} "
          f"false, {sum(line.startswith('NAME') for line in lines)} names missed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
