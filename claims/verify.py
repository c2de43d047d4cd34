"""Claimed versus reproduced: read the latest ok logged run for each binding.

Nothing is recomputed here. For each binding the verifier finds, in the execution log, the
latest record with ``status == "ok"``, the experiment's ``command``, every parameter of its
``match`` table and the experiment's input content hashes by role (:func:`identity_pins`: its
``inputs`` table, or else the files its rerun step names, hashed now), so that two experiments
with the same command and parameters but other inputs never read each other's run; opens the
result file that record names under ``results`` (a relative path is relative to the log's
folder, so a moved project verifies); checks that the file's sha256 is still the one the run
logged (otherwise ``CHANGED``); and reads the dot-path key. Every verdict names the run it read.
A missing or empty log is bad input (:func:`read_log_records`). Verdicts: ``MATCH``, ``MISMATCH``, ``NO RUN`` (no such ok record), ``MISSING KEY``,
``NOT COMPUTED`` (the key holds null: the run refused to compute that value, e.g. R03's bootstrap
bounds of a one-task subset; the run's note is quoted),
``CHANGED`` (result file altered or removed since the run), ``UNTRACEABLE`` (the record logs no
sha256 for the result file, or names a result file outside the run's output directory, so the
number cannot be traced to what the run wrote), ``RERUN FAILED`` (``--rerun`` was asked and a step
of that experiment failed: no older run stands in for it).

``--rerun`` runs each experiment's declared step(s) first through the experiment registry
(:mod:`engine.experiments`, the same entry points the command line calls), so the rerun is
logged like any other run; the verdicts still come from the log, and each experiment reads only
the run written in its own work directory.
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claims.bindings import Binding, ClaimedValue, ClaimsFile, Experiment, parse_claimed
from engine.runs.errors import InputError
from engine.runs.hashing import sha256_file
from engine.runs.jsonl import read_json_file
from engine.runs.runlog import newest, read_log, resolve_logged_path

VERDICTS = ("MATCH", "MISMATCH", "NO RUN", "MISSING KEY", "NOT COMPUTED", "CHANGED", "UNTRACEABLE",
            "RERUN FAILED")


@dataclass(frozen=True)
class Verdict:
    binding: Binding
    status: str
    claimed: ClaimedValue
    reproduced: Any = None
    difference: float | None = None
    run_id: str | None = None
    run_ended_at: str | None = None
    result_path: str | None = None
    note: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "MATCH"

    @property
    def read_at(self) -> str:
        """Where the value was read: the key, or for a pattern binding without one the text it
        was found in (``cells.3.text``), else the pattern itself; never empty (report rows)."""
        if self.binding.key:
            return self.binding.key
        found = re.search(r"pattern found in (\S+):", self.note)
        if found:
            return found.group(1)
        return f"pattern {self.binding.pattern!r}" if self.binding.pattern else "(no key)"

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.binding.binding_id, "experiment": self.binding.experiment,
                "quote": self.binding.quote, "key": self.binding.key, "claimed": self.claimed.text,
                "reproduced": self.reproduced, "difference": self.difference,
                "tolerance": self.claimed.tolerance, "verdict": self.status, "run_id": self.run_id,
                "run_ended_at": self.run_ended_at, "result_path": self.result_path, "note": self.note}


def parameters_match(parameters: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Every wanted parameter is present with an equal value (numbers compared as numbers)."""
    for name, value in wanted.items():
        if name not in parameters:
            return False
        have = parameters[name]
        if isinstance(value, (int, float)) and isinstance(have, (int, float)) and not isinstance(have, bool):
            if not math.isclose(float(have), float(value), rel_tol=0, abs_tol=1e-12):
                return False
        elif have != value:
            return False
    return True


def read_log_records(log_path: str | Path) -> list[dict[str, Any]]:
    """The log's usable records (damaged lines reported on stderr); a missing log, or one that
    holds no record, is bad input naming the file (exit 2), never a table of NO RUN."""
    import sys

    path = Path(log_path)
    if not path.exists():
        raise InputError("execution log not found (run the experiments first, or pass --log)", path=path)
    records, damaged = read_log(path)
    for entry in damaged:
        print(entry.describe(path), file=sys.stderr)
    if not records:
        detail = f" ({len(damaged)} damaged line(s) skipped)" if damaged else ""
        raise InputError(f"execution log holds no run record{detail}", path=path)
    return records


