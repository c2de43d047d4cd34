"""The R03 pipelines: ``r03 prepare`` (label-free freeze) and ``r03 evaluate`` (after the freeze).

Source: seeds 000 and 003 (R03 · obligation-aware reranker, pre-outcome freeze); formats and
conventions in docs/r03.md.

``prepare`` runs entirely inside :func:`engine.r03.freeze.judgment_barrier`: it validates the
benchmark (never judgments), obtains requirement vectors (supplied file, else the encoder),
computes every score input and the greedy selections (:mod:`engine.r03.coverage`), and writes the
freeze directory whole (staged, files created exclusively and made read-only):
``score_inputs.json``, ``selections.json``, optionally ``requirement_vectors.npy`` +
``requirement_ids.json`` (when computed), and ``freeze_manifest.json`` hashing the method
parameters, program files, inputs (not judgments) and every frozen file.

``evaluate`` first re-hashes everything the freeze manifest pins and refuses (naming each
changed file or parameter) unless all match; only then does it open ``judgments.jsonl``.
It computes the R03 metrics for dense, typed, coverage (frozen), oracle (diagnostic) and,
when supplied, the published coverage selection; the paired bootstrap; and writes
``results.json``, ``tables.md``, CSV tables and ``manifest.json``. Re-running into an output
directory that holds results never replaces them: a differing run goes to
``corrections/<n>/`` with a ``correction.json`` disclosure; an identical one writes nothing.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from engine.r03 import coverage
from engine.r03.benchmark import (FILES, JUDGMENTS, OPTIONAL_ROLES, UNIT_TOLERANCE, Benchmark, load_benchmark,
                              read_judgments)
from engine.runs.errors import InputError, RefusalError
from engine.r03.freeze import (DEFAULT_BARRIER_PATTERNS, check_barrier_patterns, judgment_barrier,
                           refuse_existing_freeze, write_exclusive)
from engine.runs.hashing import dump_json, sha256_bytes, sha256_file
from engine.runs.manifest import build_manifest, derive_run_id, input_hashes, manifest_differences
from engine.runs.outdir import lock_file, output_lock, publish, published_mode, staged_directory
from engine.runs.progress import tracked
from engine.runs.runlog import recorded_run, utc_now
from engine.runs.versions import package_versions

PREPARE = "r03 prepare"
EVALUATE = "r03 evaluate"
FREEZE_FORMAT = "chapter-audit/r03-freeze/1"
FREEZE_MANIFEST = "freeze_manifest.json"
SCORE_INPUTS = "score_inputs.json"
SELECTIONS = "selections.json"
REQ_VECTORS = "requirement_vectors.npy"
REQ_IDS = "requirement_ids.json"
FREEZE_FILES = (FREEZE_MANIFEST, SCORE_INPUTS, SELECTIONS, REQ_VECTORS, REQ_IDS)
RESULTS = "results.json"
MANIFEST = "manifest.json"
CORRECTIONS = "corrections"
CORRECTION = "correction.json"
MAX_DRAWS = 10_000_000                 # bootstrap draws accepted by evaluate
MAX_BOOTSTRAP_CELLS = 100_000_000      # draws × tasks (8 bytes each) allocated at once

PREPARE_PROGRAMS = ("r03/coverage.py", "r03/freeze.py", "r03/pipeline.py", "r03/benchmark.py")
ENCODER_PROGRAMS = ("encoder/encode.py",)
EVALUATE_PROGRAMS = ("r03/metrics.py", "r03/oracle.py", "stats/bootstrap.py", "retrieval/metrics.py")

METHOD = {
    "name": "R03 obligation-aware greedy reranker",
    "budget": coverage.BUDGET,
    "candidate_universe": "the complete judged pool of each task (pool-key.json)",
    "facets": "question followed by its m requirements; weight 1/(m+1) each",
    "normaliser": "max(0, dot(facet, doc)) / max over the complete task pool; all-zero facet stays 0",
    "objective": "F(S) = [sum_f max_{d in S} ncos(f,d) - sum_{unordered {d,e} in S} max(0,dot(d,e))/C(5,2)]/(m+1); max over empty S = 0",
    "pair_divisor": coverage.PAIR_DIVISOR,
    "summation": "math.fsum (exactly rounded) for both sums",
    "selection": "exactly 5 greedy steps, largest F(S+d)-F(S), exact ties -> smaller checked ID; selection order is the ranking",
    "requirement_text": "each raw requirement string encoded individually (when not supplied)",
    "unit_tolerance": UNIT_TOLERANCE,
}

SUBSETS = ("all", "final", "development")
CONTRASTS = (("coverage-minus-dense", "coverage", "dense"),
             ("coverage-minus-typed", "coverage", "typed"),
             ("typed-minus-dense", "typed", "dense"),
             ("oracle-minus-dense", "oracle", "dense"))


# --------------------------------------------------------------------------- shared helpers

def program_path(name: str) -> Path:
    return Path(__file__).resolve().parents[1] / name


def program_hashes(names: Sequence[str]) -> dict[str, str]:
    """``{"engine/<subpackage>/<name>": sha256}`` for each engine source file (missing file: ``"missing"``)."""
    out = {}
    for name in names:
        path = program_path(name)
        out[f"engine/{name}"] = sha256_file(path) if path.is_file() else "missing"
    return out


def _float_list(values: np.ndarray) -> list:
    return np.asarray(values, dtype=np.float64).tolist()


def _npy_bytes(matrix: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, matrix, allow_pickle=False)
    return buffer.getvalue()


# --------------------------------------------------------------------------- prepare

def _encoder_available() -> bool:
    try:
        import engine.encoder.encode  # noqa: F401
    except ImportError:
        return False
    return True


def load_requirement_encoder(bench: Benchmark) -> Any:
    """The project encoder, loaded before the run starts; InputError when its dimension is not the
    benchmark's (the requirement vectors it would compute could not be compared with the documents)."""
    from engine.encoder.encode import EncoderConfig, load_encoder

    enc = load_encoder(EncoderConfig())
    if enc.dimension != bench.dim:
        raise InputError(f"document and question vectors have dimension {bench.dim}, but requirement vectors "
                         f"are not supplied and the encoder computes {enc.dimension}-dimensional ones; supply "
                         f"vectors/requirements.npy of dimension {bench.dim}", path=bench.files["document_vectors"])
    return enc


