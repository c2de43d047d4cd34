"""`chapter-audit book`: a whole book, its index, and incremental passes by key (docs/book.md).

The test book (tests/data/book/, nine chapters: packs and Markdown, four with claims files that
bind the L03 sandbox run logged here) is audited once; a second pass after one chapter changes
must mark only that chapter changed and leave every other chapter's files byte-identical.
Expected counts are read off the chapters by hand: chapter 3 (the bundled example) prints 0.889
where the run gives 0.888438 and binds an R03 experiment nobody ran; chapter 4 prints 0.8885
(the run rounds to 0.8884); chapter 6's "Average" row says 0.8660 where its cells average 0.8560.
"""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from audit.fingerprint import check_file
from books.run import BookOptions, run_book
from engine.experiments import run_experiment
from engine.runs.errors import InputError, RefusalError
from engine.runs.fixtures_path import fixtures_dir

BOOK = Path(__file__).parent / "data" / "book"
DATE = "2026-12-01"

EXPECTED = {  # file: (status, contradicted, unverified, unrun, retracted, inconsistent)
    "01-why-measure.md": ("UNVERIFIED", 0, 2, 0, 0, 0),
    "02-bm25-baseline.txt": ("UNVERIFIED", 0, 2, 0, 0, 0),
    "03-candidate-recall.txt": ("CONTRADICTED", 1, 5, 1, 0, 0),
    "04-fusion.md": ("CONTRADICTED", 1, 0, 0, 0, 1),  # its planted 0.8885 also disagrees with its own table (0.888438 rounds to 0.8884): a prose number printed at fewer decimals than its cell is compared since stop 29
    "05-reranking.md": ("NO-FLAGS", 0, 0, 0, 0, 0),
    "06-reporting-tables.md": ("INCONSISTENT", 0, 0, 0, 0, 1),
    "07-acquisition.txt": ("UNVERIFIED", 0, 2, 0, 0, 0),
    "08-limits.md": ("NO-FLAGS", 0, 0, 0, 0, 0),
    "09-glossary.txt": ("NO-FLAGS", 0, 0, 0, 0, 0),
}


def sandbox(workdir: Path, log: Path) -> None:
    l03 = fixtures_dir() / "l03"
    run_experiment("sandbox run", dict(
        corpus=l03 / "corpus.jsonl", topics=l03 / "topics.jsonl", qrels=l03 / "qrels.txt",
        dense_run=l03 / "supplied_run.tsv", dense_metadata=l03 / "supplied_run_metadata.json",
        output=workdir, k=3, candidate_depth=5, hybrid_alpha=0.55, rerank_weight=0.25), log=log)


@pytest.fixture()
def book(tmp_path):
    """A copy of the test book, a log holding one sandbox run, and the pass options."""
    directory = tmp_path / "book"
    shutil.copytree(BOOK, directory)
    log = tmp_path / "log.jsonl"
    sandbox(tmp_path / "sandbox", log)
    options = BookOptions(directory=directory, output=tmp_path / "out", log=log, offline=True,
                          report_date=DATE, sources_cache=tmp_path / "cache")
    return options


