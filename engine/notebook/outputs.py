"""What each cell of an executed notebook printed, as the bindable result ``outputs.json``.

One entry per notebook cell, in notebook order, so ``cells.N`` is cell ``N`` (0-based, every
cell counted, markdown and raw cells included with empty fields):

* ``index``: the cell's 0-based position; ``cell_type``;
* ``source_sha256``: sha256 of the cell's source text (UTF-8), so a binding can tell that a
  cell was edited since the run;
* ``stdout`` / ``stderr``: the concatenated stream outputs of that name;
* ``results``: the ``text/plain`` of each ``execute_result`` and ``display_data`` output;
* ``text``: ``stdout`` followed by each result on its own line (what a reader sees);
* ``errors``: ``{"ename", "evalue"}`` of each error output (tracebacks are left in the
  executed notebook; they hold terminal colour codes and paths).
"""

from __future__ import annotations

import hashlib
from typing import Any


def _joined(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


def cell_outputs(index: int, cell: Any) -> dict[str, Any]:
    """The ``outputs.json`` entry of one cell (module docstring)."""
    source = _joined(cell.get("source", ""))
    stdout, stderr, results, errors = [], [], [], []
    for output in cell.get("outputs", []) or []:
        kind = output.get("output_type")
        if kind == "stream":
            (stdout if output.get("name") == "stdout" else stderr).append(_joined(output.get("text", "")))
        elif kind in ("execute_result", "display_data"):
            plain = (output.get("data") or {}).get("text/plain")
            if plain is not None:
                results.append(_joined(plain))
        elif kind == "error":
            errors.append({"ename": str(output.get("ename", "")), "evalue": str(output.get("evalue", ""))})
    printed = "".join(stdout)
    text = printed
    for result in results:
        if text and not text.endswith("\n"):
            text += "\n"
        text += result + "\n"
    return {"index": index, "cell_type": str(cell.get("cell_type", "")),
            "source_sha256": hashlib.sha256(source.encode("utf-8")).hexdigest(),
            "stdout": printed, "stderr": "".join(stderr), "results": results, "text": text,
            "errors": errors}


def notebook_outputs(notebook: Any, *, kernel: str) -> dict[str, Any]:
    """The whole ``outputs.json`` document of an executed notebook (written for ok runs only)."""
    return {"kernel": kernel, "cells": [cell_outputs(index, cell) for index, cell in enumerate(notebook.cells)]}
