"""Journeys: commands run as a user runs them, on the user's own files (tests/journeys/userfiles.py).

Children are run with ``commands.run_cli`` / ``start_cli`` (``python -m cli`` of this checkout);
the in-process ``cli`` fixture of tests/conftest.py is used where concurrency is not the point.
``notebook_env`` puts a ``python3`` kernel spec that runs this interpreter first on
``JUPYTER_PATH`` (docs/notebook.md, "The kernel"), for in-process runs and children alike.
"""

from __future__ import annotations

import json
import sys

import pytest


@pytest.fixture
def notebook_env(tmp_path_factory, monkeypatch) -> dict[str, str]:
    """A ``python3`` kernel spec running this interpreter, first on JUPYTER_PATH (also for children)."""
    root = tmp_path_factory.mktemp("jupyter")
    spec = root / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (chapter-audit venv)", "language": "python"}), encoding="utf-8")
    monkeypatch.setenv("JUPYTER_PATH", str(root))
    return {"JUPYTER_PATH": str(root)}
