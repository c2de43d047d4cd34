"""The fp32 ONNX graph of all-MiniLM-L6-v2, built locally from the pinned safetensors.

Architecture: BERT (Devlin et al. 2019) as implemented by Hugging Face ``BertModel``
(transformers ``modeling_bert.py``), followed by the sentence-transformers pooling of the
model card (``1_Pooling``: mean over the attention mask; ``2_Normalize``: L2):

* embeddings: ``LayerNorm((word[ids] + token_type[0]) + position[0..S-1])``;
* six layers of: Q/K/V ``x W^T + b``, split into 12 heads of 32, scores ``Q K^T / sqrt(32)``
  plus the additive mask ``(1 - mask) * float32.min``, softmax, context ``P V``, output dense
  + residual + LayerNorm; intermediate dense (1536) + exact GELU ``x/2 (1 + erf(x/sqrt 2))``,
  output dense + residual + LayerNorm (eps 1e-12);
* pooling inside the graph: ``sum_t h_t m_t / max(sum_t m_t, 1e-9)`` then
  ``x / max(||x||_2, 1e-12)`` (``torch.nn.functional.normalize``).

Inputs ``input_ids`` and ``attention_mask`` (int64, ``[batch, sequence]``, both axes dynamic);
output ``sentence_embedding`` (float32, ``[batch, 384]``). token_type_ids are all zero for single
sentences, so the graph adds row 0 of the token-type table as a constant.

Determinism: fixed node and initializer names, fixed producer, no timestamps, opset 17 (the
first with ``LayerNormalization``), IR version 8. The same weights always serialise to the same
bytes, whose sha256 is pinned in :data:`ONNX_SHA256` and checked after every build or load.
The graph is cached in ``($XDG_CACHE_HOME or ~/.cache)/chapter-audit/onnx/`` under a name made
of the graph version and the safetensors hash, written atomically.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

from engine.runs.errors import RefusalError
from engine.runs.hashing import sha256_bytes
from engine.encoder.model_files import EXPECTED_CONFIG, ModelFiles, read_safetensors
from engine.runs.outdir import write_file_atomically

OPSET = 17
IR_VERSION = 8
GRAPH_VERSION = "g1"
PRODUCER_NAME = "chapter-audit.onnx_graph"
PRODUCER_VERSION = GRAPH_VERSION
OUTPUT_NAME = "sentence_embedding"
# sha256 of the .onnx bytes built from the pinned model.safetensors (engine.encoder.model_files).
ONNX_SHA256 = "fc34807f4466fa1f6b1a33d4ab33a2c71cd822e8d135abaa4b9907378dfbca44"

HIDDEN = EXPECTED_CONFIG["hidden_size"]
HEADS = EXPECTED_CONFIG["num_attention_heads"]
HEAD_DIM = HIDDEN // HEADS
LAYERS = EXPECTED_CONFIG["num_hidden_layers"]
EPS = EXPECTED_CONFIG["layer_norm_eps"]
MASK_NEGATIVE = float(np.finfo(np.float32).min)


def cache_dir() -> Path:
    """``($XDG_CACHE_HOME or ~/.cache)/chapter-audit/onnx``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "chapter-audit" / "onnx"


def cache_name(safetensors_sha256: str) -> str:
    return f"all-MiniLM-L6-v2-fp32-opset{OPSET}-{GRAPH_VERSION}-{safetensors_sha256[:16]}.onnx"


class _Graph:
    """Accumulates nodes and initializers under fixed, sequential names."""

    def __init__(self) -> None:
        from onnx import helper, numpy_helper

        self.helper = helper
        self.numpy_helper = numpy_helper
        self.nodes: list = []
        self.initializers: list = []
        self._count = 0

    def const(self, name: str, value: np.ndarray) -> str:
        self.initializers.append(self.numpy_helper.from_array(np.ascontiguousarray(value), name=name))
        return name

    def op(self, op_type: str, inputs: list[str], name: str, **attrs) -> str:
        self._count += 1
        node_name = f"n{self._count:04d}_{name}"
        self.nodes.append(self.helper.make_node(op_type, inputs, [name], name=node_name, **attrs))
        return name


def _linear(g: _Graph, x: str, weight: np.ndarray, bias: np.ndarray, prefix: str) -> str:
    """``x W^T + b`` for a torch Linear weight of shape [out, in]."""
    w = g.const(f"{prefix}.weight_t", np.asarray(weight, dtype=np.float32).T)
    b = g.const(f"{prefix}.bias", np.asarray(bias, dtype=np.float32))
    return g.op("Add", [g.op("MatMul", [x, w], f"{prefix}.matmul"), b], f"{prefix}.out")


