"""Our NDCG@k against ranx ``ndcg_burges@k`` (gain 2^g − 1, discount log2(rank + 1)).

ranx stores qrels grades as integers: a grade of 2.5 is silently truncated to 2 (asserted
below, so a change in ranx is noticed). The peer comparison therefore uses integer grades;
non-integer grades are checked by hand in tests/test_metrics.py. Runs are handed to ranx
with strictly decreasing scores so that its ordering equals ours (no tie rule involved).
"""

from __future__ import annotations

import random
import warnings

import pytest

ranx = pytest.importorskip("ranx")

from engine.retrieval.metrics import ndcg_at_k  # noqa: E402


def ranx_ndcg(judged: dict[str, int], ranking: list[str], k: int) -> float:
    qrels = ranx.Qrels({"q": judged})
    run = ranx.Run({"q": {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(ranx.evaluate(qrels, run, f"ndcg_burges@{k}"))


def cases(seed: int, n: int):
    rng = random.Random(seed)
    docs = [f"d{i:02d}" for i in range(30)]
    for _ in range(n):
        judged_docs = rng.sample(docs, rng.randint(1, 8))
        judged = {d: rng.randint(0, 3) for d in judged_docs}
        if not any(judged.values()):
            judged[judged_docs[0]] = rng.randint(1, 3)
        others = [d for d in docs if d not in judged]
        ranking = rng.sample(judged_docs, rng.randint(0, len(judged_docs))) + rng.sample(others, rng.randint(1, 12))
        rng.shuffle(ranking)
        yield judged, ranking, rng.choice([1, 3, 5, 10])


def test_ndcg_equals_ranx_on_random_integer_cases():
    compared = 0
    for judged, ranking, k in cases(2024, 300):
        ours = ndcg_at_k(ranking, {d: float(g) for d, g in judged.items()}, k)
        assert ours == pytest.approx(ranx_ndcg(judged, ranking, k), abs=1e-12)
        compared += ours > 0
    assert compared > 100


@pytest.mark.parametrize("ranking, expected", [
    (["D-001", "D-004", "D-002"], 0.955831),
    (["D-002", "D-001", "D-004"], None),
])
def test_w03_t01_against_ranx(ranking, expected):
    judged = {"D-001": 3, "D-002": 2}
    ours = ndcg_at_k(ranking, {d: float(g) for d, g in judged.items()}, 3)
    assert ours == pytest.approx(ranx_ndcg(judged, ranking, 3), abs=1e-12)
    if expected is not None:
        assert round(ours, 6) == expected


def test_ranx_truncates_non_integer_grades():
    truncated = ranx_ndcg({"a": 2.5, "b": 1}, ["b", "a"], 2)
    assert truncated == pytest.approx(ndcg_at_k(["b", "a"], {"a": 2.0, "b": 1.0}, 2), abs=1e-12)
    assert truncated != pytest.approx(ndcg_at_k(["b", "a"], {"a": 2.5, "b": 1.0}, 2), abs=1e-6)
