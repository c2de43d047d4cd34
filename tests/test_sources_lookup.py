"""Look-ups against a real HTTPS server on 127.0.0.1 (tests/sources_server.py): verified fields,
retries, timeouts, size limit, https-only, status and reading-status semantics."""

from __future__ import annotations

import hashlib
from types import SimpleNamespace

import pytest

from sources.http import (ClientConfig, PoliteClient, SourceEndpoints, check_url,
                          parse_retry_after, UnsafeURL)
from sources.lookup import lookup_sources
from sources_server import (ARXIV_V1, ARXIV_V2, CROSSREF_TEST_1, GITHUB_REPO, SourcesServer)


@pytest.fixture(scope="module")
def server():
    with SourcesServer(tls=True) as running:
        yield running


@pytest.fixture(autouse=True)
def _fresh(server):
    server.reset()
    yield


def look(server, *urls, **config):
    candidates = [SimpleNamespace(description=f"lead {i}", url=u, line=10 + i)
                  for i, u in enumerate(urls)]
    return lookup_sources(candidates, offline=False, cache_dir=None, endpoints=server.endpoints(),
                          client_config=server.client_config(**config))


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_server_speaks_https(server):
    assert server.tls and server.url.startswith("https://127.0.0.1:")


def test_crossref_verified_fields(server):
    [record] = look(server, "https://doi.org/10.9999/TEST.1")
    assert record.to_dict() == {
        "kind": "doi", "identifier": "10.9999/test.1", "description": "lead 0",
        "url": "https://doi.org/10.9999/TEST.1", "status": "VERIFIED", "reason": None,
        "reading_status": "abstract only",
        "verified": {"title": "Budgeted Selection of Evidence Units", "doi": "10.9999/test.1",
                     "authors": ["Ada Quillfeather", "Bram Oakhurst", "The Example Consortium"],
                     "container_title": "Journal of Invented Results", "issued": "2001-07"},
        "request_url": f"{server.url}/crossref/works/10.9999/test.1", "http_status": 200,
        "accessed_at": record.accessed_at, "response_sha256": sha(CROSSREF_TEST_1),
        "attempts": 1, "from_cache": False, "line": 10, "notes": [], "discrepancies": [],
    }
    assert record.accessed_at.endswith("Z") and len(record.accessed_at) == 20
    assert server.hits == {"/crossref/works/10.9999/test.1": 1}


def test_arxiv_latest_and_pinned_version(server):
    latest, pinned = look(server, "https://arxiv.org/abs/9999.00001",
                          "https://arxiv.org/pdf/9999.00001v1.pdf")
    assert latest.status == "VERIFIED" and latest.identifier == "9999.00001"
    assert latest.verified == {
        "id": "9999.00001v2", "version": "v2",
        "title": "HyPE: Hypothetical Passage Expansion for Testing",
        "authors": ["Cora Lindqvist", "Dev Anand Rao"],
        "published": "2029-12-31T23:59:59Z", "updated": "2030-02-03T04:05:06Z",
        "abstract": "We describe a made-up method used only as a test fixture.",
        "doi": "10.9999/test.2"}
    assert latest.response_sha256 == sha(ARXIV_V2)
    assert latest.reading_status == "abstract only" and latest.http_status == 200
    assert latest.request_url == f"{server.url}/arxiv/api/query?id_list=9999.00001"
    assert pinned.identifier == "9999.00001v1"
    assert (pinned.verified["id"], pinned.verified["version"], pinned.verified["updated"]) == \
        ("9999.00001v1", "v1", "2029-12-31T23:59:59Z")
    assert pinned.response_sha256 == sha(ARXIV_V1)


def test_arxiv_unknown_and_error_entries_are_unverified(server):
    empty, error = look(server, "https://arxiv.org/abs/9999.99999",
                        "https://arxiv.org/abs/9999.00002")
    assert (empty.status, empty.reason, empty.http_status) == \
        ("UNVERIFIED", "arXiv returned no entry for 9999.99999", 200)
    assert (error.status, error.reason) == \
        ("UNVERIFIED", "arXiv API error: incorrect id format for 9999.00002")
    assert empty.reading_status == error.reading_status == "not accessible"
    assert empty.verified == {} and empty.response_sha256 is not None