def _layer_norm(g: _Graph, x: str, weights: dict, prefix: str) -> str:
    scale = g.const(f"{prefix}.weight", weights[f"{prefix}.weight"])
    bias = g.const(f"{prefix}.bias", weights[f"{prefix}.bias"])
    return g.op("LayerNormalization", [x, scale, bias], f"{prefix}.out", axis=-1, epsilon=EPS)


def build_model(weights: dict[str, np.ndarray]):
    """The ``onnx.ModelProto`` of the encoder with mean pooling and L2 normalisation."""
    from onnx import TensorProto, helper

    g = _Graph()
    f32 = np.float32
    # shared constants
    heads_shape = g.const("const.heads_shape", np.array([0, 0, HEADS, HEAD_DIM], dtype=np.int64))
    hidden_shape = g.const("const.hidden_shape", np.array([0, 0, HIDDEN], dtype=np.int64))
    scale = g.const("const.sqrt_head_dim", np.array(np.sqrt(HEAD_DIM), dtype=f32))
    one = g.const("const.one", np.array(1.0, dtype=f32))
    neg = g.const("const.mask_negative", np.array(MASK_NEGATIVE, dtype=f32))
    half = g.const("const.half", np.array(0.5, dtype=f32))
    sqrt2 = g.const("const.sqrt2", np.array(np.sqrt(2.0), dtype=f32))
    axes_1 = g.const("const.axes_1", np.array([1], dtype=np.int64))
    axes_12 = g.const("const.axes_1_2", np.array([1, 2], dtype=np.int64))
    axes_2 = g.const("const.axes_2", np.array([2], dtype=np.int64))
    axes_0 = g.const("const.axes_0", np.array([0], dtype=np.int64))
    zero_1d = g.const("const.zero_1d", np.array([0], dtype=np.int64))
    count_floor = g.const("const.count_floor", np.array(1e-9, dtype=f32))
    norm_floor = g.const("const.norm_floor", np.array(1e-12, dtype=f32))

    # embeddings
    word = g.const("embeddings.word_embeddings.weight", weights["embeddings.word_embeddings.weight"])
    position = g.const("embeddings.position_embeddings.weight",
                       weights["embeddings.position_embeddings.weight"])
    token_type0 = g.const("embeddings.token_type_embeddings.row0",
                          weights["embeddings.token_type_embeddings.weight"][0])
    words = g.op("Gather", [word, "input_ids"], "embeddings.words", axis=0)
    # rows 0..S-1 of the position table: Slice by the 1-D sequence length (position ids 0..S-1)
    seq_len = g.op("Shape", ["input_ids"], "embeddings.seq_len", start=1, end=2)
    positions = g.op("Slice", [position, zero_1d, seq_len, axes_0], "embeddings.positions")
    summed = g.op("Add", [g.op("Add", [words, token_type0], "embeddings.words_types"), positions],
                  "embeddings.sum")
    hidden = _layer_norm(g, summed, weights, "embeddings.LayerNorm")

    # additive attention mask [B, 1, 1, S]
    mask_f = g.op("Cast", ["attention_mask"], "mask.float", to=TensorProto.FLOAT)
    inverted = g.op("Sub", [one, mask_f], "mask.inverted")
    additive = g.op("Mul", [inverted, neg], "mask.additive")
    additive = g.op("Unsqueeze", [additive, axes_12], "mask.additive_4d")

    for i in range(LAYERS):
        p = f"encoder.layer.{i}"

        def heads(x: str, which: str, perm: list[int]) -> str:
            lin = _linear(g, x, weights[f"{p}.attention.self.{which}.weight"],
                          weights[f"{p}.attention.self.{which}.bias"], f"{p}.attention.self.{which}")
            split = g.op("Reshape", [lin, heads_shape], f"{p}.attention.self.{which}.heads")
            return g.op("Transpose", [split], f"{p}.attention.self.{which}.transposed", perm=perm)

        q = heads(hidden, "query", [0, 2, 1, 3])          # [B, H, S, D]
        k = heads(hidden, "key", [0, 2, 3, 1])            # [B, H, D, S]
        v = heads(hidden, "value", [0, 2, 1, 3])          # [B, H, S, D]
        scores = g.op("MatMul", [q, k], f"{p}.attention.scores")
        scores = g.op("Div", [scores, scale], f"{p}.attention.scores_scaled")
        scores = g.op("Add", [scores, additive], f"{p}.attention.scores_masked")
        probs = g.op("Softmax", [scores], f"{p}.attention.probs", axis=-1)
        context = g.op("MatMul", [probs, v], f"{p}.attention.context")
        context = g.op("Transpose", [context], f"{p}.attention.context_t", perm=[0, 2, 1, 3])
        context = g.op("Reshape", [context, hidden_shape], f"{p}.attention.context_merged")
        attn = _linear(g, context, weights[f"{p}.attention.output.dense.weight"],
                       weights[f"{p}.attention.output.dense.bias"], f"{p}.attention.output.dense")
        attn = g.op("Add", [attn, hidden], f"{p}.attention.output.residual")
        attn = _layer_norm(g, attn, weights, f"{p}.attention.output.LayerNorm")

        inter = _linear(g, attn, weights[f"{p}.intermediate.dense.weight"],
                        weights[f"{p}.intermediate.dense.bias"], f"{p}.intermediate.dense")
        erf = g.op("Erf", [g.op("Div", [inter, sqrt2], f"{p}.gelu.scaled")], f"{p}.gelu.erf")
        gelu = g.op("Mul", [g.op("Mul", [inter, half], f"{p}.gelu.half"),
                            g.op("Add", [erf, one], f"{p}.gelu.one_plus")], f"{p}.gelu.out")
        out = _linear(g, gelu, weights[f"{p}.output.dense.weight"],
                      weights[f"{p}.output.dense.bias"], f"{p}.output.dense")
        out = g.op("Add", [out, attn], f"{p}.output.residual")
        hidden = _layer_norm(g, out, weights, f"{p}.output.LayerNorm")

    # mean pooling over the attention mask, then L2 normalisation
    mask_3d = g.op("Unsqueeze", [mask_f, axes_2], "pool.mask_3d")
    masked = g.op("Mul", [hidden, mask_3d], "pool.masked")
    total = g.op("ReduceSum", [masked, axes_1], "pool.sum", keepdims=0)
    count = g.op("ReduceSum", [mask_3d, axes_1], "pool.count", keepdims=0)
    count = g.op("Max", [count, count_floor], "pool.count_clamped")
    mean = g.op("Div", [total, count], "pool.mean")
    norm = g.op("ReduceL2", [mean], "norm.l2", axes=[1], keepdims=1)  # axes is an attribute before opset 18
    norm = g.op("Max", [norm, norm_floor], "norm.l2_clamped")
    g.nodes.append(helper.make_node("Div", [mean, norm], [OUTPUT_NAME], name="n9999_norm.out"))

    inputs = [helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"])
              for name in ("input_ids", "attention_mask")]
    outputs = [helper.make_tensor_value_info(OUTPUT_NAME, TensorProto.FLOAT, ["batch", HIDDEN])]
    graph = helper.make_graph(g.nodes, "all_MiniLM_L6_v2_mean_l2", inputs, outputs,
                              initializer=g.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name=PRODUCER_NAME, producer_version=PRODUCER_VERSION,
                              ir_version=IR_VERSION)
    model.doc_string = ("sentence-transformers/all-MiniLM-L6-v2, fp32, mean pooling over the attention "
                        # The text is part of the pinned bytes: it keeps the module's first path.
                        "mask and L2 normalisation; built by chapter-audit engine/onnx_graph.py")
    return model


