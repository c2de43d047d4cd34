"""A user's own material, built from scratch in a temporary directory (never the bundled fixtures).

Each builder writes only what a user would write and returns the paths; the numbers in them are
chosen so that the tests can compute the expected values by hand (stated where they are used).

* :func:`write_benchmark` — an R02-style R03 benchmark with only the required files
  (``corpus.jsonl``, ``tasks.jsonl``, ``pool-key.json``, ``judgments.jsonl``, document and
  question vectors, ``baselines/dense.json`` and ``typed.json``); requirement vectors and
  ``baselines/published_coverage.json`` only when asked for.
* :func:`write_sandbox_inputs` — a five-document corpus, two topics, qrels, a supplied TREC run.
* :func:`write_notebook` — a notebook of code cells.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np


def _unit_rows(rng: np.random.Generator, n: int, dim: int) -> np.ndarray:
    rows = rng.normal(size=(n, dim))
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def _jsonl(path: Path, records: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def write_benchmark(root: Path, *, tasks: tuple[str, ...] = ("T1", "T2"), pool: int = 6, m: int = 3,
                    dim: int = 8, requirement_vectors: bool = True, published: bool = False,
                    first_id: int = 101, seed: int = 7) -> Path:
    """A benchmark directory: every task has ``m`` requirements and its own pool of ``pool``
    documents (ids ``first_id``…, consecutive across tasks); splits alternate final /
    development. Judgments: the pool's i-th document (0-based) has grades (i % 3, i % 3) and
    agreed obligation ``i % m + 1`` when i is even, none when odd. Dense baseline = the first
    five pool ids, typed = the last five."""
    rng = np.random.default_rng(seed)
    root.mkdir(parents=True, exist_ok=True)
    (root / "vectors").mkdir(exist_ok=True)
    (root / "baselines").mkdir(exist_ok=True)
    pools = {tid: list(range(first_id + t * pool, first_id + (t + 1) * pool)) for t, tid in enumerate(tasks)}
    doc_ids = [d for members in pools.values() for d in members]
    _jsonl(root / "corpus.jsonl", [{"doc_id": d, "title": f"doc {d}", "text": f"text of document {d}"}
                                   for d in doc_ids])
    _jsonl(root / "tasks.jsonl", [{"task_id": tid, "question": f"question of {tid}?",
                                   "requirements": [f"requirement {n} of {tid}" for n in range(1, m + 1)],
                                   "split": "final" if t % 2 == 0 else "development"}
                                  for t, tid in enumerate(tasks)])
    (root / "pool-key.json").write_text(json.dumps(pools), encoding="utf-8")
    judgments = []
    for tid, members in pools.items():
        for i, doc in enumerate(members):
            agreed = [i % m + 1] if i % 2 == 0 else []
            judgments.append({"task_id": tid, "doc_id": doc, "gradeA": i % 3, "gradeB": i % 3,
                              "obligationsA": agreed, "obligationsB": agreed})
    _jsonl(root / "judgments.jsonl", judgments)
    np.save(root / "vectors" / "documents.npy", _unit_rows(rng, len(doc_ids), dim))
    (root / "vectors" / "document_ids.json").write_text(json.dumps(doc_ids), encoding="utf-8")
    np.save(root / "vectors" / "questions.npy", _unit_rows(rng, len(tasks), dim))
    (root / "vectors" / "question_ids.json").write_text(json.dumps(list(tasks)), encoding="utf-8")
    if requirement_vectors:
        ids = [f"{tid}:{n}" for tid in tasks for n in range(1, m + 1)]
        np.save(root / "vectors" / "requirements.npy", _unit_rows(rng, len(ids), dim))
        (root / "vectors" / "requirement_ids.json").write_text(json.dumps(ids), encoding="utf-8")
    (root / "baselines" / "dense.json").write_text(json.dumps({t: p[:5] for t, p in pools.items()}))
    (root / "baselines" / "typed.json").write_text(json.dumps({t: p[-5:] for t, p in pools.items()}))
    if published:
        (root / "baselines" / "published_coverage.json").write_text(
            json.dumps({t: p[::-1][:5] for t, p in pools.items()}))
    return root


def write_sandbox_inputs(root: Path) -> dict[str, Path]:
    """Five documents, two topics, graded qrels and a supplied run (TREC), as a user writes them.

    BM25 on topic q1 ("apple pie") ranks a1 (both terms, twice 'apple'), then a2, a3 (one term
    each); the supplied run ranks a2 first.
    """
    root.mkdir(parents=True, exist_ok=True)
    docs = [("a1", "Apple pie", "apple pie with apple slices"), ("a2", "Apple", "an apple a day"),
            ("a3", "Pie", "pie crust recipe"), ("b1", "Rivers", "rivers flow to the sea"),
            ("b2", "Sea", "the sea is salty")]
    _jsonl(root / "corpus.jsonl", [{"doc_id": d, "title": t, "text": x, "source_type": "note", "license": "CC0"}
                                   for d, t, x in docs])
    _jsonl(root / "topics.jsonl", [{"topic_id": "q1", "query": "apple pie"},
                                   {"topic_id": "q2", "query": "salty sea"}])
    (root / "qrels.txt").write_text("q1 0 a1 2\nq1 0 a3 1\nq2 0 b2 1\n", encoding="utf-8")
    (root / "run.tsv").write_text("q1 Q0 a2 1 0.900000 mine\nq1 Q0 a1 2 0.800000 mine\nq1 Q0 b1 3 0.100000 mine\n"
                                  "q2 Q0 b1 1 0.700000 mine\nq2 Q0 b2 2 0.600000 mine\n", encoding="utf-8")
    (root / "run_metadata.json").write_text(json.dumps({"model_identity": "none", "values": "mine"}))
    return {"corpus": root / "corpus.jsonl", "topics": root / "topics.jsonl", "qrels": root / "qrels.txt",
            "dense_run": root / "run.tsv", "dense_metadata": root / "run_metadata.json"}


def sandbox_args(inputs: dict[str, Path], output: Path, log: Path, *extra: str) -> list[str]:
    """``sandbox run`` arguments for :func:`write_sandbox_inputs`' files (k 3, depth 5)."""
    return ["sandbox", "run", "--corpus", str(inputs["corpus"]), "--topics", str(inputs["topics"]),
            "--qrels", str(inputs["qrels"]), "--dense-run", str(inputs["dense_run"]),
            "--dense-metadata", str(inputs["dense_metadata"]), "--output", str(output),
            "--k", "3", "--candidate-depth", "5", "--log", str(log), *extra]


def write_notebook(path: Path, *sources: str) -> Path:
    """A notebook with one code cell per source."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(nbformat.writes(nb), encoding="utf-8")
    return path
