"""Journeys with a user's own R03 benchmark (only the required files): prepare → evaluate.

The benchmark (userfiles.write_benchmark, 2 tasks, pools of 6, 3 requirements): the agreed
obligations of pool positions 0, 2, 4 are requirements 1, 3, 2 (i % 3 + 1), positions 1, 3, 5
have none; grades are i % 3. So dense (positions 0–4) covers 3/3, typed (1–5) covers 2/3
(requirements 3 and 2), and the oracle covers 3/3 with C(6, 5) = 6 subsets enumerated a task.
"""

from __future__ import annotations

import json
import os

from commands import finish, log_records, run_cli, start_cli
from userfiles import write_benchmark


def test_prepare_then_evaluate_on_a_benchmark_with_only_the_required_files(tmp_path, cli, monkeypatch):
    """No requirement vectors (prepare encodes the requirement texts: 384 dimensions, so the
    user's vectors are 384-d too) and no published_coverage.json."""
    monkeypatch.chdir(tmp_path)
    bench = write_benchmark(tmp_path / "bench", requirement_vectors=False, dim=384)
    assert sorted(str(p.relative_to(bench)) for p in bench.rglob("*") if p.is_file()) == [
        "baselines/dense.json", "baselines/typed.json", "corpus.jsonl", "judgments.jsonl", "pool-key.json",
        "tasks.jsonl", "vectors/document_ids.json", "vectors/documents.npy", "vectors/question_ids.json",
        "vectors/questions.npy"]
    prepared = cli("r03", "prepare", "--benchmark", "bench", "--freeze", "freeze", "--log", "log.jsonl")
    assert prepared.exit_code == 0, prepared.output
    freeze = tmp_path / "freeze"
    assert sorted(p.name for p in freeze.iterdir()) == [
        "freeze_manifest.json", "requirement_ids.json", "requirement_vectors.npy", "score_inputs.json",
        "selections.json"]
    selections = json.loads((freeze / "selections.json").read_text())
    assert sorted(selections) == ["T1", "T2"] and all(len(set(s)) == 5 for s in selections.values())
    assert set(selections["T1"]) <= set(range(101, 107)) and set(selections["T2"]) <= set(range(107, 113))

    evaluated = cli("r03", "evaluate", "--benchmark", "bench", "--freeze", "freeze", "--output", "out",
                        "--log", "log.jsonl", "--draws", "200")
    assert evaluated.exit_code == 0, evaluated.output
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["methods"] == ["dense", "typed", "coverage", "oracle"]
    for task in ("T1", "T2"):
        entry = results["tasks"][task]
        assert (entry["dense"]["coverage@5"], entry["oracle"]["coverage@5"]) == (1.0, 1.0)
        assert abs(entry["typed"]["coverage@5"] - 2 / 3) < 1e-12
        assert entry["subsets_enumerated"] == 6 and entry["attainable_coverage"] == 1.0
    assert results["aggregate"]["all"]["tasks"] == 2 and results["freeze_run_id"] == log_records(
        tmp_path / "log.jsonl")[0]["run_id"]

    # the same evaluation again: nothing differs, nothing is written; a second prepare is refused
    again = cli("r03", "evaluate", "--benchmark", "bench", "--freeze", "freeze", "--output", "out",
                    "--log", "log.jsonl", "--draws", "200")
    assert again.exit_code == 0 and "nothing differs" in again.output
    assert not (tmp_path / "out" / "corrections").exists()
    frozen = {p.name: p.read_bytes() for p in freeze.iterdir()}
    refused = cli("r03", "prepare", "--benchmark", "bench", "--freeze", "freeze", "--log", "log.jsonl")
    assert refused.exit_code == 3 and "a freeze is never overwritten" in refused.output
    assert {p.name: p.read_bytes() for p in freeze.iterdir()} == frozen
    assert [r["command"] for r in log_records(tmp_path / "log.jsonl")] == ["r03 prepare", "r03 evaluate",
                                                                            "r03 evaluate"]


def test_a_limit_is_refused_by_prepare_and_leaves_nothing(tmp_path):
    write_benchmark(tmp_path / "bench", tasks=("T1",), pool=150)
    refused = run_cli("r03", "prepare", "--benchmark", "bench", "--freeze", "freeze", "--log", "qrels-log.jsonl",
                      cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "pool of task 'T1' has 150 documents" in refused.stderr
    assert sorted(os.listdir(tmp_path)) == ["bench"]  # no freeze, no log, no lock file


def test_two_prepares_at_once_into_one_freeze(tmp_path):
    write_benchmark(tmp_path / "bench")
    results = finish([start_cli("r03", "prepare", "--benchmark", "bench", "--freeze", "freeze", "--log", log,
                                cwd=tmp_path) for log in ("a.jsonl", "b.jsonl")])
    codes = [code for code, _, _ in results]
    assert sorted(codes) == [0, 3], results
    loser = results[codes.index(3)][2]
    # refused while the winner holds the lock (named once it has written its description; in the
    # instant before, "a run that is starting"), or after it published: never both written
    assert ("is writing this output right now; refusing to write into it at the same time" in loser
            and ("(r03 prepare, pid" in loser or "(a run that is starting)" in loser)) \
        or "a freeze is never overwritten" in loser, loser
    winner_log = tmp_path / ("a.jsonl", "b.jsonl")[codes.index(0)]
    (record,) = log_records(winner_log)
    assert json.loads((tmp_path / "freeze" / "freeze_manifest.json").read_text())["run_id"] == record["run_id"]
    # the winner's freeze is the one evaluate accepts
    assert run_cli("r03", "evaluate", "--benchmark", "bench", "--freeze", "freeze", "--output", "out",
                   "--log", winner_log.name, "--draws", "50", cwd=tmp_path).returncode == 0
