"""Encoding a large input in shards: bounded memory, progress with rate and ETA, resumable.

The texts are cut into consecutive shards of ``shard_size`` texts (the last may be shorter).
Each shard is encoded on its own (length-sorted batching inside the shard) and written as
``shard-NNNNNN.npy`` into a work directory beside the output, ``<output stem>.shards/``; after
every shard, ``progress.json`` there records the run id, the shard size, the number of texts
and each finished shard's row count and sha256. Both are written atomically, so an interrupted
encode leaves only whole shards.

Resuming: a later run with the **same run id** (same input bytes, model, parameters — the shard
size is one of them) checks each recorded shard's sha256, keeps the verified prefix and
encodes from the first missing shard on. A work directory of another run is refused (never
overwritten); a shard whose bytes changed is encoded again. Because the shard boundaries
and every shard's contents depend only on the run's inputs and parameters, a resumed encode
writes the same bytes as an uninterrupted one (tested).

The final ``vectors.npy`` is streamed from the shards (``.npy`` format 1.0 header, then the
rows), so neither the texts nor the vectors of the whole input are held in memory at once;
the work directory is removed after the outputs are published.

**On workers** (``encode --workers N`` / ``--scheduler``, :mod:`engine.runs.executor`): the same
shards are encoded as tasks (:func:`engine.encoder.encode.encode_shard`, one onnxruntime session
per worker process with the run's intra-op threads), returned in shard order and added here
exactly as a serial run adds them, so the outputs are the serial run's bytes.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from engine.runs.errors import InputError, RefusalError
from engine.runs.hashing import dump_json, sha256_bytes
from engine.runs.outdir import write_file_atomically

PROGRESS_FILE = "progress.json"


def shard_directory(vectors_path: Path) -> Path:
    """The work directory of ``vectors_path``: ``<stem>.shards`` beside it."""
    return vectors_path.with_suffix(".shards")


def shard_name(number: int) -> str:
    return f"shard-{number:06d}.npy"


def shard_bounds(count: int, shard_size: int) -> list[tuple[int, int]]:
    """``[(start, stop)]`` of consecutive shards covering ``count`` texts."""
    if shard_size < 1:
        raise InputError(f"shard_size must be a positive integer, got {shard_size!r}", field="shard_size")
    return [(start, min(start + shard_size, count)) for start in range(0, count, shard_size)]


def npy_bytes(array: np.ndarray) -> bytes:
    """The bytes :func:`numpy.save` writes for ``array``."""
    import io

    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


class ShardStore:
    """The work directory of one run: finished shards and ``progress.json``."""

    def __init__(self, directory: Path, run_id: str, shard_size: int, count: int) -> None:
        self.directory = directory
        self.run_id = run_id
        self.shard_size = shard_size
        self.count = count
        self.finished: list[dict[str, object]] = []

    def resume(self) -> int:
        """Load the verified shards of an earlier attempt of this run; return how many.

        :class:`RefusalError` when the directory holds anything but this run's work.
        """
        if not self.directory.exists():
            return 0
        progress = self.directory / PROGRESS_FILE
        recorded = None
        if progress.is_file():
            try:
                recorded = json.loads(progress.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError):
                recorded = None
        if not isinstance(recorded, dict) or recorded.get("run_id") != self.run_id:
            said = recorded.get("run_id") if isinstance(recorded, dict) else None
            raise RefusalError(f"{self.directory}: exists and is not the work directory of this run "
                               f"({self.run_id}; it says {said}); refusing to overwrite it "
                               f"(remove it or choose another --output)")
        for number, shard in enumerate(recorded.get("shards", [])):
            path = self.directory / shard_name(number)
            if not path.is_file() or sha256_bytes(path.read_bytes()) != shard.get("sha256"):
                break
            self.finished.append(shard)
        return len(self.finished)

    def add(self, number: int, vectors: np.ndarray, input_sha256: str | None = None) -> None:
        """Write shard ``number`` whole, then record it in ``progress.json`` (with the sha256 of
        its texts' canonical JSON when given: the shard task's input hash for the manifest)."""
        if number != len(self.finished):
            raise ValueError(f"shard {number} written out of order (expected {len(self.finished)})")
        data = npy_bytes(vectors)
        write_file_atomically(self.directory / shard_name(number), data)
        entry = {"rows": int(vectors.shape[0]), "sha256": sha256_bytes(data)}
        if input_sha256 is not None:
            entry["input_sha256"] = input_sha256
        self.finished.append(entry)
        write_file_atomically(self.directory / PROGRESS_FILE, dump_json({
            "run_id": self.run_id, "shard_size": self.shard_size, "count": self.count,
            "shards": self.finished}))

    def vectors(self, number: int) -> np.ndarray:
        return np.load(self.directory / shard_name(number), mmap_mode="r", allow_pickle=False)

    def stream_npy(self, dimension: int, digest: Any) -> Iterator[bytes]:
        """The bytes of one ``.npy`` file holding every shard's rows in order (``digest`` is updated)."""
        import io

        header = io.BytesIO()
        np.lib.format.write_array_header_1_0(header, {
            "descr": np.lib.format.dtype_to_descr(np.dtype(np.float32)),
            "fortran_order": False, "shape": (self.count, dimension)})
        chunk = header.getvalue()
        digest.update(chunk)
        yield chunk
        for number in range(len(self.finished)):
            chunk = np.ascontiguousarray(self.vectors(number), dtype=np.float32).tobytes()
            digest.update(chunk)
            yield chunk

    def task_records(self) -> list[dict[str, object]]:
        """Each shard as a task of the run's manifest: its texts' and its vectors' sha256."""
        return [{"task": shard_name(number)[:-4], "rows": shard["rows"],
                 "input_sha256": shard.get("input_sha256"), "output_sha256": shard["sha256"]}
                for number, shard in enumerate(self.finished)]

    def remove(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


class ProgressMeter:
    """encode's progress: texts done, percent, rate of this session, ETA, shown through the one
    progress display of the project (:mod:`engine.runs.progress`: drawn on a terminal, plain
    lines without ``\r`` when asked for off a terminal, silent otherwise).

    The ETA follows the *work* left, not the texts left: each shard is encoded longest texts
    first, so a texts-per-second rate measured on the first batches of a shard is far below the
    shard's average. The encoder reports each shard's work when it starts (:meth:`plan`: padded
    wordpieces) and each batch's as it ends (:meth:`advance`); work left is the current shards'
    planned work not yet done plus, for texts not yet planned, their count × the planned work per
    text so far. Without work figures the ETA falls back to texts left / texts per second.
    """

    def __init__(self, total: int, already_done: int = 0, stream: TextIO | None = None,
                 enabled: bool = True) -> None:
        from engine.runs.progress import progress

        self.total = total
        self.start_done = already_done
        self.done = already_done
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.started = time.monotonic()
        self.planned_texts = 0
        self.planned_work = 0
        self.work_done = 0
        self.display = progress("encode", total, unit="texts", enabled=enabled, stream=self.stream,
                                describe=lambda _: self.line(time.monotonic() - self.started))
        self.display.done = already_done

    def plan(self, texts: int, work: int) -> None:
        """The encoder is about to encode ``texts`` texts costing ``work`` (padded wordpieces)."""
        self.planned_texts += texts
        self.planned_work += work

    def advance(self, texts: int, work: int = 0) -> None:
        self.done += texts
        self.work_done += work
        self.display.update(done=self.done)

    def line(self, elapsed: float) -> str:
        rate = (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0
        left = self.total - self.done
        if self.work_done > 0 and self.planned_texts and elapsed > 0:
            unplanned = self.total - self.start_done - self.planned_texts
            work_left = (self.planned_work - self.work_done) + unplanned * self.planned_work / self.planned_texts
            eta = _duration(work_left / (self.work_done / elapsed))
        else:
            eta = _duration(left / rate) if rate > 0 else "?"
        resumed = f", {self.start_done:,} resumed" if self.start_done else ""
        return (f"encode: {self.done:,}/{self.total:,} texts ({100.0 * self.done / self.total:.1f}%)"
                f"{resumed}, {rate:,.1f} texts/s, ETA {eta}")

    def close(self) -> None:
        self.display.close()


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m{secs:02d}s" if hours else f"{minutes}m{secs:02d}s"
