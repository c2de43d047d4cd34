"""A writer whose Quarto chapter holds a Pandoc grid table (``+---+`` borders, a ``+===+``
header rule, a wrapped cell) runs ``claims`` and ``consistency`` on it, and a grid table whose
row does not line up is left as written, not a guessed table."""

from __future__ import annotations

import json
from pathlib import Path

from commands import run_cli

CHAPTER = """---
title: Sparse retrieval
---

## Results

BM25 reaches an nDCG@10 of 0.470 on BEIR.

+------------+---------+------------+
| Model      | nDCG@10 | Recall@100 |
+============+=========+============+
| BM25       | 0.440   | 0.658      |
+------------+---------+------------+
| SPLADE     | 0.470   | 0.786      |
| (distil)   |         |            |
+------------+---------+------------+
SPLADE costs more to index.
"""


def _rows(done) -> list[dict]:
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    return rows["claims"] if isinstance(rows, dict) else rows


def test_claims_and_consistency_read_a_grid_table(tmp_path: Path) -> None:
    """Four numeric cells are table-value rows on their rows' first lines (12 and 14; SPLADE's
    label wraps onto line 15: 'SPLADE (distil)'); the line right under the table (17) is a
    sentence, and no border or cell line is prose. ``consistency`` reads the table (line 9):
    the sentence's 0.470 is BM25's nDCG@10 cell, 0.440 (|Δ| 0.03), so it fails, exit 1."""
    (tmp_path / "chapter.qmd").write_text(CHAPTER, encoding="utf-8")
    rows = _rows(run_cli("claims", "chapter.qmd", "--format", "json", cwd=tmp_path))
    assert [(r["text"], r["line"]) for r in rows if r["kind"] == "table value"] == [
        ("T-1 · BM25 · nDCG@10 = 0.440", 12), ("T-1 · BM25 · Recall@100 = 0.658", 12),
        ("T-1 · SPLADE (distil) · nDCG@10 = 0.470", 14), ("T-1 · SPLADE (distil) · Recall@100 = 0.786", 14)]
    assert [(r["text"], r["line"]) for r in rows if r["kind"] != "table value"] == [
        ("BM25 reaches an nDCG@10 of 0.470 on BEIR.", 7), ("SPLADE costs more to index.", 17)]
    done = run_cli("consistency", "chapter.qmd", cwd=tmp_path)
    assert "tables read: 1" in done.stdout, done.stdout + done.stderr
    assert ("FAIL prose: [C-001-01] paragraph 1, sentence 1 (line 7): '0.470' vs 0.440 at table 1 (line 9) in "
            "§ Results, row 'BM25' × column 'nDCG@10', line 12 ✗ (|Δ| 0.030000 > 0.001000)") in done.stdout
    assert done.returncode == 1
    assert sorted(tmp_path.iterdir()) == [tmp_path / "chapter.qmd"]


def test_a_ragged_grid_table_is_not_a_table(tmp_path: Path) -> None:
    """A content line shorter than the border (line 2) is no grid table: no table-value row is
    guessed from it, and the command still succeeds with no traceback."""
    (tmp_path / "ragged.md").write_text("+-------+-------+\n| a | 0.5 |\n+-------+-------+\n\nDone here.\n",
                                        encoding="utf-8")
    done = run_cli("claims", "ragged.md", "--format", "json", cwd=tmp_path)
    rows = _rows(done)
    assert [r for r in rows if r["kind"] == "table value"] == []
    assert "Traceback" not in done.stderr
