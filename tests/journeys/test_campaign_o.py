"""Campaign o: wrong verdicts with exit 0 that campaigns before it did not reach.

Each test runs the command line as a user does (``python -m cli`` in a fresh interpreter) on files
written here, decides the right verdict by hand and asserts it. Every test failed before its fix.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from commands import run_cli
from userfiles import sandbox_args, write_sandbox_inputs


def _sandbox(tmp_path: Path) -> Path:
    """The user's sandbox run (macro: BM25 nDCG@3 1.0; supplied run Recall@3 0.75, nDCG@3
    0.576113; hybrid and reranker nDCG@3 0.981970), logged in ``log.jsonl``; the log."""
    inputs = write_sandbox_inputs(tmp_path / "inputs")
    done = run_cli(*sandbox_args(inputs, tmp_path / "run", tmp_path / "log.jsonl"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return tmp_path / "log.jsonl"


def test_a_footnote_that_states_a_result_is_a_claim_not_a_reference(tmp_path: Path) -> None:
    """"[^1]: In our run the reranker reaches an nDCG@3 of 0.99." is an aside, not a reference:
    it names no identifier, and the run logs 0.981970. ``report`` read every footnote as a source
    entry and listed the sentence among the rows that need nothing ("background", keep) while
    section 6 proposed reproducing it. It is now a measured result with no evidence (medium)."""
    _sandbox(tmp_path)
    (tmp_path / "ch.md").write_text(
        "# Fusion\n\nThe supplied dense run reaches a Recall@3 of 0.75 on our two topics.\n\n"
        "The reranker keeps the hybrid's order.[^1]\n\n"
        "[^1]: In our run the reranker reaches an nDCG@3 of 0.99.\n", encoding="utf-8")
    assert run_cli("bind", "ch.md", "--log", "log.jsonl", "-o", "ch.toml", cwd=tmp_path).returncode == 0
    done = run_cli("report", "ch.md", "--claims", "ch.toml", "--log", "log.jsonl", "--offline",
                   "--date", "2026-12-02", "-o", "report.md", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    row = next(line for line in report.splitlines() if line.startswith('| <a id="c-003-01"></a>'))
    assert "In our run the reranker reaches an nDCG@3 of 0.99." in row
    assert "| measured result | none recorded | none held — UNVERIFIED |" in row and "| medium |" in row
    assert "; background): In our run" not in report


def test_a_renamed_chapters_claims_file_is_named_not_dropped(tmp_path: Path) -> None:
    """Pass 1: 01-fusion.md prints the supplied run's Recall@3 0.75, bound by
    01-fusion.md.claims.toml (MATCH). The author renames the chapter to 01-fusion-v2.md and leaves
    the claims file. Pass 2 bound the renamed chapter by nothing, read the claims file nowhere and
    said so nowhere: the chapter was NO-FLAGS with its number checked by nothing. The claims file
    that binds no chapter is now named on stderr, in the index and in the pass record."""
    _sandbox(tmp_path)
    book = tmp_path / "book"
    book.mkdir()
    (book / "01-fusion.md").write_text("# Fusion\n\nThe supplied dense run reaches a Recall@3 of 0.75 on our "
                                       "two topics.\n", encoding="utf-8")
    assert run_cli("bind", "book/01-fusion.md", "--log", "log.jsonl", "-o", "book/01-fusion.md.claims.toml",
                   cwd=tmp_path).returncode == 0
    args = ("book", "book", "-o", "out", "--log", "log.jsonl", "--offline")
    first = run_cli(*args, cwd=tmp_path)
    assert first.returncode == 0 and "warning" not in first.stderr, first.stderr
    (book / "01-fusion.md").rename(book / "01-fusion-v2.md")
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().endswith("claims files that bind no chapter (not read; a renamed or deleted "
                                        "chapter's?): 01-fusion.md.claims.toml")
    index = (tmp_path / "out" / "index.md").read_text(encoding="utf-8")
    assert ("Claims files that bind no chapter (not read; a renamed or deleted chapter's?): "
            "01-fusion.md.claims.toml.") in index
    last = json.loads((tmp_path / "out" / "passes.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert last["unbound_claims"] == ["01-fusion.md.claims.toml"] and last["removed"] == ["01-fusion.md"]


def test_a_misspelt_key_of_a_claims_file_is_refused_not_ignored(tmp_path: Path) -> None:
    """The user means the sandbox run with k = 5 (none is logged) and writes
    ``[experiment.s.macth]``. ``verify`` ignored the table it did not know, identified the
    experiment by its command alone, read the k = 3 run and said MATCH, exit 0. A key the format
    does not define is now bad input naming its line (exit 2), and so is ``tolerence``."""
    _sandbox(tmp_path)
    claims = tmp_path / "claims.toml"
    claims.write_text('[experiment.s]\ncommand = "sandbox run"\nresult = "metrics"\n[experiment.s.macth]\nk = 5\n\n'
                      '[[binding]]\nid = "r"\nexperiment = "s"\nquote = "Recall@3"\nclaimed = "0.75"\n'
                      'key = "macro.frozen_dense.recall@3"\n', encoding="utf-8")
    done = run_cli("verify", "claims.toml", "--log", "log.jsonl", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.strip() == ("claims.toml:4: field 'experiment.s.macth': unknown key 'macth' (known here: "
                                   "command, result, description, success, failure, rerun, match, inputs)")
    claims.write_text(claims.read_text(encoding="utf-8").replace("macth", "match").replace("k = 5", "k = 3")
                      + "tolerence = 0.1\n", encoding="utf-8")
    done = run_cli("verify", "claims.toml", "--log", "log.jsonl", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.strip().startswith("claims.toml:13: field 'binding[1].tolerence': unknown key 'tolerence'")


def test_a_result_that_holds_nan_is_not_computed_never_a_match(tmp_path: Path) -> None:
    """A log merged from another machine holds a later run whose metrics.json has
    ``"recall@3": NaN`` (Python's json writes it; an older tool did). ``verify`` said MATCH of a
    printed "nan" (and JSON output carried a bare ``NaN``), and its table died on the value:
    "unexpected ValueError: cannot convert float NaN to integer", exit 1 with no verdicts. Now
    every binding of that key is NOT COMPUTED, named, and the output is valid JSON."""
    import hashlib
    import shutil

    log = _sandbox(tmp_path)
    shutil.copytree(tmp_path / "run", tmp_path / "other")
    metrics = json.loads((tmp_path / "other" / "metrics.json").read_text())
    metrics["macro"]["frozen_dense"]["recall@3"] = float("nan")
    (tmp_path / "other" / "metrics.json").write_text(json.dumps(metrics), encoding="utf-8")
    record = json.loads(json.dumps(json.loads(log.read_text().splitlines()[0])).replace('"run/', '"other/')
                        .replace('"run"', '"other"'))
    record["outputs"]["other/metrics.json"] = hashlib.sha256((tmp_path / "other" / "metrics.json").read_bytes()).hexdigest()
    record["run_id"], record["ended_at"] = "sandbox-run-0thermachine0", "2099-01-01T00:00:00Z"
    with log.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")
    (tmp_path / "claims.toml").write_text(
        '[experiment.s]\ncommand = "sandbox run"\nresult = "metrics"\n[experiment.s.match]\nk = 3\n\n'
        + "".join(f'[[binding]]\nid = "{name}"\nexperiment = "s"\nquote = "Recall@3"\nclaimed = "{claimed}"\n'
                  'key = "macro.frozen_dense.recall@3"\n\n' for name, claimed in (("a", "nan"), ("b", "0.75"))),
        encoding="utf-8")
    text = run_cli("verify", "claims.toml", "--log", "log.jsonl", cwd=tmp_path)
    assert text.returncode == 1 and "unexpected" not in text.stderr, text.stderr
    assert text.stdout.count("NOT COMPUTED (key 'macro.frozen_dense.recall@3' holds nan, not a number") == 2
    done = run_cli("verify", "claims.toml", "--log", "log.jsonl", "--format", "json", cwd=tmp_path)
    verdicts = json.loads(done.stdout, parse_constant=lambda name: pytest.fail(f"bare {name} in JSON output"))
    assert done.returncode == 1 and [(v["verdict"], v["reproduced"], v["run_id"]) for v in verdicts] == [
        ("NOT COMPUTED", None, "sandbox-run-0thermachine0")] * 2


def test_a_log_saved_with_a_byte_order_mark_keeps_its_first_record(tmp_path: Path) -> None:
    """The user evaluated on Monday (P@1 0.5) and, after fixing the run file, on Tuesday (P@1 1.0);
    the merged log, put together in a Windows editor, starts with a UTF-8 BOM and Tuesday's record.
    The log reader called line 1 damaged and skipped it, so ``verify`` read Monday's run and said
    MATCH of the chapter's stale 0.5, exit 0. The BOM is now removed with a warning, as from every
    other input, and the run that ended last is read: MISMATCH."""
    (tmp_path / "qrels.txt").write_text("1 0 d1 1\n2 0 d2 1\n", encoding="utf-8")
    for folder, second in (("monday", "dx"), ("tuesday", "d2")):
        (tmp_path / "run.txt").write_text(f"1 Q0 d1 1 2 mine\n2 Q0 {second} 1 1 mine\n", encoding="utf-8")
        assert run_cli("evaluate", "--qrels", "qrels.txt", "--run", "run.txt", "--measures", "P@1", "-o", folder,
                       "--log", "log.jsonl", cwd=tmp_path).returncode == 0
    monday, tuesday = (json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines())
    monday["started_at"], monday["ended_at"] = "2026-11-30T09:00:00Z", "2026-11-30T09:00:01Z"
    (tmp_path / "log.jsonl").write_bytes(b"\xef\xbb\xbf" + (json.dumps(tuesday) + "\r\n" + json.dumps(monday)
                                                            + "\r\n").encode("utf-8"))
    import hashlib

    qrels = hashlib.sha256((tmp_path / "qrels.txt").read_bytes()).hexdigest()
    (tmp_path / "claims.toml").write_text(
        f'[experiment.e]\ncommand = "evaluate"\nresult = "metrics"\n[experiment.e.inputs]\nqrels = "{qrels}"\n\n'
        '[[binding]]\nid = "p1"\nexperiment = "e"\nquote = "P@1"\nclaimed = "0.5"\nkey = "runs.mine.macro.P@1"\n',
        encoding="utf-8")
    done = run_cli("verify", "claims.toml", "--log", "log.jsonl", "--format", "json", cwd=tmp_path)
    assert "damaged" not in done.stderr and "log.jsonl: UTF-8 byte-order mark removed" in done.stderr
    assert done.returncode == 1 and [(v["reproduced"], v["verdict"], v["run_id"]) for v in json.loads(done.stdout)] \
        == [(1.0, "MISMATCH", tuesday["run_id"])]


def test_a_quote_with_a_control_character_still_gives_a_junit_report_ci_can_read(tmp_path: Path) -> None:
    """The user's quote, pasted from a terminal, holds ``\\u0001`` and an ANSI colour escape.
    ``verify --junit`` wrote them raw: the XML did not parse (CI lost the failure), and the next
    ``verify --junit`` refused to replace the file as "not a chapter-audit JUnit report", exit 3.
    They are now written as ``\\x01`` / ``\\x1b``; the report parses and is replaced next time."""
    import xml.etree.ElementTree as ET

    _sandbox(tmp_path)
    (tmp_path / "claims.toml").write_text(
        '[experiment.s]\ncommand = "sandbox run"\nresult = "metrics"\n\n[[binding]]\nid = "r"\nexperiment = "s"\n'
        'quote = "Recall@3 \\u0001 \\u001b[31m of 0.80"\nclaimed = "0.80"\nkey = "macro.frozen_dense.recall@3"\n',
        encoding="utf-8")
    for _ in range(2):
        done = run_cli("verify", "claims.toml", "--log", "log.jsonl", "--junit", "junit.xml", cwd=tmp_path)
        assert done.returncode == 1 and "MISMATCH" in done.stdout, done.stderr
        failure = ET.parse(tmp_path / "junit.xml").getroot().find(".//failure")
        assert failure.get("type") == "MISMATCH"
        assert failure.text.splitlines()[0] == "quote: Recall@3 \\x01 \\x1b[31m of 0.80"


def test_a_bibliography_entry_without_a_year_whose_doi_is_another_works_is_a_discrepancy(tmp_path: Path) -> None:
    """The chapter's CSL-JSON gives "Deep Widgets for Everyone" (no year, as many exports leave
    it) the DOI 10.9999/test.1, which the loopback Crossref resolves to "Budgeted Selection of
    Evidence Units". The title was compared only for a description written as a citation (names,
    then the year), so the entry was VERIFIED without a word; the entry's own title field is now
    compared: a DISCREPANCY. The entry whose title agrees stays plain."""
    from sources_server import SourcesServer

    (tmp_path / "refs.json").write_text(json.dumps([
        {"id": "w1", "type": "article-journal", "title": "Deep Widgets for Everyone", "DOI": "10.9999/test.1"},
        {"id": "q1", "type": "article-journal", "title": "Budgeted Selection of Evidence Units",
         "DOI": "https://doi.org/10.9999/TEST.1"}]), encoding="utf-8")
    (tmp_path / "ch.md").write_text("# Budgets\n\nBudgets matter [@w1].\n", encoding="utf-8")
    with SourcesServer(tls=False) as server:
        done = run_cli("sources", "ch.md", "--references", "refs.json", "--sources-cache", "cache", "--no-search",
                       "--format", "json", cwd=tmp_path,
                       env={"CHAPTER_AUDIT_CROSSREF_API": f"{server.url}/crossref",
                            "CHAPTER_AUDIT_ARXIV_API": f"{server.url}/arxiv/api",
                            "CHAPTER_AUDIT_GITHUB_API": f"{server.url}/github",
                            "CHAPTER_AUDIT_ALLOW_LOOPBACK_HTTP": "1"})
    assert done.returncode == 0, done.stderr
    records = json.loads(done.stdout)["records"]
    assert [(r["status"], r["discrepancies"]) for r in records] == [
        ("VERIFIED", ["the pack's description cites the title 'Deep Widgets for Everyone', the identifier resolves "
                      "to 'Budgeted Selection of Evidence Units' (title agreement 52.5, below 60): the identifier "
                      "may belong to another work"]),
        ("VERIFIED", [])]
