"""Package versions recorded in every manifest and log record."""

from __future__ import annotations

import platform
from importlib import metadata

RECORDED_PACKAGES = ("chapter-audit", "numpy", "onnxruntime", "tokenizers", "onnx",
                     "httpx", "pandas", "typer", "markdown-it-py")


def package_versions(extra: tuple[str, ...] = ()) -> dict[str, str]:
    """Installed versions of the recorded packages (``"not installed"`` where absent)."""
    versions = {"python": platform.python_version()}
    for name in RECORDED_PACKAGES + extra:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions
