"""The acquisition ledger: from a declared locator population to admitted index records.

Reads a locator manifest (the declared population) and a local acquisition fixture (a
``fixture_manifest.json`` naming, per discovered locator, a file and its media type), actually
reads the fixture files (no network) and counts six stages:

1. **declared**: locators in the locator manifest (frozen before inspection);
2. **discovered**: declared locators that the fixture manifest lists;
3. **attempted**: discovered locators whose ``authorised`` flag is true (one local read each);
4. **usable**: attempted reads that returned bytes of a supported media type
   (:data:`SUPPORTED_MEDIA_TYPES`) that decode as UTF-8;
5. **parsed**: usable responses that yield one title plus a non-empty body
   (JSON ``{"title", "body"}``; text: first line title, the rest body);
6. **admitted**: parsed records with at least one token (:mod:`engine.retrieval.text`) and content not
   already admitted (sha256 of title + body); admitted records get ``D-001``, ``D-002``, … in
   declared-locator order.

Each ratio has its own numerator, denominator and condition (:data:`RATIOS`). There is
deliberately **no single "visibility" percentage**: stage ratios answer different questions,
and none of them is candidate Recall@k, which is query-conditioned and uses qrels as its
denominator. Formats: docs/sandbox.md, "Acquisition ledger".
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from engine.runs.errors import InputError
from engine.runs.hashing import dump_json, sha256_bytes
from engine.runs.manifest import build_manifest, input_hashes
from engine.runs.outdir import check_target, publish, staged_directory
from engine.runs.runlog import DEFAULT_LOG, recorded_run
from engine.retrieval.text import tokenize
from engine.runs.jsonl import read_json_file

COMMAND = "sandbox ledger"
LOCATORS_FORMAT = "chapter-audit/locators@1"
FIXTURE_FORMAT = "chapter-audit/acquisition-fixture@1"
FIXTURE_MANIFEST = "fixture_manifest.json"
LEDGER_FILE = "ledger.json"
LEDGER_MANIFEST = "ledger_manifest.json"
SUPPORTED_MEDIA_TYPES = ("application/json", "text/plain")
STAGES = ("declared", "discovered", "attempted", "usable", "parsed", "admitted")
STAGE_LABELS = {
    "declared": "Declared locator population",
    "discovered": "Discovered by the fixture manifest",
    "attempted": "Authorised fetch attempts (local fixture reads)",
    "usable": "Usable responses",
    "parsed": "Parsed document representations",
    "admitted": "Admitted to the index snapshot",
}
# (name, numerator stage, denominator stage, what the ratio is conditional on)
RATIOS = (
    ("discovery coverage", "discovered", "declared", "the declared locator population"),
    ("usable-response rate", "usable", "attempted", "authorised local reads attempted"),
    ("parse rate", "parsed", "usable", "usable responses"),
    ("index admission", "admitted", "parsed", "parsed representations"),
)
VISIBILITY_NOTE = (
    "No single 'visibility' percentage is reported, and there is no option for one: each stage "
    "ratio answers a different question over its own denominator, and none of them is candidate "
    "Recall@k, which is query-conditioned and uses qrels, not locators, as its denominator."
)


@dataclass
class LocatorRecord:
    """What happened to one declared locator at each stage."""

    locator_id: str
    locator: str
    authorised: bool
    discovered: bool = False
    attempted: bool = False
    usable: bool = False
    parsed: bool = False
    admitted: bool = False
    file: str | None = None
    media_type: str | None = None
    sha256: str | None = None
    outcome: str = "not discovered"
    doc_id: str | None = None
    title: str | None = None


@dataclass
class Ledger:
    snapshot: str
    records: list[LocatorRecord]
    run_id: str = ""
    inputs: dict[str, str] = field(default_factory=dict)

    def stage_ids(self, stage: str) -> list[str]:
        if stage == "declared":
            return [r.locator_id for r in self.records]
        return [r.locator_id for r in self.records if getattr(r, stage)]

    def counts(self) -> dict[str, int]:
        return {stage: len(self.stage_ids(stage)) for stage in STAGES}

    def ratios(self) -> list[dict[str, Any]]:
        counts = self.counts()
        return [{"name": name, "numerator": counts[num], "numerator_stage": num,
                 "denominator": counts[den], "denominator_stage": den, "conditional_on": cond,
                 "value": counts[num] / counts[den] if counts[den] else None}
                for name, num, den, cond in RATIOS]

    def as_dict(self) -> dict[str, Any]:
        counts = self.counts()
        return {
            "run_id": self.run_id,
            "snapshot": self.snapshot,
            "stages": [{"stage": s, "label": STAGE_LABELS[s], "count": counts[s],
                        "locators": self.stage_ids(s)} for s in STAGES],
            "ratios": self.ratios(),
            "statement": statement(counts),
            "note": VISIBILITY_NOTE,
            "records": [asdict(r) for r in self.records],
        }


def statement(counts: dict[str, int]) -> str:
    """The valid end-to-end sentence: counts, not a percentage."""
    return (f"{counts['admitted']} of {counts['declared']} declared locators produced admitted "
            "representations in this constructed acquisition trace.")


def _read_json_object(path: Path, expected_format: str) -> dict[str, Any]:
    value = read_json_file(path)
    if not isinstance(value, dict):
        raise InputError("must be a JSON object", path=path, line=1)
    if value.get("format") != expected_format:
        raise InputError(f"format must be {expected_format!r}, got {value.get('format')!r}",
                         path=path, field="format")
    return value


def _entries(value: dict[str, Any], key: str, path: Path, fields: tuple[str, ...]) -> list[dict[str, Any]]:
    items = value.get(key)
    if not isinstance(items, list):
        raise InputError(f"{key!r} must be a list", path=path, field=key)
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise InputError("must be an object", path=path, field=f"{key}[{i}]")
        for name in fields:
            if not isinstance(item.get(name), str) or not item[name]:
                raise InputError("missing or non-string", path=path, field=f"{key}[{i}].{name}")
    return items


def read_locators(path: str | Path) -> list[LocatorRecord]:
    """The declared population: ``{"format", "locators": [{"locator_id", "locator", "authorised"}]}``."""
    path = Path(path)
    value = _read_json_object(path, LOCATORS_FORMAT)
    records, seen = [], set()
    for i, item in enumerate(_entries(value, "locators", path, ("locator_id", "locator"))):
        if item["locator_id"] in seen:
            raise InputError(f"duplicate locator_id {item['locator_id']!r}", path=path, field=f"locators[{i}]")
        if not isinstance(item.get("authorised"), bool):
            raise InputError("must be true or false", path=path, field=f"locators[{i}].authorised")
        seen.add(item["locator_id"])
        records.append(LocatorRecord(item["locator_id"], item["locator"], item["authorised"]))
    if not records:
        raise InputError("declares no locators", path=path, field="locators")
    return records


def read_fixture_manifest(directory: str | Path, declared: set[str]) -> tuple[str, dict[str, dict[str, Any]]]:
    """``(snapshot, {locator_id: entry})`` from ``DIR/fixture_manifest.json``.

    An entry naming an undeclared locator, a duplicate entry, or a file path leaving the
    directory is an input error (the population is frozen before inspection).
    """
    directory = Path(directory)
    path = directory / FIXTURE_MANIFEST
    value = _read_json_object(path, FIXTURE_FORMAT)
    snapshot = value.get("snapshot")
    if not isinstance(snapshot, str) or not snapshot:
        raise InputError("missing or non-string", path=path, field="snapshot")
    found: dict[str, dict[str, Any]] = {}
    for i, item in enumerate(_entries(value, "entries", path, ("locator_id", "file", "media_type"))):
        where = f"entries[{i}]"
        if item["locator_id"] not in declared:
            raise InputError(f"locator {item['locator_id']!r} is not in the declared population",
                             path=path, field=where)
        if item["locator_id"] in found:
            raise InputError(f"duplicate entry for {item['locator_id']!r}", path=path, field=where)
        target = (directory / item["file"]).resolve()
        if directory.resolve() not in target.parents:
            raise InputError(f"file {item['file']!r} lies outside the fixture directory", path=path, field=where)
        found[item["locator_id"]] = item
    return snapshot, found


def parse_response(data: bytes, media_type: str) -> tuple[str, str] | None:
    """``(title, body)`` of a usable response, or None when it does not yield both."""
    text = data.decode("utf-8")
    if media_type == "application/json":
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            return None
        if not isinstance(value, dict):
            return None
        title, body = value.get("title"), value.get("body")
        if not isinstance(title, str) or not isinstance(body, str):
            return None
    else:
        head, _, rest = text.partition("\n")
        title, body = head, rest
    title, body = title.strip(), " ".join(body.split())
    return (title, body) if title and body else None


def acquire(records: list[LocatorRecord], directory: Path, entries: dict[str, dict[str, Any]]) -> None:
    """Run the stages over the fixture (local reads only), filling each record in place."""
    admitted_hashes: set[str] = set()
    next_doc = 1
    for record in records:
        entry = entries.get(record.locator_id)
        if entry is None:
            continue
        record.discovered = True
        record.file, record.media_type = entry["file"], entry["media_type"]
        if not record.authorised:
            record.outcome = "not authorised"
            continue
        record.attempted = True
        try:
            data = (directory / entry["file"]).read_bytes()
        except OSError as exc:
            record.outcome = f"no response ({exc.strerror})"
            continue
        record.sha256 = sha256_bytes(data)
        if record.media_type not in SUPPORTED_MEDIA_TYPES:
            record.outcome = f"unsupported media type {record.media_type}"
            continue
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            record.outcome = "undecodable response (not UTF-8)"
            continue
        record.usable = True
        parsed = parse_response(data, record.media_type)
        if parsed is None:
            record.outcome = "unparseable (no title plus body)"
            continue
        record.parsed = True
        record.title = parsed[0]
        if not tokenize(f"{parsed[0]} {parsed[1]}"):
            record.outcome = "not admitted (no tokens)"
            continue
        digest = sha256_bytes(f"{parsed[0]}\n{parsed[1]}".encode("utf-8"))
        if digest in admitted_hashes:
            record.outcome = "not admitted (duplicate content)"
            continue
        admitted_hashes.add(digest)
        record.admitted = True
        record.doc_id = f"D-{next_doc:03d}"
        next_doc += 1
        record.outcome = "admitted"


def run_ledger(locators: str | Path, fixtures: str | Path, *, output: str | Path | None = None,
               log: str | Path | None = DEFAULT_LOG) -> Ledger:
    """Validate the manifests, read the fixture, count the stages, log and optionally write ledger.json."""
    locators, fixtures = Path(locators), Path(fixtures)
    records = read_locators(locators)
    snapshot, entries = read_fixture_manifest(fixtures, {r.locator_id for r in records})
    roles: dict[str, Path] = {"locators": locators, "fixture_manifest": fixtures / FIXTURE_MANIFEST}
    for locator_id, entry in sorted(entries.items()):
        if (fixtures / entry["file"]).is_file():
            roles[f"fixture {locator_id}"] = fixtures / entry["file"]
    parameters = {"supported_media_types": list(SUPPORTED_MEDIA_TYPES)}
    manifest = build_manifest(COMMAND, input_hashes(roles), parameters, snapshot=snapshot)
    run_id = manifest["run_id"]
    if output is not None:
        check_target(Path(output), LEDGER_MANIFEST, run_id)
    with recorded_run(log, COMMAND, parameters) as rec:
        rec.run_id = run_id
        rec.add_inputs(*roles.values())
        acquire(records, fixtures, entries)
        ledger = Ledger(snapshot, records, run_id,
                        {entry["path"]: entry["sha256"] for entry in manifest["inputs"].values()})
        if output is not None:
            output = Path(output)
            with staged_directory(output) as staging:
                (staging / LEDGER_FILE).write_text(dump_json(ledger.as_dict()), encoding="utf-8")
                (staging / LEDGER_MANIFEST).write_text(dump_json(manifest), encoding="utf-8")
                publish(staging, output)
            rec.add_outputs(output)
            rec.results = {"ledger": str(output.resolve() / LEDGER_FILE),
                           "manifest": str(output.resolve() / LEDGER_MANIFEST)}
    return ledger


def render_ledger(ledger: Ledger) -> str:
    """The printed table, each ratio with numerator/denominator and condition, and the note."""
    counts = ledger.counts()
    width = max(len(label) for label in STAGE_LABELS.values())
    lines = [f"acquisition ledger {ledger.run_id} (snapshot {ledger.snapshot})",
             f"{'stage':<{width}}  {'count':>5}  locators"]
    for stage in STAGES:
        ids = ledger.stage_ids(stage)
        span = f"{ids[0]}…{ids[-1]}" if len(ids) > 2 else ", ".join(ids)
        lines.append(f"{STAGE_LABELS[stage]:<{width}}  {counts[stage]:>5}  {span}")
    lines.append("")
    lines.append("not carried forward:")
    for record in ledger.records:
        if not record.admitted:
            lines.append(f"  {record.locator_id}: {record.outcome}")
    lines.append("")
    lines.append("stage ratios (each over its own denominator):")
    for ratio in ledger.ratios():
        value = "undefined" if ratio["value"] is None else f"{ratio['value']:.6f}"
        lines.append(f"  {ratio['name']}: {ratio['numerator']}/{ratio['denominator']} = {value}, "
                     f"conditional on {ratio['conditional_on']}")
    lines.append("")
    lines.append(statement(counts))
    lines.append(VISIBILITY_NOTE)
    return "\n".join(lines) + "\n"
