"""`encode` in shards: resume after an interruption, byte-identical outputs, refusal, progress line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest

from engine.encoder import encode as encode_module
from engine.encoder.encode import EncoderConfig, load_encoder
from engine.encoder.stream import ProgressMeter, shard_bounds, shard_directory
from engine.runs.errors import InputError, RefusalError

TEXTS = [
    "Retrieval evaluation needs judged documents.",
    "Short.",
    "A much longer passage about dense and sparse retrievers, fusion weights, and how a reranker "
    "reorders only the candidates it was given, never adding new ones.",
    "",
    "Zipf's law: a few tokens are very frequent, most are rare.",
    "Ünïcödé text survives tokenization.",
    "BM25 with k1 = 1.2 and b = 0.75.",
]


@pytest.fixture(scope="module")
def encoder():
    return load_encoder(EncoderConfig())


def _input(tmp_path: Path) -> Path:
    path = tmp_path / "passages.jsonl"
    path.write_text("".join(json.dumps({"_id": f"p{i}", "text": t}) + "\n" for i, t in enumerate(TEXTS)),
                    encoding="utf-8")
    return path


def _run(source: Path, out: Path, log: Path, shard_size: int) -> dict:
    return encode_module.run_encode(source, "text", out, log=log, shard_size=shard_size, progress=False)


def _outputs(out: Path) -> tuple[bytes, bytes, dict]:
    manifest = json.loads(out.with_suffix(".manifest.json").read_text(encoding="utf-8"))
    manifest.pop("created_at")
    return out.read_bytes(), out.with_suffix(".ids.txt").read_bytes(), manifest


def _interrupt_at_call(monkeypatch, call: int, exception: BaseException) -> None:
    """Make the ``call``-th ``Encoder.encode`` (one per shard) raise: a simulated kill."""
    real_encode = encode_module.Encoder.encode
    calls = {"n": 0}

    def interrupted(self, texts, **options):
        calls["n"] += 1
        if calls["n"] == call:
            raise exception
        return real_encode(self, texts, **options)

    monkeypatch.setattr(encode_module.Encoder, "encode", interrupted)


def _count_encodes(monkeypatch) -> list[int]:
    """Record the number of texts of every later ``Encoder.encode`` call."""
    real_encode = encode_module.Encoder.encode
    encoded: list[int] = []

    def counting(self, texts, **options):
        encoded.append(len(texts))
        return real_encode(self, texts, **options)

    monkeypatch.setattr(encode_module.Encoder, "encode", counting)
    return encoded


def test_shard_bounds():
    assert shard_bounds(7, 3) == [(0, 3), (3, 6), (6, 7)]
    assert shard_bounds(6, 3) == [(0, 3), (3, 6)]
    assert shard_bounds(2, 8192) == [(0, 2)]
    with pytest.raises(InputError, match="shard_size"):
        shard_bounds(5, 0)


def test_sharded_encode_equals_per_shard_encoding_and_np_save(tmp_path, encoder):
    source = _input(tmp_path)
    out = tmp_path / "a" / "vectors.npy"
    manifest = _run(source, out, tmp_path / "log.jsonl", shard_size=3)
    expected = np.vstack([encoder.encode(TEXTS[a:b]) for a, b in shard_bounds(len(TEXTS), 3)])
    buffer = io.BytesIO()
    np.save(buffer, expected, allow_pickle=False)
    assert out.read_bytes() == buffer.getvalue()                  # streamed .npy == np.save, byte for byte
    assert manifest["outputs"]["vectors"]["shape"] == [7, 384]
    assert manifest["parameters"]["shard_size"] == 3
    assert out.with_suffix(".ids.txt").read_text() == "".join(f"p{i}\n" for i in range(7))
    assert not shard_directory(out).exists()                      # work directory removed when done


def test_interrupted_encode_resumes_to_identical_outputs(tmp_path, encoder, monkeypatch):
    from engine.runs.runlog import read_records

    source = _input(tmp_path)
    whole = tmp_path / "whole" / "vectors.npy"
    _run(source, whole, tmp_path / "whole.log", shard_size=3)

    out, log = tmp_path / "resumed" / "vectors.npy", tmp_path / "resumed.log"
    _interrupt_at_call(monkeypatch, 3, KeyboardInterrupt())      # killed during the third shard
    with pytest.raises(KeyboardInterrupt):
        _run(source, out, log, shard_size=3)
    work = shard_directory(out)
    progress = json.loads((work / "progress.json").read_text())
    assert [s["rows"] for s in progress["shards"]] == [3, 3]
    assert not out.exists() and not out.with_suffix(".manifest.json").exists()
    assert read_records(log)[-1]["status"] == "failed"

    monkeypatch.undo()                            # the real encoder again
    encoded = _count_encodes(monkeypatch)
    _run(source, out, log, shard_size=3)
    assert encoded == [1]                         # only the missing last shard was encoded
    vectors, ids, manifest = _outputs(out)
    vectors_whole, ids_whole, manifest_whole = _outputs(whole)
    assert vectors == vectors_whole and ids == ids_whole
    for m in (manifest, manifest_whole):
        for output in m["outputs"].values():
            output.pop("path")
    assert manifest == manifest_whole             # same run id, hashes, parameters
    assert read_records(log)[-1]["status"] == "ok"
    assert not work.exists()


def test_changed_shard_is_encoded_again(tmp_path, monkeypatch):
    source = _input(tmp_path)
    out, log = tmp_path / "v.npy", tmp_path / "log"
    _interrupt_at_call(monkeypatch, 3, RuntimeError("killed"))
    with pytest.raises(RuntimeError):
        _run(source, out, log, shard_size=3)
    second = shard_directory(out) / "shard-000001.npy"
    second.write_bytes(second.read_bytes()[:-4] + b"\0\0\0\0")     # a damaged shard
    monkeypatch.undo()                            # the real encoder again
    encoded = _count_encodes(monkeypatch)
    _run(source, out, log, shard_size=3)
    assert encoded == [3, 1]                      # shard 0 kept; shards 1 and 2 encoded again


def test_foreign_work_directory_is_refused(tmp_path):
    source = _input(tmp_path)
    out = tmp_path / "v.npy"
    work = shard_directory(out)
    work.mkdir()
    (work / "notes.txt").write_text("mine")
    with pytest.raises(RefusalError, match="refusing to overwrite"):
        _run(source, out, tmp_path / "log", shard_size=3)
    assert (work / "notes.txt").read_text() == "mine" and not out.exists()


def test_cli_shard_size_option_and_small_input_writes_no_work_directory(tmp_path, cli):
    source = _input(tmp_path)
    out = tmp_path / "v.npy"
    result = cli("encode", "--input", source, "--field", "text", "--output", out, "--log", tmp_path / "log",
                 "--shard-size", "0")
    assert result.exit_code == 2 and "shard_size" in result.output and not out.exists()
    result = cli("encode", "--input", source, "--field", "text", "--output", out, "--log", tmp_path / "log")
    assert result.exit_code == 0, result.output
    assert np.load(out).shape == (7, 384) and not shard_directory(out).exists()
    # a small input never touches a directory of that name that is not its own
    foreign = shard_directory(tmp_path / "w.npy")
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    result = cli("encode", "--input", source, "--field", "text", "--output", tmp_path / "w.npy",
                 "--log", tmp_path / "log")
    assert result.exit_code == 0 and (foreign / "notes.txt").read_text() == "mine"


def test_progress_line_rate_and_eta():
    stream = io.StringIO()
    meter = ProgressMeter(1000, already_done=200, stream=stream)
    meter.done = 500
    assert meter.line(elapsed=10.0) == "encode: 500/1,000 texts (50.0%), 200 resumed, 30.0 texts/s, ETA 0m17s"
    meter.done = 200
    assert meter.line(elapsed=0.0).endswith("0.0 texts/s, ETA ?")
    meter.advance(100)
    meter.close()   # off a terminal: plain lines (at most one every 10 s, one at the end), never \r
    assert stream.getvalue().startswith("encode: 300/1,000 texts (30.0%)")
    assert "\r" not in stream.getvalue() and stream.getvalue().count("\n") == 1


def test_eta_follows_the_work_left_not_the_texts_left():
    """Longest texts first: after the first 100 texts of a 400-text shard (work 40,000 of
    50,000 padded wordpieces) in 10 s, 300 texts are left but only 10,000 units of work in this
    shard, plus 400 more texts (of an 800 total) at 125 units each: 60,000 units at 4,000 units/s."""
    meter = ProgressMeter(800, stream=io.StringIO())
    meter.plan(400, 50_000)
    meter.advance(100, 40_000)
    assert meter.line(elapsed=10.0) == "encode: 100/800 texts (12.5%), 10.0 texts/s, ETA 0m15s"
    meter.plan(400, 50_000)            # the next shard starts: its own work replaces the estimate
    meter.advance(300, 10_000)
    assert meter.line(elapsed=12.5) == "encode: 400/800 texts (50.0%), 32.0 texts/s, ETA 0m12s"
