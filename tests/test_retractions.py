"""Retracted and corrected sources (Crossref ``updated-by``), on the loopback HTTPS server."""

from __future__ import annotations

import pytest

from reports.validate import validation_problems
from sources_server import CROSSREF_RETRACTED, SourcesServer
from support import point_sources_at

PACK = """== 1. Identity ==
Book:            Invented Book
Chapter:         Budgets

== 2. Chapter text ==

Quillfeather reports that budgeted selection lifts NDCG@10 to 0.512 on the invented collection.
Oakhurst measured character allowances for evidence packets.
Budgets are counted in characters.

== 4. Existing evidence ==
- Quillfeather's budgeted selection. (https://doi.org/10.9999/retracted.1)
- Oakhurst's allowances. (https://doi.org/10.9999/corrected.1)
"""


@pytest.fixture(scope="module")
def server():
    with SourcesServer(tls=True) as running:
        yield running


def test_crossref_update_fields_are_read_as_documented():
    from sources.crossref import parse

    verified = parse(CROSSREF_RETRACTED, "10.9999/retracted.1")
    assert verified["updated_by"] == [
        {"date": "2021-05-04", "doi": "10.9999/retraction-notice.1", "label": "Retraction", "source": "publisher",
         "type": "retraction"},
        {"date": "2021-05-04", "doi": "10.9999/retraction-notice.1", "label": "Retraction", "record_id": "40001",
         "source": "retraction-watch", "type": "retraction"}]
    assert verified["abstract"] == "Budgeted selection lifts NDCG@10 to 0.512 on the invented collection."


def test_retracted_and_corrected_sources_in_sections_3_2_and_fix_first(cli, server, monkeypatch, tmp_path):
    server.reset()
    point_sources_at(server, monkeypatch)
    pack = tmp_path / "pack.txt"
    pack.write_text(PACK, encoding="utf-8")
    out = tmp_path / "r.md"
    result = cli("report", pack, "--output", out, "--log", tmp_path / "l.jsonl", "--sources-cache",
                 tmp_path / "cache", "--date", "2026-12-01", "--no-search")
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert validation_problems(text) == []
    notice = "retraction notice doi:10.9999/retraction-notice.1 (publisher, 2021-05-04)"
    # fix first: the retracted source leads, then the claim resting on it
    first = text.split("### Fix first")[1].split("| Field |")[0]
    items = [line for line in first.splitlines() if line[:1].isdigit()]
    assert items[0].startswith("1. [doi:10.9999/retracted.1](#s-1) RETRACTED source (" + notice)
    assert items[1].startswith("2. [C-001-01](#c-001-01) RETRACTED source doi:10.9999/retracted.1 (" + notice)
    assert "retraction notice doi:10.9999/retraction-notice.1 (retraction-watch, 2021-05-04)" in items[0]
    assert items[2].startswith("3. [C-002-01](#c-002-01) CORRECTED source doi:10.9999/corrected.1 (correction "
                               "notice doi:10.9999/correction-notice.1 (retraction-watch, 2022-01-15))")
    # section 3: RETRACTED / CORRECTED on the row and in its status
    ledger = text.split("## 3. Source ledger")[1].split("## 4.")[0]
    retracted = next(line for line in ledger.splitlines() if "S-1 " in line and line.startswith("| <a"))
    assert '| <a id="s-1"></a>S-1 RETRACTED — doi:10.9999/retracted.1' in retracted
    assert "status: RETRACTED (" + notice in retracted
    corrected = next(line for line in ledger.splitlines() if "S-2 " in line and line.startswith("| <a"))
    assert "S-2 CORRECTED — doi:10.9999/corrected.1" in corrected and "status: CORRECTED (correction notice" in corrected
    # section 2: the claim resting on the retracted source is high, first, with the notice cited; its number
    # is stated in the (retracted) abstract, quoted; the corrected one is flagged and at least medium
    claims = text.split("## 2. Claim audit")[1].split("## 3.")[0]
    rows = [line for line in claims.splitlines() if line.startswith("| <a id=")]
    assert rows[0].startswith('| <a id="c-001-01"></a>C-001-01 |')
    assert "| high |" in rows[0] and "RETRACTED source doi:10.9999/retracted.1 (" + notice in rows[0]
    assert "remove or replace the retracted source" in rows[0]
    assert ("reported by a source: doi:10.9999/retracted.1's abstract: “Budgeted selection lifts NDCG@10 to "
            "0.512 on the invented collection.”") in rows[0]
    assert rows[1].startswith('| <a id="c-002-01"></a>C-002-01 |') and "| medium |" in rows[1]
    assert "CORRECTED source doi:10.9999/corrected.1" in rows[1]
    findings = text.split("## 4. Findings")[1].split("### Qualifying")[0]
    assert "reported by a source" in findings


