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


def test_table_online_then_cached(cli, server, env):
    pack, cache = env
    result = cli("sources", pack, "--sources-cache", cache)
    assert result.exit_code == 0, result.output
    assert server.total_hits == 4
    expected = """\
kind    identifier                status      reading         verified title (date) / reason                                 accessed
doi     10.9999/test.1            VERIFIED    abstract only   Budgeted Selection of Evidence Units (2001-07)                 T
doi     10.9999/missing           UNVERIFIED  not accessible  Crossref returned 404                                          T
arxiv   9999.00001                VERIFIED    abstract only   HyPE: Hypothetical Passage Expansion for Testing (2030-02-03T04:05:06Z)  T
github  example-org/example-repo  VERIFIED    abstract only   example-org/example-repo (2030-03-04T05:06:07Z)                T
url     https://example.org/page  UNVERIFIED  not accessible  no metadata API for this kind of URL: not looked up            -
"""
    got = TIME.sub("T", result.output)
    got = "\n".join(re.sub(r"\s+", " ", line) for line in got.splitlines())
    want = "\n".join(re.sub(r"\s+", " ", line) for line in expected.splitlines())
    assert got == want
    widths = {len(line.split("  T")[0]) for line in result.output.splitlines()[1:3]}
    assert len(widths) == 1   # columns are aligned

    again = cli("sources", pack, "--sources-cache", cache)
    assert again.exit_code == 0 and server.total_hits == 4 + 1  # only the 404 is retried
    assert again.output.count("(cache)") == 3


def test_json_offline_makes_no_request(cli, server, env):
    pack, cache = env
    result = cli("sources", pack, "--offline", "--sources-cache", cache, "--format", "json")
    assert result.exit_code == 0 and server.total_hits == 0
    records = json.loads(result.output)
    assert [(r["kind"], r["identifier"], r["status"], r["reason"], r["line"]) for r in records] == [
        ("doi", "10.9999/test.1", "UNVERIFIED", "offline run: not looked up", 11),
        ("doi", "10.9999/missing", "UNVERIFIED", "offline run: not looked up", 12),
        ("arxiv", "9999.00001", "UNVERIFIED", "offline run: not looked up", 13),
        ("github", "example-org/example-repo", "UNVERIFIED", "offline run: not looked up", 14),
        ("url", "https://example.org/page", "UNVERIFIED",
         "no metadata API for this kind of URL: not looked up", 15),
    ]


def test_refresh_requests_again(cli, server, env):
    pack, cache = env
    cli("sources", pack, "--sources-cache", cache)
    result = cli("sources", pack, "--sources-cache", cache, "--refresh", "--format", "json")
    assert result.exit_code == 0 and server.total_hits == 8
    assert not any(r["from_cache"] for r in json.loads(result.output))


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
