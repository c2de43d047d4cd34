"""Campaign journeys (issue 19–23 round): a new user's own chapter, bound by `bind`, reported.

The user's sandbox (tests/journeys/userfiles.py) gives macro NDCG@3 0.981970 for the hybrid and
0.576113 for the supplied run. The chapter prints both rightly, and in the same sentence an
improvement of 0.406 that no logged result holds (0.981970 − 0.576113 is nowhere in the run's
files): `bind` binds 0.982 and lists 0.406 as unmatched. The report must not call that sentence
"keep" nor say in its fix-first list that every measured result has evidence.
"""

from __future__ import annotations

from pathlib import Path

from commands import run_cli
from userfiles import sandbox_args, write_sandbox_inputs

CHAPTER = """# Apples and seas

## Results

Hybrid fusion lifts macro NDCG@3 to 0.982, an improvement of 0.406 over the supplied run.
The supplied opaque run reaches macro NDCG@3 of 0.576.
"""


def test_a_partly_bound_measured_result_is_not_kept_as_reproduced(tmp_path: Path) -> None:
    inputs = write_sandbox_inputs(tmp_path / "in")
    log = tmp_path / ".chapter-audit" / "log.jsonl"
    ran = run_cli(*sandbox_args(inputs, tmp_path / "out", log), cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    (tmp_path / "ch.md").write_text(CHAPTER, encoding="utf-8")
    bound = run_cli("bind", "ch.md", "--log", log, "--output", "claims.toml", cwd=tmp_path)
    assert bound.returncode == 0, bound.stderr
    assert "C-001-01 0.406: no value within precision" in bound.stdout
    report = run_cli("report", "ch.md", "--offline", "--claims", "claims.toml", "--log", log,
                     "--output", "report.md", "--date", "2026-12-01", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    fix_first = text.split("### Fix first", 1)[1].split("\n#", 1)[0]
    assert "Nothing needs the author's decision" not in fix_first
    assert "[C-001-01](#c-001-01)" in fix_first and "0.406" in fix_first
    row = next(line for line in text.splitlines() if "</a>C-001-01 |" in line)
    assert "0.406" in row and "| keep |" not in row
    assert "C-001-02" in text and "C-001-02" not in fix_first   # the fully bound sentence needs nothing


STALE_CLAIMS = """[experiment.mine]
command = "sandbox run"
result = "metrics"

[[binding]]
id = "supplied-ndcg"
experiment = "mine"
quote = "The supplied opaque run reaches macro NDCG@3"
claimed = "0.580"
key = "macro.frozen_dense.ndcg@3"
"""


def test_a_claims_file_left_behind_by_a_corrected_chapter_is_no_contradiction(tmp_path: Path) -> None:
    """The chapter printed 0.580 and its author corrected it to 0.576 (the run's 0.576113); the
    hand-written claims file still claims 0.580 under a quote without the number. verify alone
    (it reads no chapter) says MISMATCH; the report and the book, which read the chapter, must
    not say the chapter prints 0.580: the binding is stale and cannot be checked."""
    inputs = write_sandbox_inputs(tmp_path / "in")
    log = tmp_path / ".chapter-audit" / "log.jsonl"
    assert run_cli(*sandbox_args(inputs, tmp_path / "out", log), cwd=tmp_path).returncode == 0
    book = tmp_path / "book"
    book.mkdir()
    (book / "ch1.md").write_text("# Results\n\nThe supplied opaque run reaches macro NDCG@3 of 0.576.\n",
                                 encoding="utf-8")
    (book / "ch1.claims.toml").write_text(STALE_CLAIMS, encoding="utf-8")
    report = run_cli("report", "book/ch1.md", "--offline", "--claims", "book/ch1.claims.toml", "--log", log,
                     "--output", "report.md", "--date", "2026-12-01", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "the chapter prints 0.580" not in text and "contradicted by run" not in text
    fix_first = text.split("### Fix first", 1)[1].split("\n#", 1)[0]
    assert "supplied-ndcg" in fix_first and "no longer prints 0.580" in fix_first
    ran = run_cli("book", "book", "--output", "bout", "--offline", "--log", log, "--date", "2026-12-01",
                  cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    row = next(line for line in (tmp_path / "bout" / "index.md").read_text(encoding="utf-8").splitlines()
               if "| ch1.md |" in line)
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[4] == "UNCHECKED" and cells[6] == "0" and cells[11] == "1", cells   # contradicted 0, unchecked 1


TABLE_CHAPTER = """# Apples and seas

## Results

| method | NDCG@3 |
|---|---|
| supplied opaque run | 0.576 |
| hybrid | 0.983 |
"""


def test_an_unbound_table_value_is_not_called_evidenced(tmp_path: Path) -> None:
    """The user's table prints the hybrid's NDCG@3 as 0.983 (the run: 0.981970); `bind` binds
    0.576 and leaves 0.983 unmatched. The fix-first list must not say that every measured result
    has evidence: it names the table value no run backs."""
    inputs = write_sandbox_inputs(tmp_path / "in")
    log = tmp_path / ".chapter-audit" / "log.jsonl"
    assert run_cli(*sandbox_args(inputs, tmp_path / "out", log), cwd=tmp_path).returncode == 0
    (tmp_path / "ch.md").write_text(TABLE_CHAPTER, encoding="utf-8")
    bound = run_cli("bind", "ch.md", "--log", log, "--output", "claims.toml", cwd=tmp_path)
    assert "T-1-R02-C02 0.983: no value within precision; nearest: macro.hybrid.ndcg@3 = 0.981970" in bound.stdout
    report = run_cli("report", "ch.md", "--offline", "--claims", "claims.toml", "--log", log,
                     "--output", "report.md", "--date", "2026-12-01", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    fix_first = text.split("### Fix first", 1)[1].split("\n#", 1)[0]
    assert "every measured result and attribution has evidence" not in fix_first
    assert "[T-1-R02-C02](#t-1-r02-c02)" in fix_first and "0.983" in fix_first
    assert "T-1-R01-C02" not in fix_first


def test_a_logged_run_is_never_called_not_run(tmp_path: Path) -> None:
    """The user ran the sandbox (logged ok) and asks for a report before drafting bindings. The
    chapter's measured results are bound by no claims file, but the run exists: section 6 names it
    and says to bind, never "UNRUN … not run" (UNRUN marks what no logged run produced)."""
    inputs = write_sandbox_inputs(tmp_path / "in")
    log = tmp_path / ".chapter-audit" / "log.jsonl"
    ran = run_cli(*sandbox_args(inputs, tmp_path / "out", log), cwd=tmp_path)
    assert ran.returncode == 0
    run_id = ran.stdout.split()[1]
    assert run_id.startswith("sandbox-run-")
    (tmp_path / "ch.md").write_text(CHAPTER, encoding="utf-8")
    report = run_cli("report", "ch.md", "--offline", "--log", log, "--output", "report.md", "--date", "2026-12-01",
                     cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    row = next(line for line in text.split("## 6.", 1)[1].splitlines() if "reproduce C-001-01" in line)
    assert "not run" not in row and f"run {run_id}" in row and "chapter-audit bind" in row, row
