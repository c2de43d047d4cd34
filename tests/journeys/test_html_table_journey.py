"""A writer whose chapter holds a pandas ``to_html`` table (two header rows, a group header over
two columns, an index column) runs ``claims`` and ``consistency`` on it."""

from __future__ import annotations

import json
from pathlib import Path

from commands import run_cli

CHAPTER = """# Dense retrieval

On BEIR, e5 reaches an nDCG@10 of 0.474 on average.

<table border="1" class="dataframe">
  <thead>
    <tr><th></th><th colspan="2">BEIR</th></tr>
    <tr><th>model</th><th>nDCG@10</th><th>Recall@100</th></tr>
  </thead>
  <tbody>
    <tr><th>BM25</th><td>0.329</td><td>0.658</td></tr>
    <tr><th>e5</th><td>0.447</td><td>0.801</td></tr>
  </tbody>
</table>

The sparse baseline stays competitive on recall.
"""


def test_claims_and_consistency_read_an_html_table(tmp_path: Path) -> None:
    """Four numeric cells (lines 11–12) are table-value rows named ``BEIR › nDCG@10`` and
    ``BEIR › Recall@100``; ``consistency`` reads the one table (line 5) and checks both columns'
    ranges (two cells each in [0, 1]). The sentence names e5, BEIR and nDCG@10, so it is
    compared with the column ``BEIR › nDCG@10`` (its last label under its group): its 0.474
    against e5's 0.447 fails (|Δ| 0.027), exit 1. (Before, the prose check did not match a
    grouped column and the page passed.)"""
    (tmp_path / "chapter.md").write_text(CHAPTER, encoding="utf-8")
    done = run_cli("claims", "chapter.md", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    rows = rows["claims"] if isinstance(rows, dict) else rows
    values = sorted(r["text"] for r in rows if r["kind"] == "table value")
    assert values == ["T-1 · BM25 · BEIR › Recall@100 = 0.658", "T-1 · BM25 · BEIR › nDCG@10 = 0.329",
                      "T-1 · e5 · BEIR › Recall@100 = 0.801", "T-1 · e5 · BEIR › nDCG@10 = 0.447"]
    assert sorted(r["text"] for r in rows if r["kind"] != "table value") == [
        "On BEIR, e5 reaches an nDCG@10 of 0.474 on average.",
        "The sparse baseline stays competitive on recall."]
    done = run_cli("consistency", "chapter.md", cwd=tmp_path)
    assert "tables read: 1" in done.stdout, done.stdout + done.stderr
    assert ("PASS range: table 1 (line 5) column 'BEIR › nDCG@10': 2 cell(s), each a ndcg@10 in [0, 1]"
            in done.stdout) and done.returncode == 1
    assert ("FAIL prose: [C-001-01] paragraph 1, sentence 1 (line 3): '0.474' vs 0.447 at table 1 (line 5) in "
            "§ Dense retrieval, row 'e5' × column 'BEIR › nDCG@10', line 5 ✗ (|Δ| 0.027000 > 0.001000)") in done.stdout
    assert sorted(tmp_path.iterdir()) == [tmp_path / "chapter.md"]
