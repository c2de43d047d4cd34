"""Campaign n: wrong verdicts with exit 0 on surfaces the first campaign did not reach.

Each test runs the command line as a user does (``python -m cli`` in a fresh interpreter) on files
written here, decides the right verdict by hand (and by a peer library where one exists) and
asserts it. Every test failed before its fix.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from commands import run_cli
from sources_server import SourcesServer


@pytest.fixture(scope="module")
def server():
    with SourcesServer(tls=False) as running:
        yield running


def _sources_env(server) -> dict[str, str]:
    return {"CHAPTER_AUDIT_CROSSREF_API": f"{server.url}/crossref",
            "CHAPTER_AUDIT_ARXIV_API": f"{server.url}/arxiv/api",
            "CHAPTER_AUDIT_GITHUB_API": f"{server.url}/github",
            "CHAPTER_AUDIT_ALLOW_LOOPBACK_HTTP": "1"}


CITED_PACK = """== 1. Identity ==
Book:            Invented Book
Chapter:         Budgets

== 2. Chapter text ==

BM25 is the ranking function of the probabilistic relevance framework (Robertson and Zaragoza).

== 4. Existing evidence ==
Unverified candidates and seeds (leads only — verify before relying on any of them):
- Robertson and Zaragoza (2009). The Probabilistic Relevance Framework: BM25 and Beyond. https://doi.org/10.9999/test.1
- Quillfeather, A. and Oakhurst, B. (2002). Budgeted Selection of Evidence Units. doi:10.9999/test.1
- Quillfeather, A. and Oakhurst, B. (2001). Budgeted Selection of Evidence Units. doi:10.9999/test.1
- Quillfeather (2019). Invented gains from budgeted selection. doi:10.9999/retracted.1
"""


def _rows(output: str) -> list[str]:
    return [re.sub(r"\s+", " ", line).strip() for line in output.splitlines() if line.startswith("doi ")]


def test_a_doi_that_resolves_to_another_work_is_never_silently_verified(server, tmp_path: Path) -> None:
    """The loopback Crossref record of 10.9999/test.1 is "Budgeted Selection of Evidence Units",
    Quillfeather and Oakhurst, issued 2001-07. The pack cites (1) Robertson and Zaragoza (2009),
    "The Probabilistic Relevance Framework" under that DOI: another work; (2) the right work with
    the year 2002: off by one; (3) the right work, right year: no doubt. ``sources`` printed all
    three VERIFIED with nothing else, so a user read (1) as a verified Robertson paper. The record
    is still the record (VERIFIED), but each disagreement is now a DISCREPANCY: the names, the
    year and the title (token_set_ratio 31.5 < 60); line (3) has none."""
    (tmp_path / "pack.txt").write_text(CITED_PACK, encoding="utf-8")
    done = run_cli("sources", "pack.txt", "--no-search", "--sources-cache", "cache", cwd=tmp_path,
                   env=_sources_env(server))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    wrong, off_by_one, right, _ = _rows(done.stdout)
    assert wrong.startswith("doi 10.9999/test.1 VERIFIED abstract only Budgeted Selection of Evidence Units (2001-07); "
                            "DISCREPANCY: the pack's description names 'Robertson', who is not among the verified "
                            "authors (Quillfeather, Oakhurst, The Example Consortium)")
    assert "DISCREPANCY: the pack's description names 'Zaragoza'" in wrong
    assert "DISCREPANCY: the pack's description gives the year 2009, the verified record 2001 (2001-07)" in wrong
    assert ("DISCREPANCY: the pack's description cites the title 'The Probabilistic Relevance Framework: BM25 and "
            "Beyond', the identifier resolves to 'Budgeted Selection of Evidence Units' (title agreement 31.5 < 60)"
            ) in wrong
    assert off_by_one.count("DISCREPANCY") == 1
    assert "DISCREPANCY: the pack's description gives the year 2002, the verified record 2001 (2001-07)" in off_by_one
    assert "DISCREPANCY" not in right


def test_a_retracted_work_is_never_shown_as_plainly_verified(server, tmp_path: Path) -> None:
    """10.9999/retracted.1 carries a retraction (publisher and Retraction Watch, 2021-05-04).
    ``sources`` printed "VERIFIED ... Invented gains from budgeted selection (2019-03-02)" and not a
    word of the retraction (only ``report`` said it). The table now says RETRACTED with the notice;
    the citation itself agrees with the record (name, year, title), so no DISCREPANCY."""
    (tmp_path / "pack.txt").write_text(CITED_PACK, encoding="utf-8")
    done = run_cli("sources", "pack.txt", "--no-search", "--sources-cache", "cache", cwd=tmp_path,
                   env=_sources_env(server))
    assert done.returncode == 0, done.stderr
    retracted = _rows(done.stdout)[3]
    assert retracted.startswith(
        "doi 10.9999/retracted.1 VERIFIED abstract only Invented gains from budgeted selection (2019-03-02); "
        "RETRACTED: retraction notice doi:10.9999/retraction-notice.1 (publisher, 2021-05-04); "
        "retraction notice doi:10.9999/retraction-notice.1 (retraction-watch, 2021-05-04) ")
    assert "DISCREPANCY" not in retracted
    records = json.loads(run_cli("sources", "pack.txt", "--no-search", "--sources-cache", "cache",
                                 "--format", "json", cwd=tmp_path, env=_sources_env(server)).stdout)["records"]
    assert [len(r["discrepancies"]) for r in records] == [4, 1, 0, 0]
