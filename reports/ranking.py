"""Section 2's order: what needs the author first, what needs nothing last (issue 22).

Rules (stable, deterministic):

* Rows are ranked by priority (``high``, ``medium``, ``low``); within a priority, measured
  results, attributions and contradicted table values come first, then every other kind; then
  document order (the claim rows' order).
* A row **needs nothing** when its priority is ``low``, its proposed response is ``keep``
  (possibly with a note) and it rests on no retracted or corrected source: such rows leave the table and are
  listed compactly at the end of the section, one line each with id, location, kind, evidence
  class and the verbatim text (so every sentence of the chapter is still in the report).
* A **table value** that is not contradicted (no MISMATCH, not high) leaves the table too: each
  table gets one line with its bound and unbound cell counts, and its cells are listed under it
  (id, ``Row · Column = value``, status). A contradicted cell stays a row of the table.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

PRIORITY_RANK = {"high": 0, "medium": 1, "low": 2}
FIRST_KINDS = ("measured result", "attribution")


def contradicted(assessment: Any) -> bool:
    return any(v.status == "MISMATCH" for v in assessment.verdicts)


def kind_rank(assessment: Any) -> int:
    kind = assessment.claim.kind
    if kind in FIRST_KINDS or (kind == "table value" and contradicted(assessment)):
        return 0
    return 1


def needs_nothing(assessment: Any) -> bool:
    """Low priority, response exactly ``keep``, no flagged source (module docstring)."""
    return (assessment.priority == "low" and assessment.response.split(";", 1)[0] == "keep"
            and not getattr(assessment, "flags", ()))


def grouped_table_value(assessment: Any) -> bool:
    """A table cell listed under its table rather than as a row (not contradicted, not high)."""
    return (assessment.claim.kind == "table value" and assessment.priority != "high"
            and not contradicted(assessment) and not getattr(assessment, "flags", ()))


def split_rows(assessments: list[Any]) -> tuple[list[Any], dict[str, list[Any]], list[Any]]:
    """(ranked table rows, table values by table id in document order, rows needing nothing)."""
    ranked, keep = [], []
    tables: dict[str, list[Any]] = defaultdict(list)
    for a in assessments:
        if grouped_table_value(a):
            tables[getattr(a.claim, "table", "") or a.claim.text.split(" · ", 1)[0]].append(a)
        elif needs_nothing(a):
            keep.append(a)
        else:
            ranked.append(a)
    order = {id(a): i for i, a in enumerate(assessments)}
    ranked.sort(key=lambda a: (PRIORITY_RANK.get(a.priority, 3), kind_rank(a), order[id(a)]))
    return ranked, dict(tables), keep


def table_of(a: Any) -> str:
    """The table id of a table-value row (``T-1``)."""
    return getattr(a.claim, "table", "") or a.claim.text.split(" · ", 1)[0]


def unbacked_cells(assessments: list[Any]) -> list[Any]:
    """Table values bound to no run in a table whose other cells are bound: the table reports
    results (its bound cells say so), so these are results with no evidence, never a silent
    "keep" (a table with no bound cell may hold settings: its cells stay low)."""
    cells = [a for a in assessments if a.claim.kind == "table value"]
    bound_tables = {table_of(a) for a in cells if a.verdicts}
    return [a for a in cells if not a.verdicts and table_of(a) in bound_tables]


def table_line(table_id: str, cells: list[Any], all_cells: list[Any]) -> str:
    """``T-1: 6 numeric cells — 1 bound (1 MISMATCH, listed above), 5 unbound``."""
    bound = [a for a in all_cells if a.verdicts]
    statuses: dict[str, int] = defaultdict(int)
    for a in bound:
        for v in a.verdicts:
            statuses[v.status] += 1
    status_text = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
    above = len(all_cells) - len(cells)
    text = (f"{table_id}: {len(all_cells)} numeric cell{'s' if len(all_cells) != 1 else ''} — {len(bound)} bound"
            + (f" ({status_text})" if status_text else "") + f", {len(all_cells) - len(bound)} unbound")
    if above:
        text += f"; {above} listed in the table above (contradicted or flagged)"
    first = (cells or all_cells)[0].claim
    section = " › ".join(getattr(first, "section", ()) or ())
    line = getattr(first, "line", 0)
    where = "; ".join(p for p in (f"section: {section}" if section else "", f"line {line}" if line else "") if p)
    return text + (f" ({where})" if where else "")


def cell_line(a: Any) -> str:
    c = a.claim
    text = c.text.split(" · ", 1)[1] if " · " in c.text else c.text
    if a.verdicts:
        state = "; ".join(f"{v.status}" + (f" (run {v.run_id})" if v.run_id else "") for v in a.verdicts)
    else:
        state = "unbound: bind it if it reports a result; keep if it is a setting"
    return f"{c.claim_id} · {text} — {state}"


def keep_line(a: Any) -> str:
    c = a.claim
    where = getattr(c, "where", None) or getattr(c, "location", None) or \
        f"paragraph {c.paragraph}, sentence {c.sentence}"
    runs = sorted({v.run_id for v in a.verdicts if v.run_id})
    evidence = a.evidence_class + (f" by run {', '.join(runs)}" if runs else "")
    note = f" — {a.response}" if a.response != "keep" else ""
    return f"{c.claim_id} ({where}; {c.kind}; {evidence}): {c.text}{note}"
