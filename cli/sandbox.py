"""Commands of the sandbox area: ``sandbox run`` and ``sandbox ledger``.

Thin layer: parse options, call the registered experiments
(:mod:`engine.experiments`), print a summary. Errors map to exit codes via
:func:`cli.common.cli_errors` (2 bad input, 3 refusal, 4 invalid run).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from cli.common import FormatOption, LogOption, cli_errors, emit_json, output_format
from engine.experiments import run_experiment
from engine.retrieval.measures import trec_eval_notes

sandbox = typer.Typer(help="L03 retrieval sandbox: BM25, supplied run, hybrid, fixed-set reranker; "
                           "acquisition ledger.", no_args_is_help=True)


@sandbox.command("run")
@cli_errors
def sandbox_run(
    corpus: Path = typer.Option(..., "--corpus", help="Corpus JSONL (doc_id, title, text, source_type, license)."),
    topics: Path = typer.Option(..., "--topics", help="Topics JSONL (topic_id, query)."),
    qrels: Path = typer.Option(..., "--qrels", help="TREC qrels: topic 0 doc grade."),
    dense_run: Path = typer.Option(..., "--dense-run", help="The supplied run (TREC run format)."),
    dense_metadata: Path = typer.Option(..., "--dense-metadata", help="The supplied run's metadata (JSON object)."),
    output: Path = typer.Option(..., "--output", "-o", help="Output directory (written whole or not at all)."),
    k: int = typer.Option(3, "--k", help="Cutoff for Recall@k and NDCG@k."),
    candidate_depth: int = typer.Option(5, "--candidate-depth", help="Hybrid top-n the reranker reorders."),
    hybrid_alpha: float = typer.Option(0.55, "--hybrid-alpha", help="Weight of normalised BM25 in the hybrid."),
    rerank_weight: float = typer.Option(0.25, "--rerank-weight", help="Weight of the query-coverage feature."),
    k1: float = typer.Option(1.2, "--k1", help="BM25 k1."),
    b: float = typer.Option(0.75, "--b", help="BM25 b."),
    frozen_manifest: Optional[Path] = typer.Option(
        None, "--frozen-manifest", help="Earlier run_manifest.json; any input or parameter difference "
                                        "stops the run as invalid."),
    run_depth: int = typer.Option(1000, "--run-depth", help="Rows written per topic and method (TREC depth); "
                                                            "fusion still uses every candidate."),
    measures: Optional[str] = typer.Option(
        None, "--measures", help="Extra measures in ir_measures notation, e.g. 'nDCG@10,P@5,RR@10,AP@1000' "
                                 "(recall@k and ndcg@k are always reported); trec_eval's names (ndcg_cut_10, P_5, "
                                 "map, …) are translated, saying so on stderr."),
    fusion: str = typer.Option("minmax", "--fusion", help="Hybrid fusion: minmax (W03: alpha-weighted min-max "
                                                          "sum), rrf, combsum or combmnz."),
    rrf_k: int = typer.Option(60, "--rrf-k", help="RRF's k: 1/(k + rank) per list (--fusion rrf)."),
    log: Path = LogOption,
    workers: Optional[int] = typer.Option(None, "--workers",
                                          help="Score BM25 on N index shards on a Dask LocalCluster of N workers "
                                               "(optional extra 'distributed'; same output bytes)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler",
                                            help="Score BM25 on index shards on your Dask cluster "
                                                 "(tcp://host:port; shared filesystem)."),
    fmt: str = FormatOption(),
) -> None:
    """Run BM25, the supplied run, the hybrid and the reranker; write runs, metrics and diagnoses."""
    fmt = output_format(fmt)
    summary = run_experiment("sandbox run", dict(
        corpus=corpus, topics=topics, qrels=qrels, dense_run=dense_run, dense_metadata=dense_metadata,
        output=output, k=k, candidate_depth=candidate_depth, hybrid_alpha=hybrid_alpha,
        rerank_weight=rerank_weight, k1=k1, b=b, frozen_manifest=frozen_manifest, run_depth=run_depth,
        measures=measures, fusion=fusion, rrf_k=rrf_k), log=log, workers=workers, scheduler=scheduler)
    for note in trec_eval_notes(measures) if measures else []:   # trec_eval names: which of ours each became
        typer.echo(note, err=True)
    if fmt == "json":
        return emit_json(summary)
    typer.echo(f"run {summary['run_id']} -> {summary['output']}")
    typer.echo(f"{'method':<42} {'recall@' + str(k):>10} {'ndcg@' + str(k):>10}")
    for method, values in summary["metrics"]["macro"].items():
        typer.echo(f"{summary['labels'][method]:<42} {values[f'recall@{k}']:>10.6f} {values[f'ndcg@{k}']:>10.6f}")
    typer.echo(summary["legend"])


@sandbox.command("ledger")
@cli_errors
def sandbox_ledger(
    locators: Path = typer.Option(..., "--locators", help="Locator manifest (declared population)."),
    fixtures: Path = typer.Option(..., "--fixtures", help="Acquisition fixture directory (holds fixture_manifest.json)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Optional directory for ledger.json."),
    log: Path = LogOption,
    fmt: str = FormatOption(),
) -> None:
    """Count declared → discovered → attempted → usable → parsed → admitted, with each stage ratio.

    There is deliberately no single "visibility" percentage: each ratio has its own denominator.
    """
    from engine.ledger.acquisition import render_ledger

    fmt = output_format(fmt)
    ledger = run_experiment("sandbox ledger", dict(locators=locators, fixtures=fixtures, output=output), log=log)
    if fmt == "json":
        return emit_json(ledger)
    typer.echo(render_ledger(ledger), nl=False)


def register(app: typer.Typer) -> None:
    """Add this area's commands to the root app."""
    app.add_typer(sandbox, name="sandbox")
