"""Consistency checks: seed 000 (R03-layout extras), its corrupted copy, our synthetic R03 page,
our generic test pages (clean and planted copies), the traps, exit codes and the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claims.consistency import check_results_page, parse_counts, read_tables
from claims.consistency.model import R03_LAYOUT
from engine.runs.errors import InputError

from support import seed

REPO = Path(__file__).resolve().parents[1]
SYNTHETIC = REPO / "tests" / "data" / "results" / "synthetic_results.md"
SEED_RESULTS = "000_6e3ecf25d835ddc8.txt"




def test_seed_all_consistent(cli):
    path = seed(SEED_RESULTS)
    report = check_results_page(path)
    assert report.tasks == {"all": 48, "final": 36, "development": 12}
    assert report.requirements == {"all": 192, "final": 144, "development": 48}
    assert [(t.kind, t.subset) for t in report.tables if t.kind != "other"] == [
        ("metrics", "all"), ("effects", "all"), ("metrics", "final"), ("effects", "final"),
        ("metrics", "development"), ("effects", "development")]
    assert sum(1 for t in report.tables if t.kind == "other") == 8
    counts = {g: sum(1 for c in report.checks if c.group == g and c.origin == R03_LAYOUT) for g in
              ("grim", "aggregate", "effect", "lost-gained")}
    assert counts == {"grim": 24, "aggregate": 28, "effect": 18, "lost-gained": 12}
    assert report.counts(R03_LAYOUT) == {"pass": 82, "fail": 0, "skip": 0}
    # the generic checks add ranges (nDCG@5 and coverage@5 columns of the three metrics tables,
    # the mean-grade tables name no metric) and one skip for identical unnamed tables; no failure
    assert report.failed == []
    assert report.counts_by_kind()["range"] == {"pass": 6, "fail": 0, "skip": 0}
    assert report.counts_by_kind()["repeated"] == {"pass": 0, "fail": 0, "skip": 1}
    result = cli("consistency", path)
    assert result.exit_code == 0
    out = result.output
    assert "all / Fixed coverage: coverage 0.7656 = 147/192 = 0.765625 ✓" in out
    assert "final / Fixed coverage: docs with no agreed obligation 2.5556 = 92/36 = 2.555556 ✓" in out
    assert ("all / coverage-minus-dense: nDCG difference -0.0878 vs 0.6048 − 0.6927 = -0.0879 ✓ "
            "(|Δ| 0.000100 ≤ 0.000150)") in out
    assert "all / Fixed coverage: (17 − 12)/192 = 0.026042 vs coverage 0.7656 − 0.7396 = 0.0260 ✓" in out
    assert "all / Fixed coverage: lost 12 = 10 + 2 = 12 ✓" in out
    assert "all / Fixed coverage: gained 17 = 9 + 8 = 17 ✓" in out
    assert "all / Labeled oracle — diagnostic: gained 28 = 20 + 8 = 28 ✓" in out
    assert "kind R03 layout grim: 24 pass, 0 fail, 0 skip" in out
    assert "kind R03 layout lost-gained: 12 pass, 0 fail, 0 skip" in out
    assert "summary: 89 checks: 88 passed, 0 failed, 1 skipped" in out


def test_seed_with_one_changed_number_fails(tmp_path, cli):
    text = seed(SEED_RESULTS).read_text(encoding="utf-8")
    assert text.count("| 0.7656 |") == 1
    copy = tmp_path / "changed.txt"
    copy.write_text(text.replace("| 0.7656 |", "| 0.7666 |"), encoding="utf-8")
    report = check_results_page(copy)
    failed = {c.check_id for c in report.failed}
    assert failed == {
        "grim:all:Fixed coverage:coverage",
        "aggregate:all:Fixed coverage:coverage",
        "effect:all:coverage-minus-dense:coverage",
        "effect:all:coverage-minus-typed:coverage",
        "lost-gained:all:Fixed coverage",
    }
    result = cli("consistency", copy)
    assert result.exit_code == 1
    # the relation printed in a FAIL line is the true one (it printed "≤" before issue 12)
    assert ("FAIL R03 layout grim: all / Fixed coverage: coverage 0.7666 = 147/192 = 0.765625 ✗ "
            "(|Δ| 0.000975 > 0.000050: no integer k/192 rounds to it)") in result.output
    assert "(|Δ| 0.000950 > 0.000100)" in result.output
    assert "failed: grim:all:Fixed coverage:coverage" in result.output


def test_synthetic_page_hand_computed(cli):
    report = check_results_page(SYNTHETIC)
    assert report.tasks == {"all": 8, "final": 6, "development": 2}
    assert report.requirements == {"all": 32, "final": 24, "development": 8}
    assert report.counts(R03_LAYOUT) == {"pass": 38, "fail": 0, "skip": 0}
    assert report.counts() == {"pass": 44, "fail": 0, "skip": 0}  # + 6 generic range checks
    lines = {c.check_id: c.arithmetic for c in report.checks}
    # 23/32 = 0.71875 prints as 0.7188: exactly half a unit away, inside the inclusive bound
    assert lines["grim:all:Dense:coverage"] == (
        "all / Dense: coverage 0.7188 = 23/32 = 0.718750 ✓ (|Δ| 0.000050 ≤ 0.000050)")
    # label redundancy 0.3400 is not 6/8·0.3 + 2/8·0.5 = 0.35 but lies between: a ratio of sums
    assert lines["aggregate:all:Dense:redundancy"].endswith("✓")
    assert lines["lost-gained:all:Fixed coverage"].startswith("all / Fixed coverage: (5 − 2)/32 = 0.093750")
    # the prose line right after the first table is not a row
    assert [t.rows[-1][0] for t in read_tables(SYNTHETIC.read_text(encoding="utf-8"))][:1] == ["Fixed coverage"]
    result = cli("consistency", SYNTHETIC, "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["ok"] is True and data["summary"] == {"pass": 44, "fail": 0, "skip": 0}
    assert data["by_kind"]["R03 layout grim"] == {"pass": 12, "fail": 0, "skip": 0}
    assert data["exit_code"] == 0 and data["n_tables"] == 7


def test_wrong_counts_from_options_fail(cli):
    # 7 requirements in development instead of 8: 5/7 and 7/7 cannot print as 0.6250 / 0.8750
    result = cli("consistency", SYNTHETIC, "--requirements", "all=32,final=24,development=7")
    assert result.exit_code == 1
    assert "failed: grim:development:Dense:coverage" in result.output
    assert "development=7 (option --requirements)" in result.output


def test_bad_input_exit_2_and_garbled_cells_skip(tmp_path, runner):
    from cli import app

    with pytest.raises(InputError):
        parse_counts("all=forty", "--tasks")
    assert parse_counts("40", "--tasks") == {"*": 40}
    assert runner.invoke(app, ["consistency", str(SYNTHETIC), "--tasks", "all"]).exit_code == 2
    assert runner.invoke(app, ["consistency", str(SYNTHETIC), "--tasks", "0"]).exit_code == 2
    assert runner.invoke(app, ["consistency", str(tmp_path / "missing.md")]).exit_code == 2
    # a missing cell is no longer an input error: the checks that need it are skipped, and say so
    garbled = tmp_path / "garbled.md"
    garbled.write_text(SYNTHETIC.read_text(encoding="utf-8").replace("| 0.3400 |", "| n/a |"),
                       encoding="utf-8")
    result = runner.invoke(app, ["consistency", str(garbled)])
    assert result.exit_code == 0
    assert ("SKIP R03 layout cell: all / Dense: label redundancy cell 'n/a' is not a number; its checks "
            "are skipped [line 5]") in result.output
    # the Dense redundancy aggregate (1 check) gives way to the one cell skip
    assert "summary: 44 checks: 43 passed, 0 failed, 1 skipped" in result.output
    strict = runner.invoke(app, ["consistency", str(garbled), "--strict"])
    assert strict.exit_code == 1 and "--strict: 1 skipped checks count as failures" in strict.output


def test_two_metrics_tables_are_not_assigned_splits_by_page_order(tmp_path, cli):
    # page order means all/final/development only on a page with exactly three metrics tables
    text = SYNTHETIC.read_text(encoding="utf-8")
    page = tmp_path / "two.md"
    page.write_text(text[:text.index("Development subset:")], encoding="utf-8")
    report = check_results_page(page, tasks={"all": 8, "final": 6, "development": 2})
    assert [t.subset for t in report.tables if t.kind == "metrics"] == ["table1", "table3"]
    assert report.failed == []
    assert not any(c.group == "aggregate" and c.origin == R03_LAYOUT for c in report.checks)
