"""Commands of the notebook area: ``notebook run`` (one logged run of a Jupyter notebook)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from cli.common import FormatOption, LogOption, cli_errors, emit_json, fail, log_path, output_format
from engine.runs.errors import EXIT_FAILED

notebook_app = typer.Typer(help="Recorded runs of Jupyter notebooks.", no_args_is_help=True)


@notebook_app.command("run")
@cli_errors
def run(
    notebook: Path = typer.Argument(..., metavar="NOTEBOOK.ipynb", help="The notebook to execute."),
    output: Path = typer.Option(..., "--output", "-o", help="Output directory (executed.ipynb, outputs.json; all-or-nothing)."),
    timeout: int = typer.Option(600, "--timeout", help="Seconds per cell; a cell that exceeds it fails the run."),
    kernel: str = typer.Option("python3", "--kernel", help="Jupyter kernel name (python3 = this interpreter)."),
    inputs: Optional[List[Path]] = typer.Option(None, "--input", help="A file the notebook reads (hashed into the run); repeatable."),
    log: Path = LogOption,
    fmt: str = FormatOption(),
) -> None:
    """Execute a notebook in a fresh kernel; the run is logged ok or failed (with the failing cell)."""
    fmt = output_format(fmt)
    from engine.experiments import run_experiment
    from engine.notebook.run import NotebookCellFailed

    try:
        outputs = run_experiment("notebook run", dict(notebook=notebook, output=output, timeout=timeout,
                                                      kernel=kernel, inputs=list(inputs or [])),
                                 log=log_path(log))
    except NotebookCellFailed as exc:
        fail(f"{notebook}: {exc} (notebook failed; the run is logged failed)", EXIT_FAILED)  # FILE: message
        return
    if fmt == "json":
        return emit_json({"output": str(output), "outputs": outputs})
    code = sum(1 for cell in outputs["cells"] if cell["cell_type"] == "code")
    typer.echo(f"{code} code cells ran; wrote {output}")


def register(app: typer.Typer) -> None:
    """Add this area's commands to the root app."""
    app.add_typer(notebook_app, name="notebook")