def test_github_verified_and_redirect(server):
    direct, renamed, missing = look(server, "https://github.com/example-org/example-repo",
                                    "https://github.com/example-org/old-name",
                                    "https://github.com/example-org/missing")
    assert direct.verified == {
        "full_name": "example-org/example-repo",
        "description": "An invented repository for the sources tests.", "archived": False,
        "pushed_at": "2030-03-04T05:06:07Z",
        "html_url": "https://github.com/example-org/example-repo", "license": "MIT"}
    assert direct.response_sha256 == sha(GITHUB_REPO) and direct.reading_status == "abstract only"
    assert renamed.status == "VERIFIED" and renamed.identifier == "example-org/old-name"
    assert renamed.verified["full_name"] == "example-org/example-repo"
    assert (missing.status, missing.reason, missing.http_status) == \
        ("UNVERIFIED", "GitHub returned 404", 404)


def test_404_is_unverified_never_fabricated(server):
    [record] = look(server, "https://doi.org/10.9999/missing")
    assert (record.status, record.reason, record.http_status, record.attempts) == \
        ("UNVERIFIED", "Crossref returned 404", 404, 1)
    assert record.reading_status == "not accessible" and record.verified == {}
    assert "fabricat" not in record.reason


def test_timeout_retried_then_unverified(server):
    [record] = look(server, "https://doi.org/10.9999/slow", max_attempts=2)
    assert (record.status, record.reason, record.http_status, record.attempts) == \
        ("UNVERIFIED", "timeout (read, 0.3 s) after 2 attempts", None, 2)
    assert record.response_sha256 is None and record.reading_status == "not accessible"
    assert server.hits["/crossref/works/10.9999/slow"] == 2


def test_429_then_success_honours_retry_after(server):
    with PoliteClient(server.client_config(), allow_loopback_http=False) as client:
        fetch = client.get(f"{server.url}/crossref/works/10.9999/ratelimited-once")
    assert (fetch.http_status, fetch.attempts, fetch.error) == (200, 2, None)
    assert fetch.waits == [0.05]   # Retry-After: 1, capped by retry_after_cap=0.05
    [record] = look(server, "https://doi.org/10.9999/ratelimited-once")  # state: hit 3 → ok
    assert record.status == "VERIFIED" and record.attempts == 1


def test_429_on_first_hit_counts_attempts(server):
    server.reset()
    [record] = look(server, "https://doi.org/10.9999/ratelimited-once")
    assert (record.status, record.attempts, record.http_status) == ("VERIFIED", 2, 200)
    assert record.verified["doi"] == "10.9999/ratelimited-once"
    assert server.hits["/crossref/works/10.9999/ratelimited-once"] == 2


def test_429_forever_gives_up(server):
    with PoliteClient(server.client_config(max_attempts=4)) as client:
        fetch = client.get(f"{server.url}/crossref/works/10.9999/ratelimited")
    assert fetch.waits == [0.05, 0.05, 0.05]
    [record] = look(server, "https://doi.org/10.9999/ratelimited", max_attempts=3)
    assert (record.status, record.reason, record.http_status, record.attempts) == \
        ("UNVERIFIED", "HTTP 429 (rate limited) after 3 attempts", 429, 3)
    assert server.hits["/crossref/works/10.9999/ratelimited"] == 4 + 3


def test_500_then_success_with_backoff(server):
    with PoliteClient(server.client_config()) as client:
        fetch = client.get(f"{server.url}/crossref/works/10.9999/flaky")
    assert (fetch.http_status, fetch.attempts, fetch.waits) == (200, 2, [0.01])


def test_malformed_json(server):
    [record] = look(server, "https://doi.org/10.9999/malformed")
    assert record.status == "UNVERIFIED" and record.http_status == 200
    assert record.reason == "malformed response from Crossref: not JSON (JSONDecodeError)"
    assert record.response_sha256 == sha(b'{"status": "ok", "message": {"title": ["trunc')


@pytest.mark.parametrize("doi", ["10.9999/oversized", "10.9999/oversized-stream"])
def test_oversized_response_abandoned(server, doi):
    [record] = look(server, f"https://doi.org/{doi}")
    assert (record.status, record.reason, record.http_status, record.response_sha256) == \
        ("UNVERIFIED", "response larger than limit (16384 bytes)", 200, None)


def test_different_doi_in_response_is_not_verification(server):
    [record] = look(server, "https://doi.org/10.9999/otherdoi")
    assert record.reason == "Crossref returned a record for a different DOI (10.9999/something.else)"