def record_input_hashes(record: dict[str, Any]) -> dict[str, str] | None:
    """``{role: sha256}`` of a record's invocation, or None for a record that logged no roles."""
    invocation = record.get("invocation")
    if not isinstance(invocation, dict):
        return None
    return {role: entry.get("sha256", "") for role, entry in (invocation.get("inputs") or {}).items()}


def inputs_match(record: dict[str, Any], pins: dict[str, str]) -> bool:
    """The record read every pinned role with its sha256. A record without roles (an old log)
    matches when each pinned sha256 is among the hashes of the files it read."""
    if not pins:
        return True
    by_role = record_input_hashes(record)
    if by_role is None:
        logged = set((record.get("inputs") or {}).values())
        return all(digest in logged for digest in pins.values())
    return all(by_role.get(role) == digest for role, digest in pins.items())


_HASHES: dict[tuple[str, int, int], str] = {}


def _hash_now(path: Path) -> str | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    key = (os.path.abspath(path), stat.st_mtime_ns, stat.st_size)
    if key not in _HASHES:
        _HASHES[key] = sha256_file(path)
    return _HASHES[key]


_NO_WORKDIR = "/nonexistent-chapter-audit-workdir"


def identity_pins(experiment: Experiment, claims_path: str | Path | None = None) -> dict[str, str]:
    """The input content hashes by role that identify the experiment's run.

    Its ``inputs`` table when it has one; otherwise the files its rerun step for its own command
    names (placeholders filled; ``{workdir}`` and ``{log}`` outputs of earlier steps excluded),
    hashed now. An experiment with neither is identified by command and parameters alone.
    """
    if experiment.inputs:
        return dict(experiment.inputs)
    from engine.experiments import invocation_of, parse_arguments, split_command
    from engine.runs.fixtures_path import fixtures_dir

    here = str(Path(claims_path).resolve().parent) if claims_path else os.getcwd()
    values = {"fixtures": str(fixtures_dir()), "here": here, "workdir": _NO_WORKDIR, "log": _NO_WORKDIR}
    pins: dict[str, str] = {}
    for step in experiment.rerun:
        try:
            registered, args = split_command(fill_placeholders(step, values))
            if registered.command != experiment.command:
                continue
            roles = invocation_of(registered, parse_arguments(registered, args)).inputs
        except InputError:
            continue
        pins = {}
        for role, path in roles.items():
            if path.startswith(_NO_WORKDIR) or not os.path.isfile(path):
                continue
            digest = _hash_now(Path(path))
            if digest:
                pins[role] = digest
    return pins


def _locations(record: dict[str, Any], log_path: str | Path | None) -> list[Path]:
    """Where a record's run wrote: its output roles, else its result files (absolute)."""
    invocation = record.get("invocation")
    paths = [entry["path"] for entry in ((invocation or {}).get("outputs") or {}).values()] \
        if isinstance(invocation, dict) else []
    paths = paths or [p for p in (record.get("results") or {}).values() if isinstance(p, str)]
    base = log_path if log_path is not None else "log"
    return [Path(os.path.abspath(resolve_logged_path(p, base))) for p in paths]


def find_run(records: list[dict[str, Any]], experiment: Experiment, *, pins: dict[str, str] | None = None,
             within: str | Path | None = None, log_path: str | Path | None = None) -> dict[str, Any] | None:
    """The latest ok record of the experiment's command whose parameters and pinned inputs match
    (``pins``: :func:`identity_pins`); with ``within``, only a run that wrote inside that
    directory (the experiment's own ``--rerun`` work directory)."""
    root = Path(os.path.abspath(within)) if within is not None else None
    found = []
    for record in records:
        if (record.get("status") == "ok" and record.get("command") == experiment.command
                and parameters_match(record.get("parameters") or {}, experiment.match)
                and inputs_match(record, pins or {})):
            if root is not None and not any(place == root or root in place.parents
                                            for place in _locations(record, log_path)):
                continue
            found.append(record)
    return newest(found)  # the run that ended last, whatever the line order of a merged log


