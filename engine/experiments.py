"""The experiment registry: every runnable experiment, registered once.

Each :class:`Experiment` names the log ``command`` (``"sandbox run"``), its library entry point,
its parameter schema (the command-line options, their types and defaults), the result names its
log record carries under ``results`` and whether a claims file may re-run it.

Two callers use it:

* the typer commands in ``cli/`` call :func:`run_experiment` with the options they parsed
  (``tests/test_layout.py`` checks that every command's options equal the schema here);
* ``verify --rerun`` turns a claims file's argument list into values with
  :func:`parse_arguments` and calls the same :func:`run_experiment`; it never goes through the
  command line, so nothing below ``cli`` imports it.

Around the entry point :func:`run_experiment` sets the run's invocation by role
(:func:`invocation_of`: every input and output parameter a role, every other parameter an
option), which the run's log record keeps (:class:`engine.runs.runlog.Invocation`): so a claims
file can name an experiment by its input hashes, and ``bind`` can rebuild its rerun steps.

Entry points are imported lazily, so that importing the registry costs nothing.
"""

from __future__ import annotations

import importlib
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from engine.runs.errors import InputError

REQUIRED = object()

# Parameter kinds: how an option's text becomes a value.
KINDS = ("path", "str", "int", "float", "paths")


@dataclass(frozen=True)
class Parameter:
    """One option of an experiment: ``name`` is the entry point's keyword, ``option`` the flag."""

    name: str
    option: str
    kind: str
    default: Any = REQUIRED

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def convert(self, text: str) -> Any:
        """The option's text as a value of its kind (InputError naming the option)."""
        if self.kind in ("path", "paths"):
            if not text or "\x00" in text:
                raise InputError("must be a non-empty path without NUL bytes", field=self.option)
            return Path(text)
        if self.kind == "int":
            try:
                return int(text)
            except ValueError:
                raise InputError(f"{text!r} is not a whole number", field=self.option) from None
        if self.kind == "float":
            try:
                value = float(text)
            except ValueError:
                raise InputError(f"{text!r} is not a number", field=self.option) from None
            if not math.isfinite(value):
                raise InputError(f"{text!r} is not a finite number", field=self.option)
            return value
        return text


@dataclass(frozen=True)
class Experiment:
    """A runnable experiment: what the log calls it, how to run it, what it produces."""

    command: str
    entry_point: str            # "module:function", called with every parameter by name and log=
    parameters: tuple[Parameter, ...]
    results: tuple[str, ...]
    rerunnable: bool = True
    output_parameters: tuple[str, ...] = ("output",)   # parameters naming where the run writes
    positional: tuple[str, ...] = ()                    # parameters the command line takes positionally
    pattern_parameters: tuple[str, ...] = ()            # "paths" parameters that hold patterns, not files

    def parameter(self, name: str) -> Parameter:
        for parameter in self.parameters:
            if parameter.name == name:
                return parameter
        raise KeyError(name)

    def options(self) -> tuple[str, ...]:
        return tuple(p.option for p in self.parameters)

    def function(self) -> Callable[..., Any]:
        module, _, name = self.entry_point.partition(":")
        return getattr(importlib.import_module(module), name)


def _p(name: str, kind: str, default: Any = REQUIRED, option: str | None = None) -> Parameter:
    return Parameter(name, option or "--" + name.replace("_", "-"), kind, default)


_ENCODER_OPTIONS = (
    _p("model", "path", None), _p("tokenizer", "path", None), _p("batch_size", "int", 16),
    _p("max_wordpieces", "int", 256), _p("intra_op_threads", "int", 4), _p("inter_op_threads", "int", 1),
)

