"""Campaign journeys: `notebook run` of a new user's own notebook whose second cell raises.

The error names the notebook as its file (``FILE: message``, as every other command's errors
do, README "CLI habits"), then the failing cell; nothing is written, and the run is logged failed.
"""

from __future__ import annotations

from pathlib import Path

from commands import log_records, run_cli
from userfiles import write_notebook


def test_a_failing_cell_is_reported_against_the_notebook_file(tmp_path: Path, notebook_env) -> None:
    write_notebook(tmp_path / "analysis" / "fail.ipynb", "x = 1", 'raise ValueError("boom")', "print(2)")
    log = tmp_path / ".chapter-audit" / "log.jsonl"
    ran = run_cli("notebook", "run", "analysis/fail.ipynb", "--output", "out", "--log", log, cwd=tmp_path,
                  env=notebook_env, timeout=300)
    assert ran.returncode == 1
    assert ran.stdout == ""
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in ran.stderr
    assert lines[0].startswith("analysis/fail.ipynb: cell 1: ValueError: boom"), lines[0]
    assert not (tmp_path / "out").exists()
    assert [r["status"] for r in log_records(log)] == ["failed"]
