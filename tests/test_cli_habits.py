"""One CLI habit everywhere (issue 21, item 4): ``--version``, ``-h``, ``-o/--output``,
``--format text|json``, errors in ``FILE:LINE: message`` form, progress that is quiet off a
terminal, and output permissions that follow the umask.

Commands run in child processes (``python -m cli``) where the exit code, the umask or the
exact stderr bytes matter; the rest through typer's runner.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
QRELS = "t1 0 d1 2\nt1 0 d2 0\nt1 0 d3 1\nt2 0 d2 1\n"
RUN = "t1 Q0 d1 1 3.0 a\nt1 Q0 d3 2 2.0 a\nt1 Q0 d2 3 1.0 a\nt2 Q0 d1 1 2.0 a\nt2 Q0 d2 2 1.0 a\n"
ERROR_LINE = re.compile(r"^[^:]+(:\d+)?: .+")


def chapter_audit(*args: str | Path, cwd: Path, umask: int | None = None,
                  stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("CHAPTER_AUDIT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "cli", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, input=stdin,
                          preexec_fn=(lambda: os.umask(umask)) if umask is not None else None)


@pytest.fixture
def trec(tmp_path):
    (tmp_path / "qrels.txt").write_text(QRELS, encoding="utf-8")
    (tmp_path / "run.txt").write_text(RUN, encoding="utf-8")
    return tmp_path


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --- permissions ---------------------------------------------------------------------------

@pytest.mark.parametrize("umask, directory, file", [(0o022, 0o755, 0o644), (0o077, 0o700, 0o600)])
def test_published_outputs_follow_the_umask(trec, umask, directory, file):
    done = chapter_audit("evaluate", "--qrels", "qrels.txt", "--run", "run.txt", "-o", "out",
                         "--log", "log.jsonl", cwd=trec, umask=umask)
    assert done.returncode == 0, done.stderr
    out = trec / "out"
    assert mode(out) == directory
    written = sorted(p for p in out.rglob("*") if p.is_file())
    assert written and {mode(p) for p in written} == {file}
    assert mode(trec / "log.jsonl") == file
    pack = trec / "pack.txt"
    pack.write_text("# Title\n\nThe method reached 0.52 on the test set.\n", encoding="utf-8")
    done = chapter_audit("claims", pack, "-o", "claims.md", cwd=trec, umask=umask)
    assert done.returncode == 0, done.stderr
    assert mode(trec / "claims.md") == file   # one atomically written file
