"""Journeys on a user's own retrieval files: sandbox run → verify, evaluate, a copied project.

Inputs (userfiles.write_sandbox_inputs): qrels q1 a1 = 2, a3 = 1; q2 b2 = 1; the supplied run
ranks q1: a2, a1, b1 and q2: b1, b2. By hand, with gain 2^g − 1 and discount log2(rank + 1):
q1 Recall@3 = 1/2, nDCG@3 = (3/log2 3) / (3 + 1/log2 3) = 0.521296; q2 Recall@3 = 1,
nDCG@3 = 1/log2 3 = 0.630930; macro Recall@3 = 0.75, nDCG@3 = 0.576113. evaluate on the same
files: P@10 = 0.1 both topics, RR@10 = 0.5 both, AP = (1/2)/2 = 0.25 and 1/2 → 0.375.
"""

from __future__ import annotations

import json
import math
import shutil

import pytest
from commands import log_records, run_cli
from userfiles import sandbox_args, write_sandbox_inputs

Q1_NDCG = (3 / math.log2(3)) / (3 + 1 / math.log2(3))
Q2_NDCG = 1 / math.log2(3)
Q1_NDCG_LINEAR = (2 / math.log2(3)) / (2 + 1 / math.log2(3))   # evaluate's nDCG@10: gain = grade (ir_measures)

CLAIMS = """
[experiment.mine]
command = "sandbox run"
result = "metrics"
[experiment.mine.match]
k = 3

[[binding]]
id = "supplied-recall"
experiment = "mine"
quote = "macro Recall@3 of 0.75"
claimed = "0.75"
key = "macro.frozen_dense.recall@3"

[[binding]]
id = "supplied-ndcg"
experiment = "mine"
quote = "macro NDCG@3 of 0.576113"
claimed = "0.576113"
key = "macro.frozen_dense.ndcg@3"

[[binding]]
id = "bm25-ndcg-misprinted"
experiment = "mine"
quote = "BM25 reaches 0.95"
claimed = "0.95"
key = "macro.bm25.ndcg@3"
"""


def test_sandbox_run_then_verify_my_claims(tmp_path, cli):
    inputs = write_sandbox_inputs(tmp_path / "data")
    log, out = tmp_path / "log.jsonl", tmp_path / "runs" / "first"
    assert cli(*sandbox_args(inputs, out, log)).exit_code == 0
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["per_topic"]["frozen_dense"]["q1"]["ndcg@3"] == pytest.approx(Q1_NDCG, abs=1e-12)
    assert metrics["macro"]["frozen_dense"]["ndcg@3"] == pytest.approx((Q1_NDCG + Q2_NDCG) / 2, abs=1e-12)
    assert metrics["macro"]["frozen_dense"]["recall@3"] == 0.75
    assert not list((tmp_path / "runs").glob(".first*"))  # no staging directory or lock left
    claims = tmp_path / "chapter.claims.toml"
    claims.write_text(CLAIMS, encoding="utf-8")

    result = cli("verify", claims, "--log", log, "--format", "json", "--junit", tmp_path / "verify.xml")
    assert result.exit_code == 1  # one misprinted number
    verdicts = {v["id"]: v for v in json.loads(result.output)}
    assert {k: v["verdict"] for k, v in verdicts.items()} == {
        "supplied-recall": "MATCH", "supplied-ndcg": "MATCH", "bm25-ndcg-misprinted": "MISMATCH"}
    assert verdicts["bm25-ndcg-misprinted"]["reproduced"] == 1.0
    assert {v["run_id"] for v in verdicts.values()} == {log_records(log)[0]["run_id"]}
    junit = (tmp_path / "verify.xml").read_text()
    assert 'tests="3" failures="1"' in junit and 'type="MISMATCH"' in junit

    # verify --junit replaces its own earlier report (documented), never a file of the user's
    assert cli("verify", claims, "--log", log, "--junit", tmp_path / "verify.xml").exit_code == 1
    notes = tmp_path / "notes.xml"
    notes.write_text("<notes>mine</notes>")
    refused = cli("verify", claims, "--log", log, "--junit", notes)
    assert refused.exit_code == 3 and "not a chapter-audit JUnit report" in refused.output
    assert notes.read_text() == "<notes>mine</notes>"


