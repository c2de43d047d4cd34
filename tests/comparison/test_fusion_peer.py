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


@pytest.mark.parametrize("method, k", [("rrf", 60), ("rrf", 5), ("combsum", 60), ("combmnz", 60)])
def test_evaluate_fuse_equals_ranx(method, k):
    from engine.retrieval.fuse_runs import fuse_runs
    from engine.retrieval.trec_arrays import RunArrays

    rng = random.Random(11)
    runs = []
    for _ in range(3):
        rows = {}
        for t in ("q1", "q2", "q3"):
            chosen = rng.sample([f"d{i:02d}" for i in range(30)], rng.randint(3, 20))
            rows[t] = {d: s / 100.0 for d, s in zip(chosen, rng.sample(range(1, 10_000), len(chosen)))}
        runs.append(rows)
    arrays = [RunArrays.from_rows(*zip(*[(t, d, s) for t, docs in r.items() for d, s in docs.items()])) for r in runs]
    fused = fuse_runs(arrays, method, k)
    ours = {(fused.topics[t], fused.docs[d]): s
            for t, d, s in zip(fused.topic_code.tolist(), fused.doc_code.tolist(), fused.score.tolist())}
    name = {"combsum": "sum", "combmnz": "mnz"}.get(method, method)
    theirs = ranx.fuse(runs=[ranx.Run.from_dict(r) for r in runs], norm="min-max", method=name,
                       params={"k": k} if method == "rrf" else None).to_dict()
    assert set(ours) == {(t, d) for t, docs in theirs.items() for d in docs}
    for (t, d), value in ours.items():
        assert value == pytest.approx(theirs[t][d], abs=1e-12)


def test_evaluate_fuse_adds_the_fused_run_to_the_comparison(cli, tmp_path):
    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 b 2\n2 0 c 1\n")
    (tmp_path / "x").write_text("1 Q0 a 1 3 x\n1 Q0 b 2 2 x\n1 Q0 c 3 1 x\n2 Q0 c 1 2 x\n2 Q0 a 2 1 x\n")
    (tmp_path / "y").write_text("1 Q0 b 1 9 y\n1 Q0 d 2 8 y\n2 Q0 d 1 5 y\n2 Q0 c 2 4 y\n")
    result = cli("evaluate", "--qrels", tmp_path / "qrels", "--run", tmp_path / "x", "--run", tmp_path / "y",
                 "--fuse", "rrf", "--rrf-k", "60", "--measures", "RR,P@1", "--output", tmp_path / "out", "--log",
                 tmp_path / "log.jsonl", "--draws", "100")
    assert result.exit_code == 0, result.stderr
    metrics = json.loads((tmp_path / "out" / "metrics.json").read_text())
    # topic 1: b = 1/62 + 1/61 beats a = 1/61: b first; topic 2: c = 1/61 + 1/62 first
    assert metrics["runs"]["rrf"]["per_topic"]["1"]["P@1"] == 1.0 and metrics["runs"]["rrf"]["per_topic"]["2"]["RR"] == 1.0
    assert "rrf-minus-x" in json.loads((tmp_path / "out" / "comparison.json").read_text())["pairs"]
    bad = cli("evaluate", "--qrels", tmp_path / "qrels", "--run", tmp_path / "x", "--fuse", "rrf", "--output",
              tmp_path / "bad", "--log", tmp_path / "log.jsonl")
    assert bad.exit_code == 2 and "--fuse" in bad.stderr
