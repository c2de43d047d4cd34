"""Internal consistency of a results page's Markdown tables (statcheck / GRIM in spirit).

Inspired by statcheck (Nuijten et al. 2016, "The prevalence of statistical reporting errors in
psychology (1985–2013)", Behavior Research Methods 48) — recompute what a page reports from
the other numbers it reports — and by the GRIM test (Brown & Heathers 2017, "The GRIM test: a
simple technique detects numerous anomalies in the reporting of results in psychology",
Social Psychological and Personality Science 8): a mean of N integers must be k/N.

**Tables.** GFM lets a table row lack pipes, so a prose line directly under a table would be
read as a row. Each run of consecutive lines starting with ``|`` is therefore cut out and
parsed on its own with markdown-it-py (``MarkdownIt("commonmark").enable("table")``); a run
holding two tables back to back is cut before each further header + delimiter row pair.
A table whose first header is *Selection* with nDCG and coverage columns is a **metrics**
table; one whose first header names an *effect* with *difference* columns is an **effects**
table, paired with the nearest metrics table above it; any other table is listed as ignored.
Metrics tables are assigned subsets by position: 1st ``all``, 2nd ``final``, 3rd
``development`` (further ones ``table4``…, not used in aggregate checks).

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
from pathlib import Path

from markdown_it import MarkdownIt

from engine.runs.errors import InputError
from engine.runs.hashing import dump_json
from engine.runs.jsonl import read_text_file

EPS = 1e-9
SUBSET_NAMES = ("all", "final", "development")
DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
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


@dataclass(frozen=True)
class Number:
    value: float
    decimals: int
    text: str

    @property
    def half_unit(self) -> float:
        return 0.5 * 10.0 ** (-self.decimals)


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


@dataclass
class Check:
    check_id: str
    group: str
    subset: str
    status: str           # pass | fail | skip
    arithmetic: str
    line: int | None = None

    def as_dict(self) -> dict:
        return {"check_id": self.check_id, "group": self.group, "subset": self.subset,
                "status": self.status, "arithmetic": self.arithmetic, "line": self.line}


@dataclass
class ConsistencyReport:
    path: str
    tasks: dict[str, int]
    requirements: dict[str, int]
    count_sources: dict[str, str]
    tables: list[Table]
    checks: list[Check]

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if c.status == "fail"]

    def counts(self) -> dict[str, int]:
        return {s: sum(1 for c in self.checks if c.status == s) for s in ("pass", "fail", "skip")}


# ---------------------------------------------------------------- parsing

def parse_counts(text: str | None, option: str) -> dict[str, int]:
    """``"all=48,final=36"`` → ``{"all": 48, "final": 36}``; bad syntax is an InputError."""
    if text is None or not text.strip():
        return {}
    counts: dict[str, int] = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        if not sep or not name.strip() or not value.strip().isdigit() or int(value) <= 0:
            raise InputError(f"{option} expects name=positive integer pairs, got {part.strip()!r}")
        counts[name.strip()] = int(value)
    return counts


def read_tables(text: str) -> list[Table]:
    """Every pipe table on the page (runs of lines starting with ``|``), parsed by markdown-it-py."""
    lines = text.split("\n")
    md = MarkdownIt("commonmark").enable("table")
    tables: list[Table] = []
    index = 0
    while index < len(lines):
        if not lines[index].lstrip().startswith("|"):
            index += 1
            continue
        start = index
        while index < len(lines) and lines[index].lstrip().startswith("|"):
            index += 1
        # a delimiter row (|---|---|) after the first two lines starts a new table one line up
        cuts = [start] + [i - 1 for i in range(start + 2, index) if DELIMITER.match(lines[i])] + [index]
        for begin, end in zip(cuts, cuts[1:]):
            tables.extend(_parse_block(md, lines[begin:end], begin, len(tables)))
    return tables


def _parse_block(md: MarkdownIt, block: list[str], offset: int, count: int) -> list[Table]:
    tokens = md.parse("\n".join(block) + "\n")
    tables: list[Table] = []
    current: Table | None = None
    row: list[str] | None = None
    row_line = 0
    in_head = False
    for token in tokens:
        if token.type == "table_open":
            current = Table(count + len(tables) + 1, offset + token.map[0] + 1, [], [], [])
        elif token.type == "thead_open":
            in_head = True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open":
            row, row_line = [], offset + token.map[0] + 1
        elif token.type == "inline" and row is not None:
            row.append(" ".join(token.content.split()))
        elif token.type == "tr_close" and current is not None and row is not None:
            if in_head:
                current.header = row
            else:
                current.rows.append(row)
                current.row_lines.append(row_line)
            row = None
        elif token.type == "table_close" and current is not None:
            tables.append(current)
            current = None
    return tables


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


def _number(cell: str, path: str, line: int, what: str) -> Number:
    match = NUMBER.search(cell)
    if not match:
        raise InputError(f"{what}: no number in cell {cell!r}", path=path, line=line)
    if re.match(r"[eE][+\-\u2212]?\d", cell[match.end():]):
        raise InputError(f"{what}: number {cell.strip()[:40]!r} in exponent notation is not checked", path=path, line=line)
    text = match.group(0).replace("\u2212", "-")
    decimals = len(text.split(".", 1)[1]) if "." in text else 0
    value = float(text)
    if not math.isfinite(value):
        raise InputError(f"{what}: number {match.group(0)[:40]!r} is too large to check", path=path, line=line)
    return Number(value, decimals, match.group(0))


def _pair(cell: str, path: str, line: int) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", cell)
    if not match:
        raise InputError(f"lost / gained cell {cell!r} is not 'N / M'", path=path, line=line)
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
        self.checks.append(Check(check_id, group, subset, status, arithmetic, line))

    def metrics_values(self, table: Table) -> dict[str, dict[str, object]]:
        values: dict[str, dict[str, object]] = {}
        for row, line in zip(table.rows, table.row_lines):
            name = row[0]
            entry: dict[str, object] = {"line": line}
            for metric, position in table.columns.items():
                if position >= len(row):
                    raise InputError(f"row {name!r} has no {METRIC_LABELS[metric]} cell",
                                     path=self.path, line=line)
                cell = row[position]
                entry[metric] = (_pair(cell, self.path, line) if metric == "lost_gained"
                                 else _number(cell, self.path, line, METRIC_LABELS[metric]))
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
                         f"(|Δ| {_fmt(gap)} ≤ {_fmt(number.half_unit)}"
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
                         f"{_fmt(expected)} {'✓' if ok else '✗'} (|Δ| {_fmt(gap)} ≤ {_fmt(tol)})",
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
                effect = _number(row[position], self.path, line, f"{metric} difference")
                a, b = values[a_name][metric], values[b_name][metric]  # type: ignore[index]
                expected = a.value - b.value
                tol = a.half_unit + b.half_unit + effect.half_unit
                gap = abs(effect.value - expected)
                ok = gap <= tol + EPS
                self.add(check_id, "effect", subset, ok,
                         f"{subset} / {label}: {METRIC_LABELS[metric]} difference {effect.text} vs "
                         f"{a.text} − {b.text} = {_fmt(expected, 4)} {'✓' if ok else '✗'} "
                         f"(|Δ| {_fmt(gap)} ≤ {_fmt(tol)})", line)

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
        base = values[baseline]["coverage"]  # type: ignore[index]
        for name, entry in values.items():
            lost, gained = entry["lost_gained"]  # type: ignore[misc]
            check_id = f"lost-gained:{subset}:{name}"
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
            cov = entry["coverage"]  # type: ignore[index]
            implied = (gained - lost) / n
            printed = cov.value - base.value
            tol = cov.half_unit + base.half_unit
            gap = abs(implied - printed)
            ok = gap <= tol + EPS
            self.add(check_id, "lost-gained", subset, ok,
                     f"{subset} / {name}: ({gained} − {lost})/{n} = {_fmt(implied)} vs coverage "
                     f"{cov.text} − {base.text} = {_fmt(printed, 4)} {'✓' if ok else '✗'} "
                     f"(|Δ| {_fmt(gap)} ≤ {_fmt(tol)})", entry["line"])  # type: ignore[arg-type]


def check_results_page(path: str | Path, *, tasks: dict[str, int] | None = None,
                       requirements: dict[str, int] | None = None) -> ConsistencyReport:
    """Parse a results page and run every applicable check (see module docstring)."""
    path = Path(path)
    text = read_text_file(path, encoding="utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    tables = read_tables(text)
    metrics: list[Table] = []
    for table in tables:
        _classify(table)
        if table.kind == "metrics":
            table.subset = SUBSET_NAMES[len(metrics)] if len(metrics) < 3 else f"table{table.index}"
            metrics.append(table)
        elif table.kind == "effects":
            table.subset = metrics[-1].subset if metrics else None
            if table.subset is None:
                table.kind = "other"
    if not metrics:
        raise InputError("no metrics table (a pipe table whose first header is 'Selection' with an "
                         "nDCG column) on the page", path=path)
    tasks_, reqs, sources = infer_counts(text, len(metrics), tasks or {}, requirements or {})
    checker = _Checker(str(path), tasks_, reqs)
    values = {t.subset: checker.metrics_values(t) for t in metrics}
    for table in metrics:
        checker.grim(table.subset, values[table.subset])  # type: ignore[arg-type]
    checker.aggregate(values)  # type: ignore[arg-type]
    for table in tables:
        if table.kind == "effects":
            checker.effects(table.subset, table, values[table.subset])  # type: ignore[arg-type]
    for table in metrics:
        checker.lost_gained(table.subset, table, values[table.subset])  # type: ignore[arg-type]
    return ConsistencyReport(str(path), tasks_, reqs, sources, tables, checker.checks)


def format_report(report: ConsistencyReport, fmt: str = "text") -> str:
    """``text``: one line per check with its arithmetic; ``json``: the same as an object."""
    counts = report.counts()
    if fmt == "json":
        return dump_json({
            "path": report.path, "tasks": report.tasks, "requirements": report.requirements,
            "count_sources": report.count_sources,
            "tables": [{"index": t.index, "line": t.line, "kind": t.kind, "subset": t.subset}
                       for t in report.tables],
            "checks": [c.as_dict() for c in report.checks], "summary": counts,
            "ok": not report.failed})
    out = [f"consistency: {report.path}"]
    for kind, counts_ in (("tasks", report.tasks), ("requirements", report.requirements)):
        parts = [f"{name}={value} ({report.count_sources.get(f'{kind}.{name}', '?')})"
                 for name, value in counts_.items()]
        out.append(f"{kind}: " + ("; ".join(parts) if parts else "unknown"))
    used = [f"{t.kind} {t.subset} (line {t.line})" for t in report.tables if t.kind != "other"]
    ignored = [str(t.line) for t in report.tables if t.kind == "other"]
    out.append("tables: " + ", ".join(used))
    if ignored:
        out.append(f"ignored tables (not metrics or effects) at lines: {', '.join(ignored)}")
    marks = {"pass": "PASS", "fail": "FAIL", "skip": "SKIP"}
    for check in report.checks:
        where = f" [line {check.line}]" if check.line else ""
        out.append(f"{marks[check.status]} {check.group}: {check.arithmetic}{where}")
    out.append(f"summary: {len(report.checks)} checks: {counts['pass']} passed, {counts['fail']} failed, "
               f"{counts['skip']} skipped")
    for check in report.failed:
        out.append(f"failed: {check.check_id}")
    return "\n".join(out) + "\n"