EXPERIMENTS: dict[str, Experiment] = {e.command: e for e in (
    Experiment(
        "sandbox run", "engine.retrieval.sandbox:run_sandbox_experiment",
        (_p("corpus", "path"), _p("topics", "path"), _p("qrels", "path"), _p("dense_run", "path"),
         _p("dense_metadata", "path"), _p("output", "path"), _p("k", "int", 3),
         _p("candidate_depth", "int", 5), _p("hybrid_alpha", "float", 0.55),
         _p("rerank_weight", "float", 0.25), _p("k1", "float", 1.2), _p("b", "float", 0.75),
         _p("frozen_manifest", "path", None), _p("run_depth", "int", 1000), _p("measures", "str", None),
         _p("fusion", "str", "minmax"), _p("rrf_k", "int", 60)),
        results=("metrics", "rankings", "index_summary", "stage_boundary", "manifest")),
    Experiment(
        "evaluate", "engine.retrieval.evaluate:run_evaluate_experiment",
        (_p("qrels", "path"), _p("run", "paths"), _p("measures", "str", "nDCG@10,R@100,P@10,RR@10,AP@1000"),
         _p("output", "path"), _p("ties", "str", "trec_eval"), _p("seed", "int", 129300),
         _p("draws", "int", 10000), _p("plot", "path", None), _p("fuse", "str", None), _p("rrf_k", "int", 60)),
        results=("metrics", "comparison", "manifest"), output_parameters=("output", "plot")),
    Experiment(
        "sandbox ledger", "engine.ledger.acquisition:run_ledger",
        (_p("locators", "path"), _p("fixtures", "path"), _p("output", "path", None)),
        results=("ledger", "manifest")),
    Experiment(
        "encode", "engine.encoder.encode:run_encode_experiment",
        (_p("input", "path"), _p("field", "str"), _p("output", "path"), _p("ids_output", "path", None),
         _p("id_field", "str", None)) + _ENCODER_OPTIONS + (_p("shard_size", "int", 8192),),
        results=("vectors", "ids", "manifest"), output_parameters=("output", "ids_output")),
    Experiment(
        "budget run", "engine.budget.run:run_budget_experiment",
        (_p("corpus", "path"), _p("run_file", "path", option="--run"), _p("qrels", "path"),
         _p("output", "path"), _p("vectors", "path", None), _p("vector_ids", "path", None),
         _p("depth", "int", 10), _p("unit_cap", "int", 3), _p("char_cap", "int", 1200),
         _p("relevance_weight", "float", 0.7), _p("redundancy_weight", "float", 0.3),
         _p("separator", "str", r"\n\n")) + _ENCODER_OPTIONS,
        results=("summary", "selections", "explanations", "manifest")),
    Experiment(
        "r03 prepare", "engine.r03.pipeline:prepare_experiment",
        (_p("benchmark", "path"), _p("freeze", "path"), _p("barrier_pattern", "paths", None)),
        results=(), output_parameters=("freeze",), pattern_parameters=("barrier_pattern",)),
    Experiment(
        "r03 evaluate", "engine.r03.pipeline:evaluate_experiment",
        (_p("benchmark", "path"), _p("freeze", "path"), _p("output", "path"),
         _p("seed", "int", 129300), _p("draws", "int", 10000)),
        results=("results", "manifest")),
    Experiment(
        "notebook run", "engine.notebook.run:run_notebook_experiment",
        (_p("notebook", "path"), _p("output", "path"), _p("timeout", "int", 600),
         _p("kernel", "str", "python3"), _p("inputs", "paths", None, option="--input")),
        results=("outputs", "executed", "manifest"), positional=("notebook",)),
)}


def experiment(command: str) -> Experiment:
    """The registered experiment of a log command name (InputError if there is none)."""
    try:
        return EXPERIMENTS[command]
    except KeyError:
        known = ", ".join(sorted(EXPERIMENTS))
        raise InputError(f"{command!r} is not an experiment (experiments: {known})", field="command") from None


def split_command(argv: Sequence[str]) -> tuple[Experiment, list[str]]:
    """``["sandbox", "run", "--k", "3"]`` → (the ``sandbox run`` experiment, ``["--k", "3"]``)."""
    for words in (2, 1):
        name = " ".join(argv[:words])
        if len(argv) >= words and name in EXPERIMENTS:
            return EXPERIMENTS[name], list(argv[words:])
    shown = " ".join(argv[:2]) if argv else "(empty)"
    known = ", ".join(sorted(EXPERIMENTS))
    raise InputError(f"{shown!r} is not an experiment command (experiments: {known})", field="rerun")


def parse_arguments(exp: Experiment, args: Sequence[str]) -> dict[str, Any]:
    """Argument list → a value for every parameter (defaults filled); InputError naming the option.

    The syntax is the command line's: options by flag, and the experiment's ``positional``
    parameters (``notebook run NOTEBOOK``) as bare arguments in order (their flag, e.g.
    ``--notebook``, is also accepted).
    """
    by_option = {p.option: p for p in exp.parameters}
    values: dict[str, Any] = {}
    positional = [exp.parameter(name) for name in exp.positional]
    i = 0
    while i < len(args):
        flag = args[i]
        if not flag.startswith("--") and positional:
            parameter = positional.pop(0)
            if parameter.name in values:
                raise InputError(f"{parameter.option} given twice", field="rerun")
            values[parameter.name] = parameter.convert(flag)
            i += 1
            continue
        if flag not in by_option:
            raise InputError(f"unknown option {flag!r} for '{exp.command}'", field="rerun")
        if i + 1 >= len(args):
            raise InputError(f"option {flag} needs a value", field="rerun")
        parameter = by_option[flag]
        value = parameter.convert(args[i + 1])
        if parameter.kind == "paths":
            values.setdefault(parameter.name, []).append(value)
        elif parameter.name in values:
            raise InputError(f"option {flag} given twice", field="rerun")
        else:
            values[parameter.name] = value
        i += 2
    for parameter in exp.parameters:
        if parameter.name not in values:
            if parameter.required:
                raise InputError(f"'{exp.command}' needs {parameter.option}", field="rerun")
            values[parameter.name] = parameter.default
    return values


