"""Where the bundled fixtures live (package data, present in a non-editable install too)."""

from __future__ import annotations

from pathlib import Path


def fixtures_dir() -> Path:
    """``engine/fixtures``: ``l03/`` (the sandbox case) and ``r03_mini/`` (the R03 mini benchmark)."""
    return Path(__file__).resolve().parents[1] / "fixtures"
