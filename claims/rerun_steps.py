"""Runnable ``rerun`` steps for a claims file, rebuilt from a logged invocation by role.

``bind`` writes, for each experiment it drafts, the argument lists that re-run it in the
command line's own syntax (``notebook run`` takes its notebook positionally), so that
``verify --rerun`` runs them (:func:`claims.verify.rerun_experiments`). The source is the log
record's ``invocation`` (:mod:`engine.runs.runlog`): its input and output roles and options.

Rules, all deterministic:

* **Inputs**: a file or folder under the bundled fixtures is written ``{fixtures}/…``; one in
  the same project folder as the claims file (the log's folder, :func:`engine.runs.runlog.log_base`)
  ``{here}/…`` relative to the claims file's folder, so the project can move; anything else
  absolutely.
* **Outputs** go to ``{workdir}/ROLE`` (``{workdir}/output``, ``{workdir}/freeze``): a claims
  file writes only inside ``--rerun-dir``.
* **Chains**: an input that another logged ok run wrote (the R03 freeze ``r03 evaluate`` reads,
  which ``r03 prepare`` wrote) is re-made by re-running that run first, its output mapped to the
  same ``{workdir}/ROLE``.
* **Options**: every other parameter the run was given, in the registry's order.

A record without an invocation (an old log) gives no steps (:class:`NoSteps` says why).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


class NoSteps(Exception):
    """The record does not hold enough to rebuild its invocation; ``str()`` says why."""


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def placeholder_path(path: str, here: Path, project: Path) -> str:
    """``path`` as a rerun step writes it (module docstring, "Inputs")."""
    from engine.runs.fixtures_path import fixtures_dir

    absolute = os.path.abspath(path)
    fixtures = os.path.abspath(fixtures_dir())
    if _inside(absolute, fixtures):
        rest = os.path.relpath(absolute, fixtures)
        return "{fixtures}" if rest == "." else "{fixtures}/" + Path(rest).as_posix()
    if _inside(absolute, str(project)) and _inside(os.path.abspath(here), str(project)):
        rest = os.path.relpath(absolute, here)
        return "{here}" if rest == "." else "{here}/" + Path(rest).as_posix()
    return absolute


def _producer(records: list[dict[str, Any]], before: int, path: str) -> tuple[int, dict[str, Any]] | None:
    """The latest ok record before index ``before`` whose output role is ``path``."""
    for index in range(before - 1, -1, -1):
        record = records[index]
        invocation = record.get("invocation")
        if record.get("status") != "ok" or not isinstance(invocation, dict):
            continue
        for entry in (invocation.get("outputs") or {}).values():
            if os.path.abspath(entry["path"]) == path:
                return index, record
    return None


def rerun_steps(record: dict[str, Any], records: list[dict[str, Any]], claims_path: str | Path,
                log_path: str | Path) -> list[list[str]]:
    """The steps that re-run ``record`` (one of ``records``, read from ``log_path``), producers first."""
    from engine.runs.runlog import log_base

    here = Path(os.path.abspath(claims_path)).parent
    project = log_base(log_path)
    outputs: dict[str, str] = {}
    steps: list[list[str]] = []
    index = next((i for i, r in enumerate(records) if r is record), len(records))
    _add_steps(record, index, records, here, project, outputs, steps, depth=0)
    return steps


def _output_text(path: str, role: str, outputs: dict[str, str]) -> str:
    if path not in outputs:
        name = role
        taken = set(outputs.values())
        text, n = "{workdir}/" + name, 1
        while text in taken:
            n += 1
            text = "{workdir}/" + f"{name}-{n}"
        outputs[path] = text
    return outputs[path]


def _add_steps(record: dict[str, Any], index: int, records: list[dict[str, Any]], here: Path, project: Path,
               outputs: dict[str, str], steps: list[list[str]], depth: int) -> None:
    from engine.experiments import EXPERIMENTS, role_parameter

    command = record.get("command") or ""
    exp = EXPERIMENTS.get(command)
    invocation = record.get("invocation")
    if exp is None or not exp.rerunnable:
        raise NoSteps(f"'{command}' is not a re-runnable experiment")
    if not isinstance(invocation, dict):
        raise NoSteps(f"run {record.get('run_id')} was logged without its invocation (an older log)")
    if depth > 8:
        raise NoSteps("the chain of runs that wrote this run's inputs is too long")
    if any(entry.get("path") == "-" for entry in (invocation.get("inputs") or {}).values()):
        raise NoSteps(f"run {record.get('run_id')} read an input from stdin ('-'); no step can replay it")
    inputs = {role: os.path.abspath(entry["path"]) for role, entry in (invocation.get("inputs") or {}).items()}
    for role, path in sorted(inputs.items()):
        if path in outputs:
            continue
        producer = _producer(records, index, path)
        if producer is not None:
            _add_steps(producer[1], producer[0], records, here, project, outputs, steps, depth + 1)
    values: dict[str, list[str]] = {}
    ordered = sorted((role_parameter(exp, role)[1] or 0, role, path) for role, path in inputs.items())
    for _, role, path in ordered:  # a repeatable option's items in their logged order (run-1, run-2, …)
        parameter, _ = role_parameter(exp, role)
        text = outputs[path] if path in outputs else placeholder_path(path, here, project)
        values.setdefault(parameter.name, []).append(text)
    for role, entry in (invocation.get("outputs") or {}).items():
        parameter, _ = role_parameter(exp, role)
        values.setdefault(parameter.name, []).append(_output_text(os.path.abspath(entry["path"]), role, outputs))
    for name, value in (invocation.get("options") or {}).items():
        if value is None:
            continue
        values[name] = [str(item) for item in value] if isinstance(value, list) else [_text(value)]
    argv = command.split()
    for name in exp.positional:
        argv += values.pop(name, [])
    for parameter in exp.parameters:
        for item in values.get(parameter.name, []):
            argv += [parameter.option, item]
    steps.append(argv)


def _text(value: Any) -> str:
    if isinstance(value, float):
        return repr(value)
    return str(value)
