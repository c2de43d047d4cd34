"""What a chapter's report depends on: the key that decides reuse between two passes.

A chapter's key has seven parts, each a sha256 (or a small map of them):

* ``chapter`` — the chapter file's bytes (so its fingerprint, and everything the reader reads);
* ``claims`` — each bound claims file's bytes, by file name;
* ``runs`` — for each experiment of the claims files, the log record of the run it binds
  (:func:`claims.verify.find_run`; canonical JSON of the whole record, ``None`` when unrun), and
  the binding verdicts read from the log (:func:`claims.verify.verify_bindings`: run id, end
  time, reproduced value, and ``CHANGED`` when a result file no longer has its logged sha256);
* ``references`` — the source records and primary-source searches the report shows (recorded
  look-ups from the sources cache; ``from_cache`` and ``attempts`` are left out: they say how a
  record was obtained, not what it holds);
* ``cited`` — the runs section 6 cites without a binding (:func:`cited_runs`): for each command
  a measured result of the chapter can be reproduced by (``sandbox run``, ``budget run``,
  ``r03 evaluate``; ``notebook run`` for an associated notebook), its latest ok run (every
  notebook run), so a
  reused report never says UNRUN of a command the log now holds a run of;
* ``settings`` — ``offline``, the primary-source search switch, and where the chapter file and
  the log are (absolute paths: the report, ``claims.json`` and ``consistency.json`` name them, so
  after the project is moved a reused report named a log and a chapter that were no longer
  there; now a moved chapter is audited again);
* ``toolkit`` — the sha256 of the reader's, the claims', the sources', the report's and the
  books' own source files and data (the measured-result classifier's weights
  ``claims/kinds_model.json`` among them), so a pass after an upgrade of chapter-audit writes
  every report again.

The report date is *not* part of the key: a reused report is the earlier pass's file, byte for
byte, with the date it was written on (docs/book.md, "Incremental passes").
"""

from __future__ import annotations

from dataclasses import asdict, is_dataclass
from importlib import util
from pathlib import Path
from typing import Any

from engine.runs.hashing import sha256_file, sha256_json
from engine.runs.runlog import newest

CHEAP_PARTS = ("chapter", "claims", "runs", "settings", "toolkit")
PARTS = CHEAP_PARTS + ("references", "cited")
PART_WORDS = {"chapter": "chapter text", "claims": "claims file", "runs": "bound runs",
              "references": "references", "settings": "settings", "toolkit": "chapter-audit's code",
              "cited": "runs cited without a binding"}
TOOLKIT_PACKAGES = ("audit", "claims", "sources", "reports", "templates", "books")
TOOLKIT_SUFFIXES = (".py", ".md", ".toml", ".json")  # .json: the classifier's weights (claims/kinds_model.json)
_DROPPED = {"from_cache", "attempts"}


def toolkit_digest() -> str:
    """sha256 over (package, relative path, sha256) of every source file of the audit side."""
    entries = []
    for package in TOOLKIT_PACKAGES:
        spec = util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            continue
        root = Path(list(spec.submodule_search_locations)[0])
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix in TOOLKIT_SUFFIXES and "__pycache__" not in path.parts:
                entries.append([package, path.relative_to(root).as_posix(), sha256_file(path)])
    return sha256_json(entries)


def plain(value: Any) -> Any:
    """A JSON-able copy of a record (dataclasses by field), without the how-obtained fields."""
    if is_dataclass(value) and not isinstance(value, type):
        value = asdict(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items() if k not in _DROPPED}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def references_digest(sources: list[Any], searches: list[Any]) -> str:
    return sha256_json({"sources": plain(list(sources)), "searches": plain(list(searches))})


def runs_part(claims_files: list[Any], log_path: str | Path, records: list[dict[str, Any]]) -> dict[str, Any]:
    """The bound runs' log records and the verdicts read from them, by claims file and experiment."""
    from claims.verify import find_run, verify_bindings

    out: dict[str, Any] = {}
    for cf in claims_files:
        experiments = {}
        for experiment_id, experiment in sorted(cf.experiments.items()):
            record = find_run(records, experiment)
            experiments[experiment_id] = sha256_json(record) if record is not None else None
        verdicts = [plain(v.as_dict()) for v in verify_bindings(cf, log_path, records)]
        out[Path(cf.path).name] = {"experiments": experiments, "verdicts": sha256_json(verdicts)}
    return out


def cheap_key(chapter_file: Path, claims_paths: tuple[Path, ...], claims_files: list[Any],
              log_path: str | Path, records: list[dict[str, Any]], *, offline: bool, search: bool,
              toolkit: str) -> dict[str, Any]:
    """Every part of the key but ``references`` (those need the claim rows and the sources)."""
    return {
        "chapter": sha256_file(chapter_file),
        "claims": {Path(p).name: sha256_file(p) for p in claims_paths},
        "runs": runs_part(claims_files, log_path, records),
        "settings": {"offline": offline, "search": search,
                     "read_from": {"chapter": str(Path(chapter_file).resolve()),
                                   "log": str(Path(log_path).resolve())}},
        "toolkit": toolkit,
    }


def changed_parts(previous: dict[str, Any] | None, current: dict[str, Any], parts: tuple[str, ...] = PARTS) -> list[str]:
    """The parts of the key that differ (all of them when there is no previous key)."""
    if previous is None:
        return list(parts)
    return [part for part in parts if previous.get(part) != current.get(part)]


def cited_runs(pack: Any, rows: list[Any], records: list[dict[str, Any]]) -> str:
    """sha256 of the commands section 6 may cite for this chapter's measured results (and its
    associated notebook) with the latest ok run id of each (``reports.assess``: "not checked: the
    log holds an ok run of … (latest run …)", or UNRUN) and every logged notebook run."""
    from reports.assess import attribute
    from reports.opportunities import match_capability, notebook_material

    commands = set()
    for row in rows:
        if getattr(row, "kind", "") == "measured result" and getattr(row, "quantities", None):
            capability = match_capability(row.text, claim=True)
            if capability is not None and capability.name != "notebook":
                commands.add(capability.command.split(" / ")[-1].removeprefix("chapter-audit ").strip())
    if notebook_material(pack, attribute) is not None:
        commands.add("notebook run")
    latest = {}
    for command in commands - {"notebook run"}:   # what section 6 prints: the latest ok run id of each
        run = newest([r for r in records if r.get("command") == command and r.get("status") == "ok"])
        if run is not None:
            latest[command] = run.get("run_id")
    notebooks = [[r.get("run_id"), r.get("ended_at"), r.get("status"), sorted(r.get("inputs") or {})]
                 for r in records if "notebook run" in commands and r.get("command") == "notebook run"]
    return sha256_json({"commands": sorted(commands), "latest": latest, "notebooks": notebooks})
