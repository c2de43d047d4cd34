"""``notebook run``: execute a Jupyter notebook in a fresh kernel as one logged run.

Pipeline (docs/DEVELOPING.md, "A pipeline, in order"; docs/notebook.md):

1. read the notebook with nbformat (InputError naming the file for anything that is not a
   valid notebook) and check every ``--input`` file and the kernel name, before anything runs;
2. manifest → run id from the notebook's sha256 (role ``notebook``), each ``--input`` file's
   sha256 (roles ``input 1``, ``input 2``, … in the order given) and the parameters (timeout,
   kernel); another run's output directory is refused;
3. inside :func:`engine.runs.runlog.recorded_run`: start a fresh kernel (nbclient), execute the
   code cells in order with the notebook's own directory as working directory, stop at the
   first cell that raises; ``timeout`` is seconds per cell (nbclient's convention), and a cell
   that exceeds it fails the run like an error. A failed run is logged ``failed`` with
   ``cell N: ExceptionName: message`` (N 0-based, every cell counted) and writes nothing;
4. an ok run publishes ``executed.ipynb`` (nbformat's serialisation, no timing metadata, so the
   same kernel output gives the same bytes), ``outputs.json`` (:mod:`engine.notebook.outputs`)
   and ``run_manifest.json``. Result names: ``outputs``, ``executed``, ``manifest``. Files the
   notebook itself wrote into ``--output`` during the run are kept beside them
   (:func:`publish_beside_notebook_files`); they are hashed into the log record's outputs.

The kernel ``python3`` is the interpreter running this command (ipykernel's own kernel spec
uses ``sys.executable``), so a notebook runs with this package importable.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any, Sequence

from engine.notebook.outputs import notebook_outputs
from engine.runs.errors import InputError, RefusalError
from engine.runs.hashing import dump_json
from engine.runs.manifest import build_manifest, input_hashes
from engine.runs.outdir import (check_target, publish, release_output_lock, staged_directory,
                                write_files_atomically)
from engine.runs.runlog import DEFAULT_LOG, recorded_run

COMMAND = "notebook run"
MANIFEST_NAME = "run_manifest.json"
OUTPUTS_FILE = "outputs.json"
EXECUTED_FILE = "executed.ipynb"
NATIVE_KERNEL = "python3"


class NotebookCellFailed(Exception):
    """A cell raised, timed out or killed its kernel; the message names the cell."""

    def __init__(self, index: int, name: str, message: str) -> None:
        super().__init__(f"cell {index}: {name}: {' '.join(message.split())}")
        self.index, self.name, self.message = index, name, message


def read_notebook(path: Path) -> Any:
    """The notebook as an nbformat v4 node; InputError naming the file otherwise."""
    import nbformat

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read notebook ({exc.strerror})", path=path) from None
    except UnicodeDecodeError:
        from engine.runs.opener import not_utf8_error

        raise not_utf8_error(path) from None
    try:
        notebook = nbformat.reads(text, as_version=4)
        nbformat.validate(notebook)
    except Exception as exc:  # nbformat raises JSON, reader and validation errors of several kinds
        line = getattr(exc, "lineno", None)
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"not a valid Jupyter notebook ({first})", path=path, line=line) from None
    return notebook


def check_kernel(kernel: str) -> None:
    """InputError naming ``--kernel`` when no kernel spec of that name is installed."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    manager = KernelSpecManager()
    try:
        manager.get_kernel_spec(kernel)
    except NoSuchKernel:
        known = ", ".join(sorted(manager.find_kernel_specs())) or "none"
        raise InputError(f"no Jupyter kernel named {kernel!r} (installed: {known})", field="--kernel") from None