def test_number_in_an_abstract_needs_the_same_unit_and_metric():
    from types import SimpleNamespace

    from claims.quantities import find_quantities
    from reports.numbers import stated_in

    def claim(text):
        return SimpleNamespace(text=text, quantities=find_quantities(text))

    abstract = "We evaluate on BEIR. Our model reaches NDCG@10 of 0.512 and Recall@100 of 71.3%."
    assert stated_in(claim("It reaches NDCG@10 of 0.512."), abstract) == \
        "Our model reaches NDCG@10 of 0.512 and Recall@100 of 71.3%."
    assert stated_in(claim("It reaches MRR of 0.512."), abstract) is None          # another metric
    assert stated_in(claim("Recall@100 is 71.3 on BEIR."), abstract) is None      # no percent sign: another unit
    assert stated_in(claim("Recall@100 is 71.3% on BEIR."), abstract) is not None
    assert stated_in(claim("It scores 0.512 overall."), abstract) is None          # names no metric
    assert stated_in(claim("It reaches NDCG@10 of 0.51."), abstract) is not None   # 0.512 printed at 2 decimals
    assert stated_in(claim("It reaches NDCG@10 of 0.52."), abstract) is None       # beyond half a unit


def test_a_markdown_chapter_citing_a_retracted_work_by_link(cli, server, monkeypatch, tmp_path):
    """The chapter's own link is looked up like a pack lead; the sentence holding it rests on it."""
    server.reset()
    point_sources_at(server, monkeypatch)
    chapter = tmp_path / "chapter.md"
    chapter.write_text("# Budgets\n\nBudgeted selection lifts NDCG@10 to 0.512 "
                       "([Quillfeather, 2019](https://doi.org/10.9999/retracted.1)). Budgets are counted in "
                       "characters.\n", encoding="utf-8")
    out = tmp_path / "r.md"
    result = cli("report", chapter, "--output", out, "--log", tmp_path / "l.jsonl", "--sources-cache",
                 tmp_path / "cache", "--date", "2026-12-01", "--no-search")
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert validation_problems(text) == []
    first = text.split("### Fix first")[1].split("| Field |")[0]
    items = [line for line in first.splitlines() if line[:1].isdigit()]
    assert items[0].startswith("1. [doi:10.9999/retracted.1](#s-1) RETRACTED source (retraction notice "
                               "doi:10.9999/retraction-notice.1 (publisher, 2021-05-04)")
    assert items[1].startswith("2. [C-001-01](#c-001-01) RETRACTED source doi:10.9999/retracted.1")
    claims = text.split("## 2. Claim audit")[1].split("## 3.")[0]
    row = next(line for line in claims.splitlines() if line.startswith('| <a id="c-001-01"></a>'))
    assert "cites it: link ‘Quillfeather, 2019’ at line 3; source RETRACTED" in row and "| high |" in row


def test_update_status_is_the_most_serious_update():
    import json

    from sources.crossref import parse
    from sources.records import SourceRecord

    def record(updates, key="updated-by"):
        body = json.dumps({"status": "ok", "message": {"DOI": "10.9999/x", "title": ["T"], key: updates}}).encode()
        return SourceRecord("doi", "10.9999/x", "", "https://doi.org/10.9999/x", status="VERIFIED",
                            reading_status="abstract only", verified=parse(body, "10.9999/x"))

    concern = {"DOI": "10.9999/eoc", "type": "expression_of_concern", "source": "publisher",
               "updated": {"date-time": "2024-02-01T00:00:00Z"}}
    correction = {"DOI": "10.9999/c", "type": "correction", "source": "retraction-watch",
                  "updated": {"date-parts": [[2023, 1]]}}
    retraction = {"DOI": "10.9999/r", "type": "retraction", "source": "retraction-watch", "record-id": 7}
    assert record([correction]).update_status == "CORRECTED"
    assert record([correction, concern]).update_status == "EXPRESSION OF CONCERN"
    assert record([correction, concern, retraction]).update_status == "RETRACTED"
    assert record([concern]).updates == [{"date": "2024-02-01", "doi": "10.9999/eoc", "source": "publisher",
                                          "type": "expression_of_concern"}]
    assert record([correction]).updates[0]["date"] == "2023-01"
    assert record([{"type": "new_version", "DOI": "10.9999/v2"}]).update_status is None
    assert record([{"DOI": "10.9999/no-type"}]).updates == []           # an entry without a type is not read
    notice = record([{"DOI": "10.9999/original", "type": "retraction", "source": "publisher"}], key="update-to")
    assert notice.update_status is None                                 # the notice itself is not retracted
    assert notice.verified["update_to"] == [{"doi": "10.9999/original", "source": "publisher", "type": "retraction"}]