def encode_requirements(bench: Benchmark, enc: Any = None) -> tuple[list[str], np.ndarray, dict[str, Any]]:
    """Encode every raw requirement string individually with the project encoder."""
    ids, texts = [], []
    for tid, task in bench.tasks.items():
        for n, text in enumerate(task.requirements, start=1):
            ids.append(f"{tid}:{n}")
            texts.append(text)
    if enc is None:
        enc = load_requirement_encoder(bench)
    vectors = np.asarray(enc.encode(texts, progress=None), dtype=np.float32)
    return ids, vectors, dict(enc.describe())


def task_score_inputs(bench: Benchmark, tid: str, requirement_vectors: np.ndarray) -> dict[str, Any]:
    """Normalised facet scores, pair cosines and the greedy steps of one task."""
    task = bench.tasks[tid]
    pool = bench.pools[tid]
    facets = np.vstack([bench.question_vectors[tid][None, :], requirement_vectors])
    docs = np.vstack([bench.doc_vectors[d] for d in pool])
    raw = coverage.positive_cosines(facets, docs)
    ncos = coverage.normalised_scores(facets, docs)
    pairs = coverage.pair_cosines(docs)
    steps = coverage.greedy_select(ncos, pairs, pool, coverage.BUDGET)
    return {
        "pool": list(pool),
        "facets": ["question"] + [f"requirement {n}" for n in range(1, task.m + 1)],
        "facet_weight": 1.0 / (task.m + 1),
        "positive_cosine": [_float_list(r) for r in raw],
        "normalised": [_float_list(r) for r in ncos],
        "pair_positive_cosine": [_float_list(r) for r in pairs],
        "greedy_steps": [{"doc_id": s.doc_id, "gain": s.gain, "objective": s.objective} for s in steps],
        "selection": [s.doc_id for s in steps],
    }


