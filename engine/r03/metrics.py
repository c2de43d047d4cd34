"""R03 selection metrics (seed 003 ``metrics``/``agreedLabels``; seed 000 table notes).

Per task, for a five-document selection ``S`` (ranked):

* **agreed labels** of a document: ``obligationsA ∩ obligationsB`` (one-based numbers);
  ``union(S)`` is the union over ``S`` — agreement is never assembled across documents;
* ``ndcg@5``: pooled nDCG@5 via :func:`engine.retrieval.metrics.ndcg_at_k` with grade
  ``(gradeA + gradeB)/2`` (gain ``2**g − 1``, ideal over every judged pool document; unjudged
  pool members have gain 0);
* ``coverage@5 = |union(S)| / m`` with ``m`` = all requirements of the task (not only the
  pool-attainable ones);
* ``label_redundancy = (Σ_{d∈S} |agreed(d)| − |union(S)|) / Σ_{d∈S} |agreed(d)|``, 0 when the
  selection carries no agreed assignment (so a low value can reflect missing evidence);
* ``mean_pair_cosine``: mean of ``max(0, d·e)`` over the C(5,2) = 10 selected pairs;
* ``docs_without_agreed``: selected documents with no agreed obligation;
* ``lost_vs_dense = |union(dense) − union(S)|``, ``gained_vs_dense = |union(S) − union(dense)|``.

Aggregates over a subset of tasks: the arithmetic mean over tasks of every metric except
``lost_vs_dense`` / ``gained_vs_dense``, which are *summed* over tasks (seed 000: "'Lost /
gained' sums task-specific distinct obligations, counted once per task").
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from engine.runs.csvcells import neutralise_cell

from engine.r03.benchmark import Judgment
from engine.retrieval.metrics import ndcg_at_k

K = 5
METRICS = ("ndcg@5", "coverage@5", "label_redundancy", "mean_pair_cosine", "docs_without_agreed",
           "lost_vs_dense", "gained_vs_dense")
SUMMED = ("lost_vs_dense", "gained_vs_dense")


def agreed_of(doc: int, judgments: Mapping[int, Judgment]) -> tuple[int, ...]:
    j = judgments.get(doc)
    return j.agreed if j is not None else ()


def mean_grade_of(doc: int, judgments: Mapping[int, Judgment]) -> float:
    j = judgments.get(doc)
    return j.mean_grade if j is not None else 0.0


def agreed_union(selection: Sequence[int], judgments: Mapping[int, Judgment]) -> set[int]:
    out: set[int] = set()
    for doc in selection:
        out.update(agreed_of(doc, judgments))
    return out


def pooled_ndcg(selection: Sequence[int], judgments: Mapping[int, Judgment], k: int = K) -> float:
    grades = {str(doc): j.mean_grade for doc, j in judgments.items()}
    return ndcg_at_k([str(d) for d in selection], grades, k)


def label_redundancy(selection: Sequence[int], judgments: Mapping[int, Judgment]) -> float:
    total = sum(len(agreed_of(d, judgments)) for d in selection)
    if total == 0:
        return 0.0
    return (total - len(agreed_union(selection, judgments))) / total


def mean_pair_cosine(selection: Sequence[int], vectors: Mapping[int, np.ndarray]) -> float:
    values = [max(0.0, float(np.dot(vectors[a], vectors[b])))
              for i, a in enumerate(selection) for b in selection[i + 1:]]
    return sum(values) / len(values) if values else 0.0


def selection_metrics(selection: Sequence[int], judgments: Mapping[int, Judgment], m: int,
                      vectors: Mapping[int, np.ndarray], dense: Sequence[int]) -> dict[str, Any]:
    """Every per-task metric of one selection (module docstring)."""
    union = agreed_union(selection, judgments)
    dense_union = agreed_union(dense, judgments)
    return {
        "selection": [int(d) for d in selection],
        "ndcg@5": pooled_ndcg(selection, judgments),
        "coverage@5": len(union) / m,
        "label_redundancy": label_redundancy(selection, judgments),
        "mean_pair_cosine": mean_pair_cosine(selection, vectors),
        "docs_without_agreed": sum(1 for d in selection if not agreed_of(d, judgments)),
        "lost_vs_dense": len(dense_union - union),
        "gained_vs_dense": len(union - dense_union),
    }


def aggregate(per_task: Sequence[Mapping[str, Any]]) -> dict[str, float | int]:
    """Means over tasks, sums for lost/gained (module docstring). ``per_task`` must be non-empty."""
    if not per_task:
        raise ValueError("no tasks to aggregate")
    out: dict[str, float | int] = {}
    for name in METRICS:
        values = [row[name] for row in per_task]
        out[name] = int(sum(values)) if name in SUMMED else float(sum(values) / len(values))
    return out


def case_rows(selection: Sequence[int], judgments: Mapping[int, Judgment],
              titles: Mapping[int, str]) -> list[dict[str, Any]]:
    """Rows of a case table: rank, checked ID, title, mean grade, agreed and newly covered numbers."""
    covered: set[int] = set()
    rows = []
    for rank, doc in enumerate(selection, start=1):
        agreed = list(agreed_of(doc, judgments))
        new = [r for r in agreed if r not in covered]
        covered.update(agreed)
        rows.append({"rank": rank, "doc_id": int(doc), "title": titles.get(doc, ""),
                     "mean_grade": mean_grade_of(doc, judgments), "judged": doc in judgments,
                     "agreed": agreed, "new": new})
    return rows


# --------------------------------------------------------------------------- tables

LABELS = {
    "dense": "Dense",
    "typed": "R02 typed",
    "coverage": "Fixed coverage (this freeze)",
    "published_coverage": "Published fixed coverage (seed's selection, supplied; not recomputed)",
    "oracle": "Labeled oracle — diagnostic",
}
TABLE_ORDER = ("dense", "typed", "coverage", "published_coverage", "oracle")
SELECTION_HEADER = ["Selection", "nDCG@5", "Agreed coverage@5", "Label redundancy",
                    "Mean positive pair cosine", "Docs with no agreed obligation",
                    "Unique obligations lost / gained vs dense"]
EFFECT_HEADER = ["Exploratory paired effect", "nDCG difference [95% bootstrap interval]",
                 "Coverage difference [95% bootstrap interval]"]
CASE_HEADER = ["Rank / checked ID", "Document", "Mean grade", "Agreed requirements (one-based)",
               "New requirements at rank"]


def signed(x: float) -> str:
    """Four decimals with an explicit sign; values that round to zero print as ``+0.0000``."""
    text = f"{x:+.4f}"
    return "+0.0000" if text == "-0.0000" else text


NO_INTERVAL = "one task: no interval"


def effect_cell(triple: Sequence[float | None]) -> str:
    """``mean [lo, hi]``; bounds that were not computed (a one-task subset) print as
    ``mean [one task: no interval]``, never as a degenerate ``[x, x]``."""
    mean, lo, hi = triple
    if lo is None or hi is None:
        return f"{signed(mean)} [{NO_INTERVAL}]"
    return f"{signed(mean)} [{signed(lo)}, {signed(hi)}]"


def grade_text(grade: float, judged: bool) -> str:
    return f"{grade:g}" if judged else "0 (unjudged)"


def numbers_text(values: Sequence[int]) -> str:
    return ", ".join(str(v) for v in values) if values else "None"


def _md(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def _csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    import csv

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([neutralise_cell(cell) for cell in row] for row in rows)
    return buffer.getvalue()


def selection_rows(agg: Mapping[str, Any], methods: Sequence[str]) -> list[list[str]]:
    rows = []
    for name in TABLE_ORDER:
        if name not in methods:
            continue
        a = agg[name]
        rows.append([LABELS[name], f"{a['ndcg@5']:.4f}", f"{a['coverage@5']:.4f}",
                     f"{a['label_redundancy']:.4f}", f"{a['mean_pair_cosine']:.4f}",
                     f"{a['docs_without_agreed']:.4f}", f"{a['lost_vs_dense']} / {a['gained_vs_dense']}"])
    return rows


def render_outputs(results: Mapping[str, Any], bench: Any, judgments: Mapping[str, Any]) -> dict[str, str]:
    """``tables.md`` and the CSV tables (seed 000 table shapes) as ``{file name: text}``."""
    methods = results["methods"]
    md: list[str] = ["# R03 results (exploratory; pool-restricted)\n",
                     "Coverage uses all requirements as denominator. Label redundancy is repeated agreed "
                     "document–obligation assignments divided by total assignments (0 when there are none). "
                     "Lost / gained sums task-specific distinct obligations over tasks; other columns are "
                     "means over tasks. The oracle is a label-derived diagnostic ceiling, not a baseline.\n"]
    sel_csv: list[list[Any]] = []
    eff_csv: list[list[Any]] = []
    case_csv: list[list[Any]] = []
    params = results["bootstrap_parameters"]
    for subset, agg in results["aggregate"].items():
        md.append(f"## Subset `{subset}`\n")
        if agg is None:
            md.append(f"{results['notes'][subset]}.\n")
            continue
        md.append(f"{agg['tasks']} task(s); {agg['subsets_enumerated']:,} five-document subsets enumerated "
                  f"by the oracle; pool-attainable agreed coverage {agg['attainable_coverage']:.4f} "
                  f"({agg['unattainable_requirements']} of {agg['requirements']} requirements have no agreed "
                  "supporting document in their pool).\n")
        rows = selection_rows(agg, methods)
        md.append(_md(SELECTION_HEADER, rows))
        sel_csv += [[subset] + r for r in rows]
        effects = results["bootstrap"][subset]
        erows = [[name + (" (diagnostic)" if name.startswith("oracle") else ""),
                  effect_cell(effects[name]["ndcg"]), effect_cell(effects[name]["coverage"])]
                 for name in effects]
        md.append("\n" + _md(EFFECT_HEADER, erows))
        md.append(f"\n{params['draws']:,} paired task bootstrap draws, seed {params['seed']}; percentile "
                  f"95% intervals (numpy linear); no significance tests.\n")
        if subset in results["notes"]:
            md.append(f"{results['notes'][subset]}.\n")
        eff_csv += [[subset, name, *effects[name]["ndcg"], *effects[name]["coverage"]] for name in effects]
    md.append("## Case tables\n")
    for tid, entry in results["tasks"].items():
        task = bench.tasks[tid]
        md.append(f"### {tid} ({task.split}; m = {task.m}; {entry['subsets_enumerated']:,} subsets)\n")
        md.append(f"{task.question}\n")
        for name in TABLE_ORDER:
            if name not in methods:
                continue
            sel = entry[name]["selection"]
            rows = case_rows(sel, judgments[tid], {d: bench.corpus[d]["title"] for d in sel})
            md.append(f"**{LABELS[name]}** — coverage {entry[name]['coverage@5']:.4f}, "
                      f"nDCG@5 {entry[name]['ndcg@5']:.4f}\n")
            md.append(_md(CASE_HEADER, [[f"{r['rank']} / {r['doc_id']}", r["title"],
                                         grade_text(r["mean_grade"], r["judged"]),
                                         numbers_text(r["agreed"]), numbers_text(r["new"])] for r in rows]))
            md.append("")
            case_csv += [[tid, name, r["rank"], r["doc_id"], r["title"], repr(float(r["mean_grade"])),
                          numbers_text(r["agreed"]), numbers_text(r["new"])] for r in rows]
    return {
        "tables.md": "\n".join(md),
        "table_selection.csv": _csv(["subset"] + SELECTION_HEADER, sel_csv),
        "table_effects.csv": _csv(["subset", "contrast", "ndcg_mean", "ndcg_lo", "ndcg_hi",
                                   "coverage_mean", "coverage_lo", "coverage_hi"], eff_csv),
        "table_cases.csv": _csv(["task_id", "method", "rank", "doc_id", "document", "mean_grade",
                                 "agreed_requirements", "new_requirements_at_rank"], case_csv),
    }
