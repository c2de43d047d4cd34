"""The reviewer's arithmetic (issue 22): percent-of-baseline and ratio columns, prose ratios and
point differences against table values, prose counts against the chapter's code."""

from __future__ import annotations

from pathlib import Path

import pytest

from claims.consistency import check_results_page

DATA = Path(__file__).parent / "data"
ARITH = DATA / "consistency" / "arithmetic"
KINDS = ("percent-of-baseline", "ratio-to-baseline", "prose-ratio", "prose-points", "code-count")


def outcome(page: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"pass": [], "fail": [], "skip": []}
    for check in check_results_page(page).checks:
        if check.group in KINDS:
            out[check.status].append(check.group)
    return out


@pytest.mark.parametrize("name, passes, fails", [
    ("percent_of_baseline", ["percent-of-baseline"] * 6 + ["ratio-to-baseline"] * 3, []),
    ("percent_of_baseline_planted", ["percent-of-baseline"] * 4 + ["ratio-to-baseline"] * 2,
     ["percent-of-baseline", "percent-of-baseline", "ratio-to-baseline"]),
    ("prose_ratios", ["prose-ratio", "prose-points", "prose-points"], []),
    ("prose_ratios_planted", ["prose-points"], ["prose-ratio", "prose-points"]),
    ("code_counts", ["code-count"] * 3, []),
    ("code_counts_planted", ["code-count"] * 2, ["code-count"]),
])
def test_planted_errors_are_found_and_clean_pages_pass(name, passes, fails):
    got = outcome(ARITH / f"{name}.md")
    assert sorted(got["pass"]) == sorted(passes)
    assert sorted(got["fail"]) == sorted(fails)


def test_the_arithmetic_of_a_failure_is_stated():
    checks = {c.check_id: c for c in check_results_page(ARITH / "percent_of_baseline_planted.md").checks}
    bad = [c for c in checks.values() if c.status == "fail" and c.group == "percent-of-baseline"]
    assert bad[0].arithmetic.endswith("87% vs 100·0.6534/0.7389 = 88.429 (interval [88.416, 88.441] from the "
                                      "printed precision; the cell stands for [86.500, 87.500]) — baseline "
                                      "'4096 / float32 d=1024'")
    assert bad[0].line == 9
    # a "% of float32" above 100 (int4: 100.2%) is not a range failure
    assert not [c for c in checks.values() if c.group == "range" and c.status == "fail"]
    code = [c for c in check_results_page(ARITH / "code_counts_planted.md").checks if c.status == "fail"]
    assert code[0].arithmetic == ("C-001-01 says “four epochs”; the chapter's code states 3 (line 8: for epoch in "
                                  "range(3):) — counts are exact")


def test_ambiguity_and_bounds_are_skipped_never_failed():
    got = outcome(ARITH / "prose_ratios.md")
    assert got["skip"] == ["prose-ratio", "prose-ratio"]   # "2.5 times fewer" names no column; "up to 3×"


def test_no_false_alarm_on_the_existing_pages():
    """Every page of the repository's consistency, labelled, reference and results fixtures (the
    planted arithmetic pages aside): none of the new checks fails."""
    pages = [p for p in sorted(DATA.rglob("*.md")) if "arithmetic" not in p.parts]
    assert len(pages) >= 20
    for page in pages:
        assert outcome(page)["fail"] == [], page


def test_the_real_percent_of_default_column_has_exactly_its_two_errors():
    """A real results page (provenance in arithmetic/PROVENANCE.md): per-model baselines read from
    the labels' stems; e5-base-v2 int8 and Cohere binary disagree with the table's own NDCG@10."""
    report = check_results_page(ARITH / "hf_embedding_quantization_excerpt.md")
    checks = [c for c in report.checks if c.group == "percent-of-baseline"]
    assert [c.status for c in checks].count("pass") == 6
    failed = [c for c in checks if c.status == "fail"]
    assert [c.line for c in failed] == [12, 20]
    assert "94.68% vs 100·47.54/50.77 = 93.638" in failed[0].arithmetic
    assert "94.6% vs 100·52.3/55.0 = 95.091" in failed[1].arithmetic
    assert not [c for c in report.checks if c.status == "fail" and c.group not in KINDS]


def test_code_counts_read_only_the_neighbouring_code_and_skip_rates(tmp_path):
    """Sweep false alarms (bench/sweep_consistency.py): a count constant of an earlier example
    compared with "10,000 trials" read as "000 trials", and a rate ("60 queries/s") read as a
    count of the ``queries = [...]`` list. Our own page of the same shape."""
    page = tmp_path / "page.md"
    page.write_text(
        "# Simulation\n\n```python\nnum_trials = 100\nhits = simulate(num_trials)\n```\n\n"
        "Another example draws from a die.\n\n```python\nroll(6)\n```\n\n"
        "Let us now run 10,000 trials and compare.\n\n```python\nrun(10000)\n```\n\n"
        "```python\nqueries = [\"a cat\", \"a dog\"]\n```\n\n"
        "Throughput above 60 queries/s is in bold; we search 3 queries here.\n", encoding="utf-8")
    checks = [c for c in check_results_page(page).checks if c.group == "code-count"]
    assert [(c.status, c.arithmetic.split(";")[0]) for c in checks] == [("fail", "C-003-01 says “3 queries”")]


def test_a_ratio_column_printed_with_the_times_sign_is_read(tmp_path):
    """Sweep coverage: ``0.33×`` cells were not numbers, and the baseline row ``bf16_ref`` did not
    name ``ref`` (underscore). Our own numbers; one planted cell (0.52× where 700/1400 = 0.50)."""
    page = tmp_path / "kernels.md"
    page.write_text("# Kernels\n\n| Config | Latency (ms) | TFLOPS | Speedup vs REF |\n|---|---|---|---|\n"
                    "| **bf16_ref** (baseline) | 80.00 | 1400.0 | 1.00× |\n| fp8_a | 240.00 | 466.7 | 0.33× |\n"
                    "| fp8_b | 160.00 | 700.0 | 0.52× |\n| fp4_c | 200.00 | 560.0 | 0.40× |\n", encoding="utf-8")
    got = [(c.status, c.line) for c in check_results_page(page).checks if c.group == "ratio-to-baseline"]
    assert got == [("pass", 6), ("fail", 7), ("pass", 8)]


def test_a_recovery_column_is_a_percent_of_each_groups_baseline_row(tmp_path):
    """Sweep coverage: "Recovery (Strict)" beside one ``baseline`` row per model (our own numbers;
    the second model's 90.00% is planted: 100·0.7000/0.8000 = 87.50)."""
    page = tmp_path / "pruning.md"
    page.write_text("# Pruning\n\n| Model | Config | Flexible | Strict | Recovery (Strict) |\n|---|---|---|---|---|\n"
                    "| Model-A | baseline | 0.9000 | 0.9000 | - |\n| | prune 25% | 0.8900 | 0.8820 | 98.00% |\n"
                    "| | | | | |\n| Model-B | baseline | 0.8000 | 0.8000 | - |\n"
                    "| | prune 25% | 0.7100 | 0.7000 | 90.00% |\n| | prune 50% | 0.4000 | 0.4000 | 50.00% |\n",
                    encoding="utf-8")
    got = [(c.status, c.line) for c in check_results_page(page).checks if c.group == "percent-of-baseline"]
    assert got == [("pass", 6), ("fail", 9), ("pass", 10)]