def prepare(benchmark: str | Path, freeze: str | Path, log: str | Path | None = None,
            barrier_patterns: Sequence[str] | None = None) -> dict[str, Any]:
    """Stage 1 (module docstring). Returns ``{"run_id", "freeze", "selections"}``."""
    freeze = Path(freeze)
    check_barrier_patterns(barrier_patterns or ())
    patterns = tuple(barrier_patterns) if barrier_patterns else DEFAULT_BARRIER_PATTERNS
    own_files = [lock_file(freeze)] + ([Path(log)] if log is not None else [])  # not judgment files
    # The freeze is locked from its check to its rename (engine.runs.outdir): a second prepare
    # into the same --freeze meanwhile is refused naming this one.
    with output_lock(freeze, holder="r03 prepare"), judgment_barrier(patterns, exempt=own_files) as barrier:
        refuse_existing_freeze(freeze, FREEZE_FILES)
        try:
            bench = load_benchmark(benchmark)
        except Exception as exc:  # a barrier hit may surface as a reader's InputError
            if not barrier.hits:
                raise
            with recorded_run(log, PREPARE, {"benchmark": str(benchmark), "freeze": str(freeze)}):
                raise barrier.error() from exc
        supplied = bench.requirement_vectors is not None
        if not supplied and not _encoder_available():
            raise InputError("requirement vectors are not supplied and the encoder (engine.encoder.encode) "
                             "is not available to compute them", path=Path(benchmark) / FILES["requirement_vectors"])
        encoder = None if supplied else load_requirement_encoder(bench)  # every limit checked before the run
        programs = program_hashes(PREPARE_PROGRAMS + (() if supplied else ENCODER_PROGRAMS))
        inputs = input_hashes({role: path for role, path in bench.files.items()})
        parameters = {"method": METHOD, "barrier_patterns": list(patterns),
                      "requirement_vectors": "supplied" if supplied else "computed"}
        run_id = derive_run_id(PREPARE, {**inputs, **{f"program {k}": {"sha256": v} for k, v in programs.items()}},
                               parameters)
        with recorded_run(log, PREPARE, {"benchmark": str(benchmark), "freeze": str(freeze), **parameters}) as rec:
            rec.run_id = run_id
            rec.add_inputs(*bench.files.values())
            frozen: dict[str, bytes] = {}
            if supplied:
                req_vectors = bench.requirement_vectors
                req_info: dict[str, Any] = {"source": "supplied",
                                            "file": str(bench.files["requirement_vectors"]),
                                            "sha256": inputs["requirement_vectors"]["sha256"],
                                            "ids_sha256": inputs["requirement_ids"]["sha256"],
                                            "encoder": None}
            else:
                ids, matrix, described = encode_requirements(bench, encoder)
                req_vectors = {}
                for i, key in enumerate(ids):
                    norm = float(np.linalg.norm(matrix[i].astype(np.float64)))
                    if abs(norm - 1.0) > UNIT_TOLERANCE:
                        raise ValueError(f"encoder returned a non-unit vector for requirement {key} (length {norm})")
                for tid, task in bench.tasks.items():
                    rows = [ids.index(f"{tid}:{n}") for n in range(1, task.m + 1)]
                    req_vectors[tid] = matrix[rows].astype(np.float64)
                frozen[REQ_VECTORS] = _npy_bytes(matrix)
                frozen[REQ_IDS] = dump_json(ids).encode("utf-8")
                req_info = {"source": "computed", "file": REQ_VECTORS,
                            "sha256": sha256_bytes(frozen[REQ_VECTORS]),
                            "ids_sha256": sha256_bytes(frozen[REQ_IDS]), "encoder": described}
            tasks_out = {tid: task_score_inputs(bench, tid, req_vectors[tid]) for tid in bench.tasks}
            selections = {tid: t["selection"] for tid, t in tasks_out.items()}
            frozen[SCORE_INPUTS] = dump_json({"format": FREEZE_FORMAT, "method": METHOD,
                                              "tasks": tasks_out}).encode("utf-8")
            frozen[SELECTIONS] = dump_json(selections).encode("utf-8")
            manifest = {
                "format": FREEZE_FORMAT,
                "run_id": run_id,
                "command": PREPARE,
                "created_at": utc_now(),
                "versions": package_versions(),
                "method": METHOD,
                "parameters": parameters,
                "programs": programs,
                "inputs": inputs,
                "requirement_vectors": req_info,
                "frozen": {name: sha256_bytes(data) for name, data in sorted(frozen.items())},
                "barrier": {"patterns": list(patterns),
                            "mechanism": "sys.addaudithook 'open' event; basename glob, case-insensitive"},
                "judgments_opened": False,
            }
            frozen[FREEZE_MANIFEST] = dump_json(manifest).encode("utf-8")
            if barrier.hits:  # an attempt was made (and its error swallowed somewhere): no freeze
                raise barrier.error()
            with staged_directory(freeze) as staging:
                for name in sorted(frozen):
                    write_exclusive(staging / name, frozen[name])
                if freeze.exists():
                    freeze.rmdir()  # empty (checked by refuse_existing_freeze)
                staging.rename(freeze)
            os.chmod(freeze, published_mode(directory=True))  # mkdtemp made it 0700; files stay 0444
            rec.add_outputs(freeze)
            rec.results = {"freeze_manifest": str(freeze.resolve() / FREEZE_MANIFEST),
                           "selections": str(freeze.resolve() / SELECTIONS)}
    return {"run_id": run_id, "freeze": str(freeze), "selections": selections}


