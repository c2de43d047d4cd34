"""Claims files: TOML that binds a claimed number to a result key of a logged run.

Format (documented in docs/verify.md)::

    [experiment.w03-sandbox]
    command = "sandbox run"                 # the log record's command
    result = "metrics"                      # which entry of the record's ``results``
    description = "..."
    rerun = [["sandbox", "run", "--corpus", "{fixtures}/l03/corpus.jsonl", ...]]
    [experiment.w03-sandbox.match]          # parameters the record must carry
    k = 3
    [experiment.w03-sandbox.inputs]         # optional: input content hashes by role the run must have read
    qrels = "37d0d943…"                     # sha256 of the file (of {relative path: sha256} for a directory)

    [[binding]]
    id = "w03-macro-bm25-recall"
    experiment = "w03-sandbox"
    quote = "macro Recall@3 of 0.888889"    # the words of the claim, as printed
    claimed = "0.888889"                    # the number as printed (also "2/4", "1,298", "83.3%", "[3429, 3449]")
    key = "macro.bm25.recall@3"             # dot path into the result file
    result = "metrics"                      # optional: overrides the experiment's result entry
    tolerance = 5e-7                        # optional: default from the printed precision

    [[binding]]                             # a number inside printed text (a notebook cell)
    id = "nb-recall"
    experiment = "nb"
    claimed = "0.8333"
    result = "outputs"
    key = "cells.12.text"                   # optional with a pattern: without it every cell's text is searched
    pattern = 'Recall@3: ([0-9.]+)'         # a regular expression with exactly one group

The default tolerance is half a unit in the last printed decimal of ``claimed``
(``0.888889`` → 5e-7, ``0.7656`` → 5e-5, ``1,298`` → 0.5); a number in scientific notation is
compared at half a unit of its mantissa's last digit (``2.5e-3`` → 0.0025 ± 5e-5,
``3×10^-4`` → 0.0003 ± 5e-5, ``1.2E+06`` → 1,200,000 ± 50,000); a fraction ``k/N`` is compared
with ``k/N`` exactly (1e-12); a list or string is compared exactly.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.runs.errors import InputError
from engine.runs.jsonl import read_text_file

NUMBER = re.compile(r"^[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d+))?%?$")
SCIENTIFIC = re.compile(r"^(?P<sign>[-+−]?)(?P<mantissa>\d+(?:\.(?P<decimals>\d+))?)"
                        r"(?:[eE](?P<e>[-+−]?\d+)|\s?[×x*·]\s?10(?:\^|\*\*)(?P<t>[-+−]?\d+))$")
EXPERIMENT_ID = re.compile(r"[A-Za-z0-9_.-]+")
FRACTION = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")
SHA256 = re.compile(r"[0-9a-fA-F]{64}")


@dataclass(frozen=True)
class Experiment:
    experiment_id: str
    command: str
    result: str
    description: str = ""
    match: dict[str, Any] = field(default_factory=dict)
    rerun: tuple[tuple[str, ...], ...] = ()
    success: str = ""
    failure: str = ""
    inputs: dict[str, str] = field(default_factory=dict)   # role -> sha256 the run's input must have


@dataclass(frozen=True)
class Binding:
    binding_id: str
    experiment: str
    quote: str
    claimed: str
    key: str
    result: str | None = None
    tolerance: float | None = None
    pattern: str | None = None


@dataclass(frozen=True)
class ClaimedValue:
    """A printed value parsed into what it asserts."""

    text: str
    kind: str                  # "number" | "fraction" | "list" | "text"
    value: Any
    tolerance: float


@dataclass(frozen=True)
class ClaimsFile:
    path: Path
    experiments: dict[str, Experiment]
    bindings: tuple[Binding, ...]


def parse_claimed(text: str, tolerance: float | None = None) -> ClaimedValue:
    """Parse a printed value; the tolerance follows its printed precision unless given."""
    stripped = text.strip()
    fraction = FRACTION.match(stripped)
    if fraction:
        numerator, denominator = int(fraction.group(1)), int(fraction.group(2))
        if denominator == 0:
            raise ValueError(f"fraction with zero denominator: {text!r}")
        return ClaimedValue(stripped, "fraction", numerator / denominator,
                            1e-12 if tolerance is None else tolerance)
    if stripped.startswith("["):
        items = [item.strip() for item in stripped.strip("[]").split(",") if item.strip()]
        values = [_scalar(item) for item in items]
        return ClaimedValue(stripped, "list", values, 0.0 if tolerance is None else tolerance)
    scientific = SCIENTIFIC.match(stripped)
    if scientific:
        exponent = int((scientific.group("e") or scientific.group("t")).replace("−", "-"))
        sign = "-" if scientific.group("sign") in ("-", "−") else ""
        value = float(f"{sign}{scientific.group('mantissa')}e{exponent}")
        decimals = len(scientific.group("decimals") or "")
        default = 0.5 * 10.0 ** (exponent - decimals)
        return ClaimedValue(stripped, "number", value, default if tolerance is None else tolerance)
    number = NUMBER.match(stripped)
    if number and any(ch.isdigit() for ch in stripped):
        decimals = len(number.group(1) or "")
        percent = stripped.endswith("%")
        value = float(stripped.replace(",", "").replace("%", "").replace("−", "-"))
        scale = 0.01 if percent else 1.0
        default = 0.5 * 10.0 ** (-decimals) * scale
        return ClaimedValue(stripped, "number", value * scale, default if tolerance is None else tolerance)
    return ClaimedValue(stripped, "text", stripped, 0.0)


def _scalar(item: str) -> Any:
    try:
        as_float = float(item)
    except ValueError:
        return item.strip("'\"")
    return int(as_float) if as_float.is_integer() and "." not in item else as_float


def load_claims_file(path: str | Path) -> ClaimsFile:
    """Read and validate a claims TOML file; every defect names the file and the field."""
    from engine.runs.opener import resolve_input

    path = Path(path)   # '-' is standard input; gzip and a BOM as every input (engine.runs.opener)
    text = read_text_file(resolve_input(path))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+)", str(exc))   # Python < 3.14 has no exc.lineno
        line = getattr(exc, "lineno", None) or (int(found.group(1)) if found else None)
        raise InputError(f"invalid TOML ({str(exc).split(' (at')[0]})", path=path, line=line)
    except RecursionError:
        raise InputError("invalid TOML (nested too deeply)", path=path)
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise InputError(f"invalid TOML ({' '.join(str(exc).split())[:120]})", path=path)
    if not isinstance(data.get("experiment", {}), dict) or not isinstance(data.get("binding", []), list):
        raise InputError("'experiment' must be a table and 'binding' an array of tables", path=path)
    _known_keys(data, TOP_KEYS, path, "", text)
    experiments: dict[str, Experiment] = {}
    for exp_id, body in (data.get("experiment") or {}).items():
        if not EXPERIMENT_ID.fullmatch(exp_id) or set(exp_id) == {"."}:
            raise InputError("experiment ids are made of A-Z a-z 0-9 _ . - (and not only dots): they name "
                             "directories under --rerun-dir", path=path, field=f"experiment.{exp_id}")
        if not isinstance(body, dict):
            raise InputError("must be a table", path=path, field=f"experiment.{exp_id}")
        _known_keys(body, EXPERIMENT_KEYS, path, f"experiment.{exp_id}", text)
        for name in ("command", "result"):
            if not isinstance(body.get(name), str):
                raise InputError("missing or not a string", path=path, field=f"experiment.{exp_id}.{name}")
        rerun = body.get("rerun", [])
        if not isinstance(rerun, list) or not all(
                isinstance(step, list) and all(isinstance(a, str) for a in step) for step in rerun):
            raise InputError("must be a list of argument lists", path=path, field=f"experiment.{exp_id}.rerun")
        if not isinstance(body.get("match", {}), dict):
            raise InputError("must be a table", path=path, field=f"experiment.{exp_id}.match")
        pins = body.get("inputs", {})
        if not isinstance(pins, dict):
            raise InputError("must be a table of role = sha256", path=path, field=f"experiment.{exp_id}.inputs")
        for role, digest in pins.items():
            if not isinstance(digest, str) or not SHA256.fullmatch(digest):
                raise InputError("must be a sha256 (64 hex digits)", path=path,
                                 field=f"experiment.{exp_id}.inputs.{role}")
        experiments[exp_id] = Experiment(
            experiment_id=exp_id, command=body["command"], result=body["result"],
            description=str(body.get("description", "")), match=dict(body.get("match", {})),
            rerun=tuple(tuple(step) for step in rerun),
            success=str(body.get("success", "")), failure=str(body.get("failure", "")),
            inputs={role: digest.lower() for role, digest in pins.items()})
    bindings = []
    seen: set[str] = set()
    for index, body in enumerate(data.get("binding") or [], start=1):
        where = f"binding[{index}]"
        if not isinstance(body, dict):
            raise InputError("must be a table", path=path, field=where)
        _known_keys(body, BINDING_KEYS, path, where, text)
        if body.get("result") is not None and not isinstance(body["result"], str):
            raise InputError("must be a string", path=path, field=f"{where}.result")
        pattern = _pattern(body, path, where)
        key_optional = pattern is not None and "key" not in body  # a pattern alone searches every cell
        for name in ("id", "experiment", "claimed") if key_optional else ("id", "experiment", "claimed", "key"):
            if not isinstance(body.get(name), str) or not body[name].strip():
                raise InputError("missing or not a string", path=path, field=f"{where}.{name}")
        if body["id"] in seen:
            raise InputError(f"duplicate binding id {body['id']!r}", path=path, field=f"{where}.id")
        seen.add(body["id"])
        if body["experiment"] not in experiments:
            raise InputError(f"names unknown experiment {body['experiment']!r}", path=path,
                             field=f"{where}.experiment")
        tolerance = body.get("tolerance")
        if tolerance is not None and (isinstance(tolerance, bool) or not isinstance(tolerance, (int, float))
                                      or not math.isfinite(tolerance) or tolerance < 0):
            raise InputError("must be a finite non-negative number", path=path, field=f"{where}.tolerance")
        try:
            parse_claimed(body["claimed"])
        except OverflowError:   # its str is "(34, 'Numerical result out of range')"
            raise InputError(f"{body['claimed']!r} is out of the range of numbers that can be compared",
                             path=path, field=f"{where}.claimed") from None
        except ValueError as exc:
            raise InputError(str(exc), path=path, field=f"{where}.claimed")
        bindings.append(Binding(
            binding_id=body["id"], experiment=body["experiment"], quote=str(body.get("quote", "")),
            claimed=body["claimed"], key=body.get("key", ""), result=body.get("result"),
            tolerance=float(tolerance) if tolerance is not None else None, pattern=pattern))
    if not bindings:
        raise InputError("claims file holds no [[binding]] entries", path=path)
    return ClaimsFile(path=path, experiments=experiments, bindings=tuple(bindings))


TOP_KEYS = ("experiment", "binding")
EXPERIMENT_KEYS = ("command", "result", "description", "success", "failure", "rerun", "match", "inputs")
BINDING_KEYS = ("id", "experiment", "quote", "claimed", "key", "result", "tolerance", "pattern")


def _known_keys(table: dict[str, Any], known: tuple[str, ...], path: Path, where: str, text: str) -> None:
    """Refuse a key the format does not define (docs/verify.md, "Format"), naming its line: a
    misspelt ``[experiment.X.macth]`` or ``tolerence`` was ignored, so the experiment was identified
    without its parameters and verify read another run's value as a MATCH."""
    for name in table:
        if name not in known:
            field = f"{where}.{name}" if where else name
            bare = re.escape(name)
            found = re.search(rf"^\s*(?:\[+\s*[^\]]*\b{bare}\s*\]+|[\"']?{bare}[\"']?\s*=)", text, re.M)
            line = text.count("\n", 0, found.start()) + 1 if found else None
            raise InputError(f"field {field!r}: unknown key {name!r} (known here: {', '.join(known)})",
                             path=path, line=line)


def _pattern(body: dict[str, Any], path: Path, where: str) -> str | None:
    """A binding's ``pattern``: a regular expression with exactly one group, or None."""
    if "pattern" not in body:
        return None
    pattern = body["pattern"]
    if not isinstance(pattern, str) or not pattern:
        raise InputError("must be a non-empty string", path=path, field=f"{where}.pattern")
    try:
        groups = re.compile(pattern).groups
    except re.error as exc:
        raise InputError(f"invalid regular expression ({exc})", path=path, field=f"{where}.pattern") from None
    if groups != 1:
        raise InputError(f"must have exactly one group, has {groups}", path=path, field=f"{where}.pattern")
    return pattern


def bundled_claims_dir() -> Path:
    """Directory of the claims files shipped with the package (W03, R03 mini cases, demo)."""
    return Path(__file__).resolve().parent / "bindings"
