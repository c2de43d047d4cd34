"""How many of the identifiers a real Markdown page links does the report's section 3 hold?

    PYTHONPATH=. .venv/bin/python bench/bench_references.py [PAGE.md ...]

Default pages: tests/data/references/*.md (provenance in tests/data/references/PROVENANCE.md).
The identifiers linked in a page are counted independently of ``sources.references``: a plain
regular-expression scan of the raw Markdown outside fenced code (link targets ``](URL)``,
autolinks ``<URL>``, bare ``http(s)://`` URLs, ``doi:`` and ``arXiv:`` ids; image targets
``![..](URL)`` excluded), each read as ``kind:identifier`` by ``sources.leads.identify_lead`` and
counted once. An identifier is **held** when section 3 of the offline report names it as a
record (``kind:identifier``) or as a further identifier of a record's line ("the line also
names …"). Prints one line per page and the total; no network (``--offline``).
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
PATTERNS = (
    re.compile(r"(?<!!)\[[^\]]*\]\((https?://[^\s()]+(?:\([^\s()]*\)[^\s()]*)*)"),   # [text](URL), not ![img](URL)
    re.compile(r"<(https?://[^>\s]+)>"),
    re.compile(r"(?<![(<\[\w/])(https?://[^\s)<>\]]+)"),   # not a link's own text "[https://…](…)"
    re.compile(r"\b(doi:\s?10\.\d{4,9}/[^\s)\],;]+)", re.I),
    re.compile(r"\b(arXiv:\s?\d{4}\.\d{4,5}(?:v\d+)?)", re.I),
)


def linked_identifiers(text: str) -> list[str]:
    """``kind:identifier`` of every identifier linked in the raw Markdown, first occurrence order."""
    from sources.leads import identify_lead

    text = FENCE.sub("", text)
    found: dict[str, None] = {}
    for pattern in PATTERNS:
        for m in pattern.finditer(text):
            value = m.group(1).rstrip(".,;:'’\"")
            if "{{" in value:
                continue
            ident = identify_lead(value.replace(" ", ""))
            found.setdefault(f"{ident.kind}:{ident.identifier}", None)
    return list(found)


def held(page: Path) -> tuple[int, int, list[str]]:
    from reports.build import ReportOptions, build_report_inputs
    from sources.leads import identify_lead

    with tempfile.TemporaryDirectory() as tmp:
        options = ReportOptions(pack=page, output=Path(tmp) / "r.md", log=Path(tmp) / "log.jsonl",
                                sources_cache=Path(tmp) / "cache", offline=True, report_date="2026-12-01",
                                search=False)
        inputs = build_report_inputs(options)
    names = set()
    for record in inputs.sources:
        names.add(f"{record.kind}:{record.identifier}")
        for note in record.notes:
            m = re.match(r"the line also names (\S+)", note)
            if m:
                other = identify_lead(m.group(1))
                names.add(f"{other.kind}:{other.identifier}")
    wanted = linked_identifiers(page.read_text(encoding="utf-8"))
    missing = [w for w in wanted if w not in names]
    return len(wanted), len(wanted) - len(missing), missing


def main(argv: list[str]) -> int:
    pages = [Path(p) for p in argv] or sorted(p for p in (ROOT / "tests" / "data" / "references").glob("*.md")
                                          if p.name != "PROVENANCE.md")
    total = kept = 0
    for page in pages:
        n, k, missing = held(page)
        total += n
        kept += k
        print(f"{page.name}: {k}/{n} linked identifiers held in section 3 ({100 * k / max(n, 1):.1f}%)"
              + (f"; missing: {', '.join(missing[:6])}{' …' if len(missing) > 6 else ''}" if missing else ""))
    print(f"total: {kept}/{total} ({100 * kept / max(total, 1):.1f}%) over {len(pages)} pages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