# --------------------------------------------------------------------------- evaluate: freeze check

def read_freeze_manifest(freeze: Path) -> dict[str, Any]:
    path = freeze / FREEZE_MANIFEST
    if not path.is_file():
        raise RefusalError(f"{path}: no freeze manifest; run 'r03 prepare' first")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise RefusalError(f"{path}: unreadable freeze manifest ({' '.join(str(exc).split())[:120]})")
    if not isinstance(manifest, dict) or manifest.get("format") != FREEZE_FORMAT:
        raise RefusalError(f"{path}: not an R03 freeze manifest (format {FREEZE_FORMAT})")
    problems = freeze_manifest_problems(manifest, freeze)
    if problems:
        raise RefusalError(f"{path}: check 'manifest complete' failed: " + "; ".join(problems))
    return manifest


def _string_map(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())


def freeze_manifest_problems(manifest: dict[str, Any], freeze: Path) -> list[str]:
    """Missing or wrongly typed entries of a freeze manifest (every entry prepare writes)."""
    problems = []
    for name, kind in (("run_id", str), ("command", str), ("method", dict), ("parameters", dict),
                       ("programs", dict), ("inputs", dict), ("frozen", dict)):
        if not isinstance(manifest.get(name), kind):
            problems.append(f"entry {name!r} is missing or not {'a string' if kind is str else 'an object'}")
    if problems:
        return problems
    if not _string_map(manifest["frozen"]):
        problems.append("entry 'frozen' must map file names to sha256 strings")
    if not _string_map(manifest["programs"]):
        problems.append("entry 'programs' must map program names to sha256 strings")
    if not all(isinstance(v, dict) and isinstance(v.get("sha256"), str) for v in manifest["inputs"].values()):
        problems.append("entry 'inputs' must map roles to objects with a sha256 string")
    if problems:
        return problems
    for name in (SCORE_INPUTS, SELECTIONS):
        if name not in manifest["frozen"]:
            problems.append(f"no hash entry for {name}")
    if freeze.is_dir():
        for path in sorted(freeze.iterdir()):
            if path.name != FREEZE_MANIFEST and path.name not in manifest["frozen"]:
                problems.append(f"no hash entry for {path.name}")
    for role in FILES:
        if role not in manifest["inputs"] and role not in OPTIONAL_ROLES:
            problems.append(f"no hash entry for input {role}")
    for name in PREPARE_PROGRAMS:
        if f"engine/{name}" not in manifest["programs"]:
            problems.append(f"no hash entry for program engine/{name}")
    return problems