def other_inputs_note(records: list[dict[str, Any]], experiment: Experiment, found: dict[str, Any],
                      pins: dict[str, str]) -> str:
    """A note when the log also holds ok runs of the command and parameters, and of the pinned
    inputs (``pins``: none, or an ``inputs`` table that pins only some roles), that read other
    inputs: the verdict read the latest; pinning the other roles would say which is meant."""
    mine = record_input_hashes(found)
    if mine is None:
        return ""
    others = [r for r in records if r is not found and r.get("status") == "ok"
              and r.get("command") == experiment.command
              and parameters_match(r.get("parameters") or {}, experiment.match)
              and inputs_match(r, pins) and record_input_hashes(r) not in (None, mine)]
    if not others:
        return ""
    ids = {r.get("run_id") for r in others}
    if not pins:
        return (f"the log also holds {len(ids)} run(s) of these parameters with other inputs; "
                f"add [experiment.{experiment.experiment_id}.inputs] to say which is meant")
    roles = sorted({role for r in others for role, digest in (record_input_hashes(r) or {}).items()
                    if mine.get(role) != digest} | {role for role in mine
                                                    if all(role not in (record_input_hashes(r) or {}) for r in others)})
    return (f"the log also holds {len(ids)} run(s) of these parameters and pinned inputs that read another "
            f"{', '.join(roles)}; pin {'it' if len(roles) == 1 else 'them'} in "
            f"[experiment.{experiment.experiment_id}.inputs] to say which is meant")


def no_run_note(records: list[dict[str, Any]], experiment: Experiment, pins: dict[str, str]) -> str:
    """Why no run was found: none of the command and parameters, or only runs of other inputs."""
    others = [r for r in records if r.get("status") == "ok" and r.get("command") == experiment.command
              and parameters_match(r.get("parameters") or {}, experiment.match)]
    if not others:
        return f"no ok run of '{experiment.command}' with the bound parameters in the log"
    latest = others[-1]
    by_role = record_input_hashes(latest) or {}
    differ = sorted(role for role, digest in pins.items() if by_role.get(role) != digest)
    return (f"{len(others)} ok run(s) of '{experiment.command}' with the bound parameters read other inputs "
            f"(latest {latest.get('run_id')}: {', '.join(differ) or 'roles not logged'} differ); "
            "none is this experiment's run")


def lookup_key(data: Any, key: str) -> Any:
    """Follow a dot path (``macro.bm25.ndcg@3``); list items by integer index. KeyError if absent."""
    node = data
    for part in key.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.lstrip("-").isdigit() and -len(node) <= int(part) < len(node):
            node = node[int(part)]
        else:
            raise KeyError(part)
    return node


def reproduced_value(data: Any, binding: Binding, claimed: ClaimedValue) -> tuple[Any, str]:
    """The value a binding reads, and (for a pattern binding) where it was found.

    Without ``pattern`` it is the value at ``key``. With ``pattern`` (one group) the group of the
    first match is read from the text at ``key``; without a key, from each ``cells.N.text`` in
    order (a notebook's ``outputs``) or else from every string of the file in document order.
    A captured number is read like a printed one (``1,298``, ``83.3%``, ``2/4``). KeyError when
    the key is absent or nothing matches (``pattern`` named as the missing key).
    """
    if not binding.pattern:
        value = lookup_key(data, binding.key)
        if isinstance(value, str) and claimed.kind in ("number", "fraction"):
            # a notebook cell that printed only the number (``cells.1.text`` = "0.5\n"): read it
            # like a printed value, as a pattern's capture is, never compared as text
            try:
                parsed = parse_claimed(value.strip())
            except ValueError:
                parsed = None
            if parsed is not None and parsed.kind in ("number", "fraction"):
                return parsed.value, f"read as a number from the text {value.strip()!r}"
        return value, ""
    regex = re.compile(binding.pattern)
    if binding.key:
        places = [(binding.key, lookup_key(data, binding.key))]
    elif isinstance(data, dict) and isinstance(data.get("cells"), list):
        places = [(f"cells.{i}.text", cell.get("text")) for i, cell in enumerate(data["cells"])
                  if isinstance(cell, dict)]
    else:
        places = list(_strings(data, ""))
    for where, text in places:
        match = regex.search(text) if isinstance(text, str) else None
        if match:
            captured = match.group(1) or ""
            if claimed.kind in ("number", "fraction"):
                try:
                    parsed = parse_claimed(captured)
                except ValueError:
                    parsed = None
                if parsed is not None and parsed.kind in ("number", "fraction"):
                    return parsed.value, f"pattern found in {where}: {captured!r}"
            return captured, f"pattern found in {where}: {captured!r}"
    raise KeyError(f"pattern {binding.pattern!r}" + (f" in {binding.key}" if binding.key else ""))


