"""Campaign journeys: a refusal to replace the user's own file names that file first.

A new user keeps notes in ``notes.md`` and points `bind --output` and `verify --junit` at it by
mistake: both refuse (exit 3), leave the file as it was, and say so in one ``FILE: message``
line (README "CLI habits"), as `report` and `claims` already do.
"""

from __future__ import annotations

from pathlib import Path

from commands import run_cli
from userfiles import sandbox_args, write_sandbox_inputs


def test_refusals_to_replace_a_user_file_start_with_that_file(tmp_path: Path) -> None:
    inputs = write_sandbox_inputs(tmp_path / "in")
    log = tmp_path / ".chapter-audit" / "log.jsonl"
    assert run_cli(*sandbox_args(inputs, tmp_path / "out", log), cwd=tmp_path).returncode == 0
    (tmp_path / "ch.md").write_text("# R\n\nThe supplied opaque run reaches macro NDCG@3 of 0.576.\n", encoding="utf-8")
    assert run_cli("bind", "ch.md", "--log", log, "-o", "claims.toml", cwd=tmp_path).returncode == 0
    notes = tmp_path / "notes.md"
    notes.write_text("my notes\n", encoding="utf-8")
    for args in (("bind", "ch.md", "--log", log, "--output", "notes.md"),
                 ("verify", "claims.toml", "--log", log, "--junit", "notes.md"),
                 ("report", "ch.md", "--offline", "--log", log, "--output", "notes.md"),
                 ("claims", "ch.md", "--output", "notes.md")):
        refused = run_cli(*args, cwd=tmp_path)
        assert refused.returncode == 3, (args, refused.stderr)
        lines = refused.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("notes.md: "), (args, lines)
        assert notes.read_text(encoding="utf-8") == "my notes\n"
