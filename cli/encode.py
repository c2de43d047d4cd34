"""Commands of the encode area (registered on the root app by cli).

``chapter-audit encode``: one text field of a JSONL file → ``vectors.npy`` (float32, rows
L2-normalised), an ids file and ``<stem>.manifest.json``, with a log record ``encode``.
The work is done by the registered ``encode`` experiment (:mod:`engine.experiments`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from cli.common import FormatOption, LogOption, cli_errors, emit_json, output_format


def register(app: typer.Typer) -> None:
    """Add this area's commands to the root app."""
    app.command("encode")(encode)


@cli_errors
def encode(
    input: Path = typer.Option(..., "--input", help="JSONL file, one record a line."),
    field: str = typer.Option(..., "--field", help="Record field holding the text to encode."),
    output: Path = typer.Option(..., "--output", "-o", help="Vectors file to write (.npy, float32)."),
    ids_output: Optional[Path] = typer.Option(None, "--ids-output",
                                              help="Ids file (default: <output stem>.ids.txt)."),
    id_field: Optional[str] = typer.Option(None, "--id-field",
                                           help="Record id field (default: _id if present, else doc_id)."),
    model: Optional[Path] = typer.Option(None, "--model", help="Your own ONNX model (with --tokenizer)."),
    tokenizer: Optional[Path] = typer.Option(None, "--tokenizer", help="tokenizer.json for --model."),
    batch_size: int = typer.Option(16, "--batch-size", help="Texts per onnxruntime call."),
    max_wordpieces: int = typer.Option(256, "--max-wordpieces", help="Truncation length incl. [CLS]/[SEP]."),
    intra_op_threads: int = typer.Option(4, "--intra-op-threads", help="onnxruntime intra-op threads."),
    inter_op_threads: int = typer.Option(1, "--inter-op-threads", help="onnxruntime inter-op threads."),
    shard_size: int = typer.Option(8192, "--shard-size",
                                   help="Texts per shard: larger inputs are encoded shard by shard into "
                                        "<output stem>.shards/ and an interrupted run resumes there."),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress",
                                            help="Progress on stderr (default: when stderr is a terminal; "
                                                 "off a terminal plain lines, never \\r)."),
    log: Path = LogOption,
    workers: Optional[int] = typer.Option(None, "--workers",
                                          help="Encode the shards on a Dask LocalCluster of N workers "
                                               "(optional extra 'distributed'; same output bytes)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler",
                                            help="Encode the shards on your Dask cluster (tcp://host:port; shared filesystem)."),
    fmt: str = FormatOption(),
) -> None:
    """Encode a text field with all-MiniLM-L6-v2 (mean pooling, L2, <=256 wordpieces)."""
    fmt = output_format(fmt)
    from engine.experiments import run_experiment

    manifest = run_experiment("encode", dict(
        input=input, field=field, output=output, ids_output=ids_output, id_field=id_field, model=model,
        tokenizer=tokenizer, batch_size=batch_size, max_wordpieces=max_wordpieces,
        intra_op_threads=intra_op_threads, inter_op_threads=inter_op_threads, shard_size=shard_size),
        log=log, progress=progress, workers=workers, scheduler=scheduler)
    if fmt == "json":
        return emit_json(manifest)
    shape = manifest["outputs"]["vectors"]["shape"]
    typer.echo(f"{manifest['run_id']}: {shape[0]} vectors of dimension {shape[1]} -> {output}")
