"""Text and JSON renderings of a consistency report, with the per-kind summary."""

from __future__ import annotations

from claims.consistency.model import ConsistencyReport
from engine.runs.hashing import dump_json

MARKS = {"pass": "PASS", "fail": "FAIL", "skip": "SKIP"}


def no_relation_message(report: ConsistencyReport) -> str:
    return f"no checkable relation found in {report.n_tables} tables"


def ranges_only_message(report: ConsistencyReport) -> str:
    """When range checks ran but no relation between numbers did: say which checks ran (exit 0
    or 1 by their outcome, never "no checkable relation")."""
    ran = [c for c in report.checks if c.status != "skip"]
    passed = sum(1 for c in ran if c.status == "pass")
    noun = "range check" if len(ran) == 1 else "range checks"
    return (f"no relation between numbers found in {report.n_tables} tables; {len(ran)} {noun} ran: "
            f"{passed} passed, {len(ran) - passed} failed")


def format_report(report: ConsistencyReport, fmt: str = "text", strict: bool = False) -> str:
    """``text``: one line per check with its arithmetic, then the summary; ``json``: the same."""
    counts = report.counts()
    by_kind = report.counts_by_kind()
    code = report.exit_code(strict)
    if fmt == "json":
        return dump_json({
            "path": report.path, "tasks": report.tasks, "requirements": report.requirements,
            "count_sources": report.count_sources, "n_tables": report.n_tables,
            "tables": [{"index": t.index, "line": t.line, "kind": t.kind, "subset": t.subset}
                       for t in report.tables],
            "checks": [c.as_dict() for c in report.checks], "summary": counts, "by_kind": by_kind,
            "checkable": report.checkable,
            "relations_checked": report.relations_checked, "strict": strict, "exit_code": code, "ok": code == 0})
    out = [f"consistency: {report.path}", f"tables read: {report.n_tables}"]
    if any(t.kind != "other" for t in report.tables):
        for kind, counts_ in (("tasks", report.tasks), ("requirements", report.requirements)):
            parts = [f"{name}={value} ({report.count_sources.get(f'{kind}.{name}', '?')})"
                     for name, value in counts_.items()]
            out.append(f"{kind}: " + ("; ".join(parts) if parts else "unknown"))
        used = [f"{t.kind} {t.subset} (line {t.line})" for t in report.tables if t.kind != "other"]
        out.append("R03 layout tables: " + ", ".join(used))
    for check in report.checks:
        where = f" [line {check.line}]" if check.line else ""
        out.append(f"{MARKS[check.status]} {check.kind}: {check.arithmetic}{where}")
    for kind, c in by_kind.items():
        out.append(f"kind {kind}: {c['pass']} pass, {c['fail']} fail, {c['skip']} skip")
    out.append(f"summary: {len(report.checks)} checks: {counts['pass']} passed, {counts['fail']} failed, "
               f"{counts['skip']} skipped")
    for check in report.failed:
        out.append(f"failed: {check.check_id}")
    if not report.checkable:
        out.append(no_relation_message(report))
    elif not report.relations_checked:
        out.append(ranges_only_message(report))
    if strict and report.skipped:
        out.append(f"--strict: {len(report.skipped)} skipped checks count as failures")
    return "\n".join(out) + "\n"