def _default_tolerance(claimed: ClaimedValue) -> bool:
    """The claim's tolerance is its printed precision's (no ``tolerance =`` given)."""
    try:
        return parse_claimed(claimed.text).tolerance == claimed.tolerance
    except ValueError:
        return False


def _strings(node: Any, path: str) -> Any:
    if isinstance(node, str):
        yield path, node
    elif isinstance(node, dict):
        for name, item in node.items():
            yield from _strings(item, f"{path}.{name}" if path else str(name))
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _strings(item, f"{path}.{index}" if path else str(index))


def rounds_to_claim(claimed: ClaimedValue, reproduced: float) -> bool:
    """Whether a reproduced value exactly half a printed unit from the claim rounds to it.

    The default tolerance is half a unit of the last printed digit, inclusive, so at exactly
    half a unit both neighbours are within it: 0.55 (11 of 20 topics) printed ``0.5`` or ``0.6``,
    37.5% printed ``37%`` or ``38%``. Only the rounding conventions in use decide there: half up
    (``ROUND_HALF_UP``) and half to even (``ROUND_HALF_EVEN``, IEEE 754's and Python's
    ``round``), applied to the value's shortest repr (the number the run wrote, ``0.55``, not the
    binary double just above it), or to it snapped to 12 significant digits (a mean summed in
    floating point that wrote 0.5499999999999999 for 11/20 accepts both prints, as before).
    0.55 → 0.6 under both, so ``0.5`` is a rounding error;
    0.45 → 0.5 (half up) or 0.4 (half to even), so either print stands. Before, ``0.5`` of 0.55
    and ``37%`` of 0.375 were MATCH."""
    from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation

    try:
        unit = Decimal(repr(2 * claimed.tolerance)).normalize()
        printed = Decimal(repr(float(claimed.value))).quantize(unit, rounding=ROUND_HALF_EVEN)
        values = {Decimal(repr(float(reproduced))), Decimal(f"{float(reproduced):.12g}")}
        return printed in {v.quantize(unit, rounding=mode) for v in values
                           for mode in (ROUND_HALF_UP, ROUND_HALF_EVEN)}
    except (InvalidOperation, ValueError):
        return True


def compare(claimed: ClaimedValue, reproduced: Any) -> tuple[bool, float | None]:
    """Whether the reproduced value agrees with the claim, and the numeric difference: within
    the tolerance (default half a unit of the printed precision, docs/verify.md), and at exactly
    half a unit of a plain printed number only when the value rounds to it
    (:func:`rounds_to_claim`)."""
    if claimed.kind in ("number", "fraction"):
        if isinstance(reproduced, bool) or not isinstance(reproduced, (int, float)):
            return False, None
        difference = float(reproduced) - float(claimed.value)
        within = abs(difference) <= claimed.tolerance + 1e-15
        if within and claimed.kind == "number" and claimed.tolerance > 0 \
                and abs(abs(difference) - claimed.tolerance) <= 1e-9 * claimed.tolerance \
                and _default_tolerance(claimed):
            within = rounds_to_claim(claimed, float(reproduced))
        return within, difference
    if claimed.kind == "list":
        if not isinstance(reproduced, list) or len(reproduced) != len(claimed.value):
            return False, None
        for want, have in zip(claimed.value, reproduced):
            if isinstance(want, (int, float)) and isinstance(have, (int, float)):
                if abs(float(want) - float(have)) > claimed.tolerance:
                    return False, None
            elif str(want) != str(have):
                return False, None
        return True, None
    return str(reproduced) == claimed.value, None


