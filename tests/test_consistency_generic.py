"""Generic consistency checks (issue 12): our test pages in the shapes of real results pages, each
with a clean copy (no failure) and a planted copy (the planted error and only it fails), the traps
a literal reading falls into, no silent pass, and the report's Findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from audit.document import Table
from claims.consistency import check_results_page, check_text
from claims.consistency.aggregate import check_aggregates
from claims.consistency.vocabulary import aggregate_label
from claims.consistency.context import TableView
from claims.consistency.vocabulary import metrics_named
from claims.consistency.difference import check_differences

REPO = Path(__file__).resolve().parents[1]
PAGES = REPO / "tests" / "data" / "consistency"

# page, the one failing check id on its planted copy, a fragment of that check's line
PLANTED = [
    ("beir_style.md", "aggregate:1:row:Avg.@21:TAS-B",
     "Avg. × TAS-B: 0.446 vs mean(0.643, 0.319, 0.481, 0.300) = 0.435750 ✗ (|Δ| 0.010250 > 0.001000)"),
    ("pyserini_style.md", "repeated:ndcg@10:nfcorpus / splade:14-48",
     "ndcg@10 for nfcorpus / splade: 0.347 at table 1 (line 11)"),
    ("delta_page.md", "difference:1:column:Δ:hard",
     "Δ × hard: +0.012 vs 0.109 − 0.121 = -0.012000 ✗ (|Δ| 0.024000 > 0.001500; sign differs)"),
    ("chapter.md", "prose:C-003-01:1:2:1",
     "'1,018' vs 1,081 at table 1 (line 8) in § Chapter 15: Evidence budgets, row 'MMR' × column "
     "'Mean characters', line 12 ✗ (|Δ| 63.000000 > 1.000000)"),
]


def test_planted_copies_differ_from_clean_copies_in_one_line():
    for name, _, _ in PLANTED:
        clean = (PAGES / name).read_text(encoding="utf-8").splitlines()
        planted = (PAGES / name.replace(".md", "_planted.md")).read_text(encoding="utf-8").splitlines()
        assert len(clean) == len(planted)
        assert sum(a != b for a, b in zip(clean, planted)) == 1, name


@pytest.mark.parametrize("name,failing,fragment", PLANTED)
def test_clean_page_passes_and_planted_page_fails_only_there(name, failing, fragment, cli):
    clean = check_results_page(PAGES / name)
    assert clean.failed == [] and clean.checkable
    assert cli("consistency", PAGES / name).exit_code == 0
    planted = check_results_page(PAGES / name.replace(".md", "_planted.md"))
    assert [c.check_id for c in planted.failed] == [failing]
    assert fragment in planted.failed[0].arithmetic
    result = cli("consistency", PAGES / name.replace(".md", "_planted.md"))
    assert result.exit_code == 1 and f"failed: {failing}" in result.output


def test_beir_style_group_averages_by_interval_arithmetic():
    report = check_results_page(PAGES / "beir_style.md")
    lines = {c.check_id: c.arithmetic for c in report.checks}
    # in-domain group: (0.408 + 0.463)/2 = 0.4355, printed 0.436: tolerance ½·10^-3 + ½·10^-3
    assert ("Avg. × TAS-B: 0.436 vs mean(0.408, 0.463) = 0.435500 ✓ (|Δ| 0.000500 ≤ 0.001000) "
            "[mean of its group: 'MS MARCO', 'NQ']") in lines["aggregate:1:row:Avg.@15:TAS-B"]
    # the last row averages every group (6 collections), not its own group: 2.439/6 = 0.4065
    assert ("Average (all) × BM25: 0.407 vs mean(0.228, 0.329, 0.665, 0.325, 0.656, 0.236) = 0.406500 ✓"
            in lines["aggregate:1:row:Average (all)@22:BM25"])
    # DPR has no FiQA run: its averages are skipped with the reason, never guessed
    assert "Avg. × DPR: member cell(s) 'FiQA' missing or not numbers" in lines["aggregate:1:row:Avg.@21:DPR"]
    # the Avg. column of the per-model table: (0.665 + 0.325 + 0.656 + 0.236)/4 = 0.4705
    assert "BM25: 0.471 vs mean(0.665, 0.325, 0.656, 0.236) = 0.470500 ✓" in \
        lines["aggregate:2:column:Avg.:BM25"]
    assert report.counts_by_kind() == {
        "aggregate": {"pass": 9, "fail": 0, "skip": 2}, "range": {"pass": 8, "fail": 0, "skip": 0},
        "repeated": {"pass": 11, "fail": 0, "skip": 0}, "prose": {"pass": 2, "fail": 0, "skip": 0}}


def test_average_column_that_is_a_method_is_not_an_aggregate():
    report = check_results_page(PAGES / "pyserini_style.md")
    aggregates = [c for c in report.checks if c.group == "aggregate"]
    assert [c.status for c in aggregates] == ["skip"] * 3
    assert ("table 1 (line 11) column 'Average': not an aggregate — 5 of 5 cells differ from the mean of "
            "the table beyond printed precision") in aggregates[0].arithmetic


def test_identical_tables_whose_metric_is_named_before_each_are_not_compared():
    report = check_results_page(PAGES / "pyserini_style.md")
    views = {c.check_id: c for c in report.checks if c.group == "repeated"}
    # only the nDCG@10 summary table repeats table 1; R@100 and R@1000 tables are other metrics
    assert sorted(views) == ["repeated:ndcg@10:flat / nfcorpus:14-47", "repeated:ndcg@10:flat / trec-covid:13-47",
                             "repeated:ndcg@10:nfcorpus / splade:14-48", "repeated:ndcg@10:splade / trec-covid:13-48"]
    assert all(c.status == "pass" for c in views.values())
    # without the sentences naming the metric, the identical tables are recorded as not compared
    text = (PAGES / "pyserini_style.md").read_text(encoding="utf-8")
    for sentence in ("Table 1 gives nDCG@10:", "Table 2 gives R@100:", "Table 3 gives R@1000:",
                     "The nDCG@10 of two single runs on two corpora, for quick reference:"):
        text = text.replace(sentence, "The next table:")
    bare = check_text(text.replace("## Effectiveness", "## Runs"), "bare.md")
    assert bare.failed == []
    skips = [c.arithmetic for c in bare.checks if c.group == "repeated"]
    assert skips == ["tables 1, 2, 3 (lines 11, 21, 31) have identical headers and share labels, but no "
                     "metric is named for them (header, caption or section): their cells are not compared"]


def test_label_copied_from_another_section_reports_both_locations():
    page = """# Results

