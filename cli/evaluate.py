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
    qrels: Path = typer.Option(..., "--qrels", help="TREC qrels: topic iteration doc grade (gzip read as is, '-' for stdin)."),
    run: list[Path] = typer.Option(..., "--run", help="TREC run, or NAME=PATH (repeatable; gzip read as is, '-' for "
                                                      "stdin); named by its run tag unless NAME= is given; the first "
                                                      "is the comparison's baseline."),
    measures: str = typer.Option("nDCG@10,R@100,P@10,RR@10,AP@1000", "--measures",
                                 help="Measures in ir_measures notation with ir_measures' meaning, comma "
                                      "separated (nDCG@k linear gain, nDCG(dcg='exp-log2')@k, P(rel=2)@k, R@k, "
                                      "RR[@k], AP[@k], Rprec, Success@k, Judged@k); trec_eval's names "
                                      "ndcg_cut_k, P_k, recall_k, map_cut_k, success_k, ndcg, map, recip_rank "
                                      "(also NAME.k) are translated, saying so on stderr."),
    output: Path = typer.Option(..., "--output", "-o", help="Output directory (written whole or not at all)."),
    ties: str = typer.Option("trec_eval", "--ties",
                             help="Score comparison and order of equal scores: trec_eval (default: scores as "
                                  "trec_eval 9 holds them, single-precision; ties by document id descending) or "
                                  "ours (scores as read; ties by document id ascending)."),
    seed: int = typer.Option(129300, "--seed", help="Seed of the bootstrap and randomisation draws."),
    draws: int = typer.Option(10000, "--draws", help="Bootstrap and randomisation draws."),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Also draw each compared pair's sorted per-topic "
                                                             "differences with the bootstrap interval into FILE.svg "
                                                             "(needs the 'plot' extra: matplotlib)."),
    fuse: Optional[str] = typer.Option(None, "--fuse", help="Also evaluate the runs fused into one: rrf, combsum "
                                                            "or combmnz (named after the method)."),
    rrf_k: int = typer.Option(60, "--rrf-k", help="RRF's k: 1/(k + rank) per run (--fuse rrf)."),
    log: Path = LogOption,
    workers: Optional[int] = typer.Option(None, "--workers",
                                          help="Read each run file (once) on a Dask LocalCluster of N workers "
                                               "(optional extra 'distributed'; same outputs)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler",
                                            help="Evaluate the runs on your Dask cluster (tcp://host:port; shared filesystem)."),
    fmt: str = FormatOption(),
) -> None:
    """Evaluate TREC runs; with two or more, a paired comparison against the first (logged)."""
    fmt = output_format(fmt)
    out = run_experiment("evaluate", dict(qrels=qrels, run=run, measures=measures, output=output, ties=ties,
                                          seed=seed, draws=draws, plot=plot, fuse=fuse,
                                          rrf_k=rrf_k), log=log, workers=workers, scheduler=scheduler)
    for warning in out.get("notes", []) + out.get("warnings", []):
        typer.echo(warning, err=True)
    if fmt == "json":
        return emit_json({key: value for key, value in out.items() if key != "table"})
    typer.echo(f"run {out['run_id']} -> {out['output']}")
    typer.echo(out["table"], nl=False)


def register(app: typer.Typer) -> None:
    """Add ``evaluate`` to the root app."""
    app.command("evaluate")(evaluate)