def _inside(path: str, directory: str) -> bool:
    """Whether ``path`` lies inside the output ``directory`` a run recorded.

    An absolute directory is compared after normalisation; a relative one (recorded relative to
    the run's working directory, which the log does not hold) must appear as consecutive
    components of the path, followed by at least one more.
    """
    file = Path(os.path.normpath(path))
    if os.path.isabs(directory):
        root = Path(os.path.normpath(directory))
        return root in file.parents or Path(os.path.realpath(directory)) in Path(os.path.realpath(path)).parents
    parts = Path(os.path.normpath(directory)).parts
    if not parts or ".." in parts:
        return Path(os.path.realpath(directory)) in Path(os.path.realpath(path)).parents
    names = file.parts[:-1]
    return any(names[i:i + len(parts)] == parts for i in range(len(names) - len(parts) + 1))


def _output_directories(record: dict[str, Any], log_path: str | Path) -> list[str]:
    """The run's output directories: its invocation's output roles (resolved against the log's
    folder), else those its parameters name (the registry's output parameters), and the
    directory of the manifest it wrote (``manifest`` / ``freeze_manifest`` result, itself a
    logged output)."""
    from engine.experiments import EXPERIMENTS

    invocation = record.get("invocation")
    if isinstance(invocation, dict) and invocation.get("outputs"):
        directories = [os.path.abspath(resolve_logged_path(entry["path"], log_path))
                       for entry in invocation["outputs"].values()]
    else:
        exp = EXPERIMENTS.get(record.get("command") or "")
        names = exp.output_parameters if exp is not None else ("output",)
        parameters = record.get("parameters") or {}
        directories = [parameters[n] for n in names if isinstance(parameters.get(n), str) and parameters[n]]
    outputs = record.get("outputs") or {}
    results = record.get("results") or {}
    for name in ("manifest", "freeze_manifest"):
        manifest = results.get(name)
        if isinstance(manifest, str) and manifest in outputs:
            directories.append(os.path.dirname(os.path.normpath(resolve_logged_path(manifest, log_path))))
    return directories


def _load_result(record: dict[str, Any], name: str, log_path: str | Path) -> tuple[Any, str, str, str]:
    """(parsed JSON, path, verdict, reason) of a record's result file; verdict '' when intact.

    A relative path is relative to the log's folder (:func:`engine.runs.runlog.log_base`), so a
    moved project folder still verifies."""
    logged_path = (record.get("results") or {}).get(name)
    if not logged_path or not isinstance(logged_path, str):
        return None, "", "MISSING KEY", f"run names no result {name!r}"
    path = str(resolve_logged_path(logged_path, log_path))
    directories = _output_directories(record, log_path)
    if not any(_inside(path, d) for d in directories):
        return None, path, "UNTRACEABLE", "result file lies outside the run's output directory"
    outputs = record.get("outputs") or {}
    file = Path(path)
    logged = outputs.get(logged_path) or outputs.get(os.path.normpath(logged_path))
    if not isinstance(logged, str):
        return None, path, "UNTRACEABLE", "the run logged no sha256 for this result file"
    if not file.is_file():
        return None, path, "CHANGED", "result file no longer exists"
    if sha256_file(file) != logged:
        return None, path, "CHANGED", "result file changed since the run"
    try:
        return read_json_file(file), path, "", ""
    except InputError as exc:
        return None, path, "CHANGED", exc.message


