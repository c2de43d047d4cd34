"""The pre-outcome freeze: judgment barrier, exclusive read-only files, refusal on any change."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import numpy as np
import pytest

from engine.r03.freeze import JudgmentBarrierError, barred, judgment_barrier, write_exclusive
from engine.runs.runlog import read_records

FIXTURE = Path(__file__).resolve().parents[1] / "engine" / "fixtures" / "r03_mini"


def bench_copy(tmp_path: Path, with_requirement_vectors: bool = True) -> Path:
    """A copy of the mini benchmark; supplied (synthetic) requirement vectors keep it encoder-free."""
    bench = tmp_path / "bench"
    shutil.copytree(FIXTURE, bench)
    if with_requirement_vectors:
        ids, rows = [], []
        for line in (bench / "tasks.jsonl").read_text().splitlines():
            task = json.loads(line)
            q = np.load(bench / "vectors" / "questions.npy")[json.loads(
                (bench / "vectors" / "question_ids.json").read_text()).index(task["task_id"])]
            for n in range(1, len(task["requirements"]) + 1):
                ids.append(f"{task['task_id']}:{n}")
                v = q.astype(np.float64) + 0.1 * n * np.roll(q.astype(np.float64), n)
                rows.append(v / np.linalg.norm(v))
        np.save(bench / "vectors" / "requirements.npy", np.array(rows, dtype=np.float32))
        (bench / "vectors" / "requirement_ids.json").write_text(json.dumps(ids))
    return bench


def test_barrier_blocks_matching_names_only_while_active(tmp_path):
    target = tmp_path / "judgments.jsonl"
    target.write_text("{}\n")
    other = tmp_path / "corpus.jsonl"
    other.write_text("{}\n")
    with judgment_barrier():
        with pytest.raises(JudgmentBarrierError):
            open(target).close()
        with pytest.raises(PermissionError):
            (tmp_path / "QRELS.txt").write_text("x")
        with pytest.raises(JudgmentBarrierError):
            os.open(target, os.O_RDONLY)
        other.read_text()  # not barred
    assert target.read_text() == "{}\n"  # barrier off again
    assert barred("judgments.jsonl", ["judgments*"]) and not barred("tasks.jsonl", ["judgments*"])


def test_custom_barrier_patterns(tmp_path):
    (tmp_path / "labels.tsv").write_text("x")
    with judgment_barrier(["labels*"]):
        with pytest.raises(JudgmentBarrierError):
            (tmp_path / "labels.tsv").read_text()


def test_prepare_that_tries_to_open_judgments_fails_and_is_logged(tmp_path, monkeypatch, cli):
    import engine.r03.coverage

    bench = bench_copy(tmp_path)
    real = engine.r03.coverage.greedy_select

    def peeking(*args, **kwargs):
        (bench / "judgments.jsonl").read_text()  # a leak: prepare must not see labels
        return real(*args, **kwargs)

    monkeypatch.setattr(engine.r03.coverage, "greedy_select", peeking)
    log = tmp_path / "log.jsonl"
    result = cli("r03", "prepare", "--benchmark", bench, "--freeze", tmp_path / "freeze", "--log", log)
    assert result.exit_code == 1
    assert "judgment barrier" in result.output
    assert not (tmp_path / "freeze").exists()
    (record,) = read_records(log)
    assert record["command"] == "r03 prepare" and record["status"] == "failed"
    assert record["error"].startswith("JudgmentBarrierError: judgment barrier")
    assert not list(tmp_path.glob(".freeze*"))  # no staging left behind


def test_freeze_files_are_read_only_and_a_second_prepare_is_refused(tmp_path, cli):
    bench = bench_copy(tmp_path)
    freeze = tmp_path / "freeze"
    first = cli("r03", "prepare", "--benchmark", bench, "--freeze", freeze, "--log", tmp_path / "log.jsonl")
    assert first.exit_code == 0, first.output
    names = sorted(p.name for p in freeze.iterdir())
    assert names == ["freeze_manifest.json", "score_inputs.json", "selections.json"]  # vectors supplied
    for path in freeze.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o444
    before = {p.name: p.read_bytes() for p in freeze.iterdir()}
    second = cli("r03", "prepare", "--benchmark", bench, "--freeze", freeze, "--log", tmp_path / "log.jsonl")
    assert second.exit_code == 3
    assert "already holds freeze file(s)" in second.output
    assert {p.name: p.read_bytes() for p in freeze.iterdir()} == before
    fm = json.loads((freeze / "freeze_manifest.json").read_text())
    assert fm["requirement_vectors"]["source"] == "supplied"
    assert set(fm["frozen"]) == {"score_inputs.json", "selections.json"}
    scores = json.loads((freeze / "score_inputs.json").read_text())["tasks"]["A21"]
    assert len(scores["normalised"]) == 5 and len(scores["normalised"][0]) == 15
    assert len(scores["pair_positive_cosine"]) == 15


def test_write_exclusive_never_overwrites(tmp_path):
    write_exclusive(tmp_path / "a.json", b"1")
    with pytest.raises(FileExistsError):
        write_exclusive(tmp_path / "a.json", b"2")


def tamper(path: Path, data: bytes) -> None:
    os.chmod(path, 0o644)
    path.write_bytes(data)


@pytest.mark.parametrize("what", ["selection", "score_inputs", "input_vectors", "corpus", "requirement_vectors"])
def test_evaluate_refuses_a_changed_freeze_naming_the_file(tmp_path, cli, what):
    bench = bench_copy(tmp_path)
    freeze = tmp_path / "freeze"
    assert cli("r03", "prepare", "--benchmark", bench, "--freeze", freeze,
               "--log", tmp_path / "log.jsonl").exit_code == 0
    if what == "selection":
        sel = json.loads((freeze / "selections.json").read_text())
        sel["A21"][0], sel["A21"][1] = sel["A21"][1], sel["A21"][0]
        tamper(freeze / "selections.json", json.dumps(sel).encode())
        expected = "selections.json changed"
    elif what == "score_inputs":
        tamper(freeze / "score_inputs.json", (freeze / "score_inputs.json").read_bytes() + b" ")
        expected = "score_inputs.json changed"
    elif what == "input_vectors":
        m = np.load(bench / "vectors" / "documents.npy")
        m[0] = -m[0]
        np.save(bench / "vectors" / "documents.npy", m)
        expected = "input document_vectors"
    elif what == "requirement_vectors":
        m = np.load(bench / "vectors" / "requirements.npy")
        np.save(bench / "vectors" / "requirements.npy", m[::-1].copy())
        expected = "input requirement_vectors"
    else:
        with open(bench / "corpus.jsonl", "a") as handle:
            handle.write('{"doc_id": 99999, "title": "x", "text": "y"}\n')
        expected = "input corpus"
    result = cli("r03", "evaluate", "--benchmark", bench, "--freeze", freeze, "--output", tmp_path / "out",
                 "--log", tmp_path / "log.jsonl")
    assert result.exit_code == 3
    assert expected in result.output and "refusing to open judgments" in result.output
    assert not (tmp_path / "out").exists()


def test_evaluate_refuses_computed_requirement_vectors_tampered(tmp_path, cli):
    try:
        from engine.encoder.encode import EncoderConfig, load_encoder

        load_encoder(EncoderConfig())
    except Exception:  # noqa: BLE001 - any failure to load means: skip
        pytest.skip("pinned MiniLM encoder not available")
    bench = bench_copy(tmp_path, with_requirement_vectors=False)
    freeze = tmp_path / "freeze"
    assert cli("r03", "prepare", "--benchmark", bench, "--freeze", freeze,
               "--log", tmp_path / "log.jsonl").exit_code == 0
    path = freeze / "requirement_vectors.npy"
    m = np.load(path)
    buf = tmp_path / "t.npy"
    np.save(buf, m * 1.0001)
    tamper(path, buf.read_bytes())
    result = cli("r03", "evaluate", "--benchmark", bench, "--freeze", freeze, "--output", tmp_path / "out")
    assert result.exit_code == 3 and "requirement_vectors.npy changed" in result.output


def test_barrier_does_not_block_evaluate(tmp_path, cli):
    bench = bench_copy(tmp_path)
    freeze = tmp_path / "freeze"
    assert cli("r03", "prepare", "--benchmark", bench, "--freeze", freeze,
               "--log", tmp_path / "log.jsonl").exit_code == 0
    result = cli("r03", "evaluate", "--benchmark", bench, "--freeze", freeze, "--output", tmp_path / "out",
                 "--log", tmp_path / "log.jsonl", "--draws", "200")
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "out" / "results.json").read_text())["tasks"]["A21"]["oracle_selection"] \
        == [3429, 3449, 4684, 3428, 3426]


def test_configurable_barrier_pattern_also_guards_reading_the_inputs(tmp_path, cli):
    bench = bench_copy(tmp_path)
    log = tmp_path / "log.jsonl"
    result = cli("r03", "prepare", "--benchmark", bench, "--freeze", tmp_path / "freeze", "--log", log,
                 "--barrier-pattern", "corpus*", "--barrier-pattern", "judgments*")
    assert result.exit_code == 1 and "corpus.jsonl" in result.output
    assert not (tmp_path / "freeze").exists()
    (record,) = read_records(log)
    assert record["status"] == "failed" and "JudgmentBarrierError" in record["error"]


def test_a_swallowed_barrier_error_still_fails_prepare(tmp_path, monkeypatch, cli):
    import engine.r03.coverage

    bench = bench_copy(tmp_path)
    real = engine.r03.coverage.greedy_select

    def sneaky(*args, **kwargs):
        try:
            (bench / "judgments.jsonl").read_text()
        except OSError:
            pass
        return real(*args, **kwargs)

    monkeypatch.setattr(engine.r03.coverage, "greedy_select", sneaky)
    log = tmp_path / "log.jsonl"
    result = cli("r03", "prepare", "--benchmark", bench, "--freeze", tmp_path / "freeze", "--log", log)
    assert result.exit_code == 1 and not (tmp_path / "freeze").exists()
    assert read_records(log)[0]["status"] == "failed"
