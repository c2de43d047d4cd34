"""``evaluate``: score TREC runs against qrels directly, logged like every run.

Pipeline (docs/evaluate.md):

1. read the qrels (:func:`engine.retrieval.trec.read_qrels`) and every run
   (:func:`engine.retrieval.trec_arrays.read_run_arrays`: vectorised, with the line reader's
   FILE:LINE errors) and parse ``--measures`` (ir_measures notation,
   :mod:`engine.retrieval.measures`); any defect is an InputError before anything is logged;
2. manifest (input sha256 by role ``qrels``, ``run 1``, ``run 2`` …, parameters) → run id;
3. inside :func:`engine.runs.runlog.recorded_run`: order each run per topic as ``--ties`` says
   (default ``trec_eval``: scores compared as trec_eval 9 holds them, single-precision floats,
   equal ones by document id descending; ``ours``: the project's rule, scores as read, document
   id ascending), rank, join with the qrels, compute every
   measure per topic, and with two or more runs compare each run with the first one (paired
   over topics): mean difference, paired percentile bootstrap 95% interval
   (:mod:`engine.stats.bootstrap`, as R03) and a paired randomisation test p-value
   (:mod:`engine.stats.randomisation`); write ``metrics.json``, ``comparison.json`` and
   ``manifest.json`` and publish them at once.

Conventions:

* **evaluated topics** = the topics of the qrels (sorted by id); a topic the run does not list
  scores 0 on every measure (trec_eval ``-c``); a run's topics absent from the qrels are not
  evaluated (their count is reported as ``topics_not_in_qrels``); the qrels topics a run does
  not list are counted as ``topics_without_results`` and named in a warning on stderr (and in
  ``--format json``'s ``warnings``): a run with no topic in common with the qrels scores 0
  everywhere, and says so;
* **run names** (result keys are dot paths: ``runs.bm25.macro.nDCG@10``): ``--run NAME=PATH``
  names a run explicitly; otherwise a run is named by its run tag (TREC column 6) when all of
  its rows carry one tag, else by its file name without the last suffix; ``.`` becomes ``_``;
  two runs of the same name are bad input (name them with ``NAME=PATH``);
* the first ``--run`` is the baseline of the comparison; differences are ``run − baseline``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.retrieval.ranking import within_topic_ranks
from engine.retrieval.measures import (JudgedHits, Measure, evaluate_hits, macro, parse_measures, topic_judgments,
                                      trec_eval_notes)
from engine.retrieval.trec import Qrels, read_qrels
from engine.retrieval.trec_arrays import RunArrays, read_run_arrays
from engine.retrieval.fuse_runs import FUSED_METHODS, fuse_runs
from engine.retrieval.fusion import DEFAULT_RRF_K
from engine.retrieval.comparison_plot import require_matplotlib, write_plot
from engine.runs.errors import InputError, RefusalError
from engine.runs.hashing import dump_json, sha256_file
from engine.runs.manifest import build_manifest, input_hashes
from engine.runs.opener import is_stdin, resolve_input
from engine.runs.outdir import check_target, publish, staged_directory
from engine.runs.runlog import DEFAULT_LOG, recorded_run
from engine.stats.bootstrap import LEVEL, PERCENTILE_METHOD, blocked_intervals
from engine.stats.corrections import bonferroni, holm
from engine.stats.randomisation import randomisation_p
from engine.stats.ttest import paired_t_test

COMMAND = "evaluate"
MANIFEST_NAME = "manifest.json"
TIES = ("trec_eval", "ours", "id_ascending")   # id_ascending: the earlier name of "ours"
DEFAULT_TIES = "trec_eval"


@dataclass
class RunEvaluation:
    """Per-topic values of every measure for one run (topics in the evaluation's order)."""

    name: str
    per_topic: dict[str, np.ndarray]
    topics_not_in_qrels: int
    topics_without_results: int = 0     # qrels topics the run lists no row for (each scores 0)


_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")


def run_name(path: Path, tags: list[str] | None = None) -> str:
    """The run's result-key name: its run tag when every row carries the same one, else the file
    name without its last suffix; dots as underscores."""
    base = tags[0] if tags and len(tags) == 1 and _NAME.match(tags[0]) else Path(path).stem
    return base.replace(".", "_") or "run"


def split_run_argument(text: str | Path) -> tuple[str | None, Path]:
    """``NAME=PATH`` → (NAME, PATH); a plain path (or an existing file whose name holds ``=``)
    → (None, path)."""
    value = str(text)
    name, sep, rest = value.partition("=")
    if sep and rest and _NAME.match(name) and not Path(value).exists():
        return name.replace(".", "_"), Path(rest)
    return None, Path(value)


def ordering(measure: Measure, ties: str) -> str:
    """How a run is ordered for ``measure`` under ``--ties`` (a key of :data:`ORDERINGS`).

    ``ours``: scores as read, ties by id ascending. ``trec_eval`` (the default): the order of the
    program ir_measures computes that name with, so that every value equals ir_measures' own:
    trec_eval 9 (pytrec_eval) for the trec_eval measures; for ``RR@k`` and ``Judged@k``, which
    trec_eval does not define and ir_measures computes itself (its ``msmarco`` and ``judged``
    providers), their order; for ``nDCG(dcg='exp-log2')@k`` gdeval's (Perl doubles, ids descending).
    """
    if ties != "trec_eval":
        return "double-ascending"
    if measure.family == "Judged" or (measure.family == "RR" and measure.cutoff is not None):
        return "double-ascending"
    if measure.family == "nDCG" and measure.dcg == "exp-log2" and measure.cutoff is not None:
        return "double-descending"
    return "single-descending"


ORDERINGS = {
    "single-descending": "score descending as trec_eval 9 holds it (the double read, stored as a single-precision "
                         "float, as pytrec_eval), equal scores by document id descending (strcmp)",
    "double-descending": "score descending as read (double), equal scores by document id descending (gdeval)",
    "double-ascending": "score descending as read (double), equal scores by document id ascending",
}


def rank_judged(run: RunArrays, topic_ids: list[str], qrels: Qrels, ties: str) -> tuple[JudgedHits, int]:
    """Rank one run per topic (score desc, then the tie rule) and keep its judged rows.

    ``ties`` is an ordering (:data:`ORDERINGS`) or a ``--ties`` value (``trec_eval`` → trec_eval
    9's single-precision ordering, ``ours``/``id_ascending`` → ``double-ascending``)."""
    ties = {"trec_eval": "single-descending", "ours": "double-ascending",
            "id_ascending": "double-ascending"}.get(ties, ties)
    n_topics = len(topic_ids)
    topic_index = {t: i for i, t in enumerate(topic_ids)}
    lookup = np.asarray([topic_index.get(t, -1) for t in run.topics], dtype=np.int64)
    not_in_qrels = int(np.count_nonzero(lookup < 0))
    topic = lookup[run.topic_code]
    doc, score = run.doc_code, run.score
    if not_in_qrels:
        known = topic >= 0
        topic, doc, score = topic[known], doc[known], score[known]
    # document codes follow code-point order of the ids: the tie key is the code or its negation
    if ties == "single-descending":
        with np.errstate(over="ignore"):
            compared = score.astype(np.float32).astype(np.float64)   # trec_eval 9: float sim
        rank = within_topic_ranks(topic, compared, -doc)
    elif ties == "double-descending":
        rank = within_topic_ranks(topic, score, -doc)
    else:
        rank = within_topic_ranks(topic, score, doc)
    length = np.bincount(topic, minlength=n_topics).astype(np.int64)
    # join with the qrels on (topic, document): judged documents first, then exact keys
    n_docs = max(len(run.docs), 1)
    doc_position = {d: i for i, d in enumerate(run.docs)}
    q_keys, q_grades = [], []
    for t, tid in enumerate(topic_ids):
        for judged_doc, grade in qrels.get(tid, {}).items():
            code = doc_position.get(judged_doc)
            if code is not None:
                q_keys.append(t * n_docs + code)
                q_grades.append(grade)
    if not q_keys:
        empty = np.zeros(0, dtype=np.int64)
        return JudgedHits(empty, empty, np.zeros(0, dtype=np.float64), length), not_in_qrels
    q_key_arr = np.asarray(q_keys, dtype=np.int64)
    q_order = np.argsort(q_key_arr, kind="stable")
    q_key_arr, q_grade_arr = q_key_arr[q_order], np.asarray(q_grades, dtype=np.float64)[q_order]
    judged_somewhere = np.zeros(n_docs, dtype=bool)
    judged_somewhere[q_key_arr % n_docs] = True
    rows = np.flatnonzero(judged_somewhere[doc])
    keys = topic[rows] * n_docs + doc[rows]
    at = np.minimum(np.searchsorted(q_key_arr, keys), q_key_arr.size - 1)
    match = q_key_arr[at] == keys
    rows, at = rows[match], at[match]
    hit_order = np.lexsort((rank[rows], topic[rows]))
    rows, at = rows[hit_order], at[hit_order]
    return JudgedHits(topic[rows], rank[rows], q_grade_arr[at], length), not_in_qrels


def evaluate_runs(qrels: Qrels, runs: dict[str, RunArrays], measures: tuple[Measure, ...],
                  ties: str = DEFAULT_TIES) -> tuple[list[str], list[RunEvaluation]]:
    """Evaluate every run on the qrels' topics (sorted by id); pure, no files."""
    topic_ids = sorted(qrels)
    stats = topic_judgments([qrels[t] for t in topic_ids])
    groups: dict[str, list[Measure]] = {}
    for m in measures:
        groups.setdefault(ordering(m, ties), []).append(m)
    out = []
    for name, run in runs.items():
        values: dict[str, np.ndarray] = {}
        not_in_qrels = 0
        for order, members in groups.items():
            hits, not_in_qrels = rank_judged(run, topic_ids, qrels, order)
            values.update(evaluate_hits(members, hits, stats))
        answered = len(set(run.topics) & set(topic_ids))
        out.append(RunEvaluation(name, {m.key: values[m.key] for m in measures}, not_in_qrels,
                                 len(topic_ids) - answered))
    return topic_ids, out


def read_run_file(path: str) -> tuple[RunArrays, str]:
    """The task of ``evaluate --workers/--scheduler`` (engine.runs.executor): one run file read on
    a worker, before the run starts, with the chunked reader of the serial path; its coded arrays
    (sent back to the driver, which evaluates them as it evaluates a run it read itself) and their
    digest (:func:`arrays_digest`). Each file is read once."""
    arrays = read_run_arrays(path)
    return arrays, arrays_digest(arrays)


def arrays_digest(arrays: RunArrays) -> str:
    """sha256 of a run's coded arrays (ids, codes, scores, tags): what a read task produced."""
    import hashlib

    digest = hashlib.sha256()
    for values in (arrays.topics, arrays.docs, arrays.tags):
        digest.update(json.dumps(values, ensure_ascii=False).encode("utf-8"))
    for array in (arrays.topic_code, arrays.doc_code, arrays.score):
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()


def compare(evaluations: list[RunEvaluation], measures: tuple[Measure, ...], draws: int,
            seed: int) -> dict[str, Any]:
    """Each run against the first, per measure: difference, bootstrap interval, randomisation p,
    paired t-test, and Bonferroni and Holm corrections of both p-values over the compared pairs."""
    if len(evaluations) < 2:
        return {}
    base = evaluations[0]
    pairs: dict[str, Any] = {}
    for other in evaluations[1:]:
        diffs = [other.per_topic[m.key] - base.per_topic[m.key] for m in measures]
        intervals = blocked_intervals(diffs, draws=draws, seed=seed)
        entry: dict[str, Any] = {}
        for m, diff, interval in zip(measures, diffs, intervals):
            test = paired_t_test(diff)
            entry[m.key] = {"difference": interval[0], "ci_low": interval[1], "ci_high": interval[2],
                            "randomisation_p": randomisation_p(diff, draws=draws, seed=seed),
                            "t": test.t, "t_test_p": test.p, "t_test_df": test.df}
            if test.reason:
                entry[m.key]["t_test_note"] = test.reason
            if diff.size == 1:   # every draw is that topic: [x, x] is not an interval
                entry[m.key].update(ci_low=None, ci_high=None, ci_note="one topic: no interval")
        pairs[f"{other.name}-minus-{base.name}"] = entry
    for m in measures:                    # one family per measure: its p-values over the pairs
        for test_name in ("randomisation_p", "t_test_p"):
            family = [pairs[pair][m.key][test_name] for pair in pairs]
            for pair, b, h in zip(pairs, bonferroni(family), holm(family)):
                pairs[pair][m.key][f"{test_name}_bonferroni"] = b
                pairs[pair][m.key][f"{test_name}_holm"] = h
    return {"baseline": base.name, "draws": draws, "seed": seed, "level": LEVEL,
            "interval": f"paired percentile bootstrap over topics ({PERCENTILE_METHOD} percentiles)",
            "p_value": "two-sided paired randomisation (sign-flip) test, Monte-Carlo with +1 correction",
            "t_test": "paired Student t-test, two-sided, on the per-topic differences (df = topics - 1); "
                      "null with a note when undefined (fewer than two topics, or differences that do not vary)",
            "corrections": f"Bonferroni and Holm, over the {len(pairs)} compared pair(s), per measure and per "
                           "test (*_bonferroni, *_holm); uncorrected values as randomisation_p and t_test_p",
            "pairs": pairs}


def metrics_document(topic_ids: list[str], evaluations: list[RunEvaluation],
                     measures: tuple[Measure, ...], ties: str) -> dict[str, Any]:
    runs = {}
    for ev in evaluations:
        lists = {m.key: ev.per_topic[m.key].tolist() for m in measures}
        runs[ev.name] = {
            "macro": {m.key: macro(ev.per_topic[m.key]) for m in measures},
            "per_topic": {tid: {key: lists[key][t] for key in lists} for t, tid in enumerate(topic_ids)},
            "topics_not_in_qrels": ev.topics_not_in_qrels,
            "topics_without_results": ev.topics_without_results,
        }
    return {"measures": [m.key for m in measures], "topics": len(topic_ids), "ties": ties,
            "tie_rule": {m.key: ORDERINGS[ordering(m, ties)] for m in measures}, "runs": runs}


def coverage_warnings(metrics: dict[str, Any], files: dict[str, str]) -> list[str]:
    """One warning per run that leaves qrels topics unanswered (``files``: run name → the file as
    given). The scores keep trec_eval ``-c`` semantics (a missing topic scores 0); the warning
    says so, because a run that shares no topic with the qrels would otherwise print all zeros
    without a word."""
    warnings = []
    total = metrics["topics"]
    for name, values in metrics["runs"].items():
        missing = values["topics_without_results"]
        where = files.get(name, name)
        if missing and missing == total:
            warnings.append(f"warning: {where}: run {name} has no topic in common with the qrels "
                            f"({total} topics): every measure is 0")
        elif missing:
            warnings.append(f"warning: {where}: run {name} lists no result for {missing} of the {total} "
                            f"qrels topics (they score 0)")
    return warnings


def measure_warnings(metrics: dict[str, Any]) -> list[str]:
    """One warning per sandbox ``ndcg@k`` asked of ``evaluate``: the W03 measure, gain ``2**g − 1``
    (ir_measures' ``nDCG(dcg='exp-log2')@k``, ranx's ``ndcg_burges@k``), where ranx's ``ndcg@k``
    of the same spelling is the linear-gain nDCG (ir_measures' ``nDCG@k``). With graded qrels
    the two differ, and a user who copied the name from ranx got the other number without a word."""
    out = []
    for key in metrics["measures"]:
        if key.startswith("ndcg@"):
            cutoff = key.split("@", 1)[1]
            out.append(f"warning: {key} is the sandbox's W03 nDCG with gain 2**g - 1 (ir_measures' "
                       f"nDCG(dcg='exp-log2')@{cutoff}, ranx's ndcg_burges@{cutoff}); ranx's ndcg@{cutoff} "
                       f"and ir_measures' nDCG@{cutoff} take the grade as gain: ask for nDCG@{cutoff} for that number")
    return out


def render_table(metrics: dict[str, Any], comparison: dict[str, Any]) -> str:
    """The printed summary: one row per run (macro values), then the paired comparisons."""
    keys = metrics["measures"]
    width = max(12, *(len(name) for name in metrics["runs"]))
    cols = [max(12, len(k)) for k in keys]
    lines = [f"{'run':<{width}} " + " ".join(f"{k:>{c}}" for k, c in zip(keys, cols))]
    for name, values in metrics["runs"].items():
        lines.append(f"{name:<{width}} " + " ".join(f"{values['macro'][k]:>{c}.6f}" for k, c in zip(keys, cols)))
    if comparison:
        lines.append("")
        lines.append(f"paired over {metrics['topics']} topics against {comparison['baseline']}: difference "
                     f"[95% bootstrap CI, {comparison['draws']} draws], randomisation-test p, paired t-test p; "
                     f"Holm-corrected over the {len(comparison['pairs'])} compared pair(s) in brackets")
        for pair, per_measure in comparison["pairs"].items():
            for key, v in per_measure.items():
                t_p = "undefined" if v["t_test_p"] is None else f"{v['t_test_p']:.4f} (Holm {v['t_test_p_holm']:.4f})"
                ci = (f"[{v['ci_note']}]" if v["ci_low"] is None or v["ci_high"] is None
                      else f"[{v['ci_low']:+.6f}, {v['ci_high']:+.6f}]")
                lines.append(f"{pair:<{width}} {key:>12} {v['difference']:+.6f} "
                             f"{ci} randomisation p={v['randomisation_p']:.4f} "
                             f"(Holm {v['randomisation_p_holm']:.4f}) t-test p={t_p}")
    return "\n".join(lines) + "\n"


def hashes_by_path(hashes: dict[str, dict[str, str]], path: str) -> str:
    return next(entry["sha256"] for entry in hashes.values() if entry["path"] == path)


def run_evaluate_experiment(*, qrels: Path, run: list[Path], measures: str, output: Path, ties: str,
                            seed: int, draws: int, log: str | Path | None = DEFAULT_LOG,
                            plot: Path | None = None, fuse: str | None = None,
                            rrf_k: int = DEFAULT_RRF_K,
                            workers: int | None = None, scheduler: str | None = None) -> dict[str, Any]:
    """Entry point of the registered ``evaluate`` experiment (engine.experiments).

    ``workers`` / ``scheduler`` (extra ``[distributed]``, engine.runs.executor) read each run file
    on a Dask worker, once and before the run starts (:func:`read_run_file`; the workers must see
    the files at the same paths, so neither stdin nor ``--fuse`` can be distributed); the driver
    evaluates the arrays they send back as it evaluates runs it read itself, so the outputs are the
    serial bytes and a defect in a run file is bad input, not a run. The manifest adds
    ``executor`` and ``tasks`` (each read task's input: the run file's sha256; output: the
    arrays' digest).
    """
    from engine.runs.executor import check_workers, import_distributed

    distributed = workers is not None or scheduler is not None
    check_workers(workers, scheduler)
    if distributed:
        if fuse is not None:
            raise InputError("cannot be combined with --workers/--scheduler (fuse on one machine)", field="--fuse")
        if any(is_stdin(p) for p in [qrels, *[split_run_argument(r)[1] for r in run]]):
            raise InputError("stdin ('-') cannot be read by workers; give a file", field="--workers")
        import_distributed()
    output = Path(output)
    if fuse is not None:
        if fuse not in FUSED_METHODS:
            raise InputError(f"must be one of {', '.join(FUSED_METHODS)}, got {fuse!r}", field="--fuse")
        if len(run) < 2:
            raise InputError("needs two or more --run to fuse", field="--fuse")
    if rrf_k < 0:
        raise InputError("must be >= 0", field="--rrf-k")
    if plot is not None:
        plot = Path(plot)
        if plot.suffix.lower() != ".svg":
            raise InputError("must name an .svg file", field="--plot")
        if len(run) < 2:
            raise InputError("needs two or more --run (a paired comparison to draw)", field="--plot")
        if plot.exists():
            raise RefusalError(f"--plot {plot} exists; it is never replaced (choose another file)")
        require_matplotlib()
    if not run:
        raise InputError("needs at least one --run", field="--run")
    if ties not in TIES:
        raise InputError(f"must be one of {', '.join(TIES)}, got {ties!r}", field="--ties")
    if draws < 1:
        raise InputError("must be >= 1", field="--draws")
    if not 0 <= seed < 2 ** 63:   # as `r03 evaluate --seed` (README, "Exit codes": --seed -1 is exit 2)
        raise InputError("must be a whole number from 0 to 2**63 - 1", field="--seed")
    parsed = parse_measures(measures, "--measures")
    arguments = [split_run_argument(p) for p in run]
    given_paths = [path for _, path in arguments]
    if sum(is_stdin(p) for p in [qrels, *given_paths]) > 1:
        raise InputError("only one input can be read from stdin ('-')", field="--run")
    run_paths = [resolve_input(p) for p in given_paths]
    qrels_path = resolve_input(qrels)
    judged = read_qrels(qrels_path)
    if distributed:   # each run file read once, on a worker, before the run starts (bad input: not a run)
        from engine.runs.executor import make_executor, task_record

        with make_executor(workers, scheduler) as executor:
            read = list(executor.imap(read_run_file, [str(path.resolve()) for path in run_paths]))
            described = executor.describe()
        loaded_list = [arrays for arrays, _ in read]
    else:
        loaded_list = [read_run_arrays(path) for path in run_paths]
    names = [explicit or run_name(given, arrays.tags)
             for (explicit, given), arrays in zip(arguments, loaded_list)]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise InputError(f"two runs are named {name!r} (by run tag or file name); name them with "
                             f"--run NAME=PATH", field="--run")
    if fuse is not None:
        if fuse in names:
            raise InputError(f"a run is already named {fuse!r}; rename it with --run NAME=PATH", field="--fuse")
        loaded_list.append(fuse_runs(loaded_list, fuse, rrf_k))
        names.append(fuse)
    loaded = dict(zip(names, loaded_list))
    shown = {qrels_path: str(qrels), **{path: str(given) for path, given in zip(run_paths, given_paths)}}
    roles: dict[str, str | Path | None] = {"qrels": qrels_path}
    roles.update({f"run {i}": path for i, path in enumerate(run_paths, start=1)})
    hashes = input_hashes(roles)
    for entry in hashes.values():
        entry["path"] = shown.get(Path(entry["path"]), entry["path"])
    parameters = {"measures": [m.key for m in parsed], "ties": ties, "seed": seed, "draws": draws,
                  "run_names": names}
    if fuse is not None:       # recorded only when asked for, so that earlier run ids stay valid
        parameters["fuse"] = fuse if fuse != "rrf" else f"rrf (k={rrf_k})"
    manifest = build_manifest(COMMAND, hashes, parameters,
                              outputs=sorted([MANIFEST_NAME, "metrics.json", "comparison.json"]))
    if distributed:
        manifest["executor"] = described
        manifest["tasks"] = [task_record(name, {"run": name, "run_sha256": hashes_by_path(hashes, shown[path])},
                                         {"arrays_sha256": digest})
                             for name, path, (_, digest) in zip(names, run_paths, read)]
    run_id = manifest["run_id"]
    check_target(output, MANIFEST_NAME, run_id)
    with recorded_run(log, COMMAND, {"qrels": str(qrels), "run": [str(p) for p in run],
                                     **parameters}) as record:
        record.run_id = run_id
        for path in (qrels_path, *run_paths):
            record.inputs[shown[path]] = hashes_by_path(hashes, shown[path])
        topic_ids, evaluations = evaluate_runs(judged, loaded, parsed, ties)
        metrics = metrics_document(topic_ids, evaluations, parsed, ties)
        comparison = compare(evaluations, parsed, draws, seed)
        files = {MANIFEST_NAME: dump_json(manifest), "metrics.json": dump_json(metrics),
                 "comparison.json": dump_json(comparison)}
        with staged_directory(output) as staging:
            for name, text in files.items():
                (staging / name).write_text(text, encoding="utf-8", newline="\n")
            publish(staging, output)
        record.add_outputs(output)
        if plot is not None:      # drawn from the published, logged values
            write_plot(output, plot)
            record.outputs[str(plot.resolve())] = sha256_file(plot)
        root = output.resolve()
        record.results = {"metrics": str(root / "metrics.json"), "comparison": str(root / "comparison.json"),
                          "manifest": str(root / MANIFEST_NAME)}
    run_files = {name: str(given) for name, given in zip(names, given_paths)}
    return {"run_id": run_id, "output": str(output), "metrics": metrics, "comparison": comparison,
            "notes": trec_eval_notes(measures, "--measures") + (
                ["note: --ties ours: the trec_eval names are ranked by our tie rule (score as read, document id "
                 "ascending), not trec_eval's, so tied scores may give other values than trec_eval prints"]
                if ties != "trec_eval" and trec_eval_notes(measures, "--measures") else []),
            "warnings": measure_warnings(metrics) + coverage_warnings(metrics, run_files),
            "table": render_table(metrics, comparison)}