def run_notebook_experiment(notebook: str | Path, output: str | Path, *, timeout: int = 600,
                            kernel: str = NATIVE_KERNEL, inputs: Sequence[str | Path] | None = None,
                            log: str | Path | None = DEFAULT_LOG) -> dict[str, Any]:
    """Execute ``notebook`` once, log the run and publish its outputs; returns outputs.json's content."""
    import nbformat

    from engine.runs.opener import display_name, is_stdin, resolve_input

    if any(is_stdin(p) for p in inputs or []):
        raise InputError("the notebook opens its --input files by path; stdin ('-') cannot be one (the "
                         "notebook itself can be: notebook run -)", field="--input")
    from_stdin = is_stdin(notebook)
    notebook, output = resolve_input(notebook), Path(output)   # '-': copied once, hashed by content, named '-'
    nb = read_notebook(notebook)
    if timeout < 1:
        raise InputError("must be at least 1 second", field="--timeout")
    extra = [Path(p) for p in inputs or []]
    for path in extra:
        if not path.is_file():
            raise InputError("no such input file", path=path)
    check_kernel(kernel)
    roles: dict[str, str | Path | None] = {"notebook": notebook}
    roles.update({f"input {i}": path for i, path in enumerate(extra, start=1)})
    parameters = {"timeout": timeout, "kernel": kernel, "cell_index_base": 0}
    hashes = input_hashes(roles)
    hashes["notebook"]["path"] = display_name(notebook)
    manifest = build_manifest(COMMAND, hashes, parameters)
    check_target(output, MANIFEST_NAME, manifest["run_id"])
    before = file_states(output)  # empty, or an earlier copy of this same run (check_target)
    with recorded_run(log, COMMAND, parameters) as rec:
        rec.run_id = manifest["run_id"]
        rec.inputs[display_name(notebook)] = hashes["notebook"]["sha256"]
        rec.add_inputs(*extra)
        # a notebook read from stdin runs in the current directory (a file's, in its own folder)
        execute(nb, kernel=kernel, timeout=timeout, workdir=Path.cwd() if from_stdin else notebook.resolve().parent)
        outputs = notebook_outputs(nb, kernel=kernel)
        with staged_directory(output) as staging:
            (staging / EXECUTED_FILE).write_text(nbformat.writes(nb), encoding="utf-8")
            (staging / OUTPUTS_FILE).write_text(dump_json(outputs), encoding="utf-8")
            (staging / MANIFEST_NAME).write_text(dump_json(manifest), encoding="utf-8")
            publish_beside_notebook_files(staging, output, before)
        rec.add_outputs(output)
        root = output.resolve()
        rec.results = {"outputs": str(root / OUTPUTS_FILE), "executed": str(root / EXECUTED_FILE),
                       "manifest": str(root / MANIFEST_NAME)}
    return outputs


def file_states(directory: Path) -> dict[str, tuple[int, int, int]]:
    """``{relative path: (inode, size, mtime_ns)}`` of every file under ``directory`` (none if absent)."""
    states: dict[str, tuple[int, int, int]] = {}
    if not directory.is_dir():
        return states
    for root, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(root, name)
            info = os.lstat(path)
            states[os.path.relpath(path, directory)] = (info.st_ino, info.st_size, info.st_mtime_ns)
    return states


def publish_beside_notebook_files(staging: Path, output: Path, before: dict[str, tuple[int, int, int]]) -> None:
    """Publish the run's files, keeping every file the notebook itself wrote into ``output``.

    When ``output`` does not exist at the end of the run it is published whole
    (:func:`engine.runs.outdir.publish`). When the notebook created or wrote into it during the
    run, the run's three files are written into it beside the notebook's own (each whole, the
    manifest last) and nothing else there is touched; if the notebook wrote a file of one of
    those three names, the run is refused and the notebook's file is kept.
    """
    if not output.exists() and not output.is_symlink():
        publish(staging, output)
        return
    try:
        if not output.is_dir():
            raise RefusalError(f"{output}: the notebook created a file where --output should be a "
                               "directory; refusing to replace it")
        now = file_states(output)
        written = sorted(name for name, state in now.items() if before.get(name) != state)
        ours = [EXECUTED_FILE, OUTPUTS_FILE, MANIFEST_NAME]  # the manifest last: it marks a whole output
        clash = [name for name in ours if name in written]
        if clash:
            raise RefusalError(f"{output}: the notebook wrote {', '.join(clash)} into its own --output; "
                               "refusing to replace the notebook's file (choose another --output)")
        write_files_atomically({output / name: (staging / name).read_bytes() for name in ours})
    finally:
        release_output_lock(output)


def execute(nb: Any, *, kernel: str, timeout: int, workdir: Path) -> None:
    """Run every code cell of ``nb`` in order in a fresh kernel; NotebookCellFailed on the first failure.

    nbclient owns the kernel it starts and shuts it down when the block ends, failed or not.
    The kernel process's own log lines on stderr are discarded (they are not the notebook's
    output); cells' stderr still arrives as stream outputs.
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    client = NotebookClient(nb, timeout=timeout, kernel_name=kernel, allow_errors=False,
                            record_timing=False, resources={"metadata": {"path": str(workdir)}})
    index = -1
    try:
        # the kernel process's own log lines (transport warnings, shutdown notes) are not the
        # notebook's output; what cells write to stderr still arrives as stream outputs
        with client.setup_kernel(stderr=subprocess.DEVNULL):
            for index, cell in enumerate(nb.cells):
                if cell.get("cell_type") == "code":
                    client.execute_cell(cell, index)
    except CellExecutionError as exc:
        raise NotebookCellFailed(index, exc.ename or "CellExecutionError", exc.evalue or "") from None
    except CellTimeoutError:
        raise NotebookCellFailed(index, "CellTimeoutError", f"cell did not finish within {timeout} s") from None
    except DeadKernelError as exc:
        raise NotebookCellFailed(index, "DeadKernelError", str(exc)) from None

