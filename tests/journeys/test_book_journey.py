"""A maintainer's night, as commands: run the sandbox, audit the book on two workers, change a
chapter, audit again serially, and find exactly that chapter marked changed (docs/book.md).

Every step is the installed command line in a child process (``python -m cli``), so exit codes,
one-line errors and the files on disk are what a user sees.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BOOK = REPO / "tests" / "data" / "book"
L03 = REPO / "engine" / "fixtures" / "l03"


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def test_book_journey(tmp_path):
    pytest.importorskip("distributed", reason="the [distributed] extra is not installed")
    shutil.copytree(BOOK, tmp_path / "book")
    ran = cli("sandbox", "run", "--corpus", str(L03 / "corpus.jsonl"), "--topics", str(L03 / "topics.jsonl"),
              "--qrels", str(L03 / "qrels.txt"), "--dense-run", str(L03 / "supplied_run.tsv"),
              "--dense-metadata", str(L03 / "supplied_run_metadata.json"), "--output", "sandbox",
              "--k", "3", "--candidate-depth", "5", "--hybrid-alpha", "0.55", "--rerank-weight", "0.25",
              cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    common = ["--offline", "--sources-cache", "cache"]
    first = cli("book", "book", "-o", "audit", "--date", "2026-12-01", "--workers", "2", *common, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "book pass 1" in first.stdout and "9 new" in first.stdout
    before = {p: p.read_bytes() for p in (tmp_path / "audit" / "chapters").rglob("*") if p.is_file()}
    glossary = tmp_path / "book" / "09-glossary.txt"
    glossary.write_text(glossary.read_text() + "MMR: maximal marginal relevance, a diversity-aware selector.\n")
    second = cli("book", "book", "-o", "audit", "--date", "2026-12-02", *common, cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert "1 changed, 8 unchanged" in second.stdout
    for path, data in before.items():
        if "09-glossary.txt" not in path.parts:
            assert path.read_bytes() == data, path
    index = (tmp_path / "audit" / "index.md").read_text()
    states = re.findall(r"\| (changed: [^|]*|unchanged \(report of pass 1\)) \|", index)
    assert len(states) == 9 and states[-1].startswith("changed: chapter text; fingerprint ")
    page = (tmp_path / "audit" / "index.html").read_text()
    for href in re.findall(r'href="([^"]+)"', page):
        assert (tmp_path / "audit" / href).is_file(), href
    log = [json.loads(line) for line in (tmp_path / ".chapter-audit" / "log.jsonl").read_text().splitlines()]
    assert [r["command"] for r in log] == ["sandbox run", "book", "book"] and all(r["status"] == "ok" for r in log)
    # an edited report in the output is never replaced silently: exit 3, one line, the edit kept
    report = tmp_path / "audit" / "chapters" / "01-why-measure.md" / "report.md"
    report.write_text(report.read_text() + "reviewed\n")
    third = cli("book", "book", "-o", "audit", *common, cwd=tmp_path)
    assert third.returncode == 3 and third.stderr.count("\n") == 1 and "changed since book pass 2" in third.stderr
    assert report.read_text().endswith("reviewed\n")
    bad = cli("book", "nowhere", "-o", "x", *common, cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.strip() == "nowhere: no such directory"
