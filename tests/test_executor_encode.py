"""`encode --workers/--scheduler`: the shards on Dask workers give the serial run's bytes
(check_encode_on_workers runs on the 2-worker LocalCluster of tests/test_executor.py).

Each worker process loads its own onnxruntime session (engine.encoder.encode.encode_shard) and
returns its shard's vectors; they are added to the same work directory in shard order, so the
vectors file, the ids and the manifest (but its creation time, output paths and the executor it
names) are those of the serial run, and every shard task's input and output sha256 is listed.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from engine.encoder import encode as encode_module
from engine.encoder.stream import npy_bytes, shard_directory
from engine.runs.hashing import sha256_json

TEXTS = [f"Passage {i}: BM25 with k1 = 1.2 and b = 0.75 retrieves {'relevant ' * (i % 4)}documents." for i in range(11)]


def check_encode_on_workers(tmp_path, scheduler: str) -> None:
    """Called by tests/test_executor.py with the address of its 2-worker LocalCluster."""
    source = tmp_path / "passages.jsonl"
    source.write_text("".join(json.dumps({"_id": f"p{i}", "text": t}) + "\n" for i, t in enumerate(TEXTS)))
    outputs = {}
    for name, where in (("serial", None), ("dask", scheduler)):
        out = tmp_path / name / "vectors.npy"
        manifest = encode_module.run_encode(source, "text", out, log=tmp_path / f"{name}.log", shard_size=3,
                                            progress=False, scheduler=where)
        outputs[name] = (out.read_bytes(), out.with_suffix(".ids.txt").read_bytes(), manifest)
        assert not shard_directory(out).exists()   # the work directory is removed after publishing
    (serial, serial_ids, m1), (dask, dask_ids, m2) = outputs["serial"], outputs["dask"]
    assert dask == serial and dask_ids == serial_ids
    a = np.load(tmp_path / "serial" / "vectors.npy")
    b = np.load(tmp_path / "dask" / "vectors.npy")
    assert a.shape == (11, 384) and np.abs(a - b).max() <= 1e-6
    assert m1["executor"] == {"kind": "serial", "workers": 1} and m2["executor"]["kind"] == "dask"
    assert m1["run_id"] == m2["run_id"] and m1["tasks"] == m2["tasks"]
    # four shards (3, 3, 3 and 2 texts): every task's input is its texts, its output its .npy bytes
    assert [t["rows"] for t in m2["tasks"]] == [3, 3, 3, 2]
    assert m2["tasks"][0]["input_sha256"] == sha256_json(TEXTS[:3])
    assert m2["tasks"][3]["output_sha256"] == hashlib.sha256(npy_bytes(a[9:])).hexdigest()


def test_encode_workers_is_checked_before_anything_runs(tmp_path):
    from engine.runs.errors import InputError

    source = tmp_path / "p.jsonl"
    source.write_text('{"_id": "a", "text": "x"}\n')
    with pytest.raises(InputError, match="--workers"):
        encode_module.run_encode(source, "text", tmp_path / "v.npy", workers=0)
    assert not (tmp_path / "v.npy").exists()