def run_experiment(command: str, values: dict[str, Any], *, log: str | Path, **runtime: Any) -> Any:
    """Call the experiment's entry point with its parameter values, the log and runtime options.

    ``runtime`` holds what is not a parameter of the experiment (a progress display, a warning
    printer); it never changes a result.
    """
    exp = experiment(command)
    unknown = set(values) - {p.name for p in exp.parameters}
    if unknown:
        raise InputError(f"unknown parameter(s) {sorted(unknown)} for '{command}'", field="parameters")
    full = {p.name: values.get(p.name, p.default) for p in exp.parameters}
    missing = [p.option for p in exp.parameters if full[p.name] is REQUIRED]
    if missing:
        raise InputError(f"'{command}' needs {', '.join(missing)}", field="parameters")
    check_log_placement(exp, full, log)
    from engine.runs.runlog import invoked

    with invoked(invocation_of(exp, full)):
        return exp.function()(**full, log=log, **runtime)


def invocation_of(exp: Experiment, values: dict[str, Any]) -> Any:
    """The run's invocation by role (:class:`engine.runs.runlog.Invocation`), which its log
    record keeps: each input path parameter is a role named after it (``corpus``, ``qrels``;
    a repeatable one gives ``run-1``, ``run-2``, …), each output parameter likewise, every
    other parameter (pattern lists included) an option. Paths are made absolute here, so the
    log can write them relative to its own folder."""
    from engine.runs.runlog import Invocation

    inputs: dict[str, str] = {}
    outputs: dict[str, str] = {}
    options: dict[str, Any] = {}
    for parameter in exp.parameters:
        value = values.get(parameter.name)
        if value is None or value is REQUIRED:
            continue
        if parameter.kind == "path":
            target = outputs if parameter.name in exp.output_parameters else inputs
            stdin = str(value) == "-" and target is inputs   # standard input stays '-'
            target[parameter.name] = "-" if stdin else os.path.abspath(value)
        elif parameter.kind == "paths" and parameter.name not in exp.pattern_parameters:
            for index, item in enumerate(value, start=1):
                inputs[f"{parameter.name}-{index}"] = "-" if str(item) == "-" else os.path.abspath(item)
        elif parameter.kind == "paths":
            options[parameter.name] = [str(item) for item in value]
        elif isinstance(value, (bool, int, float, str)):
            options[parameter.name] = value
        else:  # whatever a caller passed, the log holds JSON
            options[parameter.name] = str(value)
    return Invocation(exp.command, inputs, outputs, options)


def role_parameter(exp: Experiment, role: str) -> tuple[Parameter, int | None]:
    """The parameter of an invocation role and, for a repeatable one (``run-2``), its position."""
    try:
        return exp.parameter(role), None
    except KeyError:
        name, _, index = role.rpartition("-")
        if index.isdigit():
            return exp.parameter(name), int(index)
        raise


def _within(path: Path, directory: Path) -> bool:
    return path == directory or directory in path.parents


def check_log_placement(exp: Experiment, values: dict[str, Any], log: str | Path | None) -> None:
    """Refuse a log the run would damage or read: inside (or equal to) an output of the run
    (a re-run replaces that directory, wiping the log), or one of the run's inputs (the run
    would append to a file it hashes). Exit 3 (:class:`RefusalError`); a log path that is a
    directory or another non-regular file is bad input (exit 2).
    """
    from engine.runs.errors import RefusalError
    from engine.runs.runlog import check_log_path

    if log is None:
        return
    check_log_path(log)
    where = Path(os.path.realpath(log))
    for parameter in exp.parameters:
        value = values.get(parameter.name)
        if parameter.kind != "path" or value is None:  # "paths" are barrier patterns, not files
            continue
        if str(value) == "-":   # standard input (engine.runs.opener): no file to collide with
            continue
        path = Path(os.path.realpath(value))
        if parameter.name in exp.output_parameters and _within(where, path):
            raise RefusalError(f"--log {log} lies inside the run's output {parameter.option} {value}, "
                               "which a re-run replaces; keep the log outside it")
        if parameter.name not in exp.output_parameters and (
                where == path or (Path(value).is_dir() and _within(where, path))):
            raise RefusalError(f"--log {log} is (or lies inside) the run's input {parameter.option} {value}; "
                               "a log is never written into a run's inputs")