def test_evaluate_my_trec_files(tmp_path, cli):
    inputs = write_sandbox_inputs(tmp_path / "data")
    log, out = tmp_path / "log.jsonl", tmp_path / "eval"
    result = cli("evaluate", "--qrels", inputs["qrels"], "--run", inputs["dense_run"], "--output", out, "--log", log)
    assert result.exit_code == 0, result.output
    macro = json.loads((out / "metrics.json").read_text())["runs"]["mine"]["macro"]   # named by its run tag
    assert macro["nDCG@10"] == pytest.approx((Q1_NDCG_LINEAR + Q2_NDCG) / 2, abs=1e-12)
    assert (macro["P@10"], macro["RR@10"], macro["R@100"]) == (pytest.approx(0.1), 0.5, 0.75)
    assert macro["AP@1000"] == pytest.approx(0.375, abs=1e-12)
    assert sorted(p.name for p in out.iterdir()) == ["comparison.json", "manifest.json", "metrics.json"]
    # the same evaluation into the same folder: same run, nothing else is touched
    assert cli("evaluate", "--qrels", inputs["qrels"], "--run", inputs["dense_run"], "--output", out,
               "--log", log).exit_code == 0
    # a file of the user's in that folder is never deleted by a re-run
    (out / "my-notes.txt").write_text("keep me")
    again = cli("evaluate", "--qrels", inputs["qrels"], "--run", inputs["dense_run"], "--output", out, "--log", log)
    assert again.exit_code == 3 and "my-notes.txt" in again.output
    assert (out / "my-notes.txt").read_text() == "keep me"
    assert [r["status"] for r in log_records(log)] == ["ok", "ok", "failed"]


PACK = """A user's own chapter pack, written for the journeys test.

== 1. Identity ==
Book:            Small Retrieval Notes
Chapter:         Apples and Seas
Chapter number:  1

== 2. Chapter text ==

Our two-topic sandbox compares BM25 with a supplied run at a cutoff of three.
The supplied run reaches macro Recall@3 of 0.75 and macro NDCG@3 of 0.576113 on the two topics.
"""


def test_a_copied_project_reports_from_its_own_runs(tmp_path):
    """A project folder (inputs, a sandbox run, its log, a claims file) is copied elsewhere and the
    original removed; `report` in the copy reads the copy's runs and writes only into the copy."""
    project = tmp_path / "project"
    inputs = write_sandbox_inputs(project / "data")
    rel = {name: path.relative_to(project) for name, path in inputs.items()}
    # the log at the project's root, so every output lies inside the log's directory
    assert run_cli(*sandbox_args(rel, "runs/sb", "log.jsonl"), cwd=project).returncode == 0
    (project / "chapter.txt").write_text(PACK, encoding="utf-8")
    (project / "chapter.claims.toml").write_text(CLAIMS.split("[[binding]]\nid = \"bm25")[0], encoding="utf-8")

    copy = tmp_path / "elsewhere" / "project-copy"
    shutil.copytree(project, copy)
    shutil.rmtree(project)
    done = run_cli("report", "chapter.txt", "--output", "report.md", "--claims", "chapter.claims.toml",
                   "--log", "log.jsonl", "--offline", "--no-search", "--date", "2026-12-01", cwd=copy)
    assert done.returncode == 0, done.stderr
    assert not project.exists()  # nothing was written back to where the project was
    report = (copy / "report.md").read_text(encoding="utf-8")
    assert "Apples and Seas" in report and "0.576113" in report
    (record,) = log_records(copy / "log.jsonl")
    assert not any(__import__("os").path.isabs(p) for p in record["outputs"])  # relocatable record
    assert "2/2 bound numbers match" in done.stdout
