"""What machine a benchmark ran on (printed in each benchmark's first line)."""

from __future__ import annotations

import platform
import subprocess


def cpu_model() -> str:
    """The CPU model name as ``lscpu`` reports it (``Model name``)."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        return next(line.split(":", 1)[1].strip() for line in out.splitlines() if line.startswith("Model name"))
    except (OSError, subprocess.CalledProcessError, StopIteration):
        return platform.processor() or "unknown CPU"
