"""The report: seven headings, table shapes, escaping, UNRUN/UNVERIFIED from the log alone."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from cli.demo import EXAMPLE_CLAIMS, EXAMPLE_PACK
from engine.runs.errors import InputError, RefusalError
from reports.build import ReportOptions, write_report
from reports.validate import REQUIRED_HEADINGS, table_shapes, validation_problems
from support import seed

HOSTILE = Path(__file__).parent / "data" / "report" / "hostile-pack.txt"


def h2_headings(markdown: str) -> list[str]:
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    return [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"]


def report(tmp_path, pack=EXAMPLE_PACK, claims=(EXAMPLE_CLAIMS,), log=None, name="report.md", **kw):
    options = ReportOptions(pack=pack, output=tmp_path / name, log=log or tmp_path / "empty-log.jsonl",
                            claims_files=tuple(claims), sources_cache=tmp_path / "sources", offline=True,
                            report_date="2026-11-29", **kw)
    path, inputs = write_report(options)
    return path.read_text(encoding="utf-8"), inputs


def test_no_log_means_unrun_and_unverified_everywhere(tmp_path):
    text, inputs = report(tmp_path)
    assert h2_headings(text) == list(REQUIRED_HEADINGS)
    assert validation_problems(text) == []
    assert {v.status for v in inputs.verdicts} == {"NO RUN"}
    section6 = text.split("## 6. Experiment opportunities")[1].split("## 7.")[0]
    assert section6.count("UNRUN") == 4          # two bound experiments, two gaps
    assert "ran: run" not in text               # no run id can appear without a log record
    assert "sandbox-run-" not in text and "r03-evaluate-" not in text
    section3 = text.split("## 3. Source ledger")[1].split("## 4.")[0]
    assert section3.count("UNVERIFIED: offline run: not looked up") == 5
    assert "fabricated" in section3 and "verified 20" not in section3


def test_every_table_has_a_consistent_shape(tmp_path):
    text, _ = report(tmp_path)
    shapes = table_shapes(text)
    assert len(shapes) == 6          # context, claims, sources, proposals, experiments, checklist
    for header, rows in shapes:
        assert all(cells == header for cells in rows)
    assert [h for h, _ in shapes] == [2, 8, 7, 5, 6, 3]


def test_hostile_text_cannot_break_structure(tmp_path):
    text, inputs = report(tmp_path, pack=HOSTILE, claims=())
    assert validation_problems(text) == []
    assert h2_headings(text) == list(REQUIRED_HEADINGS)
    assert "<script>" not in text and "<div>" not in text and "<b>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    assert not [t for t in tokens if t.type == "html_block"]
    # the chapter line "## 3. Source ledger" is a heading of the chapter: it becomes the section path
    # of the rows under it, shown inside a table cell, never a heading of the report (before issue 9
    # it was split into a claim row "## 3.", which was the bug)
    assert not any(c.text.startswith("##") for c in inputs.claims)
    assert [c.section for c in inputs.claims][-1] == ("3. Source ledger",)
    assert "(section: 3. Source ledger; paragraph 2, sentence 1)" in text
    assert text.count("\n## 3. Source ledger\n") == 1
    assert "\\| must not split" in text


def test_validator_catches_broken_reports():
    good = "\n\n".join(f"## {h}\n\ntext" for h in REQUIRED_HEADINGS)
    assert validation_problems(good) == []
    assert validation_problems(good.replace("## 4. Findings", "## 4. Results"))
    broken = good + "\n\n| a | b |\n|---|---|\n| 1 | 2 | 3 |\n"
    assert validation_problems(broken) == ["table 1: row 2 has 3 cells, header has 2"]
    assert validation_problems(good + "\n\n<div>x</div>\n")[0].startswith("raw HTML block")


def test_report_is_deterministic_and_never_overwrites(tmp_path):
    first, _ = report(tmp_path, name="a.md")
    second, _ = report(tmp_path, name="b.md")
    assert hashlib.sha256(first.encode()).hexdigest() == hashlib.sha256(second.encode()).hexdigest()
    with pytest.raises(RefusalError, match="already exists"):
        report(tmp_path, name="a.md")
    with pytest.raises(InputError, match="--date"):
        write_report(ReportOptions(pack=EXAMPLE_PACK, output=tmp_path / "c.md", log=tmp_path / "l.jsonl",
                                   report_date="29/11/2026", offline=True))
    assert not (tmp_path / "c.md").exists()


def test_excerpt_pack_says_so(tmp_path):
    # about the excerpt and the ranking, not the kinds: it states the rules, which read C-001-03
    # right (the default classifier too since fd6430259fd4: tests/test_kinds_default.py)
    text, inputs = report(tmp_path, pack=seed("002_1cad392b6b549eb0.txt"), claims=(), kinds="rules")
    assert inputs.fingerprint.status == "EXCERPT"
    assert "EXCERPT: the pack holds only part of the chapter" in text
    assert "please paste the remainder of the chapter" in text
    assert len(inputs.claims) == 57  # 52 prose rows + 5 table values (53 merged rows before issue 9)
    assert validation_problems(text) == []
    context = text.split("## 2.")[0]
    assert "| code examples read | none |" in context
    assert ("| tables read | T-1: 4 columns (Selector, Unit cap, Content cap, Selection rule) × 3 rows, line 23, "
            "recovered from flattened text after") in context
    assert "T-2: 4 columns (Selector, Mean units, Mean characters, Maximum) × 0 rows, line 32" in context
    assert ("| structure recovered | heading at line 20 (glued-heading); table at line 23 (flattened-table); "
            "heading at line 26 (glued-heading); math at line 28 (formula); heading at line 31 (glued-heading); "
            "table at line 32 (table-header) |") in context
    claims = text.split("## 2.")[1].split("## 3.")[0]
    assert "(section: Observe the price of the cap; paragraph 14, sentence 1; " in claims
    assert "- T-1: 5 numeric cells — 0 bound, 5 unbound (section: State the resource before comparing methods; line 23)" \
        in claims
    assert "  - T-1-R03-C03 · MMR · Content cap = 1,200 characters — unbound" in claims
    # ranked: the two medium rows (a measured result, an attribution) lead; nothing that needs nothing is a row
    rows = [line.split("</a>", 1)[1].split(" |", 1)[0] for line in claims.splitlines() if line.startswith("| <a id=")]
    assert rows == ["C-001-03", "C-010-01"]
    for c in inputs.claims:   # every sentence and cell is still in section 2, with its id
        assert c.claim_id in claims


def test_report_cli_bad_pack_is_one_line_exit_2(tmp_path, cli):
    bad = tmp_path / "bad.txt"
    bad.write_text("== 1. Identity ==\nChapter prose fingerprint (sha256, normalized): nothex\n== 2. Chapter text ==\nx\n")
    result = cli("report", bad, "--offline", "--output", tmp_path / "r.md", "--log", tmp_path / "l.jsonl")
    assert result.exit_code == 2
    assert "bad.txt:" in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "r.md").exists()


def test_similarity_links_are_candidates_never_support(tmp_path):
    """A similarity link is shown for a human check; only a named (mention) source can back a claim."""
    from types import SimpleNamespace

    from reports.assess import assess_claim

    claim = SimpleNamespace(claim_id="C-001-01", kind="attribution", text="Smith showed it.", quantities=[],
                            cited_names=["Smith"], paragraph=1, sentence=1)
    source = SimpleNamespace(kind="doi", identifier="10.9999/x", status="VERIFIED")
    link = SimpleNamespace(claim_id="C-001-01", source="10.9999/x", source_kind="doi", kind="similarity",
                           reason="embedding similarity 0.62 ≥ 0.50")
    assessed = assess_claim(claim, [], [link], {"doi:10.9999/x": source})
    assert assessed.evidence_class == "none held — UNVERIFIED"
    assert "similarity alone supports nothing" in assessed.evidence[0]
    mention = SimpleNamespace(**{**vars(link), "kind": "mention", "reason": "mentions 'Smith'"})
    assessed = assess_claim(claim, [], [mention], {"doi:10.9999/x": source})
    assert assessed.evidence_class == "reported by a source"
    assert assessed.response == "add a citation to doi:10.9999/x"


def test_table_value_and_scientific_notation_bound_in_a_markdown_chapter(tmp_path):
    """Issue 9: a number printed in a table is bound by its table key and verified like prose;
    a printed 2.5e-3 matches 0.0025 (it was compared as text before)."""
    import json

    from engine.runs.runlog import recorded_run

    chapter = tmp_path / "chapter.md"
    chapter.write_text(
        "# Toy chapter\n\n## Results\n\nThe loss fell to 2.5e-3 after tuning.\n\n"
        "| Run | nDCG@3 |\n|---|---|\n| BM25 | 0.856 |\n| Hybrid | 0.889 |\n\n"
        "```python\nprint('not a claim 0.5')\n```\n", encoding="utf-8")
    claims = tmp_path / "claims.toml"
    claims.write_text(
        '[experiment.toy]\ncommand = "sandbox run"\nresult = "metrics"\n\n'
        '[[binding]]\nid = "bm25"\nexperiment = "toy"\nquote = "T-1 · BM25 · nDCG@3"\nclaimed = "0.856"\n'
        'key = "macro.bm25.ndcg@3"\n\n'
        '[[binding]]\nid = "hybrid"\nexperiment = "toy"\nquote = "T-1 · Hybrid · nDCG@3"\nclaimed = "0.889"\n'
        'key = "macro.hybrid.ndcg@3"\n\n'
        '[[binding]]\nid = "loss"\nexperiment = "toy"\nquote = "fell to 2.5e-3"\nclaimed = "2.5e-3"\nkey = "loss"\n',
        encoding="utf-8")
    log = tmp_path / "log.jsonl"
    out = tmp_path / "run"
    out.mkdir()
    metrics = out / "metrics.json"
    metrics.write_text(json.dumps({"macro": {"bm25": {"ndcg@3": 0.855971}, "hybrid": {"ndcg@3": 0.888438}},
                                   "loss": 0.0025}))
    (out / "manifest.json").write_text(json.dumps({"run_id": "sandbox-run-toy"}))  # names the run's output dir
    with recorded_run(log, "sandbox run", {"k": 3}) as rec:
        rec.run_id = "sandbox-run-toy"
        rec.add_outputs(out)
        rec.results = {"metrics": str(metrics.resolve()), "manifest": str((out / "manifest.json").resolve())}
    text, inputs = report(tmp_path, pack=chapter, claims=(claims,), log=log)
    assert {v.binding.binding_id: v.status for v in inputs.verdicts} == {
        "bm25": "MATCH", "hybrid": "MISMATCH", "loss": "MATCH"}
    claims_section = text.split("## 2.")[1].split("## 3.")[0]
    hybrid = next(line for line in claims_section.splitlines()
                  if line.startswith('| <a id="t-1-r02-c02"></a>T-1-R02-C02 |'))
    assert "T-1 · Hybrid · nDCG@3 = 0.889 (section: Toy chapter › Results; table T-1 (line 7)" in hybrid
    assert "correct 0.889 to 0.888" in hybrid and "| high |" in hybrid
    # a reproduced, kept row is listed compactly after the ranked table; the matching cell under its table
    assert ("- C-001-01 (section: Toy chapter › Results; paragraph 1, sentence 1; measured result; reproduced "
            "locally by run sandbox-run-toy): The loss fell to 2.5e-3 after tuning.") in claims_section
    assert "- T-1: 2 numeric cells — 2 bound (1 MATCH, 1 MISMATCH), 0 unbound; 1 listed in the table above" \
        in claims_section
    assert "  - T-1-R01-C02 · BM25 · nDCG@3 = 0.856 — MATCH (run sandbox-run-toy)" in claims_section
    assert claims_section.index("T-1-R02-C02") < claims_section.index("- C-001-01")
    assert "not a claim" not in claims_section
    context = text.split("## 2.")[0]
    assert "| code examples read | code (python), lines 12–14 (section: Toy chapter › Results) |" in context
    assert "| tables read | T-1: 2 columns (Run, nDCG@3) × 2 rows, lines 7–10 after “The loss fell to 2.5e-3 after tuning.” |" in context
