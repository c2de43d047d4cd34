"""`sandbox run --workers/--scheduler`: BM25 on index shards gives the serial run's bytes
(engine/retrieval/sandbox_shards.py; check_sandbox_on_workers runs on the 2-worker LocalCluster
of tests/test_executor.py).

Two collections: the bundled L03 fixture and a generated one of 2,400 documents in which every
ninth document has a twin under a later id (in a later shard), so equal BM25 scores straddle
shard boundaries and the written runs' order among them is decided by the tie rule (score as
written descending, then document id ascending). Every output but the manifest is compared
byte for byte; the manifest adds only ``executor`` and ``tasks``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from engine.retrieval.sandbox import SandboxInputs, SandboxParameters, run_sandbox
from engine.retrieval.sandbox_shards import shard_bounds
from engine.runs.errors import InputError
from engine.runs.executor import Executor
from engine.runs.hashing import sha256_json

REPO = Path(__file__).resolve().parents[1]
L03 = REPO / "engine" / "fixtures" / "l03"
OUTPUTS = ["runs/bm25.tsv", "runs/frozen_dense.tsv", "runs/hybrid.tsv", "runs/reranked.tsv", "metrics.json",
           "topic_error_analysis.csv", "stage_boundary.json", "index_summary.json", "rankings.json"]
WORDS = [f"w{i}" for i in range(150)]


def generated(directory: Path) -> Path:
    """2,400 documents (2,160 drawn, then 240 twins), 12 topics, qrels and a supplied run with ties."""
    directory.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(23)
    weights = 1.0 / np.arange(1, len(WORDS) + 1)
    weights /= weights.sum()
    docs = []
    for i in range(2160):
        text = " ".join(rng.choice(WORDS, size=int(rng.integers(4, 50)), p=weights))
        docs.append({"doc_id": f"d{i:05d}", "title": f"w{i % 150}", "text": text, "source_type": "x", "license": "CC0"})
    docs += [{**docs[i], "doc_id": f"t{i:05d}"} for i in range(0, 2160, 9)]
    (directory / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    topics = [" ".join(rng.choice(WORDS[:60], size=int(rng.integers(1, 5)))) for _ in range(11)] + ["w0 w0 w1"]
    (directory / "topics.jsonl").write_text(
        "".join(json.dumps({"topic_id": f"q{t:02d}", "query": q}) + "\n" for t, q in enumerate(topics)))
    qrels, run = [], []
    for t in range(len(topics)):
        for doc in rng.choice(len(docs), size=4, replace=False):
            qrels.append(f"q{t:02d} 0 {docs[doc]['doc_id']} {int(rng.integers(1, 3))}\n")
        for rank, doc in enumerate(rng.choice(len(docs), size=40, replace=False), start=1):
            run.append(f"q{t:02d} Q0 {docs[doc]['doc_id']} {rank} {0.9 - 0.01 * (rank // 3):.6f} authored\n")
    (directory / "qrels.txt").write_text("".join(qrels))
    (directory / "supplied_run.tsv").write_text("".join(run))
    (directory / "supplied_run_metadata.json").write_text('{"model_identity": "none", "values": "authored"}\n')
    return directory


def sandbox_inputs(fixture: Path) -> SandboxInputs:
    return SandboxInputs(fixture / "corpus.jsonl", fixture / "topics.jsonl", fixture / "qrels.txt",
                         fixture / "supplied_run.tsv", fixture / "supplied_run_metadata.json")


def files(directory: Path) -> dict[str, bytes]:
    return {name: (directory / name).read_bytes() for name in OUTPUTS}


def manifest_of(directory: Path) -> dict:
    return json.loads((directory / "run_manifest.json").read_text())


def test_shard_bounds_by_document_order():
    assert shard_bounds(10, 3) == [(0, 4), (4, 7), (7, 10)]
    assert shard_bounds(2, 5) == [(0, 1), (1, 2)]
    assert shard_bounds(7, 1) == [(0, 7)]


@pytest.mark.parametrize("shards", [1, 3, 7])
def test_generated_collection_on_shards_is_the_serial_bytes(tmp_path, shards):
    fixture = generated(tmp_path / "in")
    params = SandboxParameters(run_depth=1000)
    run_sandbox(sandbox_inputs(fixture), tmp_path / "serial", params, log=tmp_path / "log.jsonl")
    run_sandbox(sandbox_inputs(fixture), tmp_path / "sharded", params, log=tmp_path / "log.jsonl",
                executor=Executor(), shards=shards)
    serial, sharded = files(tmp_path / "serial"), files(tmp_path / "sharded")
    assert sharded == serial
    # the case really has equal BM25 scores, including at the written depth of 1000 rows
    rows = [line.split() for line in serial["runs/bm25.tsv"].decode().splitlines()]
    assert len(rows) > 3000 and len({(r[0], r[4]) for r in rows}) < len(rows)
    m1, m2 = manifest_of(tmp_path / "serial"), manifest_of(tmp_path / "sharded")
    assert m1["run_id"] == m2["run_id"] and "executor" not in m1 and "tasks" not in m1
    assert {k: v for k, v in m2.items() if k not in ("executor", "tasks", "created_at")} == \
        {k: v for k, v in m1.items() if k != "created_at"}
    assert [t["documents"] for t in m2["tasks"]] == [b - a for a, b in shard_bounds(2400, shards)]
    assert {t["topics"] for t in m2["tasks"]} == {12}
    assert m2["executor"] == {"kind": "serial", "workers": 1}


def test_topic_blocks_give_the_same_bytes(tmp_path, monkeypatch):
    from engine.retrieval import sandbox_shards

    fixture = generated(tmp_path / "in")
    params = SandboxParameters(k=5, candidate_depth=10, run_depth=50, fusion="rrf")
    run_sandbox(sandbox_inputs(fixture), tmp_path / "serial", params, log=tmp_path / "log.jsonl")
    monkeypatch.setattr(sandbox_shards, "TOPICS_PER_TASK", 5)   # 12 topics: blocks of 5, 5 and 2
    run_sandbox(sandbox_inputs(fixture), tmp_path / "sharded", params, log=tmp_path / "log.jsonl",
                executor=Executor(), shards=3)
    assert files(tmp_path / "sharded") == files(tmp_path / "serial")
    tasks = manifest_of(tmp_path / "sharded")["tasks"]
    assert [(t["task"], t["topics"]) for t in tasks][::3] == [
        ("bm25-topics-000000-shard-0000", 5), ("bm25-topics-000005-shard-0000", 5),
        ("bm25-topics-000010-shard-0000", 2)]
    assert len(tasks) == 9 and len({t["input_sha256"] for t in tasks}) == 9


def test_a_shard_index_is_the_whole_index_restricted_to_its_range(tmp_path):
    import gzip

    from engine.retrieval.corpus import read_corpus_index
    from engine.retrieval.sandbox_shards import read_corpus_range

    lines = ["\ufeff" + json.dumps({"_id": 7, "text": "alpha beta beta"}), "", json.dumps({"_id": "b", "title": "Beta",
             "text": "gamma"}), "   ", json.dumps({"_id": "c", "text": "alpha alpha delta"}),
             json.dumps({"_id": "d", "title": None, "text": "beta delta"})]
    path = tmp_path / "corpus.jsonl.gz"
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf-8")))
    whole = read_corpus_index(path)
    assert whole.doc_ids == ("7", "b", "c", "d")
    for start, stop in [(0, 4), (1, 3), (2, 4), (3, 4)]:
        shard = read_corpus_range(path, start, stop)
        assert shard.doc_ids == whole.doc_ids[start:stop]
        assert shard.doc_lengths.tolist() == whole.doc_lengths[start:stop].tolist()
        for token in whole.vocabulary:
            assert shard.postings(token) == [(d, f) for d, f in whole.postings(token) if d in shard.doc_ids]
    assert read_corpus_range(path, 1, 3).postings("beta") == [("b", 1)]   # the title counts


def test_a_worker_reading_other_documents_is_an_error(tmp_path, monkeypatch):
    from engine.retrieval import sandbox_shards

    fixture = generated(tmp_path / "in")
    real = sandbox_shards.score_shard

    def changed(task):
        result = real(task)
        return {**result, "doc_ids_sha256": sha256_json(["not", "these"])}

    monkeypatch.setattr(sandbox_shards, "score_shard", changed)
    with pytest.raises(InputError, match=r"documents 0\.\.1199 read by a worker differ"):
        run_sandbox(sandbox_inputs(fixture), tmp_path / "out", SandboxParameters(), log=tmp_path / "log.jsonl",
                    executor=Executor(), shards=2)
    assert not (tmp_path / "out").exists()


class ChangingCorpus(Executor):
    """A serial executor that rewrites the corpus (one word of one text) before its tasks run."""

    def __init__(self, corpus: Path) -> None:
        super().__init__()
        self.corpus = corpus

    def imap(self, fn, items, window=None):
        text = self.corpus.read_text()
        self.corpus.write_text(text.replace(' w1 ', ' w2 ', 1))
        return super().imap(fn, items, window)


def test_a_corpus_changed_before_the_workers_read_it_is_an_error(tmp_path):
    fixture = generated(tmp_path / "in")
    with pytest.raises(InputError, match=r"corpus.jsonl: the corpus a worker reads has sha256 \w{12}…, not this run's"):
        run_sandbox(sandbox_inputs(fixture), tmp_path / "out", SandboxParameters(), log=tmp_path / "log.jsonl",
                    executor=ChangingCorpus(fixture / "corpus.jsonl"), shards=2)
    assert not (tmp_path / "out").exists()


def cli_args(fixture: Path, output: Path, log: Path, *extra: str) -> list[str]:
    return ["sandbox", "run", "--corpus", str(fixture / "corpus.jsonl"), "--topics", str(fixture / "topics.jsonl"),
            "--qrels", str(fixture / "qrels.txt"), "--dense-run", str(fixture / "supplied_run.tsv"),
            "--dense-metadata", str(fixture / "supplied_run_metadata.json"), "--output", str(output),
            "--log", str(log), *extra]


def test_workers_without_the_extra_is_one_line_naming_it(tmp_path, monkeypatch):
    import builtins

    from cli import app

    real = builtins.__import__

    def no_distributed(name, *args, **kwargs):
        if name == "distributed" or name.startswith("distributed."):
            raise ImportError("No module named 'distributed'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_distributed)
    result = CliRunner().invoke(app, cli_args(L03, tmp_path / "out", tmp_path / "log.jsonl", "--workers", "2"))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "optional extra [distributed]" in lines[0] \
        and "pip install 'chapter-audit[distributed]'" in lines[0]
    assert not (tmp_path / "out").exists()


def test_bad_workers_is_exit_2(tmp_path):
    from cli import app

    result = CliRunner().invoke(app, cli_args(L03, tmp_path / "out", tmp_path / "log.jsonl", "--workers", "0"))
    assert result.exit_code == 2 and "--workers" in result.output and "from 1 to 1024" in result.output
    assert not (tmp_path / "out").exists()


def check_sandbox_on_workers(tmp_path: Path, scheduler: str) -> None:
    """Called by tests/test_executor.py with the address of its 2-worker LocalCluster: the L03
    fixture and the generated collection, serial and on the cluster, through the command line."""
    from cli import app

    for name, fixture in (("l03", L03), ("generated", generated(tmp_path / "in"))):
        log = tmp_path / f"{name}.jsonl"
        for mode, extra in (("serial", ()), ("dask", ("--scheduler", scheduler))):
            result = CliRunner().invoke(app, cli_args(fixture, tmp_path / name / mode, log, *extra))
            assert result.exit_code == 0, result.output
        serial, dask = tmp_path / name / "serial", tmp_path / name / "dask"
        assert files(dask) == files(serial), name
        m1, m2 = manifest_of(serial), manifest_of(dask)
        assert m1["run_id"] == m2["run_id"]
        assert m2["executor"]["kind"] == "dask" and m2["executor"]["workers"] == 2
        assert [t["task"] for t in m2["tasks"]] == ["bm25-topics-000000-shard-0000", "bm25-topics-000000-shard-0001"]
        total = {"l03": 10, "generated": 2400}[name]
        assert sum(t["documents"] for t in m2["tasks"]) == total
