"""``chapter-audit sources PACK``: table and JSON output over the loopback HTTPS server."""

from __future__ import annotations

import json
import re

import pytest

from sources_server import SourcesServer
from support import point_sources_at

PACK = """== 1. Identity ==
Book:            Invented Book
Chapter:         Budgets

== 2. Chapter text ==

Quillfeather and Oakhurst's BSE selects whole units under a cap.

== 4. Existing evidence ==
Unverified candidates and seeds (leads only — verify before relying on any of them):
- Quillfeather and Oakhurst's BSE; an invented lead. (https://doi.org/10.9999/test.1)
- Nobody's lost paper; an invented lead. (https://doi.org/10.9999/missing)
- Lindqvist et al.'s HyPE; invented. (https://arxiv.org/abs/9999.00001)
- ExampleRepo; invented. (https://github.com/example-org/example-repo)
- A web page; invented. (https://example.org/page)
"""
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", re.MULTILINE)  # access column


@pytest.fixture(scope="module")
def server():
    with SourcesServer(tls=True) as running:
        yield running


@pytest.fixture
def env(server, monkeypatch, tmp_path):
    server.reset()
    point_sources_at(server, monkeypatch)
    monkeypatch.delenv("CHAPTER_AUDIT_CONTACT", raising=False)
    pack = tmp_path / "pack.txt"
    pack.write_text(PACK, encoding="utf-8")
    return pack, tmp_path / "cache"


SEARCH_TABLE = """\
found by search (candidates for a human to confirm; never support):
target    service  identifier  score  title (date) / status  query
C-001-01  -        -           -      searched Crossref and arXiv: 1 hit examined, none scored ≥ 60 (best 50.0)  Quillfeather Oakhurst BSE | au:Quillfeather AND au:Oakhurst AND all:BSE
"""


def squeeze(text: str) -> str:
    return "\n".join(re.sub(r"\s+", " ", line).strip() for line in text.splitlines())


def test_table_online_then_cached(cli, server, env):
    pack, cache = env
    result = cli("sources", pack, "--sources-cache", cache)
    assert result.exit_code == 0, result.output
    assert server.total_hits == 4 + 2   # four look-ups, then Crossref and arXiv searches
    expected = """\
kind    identifier                status      reading         verified title (date) / reason                                 accessed
doi     10.9999/test.1            VERIFIED    abstract only   Budgeted Selection of Evidence Units (2001-07)                 T
doi     10.9999/missing           UNVERIFIED  not accessible  Crossref returned 404                                          T
arxiv   9999.00001                VERIFIED    abstract only   HyPE: Hypothetical Passage Expansion for Testing (2030-02-03T04:05:06Z)  T
github  example-org/example-repo  VERIFIED    abstract only   example-org/example-repo (2030-03-04T05:06:07Z)                T
url     https://example.org/page  UNVERIFIED  not accessible  no metadata API for this kind of URL: not looked up            -

candidate lines read: 5; records made: 5

""" + SEARCH_TABLE
    got = TIME.sub("T", result.output)
    assert squeeze(got) == squeeze(expected)
    widths = {len(line.split("  T")[0]) for line in result.output.splitlines()[1:3]}
    assert len(widths) == 1   # columns are aligned

    again = cli("sources", pack, "--sources-cache", cache)
    assert again.exit_code == 0 and server.total_hits == 6 + 1  # only the 404 is retried
    assert again.output.count("(cache)") == 3
    assert "best 50.0) (from cache)" in again.output


def test_json_offline_makes_no_request(cli, server, env):
    pack, cache = env
    result = cli("sources", pack, "--offline", "--sources-cache", cache, "--format", "json")
    assert result.exit_code == 0 and server.total_hits == 0
    data = json.loads(result.output)
    assert data["candidate_lines"] == len(data["records"]) == 5
    assert [(r["kind"], r["identifier"], r["status"], r["reason"], r["line"]) for r in data["records"]] == [
        ("doi", "10.9999/test.1", "UNVERIFIED", "offline run: not looked up", 11),
        ("doi", "10.9999/missing", "UNVERIFIED", "offline run: not looked up", 12),
        ("arxiv", "9999.00001", "UNVERIFIED", "offline run: not looked up", 13),
        ("github", "example-org/example-repo", "UNVERIFIED", "offline run: not looked up", 14),
        ("url", "https://example.org/page", "UNVERIFIED",
         "no metadata API for this kind of URL: not looked up", 15),
    ]
    [search] = data["searches"]
    assert (search["target"], search["status"], search["hits"]) == (
        "C-001-01", "not searched (offline)", [])
    assert search["queries"] == {"Crossref": "Quillfeather Oakhurst BSE",
                                 "arXiv": "au:Quillfeather AND au:Oakhurst AND all:BSE"}


def test_refresh_requests_again(cli, server, env):
    pack, cache = env
    cli("sources", pack, "--sources-cache", cache)
    result = cli("sources", pack, "--sources-cache", cache, "--refresh", "--format", "json")
    assert result.exit_code == 0 and server.total_hits == 12
    data = json.loads(result.output)
    assert not any(r["from_cache"] for r in data["records"])
    assert data["searches"][0]["from_cache"] is False


