"""The ``evaluate`` command: measure TREC runs against qrels directly (no sandbox).

Thin layer: parse options, call the registered ``evaluate`` experiment
(:mod:`engine.experiments` → :func:`engine.retrieval.evaluate.run_evaluate_experiment`), print
its table. Errors map to exit codes via :func:`cli.common.cli_errors`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from cli.common import FormatOption, LogOption, cli_errors, emit_json, output_format
from engine.experiments import run_experiment


@cli_errors
def evaluate(
    qrels: Path = typer.Option(..., "--qrels", help="TREC qrels: topic iteration doc grade."),
    run: list[Path] = typer.Option(..., "--run", help="TREC run (repeatable); the first is the comparison's baseline."),
    measures: str = typer.Option("nDCG@10,R@100,P@10,RR@10,AP@1000", "--measures",
                                 help="Measures in ir_measures notation, comma separated "
                                      "(nDCG@k, R@k, P@k, RR[@k], AP[@k], Rprec, Success@k, Judged@k)."),
    output: Path = typer.Option(..., "--output", "-o", help="Output directory (written whole or not at all)."),
    ties: str = typer.Option("id_ascending", "--ties",
                             help="Order of equal scores: id_ascending (the project's rule) or trec_eval "
                                  "(document id descending, as trec_eval sorts)."),
    seed: int = typer.Option(129300, "--seed", help="Seed of the bootstrap and randomisation draws."),
    draws: int = typer.Option(10000, "--draws", help="Bootstrap and randomisation draws."),
    log: Path = LogOption,
    workers: Optional[int] = typer.Option(None, "--workers",
                                          help="Read and evaluate the runs on a Dask LocalCluster of N workers "
                                               "(optional extra 'distributed'; same outputs)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler",
                                            help="Evaluate the runs on your Dask cluster (tcp://host:port; shared filesystem)."),
    fmt: str = FormatOption(),
) -> None:
    """Evaluate TREC runs; with two or more, a paired comparison against the first (logged)."""
    fmt = output_format(fmt)
    out = run_experiment("evaluate", dict(qrels=qrels, run=run, measures=measures, output=output, ties=ties,
                                          seed=seed, draws=draws), log=log, workers=workers, scheduler=scheduler)
    if fmt == "json":
        return emit_json({key: value for key, value in out.items() if key != "table"})
    typer.echo(f"run {out['run_id']} -> {out['output']}")
    typer.echo(out["table"], nl=False)


def register(app: typer.Typer) -> None:
    """Add ``evaluate`` to the root app."""
    app.command("evaluate")(evaluate)