def verify_bindings(claims: ClaimsFile, log_path: str | Path,
                    records: list[dict[str, Any]] | None = None,
                    failed_reruns: dict[str, str] | None = None,
                    rerun_dirs: dict[str, str | Path] | None = None) -> list[Verdict]:
    """One verdict per binding, in file order, from the log alone.

    ``records`` lets a caller that has already read ``log_path`` pass its records in (without
    them a missing or empty log is an InputError, :func:`read_log_records`).
    ``failed_reruns`` maps an experiment id whose ``--rerun`` failed to the failure: its
    bindings are ``RERUN FAILED``, never judged from an older run. ``rerun_dirs`` maps an
    experiment id that ``--rerun`` ran to its work directory: only the run written there counts.
    """
    failed_reruns = failed_reruns or {}
    if records is None:  # a log is needed unless every experiment's rerun failed
        needed = any(b.experiment not in failed_reruns for b in claims.bindings)
        records = read_log_records(log_path) if needed else []
    rerun_dirs = rerun_dirs or {}
    verdicts = []
    cache: dict[tuple[int, str], tuple[Any, str, str, str]] = {}
    runs: dict[str, tuple[dict[str, Any] | None, str]] = {}
    for binding in claims.bindings:
        experiment = claims.experiments[binding.experiment]
        claimed = parse_claimed(binding.claimed, binding.tolerance)
        if binding.experiment in failed_reruns:
            verdicts.append(Verdict(binding, "RERUN FAILED", claimed,
                                    note=f"rerun failed: {failed_reruns[binding.experiment]}"))
            continue
        if binding.experiment not in runs:
            pins = identity_pins(experiment, claims.path)
            found = find_run(records, experiment, pins=pins, within=rerun_dirs.get(binding.experiment),
                             log_path=log_path)
            why = other_inputs_note(records, experiment, found, pins) if found else no_run_note(records, experiment, pins)
            if not found and binding.experiment in rerun_dirs:
                why = f"no ok run written in this rerun's work directory {rerun_dirs[binding.experiment]}; " + why
            runs[binding.experiment] = (found, why)
        record, why = runs[binding.experiment]
        if record is None:
            verdicts.append(Verdict(binding, "NO RUN", claimed, note=why))
            continue
        aside = why
        name = binding.result or experiment.result
        cache_key = (id(record), name)
        if cache_key not in cache:
            cache[cache_key] = _load_result(record, name, log_path)
        data, path, problem, reason = cache[cache_key]
        common = dict(run_id=record["run_id"], run_ended_at=record.get("ended_at"), result_path=path or None)
        if problem:
            verdicts.append(Verdict(binding, problem, claimed, note=reason, **common))
            continue
        try:
            reproduced, found_in = reproduced_value(data, binding, claimed)
        except KeyError as exc:
            verdicts.append(Verdict(binding, "MISSING KEY", claimed, note=f"no key {exc.args[0]!r}", **common))
            continue
        if isinstance(reproduced, dict) or (isinstance(reproduced, list) and claimed.kind != "list"):
            # the key stops short of a value: nothing was compared, so nothing is contradicted
            holds = f"an object ({len(reproduced)} keys)" if isinstance(reproduced, dict) else \
                f"a list ({len(reproduced)} items)"
            verdicts.append(Verdict(binding, "MISSING KEY", claimed, note=f"key {binding.key!r} holds {holds}, "
                                    "not a value", **common))
            continue
        if reproduced is None:
            # the run wrote null: the value was not computed (e.g. R03's one-task bootstrap bounds,
            # "one task: no interval"); nothing was compared, so neither MATCH nor MISMATCH
            verdicts.append(Verdict(binding, "NOT COMPUTED", claimed, note="; ".join(
                n for n in (f"key {binding.key!r} holds null: the run did not compute this value",
                            run_note(data, binding.key), found_in, aside) if n), **common))
            continue
        if claimed.kind in ("number", "fraction") and isinstance(reproduced, str) \
                and _NOT_A_NUMBER.fullmatch(reproduced.strip()):
            # a notebook printed `nan` / `inf` where the chapter prints a number: nothing was computed,
            # so no correction to "nan" is proposed (never printed as a value) and nothing matches
            verdicts.append(Verdict(binding, "NOT COMPUTED", claimed, note="; ".join(
                n for n in (f"the run printed {reproduced!r}, not a number: it did not compute this value",
                            found_in, aside) if n), **common))
            continue
        if isinstance(reproduced, float) and not math.isfinite(reproduced):
            # a result file holding NaN or an infinity (JSON's non-standard NaN / Infinity): the run
            # computed no value there; "nan" printed as "nan" was a MATCH, and the text table
            # failed on the value (never a verdict, never printed as a value)
            verdicts.append(Verdict(binding, "NOT COMPUTED", claimed, note="; ".join(
                n for n in (f"key {binding.key!r} holds {reproduced!r}, not a number: the run did not "
                            "compute this value", found_in, aside) if n), **common))
            continue
        agrees, difference = compare(claimed, reproduced)
        verdicts.append(Verdict(binding, "MATCH" if agrees else "MISMATCH", claimed, reproduced, difference,
                                note="; ".join(n for n in (found_in, aside) if n), **common))
    return verdicts


_NOT_A_NUMBER = re.compile(r"[-+\u2212]?(?:nan|inf|infinity)", re.IGNORECASE)


def run_note(data: Any, key: str) -> str:
    """The run's own explanation of a value it left out: ``notes[PART]`` for a part of the key
    (R03 results name a subset's missing interval there), else ``""``."""
    notes = data.get("notes") if isinstance(data, dict) else None
    if not isinstance(notes, dict):
        return ""
    return "; ".join(str(notes[part]) for part in key.split(".") if isinstance(notes.get(part), str))


