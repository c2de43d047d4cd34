"""Helpers shared by test modules (import as ``from support import ...``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def seed(name: str) -> Path:
    """A shared seed file: $CHAPTER_AUDIT_SEEDS_DIR or <repo>/../shared/seeds; skip if absent (fail in CI)."""
    base = Path(os.environ.get("CHAPTER_AUDIT_SEEDS_DIR") or REPO.parent / "shared" / "seeds")
    path = base / name
    if not path.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"seed {path} is missing (CI is set, so this is an error)")
        pytest.skip(f"seed {path} not present (set CHAPTER_AUDIT_SEEDS_DIR)")
    return path


def point_sources_at(server, monkeypatch) -> None:
    """Direct every source look-up of this test at the loopback server (and trust its certificate)."""
    monkeypatch.setenv("CHAPTER_AUDIT_CROSSREF_API", f"{server.url}/crossref")
    monkeypatch.setenv("CHAPTER_AUDIT_ARXIV_API", f"{server.url}/arxiv/api")
    monkeypatch.setenv("CHAPTER_AUDIT_GITHUB_API", f"{server.url}/github")
    monkeypatch.setenv("CHAPTER_AUDIT_ALLOW_LOOPBACK_HTTP", "1" if not server.tls else "0")
    if server.cert:
        monkeypatch.setenv("CHAPTER_AUDIT_CA_FILE", str(server.cert))
