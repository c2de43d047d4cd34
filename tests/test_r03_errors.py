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


# ---------------------------------------------------------------- a user's own benchmark (issue 20)
# Benchmarks built from scratch with only the required files (tests/journeys/userfiles.py): every
# limit is refused by prepare (exit 2, one line, no freeze, no log record), never by evaluate.

from journeys.userfiles import write_benchmark  # noqa: E402


def _more_than_63_requirements(root):
    write_benchmark(root, m=64)


def _ids_beyond_int64(root):
    write_benchmark(root, first_id=2 ** 63)


def _pool_too_large_for_the_oracle(root):
    write_benchmark(root, tasks=("T1",), pool=150)


def _question_vectors_of_another_dimension(root):
    write_benchmark(root)
    np.save(root / "vectors" / "questions.npy", np.full((2, 9), 1 / 3, dtype=np.float32))


def _requirement_vectors_of_another_dimension(root):
    write_benchmark(root)
    np.save(root / "vectors" / "requirements.npy", np.full((6, 9), 1 / 3, dtype=np.float32))


LIMIT_CASES = {
    "64 requirements": (_more_than_63_requirements,
                        "tasks.jsonl:1: task 'T1' has 64 requirements; at most 63"),
    "id 2^63": (_ids_beyond_int64, "corpus.jsonl:1: field 'doc_id' 9223372036854775808 is outside the signed 64-bit range"),
    "pool of 150": (_pool_too_large_for_the_oracle,
                    "pool-key.json: field 'T1': pool of task 'T1' has 150 documents: the oracle would enumerate "
                    "C(150, 5) = 591,600,030 subsets (about 35.3 GiB), above the limit of 33,554,432"),
    "question vectors of dimension 9": (_question_vectors_of_another_dimension,
                                        "questions.npy: dimension 9 differs from document vectors (8)"),
    "requirement vectors of dimension 9": (_requirement_vectors_of_another_dimension,
                                           "requirements.npy: dimension 9 differs from document vectors (8)"),
}


@pytest.mark.parametrize("case", sorted(LIMIT_CASES))
def test_every_limit_is_refused_by_prepare_before_a_freeze(tmp_path, cli, case):
    make, expected = LIMIT_CASES[case]
    make(tmp_path / "bench")
    check_prepare_rejects(tmp_path, cli, expected)


def test_pool_of_85_is_within_the_oracle_limit_and_86_is_not(tmp_path):
    from engine.r03.benchmark import MAX_ORACLE_SUBSETS, load_benchmark

    import math
    assert math.comb(85, 5) <= MAX_ORACLE_SUBSETS < math.comb(86, 5)
    assert load_benchmark(write_benchmark(tmp_path / "b85", tasks=("T1",), pool=85)).pools["T1"][0] == 101
    from engine.runs.errors import InputError
    with pytest.raises(InputError, match="has 86 documents"):
        load_benchmark(write_benchmark(tmp_path / "b86", tasks=("T1",), pool=86))


def test_encoder_dimension_differing_from_the_documents_is_refused_by_prepare(tmp_path, cli):
    """No requirement vectors and 8-dimensional documents: the encoder's 384 dimensions cannot be
    compared with them; refused before the run (it used to fail inside it, exit 1)."""
    pytest.importorskip("onnxruntime")
    write_benchmark(tmp_path / "bench", requirement_vectors=False)
    check_prepare_rejects(tmp_path, cli, "documents.npy: document and question vectors have dimension 8, "
                                         "but requirement vectors are not supplied and the encoder computes "
                                         "384-dimensional ones")


def test_benchmark_without_the_optional_files_prepares_and_evaluates(tmp_path, cli):
    """No published_coverage.json (and no requirement vectors of 384 dimensions: ours are 8-d and
    supplied): the freeze that prepare writes is the freeze evaluate accepts."""
    bench = write_benchmark(tmp_path / "bench")
    assert not (bench / "baselines" / "published_coverage.json").exists()
    log = tmp_path / "log.jsonl"
    assert cli("r03", "prepare", "--benchmark", bench, "--freeze", tmp_path / "freeze", "--log", log).exit_code == 0
    result = cli("r03", "evaluate", "--benchmark", bench, "--freeze", tmp_path / "freeze",
                 "--output", tmp_path / "out", "--log", log, "--draws", "50")
    assert result.exit_code == 0, result.output
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["methods"] == ["dense", "typed", "coverage", "oracle"]
    # by hand (userfiles.write_benchmark): agreed obligations of pool positions 0, 2, 4 are 1, 3, 2
    # (i % 3 + 1), so dense (positions 0-4) covers 3/3 and typed (positions 1-5) covers 2/3 (2 and 4)
    assert results["tasks"]["T1"]["dense"]["coverage@5"] == 1.0
    assert results["tasks"]["T1"]["typed"]["coverage@5"] == pytest.approx(2 / 3)
    # adding the optional file after the freeze is a changed input, named
    (bench / "baselines" / "published_coverage.json").write_text(json.dumps({"T1": [101, 102, 103, 104, 105],
                                                                              "T2": [107, 108, 109, 110, 111]}))
    again = cli("r03", "evaluate", "--benchmark", bench, "--freeze", tmp_path / "freeze",
                "--output", tmp_path / "out2", "--log", log, "--draws", "50")
    assert again.exit_code == 3 and "input baseline_published_coverage" in again.output and "added" in again.output


def test_a_log_named_like_qrels_does_not_trip_the_barrier(tmp_path, cli):
    bench = write_benchmark(tmp_path / "bench")
    log = tmp_path / "qrels-log.jsonl"
    result = cli("r03", "prepare", "--benchmark", bench, "--freeze", tmp_path / "freeze", "--log", log)
    assert result.exit_code == 0, result.output
    (record,) = [json.loads(line) for line in log.read_text().splitlines()]
    assert record["status"] == "ok" and record["command"] == "r03 prepare"
    assert cli("r03", "evaluate", "--benchmark", bench, "--freeze", tmp_path / "freeze",
               "--output", tmp_path / "out", "--log", log, "--draws", "50").exit_code == 0
    # a judgment file is still barred, whatever the log is called: a symlinked corpus pointing at it
    (bench / "corpus.jsonl").rename(bench / "corpus.real")
    (bench / "corpus.jsonl").symlink_to(bench / "judgments.jsonl")
    barred = cli("r03", "prepare", "--benchmark", bench, "--freeze", tmp_path / "freeze2", "--log", log)
    assert barred.exit_code == 1 and "judgment barrier" in barred.output
    assert not (tmp_path / "freeze2").exists()
