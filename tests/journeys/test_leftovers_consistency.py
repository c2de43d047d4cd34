"""Journey of `consistency` on an HTML table with a spanning group header (leftover 4): a writer's
chapter prints figures in prose above a table whose columns sit under "BEIR" and "MS MARCO".

The table (lines 11–20): BEIR › nDCG@10 = 0.329 (BM25), 0.447 (e5); BEIR › Recall@100 = 0.658,
0.801; MS MARCO › nDCG@10 = 0.228, 0.380. Hand-decided, sentence by sentence:

1. "On BEIR, e5 reaches an nDCG@10 of 0.447." names row e5, group BEIR and its nDCG@10: 0.447 =
   0.447, PASS.
2. "On MS MARCO, e5 reaches an nDCG@10 of 0.447." names group MS MARCO: its column holds 0.380,
   FAIL (|Δ| 0.067); never passed by BEIR's equal 0.447, a column of another group.
3. "Overall, e5 reaches an nDCG@10 of 0.447." names no group, and two groups hold an nDCG@10:
   which is meant cannot be told, so no check (not a pass through BEIR).
4. "On MS MARCO, BM25 reaches a Recall@100 of 0.658." names MS MARCO, which has no Recall@100:
   BEIR's 0.658 is another group's, no check.

Before, no prose check matched a column named ``BEIR › nDCG@10``: sentence 2's wrong figure
went unseen (exit 0).
"""

from __future__ import annotations

import json
from pathlib import Path

from commands import run_cli

CHAPTER = """# Dense retrieval

On BEIR, e5 reaches an nDCG@10 of 0.447.

On MS MARCO, e5 reaches an nDCG@10 of 0.447.

Overall, e5 reaches an nDCG@10 of 0.447.

On MS MARCO, BM25 reaches a Recall@100 of 0.658.

<table>
  <thead>
    <tr><th></th><th colspan="2">BEIR</th><th>MS MARCO</th></tr>
    <tr><th>model</th><th>nDCG@10</th><th>Recall@100</th><th>nDCG@10</th></tr>
  </thead>
  <tbody>
    <tr><th>BM25</th><td>0.329</td><td>0.658</td><td>0.228</td></tr>
    <tr><th>e5</th><td>0.447</td><td>0.801</td><td>0.380</td></tr>
  </tbody>
</table>
"""


def test_a_grouped_column_is_matched_under_its_own_group_only(tmp_path: Path) -> None:
    (tmp_path / "chapter.md").write_text(CHAPTER, encoding="utf-8")
    done = run_cli("consistency", "chapter.md", cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stdout + done.stderr
    prose = [line for line in done.stdout.splitlines() if line.startswith(("PASS prose", "FAIL prose"))]
    assert prose == [
        "PASS prose: [C-001-01] '0.447' vs 0.447 at table 1 (line 11) in § Dense retrieval, row 'e5' × column "
        "'BEIR › nDCG@10', line 11 ✓ (|Δ| 0.000000 ≤ 0.001000) [line 11]",
        "FAIL prose: [C-002-01] paragraph 2, sentence 1 (line 5): '0.447' vs 0.380 at table 1 (line 11) in § Dense "
        "retrieval, row 'e5' × column 'MS MARCO › nDCG@10', line 11 ✗ (|Δ| 0.067000 > 0.001000) — the sentence "
        "names the row and column of this cell: 'On MS MARCO, e5 reaches an nDCG@10 of 0.447.' [line 11]"]
    assert "kind prose: 1 pass, 1 fail, 0 skip" in done.stdout
    as_json = json.loads(run_cli("consistency", "chapter.md", "--format", "json", cwd=tmp_path).stdout)
    assert json.dumps(as_json).count("C-003-01") == 0 and json.dumps(as_json).count("C-004-01") == 0
    assert sorted(tmp_path.iterdir()) == [tmp_path / "chapter.md"]