def logged_freeze_problems(manifest: dict[str, Any], freeze: Path, log: str | Path) -> list[str]:
    """Where the freeze directory differs from the outputs its prepare run logged.

    The prepare run is the ok ``r03 prepare`` record whose ``run_id`` the freeze manifest names;
    every file now in the freeze (the manifest too) must carry exactly the sha256 that record
    logged, and every logged file must still be there. Editing a frozen file together with its
    manifest entry therefore cannot pass.
    """
    from engine.runs.runlog import read_records

    run_id = manifest["run_id"]
    candidates = [r for r in read_records(log) if r.get("run_id") == run_id
                  and r.get("command") == PREPARE and r.get("status") == "ok"]
    if not candidates:
        return [f"the log {log} holds no ok 'r03 prepare' record of run {run_id} "
                "(evaluate with the --log that prepare wrote to)"]
    present = {p.name: p for p in sorted(freeze.iterdir()) if p.is_file()}
    reports = []
    for record in reversed(candidates):
        logged = {Path(k).name: v for k, v in (record.get("outputs") or {}).items()}
        problems = []
        for name, path in present.items():
            if name not in logged:
                problems.append(f"{name} was not written by prepare run {run_id}")
            elif sha256_file(path) != logged[name]:
                problems.append(f"{name} differs from the sha256 prepare run {run_id} logged")
        problems += [f"{name} (logged by prepare run {run_id}) is missing" for name in sorted(set(logged) - set(present))]
        if not problems:
            return []
        reports.append(problems)
    return reports[0]


def freeze_differences(manifest: dict[str, Any], freeze: Path, benchmark: Path) -> list[str]:
    """Every frozen hash or parameter that no longer matches, one phrase each."""
    problems: list[str] = []
    for name, sha in sorted(manifest.get("frozen", {}).items()):
        path = freeze / name
        if not path.is_file():
            problems.append(f"freeze file {path} is missing")
        elif sha256_file(path) != sha:
            problems.append(f"freeze file {path} changed (sha256 {sha[:12]}… -> {sha256_file(path)[:12]}…)")
    for name, sha in sorted(manifest.get("programs", {}).items()):
        current = program_hashes((name.removeprefix("engine/"),))[name]
        if current != sha:
            problems.append(f"program {name} changed (sha256 {sha[:12]}… -> {current[:12]}…)")
    frozen_inputs = manifest.get("inputs", {})
    for role, rel in sorted(FILES.items()):
        path = benchmark / rel
        old = (frozen_inputs.get(role) or {}).get("sha256")
        new = sha256_file(path) if path.is_file() else None
        if old != new:
            what = "added" if old is None else "removed" if new is None else "changed"
            problems.append(f"input {role} ({path}) {what} since the freeze")
    old_method = manifest.get("method") if isinstance(manifest.get("method"), dict) else {}
    for key in sorted(set(old_method) | set(METHOD)):
        if old_method.get(key) != METHOD.get(key):
            problems.append(f"method parameter {key}: frozen {old_method.get(key)!r} -> now {METHOD.get(key)!r}")
    return problems


def load_frozen_selections(freeze: Path, bench: Benchmark) -> dict[str, list[int]]:
    path = freeze / SELECTIONS
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or set(data) != set(bench.tasks):
        raise RefusalError(f"{path}: frozen selections do not cover exactly the benchmark's tasks")
    for tid, sel in data.items():
        if (not isinstance(sel, list) or len(sel) != coverage.BUDGET
                or not set(sel) <= set(bench.pools[tid]) or len(set(sel)) != coverage.BUDGET):
            raise RefusalError(f"{path}: frozen selection of task {tid!r} is not five distinct pool members")
    return {tid: list(map(int, sel)) for tid, sel in sorted(data.items())}


# --------------------------------------------------------------------------- evaluate: compute

