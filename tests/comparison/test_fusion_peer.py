"""RRF, CombSUM and CombMNZ (engine.retrieval.fusion, and the sandbox's ``--fusion``) against
ranx's ``fuse`` (ranx 0.3: ``method="rrf"`` with ``params={"k": ...}``, ``"sum"`` (CombSUM) and
``"mnz"`` (CombMNZ) with ``norm="min-max"``). Lists without score ties, so that no tie rule is
involved; values to 1e-12 (the sandbox's written runs: to their 9 decimals)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

ranx = pytest.importorskip("ranx")

from engine.retrieval.fusion import comb_mnz, comb_sum, fuse_arrays, reciprocal_rank_fusion  # noqa: E402

L03 = Path(__file__).resolve().parents[2] / "engine" / "fixtures" / "l03"


def lists(seed: int):
    rng = random.Random(seed)
    docs = [f"d{i:02d}" for i in range(40)]
    out = []
    for _ in range(3):
        chosen = rng.sample(docs, rng.randint(5, 30))
        scores = rng.sample(range(1, 10_000), len(chosen))       # distinct: no ties
        out.append(sorted(((d, s / 100.0) for d, s in zip(chosen, scores)), key=lambda x: -x[1]))
    return out


def peer(runs, method: str, **params):
    ranx_runs = [ranx.Run.from_dict({"q": dict(r)}) for r in runs]
    name = {"combsum": "sum", "combmnz": "mnz"}.get(method, method)      # ranx's names
    fused = ranx.fuse(runs=ranx_runs, norm="min-max", method=name, params=params or None)
    return fused.to_dict()["q"]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("k", [60, 10])
def test_rrf_equals_ranx(seed, k):
    runs = lists(seed)
    ours = dict(reciprocal_rank_fusion(runs, k))
    theirs = peer(runs, "rrf", k=k)
    assert set(ours) == set(theirs)
    for doc, value in theirs.items():
        assert ours[doc] == pytest.approx(value, abs=1e-12)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("method, function", [("combsum", comb_sum), ("combmnz", comb_mnz)])
def test_combsum_and_combmnz_equal_ranx(seed, method, function):
    runs = lists(seed)
    ours = dict(function(runs))
    theirs = peer(runs, method)
    assert set(ours) == set(theirs)
    for doc, value in theirs.items():
        assert ours[doc] == pytest.approx(value, abs=1e-12)


@pytest.mark.parametrize("method", ["rrf", "combsum", "combmnz"])
def test_the_array_form_equals_the_list_form(method):
    runs = lists(7)
    ids = sorted({d for r in runs for d, _ in r})
    code = {d: i for i, d in enumerate(ids)}
    parts = [(np.array([code[d] for d, _ in r]), np.array([s for _, s in r]), np.arange(1, len(r) + 1)) for r in runs]
    union, fused = fuse_arrays(method, parts, 60)
    expected = dict({"rrf": lambda: reciprocal_rank_fusion(runs, 60), "combsum": lambda: comb_sum(runs),
                     "combmnz": lambda: comb_mnz(runs)}[method]())
    assert {ids[p]: v for p, v in zip(union.tolist(), fused.tolist())} == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize("method", ["rrf", "combsum", "combmnz"])
def test_sandbox_fusion_equals_ranx_on_its_written_runs(cli, tmp_path, method):
    out = tmp_path / "out"
    result = cli("sandbox", "run", "--corpus", L03 / "corpus.jsonl", "--topics", L03 / "topics.jsonl", "--qrels",
                 L03 / "qrels.txt", "--dense-run", L03 / "supplied_run.tsv", "--dense-metadata",
                 L03 / "supplied_run_metadata.json", "--output", out, "--log", tmp_path / "log.jsonl",
                 "--fusion", method, "--rrf-k", "60")
    assert result.exit_code == 0, result.stderr

    def read(name):
        rows: dict[str, list[tuple[str, float]]] = {}
        for line in (out / "runs" / f"{name}.tsv").read_text().splitlines():
            topic, _, doc, _, score, _ = line.split()
            rows.setdefault(topic, []).append((doc, float(score)))
        return rows

    bm25, supplied, hybrid = read("bm25"), read("frozen_dense"), read("hybrid")
    rankings = json.loads((out / "rankings.json").read_text())
    assert "hybrid (" in rankings["methods"]["hybrid"] and method[:4].lower() in rankings["methods"]["hybrid"].lower() \
        or method == "rrf" and "reciprocal rank fusion, k=60" in rankings["methods"]["hybrid"]
    for topic in hybrid:
        # the components unrounded (rankings.json), so the peer sees what the sandbox fused
        components = [sorted(rankings["scores"][m][topic].items(), key=lambda x: (-x[1], x[0]))
                      for m in ("bm25", "frozen_dense")]
        theirs = peer(components, method, **({"k": 60} if method == "rrf" else {}))
        assert {d for d, _ in hybrid[topic]} == set(theirs)
        for doc, value in hybrid[topic]:
            assert value == pytest.approx(theirs[doc], abs=5e-10)
    assert bm25 and supplied
