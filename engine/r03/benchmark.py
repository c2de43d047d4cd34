"""Reader for an R02-style benchmark directory (the R03 input; format in docs/r03.md).

Every defect is an :class:`engine.runs.errors.InputError` naming the file and line (JSONL) or the
field (JSON, ``.npy`` rows). Judgments are read by a separate function,
:func:`read_judgments`, which prepare never calls (and cannot: the judgment barrier is on).

Layout::

    corpus.jsonl                 doc_id (int, checked ID), title, text
    tasks.jsonl                  task_id, question, requirements [str, ...], split development|final
    pool-key.json                {task: [doc_id, ...]}  the complete judged pool
    judgments.jsonl              task_id, doc_id, gradeA, gradeB, obligationsA, obligationsB
    vectors/documents.npy        (n, dim) float, + vectors/document_ids.json [doc_id, ...]
    vectors/questions.npy        (t, dim) float, + vectors/question_ids.json [task_id, ...]
    vectors/requirements.npy     optional (r, dim), + vectors/requirement_ids.json ["TASK:N", ...]
    baselines/dense.json         {task: [five doc ids, best first]}
    baselines/typed.json         same
    baselines/published_coverage.json   optional, same (a published selection to show beside ours)

Checks: unique ids; every task has >= 1 requirement, a pool of >= 5 distinct corpus documents,
a question vector and (when requirement vectors are supplied) one vector per requirement;
every pool member has a document vector; vectors used (pool documents, questions,
requirements) are finite and unit length within :data:`UNIT_TOLERANCE` (``|‖v‖ − 1| ≤ 1e-4``);
baselines list five distinct members of the task's pool for every task.

**Limits** (:data:`LIMITS`; checked here, so ``prepare`` refuses before a freeze is written and
``evaluate`` can never meet them): at most :data:`MAX_REQUIREMENTS` (63) requirements a task
(the oracle's coverage bitmask is one uint64), checked IDs in the signed 64-bit range (the
oracle holds them in an int64 array), and a pool small enough for the oracle's exhaustive
enumeration: C(pool, 5) subsets at about :data:`ORACLE_BYTES_PER_SUBSET` bytes each (measured
≈ 60 with tracemalloc at pools of 30–50) within :data:`MAX_ORACLE_BYTES` (2 GiB), i.e. at most
:data:`MAX_ORACLE_SUBSETS` subsets (a pool of 85 documents; 150 would need 35 GiB).

**Optional files** are listed once, in :data:`OPTIONAL_ROLES`; prepare hashes what is present
and evaluate checks exactly that (a role absent at the freeze must still be absent).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine.r03.oracle import MAX_REQUIREMENTS
from engine.runs.errors import InputError
from engine.runs.npy import read_npy
from engine.runs.jsonl import read_json_file, read_jsonl, require_fields

BUDGET = 5
UNIT_TOLERANCE = 1e-4
SPLITS = ("development", "final")
BASELINES = ("dense", "typed")
OPTIONAL_BASELINES = ("published_coverage",)

FILES = {
    "corpus": "corpus.jsonl",
    "tasks": "tasks.jsonl",
    "pool_key": "pool-key.json",
    "document_vectors": "vectors/documents.npy",
    "document_ids": "vectors/document_ids.json",
    "question_vectors": "vectors/questions.npy",
    "question_ids": "vectors/question_ids.json",
    "requirement_vectors": "vectors/requirements.npy",
    "requirement_ids": "vectors/requirement_ids.json",
    "baseline_dense": "baselines/dense.json",
    "baseline_typed": "baselines/typed.json",
    "baseline_published_coverage": "baselines/published_coverage.json",
}
# The one list of optional benchmark files (roles of FILES), read by prepare and evaluate alike.
OPTIONAL_ROLES = ("requirement_vectors", "requirement_ids", "baseline_published_coverage")
JUDGMENTS = "judgments.jsonl"
MAX_GRADE = 1000  # 2**1000 is finite in float64; 2**1024 is not
MIN_ID, MAX_ID = -2 ** 63, 2 ** 63 - 1      # checked IDs live in int64 arrays (the oracle)
ORACLE_BYTES_PER_SUBSET = 64                # measured ≈ 60 (tracemalloc, pools of 30–50)
MAX_ORACLE_BYTES = 2 * 1024 ** 3            # what the oracle may allocate for one task
MAX_ORACLE_SUBSETS = MAX_ORACLE_BYTES // ORACLE_BYTES_PER_SUBSET   # 33,554,432: pools up to 85
LIMITS = {"requirements per task": MAX_REQUIREMENTS, "checked ID range": (MIN_ID, MAX_ID),
          "oracle subsets per task": MAX_ORACLE_SUBSETS}


@dataclass
class Task:
    task_id: str
    question: str
    requirements: list[str]
    split: str

    @property
    def m(self) -> int:
        return len(self.requirements)


@dataclass
class Benchmark:
    root: Path
    files: dict[str, Path]                 # role -> existing file
    corpus: dict[int, dict[str, str]]      # doc_id -> {"title", "text"}
    tasks: dict[str, Task]                 # ascending task id
    pools: dict[str, list[int]]            # task -> pool, ascending doc id
    doc_vectors: dict[int, np.ndarray]     # pool documents only
    question_vectors: dict[str, np.ndarray]
    requirement_vectors: dict[str, np.ndarray] | None  # task -> (m, dim), or None if not supplied
    baselines: dict[str, dict[str, list[int]]] = field(default_factory=dict)

    @property
    def dim(self) -> int:
        return len(next(iter(self.question_vectors.values())))


@dataclass(frozen=True)
class Judgment:
    grade_a: float
    grade_b: float
    obligations_a: tuple[int, ...]
    obligations_b: tuple[int, ...]

    @property
    def mean_grade(self) -> float:
        return (self.grade_a + self.grade_b) / 2.0

    @property
    def agreed(self) -> tuple[int, ...]:
        return tuple(sorted(set(self.obligations_a) & set(self.obligations_b)))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_json(path: Path) -> Any:
    if not path.exists():
        raise InputError("required file is missing", path=path)
    return read_json_file(path)


def _read_matrix(path: Path) -> np.ndarray:
    if not path.is_file():
        raise InputError("required file is missing", path=path)
    matrix = read_npy(path)
    if matrix.ndim != 2 or not np.issubdtype(matrix.dtype, np.floating):
        raise InputError(f"must be a 2-D float array, got shape {matrix.shape} dtype {matrix.dtype}",
                         path=path)
    return matrix


def _check_unit(vector: np.ndarray, path: Path, row: int, label: str) -> np.ndarray:
    vec = np.asarray(vector, dtype=np.float64)
    if not np.all(np.isfinite(vec)):
        raise InputError(f"vector of {label} is not finite", path=path, field=f"row {row} (0-based)")
    norm = float(np.linalg.norm(vec))
    if abs(norm - 1.0) > UNIT_TOLERANCE:
        raise InputError(f"vector of {label} has length {norm:.6f}, not unit length "
                         f"(tolerance {UNIT_TOLERANCE:g})", path=path, field=f"row {row} (0-based)")
    return vec


def _id_list(path: Path, kind: str) -> list[Any]:
    ids = _read_json(path)
    if not isinstance(ids, list):
        raise InputError("must be a JSON list of ids", path=path)
    seen = set()
    for i, value in enumerate(ids):
        ok = _is_int(value) if kind == "int" else isinstance(value, str) and value != ""
        if not ok:
            raise InputError(f"entry must be {'an integer' if kind == 'int' else 'a non-empty string'}",
                             path=path, field=f"[{i}]")
        if value in seen:
            raise InputError(f"duplicate id {value!r}", path=path, field=f"[{i}]")
        seen.add(value)
    return ids


def benchmark_files(root: str | Path) -> dict[str, Path]:
    """Role -> path of every benchmark file present (required ones must exist)."""
    root = Path(root)
    if not root.is_dir():
        raise InputError("benchmark directory does not exist", path=root)
    files = {}
    for role, rel in FILES.items():
        path = root / rel
        if path.is_file():
            files[role] = path
        elif role not in OPTIONAL_ROLES:
            raise InputError("required file is missing", path=path)
    if ("requirement_vectors" in files) != ("requirement_ids" in files):
        missing = "requirement_ids" if "requirement_vectors" in files else "requirement_vectors"
        raise InputError("requirement vectors and their ids must be supplied together",
                         path=root / FILES[missing])
    return files


def _read_corpus(path: Path) -> dict[int, dict[str, str]]:
    corpus: dict[int, dict[str, str]] = {}
    for line, rec in read_jsonl(path):
        require_fields(rec, ("doc_id", "title", "text"), path, line,
                       kinds={"doc_id": int, "title": str, "text": str})
        if not _is_int(rec["doc_id"]):
            raise InputError("field 'doc_id' must be an integer checked ID", path=path, line=line)
        if not MIN_ID <= rec["doc_id"] <= MAX_ID:
            raise InputError(f"field 'doc_id' {rec['doc_id']} is outside the signed 64-bit range "
                             "(-2^63 .. 2^63-1) that checked IDs are held in", path=path, line=line)
        if rec["doc_id"] in corpus:
            raise InputError(f"duplicate doc_id {rec['doc_id']}", path=path, line=line)
        corpus[rec["doc_id"]] = {"title": rec["title"], "text": rec["text"]}
    if not corpus:
        raise InputError("corpus holds no documents", path=path)
    return corpus


def _read_tasks(path: Path) -> dict[str, Task]:
    tasks: dict[str, Task] = {}
    for line, rec in read_jsonl(path):
        require_fields(rec, ("task_id", "question", "requirements", "split"), path, line,
                       kinds={"task_id": str, "question": str, "requirements": list, "split": str})
        tid = rec["task_id"]
        if not tid or ":" in tid:
            raise InputError("field 'task_id' must be a non-empty string without ':'", path=path, line=line)
        if tid in tasks:
            raise InputError(f"duplicate task_id {tid!r}", path=path, line=line)
        reqs = rec["requirements"]
        if not reqs:
            raise InputError(f"task {tid!r} has no requirements", path=path, line=line)
        if len(reqs) > MAX_REQUIREMENTS:
            raise InputError(f"task {tid!r} has {len(reqs)} requirements; at most {MAX_REQUIREMENTS} "
                             "(the oracle's coverage bitmask is 64 bits)", path=path, line=line)
        for i, text in enumerate(reqs, start=1):
            if not isinstance(text, str) or not text.strip():
                raise InputError(f"requirement {i} of task {tid!r} must be a non-empty string",
                                 path=path, line=line)
        if rec["split"] not in SPLITS:
            raise InputError(f"field 'split' must be one of {', '.join(SPLITS)}, got {rec['split']!r}",
                             path=path, line=line)
        if not rec["question"].strip():
            raise InputError("field 'question' is empty", path=path, line=line)
        tasks[tid] = Task(tid, rec["question"], list(reqs), rec["split"])
    if not tasks:
        raise InputError("tasks file holds no tasks", path=path)
    return dict(sorted(tasks.items()))


def _read_pools(path: Path, tasks: dict[str, Task], corpus: dict[int, dict[str, str]]) -> dict[str, list[int]]:
    raw = _read_json(path)
    if not isinstance(raw, dict):
        raise InputError("must be a JSON object {task: [doc ids]}", path=path)
    pools: dict[str, list[int]] = {}
    for tid, members in raw.items():
        if tid not in tasks:
            raise InputError(f"pool for unknown task {tid!r}", path=path, field=tid)
        if not isinstance(members, list):
            raise InputError("pool must be a list of doc ids", path=path, field=tid)
        seen: set[int] = set()
        for i, doc in enumerate(members):
            if not _is_int(doc):
                raise InputError("pool member must be an integer doc id", path=path, field=f"{tid}[{i}]")
            if doc in seen:
                raise InputError(f"document {doc} listed twice in the pool", path=path, field=f"{tid}[{i}]")
            if doc not in corpus:
                raise InputError(f"pool member {doc} is missing from the corpus", path=path, field=f"{tid}[{i}]")
            seen.add(doc)
        if len(members) < BUDGET:
            raise InputError(f"pool of task {tid!r} has {len(members)} documents, fewer than the "
                             f"budget of {BUDGET}; R03 selects five from the pool", path=path, field=tid)
        subsets = math.comb(len(members), BUDGET)
        if subsets > MAX_ORACLE_SUBSETS:
            need = subsets * ORACLE_BYTES_PER_SUBSET / 1024 ** 3
            raise InputError(f"pool of task {tid!r} has {len(members)} documents: the oracle would enumerate "
                             f"C({len(members)}, {BUDGET}) = {subsets:,} subsets (about {need:,.1f} GiB), "
                             f"above the limit of {MAX_ORACLE_SUBSETS:,} ({MAX_ORACLE_BYTES // 1024 ** 3} GiB, "
                             "a pool of 85)", path=path, field=tid)
        pools[tid] = sorted(members)
    for tid in tasks:
        if tid not in pools:
            raise InputError(f"task {tid!r} has no pool", path=path)
    return dict(sorted(pools.items()))


def _read_baseline(path: Path, tasks: dict[str, Task], pools: dict[str, list[int]]) -> dict[str, list[int]]:
    raw = _read_json(path)
    if not isinstance(raw, dict):
        raise InputError("must be a JSON object {task: [five doc ids]}", path=path)
    out: dict[str, list[int]] = {}
    for tid, ranking in raw.items():
        if tid not in tasks:
            raise InputError(f"baseline for unknown task {tid!r}", path=path, field=tid)
        if not isinstance(ranking, list) or len(ranking) != BUDGET:
            raise InputError(f"baseline must list exactly {BUDGET} doc ids", path=path, field=tid)
        pool = set(pools[tid])
        for i, doc in enumerate(ranking):
            if not _is_int(doc):
                raise InputError("entry must be an integer doc id", path=path, field=f"{tid}[{i}]")
            if doc not in pool:
                raise InputError(f"document {doc} is not in the judged pool of task {tid!r}",
                                 path=path, field=f"{tid}[{i}]")
        if len(set(ranking)) != BUDGET:
            raise InputError("baseline lists a document twice", path=path, field=tid)
        out[tid] = list(ranking)
    for tid in tasks:
        if tid not in out:
            raise InputError(f"no baseline ranking for task {tid!r}", path=path)
    return dict(sorted(out.items()))


def load_benchmark(root: str | Path) -> Benchmark:
    """Read and validate everything except the judgments (see module docstring)."""
    files = benchmark_files(root)
    corpus = _read_corpus(files["corpus"])
    tasks = _read_tasks(files["tasks"])
    pools = _read_pools(files["pool_key"], tasks, corpus)

    doc_matrix = _read_matrix(files["document_vectors"])
    doc_ids = _id_list(files["document_ids"], "int")
    if len(doc_ids) != doc_matrix.shape[0]:
        raise InputError(f"{len(doc_ids)} ids for {doc_matrix.shape[0]} vector rows", path=files["document_ids"])
    dim = doc_matrix.shape[1]
    row_of = {doc: i for i, doc in enumerate(doc_ids)}
    doc_vectors: dict[int, np.ndarray] = {}
    for tid, pool in pools.items():
        for doc in pool:
            if doc in doc_vectors:
                continue
            if doc not in row_of:
                raise InputError(f"pool member {doc} of task {tid!r} has no document vector",
                                 path=files["document_ids"])
            doc_vectors[doc] = _check_unit(doc_matrix[row_of[doc]], files["document_vectors"],
                                           row_of[doc], f"document {doc}")

    q_matrix = _read_matrix(files["question_vectors"])
    q_ids = _id_list(files["question_ids"], "str")
    if len(q_ids) != q_matrix.shape[0]:
        raise InputError(f"{len(q_ids)} ids for {q_matrix.shape[0]} vector rows", path=files["question_ids"])
    if q_matrix.shape[1] != dim:
        raise InputError(f"dimension {q_matrix.shape[1]} differs from document vectors ({dim})",
                         path=files["question_vectors"])
    q_row = {t: i for i, t in enumerate(q_ids)}
    question_vectors = {}
    for tid in tasks:
        if tid not in q_row:
            raise InputError(f"task {tid!r} has no question vector", path=files["question_ids"])
        question_vectors[tid] = _check_unit(q_matrix[q_row[tid]], files["question_vectors"], q_row[tid],
                                            f"question {tid}")

    requirement_vectors = None
    if "requirement_vectors" in files:
        requirement_vectors = _read_requirement_vectors(files, tasks, dim)

    baselines = {name: _read_baseline(files[f"baseline_{name}"], tasks, pools)
                 for name in BASELINES + OPTIONAL_BASELINES if f"baseline_{name}" in files}
    return Benchmark(root=Path(root), files=files, corpus=corpus, tasks=tasks, pools=pools,
                     doc_vectors=doc_vectors, question_vectors=question_vectors,
                     requirement_vectors=requirement_vectors, baselines=baselines)


def _read_requirement_vectors(files: dict[str, Path], tasks: dict[str, Task], dim: int) -> dict[str, np.ndarray]:
    path, ids_path = files["requirement_vectors"], files["requirement_ids"]
    matrix = _read_matrix(path)
    ids = _id_list(ids_path, "str")
    if len(ids) != matrix.shape[0]:
        raise InputError(f"{len(ids)} ids for {matrix.shape[0]} vector rows", path=ids_path)
    if matrix.shape[1] != dim:
        raise InputError(f"dimension {matrix.shape[1]} differs from document vectors ({dim})", path=path)
    row: dict[tuple[str, int], int] = {}
    for i, key in enumerate(ids):
        tid, _, num = key.rpartition(":")
        if tid not in tasks or not num.isdigit():
            raise InputError(f"id {key!r} is not TASK:N for a known task", path=ids_path, field=f"[{i}]")
        n = int(num)
        if not 1 <= n <= tasks[tid].m:
            raise InputError(f"requirement number {n} outside 1..{tasks[tid].m} for task {tid!r}",
                             path=ids_path, field=f"[{i}]")
        row[(tid, n)] = i
    out = {}
    for tid, task in tasks.items():
        vecs = []
        for n in range(1, task.m + 1):
            if (tid, n) not in row:
                raise InputError(f"no vector for requirement {tid}:{n}", path=ids_path)
            vecs.append(_check_unit(matrix[row[(tid, n)]], path, row[(tid, n)], f"requirement {tid}:{n}"))
        out[tid] = np.vstack(vecs)
    return out


def read_judgments(path: str | Path, bench: Benchmark) -> dict[str, dict[int, Judgment]]:
    """Judgments per task and pool document; every defect names the line (and field).

    A judgment for a document outside the task's pool, an obligation number outside 1..m,
    a non-integer obligation or a duplicate (task, doc) pair is an error. Pool members
    without a judgment are unjudged (gain 0, no obligations).
    """
    path = Path(path)
    out: dict[str, dict[int, Judgment]] = {tid: {} for tid in bench.tasks}
    count = 0
    for line, rec in read_jsonl(path):
        require_fields(rec, ("task_id", "doc_id", "gradeA", "gradeB", "obligationsA", "obligationsB"),
                       path, line, kinds={"task_id": str, "doc_id": int, "gradeA": (int, float),
                                          "gradeB": (int, float), "obligationsA": list, "obligationsB": list})
        tid, doc = rec["task_id"], rec["doc_id"]
        if tid not in bench.tasks:
            raise InputError(f"judgment for unknown task {tid!r}", path=path, line=line)
        if not _is_int(doc) or doc not in set(bench.pools[tid]):
            raise InputError(f"document {doc!r} is not in the judged pool of task {tid!r}", path=path, line=line)
        if doc in out[tid]:
            raise InputError(f"duplicate judgment for task {tid!r} document {doc}", path=path, line=line)
        grades = []
        for name in ("gradeA", "gradeB"):
            value = rec[name]
            try:
                grade = float(value)
            except OverflowError:
                grade = math.inf
            if isinstance(value, bool) or not math.isfinite(grade) or abs(grade) > MAX_GRADE:
                raise InputError(f"field {name!r} must be a finite number of magnitude at most {MAX_GRADE} "
                                 "(the gain 2^grade − 1 must stay finite)", path=path, line=line)
            grades.append(grade)
        obligations = []
        m = bench.tasks[tid].m
        for name in ("obligationsA", "obligationsB"):
            values = rec[name]
            for value in values:
                if not _is_int(value) or not 1 <= value <= m:
                    raise InputError(f"field {name!r}: requirement number {value!r} outside 1..{m}",
                                     path=path, line=line)
            if len(set(values)) != len(values):
                raise InputError(f"field {name!r} lists a requirement twice", path=path, line=line)
            obligations.append(tuple(sorted(values)))
        out[tid][doc] = Judgment(grades[0], grades[1], obligations[0], obligations[1])
        count += 1
    if count == 0:
        raise InputError("judgments file holds no judgments", path=path)
    return out