def test_redirect_to_plain_http_refused(server):
    [record] = look(server, "https://doi.org/10.9999/redirect-http")
    assert (record.status, record.reason) == \
        ("UNVERIFIED", "refused non-https URL: http://example.invalid/works/x")


def test_user_agent_with_contact(server):
    look(server, "https://doi.org/10.9999/test.1", contact="audit@example.org")
    look(server, "https://github.com/example-org/example-repo", contact="https://example.org/me")
    (_, crossref_headers), (_, github_headers) = server.state.requests
    assert crossref_headers["User-Agent"].startswith("chapter-audit/")
    assert crossref_headers["User-Agent"].endswith(" (mailto:audit@example.org)")
    assert github_headers["User-Agent"].endswith(" (+https://example.org/me)")
    assert github_headers["Accept"] == "application/vnd.github+json"


def test_contact_from_environment(monkeypatch):
    monkeypatch.setenv("CHAPTER_AUDIT_CONTACT", "me@example.org")
    assert ClientConfig.from_env().user_agent().endswith("(mailto:me@example.org)")
    monkeypatch.delenv("CHAPTER_AUDIT_CONTACT")
    assert "(" not in ClientConfig.from_env().user_agent()


def test_http_refused_except_allowed_loopback():
    check_url("https://api.crossref.org/works/x")
    check_url("http://127.0.0.1:9/x", allow_loopback_http=True)
    check_url("http://localhost:9/x", allow_loopback_http=True)
    check_url("http://[::1]:9/x", allow_loopback_http=True)
    for url, allow in [("http://127.0.0.1:9/x", False), ("http://example.org/x", True),
                       ("http://127.0.0.2/x", True), ("ftp://127.0.0.1/x", True),
                       ("file:///etc/passwd", True)]:
        with pytest.raises(UnsafeURL):
            check_url(url, allow_loopback_http=allow)


def test_non_loopback_http_endpoint_never_contacted():
    endpoints = SourceEndpoints(crossref="http://example.invalid", allow_loopback_http=True)
    candidates = [SimpleNamespace(description="d", url="https://doi.org/10.9999/test.1")]
    [record] = lookup_sources(candidates, offline=False, cache_dir=None, endpoints=endpoints,
                              client_config=ClientConfig(trust_env=False))
    assert (record.status, record.reason, record.attempts, record.accessed_at) == \
        ("UNVERIFIED", "refused non-https URL: http://example.invalid/works/10.9999/test.1", 0,
         None)


def test_plain_http_loopback_only_when_allowed():
    with SourcesServer(tls=False) as plain:
        assert plain.url.startswith("http://127.0.0.1:")
        [ok] = look(plain, "https://doi.org/10.9999/test.1")
        assert ok.status == "VERIFIED"
        endpoints = plain.endpoints()
        endpoints.allow_loopback_http = False
        candidates = [SimpleNamespace(description="d", url="https://doi.org/10.9999/test.1")]
        [refused] = lookup_sources(candidates, offline=False, cache_dir=None, endpoints=endpoints,
                                   client_config=plain.client_config())
        assert refused.reason.startswith("refused non-https URL: http://127.0.0.1:")
        assert plain.total_hits == 1


def test_untrusted_certificate_is_a_connection_error(server):
    [record] = look(server, "https://doi.org/10.9999/test.1", verify=True, max_attempts=3)
    assert (record.status, record.attempts) == ("UNVERIFIED", 1)   # not retried
    assert record.reason.startswith("connection error: ConnectError:")
    assert "CERTIFICATE_VERIFY_FAILED" in record.reason


def test_url_kind_is_not_looked_up(server):
    [record] = look(server, "https://example.org/some/page")
    assert (record.kind, record.status, record.reason, record.attempts, record.reading_status) == \
        ("url", "UNVERIFIED", "no metadata API for this kind of URL: not looked up", 0,
         "not accessible")
    assert server.total_hits == 0


def test_duplicate_candidates_share_one_request(server):
    first, second = look(server, "https://doi.org/10.9999/test.1",
                         "https://dl.acm.org/doi/10.9999/TEST.1")
    assert first.verified == second.verified
    assert (first.description, second.description) == ("lead 0", "lead 1")
    assert (second.url, second.line) == ("https://dl.acm.org/doi/10.9999/TEST.1", 11)
    assert server.total_hits == 1


def test_parse_retry_after():
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0) == 10.0
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None