def compute_results(bench: Benchmark, judgments: dict, selections: dict[str, list[int]],
                    seed: int, draws: int) -> dict[str, Any]:
    """The whole ``results.json`` object (format in docs/r03.md)."""
    from engine.r03 import oracle
    import engine.stats.bootstrap as bootstrap
    from engine.r03 import metrics as r03_metrics

    methods = ["dense", "typed", "coverage", "oracle"]
    published = "published_coverage" in bench.baselines
    if published:
        methods.append("published_coverage")
    tasks_out: dict[str, Any] = {}
    for tid, task in tracked(bench.tasks.items(), "r03 evaluate: oracle and metrics", unit="tasks"):
        judged = judgments[tid]
        agreed = {d: j.agreed for d, j in judged.items()}
        grades = {d: j.mean_grade for d, j in judged.items()}
        orc = oracle.oracle_select(bench.pools[tid], agreed, grades, coverage.BUDGET)
        chosen = {"dense": bench.baselines["dense"][tid], "typed": bench.baselines["typed"][tid],
                  "coverage": selections[tid], "oracle": orc.selection}
        if published:
            chosen["published_coverage"] = bench.baselines["published_coverage"][tid]
        entry: dict[str, Any] = {"split": task.split, "m": task.m,
                                 "oracle_selection": orc.selection,
                                 "subsets_enumerated": orc.subsets_enumerated,
                                 "attainable_coverage": orc.attainable / task.m,
                                 "unattainable_requirements": task.m - orc.attainable}
        for name in methods:
            entry[name] = r03_metrics.selection_metrics(chosen[name], judged, task.m, bench.doc_vectors,
                                                        chosen["dense"])
        tasks_out[tid] = entry

    aggregate: dict[str, Any] = {}
    boot: dict[str, Any] = {}
    notes: dict[str, str] = {}
    for subset in tracked(SUBSETS, "r03 evaluate: paired bootstrap", unit="subsets"):
        members = [t for t in tasks_out if subset == "all" or tasks_out[t]["split"] == subset]
        if not members:
            aggregate[subset] = None
            boot[subset] = None
            notes[subset] = f"no tasks in subset {subset!r}: no aggregate or bootstrap is reported"
            continue
        agg: dict[str, Any] = {name: r03_metrics.aggregate([tasks_out[t][name] for t in members])
                               for name in methods}
        agg["tasks"] = len(members)
        agg["subsets_enumerated"] = sum(tasks_out[t]["subsets_enumerated"] for t in members)
        agg["attainable_coverage"] = sum(tasks_out[t]["attainable_coverage"] for t in members) / len(members)
        agg["requirements"] = sum(tasks_out[t]["m"] for t in members)
        agg["unattainable_requirements"] = sum(tasks_out[t]["unattainable_requirements"] for t in members)
        aggregate[subset] = agg
        values = {metric: {name: [tasks_out[t][name][key] for t in members] for name in methods}
                  for metric, key in (("ndcg", "ndcg@5"), ("coverage", "coverage@5"))}
        boot[subset] = bootstrap.paired_bootstrap(values, CONTRASTS, draws=draws, seed=seed)
        if len(members) == 1:
            # a bootstrap over one task resamples that task every time: [x, x] is not an
            # interval. The point estimate stays; the bounds are refused (null) with a note.
            for per_metric in boot[subset].values():
                for metric, (mean, _lo, _hi) in per_metric.items():
                    per_metric[metric] = [mean, None, None]
            notes[subset] = (f"one task in subset {subset!r}: no interval "
                             "(a bootstrap over one task is not an interval)")
    return {
        "tasks": tasks_out,
        "aggregate": aggregate,
        "bootstrap": boot,
        "notes": notes,
        "methods": methods,
        "bootstrap_parameters": {"draws": draws, "seed": seed, "unit": "paired task",
                                 "interval": "percentile 95%",
                                 "percentile_method": bootstrap.PERCENTILE_METHOD,
                                 "rng": "numpy.random.default_rng(seed) per subset; "
                                        "integers(0, T, size=(draws, T)) over tasks in ascending id order"},
    }


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, inner in value.items():
            out.update(_flatten(inner, f"{prefix}.{key}" if prefix else str(key)))
        return out
    return {prefix: value}


