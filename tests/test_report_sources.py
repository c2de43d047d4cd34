"""The report with real look-ups against the loopback HTTPS server: verified rows carry their dates."""

from __future__ import annotations

import pytest

from reports.validate import validation_problems
from sources_server import SourcesServer
from support import point_sources_at

PACK = """== 1. Identity ==
Book:            Invented Book
Chapter:         Budgets

== 2. Chapter text ==

Quillfeather and Oakhurst's BSE selects whole units under a cap.
Nobody's lost paper reports a gain of 12 points.

== 4. Existing evidence ==
Unverified candidates and seeds (leads only — verify before relying on any of them):
- Quillfeather and Oakhurst's BSE; an invented lead. (https://doi.org/10.9999/test.1)
- Nobody's lost paper; an invented lead. (https://doi.org/10.9999/missing)
"""


@pytest.fixture(scope="module")
def server():
    with SourcesServer(tls=True) as running:
        yield running


@pytest.fixture
def pack(server, monkeypatch, tmp_path):
    server.reset()
    point_sources_at(server, monkeypatch)
    path = tmp_path / "pack.txt"
    path.write_text(PACK, encoding="utf-8")
    return path


def ledger_rows(text: str) -> list[str]:
    section = text.split("## 3. Source ledger")[1].split("## 4.")[0]
    return [line for line in section.splitlines() if line.startswith('| <a id="s-')]


def test_online_report_then_offline_from_cache(cli, server, pack, tmp_path):
    cache = tmp_path / "cache"
    out = tmp_path / "online.md"
    result = cli("report", pack, "--output", out, "--log", tmp_path / "log.jsonl", "--sources-cache", cache,
                 "--date", "2026-11-29")
    assert result.exit_code == 0, result.output
    # two look-ups, then one Crossref and one arXiv search for the attribution C-001-01
    assert server.total_hits == 4
    assert server.hits["/crossref/works?query.bibliographic=Quillfeather%20Oakhurst%20BSE&rows=5"] == 1
    text = out.read_text(encoding="utf-8")
    assert validation_problems(text) == []
    verified, missing = ledger_rows(text)
    assert "status: VERIFIED; title: Budgeted Selection of Evidence Units" in verified and "year: 2001" in verified
    assert "| abstract only |" in verified and "C-001-01: mentions" in verified
    access = verified.rsplit("|", 2)[1]
    assert access.strip().startswith("verified 20") and "; accessed 20" in access
    assert "UNVERIFIED: Crossref returned 404" in missing and "| not accessible |" in missing
    assert "absence of a record is not evidence that the source is fabricated" in missing
    # the dead reference is the last item of the fix-first list, linked to its ledger row
    first = text.split("### Fix first")[1].split("| Field |")[0].strip().splitlines()
    assert first[-1].endswith("[doi:10.9999/missing](#s-2) dead or mismatched reference: Crossref returned 404")
    # the attribution to a verified source becomes a citation proposal, flagged as metadata-only
    claims = text.split("## 2. Claim audit")[1].split("## 3.")[0]
    row = next(line for line in claims.splitlines() if line.startswith('| <a id="c-001-01"></a>C-001-01'))
    assert "| reported by a source |" in row and "add a citation to doi:10.9999/test.1" in row
    # offline afterwards: no request, the cached verified record keeps its original access date
    hits = server.total_hits
    offline = tmp_path / "offline.md"
    result = cli("report", pack, "--offline", "--output", offline, "--log", tmp_path / "log.jsonl",
                 "--sources-cache", cache, "--date", "2026-11-29")
    assert result.exit_code == 0, result.output
    assert server.total_hits == hits
    cached = ledger_rows(offline.read_text(encoding="utf-8"))[0]
    assert "(from cache)" in cached and cached.rsplit("|", 2)[1] == access.replace("verified", "verified", 1).replace(
        access.split(";")[0], access.split(";")[0] + " (from cache)")


LEADS = """== 1. Identity ==
Book:            Invented Book
Chapter:         Budgets

== 2. Chapter text ==

Dimitrova et al. showed that budgets matter.
The example-repo code selects whole units.

== 4. Existing evidence ==
- Dimitrova et al.'s survey; an invented lead. (https://doi.org/10.9999/test.1)
- Moved code (https://github.com/old-owner/example-repo)
- Markup work 10.9999/markup
"""


