"""Property: no chapter text, however hostile, can break the report's Markdown structure."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.runs.errors import InputError
from reports.build import ReportOptions, write_report
from reports.validate import validation_problems

SPECIALS = "|<>&#*_`[]\\!-=+.:()/ \t\u00a0é"
WORDS = st.text(alphabet=st.sampled_from(list(SPECIALS) + list("abcXYZ019")), min_size=1, max_size=40)
LINES = st.lists(WORDS, min_size=1, max_size=6).map(" ".join)


def pack_text(chapter_lines: list[str], description: str) -> str:
    return ("== 1. Identity ==\nBook: Property Book\nChapter: " + chapter_lines[0][:30] + "\n\n"
            "== 2. Chapter text ==\n" + "\n".join(chapter_lines) + "\n\n"
            "== 4. Existing evidence ==\n- " + description + " (https://doi.org/10.9999/prop.1)\n")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chapter=st.lists(LINES, min_size=1, max_size=5), description=LINES)
def test_any_chapter_text_keeps_the_structure(chapter, description):
    with tempfile.TemporaryDirectory() as tmp:
        pack = Path(tmp) / "pack.txt"
        pack.write_text(pack_text(chapter, description), encoding="utf-8")
        options = ReportOptions(pack=pack, output=Path(tmp) / "report.md", log=Path(tmp) / "log.jsonl",
                                sources_cache=Path(tmp) / "sources", offline=True, report_date="2026-11-29")
        try:
            path, _ = write_report(options)
        except InputError:
            return  # a pack the parser rejects is reported as bad input, never rendered
        text = path.read_text(encoding="utf-8")
        assert validation_problems(text) == []
        # no raw angle bracket survives anywhere but in the renderer's own row anchors
        assert "<" not in re.sub(r'<a id="[a-z0-9-]+"></a>', "", text).replace("&lt;", "")