## Sparse runs

Table 1 reports nDCG@10:

| System | SciFact | FiQA |
|---|---|---|
| BM25 | 0.665 | 0.236 |
| uniCOIL | 0.686 | 0.289 |

## Dense runs

Table 2 reports nDCG@10:

| System | SciFact | FiQA |
|---|---|---|
| TAS-B | 0.643 | 0.300 |
| BM25 | 0.704 | 0.347 |
"""
    report = check_text(page, "copied.md")
    failed = report.failed
    assert [c.check_id for c in failed] == ["repeated:ndcg@10:bm25 / scifact:9-19",
                                            "repeated:ndcg@10:bm25 / fiqa:9-19"]
    assert failed[0].locations == (
        "table 1 (line 7) in § Results › Sparse runs, row 'BM25' × column 'SciFact', line 9",
        "table 2 (line 16) in § Results › Dense runs, row 'BM25' × column 'SciFact', line 19")
    assert "or a label copied from another section; check both locations" in failed[0].arithmetic


def test_differences_named_relative_and_row_wise():
    report = check_results_page(PAGES / "delta_page.md")
    lines = {c.check_id: c.arithmetic for c in report.checks}
    assert ("SciFact: +10.0% vs 100·(0.440 − 0.400)/0.400 = 10.000000 ✓" in
            lines["difference:2:column:Gain over Base (%):SciFact"])
    assert "['Tuned' − 'Base' (relative)]" in lines["difference:2:column:Gain over Base (%):SciFact"]
    assert "Δ × FiQA: +0.116 vs 0.352 − 0.236 = 0.116000 ✓" in lines["difference:3:row:Δ@27:FiQA"]
    assert "['BM25 + RM3' − 'BM25' (absolute)]" in lines["difference:1:column:Δ:dev"]


def test_granularity_with_a_declared_denominator():
    page = """Accuracy on the probe set (n = 40 questions):

