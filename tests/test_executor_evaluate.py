"""`evaluate --workers/--scheduler`: each run read and evaluated on a Dask worker gives the serial outputs
(the check_* functions run on the 2-worker LocalCluster of tests/test_executor.py).

metrics.json and comparison.json are byte-identical to the serial run's (the runs have tied
scores, so the tie rule is exercised on the workers too); the manifest adds the executor and,
per run, the sha256 of its task's input (qrels and run file hashes) and output (per-topic values).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.retrieval.evaluate import run_evaluate_experiment
from engine.runs.errors import InputError


def write_inputs(tmp_path):
    rng = np.random.default_rng(5)
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q{t} 0 d{d} {int(rng.integers(0, 4))}\n" for t in range(12) for d in range(0, 30, 3)))
    runs = []
    for r in range(3):
        path = tmp_path / f"run{r}.tsv"
        lines = [f"q{t} Q0 d{d} 0 {round(float(rng.random()), 1):.1f} r{r}\n" for t in range(12) for d in range(30)]
        path.write_text("".join(lines))
        runs.append(path)
    return qrels, runs


def check_evaluate_on_workers(tmp_path, scheduler: str) -> None:
    """Called by tests/test_executor.py with the address of its 2-worker LocalCluster."""
    qrels, runs = write_inputs(tmp_path)
    common = dict(qrels=qrels, run=runs, measures="nDCG@10,R@20,AP", ties="id_ascending", seed=1, draws=200)
    serial = run_evaluate_experiment(output=tmp_path / "serial", log=tmp_path / "a.log", **common)
    dask = run_evaluate_experiment(output=tmp_path / "dask", log=tmp_path / "b.log", scheduler=scheduler, **common)
    assert serial["run_id"] == dask["run_id"]
    for name in ("metrics.json", "comparison.json"):
        assert (tmp_path / "serial" / name).read_bytes() == (tmp_path / "dask" / name).read_bytes()
    manifest = json.loads((tmp_path / "dask" / "manifest.json").read_text())
    assert manifest["executor"]["kind"] == "dask" and [t["task"] for t in manifest["tasks"]] == ["r0", "r1", "r2"]  # run tags
    assert len(set(t["output_sha256"] for t in manifest["tasks"])) == 3
    assert "tasks" not in json.loads((tmp_path / "serial" / "manifest.json").read_text())


def check_bad_run_file_on_workers(tmp_path, scheduler: str) -> None:
    qrels, runs = write_inputs(tmp_path)
    runs[1].write_text("q0 Q0 d1 0 not-a-score r1\n")
    with pytest.raises(InputError, match=r"run1\.tsv:1"):
        run_evaluate_experiment(qrels=qrels, run=runs, measures="nDCG@10", ties="id_ascending", seed=1, draws=10,
                                output=tmp_path / "out", log=tmp_path / "log", scheduler=scheduler)
    # every run is read on a worker (once) before the run starts: bad input, not a run
    assert not (tmp_path / "out").exists() and not (tmp_path / "log").exists()


def test_evaluate_workers_is_checked_before_anything_runs(tmp_path):
    qrels, runs = write_inputs(tmp_path)
    with pytest.raises(InputError, match="--workers"):
        run_evaluate_experiment(qrels=qrels, run=runs, measures="nDCG@10", ties="id_ascending", seed=1, draws=10,
                                output=tmp_path / "out", log=tmp_path / "log", workers=0)
    assert not (tmp_path / "out").exists() and not (tmp_path / "log").exists()


def test_with_workers_each_run_file_is_read_once(tmp_path, monkeypatch):
    """Before, the driver read every run (for its tag) and each worker task read it again: 6
    reads of 3 files. Now each file is read once, by its worker task (here an in-process
    executor standing in for Dask, so the reads can be counted), and the outputs are the serial
    bytes."""
    import engine.retrieval.evaluate as evaluate_module
    from engine.runs import executor as executor_module

    qrels, runs = write_inputs(tmp_path)
    common = dict(qrels=qrels, run=runs, measures="nDCG@10,R@20,AP", ties="id_ascending", seed=1, draws=200)
    serial = run_evaluate_experiment(output=tmp_path / "serial", log=tmp_path / "a.log", **common)
    reads: list[str] = []
    real = evaluate_module.read_run_arrays
    monkeypatch.setattr(evaluate_module, "read_run_arrays", lambda path: reads.append(str(path)) or real(path))
    monkeypatch.setattr(executor_module, "make_executor", lambda workers=None, scheduler=None: executor_module.Executor())
    monkeypatch.setattr(executor_module, "import_distributed", lambda: None)
    workers = run_evaluate_experiment(output=tmp_path / "workers", log=tmp_path / "b.log", workers=2, **common)
    assert sorted(reads) == sorted(str(p.resolve()) for p in runs)
    assert workers["run_id"] == serial["run_id"]
    for name in ("metrics.json", "comparison.json"):
        assert (tmp_path / "serial" / name).read_bytes() == (tmp_path / "workers" / name).read_bytes()
    manifest = json.loads((tmp_path / "workers" / "manifest.json").read_text())
    assert [t["task"] for t in manifest["tasks"]] == ["r0", "r1", "r2"] and manifest["executor"]["kind"] == "serial"