def differing_numbers(first: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    """Dot-paths whose values differ between two results objects (lists compared whole)."""
    a, b = _flatten(first), _flatten(new)
    return [{"path": key, "first": a.get(key), "new": b.get(key)}
            for key in sorted(set(a) | set(b)) if a.get(key) != b.get(key)]


def _existing_runs(output: Path) -> list[Path]:
    runs = [output]
    corr = output / CORRECTIONS
    if corr.is_dir():
        runs += sorted((p for p in corr.iterdir() if p.is_dir() and p.name.isdigit()), key=lambda p: int(p.name))
    return runs


def evaluate(benchmark: str | Path, freeze: str | Path, output: str | Path,
             log: str | Path | None = None, seed: int = 129300, draws: int = 10000) -> dict[str, Any]:
    """Stage 2 (module docstring). Returns ``{"status": first|correction|unchanged, "results", ...}``."""
    from engine.r03 import metrics as r03_metrics

    benchmark, freeze, output = Path(benchmark), Path(freeze), Path(output)
    if draws < 1:
        raise InputError("--draws must be at least 1", field="draws")
    if draws > MAX_DRAWS:
        raise InputError(f"--draws must be at most {MAX_DRAWS:,}", field="draws")
    if not 0 <= seed < 2 ** 63:
        raise InputError("--seed must be a whole number from 0 to 2**63 - 1", field="seed")
    fm = read_freeze_manifest(freeze)
    problems = freeze_differences(fm, freeze, benchmark)
    if problems:
        raise RefusalError("check 'freeze matches its manifest' failed; refusing to open judgments: "
                           + "; ".join(problems))
    if log is not None:
        logged = logged_freeze_problems(fm, freeze, log)
        if logged:
            raise RefusalError("check 'freeze as logged by its prepare run' failed; refusing to open judgments: "
                               + "; ".join(logged))
    bench = load_benchmark(benchmark)
    if draws * len(bench.tasks) > MAX_BOOTSTRAP_CELLS:
        raise InputError(f"--draws {draws:,} × {len(bench.tasks)} tasks would need more than "
                         f"{MAX_BOOTSTRAP_CELLS:,} resampled indices", field="draws")
    selections = load_frozen_selections(freeze, bench)
    judgments_path = benchmark / JUDGMENTS
    if not judgments_path.is_file():
        raise InputError("required file is missing", path=judgments_path)
    judgments = read_judgments(judgments_path, bench)

    # The run id covers the frozen files, the benchmark files, the judgments, the evaluate
    # programs and the parameters (plus the freeze's run id), but not the freeze manifest's
    # own bytes (its creation time): re-creating an identical freeze gives the same run id.
    roles = {f"freeze_{name}": freeze / name for name in sorted(fm.get("frozen", {}))}
    roles.update({role: path for role, path in bench.files.items()})
    roles["judgments"] = judgments_path
    inputs = input_hashes(roles)
    programs = program_hashes(EVALUATE_PROGRAMS)
    parameters = {"seed": seed, "draws": draws, "freeze_run_id": fm.get("run_id")}
    id_inputs = {**inputs, **{f"program {k}": {"sha256": v} for k, v in programs.items()}}
    manifest = build_manifest(EVALUATE, id_inputs, parameters, freeze_run_id=fm.get("run_id"),
                              freeze_manifest=input_hashes({"freeze_manifest": freeze / FREEZE_MANIFEST}),
                              programs=programs, frozen_programs=fm.get("programs", {}))
    run_id = manifest["run_id"]
    # The output is locked from its check to its publication (engine.runs.outdir).
    with output_lock(output, run_id):
        if output.exists() and not output.is_dir():
            raise RefusalError(f"{output}: output path exists and is not a directory")
        first_exists = output.is_dir() and any(output.iterdir())
        if first_exists and not (output / MANIFEST).is_file():
            raise RefusalError(f"{output}: output directory is not empty and holds no {MANIFEST}; "
                               "refusing to overwrite it (choose a new --output)")

        with recorded_run(log, EVALUATE, {"benchmark": str(benchmark), "freeze": str(freeze),
                                          "output": str(output), "seed": seed, "draws": draws}) as rec:
            rec.run_id = run_id
            rec.add_inputs(*roles.values(), freeze / FREEZE_MANIFEST)
            results = compute_results(bench, judgments, selections, seed, draws)
            results["freeze_run_id"] = fm.get("run_id")
            results["run_id"] = run_id
            files = r03_metrics.render_outputs(results, bench, judgments)
            files[RESULTS] = dump_json(results)
            files[MANIFEST] = dump_json(manifest)

            if not first_exists:
                target, status = output, "first"
            else:
                for earlier in _existing_runs(output):
                    try:
                        old_id = json.loads((earlier / MANIFEST).read_text(encoding="utf-8")).get("run_id")
                        same = (earlier / RESULTS).read_text(encoding="utf-8") == files[RESULTS]
                    except (OSError, json.JSONDecodeError):
                        continue
                    if old_id == run_id and same:
                        rec.results = {"results": str(earlier.resolve() / RESULTS),
                                       "manifest": str(earlier.resolve() / MANIFEST)}
                        # nothing is written: the record points at (and hashes) the identical files
                        rec.outputs = {path: sha256_file(path) for path in sorted(rec.results.values())}
                        return {"status": "unchanged", "run_id": run_id, "results": rec.results["results"],
                                "message": f"nothing differs from the run already in {earlier}; nothing written"}
                first_manifest = json.loads((output / MANIFEST).read_text(encoding="utf-8"))
                first_results = json.loads((output / RESULTS).read_text(encoding="utf-8"))
                reasons = manifest_differences(first_manifest, manifest)
                if first_manifest.get("run_id") == run_id:
                    reasons.append("same run id as the first results but the results differ (non-deterministic output)")
                numbers = differing_numbers({k: v for k, v in first_results.items() if k != "run_id"},
                                            {k: v for k, v in results.items() if k != "run_id"})
                existing = _existing_runs(output)[1:]
                n = (int(existing[-1].name) + 1) if existing else 1
                target, status = output / CORRECTIONS / str(n), "correction"
                files[CORRECTION] = dump_json({
                    "correction": n,
                    "first_run_id": first_manifest.get("run_id"),
                    "new_run_id": run_id,
                    "created_at": manifest["created_at"],
                    "why": reasons or ["no input, program or parameter difference was detected"],
                    "differing_numbers": numbers,
                    "numbers_differ": bool(numbers),
                    "first_results": str((output / RESULTS).resolve()),
                    "policy": "the first results are kept unchanged; this correction is disclosed beside them",
                })
            (target.parent).mkdir(parents=True, exist_ok=True)
            with staged_directory(target) as staging:
                for name, text in sorted(files.items()):
                    (staging / name).parent.mkdir(parents=True, exist_ok=True)
                    (staging / name).write_text(text, encoding="utf-8")
                if target.exists():
                    target.rmdir()  # empty directory only (checked above)
                publish(staging, target)
            rec.add_outputs(target)
            rec.results = {"results": str(target.resolve() / RESULTS),
                           "manifest": str(target.resolve() / MANIFEST)}
        return {"status": status, "run_id": run_id, "results": rec.results["results"], "output": str(target)}


def prepare_experiment(*, benchmark: Path, freeze: Path, barrier_pattern: Sequence[str] | None,
                       log: str | Path) -> dict[str, Any]:
    """Entry point of the registered ``r03 prepare`` experiment (engine.experiments)."""
    return prepare(benchmark, freeze, log=log, barrier_patterns=barrier_pattern or None)


def evaluate_experiment(*, benchmark: Path, freeze: Path, output: Path, seed: int, draws: int,
                        log: str | Path) -> dict[str, Any]:
    """Entry point of the registered ``r03 evaluate`` experiment (engine.experiments)."""
    return evaluate(benchmark, freeze, output, log=log, seed=seed, draws=draws)