| Model | Accuracy | Hits@1 (n = 5000) | Stated |
|---|---|---|---|
| A | 0.725 | 0.3126 | 29/40 (0.725) |
| B | 0.730 | 0.3120 | 30/40 (0.700) |
"""
    report = check_text(page, "grim.md")
    by_id = {c.check_id: c for c in report.checks if c.group == "granularity"}
    assert by_id["granularity:1:A:Accuracy"].status == "pass"
    assert "0.725 = 29/40 = 0.725000 ✓" in by_id["granularity:1:A:Accuracy"].arithmetic
    assert by_id["granularity:1:B:Accuracy"].status == "fail"  # 0.730·40 = 29.2: no k/40 rounds to it
    assert "no integer k/40 rounds to it" in by_id["granularity:1:B:Accuracy"].arithmetic
    assert by_id["granularity:1:A:Stated"].status == "pass"
    assert by_id["granularity:1:B:Stated"].status == "fail"  # 30/40 is 0.75, printed 0.700
    # 1/5000 = 0.0002 is finer than ±0.00005·2? no: it is coarser, so the column is checked
    assert by_id["granularity:1:A:Hits@1 (n = 5000)"].status == "pass"


def test_ranges():
    page = """Table 1 reports nDCG@10:

| System | SciFact | FiQA | Share of queries | #Queries |
|---|---|---|---|---|
| A | 0.665 | 1.070 | 104% | 300 |
| B | 0.700 | 0.320 | 55% | 12.5 |
"""
    report = check_text(page, "ranges.md")
    failed = sorted(c.arithmetic for c in report.failed)
    assert failed == [
        "table 1 (line 3), row 'A' × column 'FiQA', line 5: 1.070 is not a ndcg@10 in [0, 1] ✗",
        "table 1 (line 3), row 'A' × column 'Share of queries', line 5: 104% is not a percentage in [0, 100] ✗",
        "table 1 (line 3), row 'B' × column '#Queries', line 6: 12.5 is not a count: non-negative integer ✗"]


def test_no_silent_pass_exit_3_and_strict(tmp_path, cli):
    empty = tmp_path / "empty.md"
    empty.write_text("No tables here.\n", encoding="utf-8")
    result = cli("consistency", empty)
    assert result.exit_code == 3 and "no checkable relation found in 0 tables" in result.output
    names = tmp_path / "names.md"
    names.write_text("| Run | Notes |\n|---|---|\n| a | first |\n| b | second |\n", encoding="utf-8")
    result = cli("consistency", names)
    assert result.exit_code == 3 and "no checkable relation found in 1 tables" in result.output
    data = json.loads(cli("consistency", names, "--format", "json").output)
    assert data["checkable"] is False and data["exit_code"] == 3
    # the clean BEIR-style page has two skipped averages (DPR lacks FiQA): --strict fails them
    strict = cli("consistency", PAGES / "beir_style.md", "--strict")
    assert strict.exit_code == 1 and "--strict: 2 skipped checks count as failures" in strict.output
    assert "kind aggregate: 9 pass, 0 fail, 2 skip" in strict.output


def test_checks_work_on_the_document_model_table_interface():
    # built by hand against the agreed audit.document.Table interface (no Markdown parsing)
    table = Table(line=3, end_line=9, section=("Results",), caption="nDCG@10 per collection:",
                  header=("Dataset", "A", "B", "Δ"),
                  rows=(("**In-domain**", "", "", ""), ("X", "0.50", "0.60", "+0.10"), ("Y", "0.30", "0.20", "-0.10"),
                        ("Mean", "0.40", "0.40", "0.00")))
    view = TableView.of(table, 1)
    assert view.is_group == [True, False, False, False]
    assert view.metric_of(1, 1) == ("ndcg@10", "caption")
    aggregates = check_aggregates(view)
    assert [c.status for c in aggregates] == ["pass", "pass", "pass"]
    assert [c.status for c in check_differences(view)] == ["pass", "pass", "pass"]


def test_labels():
    assert aggregate_label("Avg.") is not None and aggregate_label("**Average (all)**".strip("*")) is not None
    assert aggregate_label("Total").operation == "sum"
    assert aggregate_label("Avg. w/o MS MARCO").excluded == ("MS MARCO",)
    assert aggregate_label("Avg. D/Q") is None and aggregate_label("Mean grade") is None
    assert metrics_named("nDCG@10 and R@100, MRR") == ["ndcg@10", "recall@100", "mrr"]
    assert metrics_named("we map documents", prose=True) == []


def test_report_lists_the_chapters_own_contradictions(tmp_path):
    from reports.build import ReportOptions, write_report

    for name, expected in (("chapter.md", 0), ("chapter_planted.md", 1)):
        path, inputs = write_report(ReportOptions(pack=PAGES / name, output=tmp_path / f"{name}.report.md",
                                                  log=tmp_path / "log.jsonl", offline=True, report_date="2026-11-30"))
        assert len(inputs.consistency) == expected
        text = path.read_text(encoding="utf-8")
        contradictory = text[text.index("### Contradictory"):text.index("### Unresolved")]
        assert contradictory.count("consistency (prose) of the chapter's own numbers") == expected
        if expected:
            assert "'1,018' vs 1,081" in contradictory and "row 'MMR' × column 'Mean characters'" in contradictory


def test_prose_changes_and_cutoffs_are_not_read_as_cell_values():
    page = """Table 1 reports nDCG@10 on two collections:

