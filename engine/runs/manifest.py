"""Run manifests and run ids.

A run id is derived, never random: ``<command>-<12 hex>`` where the hex is the sha256 of the
canonical JSON of the command name, the content hashes of its inputs *by role* (not by path,
so moving a file does not change the id) and every parameter. The same inputs and parameters
always give the same id; any change gives another.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.runs.hashing import sha256_file, sha256_json
from engine.runs.runlog import utc_now
from engine.runs.versions import package_versions

RUN_ID_HEX = 12


def input_hashes(inputs: dict[str, str | Path | None]) -> dict[str, dict[str, str]]:
    """``{role: {"path": ..., "sha256": ...}}`` for every supplied input file."""
    return {role: {"path": str(path), "sha256": sha256_file(path)}
            for role, path in sorted(inputs.items()) if path is not None}


def derive_run_id(command: str, inputs: dict[str, dict[str, str]], parameters: dict[str, Any]) -> str:
    """Deterministic run id from command, input content hashes (by role) and parameters."""
    key = {"command": command,
           "inputs": {role: entry["sha256"] for role, entry in inputs.items()},
           "parameters": parameters}
    slug = command.replace(" ", "-")
    return f"{slug}-{sha256_json(key)[:RUN_ID_HEX]}"


def build_manifest(command: str, inputs: dict[str, dict[str, str]], parameters: dict[str, Any],
                   **extra: Any) -> dict[str, Any]:
    """The manifest dict: run id, command, inputs, parameters, versions, UTC creation time, extras."""
    manifest = {
        "run_id": derive_run_id(command, inputs, parameters),
        "command": command,
        "inputs": inputs,
        "parameters": parameters,
        "versions": package_versions(),
        "created_at": utc_now(),
    }
    manifest.update(extra)
    return manifest


def manifest_differences(previous: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """Human-readable differences in input hashes and parameters between two manifests."""
    problems: list[str] = []
    old_in, new_in = previous.get("inputs", {}), current.get("inputs", {})
    for role in sorted(set(old_in) | set(new_in)):
        old = old_in.get(role, {}).get("sha256")
        new = new_in.get(role, {}).get("sha256")
        if old != new:
            problems.append(f"input {role}: sha256 {old} -> {new}")
    old_p, new_p = previous.get("parameters", {}), current.get("parameters", {})
    for name in sorted(set(old_p) | set(new_p)):
        if old_p.get(name) != new_p.get(name):
            problems.append(f"parameter {name}: {old_p.get(name)!r} -> {new_p.get(name)!r}")
    return problems


def resolve(path: str | Path) -> str:
    return str(Path(path))
