"""Commands of the budget area (registered on the root app by cli): ``budget run``."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from cli.common import FormatOption, LogOption, cli_errors, echo_err, emit_json, log_path, output_format

budget = typer.Typer(help="Budgeted evidence selection (Count, Characters, MMR).", no_args_is_help=True)


@budget.command("run")
@cli_errors
def run(
    corpus: Path = typer.Option(..., "--corpus", help="Corpus JSONL (BEIR _id/title/text or sandbox doc_id/title/text)."),
    run_file: Path = typer.Option(..., "--run", help="Candidates: TREC run (score desc, doc id asc)."),
    qrels: Path = typer.Option(..., "--qrels", help="TREC qrels; positives are grade > 0."),
    output: Path = typer.Option(..., "--output", "-o", help="Output directory (written all-or-nothing)."),
    vectors: Path = typer.Option(None, "--vectors", help=".npy unit vectors (n, dim); without it the encoder is used."),
    vector_ids: Path = typer.Option(None, "--vector-ids", help="One document id per line, aligned with --vectors."),
    depth: int = typer.Option(10, "--depth", help="Candidates per query (run truncated to this depth)."),
    unit_cap: int = typer.Option(3, "--unit-cap", help="Maximum units per packet."),
    char_cap: int = typer.Option(1200, "--char-cap", help="Character allowance (Count ignores it)."),
    relevance_weight: float = typer.Option(0.7, "--relevance-weight", help="MMR weight of 1/rank."),
    redundancy_weight: float = typer.Option(0.3, "--redundancy-weight", help="MMR weight of redundancy."),
    separator: str = typer.Option(r"\n\n", "--separator", help=r"Text charged between units (escapes \n \t \r \\)."),
    model: Optional[Path] = typer.Option(None, "--model", help="Without --vectors: your own ONNX model (with --tokenizer)."),
    tokenizer: Optional[Path] = typer.Option(None, "--tokenizer", help="tokenizer.json for --model."),
    batch_size: int = typer.Option(16, "--batch-size", help="Without --vectors: texts per onnxruntime call."),
    max_wordpieces: int = typer.Option(256, "--max-wordpieces", help="Without --vectors: truncation length."),
    intra_op_threads: int = typer.Option(4, "--intra-op-threads", help="Without --vectors: onnxruntime intra-op threads."),
    inter_op_threads: int = typer.Option(1, "--inter-op-threads", help="Without --vectors: onnxruntime inter-op threads."),
    log: Path = LogOption,
    fmt: str = FormatOption(),
) -> None:
    """Select Count, Characters and MMR packets under a character allowance and account for lost positives."""
    fmt = output_format(fmt)
    from engine.experiments import run_experiment

    summary = run_experiment("budget run", dict(
        corpus=corpus, run_file=run_file, qrels=qrels, output=output, vectors=vectors, vector_ids=vector_ids,
        depth=depth, unit_cap=unit_cap, char_cap=char_cap, relevance_weight=relevance_weight,
        redundancy_weight=redundancy_weight, separator=separator, model=model, tokenizer=tokenizer,
        batch_size=batch_size, max_wordpieces=max_wordpieces, intra_op_threads=intra_op_threads,
        inter_op_threads=inter_op_threads), log=log_path(log), warn=echo_err)
    if fmt == "json":
        return emit_json(summary)
    for name, values in summary["selectors"].items():
        typer.echo(f"{values['label']}\tmean units {values['mean_units']:.3f}\tmean characters "
                   f"{values['mean_characters']:.1f}\tmax {values['max_characters']}\tpositives selected "
                   f"{values['positives_selected']}/{values['positives_available']}")
    typer.echo(f"wrote {output}")


def register(app: typer.Typer) -> None:
    """Add this area's commands to the root app."""
    app.add_typer(budget, name="budget")