| System | SciFact | FiQA |
|---|---|---|
| BM25 | 0.66 | 0.24 |
| DPR | 0.32 | 0.11 |

On SciFact, BM25 improves nDCG@10 by 0.34 over DPR, and rises from 0.61 to 0.66.

On FiQA, BM25 scores 0.24 while DPR scores 0.21.
"""
    from claims.extract import extract_claims

    report = check_text(page, "prose.md", claims=extract_claims(page, "block"))
    prose = {c.check_id: c for c in report.checks if c.group == "prose"}
    # the change (by 0.34, from 0.61) is never compared; 0.66 agrees; DPR's 0.21 is the one wrong value
    assert [c.status for c in prose.values()].count("fail") == 1
    failed = report.failed[0]
    assert "'0.21' vs 0.11 at table 1 (line 3), row 'DPR' × column 'FiQA'" in failed.arithmetic
    assert any("'0.66' vs 0.66" in c.arithmetic and c.status == "pass" for c in prose.values())


def test_seed_001_chapter_has_no_false_alarm():
    # a real chapter pack: macro-metric columns ("Macro Recall@3") are measures, not aggregates, and
    # a text-only table (findings / limits) gets no aggregate or difference check
    from audit.pack import load_pack
    from claims.consistency import check_chapter
    from claims.extract import claims_for_pack
    from support import seed

    pack = load_pack(seed("001_ebef38b6bd9f9237.txt"))
    _, claims, _ = claims_for_pack(pack)
    report = check_chapter(pack, claims)
    assert report.failed == [] and report.n_tables == 6
    assert not [c for c in report.checks if c.group in ("aggregate", "difference")]
    assert report.counts_by_kind()["prose"]["pass"] >= 1
    assert "'0.888889' vs 0.888889 at table 5" in " ".join(c.arithmetic for c in report.checks)


def test_granularity_denominator_from_a_k_over_n_cell():
    page = """Success@1 per query set:

| Set | Answered | Success@1 |
|---|---|---|
| easy | 29/40 | 0.550 |
| hard | 7/12 | 0.500 |
| odd | 5/12 | 0.420 |
"""
    by_id = {c.check_id: c for c in check_text(page, "kn.md").checks if c.group == "granularity"}
    assert by_id["granularity:1:easy:Success@1"].status == "pass"     # 22/40
    assert by_id["granularity:1:hard:Success@1"].status == "pass"     # 6/12
    odd = by_id["granularity:1:odd:Success@1"]                       # 5/12 = 0.4167, 0.42·12 = 5.04
    assert odd.status == "fail"
    assert "0.420 = 5/12 = 0.416667 ✗ (|Δ| 0.003333 > 0.000500; N = 12 from a k/N cell in column 'Answered'" \
        in odd.arithmetic


def test_parallel_tables_named_by_their_corner_cell_are_not_failed():
    """Sweep false alarm (bench/sweep_consistency.py): one accuracy table per model, the model
    named only in the corner cell, same rows and columns. Our own numbers."""
    page = """# Accuracy after quantization