def build_bytes(files: ModelFiles) -> bytes:
    """Serialised ONNX bytes for the verified model files (deterministic)."""
    model = build_model(read_safetensors(files.safetensors))
    return model.SerializeToString(deterministic=True)


def ensure_onnx(files: ModelFiles, directory: str | Path | None = None,
                expected_sha256: str | None = None) -> tuple[Path | None, bytes]:
    """Path and verified bytes of the cached graph, building (and caching) it when needed.

    The path is None when the cache directory is not writable (the bytes are still verified).

    A cached file whose sha256 differs from the pin is rebuilt; a freshly built file that
    differs from the pin is refused (:class:`RefusalError`, naming both hashes).
    """
    expected = expected_sha256 or ONNX_SHA256
    path = Path(directory or cache_dir()) / cache_name(files.safetensors_sha256)
    if path.is_file():
        data = path.read_bytes()
        if sha256_bytes(data) == expected:
            return path, data
    data = build_bytes(files)
    actual = sha256_bytes(data)
    if actual != expected:
        raise RefusalError(f"built ONNX graph has sha256 {actual}, expected the pinned {expected} "
                           f"(onnx/protobuf version change or graph edit?); not using it")
    try:
        write_file_atomically(path, data)
    except OSError as exc:  # an unwritable cache costs a rebuild next time, nothing else
        print(f"warning: cannot cache the ONNX graph in {path.parent} ({exc.strerror}); using it from memory",
              file=sys.stderr)
        return None, data
    return path, data
