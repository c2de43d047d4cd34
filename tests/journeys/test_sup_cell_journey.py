"""A writer whose results README marks cells with footnote superscripts (``0.97<sup>8</sup>``,
the shape of benchmark READMEs that cite a table's sources) runs ``claims`` and
``consistency``: each cell keeps its number (0.97, never 0.978), in an HTML table and in a pipe
table, and the prose check compares the sentence with the number, not number and marker."""

from __future__ import annotations

import json
from pathlib import Path

from commands import run_cli

CHAPTER = """# Reranking

The cross-encoder reaches an MRR@10 of 0.97 on the dev set.

<table>
  <tr><th>Model</th><th>MRR@10</th></tr>
  <tr><td>cross-encoder</td><td>0.97<sup>8</sup></td></tr>
  <tr><td>bi-encoder</td><td>0.91<sup>†</sup></td></tr>
</table>

| Model | Latency ms |
|---|---|
| cross-encoder | 41.2<sup>8</sup> |
| bi-encoder | 3.5 |

<sup>8</sup> Reported by the authors. † Our run.
"""


def test_claims_and_consistency_read_sup_marked_cells(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text(CHAPTER, encoding="utf-8")
    done = run_cli("claims", "README.md", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    rows = rows["claims"] if isinstance(rows, dict) else rows
    values = [(r["text"], [q["value"] for q in r["quantities"]]) for r in rows if r["kind"] == "table value"]
    assert values == [("T-1 · cross-encoder · MRR@10 = 0.97 ⁸", [0.97]), ("T-1 · bi-encoder · MRR@10 = 0.91†", [0.91]),
                      ("T-2 · cross-encoder · Latency ms = 41.2 ⁸", [41.2]), ("T-2 · bi-encoder · Latency ms = 3.5", [3.5])]
    done = run_cli("consistency", "README.md", cwd=tmp_path)
    assert "tables read: 2" in done.stdout, done.stdout + done.stderr
    assert ("PASS prose: [C-001-01] '0.97' vs 0.97 at table 1 (line 5) in § Reranking, row 'cross-encoder' × "
            "column 'MRR@10'") in done.stdout, done.stdout
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert sorted(tmp_path.iterdir()) == [tmp_path / "README.md"]
