"""Campaign journeys: a new user's hand-written claims file and book.toml with mistakes in them.

* a value left out (``key =`` on line 8): the TOML error names its line, ``FILE:8: …``
  (Python 3.11's tomllib states the line only inside its message), as book.toml's does;
* ``claimed = "1e999"``: a printed value too large for a float is bad input naming the field.
"""

from __future__ import annotations

import json
from pathlib import Path

from commands import run_cli
from userfiles import sandbox_args, write_sandbox_inputs

HEAD = '[experiment.x]\ncommand = "sandbox run"\nresult = "metrics"\n\n[[binding]]\nid = "a"\nexperiment = "x"\n'


def test_claims_file_mistakes_are_bad_input_with_their_line(tmp_path: Path) -> None:
    inputs = write_sandbox_inputs(tmp_path / "in")
    log = tmp_path / ".chapter-audit" / "log.jsonl"
    assert run_cli(*sandbox_args(inputs, tmp_path / "out", log), cwd=tmp_path).returncode == 0
    (tmp_path / "gap.toml").write_text(HEAD + 'key =\nclaimed = "0.5"\n', encoding="utf-8")
    gap = run_cli("verify", "gap.toml", "--log", log, cwd=tmp_path)
    assert gap.returncode == 2 and gap.stdout == ""
    assert gap.stderr.strip().startswith("gap.toml:8: invalid TOML"), gap.stderr
    (tmp_path / "big.toml").write_text(HEAD + 'key = "macro.bm25.ndcg@3"\nclaimed = "1e999"\n', encoding="utf-8")
    refused = run_cli("verify", "big.toml", "--log", log, cwd=tmp_path)
    assert refused.returncode == 2 and refused.stdout == "", (refused.stdout, refused.stderr)
    line = refused.stderr.strip()
    assert line.startswith("big.toml: field 'binding[1].claimed'") and "\n" not in line, line


def test_book_toml_mistake_names_its_line(tmp_path: Path) -> None:
    book = tmp_path / "book"
    book.mkdir()
    (book / "ch1.md").write_text("# One\n\nA sentence.\n", encoding="utf-8")
    (book / "book.toml").write_text('title = "Mine"\n\n[[chapter]]\nfile = \n', encoding="utf-8")
    ran = run_cli("book", "book", "--output", "out", "--offline", cwd=tmp_path)
    assert ran.returncode == 2 and not (tmp_path / "out").exists()
    assert "book/book.toml:4: invalid TOML (Invalid value)" in ran.stderr, ran.stderr


def test_a_key_that_holds_an_object_cannot_be_checked(tmp_path: Path) -> None:
    """``key = "macro.bm25"`` stops one level short (it holds ``{"ndcg@3": …, "recall@3": …}``):
    no number was compared, so the verdict is MISSING KEY naming what the key holds, never a
    MISMATCH (which the report would call a contradiction with a proposed text)."""
    inputs = write_sandbox_inputs(tmp_path / "in")
    log = tmp_path / ".chapter-audit" / "log.jsonl"
    assert run_cli(*sandbox_args(inputs, tmp_path / "out", log), cwd=tmp_path).returncode == 0
    for key, holds in (("macro.bm25", "an object"), ("macro", "an object")):
        (tmp_path / "short.toml").write_text(HEAD + f'key = "{key}"\nclaimed = "0.5"\n', encoding="utf-8")
        checked = run_cli("verify", "short.toml", "--log", log, "--format", "json", cwd=tmp_path)
        assert checked.returncode == 1, checked.stderr
        verdict = json.loads(checked.stdout)[0]
        assert verdict["verdict"] == "MISSING KEY" and verdict["note"].startswith(f"key {key!r} holds {holds}"), verdict