def test_discrepancy_rename_and_markup_in_the_report(cli, server, monkeypatch, tmp_path):
    server.reset()
    point_sources_at(server, monkeypatch)
    pack = tmp_path / "leads.txt"
    pack.write_text(LEADS, encoding="utf-8")
    out = tmp_path / "r.md"
    result = cli("report", pack, "--output", out, "--log", tmp_path / "log.jsonl",
                 "--sources-cache", tmp_path / "cache", "--date", "2026-11-30")
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert validation_problems(text) == []
    ledger = text.split("## 3. Source ledger")[1].split("## 4.")[0]
    assert ledger.lstrip().startswith("3 candidate lines, 3 records; then 1 primary-source search.")
    test1 = next(line for line in ledger.splitlines() if line.startswith('| <a id="s-1"></a>S-1 doi:10.9999/test.1'))
    cells = [c.strip() for c in test1.strip("|").split(" | ")]
    assert cells[4] == "no claim linked"   # the description's name links nothing
    assert cells[5] == ("metadata record only: it identifies the source but cannot support a claim's content; "
                        "DISCREPANCY: the pack's description names 'Dimitrova', who is not among the verified "
                        "authors (Quillfeather, Oakhurst, The Example Consortium): the record is used and the "
                        "description's name links nothing")
    moved = next(line for line in ledger.splitlines() if "S-2 github:old-owner/example-repo" in line)
    assert "status: VERIFIED; title: example-org/example-repo; venue: GitHub repository" in moved
    assert "archived: no; license: " in moved and "identifiers: github:old-owner/example-repo" in moved
    # the repository's description is a note under the table, never a table cell
    assert "An invented repository" not in moved
    assert ("- S-2 github:old-owner/example-repo — repository description (as the record gives it, not the "
            "full text): An invented repository for the sources tests.") in ledger
    assert "abstract only (the repository's description and metadata; no code read)" in moved
    assert "; renamed: old-owner/example-repo → example-org/example-repo |" in moved
    assert "C-002-01: mentions 'example-repo'" in moved
    markup = next(line for line in ledger.splitlines() if "S-3 doi:10.9999/markup" in line)
    assert "title: Selecting with MMR under a budget &amp; a cap" in markup   # & escaped once, no tags
    assert "first authors: Rex Goldstein Jr., Ines Ålund" in markup
    findings = text.split("## 4. Findings")[1].split("## 5.")[0]
    assert "- \\[line 11\\] doi:10.9999/test.1: DISCREPANCY — the pack's description names 'Dimitrova'" in findings
    assert ("- \\[C-001-01\\] names 'Dimitrova', whom the pack's lead doi:10.9999/test.1 credits, but the "
            "verified record does not list that author: not linked.") in findings
    assert "&lt;i&gt;" not in text and "&lt;b&gt;" not in text
    first = text.split("### Fix first")[1].split("| Field |")[0]
    assert "[doi:10.9999/test.1](#s-1) mismatched reference: DISCREPANCY — the pack's description names 'Dimitrova'" \
        in first


def test_a_hit_the_pack_already_names_says_so(cli, server, monkeypatch, tmp_path):
    server.reset()
    point_sources_at(server, monkeypatch)
    pack = tmp_path / "p.txt"
    pack.write_text(PACK.replace("(https://doi.org/10.9999/missing)", "(https://doi.org/10.9999/missing)\n"
                                 "- Quillfeather and Oakhurst (2001). Budgeted Selection of Evidence Units."),
                    encoding="utf-8")
    out = tmp_path / "r.md"
    assert cli("report", pack, "--output", out, "--log", tmp_path / "l.jsonl", "--sources-cache",
               tmp_path / "c", "--date", "2026-11-30").exit_code == 0
    row = next(line for line in out.read_text(encoding="utf-8").splitlines()
               if line.startswith("| found by search for line 14: doi:10.9999/test.1"))
    assert "score 100.0 of 100" in row
    assert "the pack names the same source (line 12)" in row
