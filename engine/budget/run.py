"""The ``budget run`` pipeline: Count, Characters and MMR packets over one candidate run.

Inputs: a corpus JSONL (BEIR or sandbox fields, :mod:`engine.budget.units`), a TREC run of candidates
(re-ordered score desc, doc id asc by :func:`engine.retrieval.trec.read_run`, then truncated to
``depth``), TREC qrels (a *positive* is a judgment with grade > 0), and unit vectors either
supplied (``.npy`` of shape ``(n, dim)`` plus one id per line) or computed with
:mod:`engine.encoder.encode` from the unit texts.

Vector policy: every supplied row is L2-normalised before use; if any row's norm differs from
1 by more than 1e-4 a warning names how many (the selection uses the normalised vectors, as
the chapter's cosine requires). A zero or non-finite row is bad input.

Outputs (one directory, written all-or-nothing): ``selections.tsv``, ``summary.json``,
``explanations.md``, ``manifest.json``; definitions in ``docs/budget.md``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from engine.budget.selection import (ALLOWANCE, CAPPED, LABELS, NEVER_FITS, UNIT_CAP, BadVector,
                           BudgetParams, Candidate, cumulative_costs, explain, loss_reason, normalise_rows,
                           packet_cost, select_batch)
from engine.runs.errors import InputError
from engine.runs.npy import read_npy
from engine.runs.hashing import dump_json
from engine.runs.manifest import build_manifest, input_hashes
from engine.runs.outdir import check_target, publish, staged_directory
from engine.runs.runlog import recorded_run
from engine.retrieval.trec import read_qrels, read_run
from engine.budget.units import UNIT_TEXT_RULE, read_units
from engine.runs.jsonl import read_text_file

COMMAND = "budget run"
MANIFEST = "manifest.json"
POSITIVE_RULE = "qrels grade > 0"
TIE_RULE = ("candidates ordered by score desc, doc id asc (engine.retrieval.trec.read_run); exact MMR ties "
            "broken by complete document reference, ascending string order")
NORMALISATION = "supplied rows L2-normalised (warning if any norm differs from 1 by > 1e-4); zero rows rejected"
SELECTIONS_HEADER = ("query", "selector", "position", "doc_id", "original_rank", "characters",
                     "cumulative_characters")

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}


def unescape_separator(text: str) -> str:
    r"""Command-line separator text with ``\n``, ``\t``, ``\r`` and ``\\`` escapes resolved."""
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            if i + 1 >= len(text) or text[i + 1] not in _ESCAPES:
                raise InputError(r"separator escapes are \n, \t, \r and \\ only", field="separator")
            out.append(_ESCAPES[text[i + 1]])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


# ----------------------------------------------------------------------------------------------
# inputs


def _run_line(path: Path, topic: str, doc: str) -> int | None:
    """Line number of ``topic ... doc`` in a TREC run (for error messages; gzip read as the run is)."""
    from engine.runs.opener import open_text

    with open_text(path, warn=False) as handle:
        for number, line in enumerate(handle, start=1):
            fields = line.split()
            if len(fields) >= 3 and fields[0] == topic and fields[2] == doc:
                return number
    return None


def read_vector_ids(path: str | Path) -> list[str]:
    """The ids of ``--vector-ids``, aligned with the rows of ``--vectors``, in either form the
    project writes them: one id per line (``encode``'s ``.ids.txt``; surrounding whitespace
    ignored) or a JSON list of strings (R03's ``vectors/document_ids.json``). Anything else is an
    InputError naming FILE:LINE: an empty line, an id holding whitespace (no TREC id does), a
    duplicate, a JSON object, a list element that is not a non-empty string, invalid JSON, no id."""
    path = Path(path)
    text = read_text_file(path)
    head = text.lstrip()
    first_line = text.count("\n", 0, len(text) - len(head)) + 1
    if head.startswith("{"):
        raise InputError("a JSON object; --vector-ids takes one id per line or a JSON list of ids "
                         '(["d1", "d2", ...])', path=path, line=first_line)
    entries = _json_ids(text, path) if head.startswith("[") else _line_ids(text, path)
    ids: list[str] = []
    seen: dict[str, int] = {}
    for doc, number in entries:
        if doc in seen:
            raise InputError(f"duplicate vector id {doc!r} (first on line {seen[doc]})", path=path, line=number)
        seen[doc] = number
        ids.append(doc)
    if not ids:
        raise InputError("vector ids file lists no ids", path=path)
    return ids


def _line_ids(text: str, path: Path) -> list[tuple[str, int]]:
    """One id per line: (id, line number)."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        doc = line.strip()
        if not doc:
            raise InputError("empty line: one vector id per line expected", path=path, line=number)
        if len(doc.split()) > 1:
            raise InputError(f"{len(doc.split())} fields on one line: one vector id per line expected "
                             "(or a JSON list of ids)", path=path, line=number)
        out.append((doc, number))
    return out


def _json_ids(text: str, path: Path) -> list[tuple[str, int]]:
    """A JSON list of strings: (id, line of the element)."""
    import json

    from engine.runs.jsonl import loads_json

    value = loads_json(text, path)   # syntax errors, huge integers, deep nesting: FILE:LINE
    if not isinstance(value, list):  # pragma: no cover - a text starting with '[' that parses is a list
        raise InputError("expected a JSON list of ids", path=path, line=1)
    decoder, lines, position = json.JSONDecoder(), [], text.index("[") + 1
    for element in value:             # each element's line, decoded again from its position
        while text[position] in " \t\r\n,":
            position += 1
        lines.append(text.count("\n", 0, position) + 1)
        try:
            _, position = decoder.raw_decode(text, position)
        except (ValueError, RecursionError):  # pragma: no cover - the whole text decoded above
            break
    out = []
    for element, number in zip(value, lines):
        if not isinstance(element, str) or not element.strip():
            raise InputError(f"vector id {element!r} is not a non-empty string", path=path, line=number)
        if element != element.strip() or len(element.split()) > 1:
            raise InputError(f"vector id {element!r} holds whitespace (no TREC id does)", path=path, line=number)
        out.append((element, number))
    return out


def read_vectors(vectors_path: str | Path, ids_path: str | Path) -> tuple[dict[str, int], np.ndarray, int]:
    """``({id: row}, normalised float32 matrix, rows that were not unit length)`` from a ``.npy``
    file and its ids file (the caller warns about the last figure once input is fully valid)."""
    from engine.runs.opener import display_name

    vectors_path, ids_path = Path(vectors_path), Path(ids_path)
    ids = read_vector_ids(ids_path)
    matrix = read_npy(vectors_path)
    if not isinstance(matrix, np.ndarray) or matrix.ndim != 2:
        shape = getattr(matrix, "shape", None)
        raise InputError(f"vectors must be a 2-D array (vectors x dimensions), got shape {shape}",
                         path=vectors_path)
    if not (np.issubdtype(matrix.dtype, np.floating) or np.issubdtype(matrix.dtype, np.integer)):
        raise InputError(f"vectors must be real numbers, got dtype {matrix.dtype}", path=vectors_path)
    if matrix.shape[1] < 1:
        raise InputError(f"vectors have dimension 0 (shape {matrix.shape})", path=vectors_path)
    if matrix.shape[0] != len(ids):
        raise InputError(f"holds {matrix.shape[0]} vectors but {display_name(ids_path)} lists {len(ids)} ids",
                         path=vectors_path)
    try:
        normalised, off = normalise_rows(matrix)
    except BadVector as exc:
        raise InputError(f"vector of {ids[exc.row]!r} (row {exc.row}) {exc.problem}; "
                         "cosine needs a non-zero finite vector", path=vectors_path)
    return {doc: row for row, doc in enumerate(ids)}, normalised, off


def _encode(texts: list[str], encoder: Any) -> np.ndarray:
    vectors = np.asarray(encoder.encode(texts, progress=None), dtype=np.float32)  # shown on a terminal
    normalised, _ = normalise_rows(vectors)
    return normalised


# ----------------------------------------------------------------------------------------------
# selection and accounting


def summarise(queries: list[str], candidates: dict[str, list[Candidate]],
              packets: dict[str, dict[str, list[Candidate]]], positives: dict[str, set[str]],
              params: BudgetParams) -> dict[str, Any]:
    """The per-selector summary (field definitions in docs/budget.md)."""
    selectors: dict[str, Any] = {}
    for selector, by_query in packets.items():
        capped = CAPPED[selector]
        costs, units = [], []
        available = selected = 0
        lost = {NEVER_FITS: 0, ALLOWANCE: 0, UNIT_CAP: 0}
        lost_queries = []
        for query in queries:
            packet = by_query[query]
            lengths = [c.length for c in packet]
            costs.append(packet_cost(lengths, params.separator_length))
            units.append(len(packet))
            chosen = {c.doc for c in packet}
            query_lost = False
            for cand in candidates[query]:
                if cand.doc not in positives.get(query, set()):
                    continue
                available += 1
                if cand.doc in chosen:
                    selected += 1
                else:
                    lost[loss_reason(selector, cand, packet, params)[0]] += 1
                    query_lost = True
            if query_lost:
                lost_queries.append(query)
        n = len(queries)
        selectors[selector] = {
            "label": LABELS[selector],
            "unit_cap": params.unit_cap,
            "content_cap": params.char_cap if capped else None,
            "mean_units": sum(units) / n if n else 0.0,
            "mean_characters": sum(costs) / n if n else 0.0,
            "max_characters": max(costs, default=0),
            "packets_over_char_cap": sum(1 for c in costs if c > params.char_cap),
            "empty_packets": sum(1 for u in units if u == 0),
            "positives_available": available,
            "positives_selected": selected,
            "positives_lost_never_fit": lost[NEVER_FITS],
            "positives_lost_remaining_allowance": lost[ALLOWANCE],
            "positives_lost_unit_cap": lost[UNIT_CAP],
            "queries_with_lost_positive": lost_queries,
            "queries_with_lost_positive_count": len(lost_queries),
        }
    selectors["count"]["note"] = ("no content cap; packet characters measured with the same accounting "
                                  "(codepoints plus separators) and may exceed char_cap")
    with_positive = sum(1 for q in queries if any(c.doc in positives.get(q, set()) for c in candidates[q]))
    return {
        "queries": len(queries),
        "queries_with_positive_among_candidates": with_positive,
        "positive_rule": POSITIVE_RULE,
        "accounting": {"unit": "Unicode codepoints of the exact raw unit text",
                       "separator": params.separator, "separator_characters": params.separator_length,
                       "char_cap": params.char_cap, "unit_cap": params.unit_cap},
        "selectors": selectors,
    }


def selections_tsv(queries: list[str], packets: dict[str, dict[str, list[Candidate]]],
                   params: BudgetParams) -> str:
    lines = ["\t".join(SELECTIONS_HEADER)]
    for query in queries:
        for selector in packets:
            packet = packets[selector][query]
            cumulative = cumulative_costs([c.length for c in packet], params.separator_length)
            for position, (cand, total) in enumerate(zip(packet, cumulative), start=1):
                lines.append(f"{query}\t{selector}\t{position}\t{cand.doc}\t{cand.rank}\t{cand.length}\t{total}")
    return "\n".join(lines) + "\n"


def explanations_md(queries: list[str], candidates: dict[str, list[Candidate]],
                    packets: dict[str, dict[str, list[Candidate]]], positives: dict[str, set[str]],
                    params: BudgetParams, depth: int) -> str:
    lines = ["# Budget selection explanations", "",
             f"Allowance {params.char_cap:,} characters (Unicode codepoints of the raw unit texts, "
             f"separator {params.separator!r} = {params.separator_length} characters between units), unit cap "
             f"{params.unit_cap:,}, depth {depth:,}. Positives: {POSITIVE_RULE}. Count has no content cap; "
             "its packet characters are measured with the same accounting.", ""]
    for query in queries:
        lines += [f"## Query {query}", ""]
        for selector in packets:
            label = LABELS[selector] + ("" if CAPPED[selector] else " (no content cap)")
            text = explain(selector, candidates[query], packets[selector][query],
                           positives.get(query, set()), params)
            lines.append(f"- {label}: {text}")
        lines.append("")
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------
# the pipeline


def run_budget(*, corpus: str | Path, run: str | Path, qrels: str | Path, output: str | Path,
               vectors: str | Path | None = None, vector_ids: str | Path | None = None,
               depth: int = 10, params: BudgetParams = BudgetParams(),
               log: str | Path | None = None, warn: Callable[[str], None] | None = None,
               encoder_factory: Callable[[], Any] | None = None) -> dict[str, Any]:
    """Validate, select with all three selectors, write the output directory; return the summary."""
    from engine.runs.opener import display_name, is_stdin, resolve_input

    warn = warn or (lambda message: print(message, file=sys.stderr))
    # '-' is standard input for any one of the inputs (copied once, hashed by content, named '-')
    given = {"--corpus": corpus, "--run": run, "--qrels": qrels, "--vectors": vectors, "--vector-ids": vector_ids}
    dashes = [option for option, path in given.items() if is_stdin(path)]
    if len(dashes) > 1:
        raise InputError(f"only one input can be read from stdin ('-'); {' and '.join(dashes)} both ask for it",
                         field=dashes[1])
    corpus, run, qrels = resolve_input(corpus), resolve_input(run), resolve_input(qrels)
    vectors = resolve_input(vectors) if vectors is not None else None
    vector_ids = resolve_input(vector_ids) if vector_ids is not None else None
    output = Path(output)
    # 1. parameters and inputs, fully, before anything is computed or written
    params.validate()
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise InputError(f"depth must be an integer >= 1, got {depth!r}", field="depth")
    if (vectors is None) != (vector_ids is None):
        raise InputError("--vectors and --vector-ids must be given together", field="vector_ids")
    ranked = read_run(run)
    queries = sorted(ranked)
    needed = {doc for q in queries for doc, _ in ranked[q][:depth]}
    units = read_units(corpus, wanted=needed)
    for query in queries:
        for doc, _ in ranked[query][:depth]:
            if doc not in units:
                raise InputError(f"candidate {doc!r} of query {query!r} is not in the corpus {display_name(corpus)}",
                                 path=run, line=_run_line(run, query, doc))
    judgments = read_qrels(qrels)
    positives = {q: {d for d, g in docs.items() if g > 0} for q, docs in judgments.items()}
    candidates = {q: [Candidate(doc, rank, len(units[doc]))
                      for rank, (doc, _) in enumerate(ranked[q][:depth], start=1)] for q in queries}
    encoder = None
    if vectors is not None:
        index, matrix, off = read_vectors(vectors, vector_ids)
        for query in queries:
            for cand in candidates[query]:
                if cand.doc not in index:
                    raise InputError(f"candidate {cand.doc!r} of query {query!r} has no vector in "
                                     f"{display_name(vector_ids)}",
                                     path=run, line=_run_line(run, query, cand.doc))
        if off:
            warn(f"warning: {off} of {len(index)} vectors in {display_name(vectors)} were not unit length; "
                 "L2-normalised before computing cosines")
        vector_source: dict[str, Any] = {"source": "file", "normalisation": NORMALISATION}
    else:
        if encoder_factory is None:
            from engine.encoder.encode import EncoderConfig, load_encoder  # lazy: heavy, optional path

            def encoder_factory() -> Any:
                return load_encoder(EncoderConfig())
        encoder = encoder_factory()
        described = encoder.describe()
        # file locations stay in the manifest ("encoder") but not in the run-id parameters:
        # the content hashes in the description identify the model wherever it is cached
        vector_source = {"source": "encoder",
                         "encoder": {k: v for k, v in described.items() if not str(k).endswith("_path")},
                         "normalisation": "encoder output L2-normalised (re-normalised defensively)"}
    # 2. manifest, run id, target check
    parameters = {**params.as_dict(), "depth": depth, "unit_text_rule": UNIT_TEXT_RULE,
                  "positive_rule": POSITIVE_RULE, "tie_rule": TIE_RULE, "vectors": vector_source}
    inputs = input_hashes({"corpus": corpus, "run": run, "qrels": qrels,
                           "vectors": vectors, "vector_ids": vector_ids})
    for entry in inputs.values():
        entry["path"] = display_name(entry["path"])
    extra: dict[str, Any] = {"outputs": ["selections.tsv", "summary.json", "explanations.md"]}
    if encoder is not None:
        extra["encoder"] = described
    manifest = build_manifest(COMMAND, inputs, parameters, **extra)
    check_target(output, MANIFEST, manifest["run_id"])
    # 3. the run
    with recorded_run(log, COMMAND, parameters) as rec:
        rec.run_id = manifest["run_id"]
        rec.inputs.update({entry["path"]: entry["sha256"] for entry in inputs.values()})   # '-' for stdin
        if encoder is not None:
            docs = sorted(needed)
            matrix = _encode([units[d] for d in docs], encoder)
            index = {doc: row for row, doc in enumerate(docs)}
        packets = select_batch({q: candidates[q] for q in queries}, params, (index, matrix))
        summary = summarise(queries, candidates, packets, positives, params)
        with staged_directory(output) as staging:
            (staging / "selections.tsv").write_text(selections_tsv(queries, packets, params), encoding="utf-8")
            (staging / "summary.json").write_text(dump_json(summary), encoding="utf-8")
            (staging / "explanations.md").write_text(
                explanations_md(queries, candidates, packets, positives, params, depth), encoding="utf-8")
            (staging / MANIFEST).write_text(dump_json(manifest), encoding="utf-8")
            publish(staging, output)
        rec.add_outputs(output)
        root = output.resolve()
        rec.results = {"summary": str(root / "summary.json"), "manifest": str(root / MANIFEST),
                       "selections": str(root / "selections.tsv"),
                       "explanations": str(root / "explanations.md")}
    return summary


def run_budget_experiment(*, corpus: Path, run_file: Path, qrels: Path, output: Path,
                          vectors: Path | None, vector_ids: Path | None, depth: int, unit_cap: int,
                          char_cap: int, relevance_weight: float, redundancy_weight: float,
                          separator: str, model: Path | None, tokenizer: Path | None, batch_size: int,
                          max_wordpieces: int, intra_op_threads: int, inter_op_threads: int,
                          log: str | Path, warn: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Entry point of the registered ``budget run`` experiment (engine.experiments).

    ``separator`` is given as typed (escapes ``\\n \\t \\r \\\\``); the encoder is loaded only when
    there are no ``vectors``.
    """
    params = BudgetParams(unit_cap=unit_cap, char_cap=char_cap, separator=unescape_separator(separator),
                          relevance_weight=relevance_weight, redundancy_weight=redundancy_weight)

    def encoder_factory() -> Any:
        from engine.encoder.encode import EncoderConfig, load_encoder

        return load_encoder(EncoderConfig(model=model, tokenizer=tokenizer, max_wordpieces=max_wordpieces,
                                          batch_size=batch_size, intra_op_threads=intra_op_threads,
                                          inter_op_threads=inter_op_threads))

    return run_budget(corpus=corpus, run=run_file, qrels=qrels, output=output, vectors=vectors,
                      vector_ids=vector_ids, depth=depth, params=params, log=log, warn=warn,
                      encoder_factory=encoder_factory)