def format_reproduced(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.9f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:.1f}"
    if value is None:
        return "—"
    if isinstance(value, str):   # a cell's text keeps the table one line a row: "hello\n" shows as 'hello\n'
        return value if value.isprintable() else repr(value)
    return json.dumps(value) if isinstance(value, (list, dict)) else str(value)


def verdict_table(verdicts: list[Verdict]) -> str:
    """Plain-text table: id, claimed, reproduced, difference, verdict, run id."""
    header = ("binding", "claimed", "reproduced", "difference", "verdict", "run")
    rows = [header]
    for v in verdicts:
        diff = "—" if v.difference is None else f"{v.difference:+.2e}"
        rows.append((v.binding.binding_id, v.claimed.text, format_reproduced(v.reproduced), diff,
                     v.status + (f" ({v.note})" if v.note else ""), v.run_id or "—"))
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(header))]
    lines = ["  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
    passed = sum(v.ok for v in verdicts)
    lines.append(f"{passed} matched, {len(verdicts) - passed} not matched")
    return "\n".join(lines)


def fill_placeholders(argv: tuple[str, ...], values: dict[str, str]) -> list[str]:
    out = []
    for arg in argv:
        for name, value in values.items():
            arg = arg.replace("{" + name + "}", value)
        out.append(arg)
    return out


@dataclass(frozen=True)
class RerunOutcome:
    """What re-running one experiment of a claims file did: exit code 0 ok, -1 none declared."""

    experiment: str
    code: int
    message: str = ""
    workdir: str = ""       # the experiment's fresh work directory (``{workdir}``)


def rerun_experiments(claims: ClaimsFile, log_path: str | Path, workdir: str | Path) -> list[RerunOutcome]:
    """Run each bound experiment's declared steps through the experiment registry.

    Each step is an argument list naming a registered experiment (``["sandbox", "run", ...]``);
    its options are parsed by the experiment's schema (:mod:`engine.experiments`), never by the
    command line, and the run logs itself in ``log_path``. Placeholders: ``{fixtures}`` (bundled
    engine fixtures), ``{here}`` (the claims file's folder), ``{workdir}`` (a fresh directory
    per experiment under ``workdir``), ``{log}`` (the log path). A step that fails stops its
    experiment's remaining steps.
    """
    from engine.experiments import (check_outputs_inside, exit_code, parse_arguments, run_experiment,
                                    split_command)
    from engine.runs.fixtures_path import fixtures_dir
    from engine.runs.runlog import utc_now

    stamp = utc_now().replace(":", "").replace("-", "")
    outcomes = []
    used = {b.experiment for b in claims.bindings}
    for exp_id in sorted(used):
        experiment = claims.experiments[exp_id]
        if not experiment.rerun:
            outcomes.append(RerunOutcome(exp_id, -1))
            continue
        # a fresh directory of its own (mkdtemp: exclusive), so two verifies sharing --rerun-dir
        # within one second never write into the same work dir
        (Path(workdir) / exp_id).mkdir(parents=True, exist_ok=True)
        target = Path(tempfile.mkdtemp(prefix=f"{stamp}-", dir=Path(workdir) / exp_id))
        os.chmod(target, 0o755)
        values = {"fixtures": str(fixtures_dir()), "here": str(Path(claims.path).resolve().parent),
                  "workdir": str(target), "log": str(log_path)}
        outcome = RerunOutcome(exp_id, 0, workdir=str(target))
        for step in experiment.rerun:
            try:
                registered, args = split_command(fill_placeholders(step, values))
                arguments = parse_arguments(registered, args)
                check_outputs_inside(registered, arguments, workdir)
                run_experiment(registered.command, arguments, log=log_path)
            except Exception as exc:  # every failure is reported with its exit code, none hidden
                outcome = RerunOutcome(exp_id, exit_code(exc), " ".join(str(exc).split()) or type(exc).__name__,
                                       str(target))
                break
        if outcome.code != 0 and target.is_dir() and not any(target.iterdir()):
            target.rmdir()  # a failed rerun leaves no empty work dir behind
        outcomes.append(outcome)
    return outcomes
