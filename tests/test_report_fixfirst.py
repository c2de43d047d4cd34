"""Issue 22: the fix-first list and the ranked claim audit, on the bundled demo."""

from __future__ import annotations

import re

from reports.validate import validation_problems

PRIORITY = {"high": 0, "medium": 1, "low": 2}


def demo_report(tmp_path, kinds: str) -> str:
    """The demo's report, written again from the demo's log with ``kinds`` deciding the kinds."""
    from cli.demo import EXAMPLE_CLAIMS, EXAMPLE_PACK, run_demo
    from reports.build import ReportOptions, write_report

    work = tmp_path / "demo"
    run_demo(work, report_date="2026-12-01")
    if kinds == "model":  # the demo's own report: the default
        return (work / "report.md").read_text(encoding="utf-8")
    path, _ = write_report(ReportOptions(pack=EXAMPLE_PACK, output=work / f"report-{kinds}.md", log=work / "log.jsonl",
                                         claims_files=(EXAMPLE_CLAIMS,), sources_cache=work / "sources", offline=True,
                                         report_date="2026-12-01", kinds=kinds))
    return path.read_text(encoding="utf-8")


def test_demo_fix_first_names_the_contradicted_number_before_the_provenance_table(tmp_path):
    # about the fix-first list, not the kinds: it states the rules, which read the demo chapter's
    # kinds right (the default classifier does too since fd6430259fd4: the test below)
    text = demo_report(tmp_path, "rules")
    assert validation_problems(text) == []
    section1 = text.split("## 1. Context and provenance")[1].split("## 2.")[0]
    before_table = section1.split("| Field | Value |")[0]
    assert "### Fix first" in before_table
    items = [line for line in before_table.splitlines() if re.match(r"^\d+\. ", line)]
    assert items[0].startswith("1. [C-004-01](#c-004-01) contradicted by run sandbox-run-")
    assert "the chapter prints 0.889; the run logs macro.hybrid.ndcg@3 = 0.888438415" in items[0]
    assert ("Proposed text: “Min-max fusion of the two lists lifts macro NDCG@3 to 0.888 while keeping macro "
            "Recall@3 at 1.000000.”") in items[0]
    # then the two attributions with no verified source, in document order
    assert [i.split(" ", 2)[1] for i in items[1:]] == ["[C-002-01](#c-002-01)", "[C-005-01](#c-005-01)"]
    # every link lands on an anchor the report defines (validation_problems checks it too)
    for target in re.findall(r"\]\(#([a-z0-9-]+)\)", text):
        assert f'<a id="{target}"></a>' in text
    # section 2 is ordered by priority; the contradicted row is first
    claims = text.split("## 2. Claim audit")[1].split("## 3.")[0]
    rows = [line for line in claims.splitlines() if line.startswith("| <a id=")]
    priorities = [line.rsplit(" | ", 2)[1] for line in rows]
    assert priorities == sorted(priorities, key=PRIORITY.__getitem__)
    assert rows[0].startswith('| <a id="c-004-01"></a>C-004-01 |')
    # no boilerplate finding: a topical link is not listed in Findings
    assert "topical only" not in text.split("## 4. Findings")[1]


def test_demo_default_report_asks_for_no_evidence_for_settings(tmp_path):
    """What an author sees in the demo's own report (the default kinds): its fix-first list is the
    contradicted number, then the two attributions with no verified source; the sentences that
    only state settings (C-001-02, C-004-02) and the credited parameters (C-002-01) are not
    measured results asking to be bound (the weights before fd6430259fd4 called all three
    measured; the sentences are in its training set since, tests/test_kinds_default.py)."""
    text = demo_report(tmp_path, "model")
    section1 = text.split("## 1. Context and provenance")[1].split("## 2.")[0]
    items = [line for line in section1.split("| Field | Value |")[0].splitlines() if re.match(r"^\d+\. ", line)]
    assert [i.split(" ", 2)[1] for i in items] == ["[C-004-01](#c-004-01)", "[C-002-01](#c-002-01)",
                                                  "[C-005-01](#c-005-01)"]


def test_a_consistency_failure_is_in_fix_first_and_raises_its_rows(tmp_path):
    from pathlib import Path

    from reports.build import ReportOptions, write_report

    page = Path(__file__).parent / "data" / "consistency" / "arithmetic" / "percent_of_baseline_planted.md"
    path, _ = write_report(ReportOptions(pack=page, output=tmp_path / "r.md", log=tmp_path / "l.jsonl",
                                         sources_cache=tmp_path / "c", offline=True, report_date="2026-12-01",
                                         search=False))
    text = path.read_text(encoding="utf-8")
    assert validation_problems(text) == []
    first = text.split("### Fix first")[1].split("| Field |")[0]
    items = [line for line in first.splitlines() if re.match(r"^\d+\. ", line)]
    assert items[0].startswith("1. [K-1](#k-1) the chapter's own numbers disagree (percent-of-baseline): table 1")
    assert len([i for i in items if "(#k-" in i]) == 3
    claims = text.split("## 2. Claim audit")[1].split("## 3.")[0]
    rows = [line for line in claims.splitlines() if line.startswith("| <a id=")]
    assert [r.split("</a>", 1)[1].split(" |", 1)[0] for r in rows[:3]] == ["T-1-R03-C04", "T-1-R04-C04",
                                                                         "T-2-R02-C04"]
    assert "the chapter's own numbers disagree: K-1 (percent-of-baseline) in section 4" in rows[0]
    assert all("| high |" in r for r in rows[:3])


def test_the_validator_allows_only_the_renderers_anchors():
    from reports.validate import REQUIRED_HEADINGS

    good = "\n\n".join(f"## {h}\n\ntext" for h in REQUIRED_HEADINGS)
    assert validation_problems(good + '\n\n1. [C-1](#c-1)\n\n| <a id="c-1"></a>C-1 | x |\n|---|---|\n| a | b |\n') == []
    assert validation_problems(good + "\n\n[C-2](#c-2)\n") == ["link to a missing anchor #c-2 at line 29"]
    assert validation_problems(good + '\n\n<a id="c-1" onclick="x()"></a>\n')[0].startswith("raw inline HTML")
    assert validation_problems(good + '\n\n<a id="c-1">text</a>\n')[0].startswith("raw inline HTML")
    assert validation_problems(good + '\n\n<a href="https://x.example">x</a>\n')[0].startswith("raw inline HTML")
    assert validation_problems(good + "\n\n[x](http://x.example/#c-1)\n")[0].startswith("non-https link")