def check_outputs_inside(exp: Experiment, values: dict[str, Any], directory: str | Path) -> None:
    """InputError unless every output parameter of a claims-file step lies inside ``directory``
    (the ``--rerun-dir`` of ``verify --rerun``): a claims file never writes anywhere else."""
    root = Path(os.path.realpath(directory))
    for name in exp.output_parameters:
        value = values.get(name)
        if value is None:
            continue
        if not _within(Path(os.path.realpath(value)), root) or Path(os.path.realpath(value)) == root:
            raise InputError(f"output {exp.parameter(name).option} {value} lies outside the rerun directory "
                             f"{directory}; a claims file may only write inside it", field="rerun")


def exit_code(exc: BaseException) -> int:
    """The exit code the command line gives an experiment's error (README, "Exit codes").

    2 bad input, 3 a deliberate refusal, 4 a stop condition (logged ``invalid``), 1 a run that
    started and failed (e.g. the R03 judgment barrier) or any other error.
    """
    from engine.runs.errors import EXIT_FAILED, EXIT_INPUT, EXIT_INVALID, EXIT_REFUSED, RefusalError
    from engine.runs.runlog import InvalidRun

    if isinstance(exc, InputError):
        return EXIT_INPUT
    if isinstance(exc, RefusalError):
        return EXIT_REFUSED
    if isinstance(exc, InvalidRun):
        return EXIT_INVALID
    return EXIT_FAILED


# ---------------------------------------------------------------------------------------------
# What each experiment computes, so that a report proposes a command only for a claim or gap it
# can answer (issue 22): the claim's metric must be one the command computes, its method one the
# command runs (or a run the command is given), and no method the command cannot compute may be
# named. Regular expressions, matched case-insensitively on whole words.

@dataclass(frozen=True)
class ClaimScope:
    """The metric, method and data words an experiment's results answer."""

    metrics: tuple[str, ...]      # a claim must name one of these to be reproduced by the command
    methods: tuple[str, ...]      # a gap must name one of these (or a metric) to be answered by it
    data: str                     # what the command needs, in words
    excludes: tuple[str, ...] = ()  # methods or settings it does not compute: never proposed for them


_NEURAL = (r"dense retriev\w*", r"DPR", r"ColBERT\w*", r"SPLADE\w*", r"(?:bi|cross)-encoders?", r"BERT\w*",
           r"neural", r"embedding models?", r"LLMs?", r"GPT-?\d*\w*", r"T5", r"fine-?tun\w*", r"contriever",
           r"E5", r"sentence-transformers?", r"ANCE", r"question answering", r"exact match", r"F1")

CLAIM_SCOPES: dict[str, ClaimScope] = {
    "sandbox run": ClaimScope(
        metrics=(r"recall(?:@\d+)?", r"n?DCG(?:@\d+)?", r"nDCG(?:@\d+)?"),
        methods=(r"BM25", r"hybrid", r"(?:min-max )?fusion", r"rerank\w*", r"cutoff", r"candidate depth",
                 r"supplied (?:opaque )?run", r"frozen run", r"lexical"),
        data="a judged collection (corpus, topics, qrels) and the supplied run the chapter fuses with BM25",
        excludes=_NEURAL),
    "evaluate": ClaimScope(
        metrics=(r"n?DCG@\d+", r"nDCG@\d+", r"R@\d+", r"Recall@\d+", r"P@\d+", r"Precision@\d+", r"MRR(?:@\d+)?",
                 r"RR@\d+", r"MAP", r"AP@\d+"),
        methods=(r"TREC run", r"run files?", r"qrels", r"paired (?:bootstrap|randomi[sz]ation)"),
        data="the qrels and the runs as TREC files (the runs themselves are not produced here)"),
    "budget run": ClaimScope(
        metrics=(r"characters?", r"units?", r"packets?", r"allowance", r"judged evidence", r"cap"),
        methods=(r"budget\w*", r"allowance", r"MMR", r"redundancy", r"selector", r"unit cap", r"content cap",
                 r"evidence packet"),
        data="candidate documents, their ranked run and the judgements",
        excludes=(r"tokens? budget of a consumer model", r"LLMs?", r"GPT-?\d*\w*", r"task outcomes?")),
    "r03 evaluate": ClaimScope(
        metrics=(r"coverage(?:@\d+)?", r"covers?", r"\d+/\d+ requirements", r"subsets? enumerated"),
        methods=(r"coverage", r"oracle", r"typed baseline", r"requirement texts?", r"judged pools?"),
        data="the R03 benchmark: tasks, pools, grades and agreed requirements",
        excludes=(r"resource requirements?",)),
    "notebook run": ClaimScope(
        metrics=(r".",), methods=(r"notebook", r"colab", r"ipynb"),
        data="the notebook file; what it prints is bound with pattern bindings"),
}