def files_of(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.sources: list[str] = []
        self.rows = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a":
            self.hrefs.append(attrs["href"])
        if "src" in attrs or (tag == "link"):
            self.sources.append(tag)
        if tag == "tr" and "data-number" in attrs:
            self.rows += 1


def test_first_pass_writes_every_report_and_both_indexes(book):
    result = run_book(book)
    out = book.output
    assert result.pass_number == 1 and [r["state"] for r in result.rows] == ["new"] * 9
    index = (out / "index.md").read_text(encoding="utf-8")
    rows = [line for line in index.splitlines() if re.match(r"^\| \d+ \|", line)]
    assert len(rows) == 9
    for row, (file, expected) in zip(rows, EXPECTED.items()):
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        fingerprint = check_file(book.directory / file).computed
        assert cells[2] == file
        assert cells[3].startswith(fingerprint + " (")           # the full fingerprint, as computed alone
        assert cells[4] == expected[0]
        assert [int(c) for c in cells[6:11]] == [expected[1], expected[2], expected[3], expected[4], expected[5]]
        report = out / "chapters" / file / "report.md"
        assert cells[-1] == f"[report](chapters/{file}/report.md)" and report.is_file()
        text = report.read_text(encoding="utf-8")
        assert "## 7. Review checklist" in text
        assert "| research history | book pass 1 (2026-12-01, run " in text
    # chapter 2 binds five numbers, all reproduced; chapter 4's fourth binding is the contradiction
    verdicts = json.loads((out / "chapters/02-bm25-baseline.txt/verify.json").read_text())
    assert [v["verdict"] for v in verdicts] == ["MATCH"] * 5
    fusion = json.loads((out / "chapters/04-fusion.md/verify.json").read_text())
    assert [v["verdict"] for v in fusion] == ["MATCH", "MATCH", "MATCH", "MISMATCH"]
    assert fusion[3]["reproduced"] == pytest.approx(0.8884384153476468, abs=1e-12)
    assert not (out / "chapters/01-why-measure.md/verify.json").exists()   # nothing binds it
    consistency = json.loads((out / "chapters/06-reporting-tables.md/consistency.json").read_text())
    assert consistency["summary"]["fail"] == 1
    # the HTML page: one row per chapter, every link resolves, nothing fetched from anywhere
    page = (out / "index.html").read_text(encoding="utf-8")
    parser = Links()
    parser.feed(page)
    assert parser.rows == 9 and parser.sources == []
    assert all((out / href).is_file() for href in parser.hrefs) and len(parser.hrefs) == 10  # 9 reports + index.md
    assert "default-src 'none'" in page and page.count("<svg") == 9
    passes = (out / "passes.jsonl").read_text().splitlines()
    assert len(passes) == 1 and json.loads(passes[0])["run_id"] == result.run_id
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["outputs"] == {k: v for k, v in
                                   {n: __import__("hashlib").sha256(b).hexdigest() for n, b in files_of(out).items()}.items()
                                   if k != "manifest.json"}
    assert [t["task"] for t in manifest["tasks"]] == list(EXPECTED)
    assert manifest["parameters"]["kinds"] == "model"  # who decided the measured-result kinds
    record = [json.loads(line) for line in book.log.read_text().splitlines()][-1]
    assert record["command"] == "book" and record["status"] == "ok" and record["run_id"] == result.run_id


def test_second_pass_marks_only_the_changed_chapter(book):
    run_book(book)
    before = files_of(book.output)
    limits = book.directory / "08-limits.md"
    old_fp = check_file(limits).computed
    limits.write_text(limits.read_text() + "\nA closed sandbox is where a method is understood, not where it is judged.\n")
    new_fp = check_file(limits).computed
    later = BookOptions(**{**book.__dict__, "report_date": "2026-12-02"})
    result = run_book(later)
    after = files_of(book.output)
    assert result.pass_number == 2
    assert [r["state"] for r in result.rows] == ["unchanged"] * 7 + ["changed", "unchanged"]
    for name, data in before.items():
        if name.startswith("chapters/") and not name.startswith("chapters/08-limits.md/"):
            assert after[name] == data, name          # byte for byte, report date of pass 1 included
    assert after["chapters/08-limits.md/report.md"] != before["chapters/08-limits.md/report.md"]
    report = after["chapters/08-limits.md/report.md"].decode()
    first_run = json.loads(before["passes.jsonl"])["run_id"]
    assert (f"differs from book pass 1 (2026-12-01, run {first_run}) in: chapter text; "
            f"fingerprint {old_fp} → {new_fp}") in report
    row = next(line for line in after["index.md"].decode().splitlines() if "08-limits.md" in line)
    assert f"changed: chapter text; fingerprint {old_fp[:12]} → {new_fp[:12]}" in row
    assert "unchanged (report of pass 1)" in next(l for l in after["index.md"].decode().splitlines() if "05-reranking" in l)
    passes = [json.loads(line) for line in after["passes.jsonl"].decode().splitlines()]
    assert [p["pass"] for p in passes] == [1, 2] and after["passes.jsonl"].startswith(before["passes.jsonl"])
    assert passes[1]["chapters"][7]["previous_fingerprint"] == old_fp


def test_a_new_run_of_a_bound_experiment_changes_exactly_the_chapters_it_binds(book, tmp_path):
    run_book(book)
    sandbox(tmp_path / "sandbox-again", book.log)   # same figures, but a newer run: the binding reads it
    result = run_book(book)
    changed = [r["file"] for r in result.rows if r["state"] == "changed"]
    assert changed == ["02-bm25-baseline.txt", "03-candidate-recall.txt", "04-fusion.md", "05-reranking.md"]
    assert all(r["changed"] == ["bound runs"] for r in result.rows if r["state"] == "changed")


def test_a_user_edit_in_the_output_is_refused_and_kept(book):
    run_book(book)
    report = book.output / "chapters" / "01-why-measure.md" / "report.md"
    report.write_text(report.read_text() + "\nmy note\n")
    with pytest.raises(RefusalError, match="changed since book pass 1"):
        run_book(book)
    assert report.read_text().endswith("my note\n")
    report.unlink()
    with pytest.raises(RefusalError, match="was removed"):
        run_book(book)


def test_an_occupied_output_is_refused(book):
    book.output.mkdir()
    (book.output / "notes.txt").write_text("mine")
    with pytest.raises(RefusalError, match="holds no readable manifest.json"):
        run_book(book)
    assert (book.output / "notes.txt").read_text() == "mine"


def test_a_log_inside_the_output_is_refused(book):
    with pytest.raises(RefusalError, match="--log lies inside the book output"):
        run_book(BookOptions(**{**book.__dict__, "log": book.output / "log.jsonl"}))


@pytest.mark.parametrize("text, message", [
    ('[[chapter]]\nfile = "missing.md"\n', "book.toml: field 'chapter[1].file': no such file 'missing.md'"),
    ('[[chapter]]\nfile = "01-why-measure.md"\nclaim = ["x"]\n', "field 'chapter[1].claim': unknown key(s) ['claim']"),
    ('[[chapter]]\nfile = "../outside.md"\n', "must be a path inside the book directory"),
    ('[[chapter]\n', "book.toml:1: invalid TOML"),
    ('title = "x"\n', "lists no [[chapter]] tables"),
    ('[[chapter]]\nfile = "01-why-measure.md"\n[[chapter]]\nfile = "01-why-measure.md"\n', "again (first as chapter[1])"),
])
def test_bad_book_toml_is_one_line_and_writes_nothing(book, text, message):
    (book.directory / "book.toml").write_text(text)
    with pytest.raises(InputError) as caught:
        run_book(book)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert not book.output.exists()


def test_without_book_toml_chapters_are_the_files_and_claims_are_found_by_name(book):
    (book.directory / "book.toml").unlink()
    shutil.move(book.directory / "claims" / "05-reranking.toml", book.directory / "05-reranking.claims.toml")
    result = run_book(book)
    assert [r["file"] for r in result.rows] == sorted(EXPECTED)
    titles = {r["file"]: r["title"] for r in result.rows}
    assert titles["05-reranking.md"] == "A transparent reranker"          # its first heading
    assert titles["09-glossary.txt"] == "09-glossary.txt"                  # no heading: its file name
    verdicts = json.loads((book.output / "chapters/05-reranking.md/verify.json").read_text())
    assert [v["verdict"] for v in verdicts] == ["MATCH", "MATCH"]
    assert not (book.output / "chapters/02-bm25-baseline.txt/verify.json").exists()  # its claims file is not by name


def test_unlisted_chapter_files_are_named_in_the_index(book):
    (book.directory / "10-appendix.md").write_text("# Appendix\n\nNothing measured here.\n")
    run_book(book)
    assert "Chapter files not listed in book.toml (not audited): 10-appendix.md." in (book.output / "index.md").read_text()


def test_workers_without_the_extra_is_one_line_naming_it(book, monkeypatch):
    import builtins

    real = builtins.__import__

    def no_distributed(name, *args, **kwargs):
        if name == "distributed" or name.startswith("distributed."):
            raise ImportError("No module named 'distributed'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_distributed)
    with pytest.raises(InputError, match=r"optional extra \[distributed\].*pip install 'chapter-audit\[distributed\]'"):
        run_book(BookOptions(**{**book.__dict__, "workers": 2}))
    assert not book.output.exists()


def test_the_command_line(book):
    from typer.testing import CliRunner

    from cli import app

    runner = CliRunner()
    argv = ["book", str(book.directory), "-o", str(book.output), "--log", str(book.log), "--offline",
            "--date", DATE, "--sources-cache", str(book.sources_cache)]
    first = runner.invoke(app, argv)
    assert first.exit_code == 0, first.output
    assert "book pass 1" in first.output and "9 new" in first.output
    second = runner.invoke(app, argv)
    assert second.exit_code == 0 and "9 unchanged" in second.output
    bad = runner.invoke(app, argv + ["--workers", "0"])
    assert bad.exit_code == 2 and "--workers" in bad.output


def test_titles_and_names_cannot_inject_markup(book):
    (book.directory / "book.toml").write_text(
        '[[chapter]]\nfile = "01-why-measure.md"\ntitle = "<script>alert(1)</script> | [x](javascript:y)"\n')
    run_book(book)
    page = (book.output / "index.html").read_text()
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt; | [x](javascript:y)" in page
    row = next(l for l in (book.output / "index.md").read_text().splitlines() if l.startswith("| 1 |"))
    assert row.count(" | ") == 12 and "\\<script\\>" in row and "\\[x\\](javascript:y)" in row
    assert "Chapter files not listed in book.toml" in (book.output / "index.md").read_text()


def test_a_newly_recorded_source_changes_exactly_the_chapters_citing_it(book):
    from sources.cache import SourceCache
    from sources.records import SourceRecord

    run_book(book)
    SourceCache(book.sources_cache).put(SourceRecord(
        kind="doi", identifier="10.1561/1500000019", description="", url="https://doi.org/10.1561/1500000019",
        status="VERIFIED", verified={"title": "The Probabilistic Relevance Framework: BM25 and Beyond",
                                     "authors": ["Stephen Robertson", "Hugo Zaragoza"], "issued": "2009"},
        accessed_at="2026-11-30T10:00:00Z"))
    result = run_book(book)
    changed = {r["file"]: r["changed"] for r in result.rows if r["state"] == "changed"}
    # chapters 2 and 3 list that DOI among their sources; chapter 1 links it in Markdown (read as a
    # source only by a reader that takes a Markdown chapter's own links), 4-9 do not cite it
    assert {"02-bm25-baseline.txt", "03-candidate-recall.txt"} <= set(changed) <= \
        {"01-why-measure.md", "02-bm25-baseline.txt", "03-candidate-recall.txt"}
    assert all(parts == ["references"] for parts in changed.values())
    rows = {r["file"]: r for r in result.rows}
    assert rows["02-bm25-baseline.txt"]["counts"]["unverified"] == 1   # was 2


@pytest.mark.parametrize("name, content, message", [
    ("10-empty.md", "", "10-empty.md: chapter snapshot holds no prose"),
    ("10-blank.txt", "\n  \n", "10-blank.txt: chapter snapshot holds no prose"),
])
def test_a_bad_chapter_is_one_line_before_anything_runs(book, name, content, message):
    (book.directory / "book.toml").unlink()
    (book.directory / name).write_text(content)
    lines_before = book.log.read_text().count("\n")
    with pytest.raises(InputError) as caught:
        run_book(book)
    assert str(caught.value).endswith(message) and "\n" not in str(caught.value)
    assert not book.output.exists() and book.log.read_text().count("\n") == lines_before   # not a run: not logged


def test_a_retracted_source_is_counted_from_its_crossref_update():
    """The index's retracted count reads the record's Crossref update (sources.records), not its status."""
    from types import SimpleNamespace

    from books.chapter import counts_of
    from sources.records import VERIFIED, SourceRecord

    def record(updates):
        return SourceRecord(kind="doi", identifier="10.1/x", description="d", url="https://doi.org/10.1/x",
                            status=VERIFIED, verified={"updated_by": updates})

    sources = [record([{"type": "retraction", "DOI": "10.1/notice"}]), record([{"type": "correction"}]), record([])]
    inputs = SimpleNamespace(verdicts=[], claims_files=[], sources=sources, consistency=[])
    counts = counts_of(inputs, [])
    assert counts["retracted"] == 1 and counts["unverified"] == 0


def test_a_removed_or_renamed_chapter_is_named_in_the_index_and_the_pass_record(tmp_path):
    """A chapter of the previous pass that is gone is named (md, html, passes.jsonl, the printed
    summary); a rename is one chapter gone and one new."""
    directory = tmp_path / "small"
    directory.mkdir()
    for name in ("01-why-measure.md", "08-limits.md", "09-glossary.txt"):
        shutil.copy(BOOK / name, directory / name)
    options = BookOptions(directory=directory, output=tmp_path / "out", log=tmp_path / "log.jsonl", offline=True,
                          report_date=DATE, sources_cache=tmp_path / "cache")
    first = run_book(options)
    titles = {r["file"]: r["title"] for r in first.rows}
    (directory / "08-limits.md").rename(directory / "08-bounds.md")
    (directory / "09-glossary.txt").unlink()
    second = run_book(options)
    assert [(r["file"], r["state"]) for r in second.rows] == [("01-why-measure.md", "unchanged"),
                                                              ("08-bounds.md", "new")]
    assert second.removed == ["08-limits.md", "09-glossary.txt"]
    out = files_of(options.output)
    index_md, index_html = out["index.md"].decode(), out["index.html"].decode()
    assert "since pass 1 (2026-12-01): 0 changed, 1 new, 1 unchanged, 2 removed" in index_md
    assert (f"Removed since the previous pass: 08-limits.md ({titles['08-limits.md']}), "
            f"09-glossary.txt ({titles['09-glossary.txt']}).") in index_md
    assert "0 changed, 1 new, 1 unchanged, 2 removed" in index_html
    assert "08-limits.md" in index_html and "09-glossary.txt" in index_html
    assert not any(name.startswith("chapters/08-limits.md/") for name in out)
    record = json.loads(out["passes.jsonl"].decode().splitlines()[-1])
    assert record["removed"] == ["08-limits.md", "09-glossary.txt"]
    assert record["removed_chapters"][0]["name"] == "08-limits.md"
    assert record["removed_chapters"][0]["last_pass"] == 1
    assert record["removed_chapters"][0]["fingerprint"] == next(
        r["fingerprint"] for r in first.rows if r["file"] == "08-limits.md")
    assert "2 removed (08-limits.md, 09-glossary.txt)" in second.summary_lines()[-1]