| `Model-A-7B` | int8 | bf16 |
|---|---|---|
| task-one | 0.7299 | 0.7359 |
| task-two | 0.5892 | 0.5911 |

| `Model-B-3B` | int8 | bf16 |
|---|---|---|
| task-one | 0.6420 | 0.6552 |
| task-two | 0.5892 | 0.5902 |
"""
    checks = [c for c in check_text(page, "models.md").checks if c.group == "repeated"]
    assert [c.status for c in checks] == ["skip", "skip", "pass", "skip"]
    assert "parallel tables" in checks[0].arithmetic and "not compared" in checks[0].arithmetic


def test_a_caption_naming_rr_and_ndcg_names_no_single_metric():
    """Sweep false alarm: "dev in terms of RR@10, DL19 in terms of nDCG@10" read as nDCG@10 for every
    column, so two sections' ``dev`` columns (RR@10 and RR@100) were compared as nDCG@10."""
    page = """# Runs

## Collection one

The table below reports dev in terms of RR@10, DL19 in terms of nDCG@10:

| | dev | DL19 |
|---|---|---|
| BM25 | 0.1840 | 0.5058 |

## Collection two

The table below reports dev in terms of RR@100, DL21 in terms of nDCG@10:

| | dev | DL21 |
|---|---|---|
| BM25 | 0.0719 | 0.4458 |
"""
    assert [c for c in check_text(page, "runs.md").checks if c.group == "repeated"] == []


def test_settings_columns_units_and_signed_columns_get_no_range():
    """Sweep false alarms of ``range``: a ``lora rank`` column under an accuracy heading, a count in
    billions, a signed gain column ``ACC+``. Our own numbers; the accuracy cells are still ranged."""
    page = """# Accuracy after compression

| Method | lora rank | Accuracy | Number of Parameters (B) | ACC+ |
|---|---|---|---|---|
| baseline | 0 | 0.612 | 0.110 | 0 |
| int4 + correction | 256 | 0.598 | 0.023 | -0.87 |
| int4 | 128 | 1.203 | 0.023 | 0.75 |
"""
    checks = [c for c in check_text(page, "compressed.md").checks if c.group == "range"]
    assert [(c.status, c.arithmetic.split(":")[-1].strip()) for c in checks if c.status == "fail"] == [
        ("fail", "1.203 is not a accuracy in [0, 1] ✗")]
    assert not [c for c in check_text(page, "compressed.md").checks if c.group == "repeated" and c.status == "fail"]


def test_prose_leaves_bounds_other_rows_numbers_and_column_totals_alone():
    """Sweep false alarms of ``prose`` (our own page of the same shapes): a bound ("< 0.7"), a number
    that belongs to another row ("96 layers" beside "Hidden Dimension"), and a column total
    ("900 questions" over 500 + 400); a wrong cell is still found."""
    page = """# Models

| Model Size | 7B | 13B |
|---|---|---|
| Number of layers | 32 | 40 |
| Hidden Dimension | 4,096 | 5,120 |

The 13B model has 96 layers, a wide hidden dimension of 5,120 and more heads.

The 7B model has a hidden dimension of 4,000.

| Subtask | Questions |
|---|---|
| Arithmetic | 500 |
| Lookup | 400 |

The benchmark has 900 questions, most of them arithmetic ones.

| Judge | Bias |
|---|---|
| longest | 37.8 |

The longest judge keeps its bias < 0.7 in the ideal case.
"""
    checks = [c for c in check_text(page, "models.md", claims=__import__("claims.extract", fromlist=["x"]).extract_claims(page, "block")).checks if c.group == "prose"]
    assert [(c.status, c.arithmetic.split(" at ")[0].split("] ")[-1]) for c in checks if c.status != "pass"] == [
        ("fail", "paragraph 2, sentence 1 (line 10): '4,000' vs 4,096")]


