"""One pass over a book: every chapter reused or audited, the index written, the pass logged.

Order (docs/DEVELOPING.md, "A pipeline, in order"):

1. Read the book (:func:`books.layout.read_book`), load every chapter and claims file: any
   defect is one InputError before anything is locked, run or written.
2. Lock ``OUT`` (:func:`engine.runs.outdir.acquire_output_lock`) and read what it holds
   (:func:`books.history.read_previous`): nothing, or earlier passes whose every file still has
   the sha256 their manifest lists (anything else is refused, exit 3).
3. Inside ``recorded_run(log, "book", ...)``: each chapter is a task
   (:func:`books.chapter.audit_chapter`) on the executor (:mod:`engine.runs.executor`: serial,
   or Dask with ``--workers``/``--scheduler``); results come back in book order.
4. A new ``OUT`` is staged whole: reused chapters' files copied byte for byte from the previous
   pass, the others written, ``passes.jsonl`` (the earlier lines, then this pass's), ``index.md``,
   ``index.html`` and ``manifest.json`` (every file's sha256, every task's input and output
   sha256); then published in place of the old one (:func:`engine.runs.outdir.publish`).

So a second pass is the documented incremental update of ``OUT``, never a silent overwrite:
only a directory that a book pass wrote, unchanged since, is replaced, and it is replaced by a
directory that carries its history forward.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from books.chapter import ChapterTask, audit_chapter
from books.history import MANIFEST, PASSES, PreviousPass, pass_line, read_previous
from books.index import render_html, render_markdown
from books.keys import PART_WORDS, toolkit_digest
from books.layout import BookSpec, read_book
from claims.kinds import DEFAULT_KINDS
from engine.runs.errors import RefusalError
from engine.runs.executor import Executor, check_workers, import_distributed, make_executor, task_record
from engine.runs.hashing import dump_json, sha256_bytes, sha256_json
from engine.runs.manifest import build_manifest, input_hashes
from engine.runs.outdir import acquire_output_lock, publish, release_output_lock, staged_directory
from engine.runs.runlog import DEFAULT_LOG, check_log_path, recorded_run

COMMAND = "book"


@dataclass(frozen=True)
class BookOptions:
    directory: Path
    output: Path
    log: Path = DEFAULT_LOG
    offline: bool = False
    report_date: str | None = None
    claims_dir: Path | None = None
    sources_cache: Path = Path(".chapter-audit") / "sources"
    search: bool = True
    workers: int | None = None
    scheduler: str | None = None


@dataclass
class BookResult:
    output: Path
    pass_number: int
    run_id: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unbound_claims: list[str] = field(default_factory=list)

    def summary_lines(self) -> list[str]:
        states = {state: sum(1 for r in self.rows if r["state"] == state) for state in ("new", "changed", "unchanged")}
        lines = [f"{row['number']:>3}  {row['status']:<12} {row['state']:<9} {row['file']}" for row in self.rows]
        lines.append(f"book pass {self.pass_number} ({self.run_id}) -> {self.output}: {len(self.rows)} chapters "
                     f"({states['changed']} changed, {states['unchanged']} unchanged, {states['new']} new"
                     + (f", {len(self.removed)} removed ({', '.join(self.removed)})" if self.removed else "") + "); "
                     f"index: {self.output / 'index.md'}, {self.output / 'index.html'}")
        return lines

    def warning_lines(self) -> list[str]:
        """Lines for stderr: the claims files of the claims directory that no chapter read."""
        return ([f"warning: claims files that bind no chapter (not read; a renamed or deleted chapter's?): "
                 f"{', '.join(self.unbound_claims)}"] if self.unbound_claims else [])


def _within(path: Path, directory: Path) -> bool:
    return path == directory or directory in path.parents


def validate(options: BookOptions) -> BookSpec:
    """Step 1: the whole book read and checked; InputError/RefusalError before anything runs."""
    from audit.pack import load_pack
    from claims.bindings import load_claims_file
    from reports.build import parse_report_date

    check_workers(options.workers, options.scheduler)
    if options.workers is not None or options.scheduler is not None:
        import_distributed()
    parse_report_date(options.report_date)
    check_log_path(options.log)
    book = read_book(options.directory, options.claims_dir)
    for chapter in book.chapters:
        load_pack(chapter.file)
        for claims in chapter.claims:
            load_claims_file(claims)
    output = Path(os.path.realpath(options.output))
    if _within(book.directory, output):
        raise RefusalError(f"{options.output}: the output would hold the book directory itself; choose another --output")
    for what, path in (("--log", options.log), ("--sources-cache", options.sources_cache)):
        if _within(Path(os.path.realpath(path)), output):
            raise RefusalError(f"{path}: {what} lies inside the book output {options.output}, which every pass "
                               "replaces; keep it outside")
    for chapter in book.chapters:
        for path in (chapter.file, *chapter.claims):
            if _within(Path(os.path.realpath(path)), output):
                raise RefusalError(f"{path}: an input lies inside the book output {options.output}")
    return book


def _book_inputs(book: BookSpec) -> dict[str, dict[str, str]]:
    roles: dict[str, Path | None] = {}
    for chapter in book.chapters:
        roles[f"chapter:{chapter.name}"] = chapter.file
        for number, claims in enumerate(chapter.claims, start=1):
            roles[f"claims:{chapter.name}:{number}"] = claims
    if book.book_file is not None:
        roles["book_toml"] = book.book_file
    return input_hashes(roles)


def _task_input(task: ChapterTask) -> dict[str, Any]:
    data = asdict(task)
    return json_safe(data)


def json_safe(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


def run_book(options: BookOptions, executor: Executor | None = None) -> BookResult:
    """One pass (see the module docstring). ``executor`` overrides ``workers``/``scheduler``."""
    from reports.build import parse_report_date

    book = validate(options)
    report_date = parse_report_date(options.report_date)
    output = Path(options.output)
    log = Path(os.path.abspath(options.log))
    toolkit = toolkit_digest()
    inputs = _book_inputs(book)
    acquire_output_lock(output, f"book pass of {book.directory}")
    try:
        previous = read_previous(output)
        pass_number = previous.number + 1
        parameters = {"book": str(book.directory), "offline": options.offline, "date": report_date,
                      "search": options.search, "pass": pass_number,
                      "claims_dir": str(options.claims_dir) if options.claims_dir is not None else None,
                      "previous_run": previous.last.get("run_id") if previous.last else None,
                      "kinds": DEFAULT_KINDS}  # who decides the measured-result kind of every chapter
        manifest = build_manifest(COMMAND, inputs, parameters)
        run_id = manifest["run_id"]
        own_executor = executor is None
        executor = executor or make_executor(options.workers, options.scheduler)
        try:
            with recorded_run(log, COMMAND, parameters) as rec:
                rec.run_id = run_id
                rec.add_inputs(*[entry["path"] for entry in inputs.values()])
                tasks = [ChapterTask(chapter=chapter, log=str(log),
                                     sources_cache=os.path.abspath(options.sources_cache),
                                     offline=options.offline, search=options.search, report_date=report_date,
                                     toolkit=toolkit, pass_number=pass_number, run_id=run_id,
                                     previous=previous.chapter(chapter.name))
                         for chapter in book.chapters]
                outcomes = list(executor.imap(audit_chapter, tasks))
                manifest["executor"] = executor.describe()
                manifest["tasks"] = [task_record(task.chapter.name, _task_input(task), outcome)
                                     for task, outcome in zip(tasks, outcomes)]
                result = _publish(book, output, previous, tasks, outcomes, manifest, report_date)
                rec.add_outputs(output)
                rec.results = {"index": str(output.resolve() / "index.md"),
                               "html": str(output.resolve() / "index.html"),
                               "passes": str(output.resolve() / PASSES),
                               "manifest": str(output.resolve() / MANIFEST)}
        finally:
            if own_executor:
                executor.close()
        return result
    finally:
        release_output_lock(output)


def _publish(book: BookSpec, output: Path, previous: PreviousPass, tasks: list[ChapterTask],
             outcomes: list[dict[str, Any]], manifest: dict[str, Any], report_date: str) -> BookResult:
    from engine.runs.jsonl import loads_json

    files: dict[str, bytes] = {}
    rows: list[dict[str, Any]] = []
    chapters_entry: list[dict[str, Any]] = []
    for task, outcome in zip(tasks, outcomes):
        chapter = task.chapter
        base = f"chapters/{chapter.name}"
        if outcome["reused"]:
            old = output / "chapters" / chapter.name
            for path in sorted(p for p in old.rglob("*") if p.is_file()):
                files[f"{base}/{path.relative_to(old).as_posix()}"] = path.read_bytes()
            summary = loads_json(files[f"{base}/summary.json"].decode("utf-8"), old / "summary.json")
        else:
            for name, text in sorted(outcome["files"].items()):
                files[f"{base}/{name}"] = text.encode("utf-8")
            summary = outcome["summary"]
        prior = task.previous
        state = "new" if prior is None else ("unchanged" if outcome["reused"] else "changed")
        row = {"number": chapter.number, "title": chapter.title, "file": chapter.file.name, "name": chapter.name,
               "fingerprint": summary["fingerprint"], "fingerprint_status": summary["fingerprint_status"],
               "previous_fingerprint": prior.get("fingerprint") if prior else None,
               "status": summary["status"], "counts": summary["counts"], "state": state,
               "changed": [PART_WORDS[p] for p in outcome["changed"]] if state == "changed" else [],
               "written_in_pass": summary["written_in_pass"], "report": f"{base}/report.md"}
        rows.append(row)
        chapters_entry.append({
            "name": chapter.name, "file": chapter.file.name, "title": chapter.title, "state": state,
            "changed": outcome["changed"] if state == "changed" else [], "fingerprint": summary["fingerprint"],
            "previous_fingerprint": row["previous_fingerprint"], "written_in_pass": summary["written_in_pass"],
            "report_sha256": sha256_bytes(files[f"{base}/report.md"]), "status": summary["status"],
            "counts": summary["counts"], "key": outcome["key"]})
    names = {task.chapter.name for task in tasks}
    last = previous.last
    # chapters of the previous pass that are gone (a rename is one gone and one new): named in the
    # index and the pass record, never dropped silently
    gone = sorted((e for e in (last or {}).get("chapters", []) if e["name"] not in names), key=lambda e: e["name"])
    removed = [e["name"] for e in gone]
    removed_chapters = [{"name": e["name"], "file": e.get("file", e["name"]), "title": e.get("title"),
                         "fingerprint": e.get("fingerprint"), "last_pass": last["pass"]} for e in gone]
    book_info = {"title": book.title, "pass": manifest["parameters"]["pass"], "date": report_date,
                 "run_id": manifest["run_id"], "removed": removed, "removed_chapters": removed_chapters,
                 "unlisted": list(book.unlisted), "unbound_claims": list(book.unbound_claims),
                 "previous_pass": {"pass": last["pass"], "date": last["date"], "run_id": last["run_id"]} if last else None}
    history = b"".join(pass_line(p).encode("utf-8") for p in previous.passes)
    history += pass_line({"pass": book_info["pass"], "run_id": manifest["run_id"], "date": report_date,
                          "title": book.title, "chapters": chapters_entry, "removed": removed,
                          "removed_chapters": removed_chapters, "unlisted": list(book.unlisted),
                          **({"unbound_claims": list(book.unbound_claims)} if book.unbound_claims else {})}
                         ).encode("utf-8")
    files[PASSES] = history
    files["index.md"] = render_markdown(book_info, rows).encode("utf-8")
    files["index.html"] = render_html(book_info, rows).encode("utf-8")
    manifest["pass"] = book_info["pass"]
    manifest["outputs"] = {name: sha256_bytes(data) for name, data in sorted(files.items())}
    manifest["index_sha256"] = sha256_json(rows)
    with staged_directory(output) as staging:
        for name, data in files.items():
            target = staging / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        (staging / MANIFEST).write_text(dump_json(manifest), encoding="utf-8")
        publish(staging, output)
    return BookResult(output=output, pass_number=book_info["pass"], run_id=manifest["run_id"], rows=rows,
                      removed=removed, unbound_claims=list(book.unbound_claims))
