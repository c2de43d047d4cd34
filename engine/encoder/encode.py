"""The local all-MiniLM-L6-v2 sentence encoder on onnxruntime (no torch at run time).

Convention (the R02 encoder convention, seed 003 "representation"): wordpiece tokenisation with
the model's own ``tokenizer.json``, truncation to at most ``max_wordpieces`` (256) wordpieces
including ``[CLS]`` and ``[SEP]``, dynamic padding (to the longest text of a batch, pad id 0,
attention mask 0), mean pooling over the attention mask, L2 normalisation; batch 16, CPU
threads 4 (intra-op) / 1 (inter-op). Pooling and normalisation run inside the pinned ONNX graph
(:mod:`engine.encoder.onnx_graph`); for a user's ``--model`` that outputs token embeddings they are
done here in numpy with the same formulas.

Texts are tokenised once, sorted by wordpiece count (longest first) and encoded in batches of
``batch_size``; rows are returned in input order. Batch composition changes results only at
float32 noise level (~1e-7): padded positions get exactly zero attention weight and zero pooling
weight.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.runs.errors import InputError
from engine.runs.hashing import sha256_file
from engine.runs.outdir import acquire_output_lock, release_output_lock, write_files_atomically

MAX_POSITIONS = 512
POOLING = "mean over attention mask"
NORMALISATION = "L2"
DEFAULT_SHARD_SIZE = 8192   # texts per shard of a streamed encode (engine.encoder.stream)


@dataclass(frozen=True)
class EncoderConfig:
    """Encoder settings; ``model``/``tokenizer`` None means the pinned all-MiniLM-L6-v2."""

    model: str | Path | None = None
    tokenizer: str | Path | None = None
    max_wordpieces: int = 256
    batch_size: int = 16
    intra_op_threads: int = 4
    inter_op_threads: int = 1


def _session(model: bytes | str, config: EncoderConfig):
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.intra_op_num_threads = config.intra_op_threads
    options.inter_op_num_threads = config.inter_op_threads
    options.log_severity_level = 3  # errors only: no shape-merge warnings on stderr
    # Idle worker threads sleep instead of spinning: with 4 intra-op threads on a 2-core (or
    # shared) machine spinning threads steal the cores doing the work (bench/bench_encoder.py:
    # ~2x throughput at 4/1 on 2 cores). Scheduling only; results are unchanged.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def _tokenizer(path: Path, max_wordpieces: int):
    from tokenizers import Tokenizer

    try:
        tokenizer = Tokenizer.from_file(str(path))
    except Exception as exc:  # noqa: BLE001 - the tokenizers library raises plain Exceptions
        raise InputError(f"cannot load tokenizer ({' '.join(str(exc).split())})", path=path)
    # The shipped file truncates and pads to a fixed 128; we truncate at max_wordpieces and pad
    # per batch ourselves (dynamic padding, pad id 0).
    tokenizer.enable_truncation(max_length=max_wordpieces)
    tokenizer.no_padding()
    return tokenizer


def _check_config(config: EncoderConfig) -> None:
    if (config.model is None) != (config.tokenizer is None):
        raise InputError("--model and --tokenizer must be given together (or neither, for the pinned "
                         "all-MiniLM-L6-v2)")
    if not 2 <= config.max_wordpieces <= MAX_POSITIONS:
        raise InputError(f"max_wordpieces must be between 2 and {MAX_POSITIONS}, got {config.max_wordpieces}")
    for name, limit in (("batch_size", MAX_BATCH), ("intra_op_threads", MAX_THREADS),
                        ("inter_op_threads", MAX_THREADS)):
        value = getattr(config, name)
        if not isinstance(value, int) or value < 1:
            raise InputError(f"{name} must be a positive integer, got {value!r}", field=name)
        if value > limit:  # each thread or batch row is allocated up front
            raise InputError(f"{name} must be at most {limit}, got {value:,}", field=name)


MAX_THREADS = 256     # onnxruntime creates every thread up front
MAX_BATCH = 4096      # a batch × 256 wordpieces × 384 dims of activations is allocated at once


class Encoder:
    """A loaded encoder: tokenizer + onnxruntime session. Build it with :func:`load_encoder`."""

    def __init__(self, config: EncoderConfig, session, tokenizer, info: dict[str, Any],
                 output_name: str, pooled_in_graph: bool, feeds_token_types: bool, dimension: int) -> None:
        self.config = config
        self._session = session
        self._tokenizer = tokenizer
        self._info = info
        self._output_name = output_name
        self._pooled_in_graph = pooled_in_graph
        self._feeds_token_types = feeds_token_types
        self.dimension = dimension

    # --- tokenisation -------------------------------------------------------------------
    def _encode_ids(self, texts: list[str]) -> list[list[int]]:
        for position, text in enumerate(texts):
            if not isinstance(text, str):
                raise InputError(f"text {position} is {type(text).__name__}, not a string")
        return [encoding.ids for encoding in self._tokenizer.encode_batch(texts, add_special_tokens=True)]

    def wordpiece_counts(self, texts: list[str]) -> list[int]:
        """Wordpieces per text after truncation, including [CLS] and [SEP]."""
        return [len(ids) for ids in self._encode_ids(list(texts))]

    # --- inference ----------------------------------------------------------------------
    def _run_batch(self, batch: list[list[int]]) -> np.ndarray:
        length = max(len(ids) for ids in batch)
        input_ids = np.zeros((len(batch), length), dtype=np.int64)
        mask = np.zeros((len(batch), length), dtype=np.int64)
        for row, ids in enumerate(batch):
            input_ids[row, :len(ids)] = ids
            mask[row, :len(ids)] = 1
        feed = {"input_ids": input_ids, "attention_mask": mask}
        if self._feeds_token_types:
            feed["token_type_ids"] = np.zeros_like(input_ids)
        (out,) = self._session.run([self._output_name], feed)
        out = np.asarray(out, dtype=np.float32)
        if self._pooled_in_graph:
            return out
        if out.ndim == 3:  # token embeddings: mean over the attention mask
            weights = mask.astype(np.float32)[:, :, None]
            out = (out * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return (out / norms).astype(np.float32)

    def encode(self, texts: list[str], progress: bool | None = False,
               on_batch: Callable[[int, int], None] | None = None,
               on_plan: Callable[[int, int], None] | None = None) -> np.ndarray:
        """float32 ``(n, dimension)`` L2-normalised rows in input order; ``[]`` → ``(0, dimension)``.

        ``progress`` shows the texts done on stderr (:mod:`engine.runs.progress`; None: on a
        terminal). Instead, a caller tracking progress may
        pass ``on_plan(texts, padded_tokens)``, called once with this call's whole work, and
        ``on_batch(texts_in_batch, padded_tokens_of_batch)``, called after each batch; the work
        of a batch is its rows × its longest row in wordpieces (what the model computes on), so
        an ETA can follow the work left rather than the texts left (batches run longest first).
        """
        texts = list(texts)
        result = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return result
        ids = self._encode_ids(texts)
        order = sorted(range(len(ids)), key=lambda i: (-len(ids[i]), i))
        size = self.config.batch_size
        batches = [order[start:start + size] for start in range(0, len(order), size)]
        work = [len(members) * len(ids[members[0]]) for members in batches]   # longest first
        if on_plan is not None:
            on_plan(len(texts), sum(work))
        from engine.runs.progress import progress as show_progress

        with show_progress("encode", len(texts), unit="texts",
                           enabled=False if on_batch is not None or progress is False else progress) as bar:
            for number, members in enumerate(batches, start=1):
                result[members] = self._run_batch([ids[i] for i in members])
                if on_batch is not None:
                    on_batch(len(members), work[number - 1])
                bar.advance(len(members))
        return result

    def describe(self) -> dict[str, Any]:
        """JSON-able description for manifests."""
        import onnxruntime

        return {
            **self._info,
            "pooling": POOLING,
            "normalisation": NORMALISATION,
            "max_wordpieces": self.config.max_wordpieces,
            "padding": "dynamic (longest in batch), pad id 0",
            "batch_size": self.config.batch_size,
            "intra_op_threads": self.config.intra_op_threads,
            "inter_op_threads": self.config.inter_op_threads,
            "thread_spinning": False,
            "graph_optimization": "ORT_ENABLE_ALL, sequential execution",
            "dimension": self.dimension,
            "onnxruntime": onnxruntime.__version__,
        }


def load_encoder(config: EncoderConfig | None = None) -> Encoder:
    """Load the pinned all-MiniLM-L6-v2 (or a user model); :class:`InputError` on bad files."""
    config = config or EncoderConfig()
    _check_config(config)
    if config.model is None:
        return _load_pinned(config)
    return _load_user(config)


def _load_pinned(config: EncoderConfig) -> Encoder:
    from engine.encoder.model_files import MODEL_NAME, locate_model_files
    from engine.encoder.onnx_graph import HIDDEN, ONNX_SHA256, OUTPUT_NAME, ensure_onnx

    files = locate_model_files()
    onnx_path, onnx_bytes = ensure_onnx(files)
    tokenizer = _tokenizer(files.tokenizer, config.max_wordpieces)
    info = {
        "model": MODEL_NAME,
        "source": files.source,
        "model_path": str(files.safetensors),
        "model_sha256": files.safetensors_sha256,
        "tokenizer_path": str(files.tokenizer),
        "tokenizer_sha256": files.tokenizer_sha256,
        "onnx_path": str(onnx_path) if onnx_path is not None else None,
        "onnx_sha256": ONNX_SHA256,
    }
    return Encoder(config, _session(onnx_bytes, config), tokenizer, info, OUTPUT_NAME,
                   pooled_in_graph=True, feeds_token_types=False, dimension=HIDDEN)


def _load_user(config: EncoderConfig) -> Encoder:
    model_path, tokenizer_path = Path(config.model), Path(config.tokenizer)
    for path in (model_path, tokenizer_path):
        if not path.is_file():
            raise InputError("file not found", path=path)
    data = model_path.read_bytes()
    try:
        session = _session(data, config)
    except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own exception types
        raise InputError(f"onnxruntime cannot load the model ({' '.join(str(exc).split())[:300]})",
                         path=model_path)
    inputs = {i.name for i in session.get_inputs()}
    missing = {"input_ids", "attention_mask"} - inputs
    unknown = inputs - {"input_ids", "attention_mask", "token_type_ids"}
    if missing or unknown:
        raise InputError(f"model inputs must be input_ids, attention_mask and optionally token_type_ids; "
                         f"got {sorted(inputs)}", path=model_path)
    outputs = {o.name: o for o in session.get_outputs()}
    if "sentence_embedding" in outputs:
        output = outputs["sentence_embedding"]
    else:
        rank3 = [o for o in session.get_outputs() if len(o.shape or []) == 3]
        if not rank3:
            raise InputError("model has neither a sentence_embedding output nor a token-embedding output "
                             f"[batch, seq, dim]; outputs: {sorted(outputs)}", path=model_path)
        output = rank3[0]
    tokenizer = _tokenizer(tokenizer_path, config.max_wordpieces)
    import hashlib

    info = {
        "model": "user model",
        "source": "user model",
        "model_path": str(model_path),
        "model_sha256": hashlib.sha256(data).hexdigest(),
        "tokenizer_path": str(tokenizer_path),
        "tokenizer_sha256": sha256_file(tokenizer_path),
        "onnx_path": str(model_path),
        "onnx_sha256": hashlib.sha256(data).hexdigest(),
        "output": output.name,
    }
    encoder = Encoder(config, session, tokenizer, info, output.name, pooled_in_graph=False,
                      feeds_token_types="token_type_ids" in inputs, dimension=0)
    static = output.shape[-1] if output.shape else None
    if isinstance(static, int) and static > 0:
        encoder.dimension = static
    else:
        try:
            encoder.dimension = int(encoder._run_batch([encoder._encode_ids([""])[0]]).shape[1])
        except Exception as exc:  # noqa: BLE001
            raise InputError(f"model failed on a probe input ({' '.join(str(exc).split())[:300]})",
                             path=model_path)
    return encoder


# --- the `encode` pipeline ------------------------------------------------------------------

def output_paths(output: str | Path, ids_output: str | Path | None = None) -> tuple[Path, Path, Path]:
    """``(vectors.npy, ids file, manifest)``: ids default ``<stem>.ids.txt``, manifest ``<stem>.manifest.json``."""
    output = Path(output)
    if output.suffix != ".npy":
        raise InputError("output must be a .npy file", path=output)
    ids_path = Path(ids_output) if ids_output is not None else output.with_suffix(".ids.txt")
    manifest = output.with_suffix(".manifest.json")
    if len({p.resolve() for p in (output, ids_path, manifest)}) != 3:
        raise InputError("--ids-output must differ from the vectors file and its manifest", path=ids_path)
    return output, ids_path, manifest


def scan_records(path: str | Path, field: str, id_field: str | None = None,
                 on_text: Callable[[str], None] | None = None) -> tuple[list[str], str]:
    """Validate every record of a JSONL file; return its ids and the id field (texts are not kept
    unless ``on_text`` keeps them). Every defect is an :class:`InputError` naming FILE:LINE."""
    from engine.runs.jsonl import read_jsonl

    ids: list[str] = []
    seen: dict[str, int] = {}
    for line, record in read_jsonl(path):
        if id_field is None:
            id_field = next((name for name in ("_id", "doc_id", "id") if name in record), "doc_id")
        if field not in record or record[field] is None:
            raise InputError(f"missing field {field!r}", path=path, line=line)
        if not isinstance(record[field], str):
            raise InputError(f"field {field!r} must be a string, got {type(record[field]).__name__}",
                             path=path, line=line)
        if id_field not in record or record[id_field] is None:
            raise InputError(f"missing id field {id_field!r}", path=path, line=line)
        raw = record[id_field]
        if isinstance(raw, bool) or not isinstance(raw, (str, int)):
            raise InputError(f"id field {id_field!r} must be a string or integer, got {type(raw).__name__}",
                             path=path, line=line)
        doc_id = str(raw)
        if not doc_id or doc_id != doc_id.strip() or any(c in doc_id for c in "\r\n"):
            raise InputError(f"id {doc_id!r} is empty, has surrounding whitespace or a line break",
                             path=path, line=line)
        if doc_id in seen:
            raise InputError(f"duplicate id {doc_id!r} (first on line {seen[doc_id]})", path=path, line=line)
        seen[doc_id] = line
        ids.append(doc_id)
        if on_text is not None:
            on_text(record[field])
    if not ids:
        raise InputError("input holds no records", path=path)
    return ids, id_field or "doc_id"


def iter_text_chunks(path: str | Path, field: str, bounds: list[tuple[int, int]],
                     skip: int = 0) -> Iterator[list[str]]:
    """The texts of each ``(start, stop)`` record range of an already validated JSONL file,
    from range number ``skip`` on (one range in memory at a time)."""
    from engine.runs.jsonl import read_jsonl

    if skip >= len(bounds):
        return
    start = bounds[skip][0]
    number, chunk = skip, []
    for position, (_, record) in enumerate(read_jsonl(path)):
        if position < start:
            continue
        chunk.append(record[field])
        if position + 1 == bounds[number][1]:
            yield chunk
            number, chunk = number + 1, []
            if number == len(bounds):
                return


def _check_outputs(paths: tuple[Path, Path, Path], run_id: str) -> None:
    """Refuse existing outputs unless the manifest beside them is of this same run id."""
    from engine.runs.errors import RefusalError

    existing = [p for p in paths if p.exists()]
    if not existing:
        return
    manifest = paths[2]
    previous = None
    if manifest.is_file():
        try:
            previous = json.loads(manifest.read_text(encoding="utf-8")).get("run_id")
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError):
            previous = None
    if previous != run_id:
        raise RefusalError(f"{existing[0]}: exists and is not output of this run ({run_id}; manifest says "
                           f"{previous}); refusing to overwrite it (choose another --output)")


@dataclass(frozen=True)
class ShardTask:
    """One shard of a distributed encode: its number, its texts and the encoder settings."""

    number: int
    texts: tuple[str, ...]
    config: EncoderConfig


_WORKER_ENCODERS: dict[EncoderConfig, "Encoder"] = {}   # one onnxruntime session per worker process


def encode_shard(task: ShardTask) -> tuple[np.ndarray, str]:
    """A shard's vectors (exactly what a serial run computes for it) and the sha256 of its texts'
    canonical JSON; the task an executor runs (engine.runs.executor)."""
    from engine.runs.hashing import sha256_json

    encoder = _WORKER_ENCODERS.get(task.config)
    if encoder is None:
        encoder = _WORKER_ENCODERS[task.config] = load_encoder(task.config)
    texts = list(task.texts)
    return encoder.encode(texts), sha256_json(texts)


def run_encode(input_path: str | Path, field: str, output: str | Path, *,
               ids_output: str | Path | None = None, id_field: str | None = None,
               config: EncoderConfig | None = None, log: str | Path | None = None,
               progress: bool | None = None, shard_size: int = DEFAULT_SHARD_SIZE,
               workers: int | None = None, scheduler: str | None = None) -> dict[str, Any]:
    """Encode one text field of a JSONL file into ``vectors.npy`` + ids + manifest; return the manifest.

    Inputs of at most ``shard_size`` texts are encoded in memory in one go. Larger inputs are
    encoded shard by shard into ``<output stem>.shards/`` (:mod:`engine.encoder.stream`):
    bounded memory, and a re-run of an interrupted encode continues after its last whole
    shard. ``progress=None`` shows a progress line (texts done, rate, ETA) when stderr is a
    terminal and there are more than two batches.

    ``workers`` / ``scheduler`` encode the shards of a sharded input on a Dask cluster
    (:func:`engine.runs.executor.make_executor`; extra ``[distributed]``): each worker process
    loads its own session with this run's intra-op threads, and the shards come back in order
    into the same work directory, so the outputs are the serial bytes. They are not parameters
    of the run (its id and outputs do not depend on them); an input of one shard is encoded here.
    """
    import hashlib

    from engine.runs.executor import check_workers, import_distributed

    check_workers(workers, scheduler)
    if workers is not None or scheduler is not None:
        import_distributed()

    from engine.encoder.stream import ProgressMeter, ShardStore, npy_bytes, shard_bounds, shard_directory
    from engine.runs.progress import progress_enabled
    from engine.runs.hashing import dump_json, sha256_bytes
    from engine.runs.manifest import build_manifest, input_hashes
    from engine.runs.runlog import recorded_run

    from engine.runs.opener import display_name, is_stdin, resolve_input

    config = config or EncoderConfig()
    if is_stdin(input_path) and (workers is not None or scheduler is not None):
        raise InputError("stdin ('-') cannot be read by workers; give a file", field="--workers")
    input_path = resolve_input(input_path)   # '-': stdin copied once, hashed by content, named '-'
    paths = output_paths(output, ids_output)
    shard_bounds(1, shard_size)  # validates shard_size before the input is read
    texts: list[str] = []

    def keep_small(text: str) -> None:  # texts are kept only while they fit in one shard
        if len(texts) < shard_size + 1:
            texts.append(text)

    ids, id_field = scan_records(input_path, field, id_field, keep_small)
    sharded = len(ids) > shard_size
    if sharded:
        texts.clear()  # read again, shard by shard
    encoder = load_encoder(config)
    info = encoder.describe()
    parameters = {"field": field, "id_field": id_field, "max_wordpieces": config.max_wordpieces,
                  "batch_size": config.batch_size, "intra_op_threads": config.intra_op_threads,
                  "inter_op_threads": config.inter_op_threads, "pooling": POOLING,
                  "normalisation": NORMALISATION, "shard_size": shard_size}
    inputs = input_hashes({"input": input_path, "model": info["model_path"], "tokenizer": info["tokenizer_path"]})
    inputs["input"]["path"] = display_name(input_path)
    manifest = build_manifest("encode", inputs, parameters, encoder=info)
    acquire_output_lock(paths[0], manifest["run_id"])  # held until the files are written (engine.runs.outdir)
    try:
        _check_outputs(paths, manifest["run_id"])
        vectors_path, ids_path, manifest_path = paths
        store = ShardStore(shard_directory(vectors_path), manifest["run_id"], shard_size, len(ids))
        resumed = store.resume() if sharded else 0
        batches = -(-len(ids) // config.batch_size)
        show = batches > 2 and progress_enabled(progress)   # engine.runs.progress decides (terminal, env)
        with recorded_run(log, "encode", parameters) as rec:
            rec.run_id = manifest["run_id"]
            rec.add_inputs(info["model_path"], info["tokenizer_path"])
            rec.inputs[display_name(input_path)] = inputs["input"]["sha256"]
            bounds = shard_bounds(len(ids), shard_size)
            meter = ProgressMeter(len(ids), already_done=sum(stop - start for start, stop in bounds[:resumed]),
                                  enabled=bool(show))
            if sharded and (workers is not None or scheduler is not None):
                from engine.runs.executor import make_executor
                from engine.runs.hashing import sha256_json

                with make_executor(workers, scheduler) as executor:
                    manifest["executor"] = executor.describe()
                    tasks = (ShardTask(number, tuple(chunk), config) for number, chunk in
                             enumerate(iter_text_chunks(input_path, field, bounds, skip=resumed), start=resumed))
                    for number, (vectors, texts_sha256) in enumerate(executor.imap(encode_shard, tasks), start=resumed):
                        store.add(number, vectors, input_sha256=texts_sha256)
                        meter.advance(int(vectors.shape[0]))
            elif sharded:
                from engine.runs.hashing import sha256_json

                manifest["executor"] = {"kind": "serial", "workers": 1}
                for number, chunk in enumerate(iter_text_chunks(input_path, field, bounds, skip=resumed), start=resumed):
                    store.add(number, encoder.encode(chunk, on_batch=meter.advance, on_plan=meter.plan),
                              input_sha256=sha256_json(chunk))
            if sharded:
                manifest["tasks"] = store.task_records()
                digest = hashlib.sha256()
                for _ in store.stream_npy(encoder.dimension, digest):   # hash first, stream again below
                    pass
                vector_data: Any = store.stream_npy(encoder.dimension, hashlib.sha256())
            else:
                vector_data = npy_bytes(encoder.encode(texts, on_batch=meter.advance, on_plan=meter.plan))
                digest = hashlib.sha256(vector_data)
            meter.close()
            id_bytes = "".join(f"{doc_id}\n" for doc_id in ids).encode("utf-8")
            manifest["outputs"] = {
                "vectors": {"path": str(vectors_path), "sha256": digest.hexdigest(),
                            "shape": [len(ids), encoder.dimension], "dtype": "float32"},
                "ids": {"path": str(ids_path), "sha256": sha256_bytes(id_bytes), "count": len(ids)},
            }
            manifest_bytes = dump_json(manifest).encode("utf-8")
            write_files_atomically({vectors_path: vector_data, ids_path: id_bytes, manifest_path: manifest_bytes})
            if sharded:
                store.remove()   # only our own verified work directory
            rec.outputs[str(vectors_path)] = digest.hexdigest()
            rec.outputs[str(ids_path)] = sha256_bytes(id_bytes)
            rec.outputs[str(manifest_path)] = sha256_bytes(manifest_bytes)
            rec.results = {"vectors": str(vectors_path.resolve()), "ids": str(ids_path.resolve()),
                           "manifest": str(manifest_path.resolve())}
        return manifest
    finally:
        release_output_lock(paths[0])


def run_encode_experiment(*, input: Path, field: str, output: Path, ids_output: Path | None,
                          id_field: str | None, model: Path | None, tokenizer: Path | None,
                          batch_size: int, max_wordpieces: int, intra_op_threads: int,
                          inter_op_threads: int, log: str | Path, shard_size: int = DEFAULT_SHARD_SIZE,
                          progress: bool | None = None, workers: int | None = None,
                          scheduler: str | None = None) -> dict[str, Any]:
    """Entry point of the registered ``encode`` experiment (engine.experiments)."""
    config = EncoderConfig(model=model, tokenizer=tokenizer, max_wordpieces=max_wordpieces,
                           batch_size=batch_size, intra_op_threads=intra_op_threads,
                           inter_op_threads=inter_op_threads)
    return run_encode(input, field, output, ids_output=ids_output, id_field=id_field, config=config,
                      log=log, progress=progress, shard_size=shard_size, workers=workers, scheduler=scheduler)