def test_no_search(cli, server, env):
    pack, cache = env
    result = cli("sources", pack, "--sources-cache", cache, "--no-search")
    assert result.exit_code == 0 and server.total_hits == 4
    assert "found by search" not in result.output
    assert result.output.rstrip().endswith("candidate lines read: 5; records made: 5")


FORMS = """== 1. Identity ==
Book: Invented

== 2. Chapter text ==
Dimitrova et al. surveyed budgets in 2001.
Quillfeather and Oakhurst's BSE selects whole units under a cap.

== 3. Existing references and bibliography ==
- Quillfeather and Oakhurst (2001). Budgeted Selection of Evidence Units.
- Some notes we cannot place

== 4. Existing evidence ==
- A liver study. (https://doi.org/10.1016/S0168-8278(03)80643-8)
- Eigenvalue page. (https://en.wikipedia.org/wiki/Eigenvalue_(linear_algebra)).
- Markup work 10.9999/markup
- Hypothetical lead, doi:10.9999/test.1.
- HyPE preprint, arXiv:9999.00001v1
- An arxiv page (https://arxiv.org/abs/9999.00001)
- Transferred repo (https://github.com/old-owner/example-repo)
- Dimitrova et al.'s survey of budgets (https://doi.org/10.9999/test.1)
"""


def test_every_form_gives_one_record_in_order(cli, server, env, tmp_path):
    _, cache = env
    pack = tmp_path / "forms.txt"
    pack.write_text(FORMS, encoding="utf-8")
    offline = json.loads(cli("sources", pack, "--offline", "--format", "json",
                             "--sources-cache", cache).output)
    assert offline["candidate_lines"] == 10
    assert [(r["line"], r["kind"], r["identifier"]) for r in offline["records"]] == [
        (9, "citation", "Quillfeather and Oakhurst (2001). Budgeted Selection of Evidence Units."),
        (10, "citation", "Some notes we cannot place"),
        (13, "doi", "10.1016/s0168-8278(03)80643-8"),
        (14, "url", "https://en.wikipedia.org/wiki/Eigenvalue_(linear_algebra)"),
        (15, "doi", "10.9999/markup"),
        (16, "doi", "10.9999/test.1"),
        (17, "arxiv", "9999.00001v1"),
        (18, "arxiv", "9999.00001"),
        (19, "github", "old-owner/example-repo"),
        (20, "doi", "10.9999/test.1"),
    ]
    assert offline["records"][0]["reason"] == (
        "free-text citation with no identifier (URL, DOI or arXiv id): not looked up")

    result = cli("sources", pack, "--sources-cache", cache)
    assert result.exit_code == 0, result.output
    assert "candidate lines read: 10; records made: 10" in result.output
    table = squeeze(TIME.sub("T", result.output))
    # markup stripped from the Crossref title; a followed transfer is noted
    assert "doi 10.9999/markup VERIFIED abstract only Selecting with MMR under a budget & a cap (2003) T" in table
    assert ("github old-owner/example-repo VERIFIED abstract only example-org/example-repo "
            "(2030-03-04T05:06:07Z); renamed: old-owner/example-repo → example-org/example-repo T") in table
    # the description credits Dimitrova; the record's authors are Quillfeather and Oakhurst
    rows = [line for line in table.splitlines() if line.startswith("doi 10.9999/test.1")]
    assert "DISCREPANCY" not in rows[0]
    assert rows[1].endswith("(2001-07); DISCREPANCY: the pack's description names 'Dimitrova', who is "
                            "not among the verified authors (Quillfeather, Oakhurst, The Example "
                            "Consortium): the record is used and the description's name links nothing T")
    assert "<" not in result.output
    # the free-text citation is found by search (its DOI is the one Crossref gave)
    search = result.output.split("found by search (candidates")[1]
    rows = squeeze(search).splitlines()
    assert [row.split(" ")[0] for row in rows[2:]] == ["C-001-01", "C-002-01", "line", "line"]
    assert rows[4] == (
        "line 9 Crossref 10.9999/test.1 100.0 Budgeted Selection of Evidence Units (2001-07); "
        "candidate: confirm before citing Quillfeather Oakhurst Budgeted Selection of Evidence Units 2001")
    data = json.loads(cli("sources", pack, "--format", "json", "--sources-cache", cache).output)
    markup = data["records"][4]["verified"]
    assert markup["authors"] == ["Rex Goldstein Jr.", "Ines Ålund"]
    assert markup["abstract"] == "An invented abstract about budgets."


def test_malformed_pack_exits_2(cli, env, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("== Identity ==\nno number\n", encoding="utf-8")
    result = cli("sources", bad, "--offline")
    assert result.exit_code == 2
    missing = cli("sources", tmp_path / "absent.txt", "--offline")
    assert missing.exit_code == 2


def test_bad_format_exits_2(cli, env):
    pack, cache = env
    assert cli("sources", pack, "--offline", "--format", "xml").exit_code == 2
