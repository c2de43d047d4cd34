"""Regenerate the document and question vectors of the bundled R03 mini benchmark.

Text rule (documented in engine/fixtures/r03_mini/README.md):

* document ``d``: ``title + ". " + text`` from ``corpus.jsonl``;
* question of task ``t``: the ``question`` string of ``tasks.jsonl``, unchanged.

Encoder: the project's pinned all-MiniLM-L6-v2 (``engine.encoder.encode``, EncoderConfig() defaults:
max 256 wordpieces, batch 16, threads 4/1, mean pooling, L2). Requirement vectors are *not*
shipped: ``r03 prepare`` computes them (each raw requirement string encoded individually).

Usage: ``python bench/design/make_r03_mini_vectors.py [FIXTURE_DIR]``
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from engine.encoder.encode import EncoderConfig, load_encoder
from engine.runs.hashing import dump_json


def main(root: Path) -> None:
    corpus = [json.loads(line) for line in (root / "corpus.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    tasks = [json.loads(line) for line in (root / "tasks.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    enc = load_encoder(EncoderConfig())
    doc_ids = [rec["doc_id"] for rec in corpus]
    doc_vecs = enc.encode([f"{rec['title']}. {rec['text']}" for rec in corpus])
    q_ids = [t["task_id"] for t in tasks]
    q_vecs = enc.encode([t["question"] for t in tasks])
    out = root / "vectors"
    out.mkdir(exist_ok=True)
    np.save(out / "documents.npy", doc_vecs.astype(np.float32), allow_pickle=False)
    (out / "document_ids.json").write_text(dump_json(doc_ids), encoding="utf-8")
    np.save(out / "questions.npy", q_vecs.astype(np.float32), allow_pickle=False)
    (out / "question_ids.json").write_text(dump_json(q_ids), encoding="utf-8")
    described = {k: v for k, v in enc.describe().items() if not k.endswith("_path")}
    (out / "PROVENANCE.json").write_text(dump_json({
        "documents": "title + '. ' + text, corpus.jsonl order",
        "questions": "question string, tasks.jsonl order",
        "requirements": "not shipped; computed by r03 prepare",
        "encoder": described,
    }), encoding="utf-8")
    print(f"wrote {len(doc_ids)} document and {len(q_ids)} question vectors to {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "engine" / "fixtures" / "r03_mini")
