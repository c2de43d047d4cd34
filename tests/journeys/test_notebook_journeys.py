"""Journeys with a user's own notebook: notebook run → bind → verify, its own output files, races.

The notebook computes Recall@3 of a hand-made ranking with this package's metrics: ranking
d1 d2 d3, relevant d1 and d3 and d9 (grade 1 each) → 2 of 3 found: Recall@3 = 0.666667.
"""

from __future__ import annotations

import json

from commands import finish, log_records, start_cli
from userfiles import write_notebook

RECALL_CELL = ("from engine.retrieval.metrics import recall_at_k\n"
               "print(f\"Recall@3: {recall_at_k(['d1', 'd2', 'd3'], {'d1': 1, 'd3': 1, 'd9': 1}, 3):.6f}\")")
TABLE_CELL = ("import pathlib\npathlib.Path('results').mkdir(exist_ok=True)\n"
              "pathlib.Path('results/table.csv').write_text('k,recall\\n3,0.666667\\n')")

PACK = """A user's notebook chapter.

== 2. Chapter text ==

Our notebook finds two of the three relevant documents, a Recall@3 of 0.666667 on the toy ranking.
"""


def test_notebook_run_then_bind_then_verify(tmp_path, notebook_env, cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_notebook(tmp_path / "analysis.ipynb", RECALL_CELL, TABLE_CELL)
    ran = cli("notebook", "run", "analysis.ipynb", "--output", "results", "--log", "log.jsonl")
    assert ran.exit_code == 0, ran.output
    # the notebook's own table, written into the same folder during the run, is kept beside the run's files
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == [
        "executed.ipynb", "outputs.json", "run_manifest.json", "table.csv"]
    assert (tmp_path / "results" / "table.csv").read_text() == "k,recall\n3,0.666667\n"
    outputs = json.loads((tmp_path / "results" / "outputs.json").read_text())
    assert outputs["cells"][0]["text"] == "Recall@3: 0.666667\n"

    (tmp_path / "chapter.txt").write_text(PACK, encoding="utf-8")
    bound = cli("bind", "chapter.txt", "--log", "log.jsonl", "--output", "claims.toml")
    assert bound.exit_code == 0, bound.output
    draft = (tmp_path / "claims.toml").read_text()
    assert 'command = "notebook run"' in draft and 'claimed = "0.666667"' in draft and "pattern = " in draft
    verified = cli("verify", "claims.toml", "--log", "log.jsonl", "--format", "json")
    assert verified.exit_code == 0, verified.output
    (verdict,) = json.loads(verified.output)
    assert verdict["verdict"] == "MATCH" and verdict["reproduced"] == 0.666667
    assert verdict["run_id"] == log_records(tmp_path / "log.jsonl")[0]["run_id"]


def test_two_notebook_runs_at_once_into_one_output(tmp_path, notebook_env):
    write_notebook(tmp_path / "analysis.ipynb", RECALL_CELL)
    results = finish([start_cli("notebook", "run", "analysis.ipynb", "--output", "out", "--log", "log.jsonl",
                                "--timeout", str(timeout), cwd=tmp_path, env=notebook_env) for timeout in (60, 61)])
    codes = [code for code, _, _ in results]
    assert sorted(codes) == [0, 3], results
    assert "is writing this output right now" in results[codes.index(3)][2] or \
        "holds run_manifest.json of run" in results[codes.index(3)][2]
    manifest = json.loads((tmp_path / "out" / "run_manifest.json").read_text())
    (ok,) = [r for r in log_records(tmp_path / "log.jsonl") if r["status"] == "ok"]
    assert manifest["run_id"] == ok["run_id"] and manifest["parameters"]["timeout"] == [60, 61][codes.index(0)]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out")]  # no staging dir or lock left
