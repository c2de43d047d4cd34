"""The one executor abstraction (engine/runs/executor.py): serial, process pool, Dask LocalCluster.

One 2-worker LocalCluster serves every distributed check of the project (starting one costs
seconds): the book here, and through ``--scheduler`` its address, ``encode``, ``evaluate`` and
BM25 over index shards (their checks live beside their serial tests, as ``check_*`` functions).

Results always come back in submission order, whatever finishes first; a book audited on a
2-worker LocalCluster writes exactly the files of the serial pass (all but the manifest, which
names the executor and its own creation time).
"""

from __future__ import annotations

import shutil
import time

import pytest

from engine.runs.errors import InputError
from engine.runs.executor import (DaskExecutor, Executor, ProcessExecutor, check_workers, make_executor,
                                  task_record)


def slow_square(value: int) -> int:
    time.sleep(0.05 * (5 - value % 5))   # later items finish first
    return value * value


def test_serial_is_the_default_and_in_order():
    executor = make_executor()
    assert type(executor) is Executor and executor.describe() == {"kind": "serial", "workers": 1}
    assert executor.map(slow_square, range(6)) == [0, 1, 4, 9, 16, 25]


def test_process_pool_keeps_submission_order():
    with make_executor(2, kind="process") as executor:
        assert isinstance(executor, ProcessExecutor)
        assert list(executor.imap(slow_square, range(7), window=3)) == [v * v for v in range(7)]


@pytest.mark.parametrize("workers, scheduler, message", [
    (0, None, "from 1 to 1024"), (2000, None, "from 1 to 1024"), (2, "tcp://127.0.0.1:1", "not both"),
    (None, " ", "scheduler address")])
def test_bad_worker_options_are_input_errors(workers, scheduler, message):
    with pytest.raises(InputError, match=message):
        check_workers(workers, scheduler)


def test_task_record_hashes_input_and_output():
    import hashlib

    # sha256 of the canonical JSON (sorted keys, no spaces): '{"a":1,"b":"x"}' and '[1,2]'
    assert task_record("t", {"b": "x", "a": 1}, [1, 2]) == {
        "task": "t", "input_sha256": hashlib.sha256(b'{"a":1,"b":"x"}').hexdigest(),
        "output_sha256": hashlib.sha256(b"[1,2]").hexdigest()}


@pytest.fixture(scope="module")
def cluster():
    pytest.importorskip("distributed", reason="the [distributed] extra is not installed")
    executor = DaskExecutor(workers=2)
    yield executor
    executor.close()


def test_dask_local_cluster_keeps_submission_order(cluster):
    assert cluster.describe() == {"kind": "dask", "workers": 2, "cluster": "LocalCluster, 1 thread per worker"}
    assert list(cluster.imap(slow_square, range(9))) == [v * v for v in range(9)]


def test_a_user_scheduler_is_used_as_given(cluster):
    address = cluster._client.scheduler.address
    with make_executor(scheduler=address) as executor:
        assert executor.describe()["workers"] == 2
        assert executor.map(slow_square, [3, 4]) == [9, 16]


def test_an_unreachable_scheduler_is_one_line():
    pytest.importorskip("distributed", reason="the [distributed] extra is not installed")
    with pytest.raises(InputError, match="cannot connect to the Dask scheduler tcp://127.0.0.1:9"):
        DaskExecutor(scheduler="tcp://127.0.0.1:9", connect_timeout=1)


def test_book_on_two_workers_writes_the_serial_bytes(cluster, tmp_path):
    from test_book import BOOK, DATE, files_of, sandbox

    from books.run import BookOptions, run_book

    directory = tmp_path / "book"
    shutil.copytree(BOOK, directory)
    log = tmp_path / "log.jsonl"
    sandbox(tmp_path / "sandbox", log)
    outputs = {}
    logged = log.read_bytes()
    for name, executor in (("serial", None), ("dask", cluster)):
        log.write_bytes(logged)   # both passes read the same log (a report counts its records)
        options = BookOptions(directory=directory, output=tmp_path / name, log=log, offline=True,
                              report_date=DATE, sources_cache=tmp_path / "cache")
        run_book(options, executor=executor)
        outputs[name] = files_of(tmp_path / name)
    serial, dask = ({k: v for k, v in out.items() if k != "manifest.json"} for out in outputs.values())
    assert len(serial) == 9 * 4 + 4 + 3 and serial == dask
    import json

    manifests = [json.loads(out["manifest.json"]) for out in outputs.values()]
    assert manifests[0]["tasks"] == manifests[1]["tasks"] and manifests[1]["executor"]["kind"] == "dask"
    assert manifests[0]["run_id"] == manifests[1]["run_id"]


def test_encode_on_the_cluster_writes_the_serial_bytes(cluster, tmp_path):
    from test_executor_encode import check_encode_on_workers

    check_encode_on_workers(tmp_path, cluster._client.scheduler.address)


def test_evaluate_on_the_cluster_writes_the_serial_bytes(cluster, tmp_path):
    from test_executor_evaluate import check_evaluate_on_workers

    check_evaluate_on_workers(tmp_path, cluster._client.scheduler.address)


def test_a_bad_run_file_on_a_worker_is_still_one_line(cluster, tmp_path):
    from test_executor_evaluate import check_bad_run_file_on_workers

    check_bad_run_file_on_workers(tmp_path, cluster._client.scheduler.address)


def test_bm25_over_index_shards_on_the_cluster(cluster, tmp_path):
    from test_executor_bm25 import check_sharded_top_k_on_workers

    check_sharded_top_k_on_workers(tmp_path, cluster)


def test_sandbox_on_the_cluster_writes_the_serial_bytes(cluster, tmp_path):
    from test_executor_sandbox import check_sandbox_on_workers

    check_sandbox_on_workers(tmp_path, cluster._client.scheduler.address)
