"""The local all-MiniLM-L6-v2 encoder: parity with the reference vectors, batching, pins, CLI."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from engine.encoder import model_files
from engine.encoder.encode import EncoderConfig, load_encoder
from engine.runs.errors import InputError

REPO = Path(__file__).resolve().parents[1]
TOLERANCE = 1e-5          # the reference README's bar (max absolute difference)
BATCH_NOISE = 1e-6        # batch composition may only change float32 rounding


def _reference_file() -> Path | None:
    base = os.environ.get("CHAPTER_AUDIT_REFERENCE_DIR")
    directory = Path(base) if base else REPO.parent / "shared" / "reference"
    path = directory / "minilm_reference_vectors.json"
    return path if path.is_file() else None


@pytest.fixture(scope="session")
def reference() -> dict:
    path = _reference_file()
    if path is None:
        reason = ("reference vectors not found: set CHAPTER_AUDIT_REFERENCE_DIR to the directory holding "
                  "minilm_reference_vectors.json (default <repo>/../shared/reference)")
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def encoder():
    """One encoder per session (the ONNX graph is built once, into the user cache)."""
    return load_encoder(EncoderConfig())


def test_reference_is_for_the_pinned_files(reference):
    assert reference["safetensors_sha256"] == model_files.SAFETENSORS_SHA256
    assert reference["tokenizer_json_sha256"] == model_files.TOKENIZER_SHA256
    assert reference["max_wordpieces"] == 256
    assert len(reference["vectors"]) == 11


def test_parity_with_reference_vectors(encoder, reference):
    texts = [item["text"] for item in reference["vectors"]]
    expected = np.array([item["embedding"] for item in reference["vectors"]], dtype=np.float64)
    vectors = encoder.encode(texts)
    assert vectors.dtype == np.float32 and vectors.shape == (11, 384)
    diff = np.abs(vectors.astype(np.float64) - expected).max(axis=1)
    assert diff.max() <= TOLERANCE, {texts[i][:40]: float(d) for i, d in enumerate(diff)}


def test_wordpiece_counts_exact(encoder, reference):
    texts = [item["text"] for item in reference["vectors"]]
    assert encoder.wordpiece_counts(texts) == [item["n_wordpieces"] for item in reference["vectors"]]
    assert max(encoder.wordpiece_counts(texts)) == 256  # the long text is truncated
    assert encoder.wordpiece_counts([""]) == [2]        # [CLS] [SEP]


def test_same_vector_regardless_of_batch_and_position(encoder, reference):
    texts = [item["text"] for item in reference["vectors"]]
    together = encoder.encode(texts)
    alone = np.vstack([encoder.encode([t]) for t in texts])
    rng = np.random.default_rng(7)
    perm = rng.permutation(len(texts))
    shuffled = encoder.encode([texts[i] for i in perm])
    assert np.abs(together - alone).max() <= BATCH_NOISE
    assert np.abs(shuffled - together[perm]).max() <= BATCH_NOISE
    small = load_encoder(EncoderConfig(batch_size=3, intra_op_threads=2))
    mixed = small.encode(texts + texts[:4])
    assert np.abs(mixed[:11] - together).max() <= BATCH_NOISE
    assert np.abs(mixed[11:] - together[:4]).max() <= BATCH_NOISE


def test_rows_unit_norm_and_order_preserved(encoder):
    texts = ["b " * n for n in (50, 1, 300, 7, 0)] + ["same text", "same text"]
    vectors = encoder.encode(texts)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    assert np.array_equal(vectors[-1], vectors[-2])
    assert np.abs(vectors[2] - encoder.encode([texts[2]])[0]).max() <= BATCH_NOISE


def test_empty_list_and_non_string(encoder):
    empty = encoder.encode([])
    assert empty.shape == (0, 384) and empty.dtype == np.float32
    assert encoder.dimension == 384
    with pytest.raises(InputError, match="not a string"):
        encoder.encode(["ok", 3])


def test_describe_is_json_and_names_pins(encoder):
    from engine.encoder.onnx_graph import ONNX_SHA256

    info = json.loads(json.dumps(encoder.describe()))
    assert info["source"].startswith("pinned package ")
    assert info["model_sha256"] == model_files.SAFETENSORS_SHA256
    assert info["tokenizer_sha256"] == model_files.TOKENIZER_SHA256
    assert info["onnx_sha256"] == ONNX_SHA256
    assert (info["max_wordpieces"], info["batch_size"]) == (256, 16)
    assert (info["intra_op_threads"], info["inter_op_threads"]) == (4, 1)
    assert info["pooling"] == "mean over attention mask" and info["normalisation"] == "L2"


def _copy_model_dir(tmp_path: Path, flip: str | None) -> Path:
    source = model_files.locate_model_files().directory
    target = tmp_path / "model"
    target.mkdir()
    for name in ("model.safetensors", "tokenizer.json", "config.json"):
        if name == flip:
            shutil.copyfile(source / name, target / name)
            data = bytearray((target / name).read_bytes())
            data[len(data) // 2] ^= 0x01
            (target / name).write_bytes(bytes(data))
        else:
            (target / name).symlink_to(source / name)
    return target


@pytest.mark.parametrize("flip, what", [("tokenizer.json", "tokenizer"), ("model.safetensors", "model weights")])
def test_tampered_files_are_refused(tmp_path, monkeypatch, flip, what):
    monkeypatch.setenv(model_files.MODEL_DIR_ENV, str(_copy_model_dir(tmp_path, flip)))
    with pytest.raises(InputError) as info:
        load_encoder(EncoderConfig())
    message = str(info.value)
    assert f"refusing {what}" in message and "pinned" in message and "\n" not in message


def test_invalid_config_is_an_input_error():
    with pytest.raises(InputError, match="together"):
        load_encoder(EncoderConfig(model="x.onnx"))
    with pytest.raises(InputError, match="max_wordpieces"):
        load_encoder(EncoderConfig(max_wordpieces=1000))
    with pytest.raises(InputError, match="batch_size"):
        load_encoder(EncoderConfig(batch_size=0))


def test_user_model_with_sentence_embedding_output(encoder, reference):
    files = model_files.locate_model_files()
    user = load_encoder(EncoderConfig(model=encoder.describe()["onnx_path"], tokenizer=files.tokenizer))
    texts = [item["text"] for item in reference["vectors"]]
    assert np.abs(user.encode(texts) - encoder.encode(texts)).max() <= BATCH_NOISE
    info = user.describe()
    assert info["source"] == "user model" and info["model_sha256"] == info["onnx_sha256"]
    assert info["tokenizer_sha256"] == model_files.TOKENIZER_SHA256


def test_user_model_with_token_embeddings_is_pooled_here(tmp_path, encoder):
    """A toy model (embedding lookup, token_type_ids input) → mean over mask + L2 in numpy."""
    from onnx import TensorProto, helper, numpy_helper

    table = np.random.default_rng(3).normal(size=(30522, 8)).astype(np.float32)
    nodes = [helper.make_node("Gather", ["table", "input_ids"], ["last_hidden_state"], axis=0),
             helper.make_node("Identity", ["attention_mask"], ["unused_mask"]),
             helper.make_node("Identity", ["token_type_ids"], ["unused_types"])]
    inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, ["b", "s"])
              for n in ("input_ids", "attention_mask", "token_type_ids")]
    outputs = [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["b", "s", 8]),
               helper.make_tensor_value_info("unused_mask", TensorProto.INT64, ["b", "s"]),
               helper.make_tensor_value_info("unused_types", TensorProto.INT64, ["b", "s"])]
    graph = helper.make_graph(nodes, "toy", inputs, outputs, initializer=[numpy_helper.from_array(table, "table")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    path = tmp_path / "toy.onnx"
    path.write_bytes(model.SerializeToString())
    files = model_files.locate_model_files()
    user = load_encoder(EncoderConfig(model=path, tokenizer=files.tokenizer, batch_size=2))
    texts = ["a short one", "a somewhat longer text with more wordpieces in it", ""]
    vectors = user.encode(texts)
    assert user.dimension == 8 and vectors.shape == (3, 8)
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(files.tokenizer))
    tok.no_padding()
    for row, text in zip(vectors, texts):
        mean = table[tok.encode(text).ids].mean(axis=0)
        assert np.abs(row - mean / np.linalg.norm(mean)).max() <= 1e-6


# --- chapter-audit encode ---------------------------------------------------------------------

def _jsonl(path: Path, *lines: str) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_cli_encode_writes_vectors_ids_manifest_and_log(tmp_path, cli, encoder):
    from engine.runs.runlog import read_records

    source = _jsonl(tmp_path / "docs.jsonl",
                    json.dumps({"_id": "d2", "doc_id": "x", "body": "This is a test sentence."}),
                    json.dumps({"_id": "d1", "body": "Ünïcödé and emoji 🙂 survive tokenization; ÆØÅ."}),
                    json.dumps({"_id": 7, "body": ""}))
    out, log = tmp_path / "out" / "vectors.npy", tmp_path / "log.jsonl"
    result = cli("encode", "--input", source, "--field", "body", "--output", out, "--log", log)
    assert result.exit_code == 0, result.output
    vectors = np.load(out)
    assert vectors.dtype == np.float32 and vectors.shape == (3, 384)
    expected = encoder.encode(["This is a test sentence.", "Ünïcödé and emoji 🙂 survive tokenization; ÆØÅ.", ""])
    assert np.abs(vectors - expected).max() <= BATCH_NOISE
    assert (tmp_path / "out" / "vectors.ids.txt").read_text() == "d2\nd1\n7\n"
    manifest = json.loads((tmp_path / "out" / "vectors.manifest.json").read_text())
    assert manifest["command"] == "encode" and manifest["run_id"].startswith("encode-")
    assert manifest["parameters"]["id_field"] == "_id" and manifest["parameters"]["batch_size"] == 16
    assert manifest["encoder"]["model_sha256"] == model_files.SAFETENSORS_SHA256
    assert manifest["inputs"]["tokenizer"]["sha256"] == model_files.TOKENIZER_SHA256
    (record,) = read_records(log)
    assert (record["command"], record["status"], record["run_id"]) == ("encode", "ok", manifest["run_id"])
    assert record["results"]["vectors"] == str(out.resolve())
    assert set(record["outputs"]) == {str(out), str(tmp_path / "out" / "vectors.ids.txt"),
                                      str(tmp_path / "out" / "vectors.manifest.json")}

    # the same run again may replace its own output; other parameters may not
    again = cli("encode", "--input", source, "--field", "body", "--output", out, "--log", log)
    assert again.exit_code == 0
    assert np.array_equal(np.load(out), vectors)
    other = cli("encode", "--input", source, "--field", "body", "--output", out, "--log", log,
                "--batch-size", "2")
    assert other.exit_code == 3 and "refusing to overwrite" in other.output
    assert len(read_records(log)) == 2


def test_cli_encode_refuses_foreign_file(tmp_path, cli):
    source = _jsonl(tmp_path / "d.jsonl", json.dumps({"doc_id": "a", "text": "x"}))
    out = tmp_path / "v.npy"
    (tmp_path / "v.ids.txt").write_text("mine\n")
    result = cli("encode", "--input", source, "--field", "text", "--output", out, "--log", tmp_path / "log")
    assert result.exit_code == 3 and "v.ids.txt" in result.output
    assert (tmp_path / "v.ids.txt").read_text() == "mine\n" and not out.exists()


def test_cli_encode_id_options(tmp_path, cli):
    source = _jsonl(tmp_path / "d.jsonl", json.dumps({"key": "k1", "doc_id": "a", "t": "one"}),
                    json.dumps({"key": "k2", "doc_id": "b", "t": "two"}))
    ids = tmp_path / "ids" / "list.txt"
    result = cli("encode", "--input", source, "--field", "t", "--output", tmp_path / "v.npy",
                 "--id-field", "key", "--ids-output", ids, "--log", tmp_path / "log")
    assert result.exit_code == 0, result.output
    assert ids.read_text() == "k1\nk2\n"
    assert not (tmp_path / "v.ids.txt").exists()


@pytest.mark.parametrize("lines, message", [
    (['{"doc_id": "a", "text": "ok"}', '{"doc_id": "b", "text": '], "d.jsonl:2: invalid JSON"),
    (['{"doc_id": "a", "text": "ok"}', '{"doc_id": "b"}'], "d.jsonl:2: missing field 'text'"),
    (['{"doc_id": "a", "text": 3}'], "d.jsonl:1: field 'text' must be a string"),
    (['{"doc_id": "a", "text": "x"}', '{"doc_id": "a", "text": "y"}'], "d.jsonl:2: duplicate id 'a'"),
    (['{"text": "x"}'], "d.jsonl:1: missing id field 'doc_id'"),
])
def test_cli_encode_bad_input_exits_2_and_writes_nothing(tmp_path, cli, lines, message):
    source = _jsonl(tmp_path / "d.jsonl", *lines)
    log = tmp_path / "log.jsonl"
    result = cli("encode", "--input", source, "--field", "text", "--output", tmp_path / "v.npy", "--log", log)
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.jsonl"]
