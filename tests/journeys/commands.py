"""Running the command line as a user does, for the journeys (tests/journeys/conftest.py).

``run_cli`` / ``start_cli`` run ``python -m cli`` in a fresh interpreter of this checkout
(``PYTHONPATH`` is this repository, so the code under test is imported, also by the children).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop("CHAPTER_AUDIT_DEBUG", None)
    env.update(extra or {})
    return env


def run_cli(*args: object, cwd: Path, timeout: float = 120, env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess:
    """``python -m cli ARGS`` in ``cwd``; the completed process (text output)."""
    return subprocess.run([sys.executable, "-m", "cli", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, env=child_env(env))


def start_cli(*args: object, cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    """Start ``python -m cli ARGS`` in ``cwd`` without waiting (for races)."""
    return subprocess.Popen([sys.executable, "-m", "cli", *map(str, args)], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=child_env(env))


def finish(procs: list[subprocess.Popen], timeout: float = 120) -> list[tuple[int, str, str]]:
    """Wait for every process; (exit code, stdout, stderr) each, in order; no traceback anywhere."""
    done = []
    for proc in procs:
        out, err = proc.communicate(timeout=timeout)
        assert "Traceback" not in err, err
        done.append((proc.returncode, out, err))
    return done


def log_records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
