"""Bad R03 input: one line naming file and line/field, exit 2, nothing written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

FIXTURE = Path(__file__).resolve().parents[1] / "engine" / "fixtures" / "r03_mini"


def bench_copy(tmp_path: Path) -> Path:
    bench = tmp_path / "bench"
    shutil.copytree(FIXTURE, bench)
    ids, rows = [], []
    rng = np.random.default_rng(0)
    for line in (bench / "tasks.jsonl").read_text().splitlines():
        task = json.loads(line)
        for n in range(1, len(task["requirements"]) + 1):
            ids.append(f"{task['task_id']}:{n}")
            v = rng.normal(size=384)
            rows.append(v / np.linalg.norm(v))
    np.save(bench / "vectors" / "requirements.npy", np.array(rows, dtype=np.float32))
    (bench / "vectors" / "requirement_ids.json").write_text(json.dumps(ids))
    return bench


def edit_jsonl(path: Path, index: int, change) -> None:
    lines = path.read_text().splitlines()
    record = json.loads(lines[index])
    change(record)
    lines[index] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def one_line(result) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


def check_prepare_rejects(tmp_path, cli, expected: str) -> None:
    log = tmp_path / "log.jsonl"
    result = cli("r03", "prepare", "--benchmark", tmp_path / "bench", "--freeze", tmp_path / "freeze", "--log", log)
    assert result.exit_code == 2, result.output
    assert expected in one_line(result)
    assert not (tmp_path / "freeze").exists()
    assert not log.exists()  # validation errors are not runs


def _task_without_requirements(bench):
    edit_jsonl(bench / "tasks.jsonl", 1, lambda r: r.update(requirements=[]))


def _pool_member_missing_from_corpus(bench):
    edit_json(bench / "pool-key.json", lambda d: d["B18"].append(424242))


def _pool_member_missing_from_vectors(bench):
    ids = json.loads((bench / "vectors" / "document_ids.json").read_text())
    ids[ids.index(3449)] = 999001
    (bench / "vectors" / "document_ids.json").write_text(json.dumps(ids))


def _vector_not_unit(bench):
    m = np.load(bench / "vectors" / "documents.npy")
    ids = json.loads((bench / "vectors" / "document_ids.json").read_text())
    m[ids.index(3077)] *= 1.001
    np.save(bench / "vectors" / "documents.npy", m)


def _pool_too_small(bench):
    edit_json(bench / "pool-key.json", lambda d: d.update(A21=d["A21"][:4]))


def _baseline_outside_pool(bench):
    edit_json(bench / "baselines" / "typed.json", lambda d: d["B18"].__setitem__(4, 3449))


def _requirement_id_out_of_range(bench):
    edit_json(bench / "vectors" / "requirement_ids.json", lambda d: d.__setitem__(3, "A21:5"))


CASES = {
    "task with no requirements": (_task_without_requirements, "tasks.jsonl:2: task 'B18' has no requirements"),
    "pool member missing from corpus": (_pool_member_missing_from_corpus,
                                        "pool-key.json: field 'B18[16]': pool member 424242 is missing from the corpus"),
    "pool member missing from vectors": (_pool_member_missing_from_vectors,
                                         "document_ids.json: pool member 3449 of task 'A21' has no document vector"),
    "vector not unit length": (_vector_not_unit, "documents.npy: field 'row 8 (0-based)': vector of document 3077 has length 1.001000"),
    "pool with fewer than five": (_pool_too_small, "pool-key.json: field 'A21': pool of task 'A21' has 4 documents, fewer than the budget of 5"),
    "baseline outside pool": (_baseline_outside_pool, "typed.json: field 'B18[4]': document 3449 is not in the judged pool of task 'B18'"),
    "requirement number out of range (vectors)": (_requirement_id_out_of_range,
                                                  "requirement_ids.json: field '[3]': requirement number 5 outside 1..4"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_prepare_rejects_bad_input(tmp_path, cli, case):
    bench = bench_copy(tmp_path)
    mutate, expected = CASES[case]
    mutate(bench)
    check_prepare_rejects(tmp_path, cli, expected)


def _obligation_out_of_range(bench):
    edit_jsonl(bench / "judgments.jsonl", 3, lambda r: r.update(obligationsB=[3, 5]))


def _duplicate_judgment(bench):
    lines = (bench / "judgments.jsonl").read_text().splitlines()
    (bench / "judgments.jsonl").write_text("\n".join(lines + [lines[5]]) + "\n")


def _judgment_outside_pool(bench):
    edit_jsonl(bench / "judgments.jsonl", 0, lambda r: r.update(doc_id=3077))


JUDGMENT_CASES = {
    "obligation outside 1..m": (_obligation_out_of_range,
                                "judgments.jsonl:4: field 'obligationsB': requirement number 5 outside 1..4"),
    "duplicate judgment": (_duplicate_judgment, "judgments.jsonl:32: duplicate judgment for task 'A21' document 3449"),
    "judgment outside pool": (_judgment_outside_pool,
                              "judgments.jsonl:1: document 3077 is not in the judged pool of task 'A21'"),
}


@pytest.mark.parametrize("case", sorted(JUDGMENT_CASES))
def test_evaluate_rejects_bad_judgments(tmp_path, cli, case):
    bench = bench_copy(tmp_path)
    log = tmp_path / "log.jsonl"
    assert cli("r03", "prepare", "--benchmark", bench, "--freeze", tmp_path / "freeze", "--log", log).exit_code == 0
    mutate, expected = JUDGMENT_CASES[case]
    mutate(bench)  # judgments are not part of the freeze: evaluate validates them
    result = cli("r03", "evaluate", "--benchmark", bench, "--freeze", tmp_path / "freeze",
                 "--output", tmp_path / "out", "--log", log)
    assert result.exit_code == 2, result.output
    assert expected in one_line(result)
    assert not (tmp_path / "out").exists()
    assert [r["command"] for r in json.loads("[" + ",".join(log.read_text().splitlines()) + "]")] == ["r03 prepare"]


def test_freeze_path_that_is_occupied_by_other_files_is_refused(tmp_path, cli):
    bench_copy(tmp_path)
    (tmp_path / "freeze").mkdir()
    (tmp_path / "freeze" / "notes.txt").write_text("mine")
    result = cli("r03", "prepare", "--benchmark", tmp_path / "bench", "--freeze", tmp_path / "freeze")
    assert result.exit_code == 3 and "not empty" in one_line(result)
    assert (tmp_path / "freeze" / "notes.txt").read_text() == "mine"


def test_evaluate_without_freeze_is_refused(tmp_path, cli):
    bench_copy(tmp_path)
    result = cli("r03", "evaluate", "--benchmark", tmp_path / "bench", "--freeze", tmp_path / "nofreeze",
                 "--output", tmp_path / "out")
    assert result.exit_code == 3 and "run 'r03 prepare' first" in one_line(result)
