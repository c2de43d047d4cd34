"""Layout-specific extras for the R03 results page (seed 000): statcheck / GRIM in spirit.

These checks run on top of the generic ones (``claims.consistency.page``) when a page has the
R03 layout: tables whose first header is *Selection* with an nDCG column (*metrics*) and tables
whose first header names an *effect* with *difference* columns (*effects*).

Inspired by statcheck (Nuijten et al. 2016, "The prevalence of statistical reporting errors in
psychology (1985–2013)", Behavior Research Methods 48) — recompute what a page reports from
the other numbers it reports — and by the GRIM test (Brown & Heathers 2017, "The GRIM test: a
simple technique detects numerous anomalies in the reporting of results in psychology",
Social Psychological and Personality Science 8): a mean of N integers must be k/N.

**Tables** come from the document model (``audit.document``). A table whose first header is *Selection* with nDCG and coverage columns is a **metrics**
table; one whose first header names an *effect* with *difference* columns is an **effects**
table, paired with the nearest metrics table above it; any other table is listed as ignored.
When a page holds exactly three metrics tables they are assigned subsets by position: 1st
``all``, 2nd ``final``, 3rd ``development`` (the seed-000 layout); any other number of metrics
tables gives them names ``table<N>``, used by no subset check (page order says nothing about
splits then). A missing (``—``, ``n/a``, empty) or non-numeric cell skips the checks that need it.

**Counts** (``--tasks`` / ``--requirements`` override; otherwise inferred, and the report says
from where): all tasks = the first ``N tasks`` on the page; all requirements = the first
``N … requirements``; ``final36`` / ``development12`` names give a subset's tasks; a missing
subset count is ``all − other``; a subset's requirements = its tasks × (requirements / tasks)
when that ratio is an integer (192/48 = 4), else unknown (its coverage checks are skipped).

**Tolerances.** A value printed with d decimals is the true value ± ½·10^−d. A check that
combines printed values allows the sum of their half-units, each scaled by the absolute
coefficient it enters with (plus 1e−9 for binary floating point):

* ``grim`` — coverage = k/requirements, docs with no agreed obligation = k/tasks, for some
  integer k: |v − k/N| ≤ ½·10^−d.
* ``aggregate`` — per-task means (nDCG, coverage, mean positive pair cosine, docs with no
  agreed obligation): all = (t_final·final + t_dev·development)/t_all, tolerance
  ½·10^−d_all + (t_final/t_all)·½·10^−d_final + (t_dev/t_all)·½·10^−d_dev. Coverage is a
  per-requirement mean, but with the same requirements per task (4) the requirement weights
  144/192 and 48/192 equal the task weights 36/48 and 12/48. Label redundancy is a ratio of
  sums (repeats / assignments): the aggregate is a weighted mean of the subset values with
  *unknown* weights, so only **betweenness** is checked: min − tol ≤ all ≤ max + tol with
  tol = ½·10^−d_all + ½·10^−d_subset (on seed 000 the task-weighted identity happens to hold
  too, but correct data need not satisfy it). Lost and gained counts add exactly:
  all = final + development.
* ``effect`` — each effects row ``A-minus-B``: the point estimate of each difference column
  equals mean(A) − mean(B) of the paired metrics table; tolerance ½·10^−d_A + ½·10^−d_B +
  ½·10^−d_effect (three 4-decimal numbers: 1.5e−4). We take the point estimate to be the
  observed paired mean difference, which equals the difference of the means exactly for
  paired data (the bracketed bootstrap interval is not checked).
* ``lost-gained`` — (gained − lost)/requirements = coverage(row) − coverage(baseline), the
  baseline being the row named after "vs" in the lost/gained header; tolerance
  2·½·10^−d; the baseline's own entry must be 0 / 0.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from claims.consistency.cells import Printed as Number
from claims.consistency.cells import bound
from claims.consistency.model import R03_LAYOUT, Check
from engine.runs.errors import InputError

EPS = 1e-9
SUBSET_NAMES = ("all", "final", "development")
NUMBER = re.compile(r"[+\-\u2212]?(?:\d+(?:\.\d+)?|\.\d+)")
METRIC_COLUMNS = {
    "ndcg": re.compile(r"ndcg", re.I),
    "coverage": re.compile(r"coverage", re.I),
    "redundancy": re.compile(r"redundancy", re.I),
    "pair_cosine": re.compile(r"pair\s+cosine", re.I),
    "no_agreed": re.compile(r"no\s+agreed", re.I),
    "lost_gained": re.compile(r"lost\s*/\s*gained", re.I),
}
METRIC_LABELS = {"ndcg": "nDCG", "coverage": "coverage", "redundancy": "label redundancy",
                 "pair_cosine": "mean positive pair cosine",
                 "no_agreed": "docs with no agreed obligation", "lost_gained": "lost / gained"}
PER_TASK_MEANS = ("ndcg", "coverage", "pair_cosine", "no_agreed")


@dataclass
class Table:
    index: int            # 1-based order on the page
    line: int             # file line of the header row
    header: list[str]
    rows: list[list[str]]
    row_lines: list[int]
    kind: str = "other"   # metrics | effects | other
    subset: str | None = None
    columns: dict[str, int] = field(default_factory=dict)


# ---------------------------------------------------------------- parsing

def parse_counts(text: str | None, option: str) -> dict[str, int]:
    """``"all=48,final=36"`` → ``{"all": 48, "final": 36}``; a bare ``"40"`` → ``{"*": 40}`` (a
    page-wide denominator for the generic granularity check); bad syntax is an InputError."""
    if text is None or not text.strip():
        return {}
    if text.strip().isdigit() and int(text) > 0:
        return {"*": int(text)}
    counts: dict[str, int] = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        if not sep or not name.strip() or not value.strip().isdigit() or int(value) <= 0:
            raise InputError(f"{option} expects a positive integer or name=positive integer pairs, got {part.strip()!r}")
        counts[name.strip()] = int(value)
    return counts


def layout_tables(doc_tables: list) -> list[Table]:
    """The document model's tables as this layout's mutable table records (1-based page order)."""
    return [Table(index, t.line, list(t.header), [list(r) for r in t.rows],
                  [t.line + 2 + i for i in range(len(t.rows))])
            for index, t in enumerate(doc_tables, start=1)]


def read_tables(text: str) -> list[Table]:
    """Every pipe table on the page, read with the document model (``claims.consistency.tables``)."""
    from claims.consistency.tables import read_tables as page_tables

    return layout_tables(page_tables(text))


def _classify(table: Table) -> None:
    header = table.header
    if not header:
        return
    if re.search(r"selection", header[0], re.I) and any(METRIC_COLUMNS["ndcg"].search(h) for h in header):
        table.kind = "metrics"
        for name, rule in METRIC_COLUMNS.items():
            for position, title in enumerate(header):
                if rule.search(title) and name not in table.columns:
                    table.columns[name] = position
    elif re.search(r"effect", header[0], re.I) and any(re.search(r"difference", h, re.I) for h in header):
        table.kind = "effects"
        for position, title in enumerate(header[1:], start=1):
            if re.search(r"ndcg", title, re.I):
                table.columns.setdefault("ndcg", position)
            elif re.search(r"coverage", title, re.I):
                table.columns.setdefault("coverage", position)


def _number(cell: str) -> Number | None:
    """The leading number of a cell (``-0.0878 [-0.1407, -0.0354]`` → -0.0878), or None."""
    match = NUMBER.match(cell.strip())
    if not match:
        return None
    if re.match(r"[eE][+\-\u2212]?\d", cell.strip()[match.end():]):
        return None  # exponent notation is not read by this layout: the cell is skipped, never misread
    text = match.group(0).replace("\u2212", "-")
    decimals = len(text.split(".", 1)[1]) if "." in text else 0
    value = float(text)
    if not math.isfinite(value):
        return None
    return Number(value, decimals, False, match.group(0))


def _pair(cell: str) -> tuple[int, int] | None:
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", cell)
    if not match:
        return None
    return int(match.group(1)), int(match.group(2))


def infer_counts(text: str, n_subsets: int, tasks: dict[str, int], requirements: dict[str, int]
                 ) -> tuple[dict[str, int], dict[str, int], dict[str, str]]:
    """Fill tasks/requirements per subset from the page where the options leave them open."""
    tasks, requirements = dict(tasks), dict(requirements)
    source: dict[str, str] = {f"tasks.{k}": "option --tasks" for k in tasks}
    source.update({f"requirements.{k}": "option --requirements" for k in requirements})
    # a stated count of 0 gives no denominator: it is treated as not stated ("0 tasks")
    if "all" not in tasks and (m := re.search(r"\b(\d[\d,]*)\s+tasks\b", text)) and int(m.group(1).replace(",", "")):
        tasks["all"], source["tasks.all"] = int(m.group(1).replace(",", "")), f"page: {m.group(0)!r}"
    if "all" not in requirements and (m := re.search(r"\b(\d[\d,]*)\s+(?:[a-z-]+\s+)?requirements\b", text)) \
            and int(m.group(1).replace(",", "")):
        requirements["all"] = int(m.group(1).replace(",", ""))
        source["requirements.all"] = f"page: {m.group(0)!r}"
    for name, pattern in (("final", r"\bfinal(\d+)\b"), ("development", r"\b(?:development|dev)(\d+)\b")):
        if name not in tasks and (m := re.search(pattern, text, re.I)) and int(m.group(1)):
            tasks[name], source[f"tasks.{name}"] = int(m.group(1)), f"page: {m.group(0)!r}"
    if n_subsets >= 3 and "all" in tasks:
        for name, other in (("final", "development"), ("development", "final")):
            if name not in tasks and other in tasks and tasks["all"] > tasks[other]:
                tasks[name] = tasks["all"] - tasks[other]
                source[f"tasks.{name}"] = f"derived: {tasks['all']} − {tasks[other]} ({other})"
    if tasks.get("all") and "all" in requirements and requirements["all"] % tasks["all"] == 0:
        per_task = requirements["all"] // tasks["all"]
        for name in ("final", "development"):
            if name not in requirements and name in tasks:
                requirements[name] = tasks[name] * per_task
                source[f"requirements.{name}"] = (f"derived: {tasks[name]} tasks × {per_task} "
                                                  f"requirements per task ({requirements['all']}/{tasks['all']})")
    return tasks, requirements, source


# ---------------------------------------------------------------- checks

def _fmt(value: float, digits: int = 6) -> str:
    text = f"{value:.{digits}f}"
    return "0." + "0" * digits if text == "-0." + "0" * digits else text


def _status(ok: bool) -> str:
    return "pass" if ok else "fail"


class _Checker:
    def __init__(self, path: str, tasks: dict[str, int], requirements: dict[str, int]) -> None:
        self.path, self.tasks, self.requirements = path, tasks, requirements
        self.checks: list[Check] = []

    def add(self, check_id: str, group: str, subset: str, ok: bool | None, arithmetic: str,
            line: int | None) -> None:
        status = "skip" if ok is None else _status(ok)
        self.checks.append(Check(check_id, group, subset, status, arithmetic, line, R03_LAYOUT))

    def metrics_values(self, table: Table) -> dict[str, dict[str, object]]:
        values: dict[str, dict[str, object]] = {}
        for row, line in zip(table.rows, table.row_lines):
            name = row[0]
            entry: dict[str, object] = {"line": line}
            for metric, position in table.columns.items():
                cell = row[position] if position < len(row) else ""
                value = _pair(cell) if metric == "lost_gained" else _number(cell)
                if value is None:
                    self.add(f"cell:{table.subset}:{name}:{metric}", "cell", table.subset or "", None,
                             f"{table.subset} / {name}: {METRIC_LABELS[metric]} cell {cell!r} is not a "
                             f"{'k / m pair' if metric == 'lost_gained' else 'number'}; its checks are skipped",
                             line)
                    continue
                entry[metric] = value
            values[name] = entry
        return values

    def grim(self, subset: str, values: dict[str, dict[str, object]]) -> None:
        for metric, counts, what in (("coverage", self.requirements, "requirements"),
                                     ("no_agreed", self.tasks, "tasks")):
            for name, entry in values.items():
                if metric not in entry:
                    continue
                number: Number = entry[metric]  # type: ignore[assignment]
                check_id = f"grim:{subset}:{name}:{metric}"
                label = METRIC_LABELS[metric]
                if subset not in counts:
                    self.add(check_id, "grim", subset, None,
                             f"{subset} / {name}: {label} {number.text}: number of {what} unknown "
                             f"(give --{what})", entry["line"])  # type: ignore[arg-type]
                    continue
                n = counts[subset]
                k = min(range(max(0, math.floor(number.value * n) - 1), math.ceil(number.value * n) + 2),
                        key=lambda c: abs(c / n - number.value))
                gap = abs(k / n - number.value)
                ok = gap <= number.half_unit + EPS
                mark = "✓" if ok else "✗"
                self.add(check_id, "grim", subset, ok,
                         f"{subset} / {name}: {label} {number.text} = {k}/{n} = {_fmt(k / n)} {mark} "
                         f"({bound(gap, number.half_unit, ok)}"
                         f"{'' if ok else ': no integer k/' + str(n) + ' rounds to it'})",
                         entry["line"])  # type: ignore[arg-type]

    def aggregate(self, sets: dict[str, dict[str, dict[str, object]]]) -> None:
        if not all(s in sets for s in SUBSET_NAMES):
            return
        t = self.tasks
        weights_known = all(s in t for s in SUBSET_NAMES) and t["final"] + t["development"] == t["all"]
        for name, entry in sets["all"].items():
            final, dev = sets["final"].get(name), sets["development"].get(name)
            if final is None or dev is None:
                self.add(f"aggregate:all:{name}", "aggregate", "all", None,
                         f"all / {name}: row missing from the final or development table",
                         entry["line"])  # type: ignore[arg-type]
                continue
            for metric in PER_TASK_MEANS:
                if metric not in entry or metric not in final or metric not in dev:
                    continue
                check_id = f"aggregate:all:{name}:{metric}"
                a, f, d = entry[metric], final[metric], dev[metric]  # type: ignore[assignment]
                if not weights_known:
                    self.add(check_id, "aggregate", "all", None,
                             f"all / {name}: {METRIC_LABELS[metric]}: task counts unknown or "
                             f"final + development ≠ all (give --tasks)", entry["line"])  # type: ignore[arg-type]
                    continue
                wf, wd = t["final"] / t["all"], t["development"] / t["all"]
                expected = wf * f.value + wd * d.value
                tol = a.half_unit + wf * f.half_unit + wd * d.half_unit
                gap = abs(a.value - expected)
                ok = gap <= tol + EPS
                self.add(check_id, "aggregate", "all", ok,
                         f"all / {name}: {METRIC_LABELS[metric]} {a.text} vs "
                         f"{t['final']}/{t['all']}·{f.text} + {t['development']}/{t['all']}·{d.text} = "
                         f"{_fmt(expected)} {'✓' if ok else '✗'} ({bound(gap, tol, ok)})",
                         entry["line"])  # type: ignore[arg-type]
            if "redundancy" in entry and "redundancy" in final and "redundancy" in dev:
                a, f, d = entry["redundancy"], final["redundancy"], dev["redundancy"]  # type: ignore[assignment]
                tol = a.half_unit + max(f.half_unit, d.half_unit)
                low, high = min(f.value, d.value), max(f.value, d.value)
                ok = low - tol - EPS <= a.value <= high + tol + EPS
                self.add(f"aggregate:all:{name}:redundancy", "aggregate", "all", ok,
                         f"all / {name}: label redundancy {a.text} between final {f.text} and "
                         f"development {d.text} (ratio of sums; ± {_fmt(tol)}) {'✓' if ok else '✗'}",
                         entry["line"])  # type: ignore[arg-type]
            if "lost_gained" in entry and "lost_gained" in final and "lost_gained" in dev:
                (al, ag), (fl, fg), (dl, dg) = entry["lost_gained"], final["lost_gained"], dev["lost_gained"]  # type: ignore[misc]
                for word, total, x, y in (("lost", al, fl, dl), ("gained", ag, fg, dg)):
                    ok = total == x + y
                    self.add(f"aggregate:all:{name}:{word}", "aggregate", "all", ok,
                             f"all / {name}: {word} {total} = {x} + {y} = {x + y} {'✓' if ok else '✗'}",
                             entry["line"])  # type: ignore[arg-type]

    def effects(self, subset: str, table: Table, values: dict[str, dict[str, object]]) -> None:
        for row, line in zip(table.rows, table.row_lines):
            label = row[0]
            parts = re.split(r"\s*-\s*minus\s*-\s*|\s+minus\s+", label, flags=re.I)
            resolved = [self._resolve(p, values) for p in parts] if len(parts) == 2 else []
            for metric, position in sorted(table.columns.items(), key=lambda kv: kv[1]):
                check_id = f"effect:{subset}:{label}:{metric}"
                if len(resolved) != 2 or None in resolved:
                    self.add(check_id, "effect", subset, None,
                             f"{subset} / {label}: cannot resolve 'A-minus-B' to one row each of the "
                             f"{subset} metrics table", line)
                    continue
                a_name, b_name = resolved  # type: ignore[misc]
                effect = _number(row[position]) if position < len(row) else None
                a, b = values[a_name].get(metric), values[b_name].get(metric)
                if effect is None or a is None or b is None:
                    self.add(check_id, "effect", subset, None,
                             f"{subset} / {label}: a {metric} cell is missing or not a number", line)
                    continue
                expected = a.value - b.value
                tol = a.half_unit + b.half_unit + effect.half_unit
                gap = abs(effect.value - expected)
                ok = gap <= tol + EPS
                self.add(check_id, "effect", subset, ok,
                         f"{subset} / {label}: {METRIC_LABELS[metric]} difference {effect.text} vs "
                         f"{a.text} − {b.text} = {_fmt(expected, 4)} {'✓' if ok else '✗'} "
                         f"({bound(gap, tol, ok)})", line)

    @staticmethod
    def _resolve(token: str, values: dict[str, dict[str, object]]) -> str | None:
        hits = [name for name in values if re.search(rf"\b{re.escape(token.strip())}\b", name, re.I)]
        return hits[0] if len(hits) == 1 else None

    def lost_gained(self, subset: str, table: Table, values: dict[str, dict[str, object]]) -> None:
        if "lost_gained" not in table.columns or "coverage" not in table.columns:
            return
        header = table.header[table.columns["lost_gained"]]
        match = re.search(r"\bvs\.?\s+(\S+)", header, re.I)
        baseline = self._resolve(match.group(1), values) if match else None
        if baseline is None:
            self.add(f"lost-gained:{subset}", "lost-gained", subset, None,
                     f"{subset}: cannot identify the baseline row named in {header!r}", table.line)
            return
        base = values[baseline].get("coverage")
        for name, entry in values.items():
            check_id = f"lost-gained:{subset}:{name}"
            if "lost_gained" not in entry:
                continue  # its cell was reported as skipped
            lost, gained = entry["lost_gained"]  # type: ignore[misc]
            if name == baseline:
                ok = lost == 0 and gained == 0
                self.add(check_id, "lost-gained", subset, ok,
                         f"{subset} / {name}: baseline against itself {lost} / {gained} = 0 / 0 "
                         f"{'✓' if ok else '✗'}", entry["line"])  # type: ignore[arg-type]
                continue
            if subset not in self.requirements:
                self.add(check_id, "lost-gained", subset, None,
                         f"{subset} / {name}: number of requirements unknown (give --requirements)",
                         entry["line"])  # type: ignore[arg-type]
                continue
            n = self.requirements[subset]
            cov = entry.get("coverage")
            if cov is None or base is None:
                self.add(check_id, "lost-gained", subset, None,
                         f"{subset} / {name}: a coverage cell is missing or not a number", entry["line"])  # type: ignore[arg-type]
                continue
            implied = (gained - lost) / n
            printed = cov.value - base.value
            tol = cov.half_unit + base.half_unit
            gap = abs(implied - printed)
            ok = gap <= tol + EPS
            self.add(check_id, "lost-gained", subset, ok,
                     f"{subset} / {name}: ({gained} − {lost})/{n} = {_fmt(implied)} vs coverage "
                     f"{cov.text} − {base.text} = {_fmt(printed, 4)} {'✓' if ok else '✗'} "
                     f"({bound(gap, tol, ok)})", entry["line"])  # type: ignore[arg-type]


@dataclass
class LayoutResult:
    tables: list[Table]
    checks: list[Check]
    tasks: dict[str, int]
    requirements: dict[str, int]
    count_sources: dict[str, str]

    def covered_lines(self) -> set[int]:
        """Lines of the tables these extras checked (metrics and effects tables)."""
        return {t.line for t in self.tables if t.kind != "other"}


def run_layout(path: str, text: str, doc_tables: list, *, tasks: dict[str, int] | None = None,
               requirements: dict[str, int] | None = None) -> LayoutResult:
    """The R03-layout checks of a page (none when it has no metrics table)."""
    tables = layout_tables(doc_tables)
    metrics: list[Table] = []
    for table in tables:
        _classify(table)
        if table.kind == "metrics":
            metrics.append(table)
    for position, table in enumerate(metrics):
        table.subset = SUBSET_NAMES[position] if len(metrics) == 3 else f"table{table.index}"
    current: str | None = None
    for table in tables:
        if table.kind == "metrics":
            current = table.subset
        elif table.kind == "effects":
            table.subset = current
            if current is None:
                table.kind = "other"
    if not metrics:
        return LayoutResult(tables, [], dict(tasks or {}), dict(requirements or {}), {})
    tasks_, reqs, sources = infer_counts(text, len(metrics), tasks or {}, requirements or {})
    checker = _Checker(path, tasks_, reqs)
    values = {t.subset: checker.metrics_values(t) for t in metrics}
    for table in metrics:
        checker.grim(table.subset, values[table.subset])  # type: ignore[arg-type]
    checker.aggregate(values)  # type: ignore[arg-type]
    for table in tables:
        if table.kind == "effects":
            checker.effects(table.subset, table, values[table.subset])  # type: ignore[arg-type]
    for table in metrics:
        checker.lost_gained(table.subset, table, values[table.subset])  # type: ignore[arg-type]
    return LayoutResult(tables, checker.checks, tasks_, reqs, sources)