def test_a_heading_metric_does_not_reach_metric_columns_settings_or_other_scores():
    """Sweep false alarms of ``range`` and ``repeated`` (our own numbers, the shapes of real pages):
    an evaluation-harness table with a ``Metric`` column under an "Evaluate accuracy" heading (two
    filters of one task on two rows), and a heading's accuracy over a score column none of whose
    cells is an accuracy; a bad accuracy cell is still found."""
    page = """# Quantized model

## Evaluate accuracy

|Tasks|Version|Filter|n-shot|Metric|Value|Stderr|
|-----|------:|------|-----:|------|----:|-----:|
|task-a|3|flexible|5|exact_match|0.7710|0.0116|
|      | |strict  |5|exact_match|0.7043|0.0126|

## Accuracy evaluation

| scheme | arc acc | VQA | MME |
| --- | --- | --- | --- |
| baseline | 60.48 | 80.4 | 1442.4 |
| int4 | 160.61 | 80.0 | 1437.3 |
"""
    report = check_text(page, "harness.md")
    failed = [c.arithmetic.split(": ")[-1] for c in report.failed]
    assert failed == ["160.61 is not a accuracy in [0, 100] ✗"]
    assert [c.check_id for c in report.checks if c.group == "range" and c.status == "skip"] == [
        "range:2:MME:not-this-metric"]
    assert [c for c in report.checks if c.group == "range" and "Version" in c.check_id] == []


def test_a_page_whose_only_checks_are_passing_ranges_exits_0_and_says_so(tmp_path, cli):
    """A range check that ran and passed is a check: exit 0, and the message names it (not
    "no checkable relation"); 3 stays for pages where nothing at all was checkable."""
    page = tmp_path / "ranges_only.md"
    page.write_text("| Model | nDCG@10 |\n|---|---|\n| A | 0.412 |\n| B | 0.388 |\n", encoding="utf-8")
    result = cli("consistency", page)
    assert result.exit_code == 0, result.output
    assert "no checkable relation" not in result.output
    assert "kind range: 1 pass, 0 fail, 0 skip" in result.output       # one check per column
    assert "no relation between numbers found in 1 tables; 1 range check ran: 1 passed" in result.output
    data = json.loads(cli("consistency", page, "--format", "json").output)
    assert data["checkable"] is True and data["relations_checked"] == 0 and data["exit_code"] == 0
    # a range check that fails still fails (exit 1)
    page.write_text("| Model | nDCG@10 |\n|---|---|\n| A | 1.412 |\n| B | 0.388 |\n", encoding="utf-8")
    assert cli("consistency", page).exit_code == 1


def test_a_score_after_a_system_name_is_checked_and_a_version_is_not():
    """The name-before-number rule of claims/kinds.py reads "Hybrid 0.400" and a list of scores
    printed alike ("Dense 0.45 and Hybrid 1.00") as values, so the prose check compares them: the
    table gives Hybrid 0.98, the sentence 1.00 (|Δ| 0.02 > 0.005 + 0.005: fail; before the rule,
    1.00 read as a version and the sentence was never checked). "Pandas 0.25" in a sentence about
    an upgrade stays a version: no check."""
    from claims.extract import extract_claims
    page = ("# Results\n\n| System | nDCG@10 |\n|---|---|\n| BM25 | 0.41 |\n| Dense | 0.45 |\n"
            "| Hybrid | 0.98 |\n\nOn nDCG@10 we measure BM25 0.41, Dense 0.45 and Hybrid 1.00.\n\n"
            "We upgrade Hybrid to Pandas 0.25 before the nDCG@10 runs.\n")
    checks = [c for c in check_text(page, "p.md", claims=extract_claims(page, "block")).checks if c.group == "prose"]
    assert sorted((c.status, c.arithmetic.split("'")[1]) for c in checks) == [
        ("fail", "1.00"), ("pass", "0.41"), ("pass", "0.45")], [c.arithmetic for c in checks]
    failed = [c for c in checks if c.status == "fail"][0]
    assert "'1.00' vs 0.98" in failed.arithmetic and "(|Δ| 0.020000 > 0.010000)" in failed.arithmetic
