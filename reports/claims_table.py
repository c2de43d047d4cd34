"""The claim rows of a chapter as a table: Markdown (cells escaped), CSV or JSON.

Used by ``chapter-audit claims``; the rows come from :func:`claims.extract.extract_claims`.
"""

from __future__ import annotations

import csv
import io

from claims.extract import ClaimRow
from engine.runs.hashing import dump_json
from reports.escape import escape_cell

FORMATS = ("md", "csv", "json")
CSV_COLUMNS = ("claim_id", "paragraph", "sentence", "location", "kind", "text", "quantities",
               "cited_names", "section", "block", "line")


def format_claims(rows: list[ClaimRow], fmt: str) -> str:
    """Render rows as a Markdown table (cells escaped), CSV (csv module) or a JSON list."""
    if fmt == "json":
        return dump_json([row.as_dict() for row in rows])
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for row in rows:
            writer.writerow([row.claim_id, row.paragraph, row.sentence, row.location, row.kind,
                             row.text, "; ".join(q.text for q in row.quantities),
                             "; ".join(row.cited_names), row.section_path, row.block, row.line])
        return buffer.getvalue()
    if fmt == "md":
        lines = ["| Claim | Section | Location | Kind | Text | Quantities | Cited names |",
                 "|---|---|---|---|---|---|---|"]
        for row in rows:
            cells = [row.claim_id, row.section_path, row.location, row.kind, row.text,
                     "; ".join(q.text for q in row.quantities), "; ".join(row.cited_names)]
            lines.append("| " + " | ".join(escape_cell(c) for c in cells) + " |")
        return "\n".join(lines) + "\n"
    raise ValueError(f"unknown format {fmt!r} (choose one of {', '.join(FORMATS)})")
