"""Commands of the r03 area (registered on the root app by cli): ``r03 prepare`` and
``r03 evaluate``. They parse arguments and call the registered
experiments (:mod:`engine.experiments`); see docs/r03.md."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from cli.common import FormatOption, LogOption, cli_errors, emit_json, fail, output_format
from engine.runs.errors import EXIT_FAILED  # the run started and failed (e.g. the judgment barrier fired)

group = typer.Typer(help="R03 obligation-aware reranker: label-free freeze, then evaluation.",
                    no_args_is_help=True)


@group.command("prepare")
@cli_errors
def prepare_command(
    benchmark: Path = typer.Option(..., "--benchmark", help="R02-style benchmark directory."),
    freeze: Path = typer.Option(..., "--freeze", "-o", help="New freeze directory (never overwritten): its output."),
    log: Path = LogOption,
    barrier_pattern: Optional[list[str]] = typer.Option(
        None, "--barrier-pattern",
        help="Basename glob barred from opening during prepare (repeatable; default judgments*, qrels*)."),
    fmt: str = FormatOption(),
) -> None:
    """Stage 1: compute score inputs and selections without labels, and freeze them."""
    fmt = output_format(fmt)
    from engine.experiments import run_experiment
    from engine.r03.freeze import JudgmentBarrierError

    try:
        out = run_experiment("r03 prepare", dict(benchmark=benchmark, freeze=freeze,
                                                 barrier_pattern=barrier_pattern), log=log)
    except JudgmentBarrierError as exc:
        fail(f"prepare failed: {exc}", EXIT_FAILED)
        return
    if fmt == "json":
        return emit_json(out)
    typer.echo(f"{out['run_id']}: froze {len(out['selections'])} task selection(s) in {out['freeze']}")


@group.command("evaluate")
@cli_errors
def evaluate_command(
    benchmark: Path = typer.Option(..., "--benchmark", help="The same benchmark directory."),
    freeze: Path = typer.Option(..., "--freeze", help="Freeze directory written by 'r03 prepare'."),
    output: Path = typer.Option(..., "--output", "-o", help="Results directory (first results are never replaced)."),
    log: Path = LogOption,
    seed: int = typer.Option(129300, "--seed", help="Bootstrap seed (numpy default_rng)."),
    draws: int = typer.Option(10000, "--draws", help="Paired bootstrap draws."),
    fmt: str = FormatOption(),
) -> None:
    """Stage 2: verify the freeze, then open judgments and report metrics, oracle and bootstrap."""
    fmt = output_format(fmt)
    from engine.experiments import run_experiment

    out = run_experiment("r03 evaluate", dict(benchmark=benchmark, freeze=freeze, output=output,
                                              seed=seed, draws=draws), log=log)
    if fmt == "json":
        return emit_json(out)
    if out["status"] == "unchanged":
        typer.echo(f"{out['run_id']}: {out['message']}")
    elif out["status"] == "correction":
        typer.echo(f"{out['run_id']}: first results kept; correction written to {out['output']}")
    else:
        typer.echo(f"{out['run_id']}: results in {out['results']}")


def register(app: typer.Typer) -> None:
    """Add this area's commands to the root app."""
    app.add_typer(group, name="r03")
