"""Commands of the verify area (registered on the root app by audit.cli)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this area's commands to the root app."""
