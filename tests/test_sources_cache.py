"""The on-disk source cache: reuse without requests, --refresh, unverified retried, offline."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from engine.runs.hashing import sha256_bytes
from sources.cache import SourceCache, cache_key
from sources.lookup import lookup_sources
from sources_server import SourcesServer

VERIFIABLE = "https://doi.org/10.9999/test.1"
MISSING = "https://doi.org/10.9999/missing"


@pytest.fixture(scope="module")
def server():
    with SourcesServer(tls=True) as running:
        yield running


@pytest.fixture(autouse=True)
def _fresh(server):
    server.reset()


def run(server, cache_dir, *urls, offline=False, refresh=False):
    candidates = [SimpleNamespace(description=f"lead {i}", url=u, line=i + 1)
                  for i, u in enumerate(urls)]
    return lookup_sources(candidates, offline=offline, cache_dir=cache_dir, refresh=refresh,
                          endpoints=server.endpoints(), client_config=server.client_config())


def test_cache_file_name_and_content(server, tmp_path):
    [record] = run(server, tmp_path, VERIFIABLE)
    key = sha256_bytes(b"doi:10.9999/test.1")
    assert cache_key("doi", "10.9999/test.1") == key
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{key}.json"]  # no temporary left
    stored = json.loads((tmp_path / f"{key}.json").read_text())
    assert stored == record.to_dict()


def test_second_run_reuses_cache_without_request(server, tmp_path):
    [first] = run(server, tmp_path, VERIFIABLE)
    assert server.total_hits == 1
    [second] = run(server, tmp_path, VERIFIABLE)
    assert server.total_hits == 1
    assert second.from_cache and not first.from_cache
    assert second.accessed_at == first.accessed_at
    assert second.verified == first.verified and second.response_sha256 == first.response_sha256


def test_refresh_looks_up_again(server, tmp_path):
    run(server, tmp_path, VERIFIABLE)
    [again] = run(server, tmp_path, VERIFIABLE, refresh=True)
    assert server.total_hits == 2 and not again.from_cache and again.status == "VERIFIED"


def test_cached_unverified_is_retried_online(server, tmp_path):
    [first] = run(server, tmp_path, MISSING)
    [second] = run(server, tmp_path, MISSING)
    assert first.status == second.status == "UNVERIFIED"
    assert not second.from_cache
    assert server.hits["/crossref/works/10.9999/missing"] == 2


def test_offline_makes_no_request(server, tmp_path):
    records = run(server, tmp_path, VERIFIABLE, "https://arxiv.org/abs/9999.00001",
                  "https://github.com/example-org/example-repo", offline=True)
    assert server.total_hits == 0
    assert [(r.status, r.reason, r.reading_status, r.accessed_at, r.attempts) for r in records] \
        == [("UNVERIFIED", "offline run: not looked up", "not accessible", None, 0)] * 3
    assert list(tmp_path.iterdir()) == []  # offline placeholders are not cached


def test_offline_uses_cached_verified_record(server, tmp_path):
    [online] = run(server, tmp_path, VERIFIABLE)
    for refresh in (False, True):   # offline cannot refresh: the cache is used and says so
        [offline] = run(server, tmp_path, VERIFIABLE, offline=True, refresh=refresh)
        assert offline.status == "VERIFIED" and offline.from_cache
        assert offline.accessed_at == online.accessed_at
    assert server.total_hits == 1


def test_offline_reports_last_cached_failure(server, tmp_path):
    [online] = run(server, tmp_path, MISSING)
    [offline] = run(server, tmp_path, MISSING, offline=True)
    assert offline.reason == (f"offline run: not looked up (last online attempt "
                              f"{online.accessed_at}: Crossref returned 404)")
    assert server.total_hits == 1


def test_corrupt_cache_file_is_a_miss(server, tmp_path):
    cache = SourceCache(tmp_path)
    tmp_path.joinpath(f"{cache_key('doi', '10.9999/test.1')}.json").write_text("{broken")
    assert cache.get("doi", "10.9999/test.1") is None
    [record] = run(server, tmp_path, VERIFIABLE)
    assert record.status == "VERIFIED" and server.total_hits == 1
    assert cache.get("doi", "10.9999/test.1") == record
